//! Private libraries and the data values and schemas given to them, checked against
//! ytt 0.48's workspace package (`library_module.go`, `library_execution.go`, the
//! pre-processing of values and schemas, `datavalues` envelopes and `ref` paths): the
//! order of documents passed down through nested libraries, the names of documents no
//! library took, `library.get`'s switches and the errors of each stage.

use crate::support::ytt;

/// A template that evaluates library `NAME` (ARGS after the name) into the output.
fn eval_lib(name: &str, args: &str) -> String {
    format!(
        "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"{name}\"{args}).eval())\n"
    )
}

/// A template that prints its library's data values under `key`.
fn show(key: &str) -> String {
    format!("#@ load(\"@ytt:data\", \"data\")\n{key}: #@ data.values\n")
}

/// The documents meant for a grandchild reach it in ytt's order:
/// `libraryValue.libraryValues` puts those of the middle library's own files first
/// (`LibraryExecution.Values`' leftovers) and those its parent passed down after them
/// ("Order data values specified in a parent library, on top of data values specified
/// within a child library"), so the root's `@mid@inner` document wins over mid's
/// `@inner` one, and a `--data-value @mid@inner:` flag over both.
#[test]
fn a_parents_documents_for_a_grandchild_go_on_top_of_the_middle_librarys() {
    let inner_show = show("inner");
    let mid_eval = eval_lib("inner", "");
    let root_eval = eval_lib("mid", "");
    let files = [
        ("_ytt_lib/mid/_ytt_lib/inner/show.yml", inner_show.as_str()),
        (
            "_ytt_lib/mid/_ytt_lib/inner/values.yml",
            "#@data/values\n---\nc: inner\nd: inner\ne: inner\n",
        ),
        (
            "_ytt_lib/mid/values.yml",
            "#@library/ref \"@inner\"\n#@data/values\n---\nc: mid\nd: mid\ne: mid\n",
        ),
        ("_ytt_lib/mid/config.yml", mid_eval.as_str()),
        (
            "values.yml",
            "#@library/ref \"@mid@inner\"\n#@data/values\n---\nd: root\ne: root\n",
        ),
        ("config.yml", root_eval.as_str()),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", ".", "-v", "@mid@inner:e=flag"]).unwrap(),
        "inner:\n  c: mid\n  d: root\n  e: flag\n"
    );
}

/// `Envelope.Desc` names a document no library took by the whole path its annotation
/// (or flag) gave (`originalLibRef`), not by what is left of it once the outer library
/// took it; the middle library lists its leftovers (`checkUnusedDVsOrSchemas`) in the
/// order they reached it: documents, then flags.
#[test]
fn unused_documents_passed_down_are_named_by_their_whole_library_path() {
    let root_eval = eval_lib("outer", "");
    let files = [
        ("_ytt_lib/outer/show.yml", "outer: 1\n"),
        (
            "values.yml",
            "#@library/ref \"@outer@inner\"\n#@data/values\n---\na: 1\n",
        ),
        ("config.yml", root_eval.as_str()),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", ".", "-v", "@outer@inner:x=1"]),
        "strake: error: \n- library.eval: Evaluating library 'outer': Expected all provided library data values documents to be used but found unused: Data Value belonging to library '@outer@inner' on line values.yml:3, Data Value belonging to library '@outer@inner' on line (data-value arg):1\n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"outer\").eval())\n"
    );
}

/// `library.get(..., dangerous_data_values_disable_validation=True)` skips the data
/// values validations of that library and of the libraries it gets in turn
/// (`LibraryExecutionFactory.ThatSkipsDataValuesValidations`, handed down with the
/// factory); `False` does not turn back on what `--dangerous-data-values-disable-validation`
/// turned off (the two are or-ed); the value must be a Starlark bool.
#[test]
fn library_get_can_turn_off_data_values_validations() {
    let inner_show = show("inner");
    let lib_eval = eval_lib("inner", "");
    let files = |kw: &str| {
        vec![
            (
                "_ytt_lib/lib/_ytt_lib/inner/show.yml".to_string(),
                inner_show.clone(),
            ),
            (
                "_ytt_lib/lib/_ytt_lib/inner/values.yml".to_string(),
                "#@ load(\"@ytt:assert\", \"assert\")\n#@data/values\n---\n#@assert/validate (\"never\", lambda v: False)\nfoo: bar\n".to_string(),
            ),
            ("_ytt_lib/lib/config.yml".to_string(), lib_eval.clone()),
            ("config.yml".to_string(), eval_lib("lib", kw)),
        ]
    };
    let run = |kw: &str, extra: &[&str]| {
        let owned = files(kw);
        let refs: Vec<(&str, &str)> = owned
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_str()))
            .collect();
        let mut args = vec!["-f", "."];
        args.extend_from_slice(extra);
        ytt::run_binary(&refs, &args)
    };
    let off = ", dangerous_data_values_disable_validation=True";
    assert_eq!(
        run(off, &[]),
        (0, "inner:\n  foo: bar\n".into(), String::new())
    );
    let on = ", dangerous_data_values_disable_validation=False";
    assert_eq!(
        run(on, &["--dangerous-data-values-disable-validation"]),
        (0, "inner:\n  foo: bar\n".into(), String::new())
    );
    let (code, _, err) = run(on, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("- library.eval: Evaluating library 'inner': Validating final data values:"),
        "{err}"
    );
    let bad = ", dangerous_data_values_disable_validation=1";
    assert_eq!(
        run(bad, &[]),
        (
            1,
            String::new(),
            "strake: error: \n- library.get: expected starlark.Bool, but was starlark.Int\n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"lib\", dangerous_data_values_disable_validation=1).eval())\n".into()
        )
    );
}

/// A schema file with a document that is not a schema is refused by
/// `DataValuesSchemaPreProcessing.extractSchemaDocs` (no position), under
/// `collectSchemaDocs`' "Templating file" naming the file, in a library as at the root.
#[test]
fn a_schema_file_with_other_documents_is_refused_while_templating_it() {
    let schema = "#@data/values-schema\n---\nport: 1\n---\nfoo: 1\n";
    let lib_show = show("v");
    let root_eval = eval_lib("lib", "");
    let files = [
        ("_ytt_lib/lib/show.yml", lib_show.as_str()),
        ("_ytt_lib/lib/schema.yml", schema),
        ("config.yml", root_eval.as_str()),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values schema (in following order: _ytt_lib/lib/schema.yml): Templating file '_ytt_lib/lib/schema.yml': Expected schema file '_ytt_lib/lib/schema.yml' to only have schema documents\n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"lib\").eval())\n"
    );
    assert_eq!(
        ytt::failure_of(&[("s.yml", schema), ("t.yml", "a: 1\n")], &["-f", "."]),
        "strake: error: Overlaying data values schema (in following order: s.yml):\n  Templating file 's.yml':\n    Expected schema file 's.yml' to only have schema documents\n"
    );
}

/// `with_data_values` and `with_data_values_schema` make their document in memory
/// (`filepos.NewUnknownPosition`); when overlaying it fails, `Op.applyDocSet` still names
/// the document, its line printed as `?` (`Position.AsCompactString`), as it does the
/// map items inside.
#[test]
fn overlay_errors_of_documents_made_in_memory_name_the_document_at_line_unknown() {
    let lib_show = show("v");
    let with = |call: &str| {
        format!(
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").{call}.eval())\n"
        )
    };
    let values_call = with("with_data_values({\"b\": 2})");
    let files = [
        ("_ytt_lib/lib/show.yml", lib_show.as_str()),
        ("_ytt_lib/lib/values.yml", "#@data/values\n---\na: 1\n"),
        ("config.yml", values_call.as_str()),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values (in following order: _ytt_lib/lib/values.yml, additional data values): Document on line ?: Map item (key 'b') on line ?: Expected number of matched nodes to be 1, but was 0\n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"lib\").with_data_values({\"b\": 2}).eval())\n"
    );
    let schema_call = with("with_data_values_schema({\"b\": 2})");
    let files = [
        ("_ytt_lib/lib/show.yml", lib_show.as_str()),
        (
            "_ytt_lib/lib/schema.yml",
            "#@data/values-schema\n---\na: 1\n",
        ),
        ("config.yml", schema_call.as_str()),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values schema (in following order: _ytt_lib/lib/schema.yml, additional data value schema): Document on line ?: Map item (key 'b') on line ?: Expected number of matched nodes to be 1, but was 0\n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"lib\").with_data_values_schema({\"b\": 2}).eval())\n"
    );
}

/// A data value flag's `@ref:` is checked by `LibraryRefExtractor.FromStr` when the
/// value is addressed (`NewEnvelopeWithLibRef`): an empty alias or a piece with two
/// `~` fails the flag under its `AsOverlays` lead, after the value itself was read; a
/// `--data-values-env` prefix only once a variable under it is found, a
/// `--data-values-file` once it has a document.
#[test]
fn a_data_value_flags_library_ref_is_checked_as_ytt_parses_ref_paths() {
    let tpl = show("v");
    let files = [("t.yml", tpl.as_str()), ("f.yml", "a: 1\n")];
    let fail = |args: &[&str]| {
        let mut all = vec!["-f", "t.yml"];
        all.extend_from_slice(args);
        ytt::failure_of(&files, &all)
    };
    assert_eq!(
        fail(&["-v", "@lib~:x=1"]),
        "strake: error: Extracting data value from KV: Expected library alias to not be empty\n"
    );
    assert_eq!(
        fail(&["--data-value-yaml", "@a~b~c:x=1"]),
        "strake: error: Extracting data value from KV: Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '@a~b~c'\n"
    );
    assert_eq!(
        fail(&["--data-value-file", "@lib~:k=f.yml"]),
        "strake: error: Extracting data value from file: Expected library alias to not be empty\n"
    );
    assert_eq!(
        fail(&["--data-values-file", "@lib~:f.yml"]),
        "strake: error: Extracting data value from file: Expected library alias to not be empty\n"
    );
    assert_eq!(
        fail(&["--data-values-file", "@:f.yml"]),
        "strake: error: Extracting data value from file: Expected library ref to not be empty\n"
    );
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                "t.yml",
                "--data-values-env",
                "@lib~:STRAKE_LIBDV_NONE"
            ]
        )
        .unwrap(),
        "v: {}\n"
    );
}

/// `LibraryExecution.eval` checks for documents no library took as soon as every file
/// is evaluated, and `Eval` applies the overlays only after it: an unused
/// `#@library/ref` document is reported over an overlay that fails, at the root as in
/// a private library.
#[test]
fn unused_library_documents_are_reported_before_the_overlays_run() {
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.subset({\"b\": 1})\n---\nb: 2\n";
    let root_eval = eval_lib("lib", "");
    let files = [
        ("_ytt_lib/lib/show.yml", "a: 1\n"),
        ("_ytt_lib/lib/ov.yml", overlay),
        (
            "v.yml",
            "#@library/ref \"@lib@nope\"\n#@data/values\n---\nx: 1\n",
        ),
        ("config.yml", root_eval.as_str()),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Expected all provided library data values documents to be used but found unused: Data Value belonging to library '@lib@nope' on line v.yml:3\n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"lib\").eval())\n"
    );
    let files = [
        ("ov.yml", overlay),
        ("t.yml", "a: 1\n"),
        (
            "v.yml",
            "#@library/ref \"@nope\"\n#@data/values\n---\nx: 1\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: Expected all provided library data values documents to be used but found unused:\n  Data Value belonging to library '@nope' on line v.yml:3\n"
    );
}

/// `--data-values-file @lib:PATH` addresses every document of every file under PATH to
/// the library on its own (`DataValuesFlags.file` makes an envelope of each): the
/// library merges them in order, and when no library takes them each is named by its
/// own place (`Envelope.Desc`).
#[test]
fn each_document_of_a_library_values_file_is_addressed_on_its_own() {
    let lib_show = show("v");
    let root_eval = eval_lib("lib", "");
    let files = [
        ("_ytt_lib/lib/show.yml", lib_show.as_str()),
        ("dv/x.yml", "a: 1\n---\nb: 2\n"),
        ("dv/y.yml", "---\na: 3\n"),
        ("config.yml", root_eval.as_str()),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                ".",
                "--file-mark",
                "dv/**/*:exclude=true",
                "--data-values-file",
                "@lib:dv"
            ]
        )
        .unwrap(),
        "v:\n  a: 3\n  b: 2\n"
    );
    let tpl = show("v");
    let files = [
        ("t.yml", tpl.as_str()),
        ("dv/x.yml", "a: 1\n---\nb: 2\n"),
        ("dv/y.yml", "---\na: 3\n"),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "t.yml", "--data-values-file", "@lib:dv"]),
        "strake: error: Expected all provided library data values documents to be used but found unused:\n  Data Value belonging to library '@lib' on line x.yml:1, Data Value belonging to library '@lib' on line x.yml:2, Data Value belonging to library '@lib' on line y.yml:1\n"
    );
}

/// A private library's values file fails while templated (`DataValuesPreProcessing`)
/// with the stack ytt prints at the root: the failing line of the library's file is
/// quoted under the library's `library.eval` lead, as it is for its templates.
#[test]
fn a_library_values_file_failing_while_templated_quotes_its_line() {
    let root_eval = eval_lib("lib", "");
    let files = [
        ("_ytt_lib/lib/t.yml", "a: 1\n"),
        ("_ytt_lib/lib/v.yml", "#@data/values\n---\nk: 1\nk: 2\n"),
        ("config.yml", root_eval.as_str()),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- library.eval: Evaluating library 'lib': Overlaying data values (in following order: _ytt_lib/lib/v.yml): Templating file '_ytt_lib/lib/v.yml': \n    in <toplevel>\n      config.yml:3 | --- #@ template.replace(library.get(\"lib\").eval())\n\n    reason:\n     - expected key 'k' to not be specified again (unless 'yaml/map-key-override' annotation is added)\n         in <toplevel>\n           _ytt_lib/lib/v.yml:4 | k: 2\n"
    );
}

/// `DataValuesPreProcessing.collectDataValuesDocs` templates every values file (and
/// reads each document's annotations, the library ref before the keywords, in
/// `NewEnvelope`) before any document is overlaid: a later file that fails to template
/// is reported over an overlay error of an earlier one, and a bad `#@library/ref` over
/// an unknown `data/values` keyword of the same document.
#[test]
fn every_values_file_is_templated_before_any_document_is_overlaid() {
    let files = [
        ("t.yml", "a: 1\n"),
        (
            "a.yml",
            "#@data/values\n---\nx: 1\n---\n#@data/values\n---\nz: 2\n",
        ),
        ("b.yml", "#@data/values\n---\nq: #@ fail(\"b\")\n"),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: Overlaying data values (in following order: a.yml, b.yml):\n  Templating file 'b.yml': \n- fail: b\n    in <toplevel>\n      b.yml:3 | q: #@ fail(\"b\")\n"
    );
    let files = [
        ("t.yml", "a: 1\n"),
        (
            "v.yml",
            "#@library/ref \"nolead\"\n#@data/values bogus=1\n---\nx: 1\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: Overlaying data values (in following order: v.yml):\n  Annotation library/ref:\n    Expected library ref to start with '@'\n"
    );
}

/// `DataValuesSchemaPreProcessing.collectSchemaDocs` templates every schema file and
/// reads each document's `#@library/ref` (`NewSchemaEnvelope`, checked by
/// `LibraryRefExtractor.FromAnnotation` as for data values) before any document is
/// overlaid: a later file failing to template is reported over an overlay error of an
/// earlier one, and a malformed library ref on a schema document is refused.
#[test]
fn every_schema_file_is_templated_and_its_library_refs_checked_before_overlaying() {
    let files = [
        ("t.yml", "a: 1\n"),
        (
            "a.yml",
            "#@data/values-schema\n---\nx: 1\n---\n#@data/values-schema\n---\nz: 2\n",
        ),
        ("b.yml", "#@data/values-schema\n---\nq: #@ fail(\"b\")\n"),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: Overlaying data values schema (in following order: a.yml, b.yml):\n  Templating file 'b.yml': \n- fail: b\n    in <toplevel>\n      b.yml:3 | q: #@ fail(\"b\")\n"
    );
    let schema = |r: &str| format!("#@library/ref {r}\n#@data/values-schema\n---\nq: 1\n");
    for (r, want) in [
        (
            "\"nolead\"",
            "Annotation library/ref:\n    Expected library ref to start with '@'\n",
        ),
        (
            "\"@lib~\"",
            "Annotation library/ref:\n    Expected library alias to not be empty\n",
        ),
        (
            "\"@a\", \"@b\"",
            "Expected library/ref annotation to have one arg, got 2\n",
        ),
    ] {
        let s = schema(r);
        let files = [("t.yml", "a: 1\n"), ("s.yml", s.as_str())];
        assert_eq!(
            ytt::failure_of(&files, &["-f", "."]),
            format!(
                "strake: error: Overlaying data values schema (in following order: s.yml):\n  {want}"
            ),
            "{r}"
        );
    }
}

/// `parseDVAnnotations` reads `after_library_module=` as a Starlark bool
/// (`StarlarkValue.AsBool`), before it checks the document is meant for a library.
#[test]
fn after_library_module_must_be_a_starlark_bool() {
    let lib_show = show("v");
    let root_eval = eval_lib("lib", "");
    for (kw, found) in [
        ("\"yes\"", "starlark.String"),
        ("1", "starlark.Int"),
        ("None", "starlark.NoneType"),
    ] {
        let values =
            format!("#@library/ref \"@lib\"\n#@data/values after_library_module={kw}\n---\nx: 1\n");
        let files = [
            ("_ytt_lib/lib/show.yml", lib_show.as_str()),
            ("config.yml", root_eval.as_str()),
            ("v.yml", values.as_str()),
        ];
        assert_eq!(
            ytt::failure_of(&files, &["-f", "."]),
            format!(
                "strake: error: Overlaying data values (in following order: v.yml): expected starlark.Bool, but was {found}\n"
            ),
            "{kw}"
        );
    }
    let files = [
        ("t.yml", "a: 1\n"),
        (
            "v.yml",
            "#@data/values after_library_module=\"yes\"\n---\nx: 1\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: Overlaying data values (in following order: v.yml): expected starlark.Bool, but was starlark.String\n"
    );
}
