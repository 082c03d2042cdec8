//! Second pass over ytt 0.48's non-test source: the syntax errors of the Starlark fork
//! it embeds (scanner, parser and the block scanner that closes blocks with `end`), the
//! code ytt generates for annotations, and the messages of its modules, validations
//! and workspace. Each test renders a small case of ours with `strake template` and
//! compares stderr (or stdout) exactly with what that source prints.

use crate::support::ytt::{failure_dot as stderr_of, run_dot as run};

/// The error of `config.yml` holding `src`, as ytt shows a syntax error: the message
/// over the template line it is on.
fn syntax_error(src: &str) -> String {
    stderr_of(&[("config.yml", src)], &[])
}

/// `strake: error: \n- <msg>\n    config.yml:<line> | <text>\n`.
fn shown(msg: &str, line: usize, text: &str) -> String {
    format!("strake: error: \n- {msg}\n    config.yml:{line} | {text}\n")
}

#[test]
fn block_scanner_errors_are_syntax_errors_in_its_words() {
    // An `end` (or `elif`/`else:`) with no block open to close.
    assert_eq!(
        syntax_error("#@ def f(x): return x\n#@ end\na: #@ f(1)\n"),
        shown("unexpected end", 2, "#@ end")
    );
    assert_eq!(
        syntax_error("#@ x = 1\n#@ elif x:\na: 1\n"),
        shown("unexpected end", 2, "#@ elif x:")
    );
    // A block still open at the end: named by the line that opened it.
    assert_eq!(
        syntax_error("a: 1\n#@ for x in [1]:\n#@ if x:\nb: 2\n#@ end\n"),
        shown(
            "mismatched set of block openings (if/else/elif/for/def) and closing (end)",
            2,
            "#@ for x in [1]:"
        )
    );
}

#[test]
fn an_annotation_name_is_quoted_as_it_is_in_the_generated_code() {
    // `#@load(...)` without a space names the annotation `load("@ytt:data",`: its
    // quote ends the string literal ytt makes of the name.
    assert_eq!(
        syntax_error("#@load(\"@ytt:data\", \"data\")\nkey: 1\n"),
        shown(
            "unexpected input character '@'",
            1,
            "#@load(\"@ytt:data\", \"data\")"
        )
    );
    // `#@x = 1` is annotation `x` whose arguments are `= 1`.
    assert_eq!(
        syntax_error("#@x = 1\nkey: 1\n"),
        shown("got '=', want primary expression", 1, "#@x = 1")
    );
    // The parser stops at the first token it cannot take, before a bad one further on.
    assert_eq!(
        syntax_error("#@a\"b 1\nkey: 1\n"),
        shown("got identifier, want ','", 1, "#@a\"b 1")
    );
}

#[test]
fn parser_errors_name_tokens_and_wants_as_starlark_go() {
    for (code, msg) in [
        ("a: #@ 1 +", "got ')', want primary expression"),
        ("a: #@ f(a b)", "got identifier, want ','"),
        (
            "a: #@ f(a.b=1)",
            "keyword argument must have form name=expr",
        ),
        ("a: #@ f(*a,)", "got ')', want argument"),
        (
            "a: #@ [y for y in z w]",
            "got identifier, want ']', for, or if",
        ),
        (
            "a: #@ {y: 1 for y in z 1}",
            "got int literal, want '}', for, or if",
        ),
        ("a: #@ (y for y in z)", "got for, want ')'"),
        (
            "a: #@ 1 if True",
            "conditional expression without else clause",
        ),
        ("a: #@ 1 not 2", "got int literal, want in"),
        (
            "a: #@ 1 < 2 < 3",
            "< does not associate with < (use parens)",
        ),
        ("a: #@ x[]", "got ']', want primary expression"),
        ("a: #@ x.1", "got float literal, want ')'"),
        ("a: #@ \"s\" 2.5", "got float literal, want ')'"),
        ("a: #@ class", "got illegal token, want primary expression"),
        ("#@ x = 1,", "unparenthesized tuple with trailing comma"),
        ("#@ def 1(): return 1", "not an identifier"),
        ("#@ def f(a b): return 1", "got identifier, want ','"),
        ("#@ def f(*a,): return 1", "got ')', want parameter"),
        ("#@ x = (lambda a b: 1)", "got identifier, want ','"),
    ] {
        let src = format!("{code}\n");
        assert_eq!(syntax_error(&src), shown(msg, 1, code), "{code}");
    }
}

#[test]
fn load_statement_errors_are_starlark_go_s() {
    for (code, msg) in [
        (
            "#@ load(\"@ytt:data\", data)",
            "load operand must be \"data\" or data=\"originalname\" (want '=' after data)",
        ),
        (
            "#@ load(\"@ytt:data\", d=data)",
            "original name of loaded symbol must be quoted: d=\"originalname\"",
        ),
        (
            "#@ load(\"@ytt:data\", 1)",
            "load operand must be \"name\" or localname=\"name\" (got int literal)",
        ),
        (
            "#@ load(\"@ytt:data\" \"data\")",
            "got string literal, want ','",
        ),
        (
            "#@ load(data)",
            "first operand of load statement must be a string literal",
        ),
    ] {
        let src = format!("{code}\na: 1\n");
        assert_eq!(syntax_error(&src), shown(msg, 1, code), "{code}");
    }
}

#[test]
fn scanner_errors_are_starlark_go_s() {
    for (code, msg) in [
        ("#@ x = 1)", "unexpected ')'"),
        ("#@ x = 0x", "invalid hex literal"),
        ("#@ x = 0o8", "invalid octal literal"),
        ("#@ x = 0b", "invalid binary literal"),
        ("#@ x = 1e", "invalid float literal"),
        ("#@ x = 1 $ 2", "unexpected input character '$'"),
    ] {
        let src = format!("{code}\na: 1\n");
        assert_eq!(syntax_error(&src), shown(msg, 1, code), "{code}");
    }
    // What follows a number's digits is the next token, as in starlark-go.
    let (code, stdout, stderr) = run(&[("config.yml", "a: #@ [0x1f, 1e3, 0b11]\n")], &[]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "a:\n- 31\n- 1000\n- 3\n"),
        "{stderr}"
    );
}

/// `strake: error: \n- <msg>\n    in <toplevel>\n      config.yml:<line> | <text>\n`.
fn shown_eval(msg: &str, line: usize, text: &str) -> String {
    format!("strake: error: \n- {msg}\n    in <toplevel>\n      config.yml:{line} | {text}\n")
}

#[test]
fn values_with_no_yaml_form_are_named_by_their_go_type() {
    for (code, go) in [
        ("a: #@ len", "*starlark.Builtin"),
        ("a: #@ lambda: 1", "*starlark.Function"),
        ("a: #@ range(3)", "starlark.rangeValue"),
        ("a: #@ \"ab\".elems()", "starlark.stringIterable"),
    ] {
        let msg = format!("unknown type {go} for conversion to go value");
        assert_eq!(
            syntax_error(&format!("{code}\n")),
            shown_eval(&msg, 1, code),
            "{code}"
        );
    }
}

#[test]
fn ip_and_regexp_errors_are_go_s() {
    let ip = "#@ load(\"@ytt:ip\", \"ip\")\n";
    for (code, msg) in [
        (
            "a: #@ ip.parse_addr(\"300.1.1.1\")",
            "ip.parse_addr: invalid IP address: 300.1.1.1",
        ),
        (
            "a: #@ ip.parse_cidr(\"10.0.0.0/33\")",
            "ip.parse_cidr: invalid CIDR address: 10.0.0.0/33",
        ),
        (
            "a: #@ ip.parse_cidr(\"10.0.0.0\")",
            "ip.parse_cidr: invalid CIDR address: 10.0.0.0",
        ),
        (
            "a: #@ ip.parse_cidr(\"10.0.0.0/+8\")",
            "ip.parse_cidr: invalid CIDR address: 10.0.0.0/+8",
        ),
    ] {
        assert_eq!(
            syntax_error(&format!("{ip}{code}\n")),
            shown_eval(msg, 2, code),
            "{code}"
        );
    }
    let re = "#@ load(\"@ytt:regexp\", \"regexp\")\n";
    for (code, msg) in [
        (
            "a: #@ regexp.match(\"[a-\", \"x\")",
            "regexp.match: error parsing regexp: missing closing ]: `[a-`",
        ),
        (
            "a: #@ regexp.match(\"(ab\", \"x\")",
            "regexp.match: error parsing regexp: missing closing ): `(ab`",
        ),
        (
            "a: #@ regexp.replace(\"*a\", \"x\", \"y\")",
            "regexp.replace: error parsing regexp: missing argument to repetition operator: `*`",
        ),
        (
            "a: #@ regexp.match(\"a{1001}\", \"x\")",
            "regexp.match: error parsing regexp: invalid repeat count: `{1001}`",
        ),
        (
            "a: #@ regexp.match(\"(?=a)\", \"x\")",
            "regexp.match: error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
        ),
    ] {
        assert_eq!(
            syntax_error(&format!("{re}{code}\n")),
            shown_eval(msg, 2, code),
            "{code}"
        );
    }
}
