//! ytt 0.48's reading and printing of YAML (`pkg/yamlmeta` and its go-yaml v2 fork), its
//! text templates (`pkg/texttemplate`) and its file kinds (`pkg/files`), each pinned by the
//! exact text ytt prints.

use crate::support::ytt;

/// `files.File.Type` asks `strings.HasSuffix(filepath.Base(path), ".yml")`, so a file
/// named just `.yml` is a YAML template like any other, output in path order; `.json` and
/// `.YML` are no template kind at all (data), and `.lib.yml` is a library
/// (`IsModule`: the name split at dots has more than two parts, `lib` second to last).
#[test]
fn a_file_named_dot_yml_is_a_yaml_template() {
    let files = [
        (".yml", "dot: 1\n"),
        (".hid/a.yml", "hid: 1\n"),
        (".lib.yml", "lib: 1\n"),
        ("b.yml", "b: 1\n"),
        ("c.json", "{\"j\": 1}\n"),
        ("d.YML", "up: 1\n"),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "hid: 1\n---\ndot: 1\n---\nb: 1\n"
    );
}

/// ytt 0.48 puts `---\n` before a file that does not start with a document marker, and
/// a BOM is no white space to that check, so the BOM is no longer at the start of the
/// stream: go-yaml's scanner takes it as the first character of the first key. Printing
/// that key, go-yaml's `is_bom(value, i)` looks at the first three bytes of the value
/// whatever `i` is, so every character of it is escaped (ytt issue #999 shows this).
#[test]
fn a_bom_is_part_of_the_first_key_and_escapes_the_whole_key() {
    let files = [("withbom/data.yaml", "\u{feff}test: #@ None\n")];
    assert_eq!(
        ytt::render(&files, &["-f", "withbom"]).unwrap(),
        "\"\\uFEFF\\x74\\x65\\x73\\x74\": null\n"
    );
}

/// The same escaping for a value built in Starlark: a string starting with U+FEFF has
/// all its characters escaped, spaces as `\x20` and non-ASCII as `\u....`; a BOM further
/// in is escaped alone.
#[test]
fn a_string_starting_with_a_bom_prints_every_character_escaped() {
    let files = [(
        "a.yml",
        "a: #@ \"\u{feff}x y\u{e9}\"\nb: #@ \"x \u{feff}y\"\n",
    )];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "a: \"\\uFEFF\\x78\\x20\\x79\\xE9\"\nb: \"x \\uFEFFy\"\n"
    );
}

/// A BOM before `---` hides the marker from ytt's check, so ytt adds its own `---`; the
/// BOM then starts a plain scalar `\u{feff}---` that runs on into the next line, and the
/// `:` there fails as go-yaml words it, at the line of the file.
#[test]
fn a_bom_before_the_document_marker_fails_as_in_ytt() {
    let err = ytt::failure_of(&[("b.yml", "\u{feff}---\nb: 1\n")], &["-f", "."]);
    assert_eq!(
        err,
        "strake: error: Unmarshaling YAML template 'b.yml': yaml: line 2: mapping values are not allowed in this context\n    in b.yml:2\n      b.yml:2 | b: 1\n"
    );
}

/// `--file-mark X:for-output=true` on a file that is no YAML or text (data such as
/// `.json`, or Starlark) makes it a file for output that `LibraryExecution.eval` cannot
/// evaluate: ytt fails with its bare `Unknown file type`, as it does for such a file given
/// `exclusive-for-output=true`.
#[test]
fn a_data_or_starlark_file_marked_for_output_is_an_unknown_file_type() {
    let files = [
        ("b.yml", "b: 1\n"),
        ("c.json", "{\"j\": 1}\n"),
        ("m.star", "x = 1\n"),
    ];
    for mark in [
        "c.json:for-output=true",
        "m.star:for-output=true",
        "c.json:exclusive-for-output=true",
    ] {
        assert_eq!(
            ytt::failure_of(&files, &["-f", ".", "--file-mark", mark]),
            "strake: error: Unknown file type\n",
            "{mark}"
        );
    }
}

/// The YAML error of a template, after ytt's lead.
fn yaml_error(src: &str) -> String {
    let err = ytt::failure_of(&[("e.yml", src)], &["-f", "."]);
    let first = err.lines().next().unwrap_or_default();
    first
        .strip_prefix("strake: error: Unmarshaling YAML template 'e.yml': ")
        .unwrap_or(first)
        .to_string()
}

/// A flow collection still open at the end of the text: go-yaml's parser meets
/// STREAM-END where `yaml_parser_parse_flow_sequence_entry` (or `..._flow_mapping_key`)
/// wants a `,` or the closing bracket, and names the 0-based line of that token (the end
/// of the text, moved to a new line when the text does not end with one); ytt's `---`
/// prefix correction takes one off again.
#[test]
fn an_unclosed_flow_collection_is_go_yamls_missing_separator() {
    assert_eq!(
        yaml_error("a: [1, 2\n"),
        "yaml: line 1: did not find expected ',' or ']'"
    );
    assert_eq!(
        yaml_error("a: [1, 2"),
        "yaml: line 1: did not find expected ',' or ']'"
    );
    assert_eq!(
        yaml_error("x: 1\na: {b: 1\n"),
        "yaml: line 2: did not find expected ',' or '}'"
    );
}

/// The other closing bracket is the token where the parser wants `,` or the right one;
/// a parser error on the first line of a text that ytt put `---` before is go-yaml's
/// line 1, which ytt's correction prints as `line 0`.
#[test]
fn a_mismatched_bracket_is_named_at_the_closing_bracket() {
    assert_eq!(
        yaml_error("key: [a, b}\n"),
        "yaml: line 0: did not find expected ',' or ']'"
    );
    assert_eq!(
        yaml_error("---\nkey: [a, b}\n"),
        "yaml: line 1: did not find expected ',' or ']'"
    );
    assert_eq!(
        yaml_error("a: {b: \"x]\",\n # ]\n  c: [1]\n ]\n"),
        "yaml: line 3: did not find expected ',' or '}'"
    );
}

/// A plain scalar alone on its line in a block mapping is a required simple key: libyaml's
/// `yaml_parser_stale_simple_keys` fails when it next looks for a token on a later line
/// (or at the end of the text), and reports that place.
#[test]
fn a_key_without_colon_is_reported_where_the_scanner_stands_next() {
    assert_eq!(
        yaml_error("a: b\nc\n"),
        "yaml: line 3: could not find expected ':'"
    );
    assert_eq!(
        yaml_error("a:\n  - b\n  c\n"),
        "yaml: line 4: could not find expected ':'"
    );
    assert_eq!(
        yaml_error("a: b\nc\n# x\n\nd: 1\n"),
        "yaml: line 5: could not find expected ':'"
    );
}

/// go-yaml's parser error keeps only libyaml's problem, not its context (`while scanning
/// ...`); `%` cannot start a token except as a directive at the start of a line; and
/// `yaml_parser_process_directives` takes only `%YAML 1.1`.
#[test]
fn scanner_problems_and_directives_in_go_yamls_words() {
    assert_eq!(
        yaml_error("a: &\n"),
        "yaml: line 1: did not find expected alphabetic or numeric character"
    );
    assert_eq!(
        yaml_error("a: 1\nb: |x\n"),
        "yaml: line 2: did not find expected comment or line break"
    );
    assert_eq!(
        yaml_error("a: \"\\q\"\n"),
        "yaml: line 1: found unknown escape character"
    );
    assert_eq!(
        yaml_error("a: %x\n"),
        "yaml: line 1: found character that cannot start any token"
    );
    assert_eq!(
        yaml_error("%YAML 1.2\n---\na: 1\n"),
        "yaml: line 0: found incompatible YAML document"
    );
    assert_eq!(
        yaml_error("---\na: 1\n...\n%YAML 1.2\n---\nb: 1\n"),
        "yaml: line 3: found incompatible YAML document"
    );
    assert_eq!(
        ytt::render(&[("e.yml", "%YAML 1.1\n---\na: 1\n")], &["-f", "."]).unwrap(),
        "a: 1\n"
    );
}

/// Content after a quoted scalar is one more token (libyaml's scanner has no quarrel
/// with it); go-yaml's parser then fails where the enclosing block mapping wants its next
/// key, the sequence its next `-` (an indentless sequence gives the mapping back), or the
/// stream its next `---`.
#[test]
fn content_after_a_quoted_scalar_fails_where_the_next_entry_is_wanted() {
    assert_eq!(
        yaml_error("a: \"x\" y\n"),
        "yaml: line 0: did not find expected key"
    );
    assert_eq!(
        yaml_error("b: 1\nc: 'x' y\n"),
        "yaml: line 1: did not find expected key"
    );
    assert_eq!(
        yaml_error("- \"x\" y\n"),
        "yaml: line 0: did not find expected '-' indicator"
    );
    assert_eq!(
        yaml_error("a:\n- \"x\" y\n"),
        "yaml: line 1: did not find expected key"
    );
    assert_eq!(
        yaml_error("\"x\" y\n"),
        "yaml: line 0: did not find expected <document start>"
    );
}

/// A closing bracket with no flow collection open is a FLOW-SEQUENCE-END token to
/// libyaml: after `key:` or `-` the parser wants node content; at the start of a line it
/// wants the next key or `-` of the collection at that indentation.
#[test]
fn a_stray_closing_bracket_fails_as_go_yamls_parser_does() {
    assert_eq!(
        yaml_error("a: ]\n"),
        "yaml: line 0: did not find expected node content"
    );
    assert_eq!(
        yaml_error("a: 1\n]\n"),
        "yaml: line 1: did not find expected key"
    );
    assert_eq!(
        yaml_error("a:\n  - b\n  ]\n"),
        "yaml: line 2: did not find expected '-' indicator"
    );
    assert_eq!(
        yaml_error("a: !!\n"),
        "yaml: line 1: did not find expected tag URI"
    );
}

/// libyaml's `yaml_parser_scan_to_next_token` skips a tab only where no simple key can
/// start: after a simple key's `:` it does (`a:\tb` is fine), but at the start of the text,
/// after `-` or `?` it does not, and the tab cannot start a token. A tab in the
/// indentation of the line after a plain scalar is met by the plain scalar's scanner,
/// which refuses it in its own words, on the tab's line.
#[test]
fn tabs_where_libyaml_refuses_them() {
    assert_eq!(
        ytt::render(&[("e.yml", "a:\tb\n")], &["-f", "."]).unwrap(),
        "a: b\n"
    );
    assert_eq!(
        yaml_error("x: 1\nl:\n- \tb\n"),
        "yaml: line 3: found character that cannot start any token"
    );
    assert_eq!(
        yaml_error("\ta: 1\n"),
        "yaml: line 1: found character that cannot start any token"
    );
    assert_eq!(
        yaml_error("a: 1\n\tb: 2\n"),
        "yaml: line 2: found a tab character that violates indentation"
    );
    assert_eq!(
        yaml_error("a: \"x\"\n\tb: 2\n"),
        "yaml: line 2: found character that cannot start any token"
    );
    assert_eq!(
        yaml_error("a: 1\n\t\nb: 2\n"),
        "yaml: line 2: found a tab character that violates indentation"
    );
    assert_eq!(
        ytt::render(&[("e.yml", "a: 1\n \t\nb: 2\n")], &["-f", "."]).unwrap(),
        "a: 1\nb: 2\n"
    );
}

/// go-yaml's encoder quotes a string that `resolve` would read back as something else. A
/// date past the end of its month fails Go's `time.Parse` ("day out of range"), so it is
/// no timestamp and stays plain, while a real date (29 February of a leap year too) is
/// quoted. `.5_5` goes to `strconv.ParseFloat`, which takes `_` between digits: a float.
#[test]
fn quoting_follows_gos_parsers_for_dates_and_underscored_floats() {
    let src = "#@ v = [\"2001-02-30\", \"2024-02-29\", \"2023-02-29\", \"2001-04-31 10:00:00\", \".5_5\"]\nv: #@ v\nf: .5_5\n";
    assert_eq!(
        ytt::render(&[("a.yml", src)], &["-f", "."]).unwrap(),
        "v:\n- 2001-02-30\n- \"2024-02-29\"\n- 2023-02-29\n- 2001-04-31 10:00:00\n- \".5_5\"\nf: 0.55\n"
    );
}

/// Flow forms libyaml reads that granit would refuse: a `#` right after a quoted scalar or
/// a closing bracket starts a comment (`yaml_parser_scan_to_next_token` needs no space
/// before it), and a `-` right before `,`, `]` or `}` is the plain scalar `-`. A `- ` in a
/// flow collection is a BLOCK-ENTRY token where the parser wants a node.
#[test]
fn flow_forms_as_libyaml_reads_them() {
    assert_eq!(
        ytt::render(
            &[("e.yml", "a: \"x\"# c\nb: [1]#c\nc: [-, x, -]\nd: {k: -}\n")],
            &["-f", "."]
        )
        .unwrap(),
        "a: x\nb:\n- 1\nc:\n- '-'\n- x\n- '-'\nd:\n  k: '-'\n"
    );
    assert_eq!(
        yaml_error("b: 1\na: [a,\n - x]\n"),
        "yaml: line 2: did not find expected node content"
    );
}

/// `yaml_parser_scan_block_scalar_breaks` eats only spaces left of a block scalar's
/// indentation: a tab there, in a line of the scalar or in the one that ends it, is
/// refused at its line.
#[test]
fn a_tab_in_a_block_scalars_indentation_is_refused() {
    let want = "found a tab character where an indentation space is expected";
    assert_eq!(
        yaml_error("a: |\n  x\n\ty\n"),
        format!("yaml: line 3: {want}")
    );
    assert_eq!(yaml_error("a: |\n\tx\n"), format!("yaml: line 2: {want}"));
    assert_eq!(
        ytt::render(&[("e.yml", "a: |\n  x\n  \ty\nb: 1\n")], &["-f", "."]).unwrap(),
        "a: \"x\\n\\ty\\n\"\nb: 1\n"
    );
}

/// go-yaml decodes `!!binary` with `base64.StdEncoding.DecodeString`, which skips line
/// breaks only (a space is bad data), into a Go string that may hold any bytes; bytes that
/// are no UTF-8 are printed back as `!!binary` (encode.go's `stringv`).
#[test]
fn binary_values_keep_their_bytes() {
    assert_eq!(
        ytt::render(
            &[("e.yml", "a: !!binary /w==\nb: !!binary |\n  aGVs\n  bG8=\n")],
            &["-f", "."]
        )
        .unwrap(),
        "a: !!binary /w==\nb: hello\n"
    );
    assert_eq!(
        yaml_error("a: !!binary aGVs\n  bG8=\n"),
        "yaml: !!binary value contains invalid base64 data"
    );
}
