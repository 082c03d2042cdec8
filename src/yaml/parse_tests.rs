//! Unit tests for the parser: node tree shape, positions and comment attachment.

use super::*;

#[test]
fn simple_map() {
    let ds = parse_document_set("a: 1\n", "f.yml").unwrap();
    assert_eq!(ds.docs.len(), 1);
}
