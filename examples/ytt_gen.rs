//! Prints the Starlark program generated for a YAML template (debugging aid).
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let src = std::fs::read_to_string(&path).unwrap();
    let ds = strake::yaml::parse_document_set(&src, &path).unwrap();
    let c = strake::ytt::compile::yaml::compile(&ds, Default::default()).unwrap();
    for (i, l) in c.prog.lines.iter().enumerate() {
        println!("{:3} [{:3}] {}", i + 1, l.src_line, l.text);
    }
}
