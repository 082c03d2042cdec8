//! Tests of the built-in functions and of the methods of strings, lists, dicts and sets,
//! mostly transcribed from the ytt conformance corpus.

use super::tests::{check, err, run};
use super::*;

#[test]
fn string_format_method() {
    check(&[
        ("\"{} and {}\".format(\"a\", \"b\")", "\"a and b\""),
        ("\"{1}-{0}-{1}\".format(\"x\", \"y\")", "\"y-x-y\""),
        (
            "\"{host}:{port}\".format(host=\"localhost\", port=8080)",
            "\"localhost:8080\"",
        ),
        ("\"{{literal}} {}\".format(1)", "\"{literal} 1\""),
        ("\"{!r}\".format(\"q\")", "\"\\\"q\\\"\""),
        ("\"{} {} {}\".format(1, 2.5, None)", "\"1 2.5 None\""),
    ]);
    assert_eq!(
        err("x = \"{} {}\".format(\"only-one\")"),
        "format: tuple index out of range"
    );
    assert_eq!(
        err("x = \"{:5}\".format(1)"),
        "format spec features not supported in replacement fields: 5"
    );
    assert_eq!(
        err("x = \"{a}\".format(b=1)"),
        "format: keyword a not found"
    );
    assert_eq!(
        err("x = \"{} {0}\".format(1)"),
        "format: cannot switch from automatic field numbering to manual field specification"
    );
    assert_eq!(err("x = \"}\".format()"), "format: single '}' in format");
}

#[test]
fn string_percent_formatting() {
    check(&[
        ("\"%s-%d\" % (\"app\", 3)", "\"app-3\""),
        ("\"value=%s\" % \"x\"", "\"value=x\""),
        ("\"%r\" % \"quoted\"", "\"\\\"quoted\\\"\""),
        ("\"%x\" % 255", "\"ff\""),
        ("\"%o\" % 8", "\"10\""),
        ("\"100%%\"", "\"100%%\""),
        ("\"100%%\" % ()", "\"100%\""),
        ("\"%s\" % ([1, 2],)", "\"[1, 2]\""),
        ("\"%s\" % 1.5", "\"1.5\""),
        ("\"%e\" % 12345.678", "\"1.234568e+04\""),
        ("\"%g\" % 0.5", "\"0.5\""),
        ("\"%g\" % 1e20", "\"1e+20\""),
        ("\"%f\" % 2.5", "\"2.500000\""),
        ("\"%d\" % 7.9", "\"7\""),
        ("\"%(a)s=%(b)d\" % {\"a\": \"x\", \"b\": 2}", "\"x=2\""),
        ("\"%c%c\" % (65, \"b\")", "\"Ab\""),
    ]);
    assert_eq!(err("x = \"%5d\" % 3"), "unknown conversion %5");
}

#[test]
fn string_join_split() {
    check(&[
        ("\", \".join([\"a\", \"b\", \"c\"])", "\"a, b, c\""),
        ("\"-\".join([])", "\"\""),
        ("\"a,b,,c\".split(\",\")", "[\"a\", \"b\", \"\", \"c\"]"),
        (
            "\"  lots   of   space \".split()",
            "[\"lots\", \"of\", \"space\"]",
        ),
        ("\"k=v=w\".split(\"=\", 1)", "[\"k\", \"v=w\"]"),
        ("\"a.b.c.d\".rsplit(\".\", 1)", "[\"a.b.c\", \"d\"]"),
        ("\"a b  c \".split(None, 1)", "[\"a\", \"b  c \"]"),
        ("\"  a b c\".rsplit(None, 1)", "[\"  a b\", \"c\"]"),
        (
            "\"one\\ntwo\\n\\nthree\".splitlines()",
            "[\"one\", \"two\", \"\", \"three\"]",
        ),
        ("\"a\\nb\\n\".splitlines()", "[\"a\", \"b\"]"),
        ("\"a\\nb\\n\".splitlines(True)", "[\"a\\n\", \"b\\n\"]"),
        (
            "\"key=value=x\".partition(\"=\")",
            "(\"key\", \"=\", \"value=x\")",
        ),
        (
            "\"key=value=x\".rpartition(\"=\")",
            "(\"key=value\", \"=\", \"x\")",
        ),
        ("\"abc\".partition(\"z\")", "(\"abc\", \"\", \"\")"),
        ("\"abc\".rpartition(\"z\")", "(\"\", \"\", \"abc\")"),
    ]);
    assert_eq!(
        err("x = \"-\".join([1])"),
        "join: in list, want string, got int"
    );
}

#[test]
fn string_replace_strip_case() {
    check(&[
        ("\"a-b-c\".replace(\"-\", \"_\")", "\"a_b_c\""),
        ("\"a-b-c\".replace(\"-\", \"_\", 1)", "\"a_b-c\""),
        ("\"  padded  \".strip()", "\"padded\""),
        ("\"  padded  \".lstrip()", "\"padded  \""),
        ("\"  padded  \".rstrip()", "\"  padded\""),
        ("\"xxhixx\".strip(\"x\")", "\"hi\""),
        ("\"line\\n\".rstrip()", "\"line\""),
        ("\"0042\".lstrip(\"0\")", "\"42\""),
        ("\"Hello World\".upper()", "\"HELLO WORLD\""),
        ("\"Hello World\".lower()", "\"hello world\""),
        ("\"hello big world\".title()", "\"Hello Big World\""),
        ("\"hello World\".capitalize()", "\"Hello world\""),
        ("\"12345\".isdigit()", "True"),
        ("\"abc1\".isalpha()", "False"),
        ("\"abc1\".isalnum()", "True"),
        ("\"ABC\".isupper()", "True"),
        ("\"abC\".islower()", "False"),
        ("\" \\t\".isspace()", "True"),
        ("\"\".isspace()", "False"),
        ("\"Hello World\".istitle()", "True"),
        ("\"Hello world\".istitle()", "False"),
    ]);
}

#[test]
fn string_search() {
    check(&[
        ("\"kube-system\".startswith(\"kube-\")", "True"),
        ("\"v1.2\".startswith((\"x\", \"v\"))", "True"),
        ("\"config.yml\".endswith(\".yml\")", "True"),
        ("\"hello\".find(\"l\")", "2"),
        ("\"hello\".find(\"z\")", "-1"),
        ("\"hello\".rfind(\"l\")", "3"),
        ("\"hello\".index(\"e\")", "1"),
        ("\"hello\".rindex(\"l\")", "3"),
        ("\"hello\".find(\"l\", 3)", "3"),
        ("\"banana\".count(\"a\")", "3"),
        ("\"banana\".count(\"a\", 2)", "2"),
        ("\"ell\" in \"hello\"", "True"),
        ("\"z\" not in \"hello\"", "True"),
    ]);
    assert_eq!(
        err("x = \"abc\".index(\"z\")"),
        "index: substring not found"
    );
    assert_eq!(
        err("x = 1 in \"abc\""),
        "'in <string>' requires string as left operand, not int"
    );
}

#[test]
fn string_slicing_indexing_and_literals() {
    let s = "s = \"abcdefg\"\n";
    for (e, want) in [
        ("s[0]", "\"a\""),
        ("s[-1]", "\"g\""),
        ("s[2:5]", "\"cde\""),
        ("s[-3:]", "\"efg\""),
        ("s[:2]", "\"ab\""),
        ("s[::2]", "\"aceg\""),
        ("s[::-1]", "\"gfedcba\""),
        ("s[5:100]", "\"fg\""),
        ("s[4:2]", "\"\""),
        ("s[-100:2]", "\"ab\""),
    ] {
        let m = run(&format!("{s}r = {e}\n")).unwrap();
        assert_eq!(repr(&m.get("r").unwrap()), want, "{e}");
    }
    check(&[
        ("'single'", "\"single\""),
        ("\"tab\\there\"", "\"tab\\there\""),
        ("r\"\\d+\\.\\w\"", "\"\\\\d+\\\\.\\\\w\""),
        ("\"\\u00e9t\\u00e9\"", "\"\\\\u00e9t\\\\u00e9\""),
        (
            "\"\"\"triple \"quoted\" text\"\"\"",
            "\"triple \\\"quoted\\\" text\"",
        ),
        ("\"ab\" + \"cd\"", "\"abcd\""),
        ("\"ab\" * 3", "\"ababab\""),
        ("3 * \"ab\"", "\"ababab\""),
        ("\"ab\" * 0", "\"\""),
        ("len(\"hello\")", "5"),
        ("len(\"héllo\")", "6"),
    ]);
    assert_eq!(err("x = \"abc\"[3]"), "string index 3 out of range [-3:2]");
}

#[test]
fn string_iteration() {
    check(&[
        ("list(\"abc\".elems())", "[\"a\", \"b\", \"c\"]"),
        (
            "\"-\".join([c.upper() for c in \"xyz\".elems()])",
            "\"X-Y-Z\"",
        ),
        ("list(\"hé\".codepoints())", "[\"h\", \"é\"]"),
        ("list(\"hé\".codepoint_ords())", "[104, 233]"),
        ("list(\"ab\".elem_ords())", "[97, 98]"),
        ("\"ab\".elems()", "\"ab\".elems()"),
        ("type(\"ab\".elems())", "\"elems\""),
    ]);
    assert_eq!(
        err("out = [c for c in \"abc\"]"),
        "string value is not iterable"
    );
    assert_eq!(
        err("for c in \"abc\":\n  x = c\nend"),
        "string value is not iterable"
    );
    assert_eq!(
        err("x = list(\"abc\")"),
        "list: for parameter 1: got string, want iterable"
    );
}

#[test]
fn list_operations() {
    let m = run(
        "xs = [3, 1, 2]\nxs.append(5)\nxs.extend([8, 9])\nxs.insert(0, 0)\npopped = xs.pop()\nxs.remove(1)\nfirst = xs.pop(0)\ni = xs.index(2)\nc = [1, 2] + [3]\nr = [0] * 3\nin_ = 5 in xs\nsl = xs[1:3]\nn = len(xs)\n",
    )
    .unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("xs"), "[3, 2, 5, 8]");
    assert_eq!(g("popped"), "9");
    assert_eq!(g("first"), "0");
    assert_eq!(g("i"), "1");
    assert_eq!(g("c"), "[1, 2, 3]");
    assert_eq!(g("r"), "[0, 0, 0]");
    assert_eq!(g("in_"), "True");
    assert_eq!(g("sl"), "[2, 5]");
    assert_eq!(g("n"), "4");
    check(&[
        ("[1, 2, 3, 4][::-2]", "[4, 2]"),
        ("[1, 2, 3].index(3, 1)", "2"),
        (
            "dir([])",
            "[\"append\", \"clear\", \"extend\", \"index\", \"insert\", \"pop\", \"remove\"]",
        ),
    ]);
    assert_eq!(
        err("x = [1, 2]\ny = x[5]"),
        "list index 5 out of range [-2:1]"
    );
    assert_eq!(err("x = []\ny = x[0]"), "index 0 out of range: empty list");
    assert_eq!(err("x = [1]\nx.remove(2)"), "remove: element not found");
    assert_eq!(err("x = [1]\nx.index(2)"), "index: value not in list");
    assert_eq!(
        err("x = []\nx.pop()"),
        "pop: index -1 out of range: empty list"
    );
}

#[test]
fn dicts() {
    let m = run(
        "d = {\"a\": 1, \"b\": 2}\ng1 = d.get(\"a\")\ng2 = d.get(\"z\")\ng3 = d.get(\"z\", \"dflt\")\nk = d.keys()\nv = d.values()\ni = d.items()\nh = \"b\" in d\nn = len(d)\nx = d[\"b\"]\n",
    )
    .unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("g1"), "1");
    assert_eq!(g("g2"), "None");
    assert_eq!(g("g3"), "\"dflt\"");
    assert_eq!(g("k"), "[\"a\", \"b\"]");
    assert_eq!(g("v"), "[1, 2]");
    assert_eq!(g("i"), "[(\"a\", 1), (\"b\", 2)]");
    assert_eq!(g("h"), "True");
    assert_eq!(g("n"), "2");
    assert_eq!(g("x"), "2");

    let m = run(
        "d = {\"a\": 1}\nd.update({\"b\": 2}, c=3)\nd[\"d\"] = 4\nremoved = d.pop(\"a\")\nmissing = d.pop(\"zzz\", \"none-found\")\nexisting = d.setdefault(\"b\", 99)\nadded = d.setdefault(\"e\", 5)\n",
    )
    .unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("d"), "{\"b\": 2, \"c\": 3, \"d\": 4, \"e\": 5}");
    assert_eq!(g("removed"), "1");
    assert_eq!(g("missing"), "\"none-found\"");
    assert_eq!(g("existing"), "2");
    assert_eq!(g("added"), "5");

    let m = run("d = {}\nd[\"zeta\"] = 1\nd[\"alpha\"] = 2\nd[\"mid\"] = 3\nd[\"zeta\"] = 10\nd.pop(\"alpha\")\nd[\"alpha\"] = 20\nk = list(d)\n").unwrap();
    assert_eq!(
        repr(&m.get("d").unwrap()),
        "{\"zeta\": 10, \"mid\": 3, \"alpha\": 20}"
    );
    assert_eq!(repr(&m.get("k").unwrap()), "[\"zeta\", \"mid\", \"alpha\"]");

    check(&[
        ("dict(x=1, y=2)", "{\"x\": 1, \"y\": 2}"),
        (
            "dict([(\"k1\", \"v1\"), (\"k2\", \"v2\")])",
            "{\"k1\": \"v1\", \"k2\": \"v2\"}",
        ),
        ("dict(zip([\"a\", \"b\"], [1, 2]))", "{\"a\": 1, \"b\": 2}"),
        ("dict({\"a\": 1}, b=2)", "{\"a\": 1, \"b\": 2}"),
        ("{1: \"one\", 2: \"two\"}", "{1: \"one\", 2: \"two\"}"),
        ("{\"a\": 1}.popitem()", "(\"a\", 1)"),
        ("{(1, 2): \"t\"}[(1, 2)]", "\"t\""),
    ]);
    assert_eq!(
        err("d = {\"present\": 1}\nv = d[\"absent\"]"),
        "key \"absent\" not in dict"
    );
    assert_eq!(err("d = {[1]: \"list key\"}"), "unhashable type: list");
    assert_eq!(err("d = {\"a\": 1, \"a\": 2}"), "duplicate key: \"a\"");
    assert_eq!(err("d = {}\nd.pop(\"x\")"), "pop: missing key");
    assert_eq!(err("d = {}\nx = d[[1]]"), "unhashable type: list");
}

#[test]
fn builtins_misc() {
    check(&[
        ("type(1)", "\"int\""),
        ("type(1.5)", "\"float\""),
        ("type(\"s\")", "\"string\""),
        ("type(True)", "\"bool\""),
        ("type(None)", "\"NoneType\""),
        ("type([])", "\"list\""),
        ("type({})", "\"dict\""),
        ("type(())", "\"tuple\""),
        ("type(len)", "\"builtin_function_or_method\""),
        ("type(range(3))", "\"range\""),
        ("type(set())", "\"set\""),
        (
            "str([1, \"a\", None, True])",
            "\"[1, \\\"a\\\", None, True]\"",
        ),
        (
            "str({\"k\": \"v\", \"n\": 1})",
            "\"{\\\"k\\\": \\\"v\\\", \\\"n\\\": 1}\"",
        ),
        ("str((1,))", "\"(1,)\""),
        ("str(None)", "\"None\""),
        ("str(False)", "\"False\""),
        ("repr(\"plain\")", "\"\\\"plain\\\"\""),
        ("repr(5)", "\"5\""),
        ("str(len)", "\"<built-in function len>\""),
        (
            "str(\"a\".upper)",
            "\"<built-in method upper of string value>\"",
        ),
        ("str(range(2, 5))", "\"range(2, 5)\""),
        ("int(\"42\")", "42"),
        ("int(\"-17\")", "-17"),
        ("int(3.9)", "3"),
        ("int(-3.9)", "-3"),
        ("int(\"ff\", 16)", "255"),
        ("int(\"0x1f\", 0)", "31"),
        ("int(\"0b101\", 0)", "5"),
        ("int(True)", "1"),
        ("float(3)", "3"),
        ("len([1, 2, 3])", "3"),
        ("sorted([3, 1, 2])", "[1, 2, 3]"),
        ("sorted([3, 1, 2], reverse=True)", "[3, 2, 1]"),
        (
            "sorted([\"b\", \"B\", \"a\", \"A\"])",
            "[\"A\", \"B\", \"a\", \"b\"]",
        ),
        (
            "sorted([{\"n\": \"y\"}, {\"n\": \"x\"}], key=lambda d: d[\"n\"])",
            "[{\"n\": \"x\"}, {\"n\": \"y\"}]",
        ),
        (
            "sorted([\"bb\", \"a\", \"cc\", \"d\"], key=len)",
            "[\"a\", \"d\", \"bb\", \"cc\"]",
        ),
        ("sorted({\"b\": 1, \"a\": 2})", "[\"a\", \"b\"]"),
        ("reversed([1, 2, 3])", "[3, 2, 1]"),
        ("type(reversed([1]))", "\"list\""),
        ("enumerate([\"a\", \"b\"])", "[(0, \"a\"), (1, \"b\")]"),
        (
            "[[i, v] for i, v in enumerate([\"x\", \"y\"], 1)]",
            "[[1, \"x\"], [2, \"y\"]]",
        ),
        ("zip([1, 2, 3], [\"a\", \"b\"])", "[(1, \"a\"), (2, \"b\")]"),
        ("list(range(4))", "[0, 1, 2, 3]"),
        ("list(range(2, 5))", "[2, 3, 4]"),
        ("list(range(10, 0, -3))", "[10, 7, 4, 1]"),
        ("list(range(0))", "[]"),
        ("len(range(0, 100, 7))", "15"),
        ("range(10)[2]", "2"),
        ("3 in range(1, 5)", "True"),
        ("list(range(0, 10, 2)[1:3])", "[2, 4]"),
        ("range(0, 10, 2)[1:3]", "range(2, 6, 2)"),
        ("range(10)[::-1][0]", "9"),
        ("list(range(10)[8:2:-3])", "[8, 5]"),
        ("range(5)[2:]", "range(2, 5)"),
        ("any([0, \"\", \"x\"])", "True"),
        ("any([])", "False"),
        ("all([1, \"a\", [0]])", "True"),
        ("all([1, 0])", "False"),
        ("all([])", "True"),
        ("min([4, 2, 8])", "2"),
        ("max(4, 2, 8)", "8"),
        ("min([\"ccc\", \"a\", \"bb\"], key=len)", "\"a\""),
        ("max([\"pear\", \"apple\", \"zoo\"])", "\"zoo\""),
        ("hash(\"abc\") == hash(\"abc\")", "True"),
        ("hash(\"abc\")", "96354"),
        ("tuple([1, 2])", "(1, 2)"),
        ("list((1, 2))", "[1, 2]"),
        ("chr(65)", "\"A\""),
        ("ord(\"é\")", "233"),
        ("hasattr(\"x\", \"upper\")", "True"),
        ("hasattr(\"x\", \"zfill\")", "False"),
        ("getattr(\"abc\", \"upper\")()", "\"ABC\""),
        ("getattr(\"abc\", \"nope\", 7)", "7"),
        (
            "dir(\"\")[:3]",
            "[\"capitalize\", \"codepoint_ords\", \"codepoints\"]",
        ),
    ]);
    assert_eq!(
        err("x = int(\"12abc\")"),
        "int: invalid literal with base 10: 12abc"
    );
    assert_eq!(
        err("x = int(\"0755\", 0)"),
        "int: invalid literal with base 0: 0755"
    );
    assert_eq!(
        err("x = float(\"abc\")"),
        "float: strconv.ParseFloat: parsing \"abc\": invalid syntax"
    );
    assert_eq!(
        err("x = \"7\".zfill(3)"),
        "string has no .zfill field or method"
    );
    assert_eq!(
        err("x = getattr(1, \"nope\")"),
        "getattr: int has no .nope field or method"
    );
    assert_eq!(err("x = min([])"), "min: argument is an empty sequence");
    assert_eq!(err("x = len(1)"), "len: value of type int has no len");
    assert_eq!(
        err("x = range(1, 2, 0)"),
        "range: step argument must not be zero"
    );
    assert_eq!(
        err("x = sorted([1, \"a\"])"),
        "string < int not implemented"
    );
}

#[test]
fn sets() {
    check(&[
        ("set([3, 1, 3, 2, 1])", "set([3, 1, 2])"),
        ("type(set([1]))", "\"set\""),
        ("len(set([1, 1, 2]))", "2"),
        ("2 in set([1, 2])", "True"),
        ("set([3, 1, 2]).union([9, 1])", "set([3, 1, 2, 9])"),
        ("sorted(set([\"b\", \"a\", \"b\"]))", "[\"a\", \"b\"]"),
        ("list(set([2, 1]))", "[2, 1]"),
        ("set([1, 2]) | set([3])", "set([1, 2, 3])"),
        ("set([1, 2]) & set([2, 3])", "set([2])"),
        ("set([1, 2]) == set([2, 1])", "True"),
        ("dir(set())", "[\"union\"]"),
    ]);
    assert_eq!(err("s = set([[1]])"), "set: unhashable type: list");
}
