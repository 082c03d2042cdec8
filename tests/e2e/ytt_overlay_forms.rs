//! Overlay forms as ytt 0.48 applies them: `when=` (int, "N+", list, function) skips
//! instead of failing, `expects=` as a function, `insert` with `via`, a document whose
//! only overlay annotation is `@overlay/insert` (no `@overlay/match`) output as it is,
//! `assert` without `via` checking containment, `replace` taking the right key,
//! `map_key` needing the key on both sides, and `@overlay/match-child-defaults` on a
//! `@data/values` document.

use crate::support::ytt::render as render_args;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    render_args(files, &["-f", "."])
}

const BASE: &str = "kind: A\n---\nkind: A\n---\nkind: B\n";

#[test]
fn when_skips_the_overlay_instead_of_failing() {
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=overlay.subset({\"kind\": \"A\"}), when=1
---
#@overlay/match missing_ok=True
one_a: true
#@overlay/match by=overlay.subset({\"kind\": \"A\"}), when=\"2+\"
---
#@overlay/match missing_ok=True
many_a: true
#@overlay/match by=overlay.subset({\"kind\": \"B\"}), when=[0, 1]
---
#@overlay/match missing_ok=True
b: true
#@overlay/match by=overlay.all, when=lambda n: n > 5
---
#@overlay/match missing_ok=True
never: true
#@overlay/match by=overlay.all, expects=\"1+\"
---
#@overlay/match when=1
kind: X
";
    assert_eq!(
        render(&[("base.yml", BASE), ("overlay.yml", overlay)]).unwrap(),
        "kind: X\nmany_a: true\n---\nkind: X\nmany_a: true\n---\nkind: X\nb: true\n"
    );
    let both = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all, when=1, expects=1\n---\nkind: A\n";
    let err = render(&[("base.yml", BASE), ("overlay.yml", both)]).unwrap_err();
    assert!(
        err.contains("Expected only one of keyword arguments ('when', 'expects') specified")
            && err.contains("overlay.yml:3"),
        "{err}"
    );
}

#[test]
fn expects_may_be_a_function_of_the_match_count() {
    let ok = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"kind\": \"A\"}), expects=lambda n: n == 2\n---\n#@overlay/match missing_ok=True\nseen: true\n";
    assert_eq!(
        render(&[("base.yml", BASE), ("overlay.yml", ok)]).unwrap(),
        "kind: A\nseen: true\n---\nkind: A\nseen: true\n---\nkind: B\n"
    );
    let bad = ok.replace("n == 2", "n == 3");
    let err = render(&[("base.yml", BASE), ("overlay.yml", &bad)]).unwrap_err();
    assert!(
        err.contains("Expectation of number of matched nodes failed"),
        "{err}"
    );
}

#[test]
fn insert_via_computes_the_inserted_array_item_and_document() {
    let base = "kind: Tenant\nid: red\nsteps:\n- build\n- deploy\n";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=overlay.all
---
steps:
#@overlay/match by=overlay.subset(\"deploy\")
#@overlay/insert before=True, via=lambda left, right: \"pre-\" + left
- ignored
#@overlay/match by=overlay.subset({\"kind\": \"Tenant\"})
#@overlay/insert after=True, via=lambda left, right: {\"kind\": \"Quota\", \"for\": left[\"id\"]}
---
";
    assert_eq!(
        render(&[("base.yml", base), ("overlay.yml", overlay)]).unwrap(),
        "kind: Tenant\nid: red\nsteps:\n- build\n- pre-deploy\n- deploy\n---\nkind: Quota\nfor: red\n"
    );
}

#[test]
fn a_document_with_insert_but_no_match_is_output_as_it_is() {
    let files = [
        ("a.yml", "kind: A\n"),
        (
            "b.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/insert before=True\n---\nkind: Added\n",
        ),
    ];
    assert_eq!(render(&files).unwrap(), "kind: A\n---\nkind: Added\n");
}

#[test]
fn assert_without_via_checks_the_right_keys_only_and_replace_takes_the_right_key() {
    let base = "labels:\n  app: web\n  tier: front\nsettings:\n  mode: eager\n  other: 1\n";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=overlay.all
---
#@overlay/assert
labels:
  app: web
settings:
  #@overlay/match by=lambda key, left, right: key == \"mode\"
  #@overlay/replace
  _: lazy
";
    assert_eq!(
        render(&[("base.yml", base), ("overlay.yml", overlay)]).unwrap(),
        "labels:\n  app: web\n  tier: front\nsettings:\n  _: lazy\n  other: 1\n"
    );
    let missing = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\n#@overlay/assert\nlabels:\n  extra: x\n";
    let err = render(&[("base.yml", base), ("overlay.yml", missing)]).unwrap_err();
    assert!(
        err.contains("Expected at least one map item to match by key"),
        "{err}"
    );
}

#[test]
fn map_key_needs_the_key_on_every_left_item() {
    let base = "backends:\n- host: a\n- port: 80\n";
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nbackends:\n#@overlay/match by=overlay.map_key(\"host\")\n- host: a\n";
    let err = render(&[("base.yml", base), ("overlay.yml", overlay)]).unwrap_err();
    assert!(
        err.contains("Expected to find map item with key 'host', but did not")
            && err.contains("overlay.yml:6"),
        "{err}"
    );
}

#[test]
fn match_child_defaults_on_a_data_values_document_lets_it_add_keys() {
    let files = [
        ("a-values.yml", "#@data/values\n---\nname: app\n"),
        (
            "b-values.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values\n#@overlay/match-child-defaults missing_ok=True\n---\nextra:\n  port: 80\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\nname: #@ data.values.name\nport: #@ data.values.extra.port\n",
        ),
    ];
    assert_eq!(render(&files).unwrap(), "name: app\nport: 80\n");
}
