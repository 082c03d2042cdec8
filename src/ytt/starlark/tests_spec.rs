//! Tests from a sweep of the Starlark spec against the starlark-go build that ytt 0.48
//! embeds: builtins, methods, operators and the text of their errors.

use super::tests::{check, err};

#[test]
fn call_errors_quote_keyword_names() {
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(b=1)"),
        "function f got an unexpected keyword argument \"b\""
    );
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(1, a=1)"),
        "function f got multiple values for parameter \"a\""
    );
    assert_eq!(
        err("def f(**kw):\n  return kw\nend\nv = f(a=1, **{\"a\": 2})"),
        "function f got multiple values for parameter \"a\""
    );
}

#[test]
fn int_of_string_with_non_ascii_after_zero() {
    assert_eq!(
        err("v = int(\"0é\")"),
        "int: invalid literal with base 10: 0é"
    );
    assert_eq!(
        err("v = int(\"0é\", 16)"),
        "int: invalid literal with base 16: 0é"
    );
    // With base 0 a leading zero must be followed by zeros only; the error names base 0.
    assert_eq!(
        err("v = int(\"017\", 0)"),
        "int: invalid literal with base 0: 017"
    );
    assert_eq!(
        err("v = int(\"0b\", 0)"),
        "int: invalid literal with base 0: 0b"
    );
    check(&[("int(\"000\", 0)", "0"), ("int(\"-0x1f\", 0)", "-31")]);
}

#[test]
fn index_out_of_range_names_the_type() {
    assert_eq!(
        err("x = \"abc\"[-4]"),
        "string index -4 out of range [-3:2]"
    );
    assert_eq!(
        err("x = [1, 2]\nx[5] = 1"),
        "list index 5 out of range [-2:1]"
    );
    assert_eq!(err("x = (1,)[1]"), "tuple index 1 out of range [-1:0]");
    assert_eq!(err("x = range(3)[3]"), "range index 3 out of range [-3:2]");
    assert_eq!(
        err("x = [1].pop(5)"),
        "pop: list index 5 out of range [-1:0]"
    );
    assert_eq!(err("x = [][0]"), "index 0 out of range: empty list");
}

#[test]
fn string_case_methods_follow_go_unicode() {
    check(&[
        // title() and capitalize() use the titlecase mapping, as Go's unicode.ToTitle.
        ("\"ǆemal\".title()", "\"ǅemal\""),
        ("\"ǆA\".capitalize()", "\"ǅa\""),
        ("\"ᾳ x\".title()", "\"ᾼ X\""),
        ("\"ᾳ\".upper()", "\"ᾼ\""),
        ("\"İ\".lower()", "\"i\""),
        // istitle(): titlecase letters open a word; a non-ASCII uppercase letter never passes.
        ("\"ǅa\".istitle()", "True"),
        ("\"Élan\".istitle()", "False"),
        ("\"Hello World\".istitle()", "True"),
        // Cased means having another case form: ligatures such as "ﬃ" are not.
        ("\"ﬃ\".islower()", "False"),
        ("\"ß\".islower()", "True"),
        // isdigit() is category Nd only; isalpha() takes letters, not letter-like numbers.
        ("\"١٢\".isdigit()", "True"),
        ("\"²\".isdigit()", "False"),
        ("\"½\".isalnum()", "False"),
        ("\"Ⅻ\".isalpha()", "False"),
        ("\"é1\".isalnum()", "True"),
        // Categories, not the Alphabetic property: a combining mark is no letter, and a
        // digit of a rarer script is still Nd.
        ("\"\u{345}\".isalpha()", "False"),
        ("\"\u{e51}\".isdigit()", "True"),
        ("\"\u{2081}\".isdigit()", "False"),
        // repr escapes unassigned code points, as strconv.IsPrint refuses them.
        ("repr(\"\u{378}\")", "\"\\\"\\\\u0378\\\"\""),
    ]);
}

#[test]
fn repr_escapes_what_go_does_not_print() {
    check(&[
        ("chr(0x200b)", "\"\\u200b\""),
        ("chr(0xfeff)", "\"\\ufeff\""),
        ("chr(0xa0)", "\"\\u00a0\""),
        ("chr(0x3000)", "\"\\u3000\""),
        ("chr(0x2028)", "\"\\u2028\""),
        ("chr(0xad)", "\"\\u00ad\""),
        ("chr(0xe000)", "\"\\ue000\""),
        ("chr(0x10ffff)", "\"\\U0010ffff\""),
        ("chr(0xffff)", "\"\\uffff\""),
        ("chr(0x85)", "\"\\u0085\""),
        ("chr(0x1b)", "\"\\x1b\""),
        // Printable: letters, marks, symbols and the ASCII space.
        (
            "\"a \" + chr(0x301) + chr(0x1F600) + chr(0xe9)",
            "\"a \u{301}\u{1F600}é\"",
        ),
        ("[chr(0x200b)]", "[\"\\u200b\"]"),
        // A surrogate half becomes U+FFFD, as Go's string(rune) does.
        ("chr(0xd800)", "\"\u{FFFD}\""),
    ]);
}

#[test]
fn ints_have_arbitrary_precision() {
    check(&[
        (
            "100000000000000000000 * 100000000000000000000",
            "10000000000000000000000000000000000000000",
        ),
        (
            "1 << 200",
            "1606938044258990275541962092341162602522202993782792835301376",
        ),
        ("(1 << 200) >> 195", "32"),
        ("-(1 << 200) % 1000", "624"),
        ("(1 << 200) // -(1 << 199)", "-2"),
        ("(1 << 130) - (1 << 130) == 0", "True"),
        ("type(1 << 130)", "\"int\""),
        ("~(1 << 130)", "-1361129467683753853853498429727072845825"),
        ("(1 << 130) | 1", "1361129467683753853853498429727072845825"),
        ("(-(1 << 130)) & 0xff", "0"),
        ("(-(1 << 130) + 5) & 0xff", "5"),
        (
            "sorted([1 << 130, 1, -(1 << 140)])[0] < -(1 << 139)",
            "True",
        ),
        ("{1 << 130: 1}[1 << 130]", "1"),
        ("(1 << 130) > 1.5", "True"),
        ("float(1 << 200)", "1.60694e+60"),
        (
            "int(1e50)",
            "100000000000000007629769841091887003294964970946560",
        ),
        (
            "int(\"-\" + \"f\" * 40, 16)",
            "-1461501637330902918203684832716283019655932542975",
        ),
        (
            "12345678901234567890123456789012345678901234567890 + 1",
            "12345678901234567890123456789012345678901234567891",
        ),
        (
            "0x1000000000000000000000000000000000000",
            "22300745198530623141535718272648361505980416",
        ),
        (
            "\"%d %x\" % (1 << 130, 1 << 130)",
            "\"1361129467683753853853498429727072845824 400000000000000000000000000000000\"",
        ),
        (
            "-170141183460469231731687303715884105728 - 1",
            "-170141183460469231731687303715884105729",
        ),
        (
            "-(-170141183460469231731687303715884105728)",
            "170141183460469231731687303715884105728",
        ),
    ]);
    assert_eq!(err("x = 1 << 512"), "shift count too large: 512");
    assert_eq!(err("x = (1 << 200) // 0"), "floored division by zero");
    assert_eq!(
        err("x = [1][1 << 130]"),
        "list index: 1361129467683753853853498429727072845824 out of range"
    );
}

#[test]
fn hand_checked_builtin_arguments() {
    assert_eq!(err("x = float(1, 2)"), "float got 2 arguments, wants 1");
    assert_eq!(
        err("x = float(x=1)"),
        "float does not accept keyword arguments"
    );
    assert_eq!(err("x = str()"), "str: got 0 arguments, want exactly 1");
    assert_eq!(err("x = str(x=1)"), "str does not accept keyword arguments");
    assert_eq!(
        err("x = type(1, 2)"),
        "type: got 2 arguments, want exactly 1"
    );
    assert_eq!(err("x = chr()"), "chr: got 0 arguments, want 1");
    assert_eq!(
        err("x = ord(x=\"a\")"),
        "ord does not accept keyword arguments"
    );
    assert_eq!(err("x = dir(1, 2)"), "dir: got 2 arguments, want 1");
    // enumerate takes its arguments by position only.
    assert_eq!(
        err("x = enumerate([1], start=1)"),
        "enumerate: unexpected keyword arguments"
    );
    assert_eq!(
        err("x = enumerate()"),
        "enumerate: got 0 arguments, want at least 1"
    );
    check(&[("enumerate([\"a\"], 3)", "[(3, \"a\")]"), ("float()", "0")]);
}

#[test]
fn set_symmetric_difference() {
    check(&[
        ("set([1, 2]) ^ set([2, 3])", "set([1, 3])"),
        ("set([3, 1, 2]) ^ set([4, 1])", "set([3, 2, 4])"),
        ("set([1]) ^ set([1])", "set([])"),
    ]);
    assert_eq!(err("x = set([1]) ^ [1]"), "unknown binary op: set ^ list");
}

#[test]
fn ordering_errors_of_sorted_min_and_max() {
    assert_eq!(
        err("x = sorted([1, \"a\"])"),
        "string < int not implemented"
    );
    assert_eq!(
        err("x = max(\"a\", 1)"),
        "max: int > string not implemented"
    );
    assert_eq!(
        err("x = min(\"a\", 1)"),
        "min: int < string not implemented"
    );
}

#[test]
fn unpack_errors_as_starlark_go() {
    // UnpackPositionalArgs says "at least"/"at most" only when the count may vary.
    assert_eq!(err("x = len()"), "len: got 0 arguments, want 1");
    assert_eq!(err("x = len(1, 2)"), "len: got 2 arguments, want 1");
    assert_eq!(err("x = \"a\".upper(1)"), "upper: got 1 arguments, want 0");
    assert_eq!(
        err("x = getattr(1)"),
        "getattr: got 1 arguments, want at least 2"
    );
    // Iterable parameters name their position.
    assert_eq!(
        err("x = list(\"ab\")"),
        "list: for parameter 1: got string, want iterable"
    );
    assert_eq!(
        err("x = [].extend(1)"),
        "extend: for parameter 1: got int, want iterable"
    );
    assert_eq!(
        err("x = \",\".join(\"ab\")"),
        "join: for parameter 1: got string, want iterable"
    );
    assert_eq!(
        err("x = sorted(\"ab\")"),
        "sorted: for parameter iterable: got string, want iterable"
    );
    // UnpackArgs prints keyword names as Starlark strings.
    assert_eq!(
        err("x = sorted([1], foo=1)"),
        "sorted: unexpected keyword argument \"foo\""
    );
}

#[test]
fn float_of_string_as_go_parse_float() {
    check(&[
        ("float(\"0x1p-2\")", "0.25"),
        ("float(\"-0x1.8p1\")", "-3"),
        ("float(\"0x_1_0p0\")", "16"),
        ("float(\"1e308\")", "1e+308"),
        ("float(\"-inf\")", "-Inf"),
    ]);
    // A hexadecimal mantissa needs its 'p' exponent.
    assert_eq!(
        err("x = float(\"0x10\")"),
        "float: strconv.ParseFloat: parsing \"0x10\": invalid syntax"
    );
    assert_eq!(
        err("x = float(\"1e500\")"),
        "float: strconv.ParseFloat: parsing \"1e500\": value out of range"
    );
    assert_eq!(
        err("x = getattr(1, 2)"),
        "getattr: for parameter 2: got int, want string"
    );
}

#[test]
fn string_iterables_have_starlark_go_type_names() {
    check(&[
        ("type(\"ab\".elems())", "\"elems\""),
        ("type(\"ab\".elem_ords())", "\"elems\""),
        ("type(\"ab\".codepoints())", "\"codepoints\""),
        ("type(\"ab\".codepoint_ords())", "\"codepoints\""),
        ("\"ab\".codepoint_ords()", "\"ab\".codepoint_ords()"),
    ]);
    assert_eq!(
        err("x = len(\"ab\".elems())"),
        "len: value of type elems has no len"
    );
}

#[test]
fn string_method_arguments_are_named_by_position() {
    assert_eq!(
        err("x = \"a\".strip(None)"),
        "strip: for parameter 1: got NoneType, want string"
    );
    assert_eq!(
        err("x = \"a\".find(1)"),
        "find: for parameter 1: got int, want string"
    );
    assert_eq!(
        err("x = \"a\".replace(\"a\", 1)"),
        "replace: for parameter 2: got int, want string"
    );
    assert_eq!(
        err("x = \"a\".replace(\"a\", \"b\", None)"),
        "replace: for parameter 3: got NoneType, want int"
    );
    assert_eq!(
        err("x = \"a\".split(\",\", \"2\")"),
        "split: for parameter 2: got string, want int"
    );
    assert_eq!(
        err("print(\"a\", sep=1)"),
        "print: for parameter \"sep\": got int, want string"
    );
    check(&[
        ("\" a \".strip()", "\"a\""),
        ("\"xax\".strip(\"x\")", "\"a\""),
    ]);
}

#[test]
fn typed_optional_arguments_refuse_none() {
    assert_eq!(
        err("x = sorted([2, 1], key=None)"),
        "sorted: for parameter \"key\": got NoneType, want callable"
    );
    assert_eq!(
        err("x = sorted([2, 1], None)"),
        "sorted: for parameter key: got NoneType, want callable"
    );
    assert_eq!(
        err("x = sorted([2, 1], reverse=1)"),
        "sorted: for parameter \"reverse\": got int, want bool"
    );
    assert_eq!(
        err("x = max([1], key=None)"),
        "max: for parameter \"key\": got NoneType, want callable"
    );
    assert_eq!(
        err("x = \"a\".splitlines(1)"),
        "splitlines: for parameter 1: got int, want bool"
    );
    check(&[
        (
            "sorted([2, 1, 3], key=lambda x: -x, reverse=False)",
            "[3, 2, 1]",
        ),
        (
            "sorted([\"b\", \"A\"], key=len, reverse=True)",
            "[\"b\", \"A\"]",
        ),
        ("max([\"aa\", \"b\"], key=len)", "\"aa\""),
        ("\"a\\nb\".splitlines(True)", "[\"a\\n\", \"b\"]"),
    ]);
}
