//! Key paths of the data values flags (`-v a.b=1`, `PREFIX_a__b=1`) and the setting of
//! a value at such a path, creating the maps above it as ytt's flag overlay does.

use crate::yaml::Value;
use crate::ytt::node::{MapItem, Meta, Node, Pos};

/// The key path of a `--data-value*` flag's key: its parts between dots.
pub(super) fn dotted_key_path(key: &str) -> Vec<String> {
    key.split('.').map(str::to_string).collect()
}

/// Sets the value at key path `key` (`[a, b, c]` for `a.b.c`) to `leaf`, creating maps
/// along the way (the leaf replaces).
pub(super) fn set_path(values: &mut Option<Node>, key: &[String], leaf: &Node) {
    set_path_at(values, key, leaf, &Pos::default());
}

/// [`set_path`] for a value given at `at`: the map items it creates are placed there,
/// and so is the item whose value the leaf replaces, as ytt's overlay of a flag's value
/// (a replace of the last key) does, so a failed validation names the flag.
pub(super) fn set_path_at(values: &mut Option<Node>, key: &[String], leaf: &Node, at: &Pos) {
    let root = values.get_or_insert_with(|| Node::Map(Vec::new()));
    let mut cur = root;
    let parts = key.len();
    for (i, part) in key.iter().enumerate() {
        if !matches!(cur, Node::Map(_)) {
            *cur = Node::Map(Vec::new());
        }
        let Node::Map(items) = cur else {
            unreachable!()
        };
        let k = Value::String(part.clone());
        let idx = match items.iter().position(|i| i.key == k) {
            Some(i) => i,
            None => {
                items.push(MapItem {
                    key: k,
                    value: Node::null(),
                    meta: Meta::at(at.clone()),
                });
                items.len() - 1
            }
        };
        if i + 1 == parts && !at.file.is_empty() {
            items[idx].meta.pos = at.clone();
        }
        cur = &mut items[idx].value;
    }
    *cur = leaf.clone();
}
