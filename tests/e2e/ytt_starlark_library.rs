//! The library of the Starlark that ytt 0.48 embeds (the fork k14s/starlark-go): string,
//! list and dict methods and the built-ins of `library.go`, the `%` operator of
//! `eval.go` and the hash table of `hashtable.go`, as templates see them. Partial
//! effects of a failed call are observed through `assert.try_to`, which returns the
//! error's message instead of stopping the template.

use crate::support::ytt;

/// The stdout of a template whose last line is `x: #@ EXPR`, after `setup` lines
/// (each prefixed with `#@ `), with `@ytt:assert` loaded.
fn render_after(setup: &[&str], expr: &str) -> String {
    let mut t = String::from("#@ load(\"@ytt:assert\", \"assert\")\n");
    for line in setup {
        t.push_str(&format!("#@ {line}\n"));
    }
    t.push_str(&format!("x: #@ {expr}\n"));
    ytt::render(&[("config.yml", &t)], &["-f", "."]).unwrap()
}

/// `dict.update` sets entries one at a time (starlark-go's `updateDict` calls `SetKey`
/// for each pair as it goes), so the pairs before a failing element stay in the dict:
/// an element that is not a pair, an unhashable key, and keyword arguments given twice
/// (that check runs after all keyword entries were set, so the last value stays).
#[test]
fn a_failed_dict_update_keeps_the_entries_set_before_the_failure() {
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "r = assert.try_to(lambda: d.update([(\"b\", 2), 3, (\"c\", 4)]))"
            ],
            "repr([d, r])"
        ),
        "x: '[{\"a\": 1, \"b\": 2}, (None, \"update: dictionary update sequence element #1 is not iterable (int)\")]'\n"
    );
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "r = assert.try_to(lambda: d.update([(\"b\", 2), ([], 3), (\"c\", 4)]))"
            ],
            "repr([d, r])"
        ),
        "x: '[{\"a\": 1, \"b\": 2}, (None, \"update: unhashable type: list\")]'\n"
    );
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "r = assert.try_to(lambda: d.update({\"z\": 0}, a=5, **{\"a\": 6}))"
            ],
            "repr([d, r])"
        ),
        "x: '[{\"a\": 6, \"z\": 0}, (None, \"update: duplicate keyword arg: \\\"a\\\"\")]'\n"
    );
    // Updating a dict from itself reads a copy of its items.
    assert_eq!(
        render_after(&["d = {\"a\": 1}", "d.update(d, b=2)"], "repr(d)"),
        "x: '{\"a\": 1, \"b\": 2}'\n"
    );
}

/// starlark-go's hash table allocates its buckets at the first insertion (even one whose
/// key then fails to hash) and `delete` on a table without buckets reports "not found"
/// before hashing the key: `pop` of an unhashable key from a dict never written to is
/// "missing key" (or the default), while `get` hashes first and a cleared dict keeps
/// its buckets.
#[test]
fn popping_an_unhashable_key_from_a_dict_never_written_to_is_a_missing_key() {
    ytt::assert_top_level_failure("{}.pop([])", "pop: missing key");
    ytt::assert_top_level_failure("dict().pop({})", "pop: missing key");
    ytt::assert_top_level_failure("{k: 1 for k in []}.pop([])", "pop: missing key");
    assert_eq!(render_after(&[], "{}.pop([], 7)"), "x: 7\n");
    ytt::assert_top_level_failure("{}.get([])", "get: unhashable type: list");
    ytt::assert_top_level_failure("{\"a\": 1}.pop([])", "pop: unhashable type: list");
    assert_eq!(
        render_after(
            &[
                "d = {\"a\": 1}",
                "d.clear()",
                "e = {}",
                "r1 = assert.try_to(lambda: e.update([([], 1)]))",
            ],
            "repr([assert.try_to(lambda: d.pop([])), assert.try_to(lambda: e.pop([])), e])"
        ),
        "x: '[(None, \"pop: unhashable type: list\"), (None, \"pop: unhashable type: list\"), {}]'\n"
    );
}

/// starlark-go's `interpolate` reads the conversion after `%(key)` like any other, so
/// `%` there prints a percent sign; an unknown conversion is named by its first byte
/// printed as a rune (`%c` of a byte), so a multi-byte character shows its Latin-1
/// reading.
#[test]
fn percent_conversions_after_a_key_and_unknown_multibyte_ones() {
    assert_eq!(
        render_after(&[], "\"%(a)% %(a)s\" % {\"a\": 1}"),
        "x: '% 1'\n"
    );
    ytt::assert_top_level_failure("\"%é\" % 1", "unknown conversion %Ã");
}

/// starlark-go's `Equal` and `Compare` start with a depth of 10 (`maxdepth`) and
/// `sliceCompare` and `dictsEqual` pass one less to the elements: comparing values
/// nested ten levels deep fails with "comparison exceeded maximum recursion depth",
/// for `==`, ordering and `in` alike; nine levels compare.
#[test]
fn comparisons_fail_past_ten_levels_of_nesting() {
    let nest = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
    let (l9, l10) = (nest(9, "1"), nest(10, "1"));
    assert_eq!(render_after(&[], &format!("{l9} == {l9}")), "x: true\n");
    assert_eq!(
        render_after(&[], &format!("{} < {}", nest(9, "1"), nest(9, "2"))),
        "x: true\n"
    );
    // The innermost list is compared at level 9 and has no elements to compare.
    assert_eq!(
        render_after(&[], &format!("{} == {}", nest(10, ""), nest(10, ""))),
        "x: true\n"
    );
    let message = "comparison exceeded maximum recursion depth";
    ytt::assert_top_level_failure(&format!("{l10} == {l10}"), message);
    ytt::assert_top_level_failure(&format!("{l10} != {l10}"), message);
    ytt::assert_top_level_failure(&format!("{} < {}", nest(10, "1"), nest(10, "2")), message);
    ytt::assert_top_level_failure(&format!("{l10} in [{l10}]"), message);
    let dict = |n: usize| format!("{}1{}", "{\"a\": ".repeat(n), "}".repeat(n));
    assert_eq!(
        render_after(&[], &format!("{} == {}", dict(9), dict(9))),
        "x: true\n"
    );
    ytt::assert_top_level_failure(&format!("{} == {}", dict(10), dict(10)), message);
    // Lists of different lengths are unequal before any element is compared.
    assert_eq!(
        render_after(&[], &format!("{l10} == {}", nest(10, "1, 2"))),
        "x: false\n"
    );
}

/// starlark-go compares a list or dict with itself element by element (the comment on
/// `List.CompareSameType`: a list containing NaN is not equal to itself), and a string
/// iterable (`"ab".elems()`) is a Go struct compared by value.
#[test]
fn a_list_holding_nan_is_not_equal_to_itself_and_string_iterables_compare_by_value() {
    assert_eq!(
        render_after(
            &["l = [float(\"nan\")]", "d = {\"a\": float(\"nan\")}",],
            "repr([l == l, l != l, d == d, l in [l]])"
        ),
        "x: '[False, True, False, False]'\n"
    );
    assert_eq!(
        render_after(
            &[],
            "repr([\"ab\".elems() == \"ab\".elems(), \"ab\".elems() == \"ab\".elem_ords(), \"a\".codepoints() == \"b\".codepoints()])"
        ),
        "x: '[True, False, False]'\n"
    );
}

/// A string iterable as a dict key fails in starlark-go's `stringIterable.Hash` with
/// "unhashable: elems" (or "codepoints"), as a range does with "unhashable: range".
#[test]
fn string_iterables_are_unhashable_in_their_own_words() {
    ytt::assert_top_level_failure("{\"a\".elems(): 1}", "unhashable: elems");
    ytt::assert_top_level_failure("{\"a\".codepoint_ords(): 1}", "unhashable: codepoints");
    ytt::assert_top_level_failure("{range(1): 1}", "unhashable: range");
}

/// `<<` and `>>` of an int read the count with starlark-go's `AsInt32` and return its
/// error as it is (eval.go `Binary`): a count that is no int is "got T, want int", one
/// past the 32-bit range "N out of range" (for `>>` too, which otherwise gives 0);
/// a left operand that is no int is an unknown binary op.
#[test]
fn shift_counts_are_read_as_32_bit_ints() {
    ytt::assert_top_level_failure("1 << \"a\"", "got string, want int");
    ytt::assert_top_level_failure("1 >> 1.0", "got float, want int");
    ytt::assert_top_level_failure("(1 << 40) << None", "got NoneType, want int");
    ytt::assert_top_level_failure("1 >> (1 << 40)", "1099511627776 out of range");
    ytt::assert_top_level_failure("1 << 2147483648", "2147483648 out of range");
    ytt::assert_top_level_failure("1 << 2147483647", "shift count too large: 2147483647");
    ytt::assert_top_level_failure("1 >> -1", "negative shift count: -1");
    ytt::assert_top_level_failure("\"a\" << 1", "unknown binary op: string << int");
    assert_eq!(
        render_after(&[], "repr([(1 << 40) >> 3, -5 >> 200, 5 >> 200, 1 << 70])"),
        "x: '[137438953472, -1, 0, 1180591620717411303424]'\n"
    );
}

/// `sorted` runs Go's `sort.Stable` (insertion sort of blocks of 20, then merges) over
/// starlark-go's `sortSlice`, whose `Less` keeps the error of the last comparison that
/// failed and answers False for it, so the sort goes on: the error reported is the
/// last one met, and a NaN, unordered with everything, stays where insertion sort
/// leaves it. `reverse=True` swaps the operands of every comparison (`sort.Reverse`).
#[test]
fn sorted_reports_the_last_failed_comparison_and_sorts_as_go_does() {
    ytt::assert_top_level_failure(
        "sorted([1, \"a\", None])",
        "NoneType < string not implemented",
    );
    ytt::assert_top_level_failure("sorted([1, \"a\", 2])", "int < string not implemented");
    ytt::assert_top_level_failure(
        "sorted([1, \"a\"], reverse=True)",
        "int < string not implemented",
    );
    assert_eq!(
        render_after(
            &["nan = float(\"nan\")"],
            "repr([sorted([3, nan, 1, 2]), sorted([nan, 3, 1, 2]), sorted([3, 1, nan, 0, 2], reverse=True)])"
        ),
        "x: '[[3, NaN, 1, 2], [NaN, 1, 2, 3], [3, 1, NaN, 2, 0]]'\n"
    );
    // Stable, in both directions, across several blocks of 20.
    assert_eq!(
        render_after(
            &[],
            "sorted(range(45), key=lambda x: -(x % 4), reverse=True)[:14]"
        ),
        "x:\n- 0\n- 4\n- 8\n- 12\n- 16\n- 20\n- 24\n- 28\n- 32\n- 36\n- 40\n- 44\n- 1\n- 5\n"
    );
}

/// `list.extend` unpacks its argument (an iterable) before it checks that the list may
/// be mutated: a frozen list extended by a non-iterable reports the argument.
#[test]
fn extending_a_frozen_list_by_a_non_iterable_reports_the_argument() {
    let files = [
        ("lib.star", "l = [1]\n"),
        (
            "config.yml",
            "#@ load(\"lib.star\", \"l\")\nx: #@ l.extend(1)\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- extend: for parameter 1: got int, want iterable\n    in <toplevel>\n      config.yml:2 | x: #@ l.extend(1)\n"
    );
}

/// `hash` is starlark-go's `javaStringHash`: 31 * h + each rune, in wrapping 32-bit
/// arithmetic. Its UTF-16 step only splits runes that are surrogates themselves, which
/// ranging over a Go string never yields, so a rune past U+FFFF is added whole (not as
/// Java's surrogate pair).
#[test]
fn hash_adds_each_code_point_whole() {
    assert_eq!(
        render_after(
            &[],
            "[hash(\"\"), hash(\"abc\"), hash(\"é\"), hash(\"😀\"), hash(\"a😀\"), hash(\"a\" * 100)]"
        ),
        "x:\n- 0\n- 96354\n- 233\n- 128512\n- 131519\n- -323643840\n"
    );
    // A byte that is no UTF-8 decodes to U+FFFD when Go ranges over the string (and
    // for `ord`, which decodes the one rune).
    assert_eq!(
        render_after(&[], "[hash(\"\\xff\"), hash(\"a\\xffb\"), ord(\"\\xff\")]"),
        "x:\n- 65533\n- 2124838\n- 65533\n"
    );
}

/// Set intersection walks the smaller set (starlark-go's `Binary` swaps the operands
/// when the left one is longer), so the result keeps that set's order; `union` takes
/// at most one iterable (`UnpackPositionalArgs` with a minimum of 0).
#[test]
fn set_intersection_follows_the_smaller_set_and_union_takes_at_most_one_iterable() {
    assert_eq!(
        render_after(
            &[],
            "repr([set([1, 2, 3]) & set([3, 2]), set([3, 2]) & set([1, 2, 3]), set([1, 2]) & set([2, 1])])"
        ),
        "x: '[set([3, 2]), set([3, 2]), set([1, 2])]'\n"
    );
    ytt::assert_top_level_failure(
        "set([1]).union([2], [3])",
        "union: got 2 arguments, want at most 1",
    );
}

/// The errors of the `%` operator as starlark-go's `interpolate` words them: argument
/// counts (a dict is one argument unless keys are used), `%(key)` lookups, `%c` of an
/// int and of a string, conversions it does not know (no widths or flags).
#[test]
fn percent_formatting_errors() {
    for (expr, message) in [
        (
            "\"%s %s\" % (\"a\",)",
            "not enough arguments for format string",
        ),
        ("\"%s\" % ()", "not enough arguments for format string"),
        ("\"%s\" % (1, 2)", "too many arguments for format string"),
        ("\"abc\" % {}", "too many arguments for format string"),
        ("\"%(a)s\" % [1]", "format requires a mapping"),
        ("\"%(b)s\" % {\"a\": 1}", "key not found: b"),
        ("\"%(a\" % {\"a\": 1}", "incomplete format key"),
        ("\"50%\" % ()", "not enough arguments for format string"),
        ("\"50%\" % (1,)", "incomplete format"),
        ("\"%5d\" % 1", "unknown conversion %5"),
        (
            "\"%c\" % \"ab\"",
            "%c format requires a single-character string",
        ),
        (
            "\"%c\" % \"\"",
            "%c format requires a single-character string",
        ),
        (
            "\"%c\" % -1",
            "%c format requires a valid Unicode code point, got -1",
        ),
        (
            "\"%c\" % 1.5",
            "%c format requires int or single-character string, not float",
        ),
        (
            "\"%d\" % \"x\"",
            "%d format requires integer: cannot convert string to int",
        ),
        ("\"%e\" % \"x\"", "%e format requires float, not string"),
    ] {
        ytt::assert_top_level_failure(expr, message);
    }
    assert_eq!(
        render_after(
            &[],
            "\"%s|%r|%d|%i|%o|%x|%X|%e|%f|%g|%c%c|%%\" % (\"a\", \"a\", 7.9, -3, 8, 255, 255, 1.5, 1.5, 1e20, 65, \"é\")"
        ),
        "x: a|\"a\"|7|-3|10|ff|FF|1.500000e+00|1.500000|1e+20|Aé|%\n"
    );
}

/// `str.format` and the string methods' own errors (starlark-go's `string_format`,
/// `string_partition`, `string_split`, `string_find_impl`, `string_join`,
/// `string_startswith`), and `removeprefix`, which this starlark-go does not have.
#[test]
fn string_method_errors() {
    for (expr, message) in [
        ("\"{} {}\".format(1)", "format: tuple index out of range"),
        (
            "\"{0} {}\".format(1, 2)",
            "format: cannot switch from manual field specification to automatic field numbering",
        ),
        (
            "\"{} {0}\".format(1, 2)",
            "format: cannot switch from automatic field numbering to manual field specification",
        ),
        ("\"{a}\".format(b=1)", "format: keyword a not found"),
        ("\"{!x}\".format(1)", "format: unknown conversion \"x\""),
        (
            "\"{:>3}\".format(1)",
            "format spec features not supported in replacement fields: >3",
        ),
        ("\"}\".format()", "format: single '}' in format"),
        ("\"{\".format()", "format: unmatched '{' in format"),
        (
            "\"{a.b}\".format()",
            "format: attribute syntax x.y is not supported in replacement fields: a.b",
        ),
        ("\"a\".partition(\"\")", "partition: empty separator"),
        ("\"a\".rpartition(\"\")", "rpartition: empty separator"),
        ("\"a\".split(\"\")", "split: empty separator"),
        ("\"a\".rsplit(\"\")", "split: empty separator"),
        (
            "\"a\".split(1)",
            "split: got int for separator, want string",
        ),
        ("\"abc\".index(\"z\")", "index: substring not found"),
        ("\"abc\".rindex(\"z\")", "rindex: substring not found"),
        (
            "\",\".join([\"a\", 1])",
            "join: in list, want string, got int",
        ),
        (
            "\"a\".endswith((\"x\", 1))",
            "endswith: want string, got int, for element 1",
        ),
        (
            "\"a\".startswith(1)",
            "startswith: got int, want string or tuple of string",
        ),
        (
            "\"a\".removeprefix(\"a\")",
            "string has no .removeprefix field or method",
        ),
    ] {
        ytt::assert_top_level_failure(expr, message);
    }
    assert_eq!(
        render_after(
            &[],
            "repr([\"{{}} {0!r} {x}\".format(\"a\", x=[1]), \" a  b \".split(None, 0), \" a  b \".rsplit(None, 1), \"a,b,c\".rsplit(\",\", 1), \"a\\nb\\n\".splitlines(True), \"hello wORLD_x1y\".title(), \"aé\".replace(\"\", \"-\")])"
        ),
        "x: '[\"{} \\\"a\\\" [1]\", [\"a  b \"], [\" a\", \"b\"], [\"a,b\", \"c\"], [\"a\\n\", \"b\\n\"], \"Hello World_X1Y\", \"-a-é-\"]'\n"
    );
}

/// `int(string, base)` as starlark-go's `int_` reads it: sign, then a `0x`/`0o`/`0b`
/// prefix that must agree with an explicit base, base 0 guessing from the prefix and
/// refusing other leading zeros; the error shows the base in force and the string.
#[test]
fn int_of_a_string_with_a_base() {
    assert_eq!(
        render_after(
            &[],
            "[int(\"0x1F\", 0), int(\"-0o17\", 0), int(\"0b101\", 2), int(\"+ff\", 16), int(\"000\", 0), int(\"z\", 36), int(\"0\", 0)]"
        ),
        "x:\n- 31\n- -15\n- 5\n- 255\n- 0\n- 35\n- 0\n"
    );
    for (expr, message) in [
        ("int(\"0755\", 0)", "int: invalid literal with base 0: 0755"),
        (
            "int(\"0b101\", 16)",
            "int: invalid literal with base 16: 0b101",
        ),
        ("int(\"0x10\")", "int: invalid literal with base 10: 0x10"),
        ("int(\"--5\")", "int: invalid literal with base 10: --5"),
        ("int(\"5_0\")", "int: invalid literal with base 10: 5_0"),
        ("int(\"\")", "int: invalid literal with base 10: "),
        (
            "int(\"10\", 1)",
            "int: base must be an integer >= 2 && <= 36",
        ),
        (
            "int(\"10\", 37)",
            "int: base must be an integer >= 2 && <= 36",
        ),
        (
            "int(1, 10)",
            "int: can't convert non-string with explicit base",
        ),
        ("int()", "int: missing argument for x"),
        ("int(None)", "int: cannot convert NoneType to int"),
    ] {
        ytt::assert_top_level_failure(expr, message);
    }
}

/// `dict()` and `dict.update()` take any iterable of length 2 as a pair (a set, a dict's
/// keys, a range), but a string iterable has no length for starlark-go's `Len`:
/// `updateDict` reports its unknown length.
#[test]
fn dict_pairs_of_any_sized_iterable_but_not_string_iterables() {
    assert_eq!(
        render_after(
            &[],
            "repr([dict([set([1, 2])]), dict([{1: 2, 3: 4}]), dict([range(2)])])"
        ),
        "x: '[{1: 2}, {1: 3}, {0: 1}]'\n"
    );
    ytt::assert_top_level_failure(
        "dict([\"ab\".elems()])",
        "dict: dictionary update sequence element #0 has unknown length (elems)",
    );
}

/// ytt's threads set no `Print`, so starlark-go's `print` writes its line to standard
/// error (`fmt.Fprintln(os.Stderr, ...)`): strings bare, other values as `repr`,
/// joined by `sep`; standard output holds only the rendered YAML.
#[test]
fn print_writes_its_line_to_standard_error() {
    let (code, out, err) = ytt::run_binary(
        &[(
            "config.yml",
            "#@ print(\"a\", 1, [\"b\"], None, sep=\"|\")\n#@ print()\nx: 1\n",
        )],
        &["-f", "."],
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "x: 1\n", "a|1|[\"b\"]|None\n\n")
    );
}

/// ytt 0.48 is built with Go 1.21, whose Unicode tables are version 15.0.0: code points
/// assigned later (Unicode 15.1 and 16.0) are unassigned to Go, so `repr` escapes them
/// as `strconv.Quote` does and they are no letters and have no case.
#[test]
fn code_points_newer_than_unicode_15_are_unassigned() {
    assert_eq!(
        render_after(
            &[],
            "[repr(chr(0x1FAE9)), repr(chr(0x31EF) + chr(0x1FAE8)), chr(0x10D50).isalpha(), chr(0xA7CB).lower() == chr(0xA7CB), chr(0x10D70).upper() == chr(0x10D70)]"
        ),
        "x:\n- '\"\\U0001fae9\"'\n- \"\\\"\\\\u31ef\\U0001FAE8\\\"\"\n- false\n- true\n- true\n"
    );
}

/// `istitle` asks Go's `unicode.IsLower` and `IsUpper`, which mean the categories Ll
/// and Lu: a Roman numeral or a circled letter (Unicode's Uppercase and Lowercase
/// properties, not those categories) is uncased there.
#[test]
fn istitle_reads_the_letter_categories() {
    assert_eq!(
        render_after(
            &[],
            "[\"Chapter Ⅻ\".istitle(), \"Aⓐb\".istitle(), \"Aªb\".istitle(), \"ǅa Bc\".istitle()]"
        ),
        "x:\n- true\n- false\n- false\n- true\n"
    );
}

/// Argument errors of the universal built-ins in `library.go`, each in its own words:
/// `chr`/`ord` check by hand, `max`/`min` want a positional argument and an iterable,
/// `zip` numbers the argument that is not iterable, `enumerate` takes no keywords.
#[test]
fn builtin_argument_errors() {
    for (expr, message) in [
        ("chr(-1)", "chr: Unicode code point -1 out of range (<0)"),
        (
            "chr(0x110000)",
            "chr: Unicode code point U+110000 out of range (>0x10FFFF)",
        ),
        ("chr(\"a\")", "chr: got string, want int"),
        ("chr(1 << 40)", "chr: got int, want int"),
        ("chr(x=1)", "chr does not accept keyword arguments"),
        (
            "ord(\"\")",
            "ord: string encodes 0 Unicode code points, want 1",
        ),
        (
            "ord(\"ab\")",
            "ord: string encodes 2 Unicode code points, want 1",
        ),
        ("ord(1)", "ord: got int, want string"),
        ("max()", "max requires at least one positional argument"),
        ("min(1)", "min: int value is not iterable"),
        ("max([])", "max: argument is an empty sequence"),
        ("max([1, \"a\"])", "max: string > int not implemented"),
        (
            "min([1], foo=1)",
            "min: unexpected keyword argument \"foo\"",
        ),
        ("zip([1], 1)", "zip: argument #2 is not iterable: int"),
        ("zip(x=1)", "zip does not accept keyword arguments"),
        (
            "enumerate([\"a\"], start=1)",
            "enumerate: unexpected keyword arguments",
        ),
        ("range(1, 2, 0)", "range: step argument must not be zero"),
        (
            "range(1, 2, 3, 4)",
            "range: got 4 arguments, want at most 3",
        ),
        ("len(1)", "len: value of type int has no len"),
        ("str(1, 2)", "str: got 2 arguments, want exactly 1"),
        ("type()", "type: got 0 arguments, want exactly 1"),
        ("hash(1)", "hash: for parameter 1: got int, want string"),
        (
            "getattr(1, \"x\")",
            "getattr: int has no .x field or method",
        ),
        ("float([])", "float got list, want number or string"),
        ("float(1, 2)", "float got 2 arguments, wants 1"),
    ] {
        ytt::assert_top_level_failure(expr, message);
    }
    assert_eq!(
        render_after(
            &[],
            "repr([enumerate([\"a\"], 5), getattr(\"\", \"x\", 3), hasattr(\"\", \"upper\"), dir(None), range(1, 3, 2), range(0, 3), range(10)[::-1], reversed(range(3)), zip([1, 2], \"ab\".elems()), max(1, 3, 2, key=lambda x: -x), min(\"ba\".elems())])"
        ),
        "x: '[[(5, \"a\")], 3, True, [], range(1, 3, 2), range(3), range(9, -1, -1), [2, 1, 0], [(1, \"a\"), (2, \"b\")], 1, \"a\"]'\n"
    );
}

/// starlark-go's case methods go through Go's `strings.Map` (or write the decoded runes
/// back), so a byte that is no UTF-8 comes out as U+FFFD; `islower` and `isupper`
/// compare a string with that result and so answer False for such a string.
#[test]
fn case_methods_replace_bytes_that_are_no_utf8() {
    assert_eq!(
        render_after(
            &[],
            "repr([\"\\xffA\".lower(), \"\\xffa\".upper(), \"\\xffa\".capitalize(), \"a\\xff\".title(), \"A\\xff\".isupper(), \"a\\xff\".islower(), \"\\xff\".strip()])"
        ),
        "x: '[\"\u{fffd}a\", \"\u{fffd}A\", \"\u{fffd}a\", \"A\u{fffd}\", False, False, \"\\xff\"]'\n"
    );
}
