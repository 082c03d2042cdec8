//! Constructs met while rendering another round of public ytt directories (a Spring Cloud
//! Data Flow installer built from private libraries and `.star` checks, the Tanzu
//! Application Platform reference service bundles for Azure and Google Cloud, a GitOps
//! repository that puts a logo into its values, a homelab's vendir prototype, Concourse
//! and GitHub workflow generators, TKG cluster overlays), each reduced to a small case of
//! its own: what ytt 0.48 prints for them.

use std::path::Path;

use crate::support::ytt;

/// Writes `files` (name, bytes) into a fresh directory and runs `strake template ARGS`
/// there; gives the exit code, stdout and stderr.
fn run_bytes(files: &[(&str, &[u8])], args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    ytt::run_in(Path::new(dir.path()), args, "")
}

/// Bytes that are no UTF-8, as an image or a keystore holds them.
const BINARY: &[u8] = b"ab\xff\xfecd\xc3\xa9";

/// `data.read` gives a file's bytes as a string (`starlark.String(string(fileBs))` in
/// ytt's `DataLoader`): bytes that are no UTF-8 stay bytes, so `base64.encode` of a PNG
/// read this way is the PNG's base64 and `len` counts bytes. Printed as YAML, such a string
/// is `!!binary` (go-yaml's encoder for invalid UTF-8).
#[test]
fn data_read_keeps_the_bytes_of_a_binary_file() {
    let tpl = concat!(
        "#@ load(\"@ytt:data\", \"data\")\n",
        "#@ load(\"@ytt:base64\", \"base64\")\n",
        "logo: #@ base64.encode(data.read(\"tap-logo.png\"))\n",
        "len: #@ len(data.read(\"tap-logo.png\"))\n",
        "raw: #@ data.read(\"tap-logo.png\")\n",
    );
    let (code, out, err) = run_bytes(
        &[("config.yml", tpl.as_bytes()), ("tap-logo.png", BINARY)],
        &["-f", "."],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "logo: YWL//mNkw6k=\nlen: 8\nraw: !!binary YWL//mNkw6k=\n"
    );
}

/// `sha256.sum` and `md5.sum` hash a string's bytes (`[]byte(val)` in ytt's modules),
/// those of a binary file included.
#[test]
fn digests_of_a_binary_file_are_of_its_bytes() {
    let tpl = concat!(
        "#@ load(\"@ytt:data\", \"data\")\n",
        "#@ load(\"@ytt:sha256\", \"sha256\")\n",
        "#@ load(\"@ytt:md5\", \"md5\")\n",
        "sha: #@ sha256.sum(data.read(\"ks.jks\"))\n",
        "md5: #@ md5.sum(data.read(\"ks.jks\"))\n",
    );
    let (code, out, err) = run_bytes(
        &[("config.yml", tpl.as_bytes()), ("ks.jks", BINARY)],
        &["-f", "."],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "sha: 7d7e1145e7e4dbe12987b42d8a9eb4967a32167fb3217f44b2e9f1a4ce31676a\nmd5: bb2bf9917fb9165e791c5ff05ea8d1dc\n"
    );
}

/// `base64.decode` returns the decoded bytes as a string (`starlark.String(string(val))`):
/// bytes that are no UTF-8 are kept (printed `!!binary`), and encoding them again gives the
/// same text back.
#[test]
fn base64_decode_keeps_bytes_that_are_no_utf8() {
    let tpl = concat!(
        "#@ load(\"@ytt:base64\", \"base64\")\n",
        "a: #@ base64.decode(\"/w==\")\n",
        "b: #@ base64.encode(base64.decode(\"YWL//mNkw6k=\"))\n",
        "c: #@ len(base64.decode(\"YWL//mNkw6k=\"))\n",
    );
    assert_eq!(
        ytt::render(&[("config.yml", tpl)], &["-f", "."]).unwrap(),
        "a: !!binary /w==\nb: YWL//mNkw6k=\nc: 8\n"
    );
}

/// `--data-value-file KEY=PATH` sets the key to the file's contents as a string
/// (`string(contents)` in ytt's `DataValuesFlags`): a binary file's bytes are kept.
#[test]
fn a_data_value_file_keeps_the_bytes_of_a_binary_file() {
    let tpl = concat!(
        "#@ load(\"@ytt:data\", \"data\")\n",
        "#@ load(\"@ytt:base64\", \"base64\")\n",
        "logo: #@ base64.encode(data.values.logo)\n",
    );
    let (code, out, err) = run_bytes(
        &[("config.yml", tpl.as_bytes()), ("logo.png", BINARY)],
        &["-f", "config.yml", "--data-value-file", "logo=logo.png"],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "logo: YWL//mNkw6k=\n");
}

/// go-yaml's reader refuses control characters anywhere in a YAML file (a comment
/// included) before its scanner reads a token: `yaml_parser_update_buffer` sets the
/// problem `control characters are not allowed`, and a reader error carries no line
/// (`parser.fail` names a line only from the problem or context mark).
#[test]
fn a_control_character_in_a_yaml_file_is_the_readers_error() {
    let (code, out, err) = run_bytes(
        &[("t.yml", b"a: 1\n# colour \x1b[0m reset\nb: 2\n")],
        &["-f", "."],
    );
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "strake: error: Unmarshaling YAML template 't.yml': yaml: control characters are not allowed\n"
    );
}

/// A Latin-1 file (`é` as the single byte 0xE9) is no UTF-8: go-yaml's reader takes 0xE9
/// for the lead of a three-byte sequence and refuses the next byte (`invalid trailing
/// UTF-8 octet`); at the very end of the input the sequence is `incomplete`. A data
/// values file and a schema file are refused the same way, when ytt first reads the
/// templates.
#[test]
fn a_latin1_yaml_file_is_refused_by_the_reader() {
    let run = |name: &str, body: &[u8]| {
        let (code, _, err) = run_bytes(&[(name, body), ("t.yml", b"a: 1\n")], &["-f", "."]);
        assert_eq!(code, 1);
        err
    };
    assert_eq!(
        run("v.yml", b"greeting: caf\xe9 ole\n"),
        "strake: error: Unmarshaling YAML template 'v.yml': yaml: invalid trailing UTF-8 octet\n"
    );
    assert_eq!(
        run("v.yml", b"#@data/values\n---\ngreeting: caf\xe9\n"),
        "strake: error: Unmarshaling YAML template 'v.yml': yaml: incomplete UTF-8 octet sequence\n"
    );
    assert_eq!(
        run("s.yml", b"#@data/values-schema\n---\ngreeting: \xff\n"),
        "strake: error: Unmarshaling YAML template 's.yml': yaml: invalid leading UTF-8 octet\n"
    );
}

/// The same reader error for a `--data-values-file` and for `yaml.decode` of a string
/// holding a control character.
#[test]
fn the_readers_error_in_values_files_and_yaml_decode() {
    let (code, _, err) = run_bytes(
        &[("t.yml", b"a: 1\n"), ("dv.yml", b"a: \x01\n")],
        &["-f", "t.yml", "--data-values-file", "dv.yml"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "strake: error: Extracting data value from file:\n  Unmarshaling YAML data values file 'dv.yml': yaml: control characters are not allowed\n"
    );
    let tpl = "#@ load(\"@ytt:yaml\", \"yaml\")\na: #@ yaml.decode(\"x: \\x07\")\n";
    assert_eq!(
        ytt::failure_of(&[("t.yml", tpl)], &["-f", "."]),
        "strake: error: \n- yaml.decode: yaml: control characters are not allowed\n    in <toplevel>\n      t.yml:2 | a: #@ yaml.decode(\"x: \\x07\")\n"
    );
}

/// The reader decodes its input 512 bytes at a time, when the scanner first needs a
/// character of a chunk: a syntax error whose tokens all lie in an earlier chunk is met
/// first, while a control character in the first chunk is met before any token.
#[test]
fn the_reader_meets_a_later_chunk_after_an_earlier_syntax_error() {
    let pad = "x".repeat(600);
    let late = format!("a: 1\nb: c: d\n#{pad}\nz: \x07\n");
    let (_, _, err) = run_bytes(&[("t.yml", late.as_bytes())], &["-f", "."]);
    assert!(
        err.starts_with(
            "strake: error: Unmarshaling YAML template 't.yml': yaml: line 2: mapping values are not allowed in this context\n"
        ),
        "{err}"
    );
    let early = format!("z: \x07\nb: c: d\n#{pad}\n");
    let (_, _, err) = run_bytes(&[("t.yml", early.as_bytes())], &["-f", "."]);
    assert_eq!(
        err,
        "strake: error: Unmarshaling YAML template 't.yml': yaml: control characters are not allowed\n"
    );
}

/// A text template or a Starlark file that is no UTF-8 (a Latin-1 `é`) is read as bytes
/// by ytt, not refused: the text template writes the byte back as it is, and a Starlark
/// string literal keeps it (starlark-go's `unquote` copies the literal's raw bytes).
#[test]
fn latin1_text_templates_and_starlark_literals_keep_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, &[u8]); 3] = [
        ("notes.txt", b"Caf\xe9 (@= \"ok\" @)\n"),
        ("h.star", b"x = \"caf\xe9\"\n"),
        (
            "t.yml",
            b"#@ load(\"h.star\", \"x\")\nlen: #@ len(x)\nx: #@ x\n",
        ),
    ];
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    let (code, out, _) = ytt::run_in(dir.path(), &["-f", ".", "--output-files", "out"], "");
    assert_eq!(
        (code, out.as_str()),
        (0, "creating: out/notes.txt\ncreating: out/t.yml\n")
    );
    assert_eq!(
        std::fs::read(dir.path().join("out/notes.txt")).unwrap(),
        b"Caf\xe9 ok\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/t.yml")).unwrap(),
        "len: 4\nx: !!binary Y2Fm6Q==\n"
    );
}

/// `@ytt:url` decodes `%XX` into bytes (Go's `url.QueryUnescape`), so a Latin-1 escape
/// gives a byte that is no UTF-8, kept as such, and encoding it again escapes that byte.
#[test]
fn url_decoding_keeps_bytes_that_are_no_utf8() {
    let tpl = concat!(
        "#@ load(\"@ytt:url\", \"url\")\n",
        "a: #@ url.query_param_value_decode(\"caf%E9\")\n",
        "b: #@ url.path_segment_encode(url.query_param_value_decode(\"caf%E9\"))\n",
        "c: #@ url.query_param_value_decode(\"%C3%A9\")\n",
        "d: #@ url.query_params_decode(\"x=%FF\")\n",
    );
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        "a: !!binary Y2Fm6Q==\nb: caf%E9\nc: é\nd:\n  x:\n  - !!binary /w==\n"
    );
}

/// A struct is a mapping to Starlark (ytt's `StarlarkStruct` implements
/// `IterableMapping`), so `**data.values` passes the data values as keyword arguments,
/// as a workshop fix-up helper does with `str.format`; `**` of a list and `*` of an int
/// are refused in starlark-go's words.
#[test]
fn data_values_unpack_as_keyword_arguments() {
    let files = [
        (
            "values.yml",
            "#@data/values\n---\ndomain: example.com\nrepo: registry.io\n",
        ),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\ntitle: #@ \"Lab on {domain} from {repo}\".format(**data.values)\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "title: Lab on example.com from registry.io\n"
    );
    assert_eq!(
        ytt::failure_of(
            &[("t.yml", "#@ def f(**kw): return kw\nx: #@ f(**[1])\n")],
            &["-f", "."]
        ),
        "strake: error: \n- argument after ** must be a mapping, not list\n    in <toplevel>\n      t.yml:2 | x: #@ f(**[1])\n"
    );
    assert_eq!(
        ytt::failure_of(
            &[("t.yml", "#@ def f(*a): return a\nx: #@ f(*3)\n")],
            &["-f", "."]
        ),
        "strake: error: \n- argument after * must be iterable, not int\n    in <toplevel>\n      t.yml:2 | x: #@ f(*3)\n"
    );
}

/// Statements in a `.star` file may end in `;` and share a line (`a = 1; b = 2;`), and a
/// triple-quoted string may start with a backslash-newline, which joins the lines (the
/// list of required parameters a Data Flow installer splits).
#[test]
fn star_statements_with_semicolons_and_a_continued_triple_quoted_string() {
    let star = concat!(
        "def ok(v):\n",
        "  return type(v) == \"string\" and len(v) > 0;\n",
        "end\n",
        "a = 1; b = 2;\n",
        "names = '''\\\n",
        "one\n",
        "two'''.split(\"\\n\")\n",
    );
    let tpl = concat!(
        "#@ load(\"h.star\", \"ok\", \"a\", \"b\", \"names\")\n",
        "ok: #@ [ok(\"x\"), ok(\"\"), ok(3)]\n",
        "sum: #@ a + b\n",
        "names: #@ names\n",
    );
    assert_eq!(
        ytt::render(&[("h.star", star), ("t.yml", tpl)], &["-f", "."]).unwrap(),
        "ok:\n- true\n- false\n- false\nsum: 3\nnames:\n- one\n- two\n"
    );
}

/// `dict.setdefault(key)` without a default sets `None` when the key is missing and
/// leaves a present key alone; `dict.update` takes a list of pairs, whose values may be
/// YAML fragments (a workflow generator keys one job fragment per environment).
#[test]
fn setdefault_without_a_default_and_update_with_fragment_pairs() {
    let tpl = concat!(
        "#@ def job(env):\n",
        "runs-on: ubuntu-latest\n",
        "env: #@ env\n",
        "#@ end\n",
        "#@ d = {\"debug\": True}\n",
        "#@ d.setdefault(\"secrets\")\n",
        "#@ d.setdefault(\"debug\", False)\n",
        "#@ jobs = {}\n",
        "#@ for name in [\"staging\", \"production\"]:\n",
        "#@   jobs.update([(\"deploy-\" + name, job(name))])\n",
        "#@ end\n",
        "d: #@ d\n",
        "\"on\": [push]\n",
        "jobs: #@ jobs\n",
    );
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap(),
        concat!(
            "d:\n  debug: true\n  secrets: null\n",
            "\"on\":\n- push\n",
            "jobs:\n  deploy-staging:\n    runs-on: ubuntu-latest\n    env: staging\n",
            "  deploy-production:\n    runs-on: ubuntu-latest\n    env: production\n",
        )
    );
}

/// An `if` over the map items of a file's first document (which has no `---`) whose
/// `#@ end` sits just above the next `---`: the `end` belongs to that next document, so
/// the first document's own completion is inside the `if`, and a false condition leaves
/// the whole document out (no empty document is printed).
#[test]
fn an_if_over_the_first_implicit_document_leaves_it_out_when_false() {
    let files = [
        (
            "config.yaml",
            "#@ load(\"@ytt:data\",\"data\")\n#@ if data.values.ns != \"\":\nkind: Namespace\nname: #@ data.values.ns\n#@ end\n\n---\nkind: Service\nnamespace: #@ data.values.ns\n",
        ),
        ("schema.yml", "#@data/values-schema\n---\nns: \"\"\n"),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "kind: Service\nnamespace: \"\"\n"
    );
    assert_eq!(
        ytt::render(&files, &["-f", ".", "-v", "ns=demo"]).unwrap(),
        "kind: Namespace\nname: demo\n---\nkind: Service\nnamespace: demo\n"
    );
}

/// A misspelled schema annotation (`#@schmea/title`) is only an annotation ytt does not
/// know: schema processing reads the `schema/...` ones and leaves it alone, so the value
/// keeps its default and gets no title.
#[test]
fn a_misspelled_schema_annotation_is_ignored() {
    let files = [
        (
            "schema.yml",
            "#@data/values-schema\n---\n#@schmea/title \"Database Version\"\n#@schema/desc \"The version\"\nversion: POSTGRES_14\n",
        ),
        (
            "t.yml",
            "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values.version\n",
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "v: POSTGRES_14\n"
    );
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                ".",
                "--data-values-schema-inspect",
                "-o",
                "openapi-v3"
            ]
        )
        .unwrap(),
        concat!(
            "openapi: 3.0.0\ninfo:\n  version: 0.1.0\n  title: Schema for data values, generated by ytt\n",
            "paths: {}\ncomponents:\n  schemas:\n    dataValues:\n      type: object\n",
            "      additionalProperties: false\n      properties:\n        version:\n",
            "          type: string\n          description: The version\n          default: POSTGRES_14\n",
        )
    );
}

/// `@overlay/replace via=` appending indented lines to a block string: splitting the new
/// string at `\n` leaves a last empty line, indented to two spaces, so the result ends in
/// spaces; go-yaml can then print it neither plain nor as a block (a trailing space rules
/// both out), and it is double-quoted, on one line (ytt's emitter does not fold).
#[test]
fn a_replaced_block_string_ending_in_spaces_is_double_quoted() {
    let files = [
        (
            "tmpl.yml",
            "kind: ClusterConfigTemplate\nmetadata:\n  name: config-template\nspec:\n  ytt: |\n    config.yaml: |\n      name: x\n",
        ),
        (
            "overlay.yml",
            concat!(
                "#@ load(\"@ytt:overlay\", \"overlay\")\n",
                "#@overlay/match by=overlay.subset({\"kind\":\"ClusterConfigTemplate\"})\n",
                "---\nspec:\n",
                "  #@overlay/replace via=lambda left, right: \"{}\\n{}\".format(left, '\\n'.join(['  {}'.format(x) for x in right.split('\\n')]))\n",
                "  ytt: |\n    pdb.yaml: |\n      (@ if True: @)\n      kind: PodDisruptionBudget\n      (@ end @)\n",
            ),
        ),
    ];
    assert_eq!(
        ytt::render(&files, &["-f", "."]).unwrap(),
        "kind: ClusterConfigTemplate\nmetadata:\n  name: config-template\nspec:\n  ytt: \"config.yaml: |\\n  name: x\\n\\n  pdb.yaml: |\\n    (@ if True: @)\\n    kind: PodDisruptionBudget\\n    (@ end @)\\n  \"\n"
    );
}

/// Two `@overlay/match` annotations on one document (a kpack overlay narrowing by kind,
/// then by name): a node's annotations are a map by name (`NodeAnnotations`), so the
/// later one replaces the earlier and only the name is matched; one without `by` then
/// leaves the document with no matcher.
#[test]
fn the_later_of_two_overlay_match_annotations_is_the_one_applied() {
    let base = concat!(
        "kind: Deployment\nmetadata:\n  name: kpack-controller\nspec:\n  containers:\n  - name: controller\n",
        "---\nkind: Deployment\nmetadata:\n  name: kpack-webhook\nspec:\n  containers:\n  - name: webhook\n",
    );
    let overlay = concat!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n",
        "#@overlay/match by=overlay.subset({\"kind\":\"Deployment\"})\n",
        "#@overlay/match by=overlay.subset({\"metadata\":{\"name\":\"kpack-controller\"}})\n",
        "---\nspec:\n  containers:\n  #@overlay/match by=overlay.subset({\"name\": \"controller\"})\n",
        "  -\n    #@overlay/match missing_ok=True\n    env:\n    - name: SSL_CERT_DIR\n      value: /certs\n",
    );
    assert_eq!(
        ytt::render(
            &[("add_all.yml", overlay), ("release.yaml", base)],
            &["-f", "add_all.yml", "-f", "release.yaml"]
        )
        .unwrap(),
        concat!(
            "kind: Deployment\nmetadata:\n  name: kpack-controller\nspec:\n  containers:\n  - name: controller\n",
            "    env:\n    - name: SSL_CERT_DIR\n      value: /certs\n",
            "---\nkind: Deployment\nmetadata:\n  name: kpack-webhook\nspec:\n  containers:\n  - name: webhook\n",
        )
    );
    let no_by = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n#@overlay/match missing_ok=True\n---\nb: 2\n";
    assert_eq!(
        ytt::failure_of(&[("base.yml", "a: 1\n"), ("ov.yml", no_by)], &["-f", "."]),
        "strake: error: Overlaying (in following order: ov.yml):\n  Document on line ov.yml:4:\n    Expected 'overlay/match' annotation keyword argument 'by'  to be specified\n"
    );
}

/// A file marked `type=text-plain` is copied to the output directory as it is, bytes that
/// are no UTF-8 included.
#[test]
fn a_plain_text_file_is_written_out_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"Caf\xe9 (@= \"x\" @)\n").unwrap();
    std::fs::write(dir.path().join("t.yml"), b"a: 1\n").unwrap();
    let args = [
        "-f",
        ".",
        "--file-mark",
        "notes.txt:type=text-plain",
        "--output-files",
        "out",
    ];
    let (code, _, err) = ytt::run_in(dir.path(), &args, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(dir.path().join("out/notes.txt")).unwrap(),
        b"Caf\xe9 (@= \"x\" @)\n"
    );
}

/// `-f NAME=<(command)` (a process substitution, as kapp and ytt users chain tools):
/// on Linux `/dev/fd/N` is a link that resolves to `/proc/PID/fd/pipe:[INODE]`, which
/// Go's `EvalSymlinks` cannot `lstat`; ytt's symlink check lets exactly that failure pass
/// (`symlinkPipeErr`), since such a file is on no file system. Unnamed, the file is
/// called `N` and has no YAML extension, so it is not rendered.
#[test]
fn process_substitution_files_are_read_as_ytt_reads_pipes() {
    let strake = assert_cmd::cargo::cargo_bin("strake");
    let script = format!(
        "{} template -f t.yml=<(printf '#@ load(\"@ytt:data\", \"data\")\\na: #@ data.values.x\\n') --data-values-file <(printf 'x: 5\\n') && {} template -f <(printf 'b: 1\\n')",
        strake.display(),
        strake.display()
    );
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(script)
        .output()
        .unwrap();
    let (code, stdout, stderr) = ytt::outcome(out);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "a: 5\n");
}

/// A symlink whose destination does not exist is refused with the path Go's
/// `EvalSymlinks` walk could not `lstat` (a relative link is joined to its directory,
/// `..` kept when there is nothing to drop), and a link through a file with `not a
/// directory` (`syscall.ENOTDIR`).
#[test]
fn a_dangling_symlink_names_the_path_its_walk_could_not_find() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::os::unix::fs::symlink("../nowhere/x.yml", dir.path().join("d/l.yml")).unwrap();
    std::fs::write(dir.path().join("f.yml"), "a: 1\n").unwrap();
    std::os::unix::fs::symlink("f.yml/x", dir.path().join("g.yml")).unwrap();
    let (code, _, err) = ytt::run_in(dir.path(), &["-f", "d"], "");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "strake: error: Listing files 'd':\n  Checking symlink file 'd/l.yml':\n    Eval symlink: lstat d/../nowhere: no such file or directory\n"
    );
    let (code, _, err) = ytt::run_in(dir.path(), &["-f", "g.yml"], "");
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "strake: error: Checking symlink file 'g.yml':\n  Eval symlink: not a directory\n"
    );
}

/// An ingress package edits the YAML file held in a ConfigMap string with three overlays
/// in a row: `@overlay/replace via=` decodes the string (the right side, empty, is
/// ignored), `@overlay/match-child-defaults missing_ok=True` merges a map-typed data value
/// into the decoded map (new keys appended, nested maps merged, a `null` kept), and a
/// last `via=` encodes it again; the string's own comments are gone after decoding.
#[test]
fn an_embedded_yaml_string_is_decoded_merged_and_encoded_by_overlays() {
    let upstream = concat!(
        "kind: ConfigMap\nmetadata:\n  name: contour\ndata:\n  contour.yaml: |\n",
        "    #\n    # server: which XDS server to use\n",
        "    gateway:\n      controllerName: projectcontour.io/gateway-controller\n",
        "    disablePermitInsecure: false\n    tls:\n      fallback-certificate:\n",
    );
    let overlays = concat!(
        "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n\n",
        "#@overlay/match by=overlay.subset({\"kind\":\"ConfigMap\", \"metadata\":{\"name\":\"contour\"}})\n",
        "---\ndata:\n  #@overlay/replace via=lambda left, _: yaml.decode(left)\n  contour.yaml:\n\n",
        "#@overlay/match by=overlay.subset({\"kind\":\"ConfigMap\", \"metadata\":{\"name\":\"contour\"}})\n",
        "---\ndata:\n  #@overlay/match-child-defaults missing_ok=True\n  contour.yaml: #@ data.values.contour.configFileContents\n\n",
        "#@overlay/match by=overlay.subset({\"kind\":\"ConfigMap\", \"metadata\":{\"name\":\"contour\"}})\n",
        "---\ndata:\n  #@overlay/replace via=lambda left, _: yaml.encode(left)\n  contour.yaml:\n",
    );
    let schema =
        "#@data/values-schema\n---\ncontour:\n  #@schema/type any=True\n  configFileContents: {}\n";
    let values = "contour:\n  configFileContents:\n    disablePermitInsecure: true\n    tls:\n      minimum-protocol-version: \"1.3\"\n    accesslog-format: json\n";
    let files = [
        ("config/upstream.yaml", upstream),
        ("config/overlays.yml", overlays),
        ("config/schema.yml", schema),
        ("values.yml", values),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &["-f", "config", "--data-values-file", "values.yml"]
        )
        .unwrap(),
        concat!(
            "kind: ConfigMap\nmetadata:\n  name: contour\ndata:\n  contour.yaml: |\n",
            "    gateway:\n      controllerName: projectcontour.io/gateway-controller\n",
            "    disablePermitInsecure: true\n    tls:\n      fallback-certificate: null\n",
            "      minimum-protocol-version: \"1.3\"\n    accesslog-format: json\n",
        )
    );
}
