//! Constructs seen in further real public deploy directories, each reduced to a small
//! case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// A function of `sub/helpers.lib.yml` calls `library.get` and `data.read`; the root
/// template calls it. ytt binds `@ytt:library` and `@ytt:data` to the file that loads
/// them, so the library and the file are found beside `sub/helpers.lib.yml`.
#[test]
fn library_get_in_a_function_of_a_subdirectory_file_finds_the_library_beside_that_file() {
    let files = [
        (
            "main.yml",
            "#@ load(\"@ytt:template\", \"template\")\n#@ load(\"sub/helpers.lib.yml\", \"render\", \"note\")\n--- #@ template.replace(render())\n---\nnote: #@ note()\n",
        ),
        (
            "sub/helpers.lib.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:data\", \"data\")\n#@ def render(): return library.get(\"app\").with_data_values({\"name\": \"x\"}).eval()\n#@ def note(): return data.read(\"note.data\")\n",
        ),
        ("sub/note.data", "beside"),
        (
            "sub/_ytt_lib/app/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nname: #@ data.values.name\n",
        ),
        (
            "sub/_ytt_lib/app/values.yml",
            "#@data/values\n---\nname: default\n",
        ),
    ];
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    assert_eq!(out, "name: x\n---\nnote: beside\n");
}

/// A def with a YAML body that builds no node (its only node sits under a false `if`)
/// returns an empty yamlfragment, not None: false, of length 0, null as a value.
#[test]
fn a_def_that_builds_no_node_returns_an_empty_yamlfragment() {
    let tpl = "\
#@ def optional():
#@ if False:
a: 1
#@ end
#@ end
t: #@ type(optional())
l: #@ len(optional())
b: #@ bool(optional())
v: #@ optional()
";
    let out = ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap();
    assert_eq!(out, "t: yamlfragment\nl: 0\nb: false\nv: null\n");
}

/// `overlay.apply(left, x)` where `x` is an empty fragment, None or another scalar leaves
/// `left` as it was (ytt only overlays maps, arrays and documents), so the result can
/// still be indexed.
#[test]
fn overlay_apply_with_an_empty_fragment_or_a_scalar_leaves_the_left_side() {
    let tpl = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@ def base():
config:
  a: 1
#@ end
#@ def extra():
#@ if False:
config:
  b: 2
#@ end
#@ end
r: #@ overlay.apply(base(), extra(), None, 3)[\"config\"]
";
    let out = ytt::render(&[("t.yml", tpl)], &["-f", "."]).unwrap();
    assert_eq!(out, "r:\n  a: 1\n");
}

/// ytt's words when `library.get` finds no library: no `_ytt_lib` beside the calling
/// file, or no library of that name in it (led by the function's name, as
/// `core.ErrWrapper` leads every refusal of `library.get`).
#[test]
fn library_get_of_a_missing_library_fails_in_ytt_words() {
    let get = "#@ load(\"@ytt:library\", \"library\")\nv: #@ library.get(\"app\").eval()\n";
    let err = ytt::render(&[("config.yml", get)], &["-f", "."]).unwrap_err();
    assert!(
        err.contains(
            "- library.get: Could not find private library (directory '_ytt_lib' missing?)\n"
        ),
        "{err}"
    );
    let files = [("config.yml", get), ("_ytt_lib/other/a.yml", "a: 1\n")];
    let err = ytt::render(&files, &["-f", "."]).unwrap_err();
    assert!(
        err.contains("- library.get: Expected to find library 'app', but did not find ''\n"),
        "{err}"
    );
}

/// `data.read` from a file in a subdirectory: a relative path is read from that file's
/// directory, `/` starts at the root, and a relative path is not looked up at the root
/// as well (`..` climbs nowhere: `ytt_real_world_h`).
#[test]
fn data_read_from_a_subdirectory_file_resolves_paths_from_that_directory_only() {
    let tpl = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.read(\"a.txt\")\nc: #@ data.read(\"/b.txt\")\n";
    let files = [
        ("sub/t.yml", tpl),
        ("sub/a.txt", "beside"),
        ("b.txt", "root"),
    ];
    let out = ytt::render(&files, &["-f", "."]).unwrap();
    assert_eq!(out, "a: beside\nc: root\n");
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nb: #@ data.read(\"b.txt\")\n";
    let err = ytt::render(&[("sub/t.yml", tpl), ("b.txt", "root")], &["-f", "."]).unwrap_err();
    assert!(
        err.contains(
            "Expected to find file 'b.txt' (hint: only files included via -f flag are available)"
        ),
        "{err}"
    );
}
