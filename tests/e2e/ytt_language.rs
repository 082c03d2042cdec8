//! Language features of ytt templates rendered end to end, each checked against the
//! output ytt 0.48 gives: Starlark expression grammar (`not` inside `and`/`or`), structs
//! used as maps (data values and `@ytt:struct` values, in YAML and text templates), the
//! encoders on None and empty values, and the `@ytt:*` module functions.

use strake::ytt::{Options, Output, run};

/// Renders `files` (name, body) with `args` in a fresh directory.
fn render_output(files: &[(&str, &str)], args: &[&str]) -> Result<Output, String> {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    let opts = Options::from_args(args).unwrap();
    run(&opts, dir.path(), &mut || Ok(Vec::new())).map_err(|e| e.to_string())
}

fn render_with(files: &[(&str, &str)], args: &[&str]) -> Result<String, String> {
    render_output(files, args).map(|o| String::from_utf8(o.stdout).unwrap())
}

/// The rendered text of output file `name` under `--output-files out`.
fn render_file(files: &[(&str, &str)], name: &str) -> String {
    let out = render_output(files, &["-f", ".", "--output-files", "out"])
        .unwrap_or_else(|e| panic!("render failed: {e}"));
    let (_, body) = out
        .files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no output file {name} in {:?}", out.files));
    String::from_utf8(body.clone()).unwrap()
}

fn render(files: &[(&str, &str)]) -> String {
    render_with(files, &["-f", "."]).unwrap_or_else(|e| panic!("render failed: {e}"))
}

fn render_err(files: &[(&str, &str)]) -> String {
    render_with(files, &["-f", "."]).expect_err("rendering must fail")
}

#[test]
fn not_is_accepted_as_an_operand_of_and_and_or() {
    let out = render(&[(
        "config.yml",
        "#@ a = True\n#@ b = False\nx: #@ a and not b\nv: #@ b or not a\nz: #@ not a == b and not b in [True]\n#@ if a and not b:\nw: 1\n#@ end\n",
    )]);
    assert_eq!(out, "x: true\nv: false\nz: true\nw: 1\n");
}

#[test]
fn data_values_and_structs_are_used_like_maps() {
    let values = "#@data/values\n---\napps:\n  web: {port: 80}\n  api: {port: 8080}\nregion: eu\n";
    let config = r#"#@ load("@ytt:data", "data")
#@ load("@ytt:struct", "struct")
#@ s = struct.make(one=1, two=2)
names: #@ [k for k in data.values.apps]
ports: #@ [data.values.apps[k]["port"] for k in data.values.apps]
count: #@ len(data.values.apps)
has_web: #@ "web" in data.values.apps
has_db: #@ "db" in data.values.apps
made: #@ {k: s[k] for k in s}
#@ for name in data.values.apps:
#@yaml/text-templated-strings
(@= name @): #@ data.values.apps[name].port
#@ end
"#;
    let text = "(@ load(\"@ytt:data\", \"data\") @)(@ for k in data.values.apps: @)(@= k @)=(@= str(data.values.apps[k].port) @);(@ end @) n=(@= str(len(data.values)) @)\n";
    let out = render(&[
        ("values.yml", values),
        ("config.yml", config),
        ("list.txt", text),
    ]);
    assert_eq!(
        out,
        "names:\n- web\n- api\nports:\n- 80\n- 8080\ncount: 2\nhas_web: true\nhas_db: false\nmade:\n  one: 1\n  two: 2\nweb: 80\napi: 8080\n"
    );
    let out = render_file(&[("values.yml", values), ("list.txt", text)], "list.txt");
    assert_eq!(out, "web=80;api=8080; n=2\n");
    let err = render_err(&[
        ("values.yml", values),
        (
            "config.yml",
            "#@ load(\"@ytt:data\", \"data\")\nx: #@ data.values.apps[\"dbb\"]\n",
        ),
    ]);
    assert!(err.contains("key \"dbb\" not in struct"), "{err}");
    assert!(err.contains("config.yml:2"), "{err}");
}
