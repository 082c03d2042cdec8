//! Constructs met while rendering another round of public ytt directories (a Starlark
//! collection library driven through `@overlay/replace via=`, a Cartographer supply chain
//! that templates ytt source into a literal block, Harbor Helm values and their Contour
//! overlay, a Cloud Foundry on Kubernetes composition of private libraries, JSON/YAML
//! conversion wrappers, containerd-style TOML read with `toml.decode`), each reduced to a
//! small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// `toml.decode` hands the text to the TOML 1.0 decoder ytt links (BurntSushi/toml
/// v1.2.1, called from `tmùModule.Decode`): integers may be written in hexadecimal,
/// octal or binary and with `_` between digits, and `inf`/`nan` are floats. The decoded
/// int64s and float64s print as YAML integers and go-yaml's `.inf`/`-.inf`.
#[test]
fn toml_decode_reads_every_integer_form_and_infinite_floats() {
    let tpl = "#@ load(\"@ytt:toml\", \"toml\")\nv: #@ toml.decode(\"hex = 0x1F\\noct = 0o17\\nbin = 0b101\\nsep = 1_000\\nexp = 2e3\\nup = inf\\ndown = -inf\\n\")\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap(),
        "v:\n  bin: 5\n  down: -.inf\n  exp: 2000\n  hex: 31\n  oct: 15\n  sep: 1000\n  up: .inf\n"
    );
}

/// TOML's multi-line strings: in a `\"\"\"` basic string the newline right after the
/// opening delimiter is dropped, a line-ending backslash removes the line break and the
/// indentation after it, and `\\uXXXX`/`\\UXXXXXXXX` give the code point; a `'''` literal
/// string keeps backslashes as they are. The emoji comes out escaped because go-yaml's
/// `is_printable` does not take four-byte UTF-8 sequences.
#[test]
fn toml_decode_reads_multi_line_strings_and_unicode_escapes() {
    let tpl = "#@ load(\"@ytt:toml\", \"toml\")\nv: #@ toml.decode(\"basic = \\\"\\\"\\\"\\nfirst \\\\\\n    second \\\\u00e9\\\\U0001F600\\\"\\\"\\\"\\nlit = '''\\nC:\\\\dir\\\\n'''\\n\")\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap(),
        "v:\n  basic: \"first second é\\U0001F600\"\n  lit: C:\\dir\\n\n"
    );
}

/// `[[name]]` opens a new table in the array of tables `name`; a later `[name.sub]`
/// header and plain keys go into the last table of that array (TOML 1.0, as the decoder
/// ytt links reads it). The decoded array of maps prints as a YAML sequence.
#[test]
fn toml_decode_reads_arrays_of_tables() {
    let tpl = "#@ load(\"@ytt:toml\", \"toml\")\nv: #@ toml.decode(\"[[mirror]]\\nhost = 'a'\\n[[mirror]]\\nhost = 'b'\\n[mirror.tls]\\nskip = true\\n\")\n";
    assert_eq!(
        ytt::render(&[("t.yml", tpl)], &["-f", "t.yml"]).unwrap(),
        "v:\n  mirror:\n  - host: a\n  - host: b\n    tls:\n      skip: true\n"
    );
}

/// A library template that places one fragment at several keys gives, through
/// `library.get(..).eval()`, documents whose keys hold trees of their own (the published
/// rendering of the directory this comes from shows it), so an overlay of the caller
/// that adds a label under `metadata.labels` leaves the selector holding the same
/// fragment alone. The overlay is built by a library function whose document matches with
/// `when="1+"`, and put into the output by `template.replace`.
#[test]
fn overlay_edits_one_copy_of_a_fragment_a_library_placed_at_several_keys() {
    let app = "#@ def _labels():\napp: web\n#@ end\n#@ labels = _labels()\n---\nmetadata:\n  labels: #@ labels\nspec:\n  selector: #@ labels\n";
    let lib = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def add_part_of(v):\n#@overlay/match by=overlay.all, when=\"1+\"\n---\n#@overlay/match missing_ok=True\n#@overlay/match-child-defaults missing_ok=True\nmetadata:\n  labels:\n    part-of: #@ v\n#@ end\n";
    let root = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\").eval())\n";
    let overlay = "#@ load(\"@ytt:template\", \"template\")\n#@ load(\"@helpers:meta.lib.yml\", \"add_part_of\")\n--- #@ template.replace(add_part_of(\"shop\"))\n";
    assert_eq!(
        ytt::render(
            &[
                ("_ytt_lib/app/t.yml", app),
                ("_ytt_lib/helpers/meta.lib.yml", lib),
                ("root.yml", root),
                ("z.yml", overlay),
            ],
            &["-f", "."]
        )
        .unwrap(),
        "metadata:\n  labels:\n    app: web\n    part-of: shop\nspec:\n  selector:\n    app: web\n"
    );
}
