//! Prints the parsed node tree of a YAML file with positions and comments (debugging aid).
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let src = std::fs::read_to_string(&path).unwrap();
    let ds = strake::yaml::parse_document_set(&src, &path).unwrap();
    println!("{:#?}", ds.docs);
}
