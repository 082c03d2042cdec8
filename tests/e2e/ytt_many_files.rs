//! A directory of many templates (about 50 KiB) renders as its files do one by one,
//! and when several files are broken the first one in file order is reported.

use strake::cli::template::parse_options;
use strake::ytt::run;

/// A templated file of about `lines` lines: a document with a loop, a helper call and
/// a data value.
fn template(index: usize, lines: usize) -> String {
    let mut s = String::from("#@ load(\"@ytt:data\", \"data\")\n---\n");
    s.push_str(&format!(
        "kind: ConfigMap\nmetadata:\n  name: #@ data.values.prefix + \"-{index}\"\ndata:\n"
    ));
    for i in 0..lines {
        s.push_str(&format!(
            "  key{i}: \"value {i} of file {index} with some padding text\"\n"
        ));
    }
    s.push_str("items:\n#@ for i in range(3):\n- #@ i * 2\n#@ end\n");
    s
}

fn write(dir: &std::path::Path, files: &[(String, String)]) {
    for (name, body) in files {
        std::fs::write(dir.join(name), body).unwrap();
    }
}

fn render_dir(dir: &std::path::Path) -> Result<String, String> {
    let opts = parse_options(&["-f", "."]).unwrap();
    run(&opts, dir, &mut || Ok(Vec::new()))
        .map(|o| String::from_utf8(o.stdout).unwrap())
        .map_err(|e| e.to_string())
}

fn big_set() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = (0..12)
        .map(|i| (format!("f{i:02}.yml"), template(i, 90)))
        .collect();
    files.push((
        "values.yml".into(),
        "#@data/values\n---\nprefix: cm\n".into(),
    ));
    files
}

#[test]
fn output_is_the_same_as_file_by_file() {
    let files = big_set();
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    assert!(total > 48 * 1024, "the set is meant to be large: {total}");

    let all = tempfile::tempdir().unwrap();
    write(all.path(), &files);
    let together = render_dir(all.path()).unwrap();

    // Each file rendered alone, with the values file.
    let mut renders = Vec::new();
    for (name, body) in files.iter().filter(|(n, _)| n != "values.yml") {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            &[(name.clone(), body.clone()), files.last().unwrap().clone()],
        );
        renders.push(render_dir(dir.path()).unwrap());
    }
    let one_by_one = renders.join("---\n");
    assert!(
        together == one_by_one,
        "outputs differ ({} vs {} bytes)",
        together.len(),
        one_by_one.len()
    );
    assert_eq!(together.matches("kind: ConfigMap").count(), 12);
    assert!(together.contains("name: cm-11\n"));
}

#[test]
fn first_broken_file_in_order_is_reported() {
    let mut files = big_set();
    files[3].1.push_str("broken: [\n");
    files[9].1.push_str("also: {\n");
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &files);
    for _ in 0..5 {
        let err = render_dir(dir.path()).unwrap_err();
        assert!(err.contains("f03.yml"), "expected f03.yml first:\n{err}");
        assert!(
            !err.contains("f09.yml"),
            "f09.yml is later in order:\n{err}"
        );
    }
}
