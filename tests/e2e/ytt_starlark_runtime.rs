//! Run-time behaviour of Starlark built-ins and operators in templates, as the
//! starlark-go fork vendored by ytt 0.48 (k14s/starlark-go of July 2020) has it: which
//! message a failing built-in or operator gives, and the results of the subtle cases.

use crate::support::ytt;

/// The stdout of a one-line template `x: #@ EXPR`.
fn value_of(expr: &str) -> String {
    let line = format!("x: #@ {expr}\n");
    ytt::render(&[("config.yml", &line)], &["-f", "."]).unwrap()
}

/// `int()` of an infinite or NaN float fails in starlark-go's `NumberToInt` with a
/// fixed word for the value, not its printed form.
#[test]
fn int_of_an_infinite_or_nan_float_names_it_in_words() {
    ytt::assert_top_level_failure(
        "int(float(\"-inf\"))",
        "int: cannot convert float infinity to integer",
    );
    ytt::assert_top_level_failure(
        "int(float(\"nan\"))",
        "int: cannot convert float NaN to integer",
    );
}

/// The optional start and end of `count`, `find`, `index`, `startswith` and
/// `list.index` go through starlark-go's `indices`, which says which bound was bad.
#[test]
fn a_bad_start_or_end_argument_says_which_bound() {
    ytt::assert_top_level_failure(
        "\"abc\".count(\"a\", \"x\")",
        "count: invalid start index: got string, want int",
    );
    ytt::assert_top_level_failure(
        "\"abc\".find(\"a\", 0, [])",
        "find: invalid end index: got list, want int",
    );
    ytt::assert_top_level_failure(
        "\"abc\".startswith(\"a\", None, 1.5)",
        "startswith: invalid end index: got float, want int",
    );
    ytt::assert_top_level_failure(
        "[1, 2].index(1, \"a\")",
        "index: invalid start index: got string, want int",
    );
}

/// A slice step that is not an int: the `slice` of ytt's starlark-go fork says "got T
/// for slice step, want int".
#[test]
fn a_bad_slice_step() {
    ytt::assert_top_level_failure("\"abc\"[::\"c\"]", "got string for slice step, want int");
    ytt::assert_top_level_failure("[1][\"a\":]", "invalid start index: got string, want int");
}

/// starlark-go's ints hold the 32-bit range apart, and `AsInt32` (behind int
/// parameters of built-ins and indices) refuses bigger values with "N out of range";
/// a slice bound goes through `asIndex`, which words any failure as a type error.
#[test]
fn ints_past_the_32_bit_range_are_out_of_range_as_arguments_and_indices() {
    ytt::assert_top_level_failure(
        "range(2147483648)",
        "range: for parameter 1: 2147483648 out of range",
    );
    ytt::assert_top_level_failure(
        "enumerate([1], -2147483649)",
        "enumerate: for parameter 2: -2147483649 out of range",
    );
    ytt::assert_top_level_failure(
        "[1].pop(2147483648)",
        "pop: for parameter 1: 2147483648 out of range",
    );
    ytt::assert_top_level_failure(
        "[1].insert(8589934592, 2)",
        "insert: for parameter 1: 8589934592 out of range",
    );
    ytt::assert_top_level_failure(
        "\"aaa\".replace(\"a\", \"b\", 8589934592)",
        "replace: for parameter 3: 8589934592 out of range",
    );
    ytt::assert_top_level_failure(
        "\"a b\".split(\" \", 8589934592)",
        "split: for parameter 2: 8589934592 out of range",
    );
    ytt::assert_top_level_failure(
        "\"abc\"[2147483648]",
        "string index: 2147483648 out of range",
    );
    ytt::assert_top_level_failure(
        "\"abc\"[1:2147483648]",
        "invalid end index: got int, want int",
    );
    // `chr` reports any failure of AsInt32 as a type error.
    ytt::assert_top_level_failure("chr(2147483648)", "chr: got int, want int");
    // Within the range all is well.
    assert_eq!(value_of("[1, 2][-2147483648:2147483647]"), "x:\n- 1\n- 2\n");
}

/// Assigning to a list element: starlark-go's `setIndex` reads the index with
/// `AsInt32` and returns its error as it is.
#[test]
fn a_list_element_assigned_by_a_non_int_index() {
    let stderr = ytt::failure_of(
        &[("config.yml", "#@ l = [1, 2]\n#@ l[\"a\"] = 1\nx: #@ l\n")],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- got string, want int\n    in <toplevel>\n      config.yml:2 | #@ l[\"a\"] = 1\n"
    );
}

/// `dict()` and `dict.update()` prefix every error of starlark-go's `updateDict` with
/// their name, and a keyword given twice (once through `**`) is an error there.
#[test]
fn dict_update_errors_are_named_and_duplicate_keywords_refused() {
    ytt::assert_top_level_failure("dict([([1], 2)])", "dict: unhashable type: list");
    ytt::assert_top_level_failure(
        "dict(a=1, **{\"a\": 2})",
        "dict: duplicate keyword arg: \"a\"",
    );
    ytt::assert_top_level_failure(
        "{}.update(b=1, **{\"b\": 2})",
        "update: duplicate keyword arg: \"b\"",
    );
    // A keyword that repeats a key of the positional argument is fine.
    assert_eq!(value_of("dict([(\"a\", 1)], a=2)"), "x:\n  a: 2\n");
}

/// `list += y` extends by any iterable; for anything else starlark-go falls back to
/// `list + y`, whose error is the usual "unknown binary op" (a string is not iterable).
#[test]
fn list_plus_equals_a_non_iterable_is_an_unknown_binary_op() {
    let stderr = ytt::failure_of(
        &[("config.yml", "#@ l = [1]\n#@ l += \"ab\"\nx: #@ l\n")],
        &["-f", "."],
    );
    assert_eq!(
        stderr,
        "strake: error: \n- unknown binary op: list + string\n    in <toplevel>\n      config.yml:2 | #@ l += \"ab\"\n"
    );
    let ok = "#@ l = [1]\n#@ l += (2,)\n#@ l += {\"k\": 1}\nx: #@ l\n";
    assert_eq!(
        ytt::render(&[("config.yml", ok)], &["-f", "."]).unwrap(),
        "x:\n- 1\n- 2\n- k\n"
    );
}

/// Ordering two lists or tuples compares their first differing elements, and an
/// error names those elements' types with the operator used (starlark-go's
/// `sliceCompare` calls `CompareDepth` on them).
#[test]
fn ordering_sequences_fails_on_the_first_differing_elements() {
    ytt::assert_top_level_failure("(1, \"a\") < (1, 2)", "string < int not implemented");
    ytt::assert_top_level_failure("[[1, 2]] >= [[1, \"a\"]]", "int >= string not implemented");
    ytt::assert_top_level_failure(
        "max([(1, \"a\"), (1, 2)])",
        "max: int > string not implemented",
    );
    ytt::assert_top_level_failure("{} < {}", "dict < dict not implemented");
}

/// Comparisons with NaN are all False (Go float compare), and ints compare with
/// floats exactly, as rationals.
#[test]
fn nan_is_unordered_and_int_float_comparison_is_exact() {
    assert_eq!(value_of("float(\"nan\") <= float(\"nan\")"), "x: false\n");
    assert_eq!(value_of("1 >= float(\"nan\")"), "x: false\n");
    assert_eq!(
        value_of(
            "[9007199254740993 > 9007199254740992.0, 9007199254740993 == 9007199254740992.0, 3 == 3.0, 2 < 2.5]"
        ),
        "x:\n- true\n- false\n- true\n- true\n"
    );
}
