//! Constructs seen in more real public deploy directories (community packages, cluster
//! templates, package repositories with rendered fixtures), each reduced to a small case
//! of its own: what ytt 0.48 prints for them.

use crate::support::ytt::{render, render_output};

/// The rendered text of output file `name` when `files` render to `--output-files out`.
fn text_output(files: &[(&str, &str)], name: &str) -> String {
    crate::support::ytt::output_file(files, name)
}

/// ytt reads a text template's code markers off the code itself: `=` or `-=` first
/// prints, `-` first trims the text before it and `-` last the text after it, and the
/// code is what is left once `-=`, `=` and `-` are taken off its front. So `(@=- x @)`
/// prints `x` without trimming, and `(@-@)` trims both sides.
#[test]
fn text_template_markers_are_read_as_ytt_reads_them() {
    let tpl = "a  \n\n(@-@)  \n\n b\nc (@=- \"x\" @) d\ne (@=-\"y\"-@)   f\ng(@ -@)\n\n\nh (@ n = 1 @)(@= str(n) -@)\n  i\n(@= \"a\" + \"-\" -@)\nj\n";
    assert_eq!(
        text_output(&[("notes.txt", tpl)], "notes.txt"),
        "ab\nc x d\ne yf\ngh 1i\na-j\n"
    );
}

/// The trim markers take every kind of white space ytt's `unicode.IsSpace` takes,
/// vertical tabs, form feeds and no-break spaces included.
#[test]
fn text_template_trim_markers_take_unicode_white_space() {
    let tpl = "a \u{b}\u{c}\u{a0}(@- \"\" -@)\u{a0}\u{2003} b\n";
    assert_eq!(text_output(&[("t.txt", tpl)], "t.txt"), "ab\n");
}

/// A `(@` inside code, an `@)` outside code and a `(@` left open are refused as ytt's
/// scanner refuses them, at the line and column of the second character of the pair
/// (for the open one, just past the end).
#[test]
fn unpaired_text_template_directives_fail_in_ytt_words() {
    let err = |files: &[(&str, &str)]| {
        render(files, &["-f", ".", "--output-files", "out"]).expect_err("must fail")
    };
    let e = err(&[("m.txt", "a (@= \"x\"\nb\n")]);
    assert!(
        e.starts_with("Parsing text template 'm.txt': Missing code closing '@)' at line 3 col 1\n"),
        "{e}"
    );
    let e = err(&[("u.txt", "a @) b\n")]);
    assert!(
        e.starts_with(
            "Parsing text template 'u.txt': Unexpected code closing '@)' at line 1 col 4\n"
        ),
        "{e}"
    );
    let e = err(&[("n.txt", "x\na (@= \"(@\" @) b\n")]);
    assert!(
        e.starts_with(
            "Parsing text template 'n.txt': Unexpected code opening '(@' at line 2 col 9\n"
        ),
        "{e}"
    );
    let e = err(&[(
        "y.yml",
        "---\n#@yaml/text-templated-strings\nk: \"a @) b (@= 'x' @)\"\n",
    )]);
    assert!(
        e.starts_with(
            "Compiling YAML template 'y.yml': Unexpected code closing '@)' at line 3 col 4\n"
        ),
        "{e}"
    );
}

/// ytt 0.48 warns once on stderr when a template calls a `@ytt:math` function, whatever
/// the number of calls, and not when the module is only loaded.
#[test]
fn calling_a_math_function_warns_once_that_results_may_differ_by_cpu() {
    let warning = "\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures.";
    let tpl = "#@ load(\"@ytt:math\", \"math\")\na: #@ math.ceil(1.5)\nb: #@ math.sqrt(16)\nc: #@ math.log(8, 2)\n";
    let out = render_output(&[("config.yml", tpl)], &["-f", "."]).unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "a: 2\nb: 4\nc: 3\n");
    assert_eq!(out.warnings, vec![warning.to_string()]);
    let out = render_output(
        &[(
            "config.yml",
            "#@ load(\"@ytt:math\", \"math\")\npi: #@ math.pi\n",
        )],
        &["-f", "."],
    )
    .unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

/// The errors of `@ytt:math` as ytt 0.48 words them: functions of numbers take exactly
/// one or two positional arguments and name a wrong one by its Go type, `mod` goes by
/// the name `round`, `ceil`/`floor` put their name before starlark-go's own message, and
/// `log` (not behind ytt's error wrapper) names nothing and divides by zero silently.
#[test]
fn math_errors_are_worded_as_ytt_words_them() {
    let err = |expr: &str| {
        let tpl = format!("#@ load(\"@ytt:math\", \"math\")\na: #@ {expr}\n");
        let e = render(&[("config.yml", &tpl)], &["-f", "."]).expect_err(expr);
        e.lines().nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(
        err("math.sqrt(\"4\")"),
        "- sqrt: expected float value, but was starlark.String"
    );
    assert_eq!(
        err("math.sqrt(x=4)"),
        "- sqrt: expected exactly one argument"
    );
    assert_eq!(err("math.pow(2)"), "- pow: expected exactly two arguments");
    assert_eq!(
        err("math.mod(7)"),
        "- round: expected exactly two arguments"
    );
    assert_eq!(
        err("math.mod(None, 2)"),
        "- round: expected float value, but was starlark.NoneType"
    );
    assert_eq!(err("math.ceil()"), "- ceil: ceil: got 0 arguments, want 1");
    assert_eq!(
        err("math.floor([1])"),
        "- floor: expected float value, but was *starlark.List"
    );
    assert_eq!(
        err("math.floor(float(\"inf\"))"),
        "- floor: cannot convert float infinity to integer"
    );
    assert_eq!(
        err("math.log(\"8\")"),
        "- expected float value, but was starlark.String"
    );
    assert_eq!(
        err("math.log(1, 2, 3)"),
        "- log: got 3 arguments, want at most 2"
    );
    let tpl =
        "#@ load(\"@ytt:math\", \"math\")\na: #@ math.log(8, 1)\nb: #@ math.sqrt(9, base=2)\n";
    assert_eq!(
        render(&[("config.yml", tpl)], &["-f", "."]).unwrap(),
        "a: .inf\nb: 3\n"
    );
}

/// `(@= x @)` with a value that is not a string fails as ytt's text node refuses it,
/// naming the Go type of the converted value (`int64`, `<nil>`, `[]interface {}`,
/// `*orderedmap.Map`, the node of a YAML fragment), in `.txt` files and in YAML strings.
#[test]
fn a_non_string_text_template_value_is_refused_with_its_go_type() {
    let first = |files: &[(&str, &str)]| {
        let e = render(files, &["-f", ".", "--output-files", "out"]).expect_err("must fail");
        e.lines().nth(1).unwrap_or_default().to_string()
    };
    for (expr, go) in [
        ("123", "int64"),
        ("None", "<nil>"),
        ("[1]", "[]interface {}"),
        ("{\"a\": 1}", "*orderedmap.Map"),
        ("1.5", "float64"),
    ] {
        let tpl = format!("x (@= {expr} @)\n");
        assert_eq!(
            first(&[("t.txt", &tpl)]),
            format!(
                "- cannot set non-string value ({go}), consider using str(...) to convert to string"
            )
        );
    }
    let yml = "#@ def f():\na: 1\n#@ end\n#@yaml/text-templated-strings\nk: \"(@= f() @)\"\n";
    assert_eq!(
        first(&[("y.yml", yml)]),
        "- cannot set non-string value (*yamlmeta.Map), consider using str(...) to convert to string"
    );
}

/// `template.replace` takes for a map item a map (dict, struct or map fragment), for an
/// array item a list (or array fragment) and for a document a list or a document set;
/// anything else fails in ytt's words, led by `template.replace` and naming the Go type.
#[test]
fn template_replace_refuses_values_its_place_cannot_take_in_ytt_words() {
    let first = |tpl: &str| {
        let files = [(
            "config.yml",
            format!(
                "#@ load(\"@ytt:template\", \"template\")\n#@ def m():\nk: v\n#@ end\n---\n{tpl}"
            ),
        )];
        let files: Vec<(&str, &str)> = files.iter().map(|(n, b)| (*n, b.as_str())).collect();
        let e = render(&files, &["-f", "."]).expect_err(tpl);
        e.lines().nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(
        first("a:\n  b: 1\n  _: #@ template.replace([1])\n"),
        "- template.replace: expected value to be map, but was []interface {}"
    );
    assert_eq!(
        first("- 1\n- #@ template.replace({\"a\": 1})\n"),
        "- template.replace: expected value to be array, but was *orderedmap.Map"
    );
    assert_eq!(
        first("- #@ template.replace(m())\n"),
        "- template.replace: expected value to be array, but was *yamlmeta.Map"
    );
    assert_eq!(
        first("x: 1\n--- #@ template.replace(1)\n"),
        "- template.replace: expected value to be docset, but was int64"
    );
    assert_eq!(
        first("x: 1\n--- #@ template.replace(m())\n"),
        "- template.replace: expected value to be docset, but was *yamlmeta.Map"
    );
    let out = render(
        &[(
            "config.yml",
            "#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace([{\"a\": 1}, 2])\n",
        )],
        &["-f", "."],
    )
    .unwrap();
    assert_eq!(out, "a: 1\n---\n2\n");
}

/// A key given twice fails as ytt's `MapItemOverride` words it (lower case), and from
/// `template.replace` with that builtin's name in front.
#[test]
fn a_key_given_twice_fails_in_ytt_words() {
    let e = render(
        &[("config.yml", "#@ for v in [1, 2]:\nk: #@ v\n#@ end\n")],
        &["-f", "."],
    )
    .unwrap_err();
    assert_eq!(
        e.lines().nth(1),
        Some(
            "- expected key 'k' to not be specified again (unless 'yaml/map-key-override' annotation is added)"
        )
    );
    let tpl = "#@ load(\"@ytt:template\", \"template\")\n#@ def m():\na: 2\n#@ end\nx:\n  a: 1\n  _: #@ template.replace(m())\n";
    let e = render(&[("config.yml", tpl)], &["-f", "."]).unwrap_err();
    assert_eq!(
        e.lines().nth(1),
        Some(
            "- template.replace: expected key 'a' to not be specified again (unless 'yaml/map-key-override' annotation is added)"
        )
    );
}

/// `@ytt:ip` checks its argument and parses as ytt (Go's `net`) does: one string, an
/// invalid address or CIDR named in Go's words, a prefix longer than the address refused,
/// and an IPv4-mapped IPv6 address read as IPv4.
#[test]
fn ip_parsing_follows_ytt_and_go() {
    let first = |expr: &str| {
        let tpl = format!("#@ load(\"@ytt:ip\", \"ip\")\na: #@ {expr}\n");
        match render(&[("config.yml", &tpl)], &["-f", "."]) {
            Ok(out) => out,
            Err(e) => e.lines().nth(1).unwrap_or_default().to_string(),
        }
    };
    assert_eq!(
        first("ip.parse_addr(\"300.1.1.1\")"),
        "- ip.parse_addr: invalid IP address: 300.1.1.1"
    );
    assert_eq!(
        first("ip.parse_addr(1)"),
        "- ip.parse_addr: expected a string, but was int"
    );
    assert_eq!(
        first("ip.parse_addr()"),
        "- ip.parse_addr: expected exactly one argument"
    );
    assert_eq!(
        first("ip.parse_cidr(\"1.2.3.4/33\")"),
        "- ip.parse_cidr: invalid CIDR address: 1.2.3.4/33"
    );
    assert_eq!(
        first("ip.parse_cidr(\"1.2.3.4\")"),
        "- ip.parse_cidr: invalid CIDR address: 1.2.3.4"
    );
    assert_eq!(
        first(
            "[ip.parse_addr(\"::ffff:1.2.3.4\").string(), ip.parse_addr(\"::ffff:1.2.3.4\").is_ipv4()]"
        ),
        "a:\n- 1.2.3.4\n- true\n"
    );
}

/// Overlaying a map onto an array (or an array onto a map, an integer, a null) names the
/// left node's type as ytt 0.48 names it (`yamlmeta.TypeName`), as in its data values.
#[test]
fn overlay_type_mismatches_name_the_node_type_in_words() {
    let err = render(
        &[
            ("a-values.yml", "#@data/values\n---\nkey: 1\n"),
            ("b-values.yml", "#@data/values\n---\n- item\n"),
        ],
        &["-f", "."],
    )
    .unwrap_err();
    assert!(
        err.starts_with("Overlaying data values (in following order: a-values.yml, b-values.yml): Document on line b-values.yml:2: Expected array, but was map"),
        "{err}"
    );
    let ov =
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\nn: {a: 1}\n";
    let err = render(&[("base.yml", "n: 1\n"), ("ov.yml", ov)], &["-f", "."]).unwrap_err();
    assert!(err.contains("Expected map, but was integer"), "{err}");
}

/// A data values file sees no data values while it is templated (ytt evaluates values
/// files with an empty envelope), not even those of the values files before it.
#[test]
fn a_data_values_file_cannot_read_data_values() {
    let files = [
        ("a-values.yml", "#@data/values\n---\nbase_url: http://svc\n"),
        (
            "b-values.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@data/values\n---\nhealth_url: #@ data.values.base_url + \"/healthz\"\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
        ),
    ];
    let e = render(&files, &["-f", "."]).unwrap_err();
    assert!(
        e.contains("- struct has no .base_url field or method"),
        "{e}"
    );
    let files = [
        (
            "values.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@data/values\n---\ncount: #@ len(dir(data.values))\n",
        ),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n--- #@ data.values\n",
        ),
    ];
    assert_eq!(render(&files, &["-f", "."]).unwrap(), "count: 0\n");
}

/// A `#@` comment without a space after the `@` is an annotation named by what follows,
/// and its arguments are code: `#@x = 1` fails in starlark-go's words for a missing
/// primary expression, and `#@load("@ytt:data", "data")` fails on the `@` inside the name,
/// which ytt puts between quotes in its generated code as it is.
#[test]
fn code_written_without_a_space_after_the_at_sign_fails_as_in_ytt() {
    let first = |tpl: &str| {
        let e = render(&[("config.yml", tpl)], &["-f", "."]).expect_err(tpl);
        e.lines().nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(
        first("#@x = 1\nkey: #@ x\n"),
        "- got '=', want primary expression"
    );
    assert_eq!(
        first("#@load(\"@ytt:data\", \"data\")\nkey: 1\n"),
        "- unexpected input character '@'"
    );
    assert_eq!(
        first("#@ x = [1][]\nkey: 1\n"),
        "- got ']', want primary expression"
    );
}

/// Blocks that do not pair up fail as ytt's block scanner reports them, as Starlark
/// syntax errors: an `end` (or `else`) with no block open is "unexpected end", and a
/// block left open is a "mismatched set of block openings", at the line that opened it.
#[test]
fn unpaired_blocks_fail_as_ytt_block_scanner_reports_them() {
    let err = |tpl: &str| render(&[("config.yml", tpl)], &["-f", "."]).expect_err(tpl);
    assert_eq!(
        err("#@ def double(x): return x * 2\n#@ end\ndoubled: #@ double(21)\n"),
        "\n- unexpected end\n    config.yml:2 | #@ end"
    );
    assert_eq!(
        err("#@ def f():\n#@   return 7\nvalue: #@ f()\n"),
        "\n- mismatched set of block openings (if/else/elif/for/def) and closing (end)\n    config.yml:1 | #@ def f():"
    );
    assert_eq!(
        err("#@ if True:\na: 1\n#@ end\n#@ else:\nb: 2\n"),
        "\n- unexpected end\n    config.yml:4 | #@ else:"
    );
}

/// A value ytt cannot convert to YAML (a function, a bound method, a range) fails in the
/// words of its conversion, naming the Go type; a range must go through `list(...)`.
#[test]
fn values_that_do_not_convert_to_yaml_fail_in_ytt_words() {
    let first = |expr: &str| {
        let tpl = format!("#@ load(\"@ytt:struct\", \"struct\")\na: #@ {expr}\n");
        match render(&[("config.yml", &tpl)], &["-f", "."]) {
            Ok(out) => out,
            Err(e) => e.lines().nth(1).unwrap_or_default().to_string(),
        }
    };
    assert_eq!(
        first("len"),
        "- unknown type *starlark.Builtin for conversion to go value"
    );
    assert_eq!(
        first("lambda x: x"),
        "- unknown type *starlark.Function for conversion to go value"
    );
    assert_eq!(
        first("struct.make_and_bind(struct.make(a=1), get=lambda self: self.a)"),
        "- unknown type *starlark.Builtin for conversion to go value"
    );
    assert_eq!(
        first("range(2)"),
        "- unknown type starlark.rangeValue for conversion to go value"
    );
    assert_eq!(first("list(range(2))"), "a:\n- 0\n- 1\n");
}

/// `library.get(...).export(name)` fails in ytt's words, after the built-in's name and
/// `Exporting from library 'NAME'`, when no file or several files of the library define
/// the name, the latter naming the files.
#[test]
fn library_export_of_a_missing_or_ambiguous_symbol_fails_in_ytt_words() {
    let lib = [
        (
            "_ytt_lib/helpers/a.star",
            "def label(name):\n  return \"a-\" + name\nend\n",
        ),
        (
            "_ytt_lib/helpers/b.star",
            "def label(name):\n  return \"b-\" + name\nend\n",
        ),
    ];
    let with = |tpl: &str| {
        let mut files = lib.to_vec();
        let tpl = format!("#@ load(\"@ytt:library\", \"library\")\nvalue: #@ {tpl}\n");
        files.push(("config.yml", &tpl));
        match render(&files, &["-f", "."]) {
            Ok(out) => out,
            Err(e) => e.lines().nth(1).unwrap_or_default().to_string(),
        }
    };
    assert_eq!(
        with("library.get(\"helpers\").export(\"label\")(\"x\")"),
        "- library.export: Exporting from library 'helpers': Expected to find exactly one exported symbol 'label', but found multiple across files: a.star, b.star"
    );
    assert_eq!(
        with("library.get(\"helpers\").export(\"nope\")"),
        "- library.export: Exporting from library 'helpers': Expected to find exported symbol 'nope', but did not"
    );
    assert_eq!(
        with("library.get(\"helpers\").export(\"label\", path=\"b.star\")(\"x\")"),
        "value: b-x\n"
    );
}

/// A `@ytt:regexp` pattern that does not compile fails with Go's `regexp` message, led
/// by the function's name.
#[test]
fn an_invalid_regexp_fails_with_go_words() {
    let tpl = "#@ load(\"@ytt:regexp\", \"regexp\")\nvalue: #@ regexp.match(\"[a-\", \"x\")\n";
    let e = render(&[("config.yml", tpl)], &["-f", "."]).unwrap_err();
    assert_eq!(
        e.lines().nth(1),
        Some("- regexp.match: error parsing regexp: missing closing ]: `[a-`")
    );
}

/// ytt's warnings come before its error: a run that called `@ytt:math` and then
/// failed still warns, on stderr ahead of the error.
#[test]
fn warnings_come_before_the_error_of_a_run_that_fails() {
    let tpl = "#@ load(\"@ytt:math\", \"math\")\na: #@ math.ceil(1.5)\nb: #@ 1 + \"x\"\n";
    let (code, stdout, stderr) =
        crate::support::ytt::run_binary(&[("t.yml", tpl)], &["-f", "t.yml"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures.\nstrake: error: \n- unknown binary op: int + string\n    in <toplevel>\n      t.yml:3 | b: #@ 1 + \"x\"\n"
    );
}
