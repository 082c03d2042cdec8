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
