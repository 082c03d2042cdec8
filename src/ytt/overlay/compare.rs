//! The comparison behind `@overlay/assert` without `via`: the right node must be
//! contained in the left one — each right map key present on the left with a
//! contained value, each right array item contained in the left item at its index,
//! scalars equal (an integer never equals a float).

use super::go_type::of_node;
use crate::yaml::Value;
use crate::ytt::node::{Meta, Node};

/// A node and whether its holder got it from Starlark (`Meta::computed`): ytt's Go
/// value of an integer is then an `int64`, where go-yaml gives an `int`.
#[derive(Clone, Copy)]
pub struct Side<'n> {
    pub node: &'n Node,
    pub computed: bool,
}

impl<'n> Side<'n> {
    /// The value of a map or array item, computed as its meta says.
    fn item(node: &'n Node, meta: &Meta) -> Side<'n> {
        Side {
            node,
            computed: meta.computed,
        }
    }

    /// The Go type ytt's comparison names (`%T`).
    fn go_type(&self) -> &'static str {
        match self.node {
            Node::Scalar(Value::Int(i)) if self.computed && *i <= i64::MAX as i128 => "int64",
            n => of_node(n),
        }
    }
}

/// `Ok(())` when `right` is contained in `left`, else why not (in ytt's words).
pub fn contains(left: Side<'_>, right: Side<'_>) -> Result<(), String> {
    match (left.node, right.node) {
        (Node::Shared(l), _) => contains(
            Side {
                node: &l.0.borrow(),
                computed: left.computed,
            },
            right,
        ),
        (_, Node::Shared(r)) => contains(
            left,
            Side {
                node: &r.0.borrow(),
                computed: right.computed,
            },
        ),
        (Node::Map(l), Node::Map(r)) => {
            for ri in r {
                let mut found = false;
                for li in l.iter().filter(|li| li.key == ri.key) {
                    contains(
                        Side::item(&li.value, &li.meta),
                        Side::item(&ri.value, &ri.meta),
                    )?;
                    found = true;
                }
                if !found {
                    return Err("Expected at least one map item to match by key".into());
                }
            }
            Ok(())
        }
        (_, Node::Map(_)) => Err(format!("Expected map, but was {}", left.go_type())),
        (Node::Array(l), Node::Array(r)) => {
            for (i, ri) in r.iter().enumerate() {
                let Some(li) = l.get(i) else {
                    return Err("Expected to have matching number of array items".into());
                };
                contains(
                    Side::item(&li.value, &li.meta),
                    Side::item(&ri.value, &ri.meta),
                )?;
            }
            Ok(())
        }
        (_, Node::Array(_)) => Err(format!("Expected array, but was {}", left.go_type())),
        (Node::Scalar(l), Node::Scalar(r)) if l == r => Ok(()),
        _ => Err(format!(
            "Expected leaf values to match {} {}",
            left.go_type(),
            right.go_type()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        fn side(node: &Node) -> Side<'_> {
            Side {
                node,
                computed: false,
            }
        }
        let left = map(&[("app", s("web")), ("tier", s("front"))]);
        assert!(contains(side(&left), side(&map(&[("app", s("web"))]))).is_ok());
        assert!(
            contains(side(&left), side(&map(&[("extra", s("1"))])))
                .unwrap_err()
                .contains("at least one map item to match by key")
        );
        assert!(contains(side(&left), side(&map(&[("app", s("api"))]))).is_err());
    }
}
