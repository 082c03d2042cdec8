//! ytt 0.48's `@ytt:*` library modules (`pkg/yttlibrary`: url.go, json.go, yaml.go,
//! base64.go, toml.go, md5.go, sha256.go, struct.go, module.go, template.go, data.go)
//! and the argument checks they share (`pkg/template/core`): results and error text of
//! each function, each case rendered with `strake template` and compared exactly.

use crate::support::ytt;

/// Renders one template `t.yml` whose first lines load `modules` (names of `@ytt:`
/// modules), giving stdout or the error text.
fn render(modules: &[&str], body: &str) -> Result<String, String> {
    let mut text = String::new();
    for m in modules {
        text.push_str(&format!("#@ load(\"@ytt:{m}\", \"{m}\")\n"));
    }
    text.push_str(body);
    ytt::render(&[("t.yml", &text)], &["-f", "."])
}

/// The first line of the error a one-line expression `expr` fails with, as ytt's
/// template error lists it (`- name: message`).
fn error_of(modules: &[&str], expr: &str) -> String {
    let err = render(modules, &format!("v: #@ {expr}\n")).expect_err(expr);
    err.lines()
        .find(|l| l.starts_with("- "))
        .unwrap_or_else(|| panic!("{err}"))
        .to_string()
}

/// `url.path_segment_encode` is Go's `url.PathEscape`: the reserved bytes a path
/// segment may hold (`: @ & = + $`) stay as they are, only `/ ; , ?` and what is not
/// reserved get escaped, a space as `%20`; `query_param_value_encode` is
/// `url.QueryEscape`, which escapes every reserved byte and writes a space `+`.
#[test]
fn url_escaping_follows_gos_path_and_query_modes() {
    let out = render(
        &["url"],
        "a: #@ url.path_segment_encode(\"a:b@c&d=e+f$g/h;i,j?k l\")\nb: #@ url.query_param_value_encode(\"a:b@c&d=e+f$g/h;i,j?k l~!*()\")\nc: #@ url.path_segment_decode(\"a+b%20c\")\nd: #@ url.query_param_value_decode(\"a+b%20c\")\n",
    )
    .unwrap();
    assert_eq!(
        out,
        "a: a:b@c&d=e+f$g%2Fh%3Bi%2Cj%3Fk%20l\nb: a%3Ab%40c%26d%3De%2Bf%24g%2Fh%3Bi%2Cj%3Fk+l~%21%2A%28%29\nc: a+b c\nd: a b c\n"
    );
}

/// Go's `unescape` fails on a `%` not followed by two hex digits, quoting at most
/// three bytes from the `%` (`EscapeError`): a trailing `%` too, and `%+f` (no sign
/// is a hex digit).
#[test]
fn url_decode_refuses_bad_escapes_as_go_does() {
    for (arg, bad) in [
        ("abc%", "%"),
        ("abc%zzzz", "%zz"),
        ("%+f", "%+f"),
        ("%4", "%4"),
    ] {
        assert_eq!(
            error_of(&["url"], &format!("url.path_segment_decode(\"{arg}\")")),
            format!("- url.path_segment_decode: invalid URL escape \"{bad}\"")
        );
    }
    assert_eq!(
        error_of(&["url"], "url.query_param_value_decode(\"a%g0\")"),
        "- url.query_param_value_decode: invalid URL escape \"%g0\""
    );
}

/// Each `@ytt:url` function first wants exactly one positional argument ("expected
/// exactly one argument"), then a string (`StarlarkValue.AsString`: "expected a
/// string, but was int").
#[test]
fn url_functions_check_argument_count_then_type() {
    for f in [
        "path_segment_encode",
        "path_segment_decode",
        "query_param_value_encode",
        "query_param_value_decode",
        "query_params_decode",
        "parse",
    ] {
        for args in ["", "\"a\", \"b\""] {
            assert_eq!(
                error_of(&["url"], &format!("url.{f}({args})")),
                format!("- url.{f}: expected exactly one argument")
            );
        }
        assert_eq!(
            error_of(&["url"], &format!("url.{f}(1)")),
            format!("- url.{f}: expected a string, but was int")
        );
    }
    assert_eq!(
        error_of(&["url"], "url.query_params_encode()"),
        "- url.query_params_encode: expected exactly one argument"
    );
}

/// `url.query_params_encode` wants a map (a dict or struct) of string keys to lists of
/// strings, naming the Go type of what it got otherwise; its output is Go's
/// `url.Values.Encode`: keys sorted, one `key=value` per value (none for an empty
/// list), values kept in their order.
#[test]
fn url_query_params_encode_checks_each_level() {
    let out = render(
        &["url", "struct"],
        "e: #@ url.query_params_encode({\"b\": [\"2\", \"1\"], \"a b\": [], \"c\": [\"x&y\"]})\ng: #@ url.query_params_encode(struct.make(z=[\"1\"]))\n",
    )
    .unwrap();
    assert_eq!(out, "e: b=2&b=1&c=x%26y\ng: z=1\n");
    for (arg, msg) in [
        (
            "[]",
            "expected argument to be a map, but was []interface {}",
        ),
        ("\"s\"", "expected argument to be a map, but was string"),
        ("{1: []}", "expected map key to be string, but was int64"),
        (
            "{\"a\": \"b\"}",
            "expected map value to be array, but was string",
        ),
        (
            "{\"a\": [1]}",
            "expected array value to be string, but was int64",
        ),
        (
            "{\"a\": [None]}",
            "expected array value to be string, but was <nil>",
        ),
        (
            "{\"a\": [1.5]}",
            "expected array value to be string, but was float64",
        ),
    ] {
        assert_eq!(
            error_of(&["url"], &format!("url.query_params_encode({arg})")),
            format!("- url.query_params_encode: {msg}")
        );
    }
}

/// `url.query_params_decode` is Go's `url.ParseQuery`: empty parts skipped, a key
/// without `=` has an empty value; a part holding `;` or a bad escape fails the call
/// (the `;` error wins, as ParseQuery keeps overwriting its error with it).
#[test]
fn url_query_params_decode_follows_parse_query() {
    assert_eq!(
        render(
            &["url"],
            "f: #@ url.query_params_decode(\"b=2&&a=1&b=1&c\")\n"
        )
        .unwrap(),
        "f:\n  a:\n  - \"1\"\n  b:\n  - \"2\"\n  - \"1\"\n  c:\n  - \"\"\n"
    );
    assert_eq!(
        error_of(&["url"], "url.query_params_decode(\"a=%zz&b;c\")"),
        "- url.query_params_decode: invalid semicolon separator in query"
    );
    assert_eq!(
        error_of(&["url"], "url.query_params_decode(\"a=%zz&b=%x\")"),
        "- url.query_params_decode: invalid URL escape \"%zz\""
    );
}

/// The methods of a parsed URL (`string`, `hostname`, `without_user`, and the user's
/// `string`, a built-in ytt names just `string`; the others are `url.value.<name>`,
/// as url.go names them) refuse positional arguments with
/// "expected no argument".
#[test]
fn url_value_methods_take_no_argument() {
    let u = "url.parse(\"http://u:p@h:80/x\")";
    for (call, name) in [
        ("string(1)", "url.value.string"),
        ("hostname(1)", "url.value.hostname"),
        ("without_user(1)", "url.value.without_user"),
        ("user.string(1)", "string"),
    ] {
        assert_eq!(
            error_of(&["url"], &format!("{u}.{call}")),
            format!("- {name}: expected no argument")
        );
    }
}

/// `base64.decode` is Go's `Encoding.DecodeString`, whose `CorruptInputError` offset is
/// where `decodeQuantum` gave up: an unpadded tail at the start of its quantum (`YQ`:
/// byte 0), missing second `=` at the end of the input, data after the padding where
/// it starts, trailing bits under `strict=True` two bytes before the quantum's end;
/// line breaks are skipped anywhere, and `raw=True` refuses padding.
#[test]
fn base64_decode_errors_name_gos_offsets() {
    for (call, at) in [
        ("\"YQ\"", 0),
        ("\"dGVzdA\"", 4),
        ("\"YQ=\"", 3),
        ("\"YQ==YQ==\"", 4),
        ("\"Y Q==\"", 1),
        ("\"=\"", 0),
        ("\"YR==\", strict=True", 2),
        ("\"YR\", raw=True, strict=True", 0),
        ("\"YQ==\", raw=True", 2),
        ("\"YQ\", url=True", 0),
    ] {
        assert_eq!(
            error_of(&["base64"], &format!("base64.decode({call})")),
            format!("- base64.decode: illegal base64 data at input byte {at}"),
            "{call}"
        );
    }
    assert_eq!(
        render(
            &["base64"],
            "a: #@ base64.decode(\"Y\\nQ\\r\\n=\\n=\\n\")\nb: #@ base64.decode(\"YWJjZA\", raw=True)\nc: #@ base64.decode(\"YR==\")\n"
        )
        .unwrap(),
        "a: a\nb: abcd\nc: a\n"
    );
}

/// `md5.sum` and `sha256.sum` (md5.go, sha256.go) check the argument count before
/// anything else: a second argument is refused, not ignored; then the type.
#[test]
fn hash_sums_take_exactly_one_string() {
    for m in ["md5", "sha256"] {
        assert_eq!(
            error_of(&[m], &format!("{m}.sum(\"a\", \"b\")")),
            format!("- {m}.sum: expected exactly one argument")
        );
        assert_eq!(
            error_of(&[m], &format!("{m}.sum(None)")),
            format!("- {m}.sum: expected a string, but was NoneType")
        );
    }
    assert_eq!(
        render(
            &["md5", "sha256"],
            "a: #@ md5.sum(\"\")\nb: #@ sha256.sum(\"abc\")\n"
        )
        .unwrap(),
        "a: d41d8cd98f00b204e9800998ecf8427e\nb: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"
    );
}

/// `toml.encode` checks as ytt's toml.go does: argument count ("expected exactly one
/// argument"), keyword names (`CheckArgNames`: "invalid argument name: foo"), the
/// value, then `indent` (`Int64Arg`: "expected starlark.Int") and its range; every
/// message carries the built-in's name, as `core.ErrWrapper` adds it. A value that is
/// not a map is refused by the Go encoder itself (`errNoKey`).
#[test]
fn toml_encode_checks_arguments_in_ytts_order_and_words() {
    for (call, msg) in [
        ("toml.encode()", "expected exactly one argument"),
        ("toml.encode({}, {})", "expected exactly one argument"),
        (
            "toml.encode({\"a\": 1}, foo=1)",
            "invalid argument name: foo",
        ),
        (
            "toml.encode({\"a\": 1}, indent=\"x\")",
            "expected starlark.Int",
        ),
        (
            "toml.encode({\"a\": 1}, indent=9)",
            "indent value must be between 0 and 8",
        ),
        (
            "toml.encode({\"a\": 1}, indent=-1)",
            "indent value must be between 0 and 8",
        ),
        (
            "toml.encode(1)",
            "toml: top-level values must be Go maps or structs",
        ),
        (
            "toml.encode([{\"a\": 1}])",
            "toml: top-level values must be Go maps or structs",
        ),
        (
            "toml.encode(\"s\")",
            "toml: top-level values must be Go maps or structs",
        ),
    ] {
        assert_eq!(
            error_of(&["toml"], call),
            format!("- toml.encode: {msg}"),
            "{call}"
        );
    }
}

/// The Go TOML encoder writes floats with `strconv.FormatFloat(f, 'f', -1, 64)`, never
/// in exponent form, adding `.0` to whole numbers; strings get `\b`, `\f` and
/// lower-case `\u00xx` escapes for the other control characters and DEL.
#[test]
fn toml_encode_writes_floats_without_exponent_and_go_string_escapes() {
    let out = render(
        &["toml"],
        "v: #@ toml.encode({\"a\": 1e20, \"b\": 1e-7, \"c\": 3.0, \"d\": -0.0, \"e\": 0.1, \"s\": \"t\\x08\\x0c\\x7f\\x01\\x1b\"})\n",
    )
    .unwrap();
    assert_eq!(
        out,
        "v: |\n  a = 100000000000000000000.0\n  b = 0.0000001\n  c = 3.0\n  d = -0.0\n  e = 0.1\n  s = \"t\\b\\f\\u007f\\u0001\\u001b\"\n"
    );
}

/// `json.encode` converts its value before it reads `indent` (json.go): a value that
/// cannot be converted is reported even when `indent` is bad too; an `indent` beyond
/// int64 is "expected int64 value" (`StarlarkValue.AsInt64`).
#[test]
fn json_encode_converts_the_value_before_reading_indent() {
    assert_eq!(
        error_of(
            &["json", "url"],
            "json.encode(url.parse(\"http://h\"), indent=9)"
        ),
        "- json.encode: Unable to convert value: @ytt:url.value does not automatically encode (hint: use .string())"
    );
    assert_eq!(
        error_of(&["json"], "json.encode(1, indent=1 << 70)"),
        "- json.encode: expected int64 value"
    );
    assert_eq!(
        error_of(&["json"], "json.encode(1, indent=True)"),
        "- json.encode: expected starlark.Int"
    );
}

/// `@ytt:module` is one of ytt's built-in modules (all.go: `"module": ModuleAPI`):
/// `module.make(name, **members)` is starlark-go's `MakeModule`, giving a `module`
/// value printed `<module "name">` whose members are the keyword arguments. Its name is
/// unpacked by `UnpackPositionalArgs`, whose message names the built-in, after the
/// name `core.ErrWrapper` puts first.
#[test]
fn module_make_builds_a_module_value() {
    let out = render(
        &["module"],
        "#@ m = module.make(\"helpers\", a=1, f=lambda: 3)\nt: #@ type(m)\ns: #@ str(m)\na: #@ m.a\nf: #@ m.f()\nd: #@ dir(m)\n",
    )
    .unwrap();
    assert_eq!(
        out,
        "t: module\ns: <module \"helpers\">\na: 1\nf: 3\nd:\n- a\n- f\n"
    );
    for (call, msg) in [
        (
            "module.make()",
            "module.make: module.make: got 0 arguments, want 1",
        ),
        (
            "module.make(name=\"m\")",
            "module.make: module.make: got 0 arguments, want 1",
        ),
        (
            "module.make(\"m\", 1)",
            "module.make: module.make: got 2 arguments, want 1",
        ),
        (
            "module.make(1)",
            "module.make: module.make: for parameter 1: got int, want string",
        ),
        (
            "module.make(\"m\", a=1).b",
            "module has no .b field or method",
        ),
    ] {
        assert_eq!(error_of(&["module"], call), format!("- {msg}"), "{call}");
    }
}

/// A `@ytt:` module ytt does not have is refused by `API.FindModule` with a hint.
#[test]
fn unknown_builtin_module_error_carries_ytts_hint() {
    let err = render(&[], "#@ load(\"@ytt:nope\", \"nope\")\na: 1\n").unwrap_err();
    assert!(
        err.contains(
            "- cannot load @ytt:nope: builtin ytt library does not have module 'nope' (hint: is it available in newer version of ytt?)\n"
        ),
        "{err}"
    );
}

/// The errors of ytt's data loader (`FileData`, `FilePaths`) come back through
/// `core.ErrWrapper`, which names the built-in first: `data.read: Expected to find
/// file ...`, `data.list: Did not find ...`.
#[test]
fn data_loader_errors_are_named_by_the_builtin() {
    let files = [
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.read(\"nope.txt\")\n",
        ),
        ("d/x.txt", "hi\n"),
    ];
    let err = ytt::render(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("- data.read: Expected to find file 'nope.txt' (hint: only files included via -f flag are available)\n"),
        "{err}"
    );
    let files = [
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.list(\"nope/\")\n",
        ),
        ("d/x.txt", "hi\n"),
    ];
    let err = ytt::render(&files, &["-f", "."]).unwrap_err();
    assert!(err.contains("- data.list: Did not find ''\n"), "{err}");
}

/// `json.decode` is Go's `json.Unmarshal` into `interface{}`: a number beyond float64
/// fails with `UnmarshalTypeError`'s text ("json: cannot unmarshal number 1e400 into Go
/// value of type float64"), and a `\u` escape of an unpaired UTF-16 surrogate decodes
/// to U+FFFD instead of failing; a repeated key keeps its last value.
#[test]
fn json_decode_follows_go_unmarshal_for_big_numbers_and_surrogates() {
    assert_eq!(
        error_of(&["json"], "json.decode('[\"x\", 1e400]')"),
        "- json.decode: json: cannot unmarshal number 1e400 into Go value of type float64"
    );
    assert_eq!(
        render(
            &["json"],
            "a: #@ json.decode('\"\\\\ud800x\\\\ud83d\\\\ude00\"') == \"\\xef\\xbf\\xbdx\\xf0\\x9f\\x98\\x80\"\nb: #@ json.decode('{\"b\": 1, \"a\": 1, \"b\": 2}')\nc: #@ json.decode('1e-400')\n"
        )
        .unwrap(),
        "a: true\nb:\n  a: 1\n  b: 2\nc: 0\n"
    );
}

/// A flow collection left open fails in go-yaml's parser when it meets the end of the
/// stream: "did not find expected node content" where a node may start (after `[`,
/// `{`, `,` or `:`), otherwise "did not find expected ',' or ']'" (`'}'` in a mapping);
/// as a parser error it names the 0-based line of the STREAM-END token, which libyaml
/// moves to a new line when the text does not end with one. `yaml.decode` reports it
/// after its name.
#[test]
fn unclosed_flow_collections_fail_as_go_yaml_words_it() {
    for (arg, msg) in [
        (
            "\"a: [\"",
            "yaml: line 1: did not find expected node content",
        ),
        (
            "\"a: [\\n\"",
            "yaml: line 1: did not find expected node content",
        ),
        (
            "\"a: [1, 2\"",
            "yaml: line 1: did not find expected ',' or ']'",
        ),
        (
            "\"a: [1,\\n\"",
            "yaml: line 1: did not find expected node content",
        ),
        (
            "\"a: {x: 1\\n\\n\"",
            "yaml: line 2: did not find expected ',' or '}'",
        ),
        (
            "\"a: {x:\"",
            "yaml: line 1: did not find expected node content",
        ),
    ] {
        assert_eq!(
            error_of(&["yaml"], &format!("yaml.decode({arg})")),
            format!("- yaml.decode: {msg}"),
            "{arg}"
        );
    }
    let err = ytt::render(&[("t.yml", "a: [1, 2\n")], &["-f", "."]).unwrap_err();
    assert!(
        err.starts_with(
            "Unmarshaling YAML template 't.yml': yaml: line 1: did not find expected ',' or ']'"
        ),
        "{err}"
    );
}
