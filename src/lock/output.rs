//! What `strake lock` prints and writes, byte for byte as kbld 0.42 does:
//!
//! * each resource as `---\n` + sorted YAML, with the `kbld.k14s.io/images` annotation (a
//!   YAML string listing `{url, origins}` of the images found in it that have origins,
//!   without duplicates, sorted by url; `null\n` when none has origins);
//! * `--imgpkg-lock-output`: an imgpkg ImagesLock, one entry per distinct input string;
//! * `--lock-output`: a kbld Config with preresolved overrides (no leading `---`).

use std::collections::BTreeMap;

use crate::lock::config::{
    ID_ANNOTATION, IMGPKG_API_VERSION, KBLD_API_VERSION, KBLD_COMPAT_VERSION, ORIGINS_ANNOTATION,
    SearchRule,
};
use crate::lock::kyaml::to_kbld_yaml;
use crate::lock::resolve::Resolved;
use crate::yaml::Value;

/// The annotation kbld records found images in.
pub const IMAGES_ANNOTATION: &str = "kbld.k14s.io/images";

fn s(text: &str) -> Value {
    Value::str(text)
}

fn yaml(value: &Value) -> String {
    to_kbld_yaml(value).expect("lock values hold no out-of-range integers")
}

/// Adds the `kbld.k14s.io/images` annotation for the images found in a resource.
pub fn annotate(doc: &mut Value, images: &[Resolved]) -> Result<(), String> {
    let mut listed: Vec<&Resolved> = Vec::new();
    for r in images.iter().filter(|r| !r.origins.is_empty()) {
        if !listed.contains(&r) {
            listed.push(r);
        }
    }
    listed.sort_by(|a, b| a.url.cmp(&b.url));
    let list = if listed.is_empty() {
        Value::Null
    } else {
        Value::Array(
            listed
                .iter()
                .map(|r| {
                    Value::Map(vec![
                        (s("url"), s(&r.url)),
                        (s("origins"), Value::Array(r.origins.clone())),
                    ])
                })
                .collect(),
        )
    };
    let text = yaml(&list);
    let Value::Map(items) = doc else {
        return Err(format!("expected a map document, got {}", doc.type_name()));
    };
    let metadata = entry(items, "metadata")?;
    let Value::Map(meta) = metadata else {
        unreachable!()
    };
    let annotations = entry(meta, "annotations")?;
    let Value::Map(anns) = annotations else {
        unreachable!()
    };
    match anns.iter_mut().find(|(k, _)| *k == s(IMAGES_ANNOTATION)) {
        Some((_, v)) => *v = Value::String(text),
        None => anns.push((s(IMAGES_ANNOTATION), Value::String(text))),
    }
    Ok(())
}

/// The map under `key`, created when missing or null.
fn entry<'a>(items: &'a mut Vec<(Value, Value)>, key: &str) -> Result<&'a mut Value, String> {
    let pos = match items.iter().position(|(k, _)| *k == s(key)) {
        Some(p) => p,
        None => {
            items.push((s(key), Value::Map(Vec::new())));
            items.len() - 1
        }
    };
    let v = &mut items[pos].1;
    if *v == Value::Null {
        *v = Value::Map(Vec::new());
    }
    match v {
        Value::Map(_) => Ok(v),
        other => Err(format!("{key}: expected a map, got {}", other.type_name())),
    }
}

/// A resource as kbld prints it on stdout.
pub fn print_resource(doc: &Value) -> String {
    format!("---\n{}", yaml(doc))
}

/// `--imgpkg-lock-output`: one entry per input string, sorted by it.
pub fn images_lock(entries: &BTreeMap<String, Resolved>) -> String {
    let images: Vec<Value> = entries
        .iter()
        .map(|(input, r)| {
            let mut annotations = vec![(s(ID_ANNOTATION), s(input))];
            if !r.origins.is_empty() {
                annotations.push((
                    s(ORIGINS_ANNOTATION),
                    Value::String(yaml(&Value::Array(r.origins.clone()))),
                ));
            }
            Value::Map(vec![
                (s("annotations"), Value::Map(annotations)),
                (s("image"), s(&r.url)),
            ])
        })
        .collect();
    let mut doc = vec![(s("apiVersion"), s(IMGPKG_API_VERSION))];
    if !images.is_empty() {
        doc.push((s("images"), Value::Array(images)));
    }
    doc.push((s("kind"), s("ImagesLock")));
    format!("---\n{}", yaml(&Value::Map(doc)))
}

/// `--lock-output`: a kbld Config that re-applies the resolution without network access.
pub fn config_lock(entries: &BTreeMap<String, Resolved>, user_rules: &[SearchRule]) -> String {
    let overrides: Vec<Value> = entries
        .iter()
        .map(|(input, r)| {
            Value::Map(vec![
                (s("image"), s(input)),
                (s("newImage"), s(&r.url)),
                (s("preresolved"), Value::Bool(true)),
            ])
        })
        .collect();
    let mut doc = vec![
        (s("apiVersion"), s(KBLD_API_VERSION)),
        (s("kind"), s("Config")),
        (s("minimumRequiredVersion"), s(KBLD_COMPAT_VERSION)),
    ];
    if !overrides.is_empty() {
        doc.push((s("overrides"), Value::Array(overrides)));
    }
    if !user_rules.is_empty() {
        doc.push((
            s("searchRules"),
            Value::Array(user_rules.iter().map(|r| r.raw.clone()).collect()),
        ));
    }
    yaml(&Value::Map(doc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::origin;

    #[test]
    fn annotation_lists_images_with_origins_only() {
        let mut doc = crate::yaml::parse_document_set("kind: Pod\nmetadata:\n  name: x\n", "t")
            .unwrap()
            .printable_values()
            .remove(0);
        let a = Resolved {
            url: "r/a@sha256:1".into(),
            origins: vec![origin::resolved("r/a:v1", "v1")],
        };
        let d = Resolved {
            url: "r/d@sha256:2".into(),
            origins: vec![],
        };
        annotate(&mut doc, &[a.clone(), d.clone(), a.clone()]).unwrap();
        assert_eq!(
            print_resource(&doc),
            "---\nkind: Pod\nmetadata:\n  annotations:\n    kbld.k14s.io/images: |\n      - origins:\n        - resolved:\n            tag: v1\n            url: r/a:v1\n        url: r/a@sha256:1\n  name: x\n"
        );
        let mut bare = Value::Map(vec![(s("kind"), s("X"))]);
        annotate(&mut bare, &[d]).unwrap();
        assert_eq!(
            print_resource(&bare),
            "---\nkind: X\nmetadata:\n  annotations:\n    kbld.k14s.io/images: |\n      null\n"
        );
        let mut bad = Value::Map(vec![(s("metadata"), s("x"))]);
        assert!(
            annotate(&mut bad, &[])
                .unwrap_err()
                .contains("metadata: expected a map")
        );
    }

    #[test]
    fn empty_locks() {
        let none = BTreeMap::new();
        assert_eq!(
            images_lock(&none),
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\n"
        );
        assert_eq!(
            config_lock(&none, &[]),
            "apiVersion: kbld.k14s.io/v1alpha1\nkind: Config\nminimumRequiredVersion: 0.42.0\n"
        );
    }
}
