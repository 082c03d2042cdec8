//! The comparison behind `@overlay/assert` without `via`: the right node must be
//! contained in the left one — each right map key present on the left with a
//! contained value, each right array item contained in the left item at its index,
//! scalars equal (an integer never equals a float).

use super::go_type::of_node;
use crate::ytt::node::Node;

/// `Ok(())` when `right` is contained in `left`, else why not (in ytt's words).
pub fn contains(left: &Node, right: &Node) -> Result<(), String> {
    match (left, right) {
        (Node::Shared(l), r) => contains(&l.0.borrow(), r),
        (l, Node::Shared(r)) => contains(l, &r.0.borrow()),
        (Node::Map(l), Node::Map(r)) => {
            for ri in r {
                let mut found = false;
                for li in l.iter().filter(|li| li.key == ri.key) {
                    contains(&li.value, &ri.value)?;
                    found = true;
                }
                if !found {
                    return Err("Expected at least one map item to match by key".into());
                }
            }
            Ok(())
        }
        (_, Node::Map(_)) => Err(format!("Expected map, but was {}", of_node(left))),
        (Node::Array(l), Node::Array(r)) => {
            for (i, ri) in r.iter().enumerate() {
                let Some(li) = l.get(i) else {
                    return Err("Expected to have matching number of array items".into());
                };
                contains(&li.value, &ri.value)?;
            }
            Ok(())
        }
        (_, Node::Array(_)) => Err(format!("Expected array, but was {}", of_node(left))),
        (Node::Scalar(l), Node::Scalar(r)) if l == r => Ok(()),
        _ => Err(format!(
            "Expected leaf values to match {} {}",
            of_node(left),
            of_node(right)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::Value;
    use crate::ytt::node::{MapItem, Meta};

    fn map(items: &[(&str, Node)]) -> Node {
        Node::Map(
            items
                .iter()
                .map(|(k, v)| MapItem {
                    key: Value::str(*k),
                    value: v.clone(),
                    meta: Meta::default(),
                })
                .collect(),
        )
    }

    #[test]
    fn right_keys_must_be_on_the_left_with_equal_values() {
        let s = |v: &str| Node::Scalar(Value::str(v));
        let left = map(&[("app", s("web")), ("tier", s("front"))]);
        assert!(contains(&left, &map(&[("app", s("web"))])).is_ok());
        assert!(
            contains(&left, &map(&[("extra", s("1"))]))
                .unwrap_err()
                .contains("at least one map item to match by key")
        );
        assert!(contains(&left, &map(&[("app", s("api"))])).is_err());
    }
}
