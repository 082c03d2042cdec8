//! What ytt 0.48 prints for every kind of scalar, key and document, byte for byte: its
//! YAML goes through the go-yaml v2 fork it vendors (`encode.go`'s `stringv`/`floatv`,
//! `resolve.go`'s `resolve`, `emitterc.go`'s scalar analysis and writers, never folding
//! long lines) and its `-o json` through Go's `encoding/json` after
//! `orderedmap.Conversion.AsUnorderedStringMaps`.

use crate::support::ytt;

/// Renders one plain YAML file (no templating) as ytt prints it.
fn yaml(body: &str) -> String {
    ytt::render(&[("t.yml", body)], &["-f", "."]).unwrap()
}

/// Renders one plain YAML file with `-o json`.
fn json(body: &str) -> String {
    ytt::render(&[("t.yml", body)], &["-f", ".", "-o", "json"]).unwrap()
}

/// `stringv` asks for the plain style only when `resolve("", s)` gives `!!str` and
/// `isBase60Float(s)` is false; otherwise (booleans of YAML 1.1, nulls, ints in any
/// base Go's `ParseInt(s, 0, 64)` reads after dropping `_`, floats, timestamps, `<<`,
/// sexagesimal numbers) the string is double-quoted.
#[test]
fn strings_that_would_resolve_to_another_type_are_double_quoted() {
    let items = [
        "true",
        "yes",
        "on",
        "Off",
        "Y",
        "n",
        "null",
        "~",
        "",
        "1",
        "1.5",
        "0x1f",
        "0o17",
        "0b101",
        "1_000",
        "1e3",
        "+1",
        "-.5",
        "-0",
        "0777",
        "08",
        ".inf",
        "+.inf",
        ".NaN",
        "12:30",
        "1:2:3.5",
        "2001-12-14",
        "2001-12-14t21:59:43.10-05:00",
        "<<",
    ];
    let body: String = items.iter().map(|s| format!("- \"{s}\"\n")).collect();
    assert_eq!(yaml(&body), body);
}

/// Look-alikes that `resolve` leaves as strings print plain: `0o8` and `0x` fail
/// `ParseInt`, `1e` fails the float pattern, `~a` is not in the resolve map, a
/// timestamp with a `-5` zone matches none of `allowedTimestampFormats`, and `a:b`,
/// `a#b`, `-a`, `?a`, `:a` carry no indicator `yaml_emitter_analyze_scalar` sees
/// (`:` and `-` only count before a blank, `#` only after one).
#[test]
fn string_look_alikes_that_resolve_to_str_stay_plain() {
    let body = "- \"0o8\"\n- \"0x\"\n- \"1e\"\n- \"~a\"\n- \"2001-12-14 21:59:43.10 -5\"\n- \"a:b\"\n- \"a#b\"\n- \"-a\"\n- \"?a\"\n- \":a\"\n- \"=\"\n- \"a'\"\n- 'a\"'\n";
    assert_eq!(
        yaml(body),
        "- 0o8\n- 0x\n- 1e\n- ~a\n- 2001-12-14 21:59:43.10 -5\n- a:b\n- a#b\n- -a\n- ?a\n- :a\n- =\n- a'\n- a\"\n"
    );
}

/// `yaml_emitter_analyze_scalar` marks block indicators (a leading `#,[]{}&*!|>'"%@` or
/// backtick, a leading `-`/`?`/`:` before a blank, `: ` or ` #` inside, a final `:`, a
/// `---`/`...` start) and leading or trailing spaces; plain is then not allowed and
/// `yaml_emitter_select_scalar_style` falls back to single quotes (a quote doubled).
#[test]
fn strings_with_indicators_or_edge_spaces_are_single_quoted() {
    let items = [
        "- a", "? a", ": a", "a:", "#a", "a #b", "&a", "*a", "!a", "|a", ">a", "%a", "@a", "`a",
        "[a", "]a", "{a", "}a", ",a", "'a", "\\\"a", " a", "a ", "   ", "-", "---", "...", "--- a",
        "a: b",
    ];
    let body: String = items.iter().map(|s| format!("- \"{s}\"\n")).collect();
    assert_eq!(
        yaml(&body),
        "- '- a'\n- '? a'\n- ': a'\n- 'a:'\n- '#a'\n- 'a #b'\n- '&a'\n- '*a'\n- '!a'\n- '|a'\n- '>a'\n- '%a'\n- '@a'\n- '`a'\n- '[a'\n- ']a'\n- '{a'\n- '}a'\n- ',a'\n- '''a'\n- '\"a'\n- ' a'\n- 'a '\n- '   '\n- '-'\n- '---'\n- '...'\n- '--- a'\n- 'a: b'\n"
    );
}

/// `yaml_emitter_write_double_quoted_scalar` escapes what `is_printable` rejects (C0 and
/// C1 controls, DEL, U+FEFF, U+FFFE, everything outside the BMP) and line breaks, with
/// the short forms `\0 \a \b \t \n \v \f \r \e \N` and otherwise `\x`, `\u` or `\U` in
/// upper-case hex; U+00A0, combining marks and U+FFFD are printable and stay plain.
#[test]
fn double_quoted_escapes_follow_libyaml() {
    let body = r#"- "\0\a\b\t\v\f\r\e"
- "a\x1fb"
- "a\x7fb"
- "\x80"
- "a\x85b"
- "a\ufeffb"
- "a\ufffe"
- "\U0001F600"
- "\U0010FFFF"
- "a b\u0085"
- "e\u0301"
- "\u00a0a"
- "\ufffd"
- "\ud7ff"
- "\ue000"
"#;
    assert_eq!(
        yaml(body),
        "- \"\\0\\a\\b\\t\\v\\f\\r\\e\"\n- \"a\\x1Fb\"\n- \"a\\x7Fb\"\n- \"\\x80\"\n- \"a\\Nb\"\n- \"a\\uFEFFb\"\n- \"a\\uFFFE\"\n- \"\\U0001F600\"\n- \"\\U0010FFFF\"\n- \"a b\\N\"\n- e\u{301}\n- \u{a0}a\n- \u{fffd}\n- \u{d7ff}\n- \u{e000}\n"
    );
}

/// go-yaml's `is_bom(b, i)` tests the first three bytes of the whole value whatever `i`
/// is, so in a string starting with U+FEFF every character is written as an escape
/// (`a` as `\x61`, a space as `\x20`); the newline keeps its short form `\n`.
#[test]
fn a_leading_bom_escapes_every_character_of_the_string() {
    assert_eq!(
        yaml("- \"\\ufeffab\"\n- \"\\ufeff a\"\n- \"\\ufeffa\\nb\"\n"),
        "- \"\\uFEFF\\x61\\x62\"\n- \"\\uFEFF\\x20\\x61\"\n- \"\\uFEFF\\x61\\n\\x62\"\n"
    );
}

/// Strings holding `\n` ask for a literal block (`stringv`). The hints come from
/// `yaml_emitter_write_block_scalar_hints`: `2` (the best indent) when the text starts
/// with a space or a break, `-` when it ends without a break, `+` when it ends in two
/// breaks (or is only a break); lines starting with `- ` or `#` need no quoting there.
#[test]
fn literal_blocks_get_indentation_and_chomping_hints() {
    let body = r#"- " lead\nx"
- "\nlead break"
- "a\n\n"
- "x\n\ny\n\n\n"
- "\n"
- "\n\n"
- "a\n\n b"
- "k\n#c"
- "a\n- b\n"
- " x\n"
"#;
    assert_eq!(
        yaml(body),
        "- |2-\n   lead\n  x\n- |2-\n\n  lead break\n- |+\n  a\n\n- |+\n  x\n\n  y\n\n\n- |2+\n\n- |2+\n\n\n- |-\n  a\n\n   b\n- |-\n  k\n  #c\n- |\n  a\n  - b\n- |2\n   x\n"
    );
}

/// A block is not allowed when the analysis finds a trailing space, a space before a
/// break, a tab, `\r` or a character outside the BMP (`special_characters`), so those
/// multi-line strings are double-quoted with `\n` escapes instead.
#[test]
fn multi_line_strings_that_cannot_be_literal_blocks_are_double_quoted() {
    let body = r#"- "a\nb "
- "a \nb"
- "a\n \nb"
- "a\n\tb"
- "\tx\ny"
- "a\r\nb"
- "a\rb"
- "\u00e9\n\U0001F600"
- " \n"
"#;
    assert_eq!(
        yaml(body),
        "- \"a\\nb \"\n- \"a \\nb\"\n- \"a\\n \\nb\"\n- \"a\\n\\tb\"\n- \"\\tx\\ny\"\n- \"a\\r\\nb\"\n- \"a\\rb\"\n- \"\u{e9}\\n\\U0001F600\"\n- \" \\n\"\n"
    );
}

/// U+2028 and U+2029 are line breaks for libyaml but printable: with no `\n` the string
/// asks for plain, the break rules plain out, and single quotes write the character
/// raw; `write_break` then sets the column to 0 so the next text is indented to the
/// scalar's indent. As a key, the break makes it multi-line, so not a simple key.
#[test]
fn unicode_line_separators_are_written_raw_in_single_quotes() {
    let body = "- \"a\\u2028b\"\n- \"a\\u2029b\"\n- \"a\\u2028\"\n- {\"a\\u2028b\": 1}\n";
    assert_eq!(
        yaml(body),
        "- 'a\u{2028}  b'\n- 'a\u{2029}  b'\n- 'a\u{2028}'\n- ? 'a\u{2028}    b'\n  : 1\n"
    );
}

/// Keys go through the same style choice in a simple-key context; `check_simple_key`
/// refuses keys longer than 128 bytes (so 65 two-byte `é` are too long, 128 `x` are
/// not) and multi-line keys, which then print as `? key` / `: value`, a multi-line one
/// as a literal block.
#[test]
fn map_keys_of_every_kind() {
    let long = "k".repeat(130);
    let wide = "é".repeat(65);
    let fit = "x".repeat(128);
    let body = format!(
        "1: a\ntrue: b\n~: c\n1.5: d\n\"1\": e\n\"\": f\n\" k\": g\n\"k:\": h\n1e+21: i\n-0.0: j\n\"k \": l\n\"-k\": m\n\"k\\t\": nn\n\"@\": o\n\"<<\": p\n\"a\\nb\": q\n\"\\x85\": r\n{long}: s\n{wide}: t\n{fit}: u\n"
    );
    assert_eq!(
        yaml(&body),
        format!(
            "1: a\ntrue: b\nnull: c\n1.5: d\n\"1\": e\n\"\": f\n' k': g\n'k:': h\n1e+21: i\n-0: j\n'k ': l\n-k: m\n\"k\\t\": nn\n'@': o\n\"<<\": p\n? |-\n  a\n  b\n: q\n? \"\\N\"\n: r\n? {long}\n: s\n? {wide}\n: t\n{fit}: u\n"
        )
    );
}

/// `floatv` prints `strconv.FormatFloat(f, 'g', -1, 64)`: shortest digits, exponent form
/// (`e+06`, at least two exponent digits) when the exponent is below -4 or at least 6;
/// infinities and NaN become `.inf`, `-.inf`, `.nan`.
#[test]
fn floats_print_as_go_formats_them_with_g() {
    let tpl = "#@ fl = [1.0, 1e6, 1e-7, -0.0, 1e21, 1e20, 123456789.0, 1.5e300, 5e-324, 0.1, 100000.0, 1e-4, 1e-5, 2.5e-5, 12345678901234567890.0, float(\"inf\"), -float(\"inf\"), float(\"nan\")]\nf: #@ fl\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "f:\n- 1\n- 1e+06\n- 1e-07\n- -0\n- 1e+21\n- 1e+20\n- 1.23456789e+08\n- 1.5e+300\n- 5e-324\n- 0.1\n- 100000\n- 0.0001\n- 1e-05\n- 2.5e-05\n- 1.2345678901234567e+19\n- .inf\n- -.inf\n- .nan\n"
    );
}

/// Integers at the 64-bit edges print in full (`intv`/`uintv`); a plain YAML integer
/// past `uint64` fails `ParseInt`/`ParseUint` and resolves as a float instead.
#[test]
fn integers_at_the_64_bit_edges() {
    assert_eq!(
        yaml(
            "a: 9223372036854775807\nb: -9223372036854775808\nc: 18446744073709551615\nd: 18446744073709551616\n"
        ),
        "a: 9223372036854775807\nb: -9223372036854775808\nc: 18446744073709551615\nd: 1.8446744073709552e+19\n"
    );
}

/// Empty collections are flow `{}`/`[]` (libyaml's `check_empty_*`); sequences under a
/// key are not indented, and a sequence inside a sequence starts on the `- ` line.
#[test]
fn empty_and_nested_collections() {
    let tpl = "e: #@ {\"a\": {}, \"b\": [], \"c\": [[]], \"d\": [{}], \"e\": {\"x\": []}, \"f\": [[1, 2], [[3]]], \"g\": [[[]], [{}], [[{\"a\": 1}]]]}\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "e:\n  a: {}\n  b: []\n  c:\n  - []\n  d:\n  - {}\n  e:\n    x: []\n  f:\n  - - 1\n    - 2\n  - - - 3\n  g:\n  - - []\n  - - {}\n  - - - a: 1\n"
    );
}

/// Each document is its own `yaml.Marshal` (so no `...` end markers) and `YAMLPrinter`
/// writes `---\n` between printed ones; `Document.IsEmpty` drops null, `{}` and `[]`
/// documents but not `""`. A root scalar is indented as a flow node (2 spaces), so a
/// root literal block's lines start at column 2.
#[test]
fn scalar_documents_and_separators() {
    let body = "--- \"a\\nb\"\n--- \" x\\n\"\n--- \"x\\n\\n\"\n--- \"\"\n--- \" \"\n--- \"a\\u2028b\"\n--- \"- x\"\n--- true\n--- 1.5\n--- \"null\"\n--- ~\n--- \"\\t\"\n--- []\n--- {}\n--- end\n";
    assert_eq!(
        yaml(body),
        "|-\n  a\n  b\n---\n|2\n   x\n---\n|+\n  x\n\n---\n\"\"\n---\n' '\n---\n'a\u{2028}  b'\n---\n'- x'\n---\ntrue\n---\n1.5\n---\n\"null\"\n---\n\"\\t\"\n---\nend\n"
    );
}

/// `-o json`: `json.Marshal` per document, written back to back with no separator and
/// no final newline; empty documents are skipped as in YAML output.
#[test]
fn json_documents_are_concatenated_without_separators() {
    let body =
        "--- \"a\\nb\"\n--- \"\"\n--- true\n--- 1.5\n--- ~\n--- []\n--- {}\n--- [1]\n--- {a: 1}\n";
    assert_eq!(json(body), "\"a\\nb\"\"\"true1.5[1]{\"a\":1}");
    assert_eq!(json("--- ~\n--- {}\n"), "");
}

/// Go's `encoding/json` (before Go 1.22, which ytt 0.48 was built with) escapes `<`, `>`
/// and `&` as `\u003c`..., U+2028/U+2029 as `\u2028`/`\u2029`, control characters as
/// `\u00XX` except `\n`, `\r`, `\t`; DEL, U+FEFF and non-BMP characters stay raw.
#[test]
fn json_string_escapes() {
    let body = "s: \"<a> & b\\u2028\\u2029\\x7f\\0\\t\\n\\r\\b\\f\\x01\\x1f\\ufeff\\U0001F600\\\\\\\"/\\u00e9\"\n";
    assert_eq!(
        json(body),
        "{\"s\":\"\\u003ca\\u003e \\u0026 b\\u2028\\u2029\u{7f}\\u0000\\t\\n\\r\\u0008\\u000c\\u0001\\u001f\u{feff}\u{1F600}\\\\\\\"/\u{e9}\"}"
    );
}

/// Bytes that are no UTF-8 (here from `!!binary`) become U+FFFD one byte at a time, as
/// Go's `utf8.DecodeRuneInString` reports width 1 for each invalid byte: a truncated
/// three-byte sequence gives two replacement characters.
#[test]
fn json_replaces_each_invalid_utf8_byte() {
    assert_eq!(
        json("a: !!binary 4oJB\nb: !!binary //4=\nc: !!binary 8J+Y\n"),
        "{\"a\":\"\\ufffd\\ufffdA\",\"b\":\"\\ufffd\\ufffd\",\"c\":\"\\ufffd\\ufffd\\ufffd\"}"
    );
    assert_eq!(
        yaml("a: !!binary 4oJB\nb: !!binary 8J+Y\n"),
        "a: !!binary 4oJB\nb: !!binary 8J+Y\n"
    );
}

/// `encoding/json`'s float encoder uses `'f'` unless the magnitude is below 1e-6 or at
/// least 1e21, then `'e'` with a two-digit negative exponent shortened (`1e-07` →
/// `1e-7`); keys of the `map[string]interface{}` are sorted by bytes.
#[test]
fn json_floats_and_sorted_keys() {
    let tpl = "f: #@ [1.0, 1e6, 1e-7, -0.0, 1e21, 1e20, 123456789.0, 1.5e300, 5e-324, 0.1, 1e-6, 9.99e-7, 12345678901234567890.0, -2.5e-8]\nz: {b: 1, a: 2, \"\": 3, B: 4, é: 5}\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", ".", "-o", "json"]).unwrap(),
        "{\"f\":[1,1000000,1e-7,-0,1e+21,100000000000000000000,123456789,1.5e+300,5e-324,0.1,0.000001,9.99e-7,12345678901234567000,-2.5e-8],\"z\":{\"\":3,\"B\":4,\"a\":2,\"b\":1,\"é\":5}}"
    );
}

/// A map key holding bytes that are no UTF-8 goes through `stringv` like a value: base64
/// under the `!!binary` tag, written before the key by `yaml_emitter_process_tag`. One
/// base64 line keeps it a simple key; text of 70 or more base64 characters is broken
/// into lines (`encodeBase64`), a literal block, so `check_simple_key` refuses it and
/// the key prints in the `? ` form. Bytes that are UTF-8 after all print as text. In
/// JSON each invalid byte is `\ufffd`, keys sorted by their bytes (`\xc3\xa9` first).
#[test]
fn map_keys_with_invalid_utf8_print_as_binary() {
    let tpl = "a: #@ {\"\\xff\": 1, \"\\xff\" * 60: 2, \"\\xc3\\xa9\": 3}\nb: #@ [\"\\xff\"]\n";
    let line = "/".repeat(70);
    let rest = "/".repeat(10);
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        format!(
            "a:\n  !!binary /w==: 1\n  ? !!binary |\n    {line}\n    {rest}\n  : 2\n  é: 3\nb:\n- !!binary /w==\n"
        )
    );
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", ".", "-o", "json"]).unwrap(),
        format!(
            "{{\"a\":{{\"é\":3,\"\\ufffd\":1,\"{}\":2}},\"b\":[\"\\ufffd\"]}}",
            "\\ufffd".repeat(60)
        )
    );
}

/// `encoding/json` sorts a map's keys by their bytes: a key holding the invalid byte
/// 0x80 comes before U+FFFD (0xEF 0xBF 0xBD, written raw as it is valid) and before an
/// emoji (0xF0 ...); each invalid byte itself is written `\ufffd`.
#[test]
fn json_sorts_keys_holding_invalid_utf8_by_their_bytes() {
    let tpl = "a: #@ {\"\u{1F600}\": 1, \"\\xef\\xbf\\xbd\": 2, \"\\x80\": 3}\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", ".", "-o", "json"]).unwrap(),
        "{\"a\":{\"\\ufffd\":3,\"\u{fffd}\":2,\"\u{1F600}\":1}}"
    );
}

/// `json.encode(v, indent=...)` goes through the same `json.Marshal` (then `json.Indent`),
/// so its keys sort by bytes too: the invalid byte 0x80 before the emoji's 0xF0. (The
/// emoji, outside the BMP, keeps the multi-line result out of a literal block.)
#[test]
fn json_encode_with_indent_sorts_invalid_utf8_keys_by_bytes() {
    let tpl = "#@ load(\"@ytt:json\", \"json\")\na: #@ json.encode({\"\u{1F600}\": 1, \"\\x80\": 2}, indent=1)\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "a: \"{\\n \\\"\\\\ufffd\\\": 2,\\n \\\"\\U0001F600\\\": 1\\n}\"\n"
    );
}

/// After a `? key`, `emit_block_mapping_value` writes `:` as an indention indicator, so
/// a map or sequence value starts on the `: ` line at the value's indent (libyaml's
/// `write_indent` pads instead of breaking) and its next entries line up under it.
#[test]
fn collections_under_a_non_simple_key_start_on_the_colon_line() {
    let tpl = "a: #@ {\"k\\nl\": {\"x\": 1, \"y\": [1, 2]}, \"m\\nn\": [{\"p\": 1}, 2], \"o\\np\": [], \"q\\nr\": {}}\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "a:\n  ? |-\n    k\n    l\n  : x: 1\n    \"y\":\n    - 1\n    - 2\n  ? |-\n    m\n    n\n  : - p: 1\n    - 2\n  ? |-\n    o\n    p\n  : []\n  ? |-\n    q\n    r\n  : {}\n"
    );
}
