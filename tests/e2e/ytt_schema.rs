//! Values schemas end to end: the OpenAPI export of a schema that uses every schema
//! annotation (compared byte for byte with ytt 0.48's output), the extended export
//! (`--openapi-validations`) checking good and bad values files with `jsonschema`, bad
//! schemas failing at file:line, and validations (`#@assert/validate`, `assert.*` rule
//! objects, `when=` with `ctx.root`, the disable flag).

use std::path::{Path, PathBuf};

use strake::cli::template::parse_options;
use strake::ytt::run;
use strake::ytt::user_values::{Problem, check, check_files, load_schema};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/schema/package")
}

/// Runs the engine on `files` (name, text) with `args`; returns stdout or the error text.
fn render(files: &[(&str, &str)], args: &[&str]) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let opts = parse_options(args).map_err(|e| e.to_string())?;
    run(&opts, dir.path(), &mut || Ok(Vec::new()))
        .map(|o| String::from_utf8(o.stdout).unwrap())
        .map_err(|e| e.to_string())
}

/// The flags of a schema export as OpenAPI v3, from the current directory.
const OPENAPI_EXPORT: &[&str] = &[
    "-f",
    ".",
    "--data-values-schema-inspect",
    "-o",
    "openapi-v3",
];

fn schema_text() -> String {
    std::fs::read_to_string(fixtures().join("values-schema.yml")).unwrap()
}

#[test]
fn export_with_every_annotation_matches_ytt() {
    let out = render(&[("schema.yml", &schema_text())], OPENAPI_EXPORT).unwrap();
    let want = std::fs::read_to_string(fixtures().join("ytt-schema-openapi-v3.yml")).unwrap();
    assert_eq!(out, want);
}

/// Constant annotations (plain string literals, made at compile time) and evaluated ones
/// on one node apply in source order: of two `schema/desc`, the later wins, as in ytt.
#[test]
fn constant_and_evaluated_annotations_apply_in_source_order() {
    let schema = "#@data/values-schema\n---\n\
                  #@schema/desc \"constant first\"\n#@schema/desc (\"evaluated second\")\na: 1\n\
                  #@schema/desc (\"evaluated first\")\n#@schema/desc \"constant second\"\n\
                  #@schema/title 'title'\nb: \"\"\n\
                  #@schema/nullable\n#@schema/desc (\"x\" + \"y\")\n#@schema/title \"t\"\nc: 0\n";
    let out = render(&[("schema.yml", schema)], OPENAPI_EXPORT).unwrap();
    let properties = out.split("properties:\n").nth(1).unwrap();
    assert_eq!(
        properties,
        "        a:\n          type: integer\n          description: evaluated second\n          default: 1\n\
         \x20       b:\n          title: title\n          type: string\n          description: constant second\n          default: \"\"\n\
         \x20       c:\n          title: t\n          type: integer\n          nullable: true\n          description: xy\n          default: null\n"
    );
}

#[test]
fn extended_export_adds_validations_required_and_examples() {
    let out = render(
        &[("schema.yml", &schema_text())],
        &[OPENAPI_EXPORT, &["--openapi-validations"]].concat(),
    )
    .unwrap();
    let want = std::fs::read_to_string(fixtures().join("openapi-extended.yml")).unwrap();
    assert_eq!(out, want);
    for needle in [
        "          minimum: 1\n          maximum: 10\n",
        "          enum:\n          - debug\n",
        "          x-examples:\n          - description: local registry\n",
        "      required:\n      - image\n",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    // `required` never lists nullable keys.
    assert!(!out.contains("      - tls\n"));
}

fn problems(schema: &Path, values: &str) -> Vec<Problem> {
    let dir = tempfile::tempdir().unwrap();
    let v = dir.path().join("values.yml");
    std::fs::write(&v, values).unwrap();
    check_files(schema, &v).unwrap()
}

fn paths(ps: &[Problem]) -> Vec<String> {
    ps.iter().map(|p| p.path.clone()).collect()
}

#[test]
fn extended_export_accepts_good_values() {
    let schema = fixtures().join("openapi-extended.yml");
    let good = "replicas: 3\nlogLevel: debug\nports: [80, 443]\ntls:\n  secretName: s\nservice:\n  nodePort: null\n";
    assert_eq!(problems(&schema, good), vec![]);
    // An empty file takes every default.
    assert_eq!(problems(&schema, ""), vec![]);
}

#[test]
fn extended_export_rejects_five_bad_values_files_with_paths() {
    let schema = fixtures().join("openapi-extended.yml");
    let cases: &[(&str, &str, &str)] = &[
        (
            "replicas: 11\n",
            "replicas",
            "greater than the maximum of 10",
        ),
        ("logLevel: loud\n", "logLevel", "is not one of"),
        (
            "ports: [80, \"https\"]\n",
            "ports[1]",
            "is not of type \"integer\"",
        ),
        ("service:\n  nodePort: abc\n", "service.nodePort", "\"abc\""),
        (
            "tls:\n  secretName: x\n  extra: 1\n",
            "tls.extra",
            "not declared",
        ),
    ];
    for (values, path, msg) in cases {
        let ps = problems(&schema, values);
        assert_eq!(
            paths(&ps),
            vec![path.to_string()],
            "values {values:?}: {ps:?}"
        );
        assert!(ps[0].message.contains(msg), "{values:?}: {}", ps[0].message);
    }
}

#[test]
fn every_violation_is_listed() {
    let schema = fixtures().join("openapi-extended.yml");
    let ps = problems(
        &schema,
        "replicas: 0\nlogLevel: loud\nratio: x\ndebug: null\nunknown: 1\n",
    );
    assert_eq!(
        paths(&ps),
        vec!["debug", "logLevel", "ratio", "replicas", "unknown"],
        "{ps:?}"
    );
    assert_eq!(ps[4].message, "is not declared in the values schema");
}

#[test]
fn schema_from_package_and_deploy_dir() {
    // A Package's spec.valuesSchema.openAPIv3 (the plain ytt export): no validations.
    let pkg = load_schema(&fixtures().join("package.yml")).unwrap();
    let v = strake::yaml::Value::Map(vec![(
        strake::yaml::Value::str("replicas"),
        strake::yaml::Value::str("three"),
    )]);
    let ps = check(&pkg, &v).unwrap();
    assert_eq!(paths(&ps), vec!["replicas"]);
    // A deploy directory: exported by the engine, with validations.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("values.yml"), schema_text()).unwrap();
    std::fs::write(dir.path().join("deploy.yml"), "kind: ConfigMap\n").unwrap();
    let ps = problems(dir.path(), "replicas: 12\n");
    assert_eq!(paths(&ps), vec!["replicas"]);
    // A file that is neither.
    let bad = dir.path().join("deploy.yml");
    let e = load_schema(&bad).unwrap_err();
    assert!(e.contains("components.schemas.dataValues"), "{e}");
}

#[test]
fn array_with_two_items_fails_at_file_line() {
    let e = render(
        &[(
            "schema.yml",
            "#@data/values-schema\n---\nname: a\nlist:\n- a\n- b\n",
        )],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        e.contains("Invalid schema - wrong number of items in array definition"),
        "{e}"
    );
    assert!(e.contains("found: 2 array items"), "{e}");
    assert!(e.contains("schema.yml:\n    |\n  4 | list:\n"), "{e}");
}

#[test]
fn default_of_wrong_type_fails_at_file_line() {
    let e = render(
        &[(
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/default \"three\"\nreplicas: 1\n",
        )],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        e.contains("Invalid schema - @schema/default is wrong type"),
        "{e}"
    );
    assert!(e.contains("found: string (at schema.yml:3)"), "{e}");
    assert!(e.contains("expected: integer (by schema.yml:4)"), "{e}");
}

#[test]
fn unknown_annotation_argument_fails_at_file_line() {
    let e = render(
        &[(
            "schema.yml",
            "#@data/values-schema\n---\nname: a\n#@schema/type any=True, every=True\nx: 1\n",
        )],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        e.contains("unknown @schema/type annotation keyword argument")
            && e.contains("= found: every (by schema.yml:4)"),
        "{e}"
    );
    assert!(e.contains("  5 | x: 1\n"), "{e}");
    let e = render(
        &[(
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min_len=1, format=\"ip\"\nx: a\n",
        )],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(e.contains("unknown keyword argument \"format\""), "{e}");
    assert!(e.contains("(at schema.yml:3)"), "{e}");
}

const TPL: &str = "#@ load(\"@ytt:data\", \"data\")\nvalues: #@ data.values\n";

#[test]
fn assert_validate_on_data_values_and_rule_objects() {
    let schema = "#@ load(\"@ytt:assert\", \"assert\")\n#@data/values-schema\n---\n#@schema/validation (\"at least 2 chars\", assert.min_len(2))\nname: abc\nport: 80\n";
    let values = "#@data/values\n---\n#@assert/validate min=1024\nport: 80\n";
    let e = render(
        &[
            ("config.yml", TPL),
            ("schema.yml", schema),
            ("values.yml", values),
        ],
        &["-f", ".", "--data-value", "name=a"],
    )
    .unwrap_err();
    assert!(e.starts_with("Validating final data values:"), "{e}");
    // Both violations are reported, in tree order.
    let name_at = e.find("  name\n").expect(&e);
    let port_at = e.find("  port\n").expect(&e);
    assert!(name_at < port_at, "{e}");
    assert!(
        e.contains("- must be: at least 2 chars (by: schema.yml:4)"),
        "{e}"
    );
    assert!(
        e.contains("- must be: a value >= 1024 (by: values.yml:3)"),
        "{e}"
    );
    assert!(e.contains("found: value < 1024"), "{e}");
    // The disable flag skips them all.
    let out = render(
        &[
            ("config.yml", TPL),
            ("schema.yml", schema),
            ("values.yml", values),
        ],
        &[
            "-f",
            ".",
            "--data-value",
            "name=a",
            "--dangerous-data-values-disable-validation",
        ],
    )
    .unwrap();
    assert_eq!(out, "values:\n  name: a\n  port: 80\n");
}

#[test]
fn when_sees_root_and_parent() {
    let schema = "#@data/values-schema\n---\ntls:\n  #@schema/validation min_len=1, when=lambda v, ctx: ctx.root[\"enabled\"] and ctx.parent[\"active\"]\n  cert: \"\"\n  active: true\nenabled: false\n";
    let ok = render(&[("config.yml", TPL), ("schema.yml", schema)], &["-f", "."]).unwrap();
    assert_eq!(
        ok,
        "values:\n  tls:\n    cert: \"\"\n    active: true\n  enabled: false\n"
    );
    let e = render(
        &[("config.yml", TPL), ("schema.yml", schema)],
        &["-f", ".", "--data-value-yaml", "enabled=true"],
    )
    .unwrap_err();
    assert!(e.contains("  tls.cert\n"), "{e}");
    assert!(e.contains("length >= 1"), "{e}");
}

#[test]
fn data_values_file_type_error_names_file_line_and_schema_line() {
    let schema = "#@data/values-schema\n---\nname: \"\"\nlabels:\n  team: core\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("schema.yml"), schema).unwrap();
    std::fs::write(dir.path().join("config.yml"), TPL).unwrap();
    std::fs::write(dir.path().join("dv.yml"), "labels:\n  team: true\n").unwrap();
    let opts = parse_options(&[
        "-f",
        "schema.yml",
        "-f",
        "config.yml",
        "--data-values-file",
        "dv.yml",
    ])
    .unwrap();
    let e = run(&opts, dir.path(), &mut || Ok(Vec::new()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("One or more data values were invalid"), "{e}");
    assert!(e.contains("dv.yml:\n    |\n  2 |   team: true\n"), "{e}");
    assert!(e.contains("found: boolean"), "{e}");
    assert!(e.contains("expected: string (by schema.yml:5)"), "{e}");
}

#[test]
fn values_check_command_lists_violations_and_sets_exit_status() {
    let bin = env!("CARGO_BIN_EXE_strake");
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.yml");
    let bad = dir.path().join("bad.yml");
    std::fs::write(&good, "replicas: 4\n").unwrap();
    std::fs::write(&bad, "replicas: 0\nservice:\n  type: 3\n").unwrap();
    let schema = fixtures().join("openapi-extended.yml");
    let out = std::process::Command::new(bin)
        .args(["values", "check", "--schema"])
        .arg(&schema)
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).ends_with(": valid\n"));
    let out = std::process::Command::new(bin)
        .args(["values", "check", "--schema"])
        .arg(&schema)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 violations of the values schema"), "{err}");
    assert!(
        err.contains("  replicas: 0 is less than the minimum of 1\n"),
        "{err}"
    );
    assert!(
        err.contains("  service.type: 3 is not of type \"string\"\n"),
        "{err}"
    );
    let out = std::process::Command::new(bin)
        .args(["values", "check", "--schema"])
        .arg(dir.path().join("missing.yml"))
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.yml"));
}

#[test]
fn setting_a_deprecated_value_warns() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("schema.yml"),
        "#@data/values-schema\n---\n#@schema/deprecated \"use size\"\nold_size: 0\nsize: 3\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("values.yml"),
        "#@data/values\n---\nold_size: 1\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("config.yml"), TPL).unwrap();
    let opts = parse_options(&["-f", "."]).unwrap();
    let out = run(&opts, dir.path(), &mut || Ok(Vec::new())).unwrap();
    assert_eq!(out.stdout, b"values:\n  old_size: 1\n  size: 3\n");
    assert_eq!(
        out.warnings,
        vec!["Warning: data value 'old_size' (set in values.yml:3) is deprecated: use size"]
    );
    // Defaults alone do not warn.
    std::fs::remove_file(dir.path().join("values.yml")).unwrap();
    let out = run(&opts, dir.path(), &mut || Ok(Vec::new())).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}
