//! Key paths of the data values flags (`-v a.b=1`, `PREFIX_a__b=1`) and the setting of
//! a value at such a path, creating the maps above it as ytt's flag overlay does.

use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::go_type;
use crate::ytt::node::{MapItem, Meta, Node, Pos};

/// The key path of a `--data-value*` flag's key: its parts between dots.
pub(super) fn dotted_key_path(key: &str) -> Vec<String> {
    key.split('.').map(str::to_string).collect()
}

/// Sets the value at key path `key` (`[a, b, c]` for `a.b.c`) to `leaf`, creating maps
/// along the way (the leaf replaces).
#[cfg(test)]
pub(super) fn set_path(
    values: &mut Option<Node>,
    key: &[String],
    leaf: &Node,
) -> Result<(), Error> {
    set_path_at(values, key, leaf, &Pos::default())
}

/// [`set_path`] for a value given at `at`: the map items it creates are placed there,
/// and so is the item whose value the leaf replaces, as ytt's overlay of a flag's value
/// (a replace of the last key) does, so a failed validation names the flag.
///
/// Every key above the last is merged (`missing_ok=True`), not replaced: a null value
/// there gives way to a new map, but any other value that is no map fails as
/// `Op.apply` fails on it (`Expected map, but was string`), under the map items
/// and the document of the flag's overlay.
pub(super) fn set_path_at(
    values: &mut Option<Node>,
    key: &[String],
    leaf: &Node,
    at: &Pos,
) -> Result<(), Error> {
    check_path(values.as_ref(), key, at)?;
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
    Ok(())
}

/// Fails when a key above the last of `key` holds a value that is neither a map nor
/// null, with the contexts ytt's overlay puts around the failure, innermost first.
fn check_path(values: Option<&Node>, key: &[String], at: &Pos) -> Result<(), Error> {
    let Some(mut cur) = values else {
        return Ok(());
    };
    let mut depth = 0;
    let mut failure = None;
    for part in &key[..key.len().saturating_sub(1)] {
        let Node::Map(items) = cur else {
            break;
        };
        let k = Value::String(part.clone());
        let Some(item) = items.iter().find(|i| i.key == k) else {
            break;
        };
        depth += 1;
        match &item.value {
            Node::Map(_) => cur = &item.value,
            // (A value several places share is left to the setting below.)
            Node::Scalar(Value::Null) | Node::Shared(_) => break,
            other => {
                failure = Some(format!(
                    "Expected map, but was {}",
                    go_type::friendly_name(other)
                ));
                break;
            }
        }
    }
    let Some(msg) = failure else {
        return Ok(());
    };
    let mut e = Error::msg(msg);
    for part in key[..depth].iter().rev() {
        e = e.context(&format!("Map item (key '{part}') on line {at}"));
    }
    Err(e.context(&format!("Document on line {at}")))
}
