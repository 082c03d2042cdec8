//! How `schemas/*.json` are made from kapp-controller's published schemas (copied into
//! `tests/fixtures/kapp-controller/`), as a test: it derives every schema again and
//! compares it with the committed file. `STRAKE_WRITE_SCHEMAS=1 cargo test --lib
//! schema_derivation` rewrites them. `schemas/README.md` states the rules in prose.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::package::yaml_doc::{parse_documents, to_json};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(rel: &str) -> String {
    let path = repo().join("tests/fixtures/kapp-controller").join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The two rules applied to every schema node: each `type` also admits `null` (Go and the
/// API server decode a null field as its zero value), and an object that lists its
/// `properties` is closed (`additionalProperties: false`, as strict field validation
/// rejects unknown fields) unless it preserves unknown fields. `$ref`s to
/// `#/components/schemas/X` become `#/$defs/X`; descriptions are dropped.
fn transform(node: &Value) -> Value {
    match node {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                match k.as_str() {
                    "description" => {}
                    "$ref" => {
                        let target = v.as_str().unwrap_or_default();
                        out.insert(
                            k.clone(),
                            Value::String(target.replace("#/components/schemas/", "#/$defs/")),
                        );
                    }
                    "type" => {
                        let t = v.as_str().unwrap_or_default();
                        out.insert(k.clone(), json!([t, "null"]));
                    }
                    "properties" => {
                        let props: Map<String, Value> = v
                            .as_object()
                            .map(|p| p.iter().map(|(n, s)| (n.clone(), transform(s))).collect())
                            .unwrap_or_default();
                        out.insert(k.clone(), Value::Object(props));
                    }
                    "default" | "example" | "enum" => {
                        out.insert(k.clone(), v.clone());
                    }
                    _ => {
                        out.insert(k.clone(), transform(v));
                    }
                }
            }
            let preserves = map
                .get("x-kubernetes-preserve-unknown-fields")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if map.contains_key("properties")
                && !map.contains_key("additionalProperties")
                && !preserves
            {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(transform).collect()),
        other => other.clone(),
    }
}

fn with_header(title: &str, source: &str, root: Value, defs: Option<Map<String, Value>>) -> Value {
    let mut out = Map::new();
    out.insert("$schema".into(), json!(DRAFT));
    out.insert("title".into(), json!(title));
    out.insert(
        "$comment".into(),
        json!(format!(
            "Derived by src/package/schema_derivation.rs from {source}; see schemas/README.md."
        )),
    );
    if let Value::Object(root) = root {
        out.extend(root);
    }
    if let Some(defs) = defs {
        out.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(out)
}

/// Package and PackageMetadata: the aggregated API's OpenAPI v3 document.
fn from_openapi(file: &str, title: &str) -> Value {
    let doc: Value = serde_json::from_str(&fixture(file)).unwrap();
    let root = doc["x-root"]
        .as_str()
        .unwrap()
        .replace("#/components/schemas/", "#/$defs/");
    let defs: Map<String, Value> = doc["components"]["schemas"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), transform(v)))
        .collect();
    with_header(
        title,
        &format!("tests/fixtures/kapp-controller/{file}"),
        json!({"$ref": root}),
        Some(defs),
    )
}

/// The `openAPIV3Schema` of a CRD's served version.
fn crd_schema(file: &str) -> Value {
    let docs = parse_documents(&fixture(file), file).unwrap();
    let crd = to_json(&docs[0]);
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

fn from_crd(file: &str, title: &str) -> Value {
    with_header(
        title,
        &format!("tests/fixtures/kapp-controller/{file}"),
        transform(&crd_schema(file)),
        None,
    )
}

/// The `ObjectMeta` definition and every definition it references, from package.json.
fn object_meta_defs() -> Map<String, Value> {
    let doc: Value = serde_json::from_str(&fixture("openapi/package.json")).unwrap();
    let all = doc["components"]["schemas"].as_object().unwrap();
    let mut wanted = vec!["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta".to_string()];
    let mut defs = Map::new();
    while let Some(name) = wanted.pop() {
        if defs.contains_key(&name) {
            continue;
        }
        let schema = &all[&name];
        collect_refs(schema, &mut wanted);
        defs.insert(name, transform(schema));
    }
    defs
}

fn collect_refs(node: &Value, out: &mut Vec<String>) {
    match node {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "$ref" {
                    if let Some(name) = v
                        .as_str()
                        .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    {
                        out.push(name.to_string());
                    }
                } else {
                    collect_refs(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_refs(i, out)),
        _ => {}
    }
}

const META: &str = "#/$defs/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

fn nullable(t: &str) -> Value {
    json!([t, "null"])
}

fn closed(props: Value, required: &[&str]) -> Value {
    let mut o =
        json!({"type": nullable("object"), "properties": props, "additionalProperties": false});
    if !required.is_empty() {
        o["required"] = json!(required);
    }
    o
}

fn constant(v: &str) -> Value {
    json!({"const": v})
}

/// PackageBuild: the field table of kctrl-packagebuild.md, with the v0.46.0 AppSpec
/// (the 0.53.1 App CRD's `spec` without `defaultNamespace` and `fetch[].git.forceHTTPBasicAuth`).
fn package_build() -> Value {
    let mut app_spec = crd_schema("crds/app.yml")["properties"]["spec"].clone();
    let props = app_spec["properties"].as_object_mut().unwrap();
    props.remove("defaultNamespace");
    props["fetch"]["items"]["properties"]["git"]["properties"]
        .as_object_mut()
        .unwrap()
        .remove("forceHTTPBasicAuth");
    let app_spec = transform(&app_spec);
    let release = json!({"type": nullable("array"), "items": closed(json!({
        "resource": closed(json!({}), &[]),
        "yaml": closed(json!({}), &[]),
    }), &[])});
    let export = json!({"type": nullable("array"), "items": closed(json!({
        "imgpkgBundle": closed(json!({
            "image": {"type": nullable("string")},
            "useKbldImagesLock": {"type": nullable("boolean")},
        }), &[]),
        "includePaths": {"type": nullable("array"), "items": {"type": "string"}},
    }), &[])});
    let root = closed(
        json!({
            "apiVersion": constant("kctrl.carvel.dev/v1alpha1"),
            "kind": constant("PackageBuild"),
            "metadata": {"$ref": META},
            "spec": closed(json!({
                "release": release,
                "template": closed(json!({
                    "spec": closed(json!({
                        "app": closed(json!({"spec": app_spec}), &[]),
                        "export": export,
                        "release": release,
                    }), &[]),
                }), &[]),
            }), &[]),
        }),
        &["apiVersion", "kind"],
    );
    with_header(
        "PackageBuild",
        "tests/fixtures/kapp-controller/kctrl-packagebuild.md and crds/app.yml",
        root,
        Some(object_meta_defs()),
    )
}

fn package_repository_build() -> Value {
    let root = closed(
        json!({
            "apiVersion": constant("kctrl.carvel.dev/v1alpha1"),
            "kind": constant("PackageRepositoryBuild"),
            "metadata": {"$ref": META},
            "spec": closed(json!({
                "export": closed(json!({
                    "imgpkgBundle": closed(json!({"image": {"type": nullable("string")}}), &[]),
                }), &[]),
            }), &[]),
        }),
        &["apiVersion", "kind"],
    );
    with_header(
        "PackageRepositoryBuild",
        "tests/fixtures/kapp-controller/kctrl-packagebuild.md",
        root,
        Some(object_meta_defs()),
    )
}

/// ImagesLock (carvel-formats.md §2.1): strict, `image` a digest reference.
fn images_lock() -> Value {
    let root = closed(
        json!({
            "apiVersion": constant("imgpkg.carvel.dev/v1alpha1"),
            "kind": constant("ImagesLock"),
            "images": {"type": nullable("array"), "items": closed(json!({
                "image": {"type": "string", "pattern": "^[^@\\s]+@sha256:[0-9a-f]{64}$"},
                "annotations": {"type": nullable("object"), "additionalProperties": {"type": "string"}},
            }), &[])},
        }),
        &["apiVersion", "kind"],
    );
    with_header(
        "ImagesLock",
        "imgpkg lockconfig/images_lock.go as described in carvel-formats.md §2.1",
        root,
        None,
    )
}

/// Bundle metadata, `.imgpkg/bundle.yml` (carvel-formats.md §2.2).
fn bundle_metadata() -> Value {
    let root = closed(
        json!({
            "apiVersion": constant("imgpkg.carvel.dev/v1alpha1"),
            "kind": {"enum": ["Bundle", "BundleMetadata"]},
            "metadata": {"type": nullable("object"), "additionalProperties": {"type": "string"}},
            "authors": {"type": nullable("array"), "items": closed(json!({
                "name": {"type": nullable("string")}, "email": {"type": nullable("string")},
            }), &[])},
            "websites": {"type": nullable("array"), "items": closed(json!({
                "url": {"type": nullable("string")},
            }), &[])},
        }),
        &["apiVersion", "kind"],
    );
    with_header(
        "BundleMetadata",
        "imgpkg's bundle.yml as described in carvel-formats.md §2.2",
        root,
        None,
    )
}

fn derived() -> Vec<(&'static str, Value)> {
    vec![
        ("Package", from_openapi("openapi/package.json", "Package")),
        (
            "PackageMetadata",
            from_openapi("openapi/packagemetadata.json", "PackageMetadata"),
        ),
        (
            "PackageInstall",
            from_crd("crds/packageinstall.yml", "PackageInstall"),
        ),
        (
            "PackageRepository",
            from_crd("crds/packagerepository.yml", "PackageRepository"),
        ),
        ("PackageBuild", package_build()),
        ("PackageRepositoryBuild", package_repository_build()),
        ("ImagesLock", images_lock()),
        ("BundleMetadata", bundle_metadata()),
    ]
}

fn schema_path(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(format!("{kind}.json"))
}

#[test]
fn committed_schemas_are_the_derived_ones() {
    let write = std::env::var_os("STRAKE_WRITE_SCHEMAS").is_some();
    for (kind, schema) in derived() {
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        let path = schema_path(kind);
        if write {
            std::fs::write(&path, &text).unwrap();
        } else {
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == text,
                "{} is not what the derivation gives; run STRAKE_WRITE_SCHEMAS=1 cargo test --lib schema_derivation",
                path.display()
            );
        }
    }
    assert_eq!(
        crate::package::resources::EMBEDDED_SCHEMAS.len(),
        derived().len()
    );
}
