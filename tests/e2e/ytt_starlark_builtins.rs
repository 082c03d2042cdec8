//! Built-ins, operators and literals of the Starlark that ytt 0.48 embeds (the fork
//! k14s/starlark-go of July 2020, as ytt vendors it): the argument checks of built-ins
//! in `UnpackArgs` order, numbers as `eval.go` and `int.go` compute them, string
//! escapes as the old `syntax/quote.go` reads them, frozen values, spelling hints.

use crate::support::ytt;

/// The whole stderr for a one-line template `x: #@ EXPR` that starlark-go's scanner
/// or parser rejects with `message` (no stack: nothing ran).
fn syntax_failure(expr: &str, message: &str) {
    let line = format!("x: #@ {expr}\n");
    let stderr = ytt::failure_of(&[("config.yml", &line)], &["-f", "."]);
    assert_eq!(
        stderr,
        format!("strake: error: \n- {message}\n    config.yml:1 | x: #@ {expr}\n"),
        "for {expr}"
    );
}

/// The stdout of a one-line template `x: #@ EXPR`.
fn value_of(expr: &str) -> String {
    let line = format!("x: #@ {expr}\n");
    ytt::render(&[("config.yml", &line)], &["-f", "."]).unwrap()
}

/// A template that loads frozen values from a module (`d = {"a": 1}`, `e = {}`,
/// `l = [1]`, `m = []`): starlark-go freezes a module's globals once it has run.
fn with_frozen(expr: &str) -> Result<String, String> {
    let files = [
        ("lib.star", "d = {\"a\": 1}\ne = {}\nl = [1]\nm = []\n"),
        (
            "config.yml",
            &*format!("#@ load(\"lib.star\", \"d\", \"e\", \"l\", \"m\")\nx: #@ {expr}\n"),
        ),
    ];
    let (code, out, err) = ytt::run_binary(&files, &["-f", "."]);
    if code == 0 { Ok(out) } else { Err(err) }
}

fn frozen_failure(expr: &str, message: &str) {
    assert_eq!(
        with_frozen(expr).unwrap_err(),
        format!(
            "strake: error: \n- {message}\n    in <toplevel>\n      config.yml:2 | x: #@ {expr}\n"
        ),
        "for {expr}"
    );
}

/// `sorted` unpacks with `UnpackArgs`, which binds and type-checks the positional
/// arguments before it looks at any keyword: `sorted(1, x=1)` fails on the 1. A
/// parameter is named bare when given by position, quoted when given by keyword.
#[test]
fn sorted_checks_positional_arguments_before_keywords() {
    ytt::assert_top_level_failure(
        "sorted(1, x=1)",
        "sorted: for parameter iterable: got int, want iterable",
    );
    ytt::assert_top_level_failure(
        "sorted([1], x=1)",
        "sorted: unexpected keyword argument \"x\"",
    );
    ytt::assert_top_level_failure(
        "sorted([2, 1], key=1, x=1)",
        "sorted: for parameter \"key\": got int, want callable",
    );
    ytt::assert_top_level_failure(
        "sorted([2, 1], None)",
        "sorted: for parameter key: got NoneType, want callable",
    );
    ytt::assert_top_level_failure(
        "sorted([2, 1], reverse=1)",
        "sorted: for parameter \"reverse\": got int, want bool",
    );
    ytt::assert_top_level_failure(
        "sorted(iterable=1)",
        "sorted: for parameter \"iterable\": got int, want iterable",
    );
    ytt::assert_top_level_failure("sorted()", "sorted: missing argument for iterable");
    assert_eq!(
        value_of("sorted([1, 3, 2], int, True)"),
        "x:\n- 3\n- 2\n- 1\n"
    );
}

/// `int`'s first parameter is required in the fork (`UnpackArgs("int", .., "x", &x,
/// "base?", &base)`): `int()` fails rather than giving 0.
#[test]
fn int_without_an_argument_is_missing_it() {
    ytt::assert_top_level_failure("int()", "int: missing argument for x");
    assert_eq!(value_of("int(x=\"0x1f\", base=0)"), "x: 31\n");
}

/// `float` parses strings with Go's `strconv.ParseFloat`, which takes underscores
/// between digits as Go literals do.
#[test]
fn float_of_a_string_with_underscores() {
    assert_eq!(value_of("float(\"1_000.5\")"), "x: 1000.5\n");
    ytt::assert_top_level_failure(
        "float(\"1__0\")",
        "float: strconv.ParseFloat: parsing \"1__0\": invalid syntax",
    );
    ytt::assert_top_level_failure(
        "float(\"_1\")",
        "float: strconv.ParseFloat: parsing \"_1\": invalid syntax",
    );
}

/// `%` on floats is Go's `math.Mod` in the fork's `Binary` (no flooring): the result
/// takes the dividend's sign. Int `%` stays floored (`Int.Mod`).
#[test]
fn float_modulo_keeps_the_sign_of_the_dividend() {
    assert_eq!(value_of("-7.5 % 2"), "x: -1.5\n");
    assert_eq!(value_of("7.5 % -2"), "x: 1.5\n");
    assert_eq!(value_of("-7 % 2.0"), "x: -1\n");
    assert_eq!(value_of("-7 % 2"), "x: 1\n");
    ytt::assert_top_level_failure("5.0 % 0", "float modulo by zero");
}

/// `CompareDepth` compares an int with a float exactly (as rationals), and answers
/// False to every comparison of an int with NaN, `!=` included.
#[test]
fn ints_and_floats_compare_exactly() {
    assert_eq!(value_of("10000000000000000000000001 > 1e25"), "x: false\n");
    assert_eq!(value_of("10000000000000000905969664 == 1e25"), "x: true\n");
    assert_eq!(value_of("int(\"1\" + \"0\" * 40) > 1e39"), "x: true\n");
    assert_eq!(value_of("int(\"1\" + \"0\" * 40) == 1e40"), "x: false\n");
    assert_eq!(
        value_of("9007199254740993 > 9007199254740992.0"),
        "x: true\n"
    );
    assert_eq!(value_of("1 != float(\"nan\")"), "x: false\n");
    assert_eq!(value_of("float(\"nan\") != 1"), "x: false\n");
    assert_eq!(value_of("float(\"nan\") != float(\"nan\")"), "x: true\n");
    assert_eq!(
        value_of("{1e25: \"a\"}[10000000000000000905969664]"),
        "x: a\n"
    );
}

/// `in` on a dict ignores the lookup's error ("we cannot distinguish true errors from
/// key not found"); on a range it converts the needle with `NumberToInt`.
#[test]
fn membership_in_dicts_and_ranges() {
    assert_eq!(value_of("[] in {}"), "x: false\n");
    assert_eq!(value_of("[] not in {\"a\": 1}"), "x: true\n");
    assert_eq!(value_of("1.0 in range(3)"), "x: true\n");
    assert_eq!(value_of("2.5 in range(3)"), "x: true\n");
    assert_eq!(value_of("3000000000 in range(3)"), "x: false\n");
    ytt::assert_top_level_failure(
        "\"a\" in range(3)",
        "'in <range>' requires integer as left operand, not string",
    );
    ytt::assert_top_level_failure("{}[[]]", "unhashable type: list");
}

/// The fork's `quote.go`: an octal escape over 255 and a bad or short `\x` escape fail
/// with the escape quoted; `\x` takes what Go's `ParseInt(_, 16, 0)` takes.
#[test]
fn bad_escapes_in_string_literals() {
    syntax_failure("\"\\777\"", "invalid escape sequence \\777");
    syntax_failure("\"\\400\"", "invalid escape sequence \\400");
    syntax_failure("\"a\\x4\"", "truncated escape sequence \\x4");
    syntax_failure("\"\\x\"", "truncated escape sequence \\x");
    syntax_failure("\"\\xzz\"", "invalid escape sequence \\xzz");
    syntax_failure("\"\\x\\\"\"", "invalid escape sequence \\x\\\"");
    assert_eq!(value_of("\"\\x41\\101\\x+1\" == \"AA\\x01\""), "x: true\n");
    // Unknown escapes, `\u` among them, keep their backslash.
    assert_eq!(value_of("\"\\u00e9\\d\""), "x: \\u00e9\\d\n");
}

/// A raw triple-quoted string keeps a backslash before a line break.
#[test]
fn a_raw_string_keeps_a_backslash_before_a_line_break() {
    let files = [
        ("lib.star", "s = r'''a\\\nb'''\nt = '''a\\\nb'''\n"),
        (
            "config.yml",
            "#@ load(\"lib.star\", \"s\", \"t\")\nraw: #@ s\ncooked: #@ t\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "raw: |-\n  a\\\n  b\ncooked: ab\n"
    );
}

/// A slice bound goes through `asIndex` and a step through `slice`, which word any
/// failure of `AsInt32` as a type error (an int past 32 bits included).
#[test]
fn slice_bounds_and_steps_that_are_no_32_bit_ints() {
    ytt::assert_top_level_failure("[1][:3000000000]", "invalid end index: got int, want int");
    ytt::assert_top_level_failure("\"abc\"[::3000000000]", "got int for slice step, want int");
    ytt::assert_top_level_failure("[1][::None and 1 or 0]", "zero is not a valid slice step");
    ytt::assert_top_level_failure(
        "\"abc\".find(\"a\", 3000000000)",
        "find: invalid start index: got int, want int",
    );
}

/// `dict.update` sets entries one by one with `SetKey`, so a frozen dict fails only
/// when there is something to set; `dict.clear` returns the hash table's error
/// without its name, and fails on a frozen dict even when empty.
#[test]
fn frozen_dicts_fail_on_the_first_entry_set() {
    assert_eq!(with_frozen("d.update()").unwrap(), "x: null\n");
    assert_eq!(with_frozen("d.update({})").unwrap(), "x: null\n");
    assert_eq!(with_frozen("e.update([])").unwrap(), "x: null\n");
    frozen_failure(
        "d.update(a=1)",
        "update: cannot insert into frozen hash table",
    );
    frozen_failure(
        "d.update([1])",
        "update: dictionary update sequence element #0 is not iterable (int)",
    );
    frozen_failure("e.clear()", "cannot clear frozen hash table");
    frozen_failure("m.clear()", "clear: cannot clear frozen list");
    frozen_failure("m.extend([])", "extend: cannot extend frozen list");
    frozen_failure("m.pop()", "pop: index -1 out of range: empty list");
    frozen_failure(
        "d.pop(\"zz\", 1)",
        "pop: cannot delete from frozen hash table",
    );
    assert_eq!(with_frozen("d.setdefault(\"a\")").unwrap(), "x: 1\n");
    frozen_failure("e.popitem()", "popitem: empty dict");
}

/// `getAttr` ends a missing attribute's error with the nearest name (`spell.Nearest`:
/// Levenshtein distance under half the name's length, case and underscores ignored),
/// for built-in types and ytt's structs and modules alike.
#[test]
fn a_missing_attribute_hints_at_the_nearest_name() {
    ytt::assert_top_level_failure(
        "\"abc\".uper",
        "string has no .uper field or method (did you mean .upper?)",
    );
    ytt::assert_top_level_failure(
        "[].apend",
        "list has no .apend field or method (did you mean .append?)",
    );
    ytt::assert_top_level_failure(
        "{}.item",
        "dict has no .item field or method (did you mean .items?)",
    );
    ytt::assert_top_level_failure("{}.zzzzzz", "dict has no .zzzzzz field or method");
    // `getattr` gives no hint.
    ytt::assert_top_level_failure(
        "getattr(\"a\", \"uper\")",
        "getattr: string has no .uper field or method",
    );
    let files = [
        ("values.yml", "#@data/values\n---\nname: a\nnamespace: b\n"),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\na: #@ data.values.nme\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- struct has no .nme field or method (did you mean .name?)\n    in <toplevel>\n      config.yml:3 | a: #@ data.values.nme\n"
    );
    top_level_failure_with_load(
        "#@ load(\"@ytt:yaml\", \"yaml\")",
        "yaml.encod",
        "module has no .encod field or method (did you mean .encode?)",
    );
}

fn top_level_failure_with_load(load: &str, expr: &str, message: &str) {
    let text = format!("{load}\nx: #@ {expr}\n");
    assert_eq!(
        ytt::failure_of(&[("config.yml", &text)], &["-f", "."]),
        format!(
            "strake: error: \n- {message}\n    in <toplevel>\n      config.yml:2 | x: #@ {expr}\n"
        )
    );
}

/// None is ordered in starlark-go (`NoneType.CompareSameType` compares it equal to
/// itself), so `None <= None` holds and a list of Nones sorts.
#[test]
fn none_is_ordered_against_none() {
    assert_eq!(value_of("None <= None"), "x: true\n");
    assert_eq!(value_of("None < None"), "x: false\n");
    assert_eq!(value_of("sorted([None, None])"), "x:\n- null\n- null\n");
    ytt::assert_top_level_failure("None < 1", "NoneType < int not implemented");
}

/// `stringRepeat`/`tupleRepeat`: an empty sequence stays empty whatever the count, a
/// count past 32 bits is "too large", and a result of 2^30 elements or more (bytes for
/// a string) is refused before anything is allocated.
#[test]
fn repetition_counts_and_sizes() {
    ytt::assert_top_level_failure("\"a\" * 3000000000", "repeat count 3000000000 too large");
    ytt::assert_top_level_failure(
        "\"a\" * -30000000000000000000000",
        "repeat count -30000000000000000000000 too large",
    );
    ytt::assert_top_level_failure(
        "\"ab\" * 600000000",
        "excessive repeat (1200000000 elements)",
    );
    ytt::assert_top_level_failure("[1] * 2000000000", "excessive repeat (2000000000 elements)");
    assert_eq!(value_of("\"\" * 3000000000"), "x: \"\"\n");
    assert_eq!(value_of("[] * 30000000000000000000000"), "x: []\n");
    assert_eq!(value_of("(1,) * -1"), "x: []\n");
    assert_eq!(value_of("2 * (1, 2)"), "x:\n- 1\n- 2\n- 1\n- 2\n");
}

/// ytt's struct is a starlark `IterableMapping`, and `in` on a mapping ignores the
/// error of its `Get`: a key that is no string is simply not in it.
#[test]
fn membership_in_a_struct_ignores_keys_that_are_no_strings() {
    let text = "#@ load(\"@ytt:struct\", \"struct\")\na: #@ 1 in struct.make(a=1)\nb: #@ [] in struct.make(a=1)\nc: #@ \"a\" in struct.make(a=1)\n";
    assert_eq!(
        ytt::render(&[("config.yml", text)], &["-f", "."]).unwrap(),
        "a: false\nb: false\nc: true\n"
    );
}

/// `%d`, `%x` and the like convert with `NumberToInt`, whose error names an infinite
/// or NaN float in words.
#[test]
fn integer_conversions_of_infinite_floats_in_interpolation() {
    ytt::assert_top_level_failure(
        "\"%d\" % float(\"inf\")",
        "%d format requires integer: cannot convert float infinity to integer",
    );
    ytt::assert_top_level_failure(
        "\"%x\" % float(\"nan\")",
        "%x format requires integer: cannot convert float NaN to integer",
    );
    ytt::assert_top_level_failure(
        "\"%d\" % True",
        "%d format requires integer: cannot convert bool to int",
    );
    assert_eq!(value_of("\"%x\" % 255.9"), "x: ff\n");
}

/// `setArgs`: a function with no parameters at all counts keyword arguments among
/// those it refuses, and "at most" appears only when a positional parameter has a
/// default.
#[test]
fn arity_errors_of_starlark_functions() {
    let defs = "#@ def f():\n#@   return 1\n#@ end\n#@ def g(a):\n#@   return 1\n#@ end\n#@ def h(a, b=2):\n#@   return 1\n#@ end\n#@ def k(**kw):\n#@   return 1\n#@ end\n";
    for (call, message) in [
        ("f(1, a=2)", "function f accepts no arguments (2 given)"),
        ("f(a=2)", "function f accepts no arguments (1 given)"),
        (
            "g(1, 2)",
            "function g accepts 1 positional argument (2 given)",
        ),
        (
            "h(1, 2, 3)",
            "function h accepts at most 2 positional arguments (3 given)",
        ),
        (
            "k(1)",
            "function k accepts 0 positional arguments (1 given)",
        ),
    ] {
        let text = format!("{defs}x: #@ {call}\n");
        assert_eq!(
            ytt::failure_of(&[("config.yml", &text)], &["-f", "."]),
            format!(
                "strake: error: \n- {message}\n    in <toplevel>\n      config.yml:13 | x: #@ {call}\n"
            ),
            "{call}"
        );
    }
}

/// `interpolate` counts a dict as one argument like any other value, so a format
/// with no conversion has one argument too many; `%(name)s` looks names up in any
/// `Mapping`, ytt's structs included.
#[test]
fn interpolation_with_mappings() {
    ytt::assert_top_level_failure("\"abc\" % {}", "too many arguments for format string");
    assert_eq!(value_of("\"%(a)s\" % {\"a\": 1}"), "x: \"1\"\n");
    let text =
        "#@ load(\"@ytt:struct\", \"struct\")\na: #@ \"%(a)s-%(b)s\" % struct.make(a=1, b=2)\n";
    assert_eq!(
        ytt::render(&[("config.yml", text)], &["-f", "."]).unwrap(),
        "a: 1-2\n"
    );
}

/// Go's `ParseFloat` takes a sign before "inf" and "infinity" but not before "nan".
#[test]
fn float_of_signed_nan_is_no_float() {
    ytt::assert_top_level_failure(
        "float(\"-nan\")",
        "float: strconv.ParseFloat: parsing \"-nan\": invalid syntax",
    );
    assert_eq!(value_of("float(\"NaN\")"), "x: .nan\n");
    assert_eq!(value_of("float(\"-Infinity\")"), "x: -.inf\n");
}

/// The fork's resolver (`useToplevel`) ends "undefined: x" with the nearest name
/// bound in the module or the enclosing functions (`spellcheck`), loaded names
/// included; built-ins are no candidates.
#[test]
fn an_undefined_name_hints_at_the_nearest_bound_name() {
    for (text, message, line) in [
        (
            "#@ values = 1\nx: #@ valeus\n",
            "undefined: valeus (did you mean values?)",
            "config.yml:2 | x: #@ valeus",
        ),
        (
            "#@ load(\"@ytt:data\", \"data\")\nx: #@ dta.values\n",
            "undefined: dta (did you mean data?)",
            "config.yml:2 | x: #@ dta.values",
        ),
        (
            "x: #@ lenn([])\n",
            "undefined: lenn",
            "config.yml:1 | x: #@ lenn([])",
        ),
    ] {
        assert_eq!(
            ytt::failure_of(&[("config.yml", text)], &["-f", "."]),
            format!("strake: error: \n- {message}\n    {line}\n")
        );
    }
}
