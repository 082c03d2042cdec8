//! The plain merge of data values that carry no overlay annotations (a
//! `--data-values-file`, `with_data_values(..., plain=True)`), as ytt's
//! `overlay.AnnotateForPlainMerge` makes them merge.

use super::takes_position;
use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::node::{MapItem, Node, Pos};

/// Plain merge (`overlay.AnnotateForPlainMerge`): map items merge by key with
/// `missing_ok=True` (new keys appended), arrays and scalars replace whatever they meet.
/// A map merged onto a value that is neither a map nor null fails as `Op.apply` does
/// ("Expected map, but was string"), under its map items and the document at `doc_at`.
pub(super) fn plain_merge_into(
    values: &mut Option<Node>,
    right: &Node,
    doc_at: &Pos,
) -> Result<(), Error> {
    match values {
        None => *values = Some(right.clone()),
        Some(left) => plain_merge(left, right)
            .map_err(|e| e.context(&format!("Document on line {doc_at}")))?,
    }
    Ok(())
}

fn plain_merge(left: &mut Node, right: &Node) -> Result<(), Error> {
    match (left, right) {
        (Node::Map(l), Node::Map(r)) => {
            for ri in r {
                let in_item = |e: Error| {
                    e.context(&format!(
                        "Map item (key '{}') on line {}",
                        crate::ytt::overlay::key_str(&ri.key),
                        ri.meta.pos
                    ))
                };
                match l.iter_mut().find(|li| li.key == ri.key) {
                    Some(li) => {
                        if let (Node::Map(_), other @ (Node::Array(_) | Node::Scalar(_))) =
                            (&ri.value, &li.value)
                            && !matches!(other, Node::Scalar(Value::Null))
                        {
                            return Err(in_item(Error::msg(format!(
                                "Expected map, but was {}",
                                crate::ytt::go_type::friendly_name(other)
                            ))));
                        }
                        if takes_position(&li.value, &ri.value) && !ri.meta.pos.file.is_empty() {
                            li.meta.pos = ri.meta.pos.clone();
                        }
                        plain_merge(&mut li.value, &ri.value).map_err(in_item)?;
                    }
                    None => l.push(MapItem {
                        key: ri.key.clone(),
                        value: ri.value.clone(),
                        meta: ri.meta.clone(),
                    }),
                }
            }
        }
        (l, r) => *l = r.clone(),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ytt::datavalues::test_values::{map, node};

    #[test]
    fn plain_merge_merges_maps_and_replaces_arrays() {
        let mut values = Some(node(map(vec![
            ("list", Value::Array(vec![Value::Int(1), Value::Int(2)])),
            ("m", map(vec![("k", Value::Int(1))])),
        ])));
        plain_merge_into(
            &mut values,
            &node(map(vec![
                ("list", Value::Array(vec![Value::Int(9)])),
                ("m", map(vec![("j", Value::Int(2))])),
            ])),
            &Pos::default(),
        )
        .unwrap();
        assert_eq!(
            values.unwrap().to_value(),
            map(vec![
                ("list", Value::Array(vec![Value::Int(9)])),
                ("m", map(vec![("k", Value::Int(1)), ("j", Value::Int(2))])),
            ])
        );
    }
}
