//! Differences between strake and ytt 0.48 settled from ytt's source: the identity of
//! the YAML nodes a fragment places (ytt's `yamlmeta` nodes are pointers that a
//! placement does not copy), `template.replace` running when it is called, the check
//! functions of `@ytt:assert`'s assertions, and which of several failing data values
//! files ytt reports.

use crate::support::ytt;

/// ytt's `NewAssertionFromSource` evaluates the check of `min`, `max`, `min_len`,
/// `max_len`, `not_null` and `one_of` from a Starlark lambda, so it is a function named
/// `lambda` (`<function lambda>`, type `function`) whose missing argument is reported
/// with the lambda's parameter name; `one_not_null`'s check is the built-in
/// `assert.one_not_null` (`NewAssertionFromStarlarkFunc`).
#[test]
fn assertion_checks_are_lambdas_except_one_not_null() {
    let body = "#@ load(\"@ytt:assert\", \"assert\")\n\
min: #@ [str(assert.min(1).check), type(assert.min(1).check)]\n\
others: #@ [str(assert.max(1).check), str(assert.min_len(1).check), str(assert.max_len(1).check), str(assert.not_null().check), str(assert.one_of([1]).check)]\n\
one_not_null: #@ [str(assert.one_not_null().check), type(assert.one_not_null().check)]\n\
in_list: #@ str([\"x\", assert.max(2).check])\n\
no_arg: #@ assert.try_to(lambda: assert.min(3).check())\n\
no_seq: #@ assert.try_to(lambda: assert.max_len(3).check())\n\
no_value: #@ assert.try_to(lambda: assert.not_null().check())\n\
kwarg: #@ assert.min(3).check(val=5)\n\
fails: #@ assert.try_to(lambda: assert.max(3).check(5))\n";
    assert_eq!(
        ytt::render(&[("t.yml", body)], &["-f", "t.yml"]).unwrap(),
        "min:\n- <function lambda>\n- function\n\
others:\n- <function lambda>\n- <function lambda>\n- <function lambda>\n- <function lambda>\n- <function lambda>\n\
one_not_null:\n- <built-in function assert.one_not_null>\n- builtin_function_or_method\n\
in_list: '[\"x\", <function lambda>]'\n\
no_arg:\n- null\n- function lambda missing 1 argument (val)\n\
no_seq:\n- null\n- function lambda missing 1 argument (sequence)\n\
no_value:\n- null\n- function lambda missing 1 argument (value)\n\
kwarg: true\n\
fails:\n- null\n- 'fail: value > 3'\n"
    );
}

/// ytt's `RunWithFiles` reads every data value flag (`DataValuesFlags.AsOverlays`)
/// before the schema and data values stages read or template any file, so a bad flag
/// is reported over a values file that fails to template and over a template that is
/// not YAML at all.
#[test]
fn a_bad_data_value_flag_is_reported_before_any_file_fails() {
    let files = [
        ("a.yml", "#@data/values\n---\na: #@ nope\n"),
        ("b.yml", "#@data/values\n---\nb: #@ nope\n"),
        ("t.yml", "x: 1\n"),
    ];
    assert_eq!(
        ytt::failure_of(
            &files,
            &[
                "-f",
                "a.yml",
                "-f",
                "b.yml",
                "-f",
                "t.yml",
                "--data-value-yaml",
                "x=["
            ]
        ),
        "strake: error: Extracting data value from KV: Deserializing value for key 'x': Deserializing YAML value: yaml: line 1: did not find expected node content (--data-value-yaml x=[)\n"
    );
    let files = [
        ("a.yml", "#@data/values\n---\na: #@ nope\n"),
        ("z.yml", "x: [\n"),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "a.yml", "-f", "z.yml", "--data-value", "y"]),
        "strake: error: Extracting data value from KV:\n  Expected format key=value\n"
    );
}

/// `AsOverlays` reads the values files, then every `--data-value`, then every
/// `--data-value-yaml`, then every `--data-value-file`, whatever their order on the
/// command line: the first of those groups with a bad flag is the one reported.
#[test]
fn data_value_flags_fail_in_ytts_reading_order() {
    let files = [("t.yml", "x: 1\n")];
    assert_eq!(
        ytt::failure_of(
            &files,
            &[
                "-f",
                "t.yml",
                "--data-value-yaml",
                "x=[",
                "--data-value",
                "y"
            ]
        ),
        "strake: error: Extracting data value from KV:\n  Expected format key=value\n"
    );
    assert_eq!(
        ytt::failure_of(
            &files,
            &[
                "-f",
                "t.yml",
                "--data-value-file",
                "x=/nonexist",
                "--data-value-yaml",
                "x=["
            ]
        ),
        "strake: error: Extracting data value from KV: Deserializing value for key 'x': Deserializing YAML value: yaml: line 1: did not find expected node content (--data-value-yaml x=[)\n"
    );
}

/// ytt's `TplReplace` runs when `template.replace(x)` is called: x takes the place of
/// the current node (the one whose value is being computed, else the one started
/// last), and the call returns a `noop` (type `noop`, printed `noop`, false) that,
/// set as a value, leaves the node alone. Wrapping the call in `type()` or `str()`, or
/// indexing a list holding it, replaces the node all the same.
#[test]
fn template_replace_replaces_the_current_node_when_called() {
    let body = concat!(
        "#@ load(\"@ytt:template\", \"template\")\n",
        "m:\n",
        "  _: #@ template.replace({\"z\": 1})\n",
        "  t: #@ type(template.replace({\"q\": 2}))\n",
        "  after: 1\n",
        "  #@ template.replace({\"s\": 3})\n",
        "  u: #@ [template.replace({\"w\": 4})][0] or \"x\"\n",
        "arr:\n",
        "- #@ str(template.replace([1, 2]))\n",
        "- 3\n",
        "--- #@ template.replace([{\"d\": 1}, {\"e\": 2}])\n",
        "--- #@ type(template.replace([{\"f\": 1}]))\n",
    );
    assert_eq!(
        ytt::render(&[("t.yml", body)], &["-f", "t.yml"]).unwrap(),
        "m:\n  z: 1\n  q: 2\n  s: 3\n  w: 4\narr:\n- 1\n- 2\n- 3\n---\nd: 1\n---\ne: 2\n---\nf: 1\n"
    );
}

/// A `template.replace(x)` assigned on a code line replaces the node started last at
/// that moment (here `a`, whose place `k` takes); the `noop` it returned leaves the
/// node it is later set on null. What it returns prints as `noop` and is false.
#[test]
fn template_replace_assigned_to_a_variable_acts_where_it_is_called() {
    let body = "#@ load(\"@ytt:template\", \"template\")\n\
m:\n  a: 1\n  #@ x = template.replace({\"k\": 1})\n  b: #@ x\n  c: #@ [str(x), repr(x), bool(x)]\n";
    assert_eq!(
        ytt::render(&[("t.yml", body)], &["-f", "t.yml"]).unwrap(),
        "m:\n  k: 1\n  b: null\n  c:\n  - noop\n  - noop\n  - false\n"
    );
}

/// With no map item, array item or document current, `replaceItem…` has nothing to
/// replace: ytt names the Go type of the node on top of its stack (the map whose first
/// item is about to start). A second replace from the same node finds its placeholder
/// gone.
#[test]
fn template_replace_without_a_replaceable_node_and_twice_from_one_node() {
    let body = "#@ load(\"@ytt:template\", \"template\")\nm:\n  #@ x = template.replace({\"k\": 1})\n  a: 1\n";
    assert_eq!(
        ytt::failure_of(&[("t.yml", body)], &["-f", "t.yml"]),
        "strake: error: \n- template.replace: expected to replace document value, map item or array item, but found *yamlmeta.Map\n    in <toplevel>\n      t.yml:3 |   #@ x = template.replace({\"k\": 1})\n"
    );
    let body = "#@ load(\"@ytt:template\", \"template\")\nm:\n  a: 1\n  b: #@ [template.replace({\"k\": 1}), template.replace({\"j\": 1})]\n";
    assert_eq!(
        ytt::failure_of(&[("t.yml", body)], &["-f", "t.yml"]),
        "strake: error: \n- template.replace: expected to find placeholder map item in map\n    in <toplevel>\n      t.yml:4 |   b: #@ [template.replace({\"k\": 1}), template.replace({\"j\": 1})]\n"
    );
}

/// ytt sets a fragment's own `*yamlmeta.Map` as the value of each node it is placed on
/// (`TplSetNode` → `MapItem.SetValue`, no copy), and the overlay post-processing edits
/// the left documents in place (`mergeMapItem` appends to the matched map): a label an
/// overlay adds to one place of a labels fragment held in a variable shows at every
/// place that fragment went, in every document; a fresh call of the def is a map of
/// its own.
#[test]
fn an_overlay_edit_of_a_placed_fragment_shows_at_all_its_places() {
    let t = concat!(
        "#@ def labels():\n",
        "app: web\n",
        "#@ end\n",
        "#@ l = labels()\n",
        "---\n",
        "kind: Deployment\n",
        "metadata:\n",
        "  labels: #@ l\n",
        "spec:\n",
        "  selector:\n",
        "    matchLabels: #@ l\n",
        "  template:\n",
        "    metadata:\n",
        "      labels: #@ labels()\n",
        "---\n",
        "kind: Service\n",
        "spec:\n",
        "  selector: #@ l\n",
    );
    let o = concat!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n",
        "#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n",
        "---\n",
        "metadata:\n",
        "  labels:\n",
        "    #@overlay/match missing_ok=True\n",
        "    tier: frontend\n",
    );
    assert_eq!(
        ytt::render(
            &[("t.yml", t), ("o.yml", o)],
            &["-f", "t.yml", "-f", "o.yml"]
        )
        .unwrap(),
        "kind: Deployment\nmetadata:\n  labels:\n    app: web\n    tier: frontend\nspec:\n  selector:\n    matchLabels:\n      app: web\n      tier: frontend\n  template:\n    metadata:\n      labels:\n        app: web\n---\nkind: Service\nspec:\n  selector:\n    app: web\n    tier: frontend\n"
    );
}

/// An array fragment placed in two documents is one array: an overlay matching both
/// documents appends to it once per document (`appendArrayItem` on the same
/// `*yamlmeta.Array`), so both show both appends; a fresh call shows one.
#[test]
fn an_array_fragment_in_two_documents_takes_an_append_per_document() {
    let t = concat!(
        "#@ def ports():\n",
        "- 80\n",
        "#@ end\n",
        "#@ p = ports()\n",
        "---\n",
        "kind: A\n",
        "ports: #@ p\n",
        "---\n",
        "kind: B\n",
        "ports: #@ p\n",
        "---\n",
        "kind: C\n",
        "ports: #@ ports()\n",
    );
    let o = concat!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n",
        "#@overlay/match by=overlay.all, expects=\"1+\"\n",
        "---\n",
        "ports:\n",
        "#@overlay/append\n",
        "- 443\n",
    );
    assert_eq!(
        ytt::render(
            &[("t.yml", t), ("o.yml", o)],
            &["-f", "t.yml", "-f", "o.yml"]
        )
        .unwrap(),
        "kind: A\nports:\n- 80\n- 443\n- 443\n---\nkind: B\nports:\n- 80\n- 443\n- 443\n---\nkind: C\nports:\n- 80\n- 443\n"
    );
}

/// `overlay.apply(x, ...)` edits the nodes of fragment `x` in place (`Op.Apply`, "left
/// is modified"), and a place `x` was set on before holds those very nodes: it shows
/// the result too.
#[test]
fn overlay_apply_on_a_placed_fragment_changes_where_it_was_placed() {
    let t = concat!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n",
        "#@ def base():\n",
        "a: 1\n",
        "#@ end\n",
        "#@ def extra():\n",
        "#@overlay/match missing_ok=True\n",
        "b: 2\n",
        "#@ end\n",
        "#@ x = base()\n",
        "first: #@ x\n",
        "inner: #@ {\"k\": x}\n",
        "#@ y = overlay.apply(x, extra())\n",
        "second: #@ y\n",
    );
    assert_eq!(
        ytt::render(&[("t.yml", t)], &["-f", "t.yml"]).unwrap(),
        "first:\n  a: 1\n  b: 2\ninner:\n  k:\n    a: 1\n    b: 2\nsecond:\n  a: 1\n  b: 2\n"
    );
}

/// What ytt copies on placement stays apart: a `data.values` subtree is a struct whose
/// Go value (`orderedmap`) is made anew at each place, and so is a dict such as
/// `yaml.decode`'s result; an overlay editing one place leaves the other alone.
#[test]
fn data_values_and_dicts_are_copied_at_each_place() {
    let t = concat!(
        "#@ load(\"@ytt:data\", \"data\")\n",
        "#@ load(\"@ytt:yaml\", \"yaml\")\n",
        "#@ d = yaml.decode(\"x: 1\")\n",
        "---\n",
        "kind: D\n",
        "a: #@ data.values.labels\n",
        "b: #@ data.values.labels\n",
        "c: #@ d\n",
        "e: #@ d\n",
    );
    let v = "#@data/values\n---\nlabels:\n  app: web\n";
    let o = concat!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n",
        "#@overlay/match by=overlay.subset({\"kind\": \"D\"})\n",
        "---\n",
        "a:\n",
        "  #@overlay/match missing_ok=True\n",
        "  new: 1\n",
        "c:\n",
        "  #@overlay/match missing_ok=True\n",
        "  new: 2\n",
    );
    assert_eq!(
        ytt::render(
            &[("t.yml", t), ("v.yml", v), ("o.yml", o)],
            &["-f", "t.yml", "-f", "v.yml", "-f", "o.yml"]
        )
        .unwrap(),
        "kind: D\na:\n  app: web\n  new: 1\nb:\n  app: web\nc:\n  x: 1\n  new: 2\ne:\n  x: 1\n"
    );
}

/// Every ytt node is a pointer: indexing a fragment (`StarlarkFragment.Get` wraps the
/// item's own value) and splicing it with `template.replace` (`convertValToMapItems`
/// takes the map's own items) hand out the nodes of the fragment itself. An overlay
/// adding a label to the placed fragment shows in the indexed and spliced copies too.
#[test]
fn indexed_and_spliced_parts_of_a_fragment_are_its_own_nodes() {
    let t = concat!(
        "#@ load(\"@ytt:template\", \"template\")\n",
        "#@ def dep():\n",
        "kind: Deployment\n",
        "metadata:\n",
        "  labels:\n",
        "    app: web\n",
        "#@ end\n",
        "#@ d = dep()\n",
        "--- #@ d\n",
        "---\n",
        "kind: Other\n",
        "labels: #@ d[\"metadata\"][\"labels\"]\n",
        "m:\n",
        "  _: #@ template.replace(d[\"metadata\"])\n",
    );
    let o = concat!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n",
        "#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})\n",
        "---\n",
        "metadata:\n",
        "  labels:\n",
        "    #@overlay/match missing_ok=True\n",
        "    tier: x\n",
    );
    assert_eq!(
        ytt::render(
            &[("t.yml", t), ("o.yml", o)],
            &["-f", "t.yml", "-f", "o.yml"]
        )
        .unwrap(),
        "kind: Deployment\nmetadata:\n  labels:\n    app: web\n    tier: x\n---\nkind: Other\nlabels:\n  app: web\n  tier: x\nm:\n  labels:\n    app: web\n    tier: x\n"
    );
    // Read out before the fragment is placed, the part is its node all the same.
    let t = concat!(
        "#@ def dep():\n",
        "kind: Deployment\n",
        "metadata:\n",
        "  labels:\n",
        "    app: web\n",
        "#@ end\n",
        "#@ d = dep()\n",
        "#@ l = d[\"metadata\"][\"labels\"]\n",
        "---\n",
        "kind: Other\n",
        "labels: #@ l\n",
        "--- #@ d\n",
    );
    assert_eq!(
        ytt::render(
            &[("t.yml", t), ("o.yml", o)],
            &["-f", "t.yml", "-f", "o.yml"]
        )
        .unwrap(),
        "kind: Other\nlabels:\n  app: web\n  tier: x\n---\nkind: Deployment\nmetadata:\n  labels:\n    app: web\n    tier: x\n"
    );
}
