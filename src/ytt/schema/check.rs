//! Type checking data values against a schema type, and filling in defaults.
//!
//! [`check_node`] reports every value whose type is not what the schema expects and
//! every map key the schema does not declare. It checks what is present only, so it
//! also suits partial documents (overlays, `--data-value` flags). [`fill_defaults`] adds
//! missing map keys (with their defaults, appended after the given keys, as ytt does),
//! recursing into arrays so that new array items get their item defaults.

use crate::yaml::Value;
use crate::ytt::node::{MapItem, Meta, Node, Pos};

use super::error::{Failure, compact};
use super::types::{Kind, Type};

/// A value that does not fit the schema.
#[derive(Debug, Clone)]
pub struct Violation {
    /// Where the offending value is.
    pub pos: Pos,
    /// The found type (`string`, ...) or, for undeclared keys, the key.
    pub found: String,
    /// The expected type name.
    pub expected_name: String,
    /// Where the schema set the expectation.
    pub expected_pos: String,
    /// Undeclared map key (rather than a type mismatch).
    pub undeclared: Option<Vec<String>>,
    /// A map or array found where the schema wants another kind of value: ytt finds
    /// these while it assigns types (`AssignTypeTo`), before it checks any scalar.
    pub structural: bool,
    /// For a value made in memory (no file), the line ytt shows for it: `key: value`
    /// (`- value` for an array item), the value as Go's `%#v` prints it.
    pub memory: Option<String>,
}

impl Violation {
    /// The report hunk of this violation.
    pub fn failure(&self) -> Failure {
        match &self.undeclared {
            Some(keys) => {
                let mut keys = keys.clone();
                keys.sort();
                let from = &self.expected_pos;
                Failure {
                    description: Some("Given data value is not declared in schema".into()),
                    pos: self.pos.clone(),
                    ann_pos: Vec::new(),
                    plain: None,
                    memory: self.memory.clone(),
                    found: self.found.clone(),
                    expected: match keys.len() {
                        1 => format!(
                            "a map item with the key named \"{}\" (from {from})",
                            keys[0]
                        ),
                        // Miller's law, as ytt says.
                        2..=9 => format!("one of {{ {} }} (from {from})", keys.join(", ")),
                        _ => format!("a key declared in map (from {from})"),
                    },
                    hints: super::spell::nearest(&self.found, &keys)
                        .map(|k| format!("did you mean \"{k}\"?"))
                        .into_iter()
                        .collect(),
                }
            }
            None => Failure {
                description: None,
                pos: self.pos.clone(),
                ann_pos: Vec::new(),
                plain: None,
                memory: self.memory.clone(),
                found: self.found.clone(),
                expected: format!("{} (by {})", self.expected_name, self.expected_pos),
                hints: vec![],
            },
        }
    }
}

/// Type name of a value as ytt's messages show it.
fn found_name(n: &Node) -> String {
    n.type_name().to_string()
}

/// The line ytt shows for a map item (`lead` is `key:`) or array item (`-`) made in
/// memory: its position's `fmt.Sprintf("%v%v %#v", key, separator, value)`.
fn memory_line(lead: Option<&str>, pos: &Pos, value: &Node) -> Option<String> {
    let lead = lead.filter(|_| pos.file.is_empty() && pos.line == 0)?;
    let v = match value {
        Node::Scalar(Value::String(s)) => crate::ytt::starlark::strconv::quote(s),
        Node::Scalar(Value::Null) => "<nil>".to_string(),
        Node::Scalar(Value::Float(f)) => crate::ytt::go_type::float_v(*f),
        Node::Scalar(v) => v.to_display_string(),
        Node::Map(_) => "&yamlmeta.Map{}".to_string(),
        Node::Array(_) => "&yamlmeta.Array{}".to_string(),
        Node::Shared(s) => return memory_line(Some(lead), pos, &s.0.borrow()),
    };
    Some(format!("{lead} {v}"))
}

/// Checks `node` (positioned at `pos`, the value of a map item whose `lead` is `key:` or
/// of an array item, `-`) against `ty`; collects violations.
fn check_at(node: &Node, ty: &Type, pos: &Pos, lead: Option<&str>, out: &mut Vec<Violation>) {
    if !ty.accepts_shape(node) {
        out.push(Violation {
            pos: pos.clone(),
            found: found_name(node),
            expected_name: ty.name().to_string(),
            expected_pos: compact(&ty.pos),
            undeclared: None,
            structural: matches!(node, Node::Map(_) | Node::Array(_)),
            memory: memory_line(lead, pos, node),
        });
        return;
    }
    match (&ty.kind, node) {
        (Kind::Map(fields), Node::Map(items)) => {
            // ytt's check walks a map before its items: every undeclared key of the
            // map is reported ahead of the problems inside its declared items.
            let items: Vec<_> = items
                .iter()
                .filter(|it| !it.meta.has("overlay/remove"))
                .collect();
            for it in &items {
                if !fields.iter().any(|f| f.key == it.key) {
                    out.push(Violation {
                        pos: it.meta.pos.clone(),
                        found: it.key.to_display_string(),
                        expected_name: String::new(),
                        expected_pos: compact(&ty.pos),
                        // ytt lists the keys as `%s` prints them.
                        undeclared: Some(
                            fields
                                .iter()
                                .map(|f| crate::ytt::go_type::percent_s(&f.key))
                                .collect(),
                        ),
                        structural: false,
                        memory: memory_line(
                            Some(&format!("{}:", it.key.to_display_string())),
                            &it.meta.pos,
                            &it.value,
                        ),
                    });
                }
            }
            for it in items {
                if let Some(f) = fields.iter().find(|f| f.key == it.key)
                    && !skip_value(&it.meta)
                {
                    let lead = format!("{}:", it.key.to_display_string());
                    check_at(&it.value, &f.ty, &it.meta.pos, Some(&lead), out);
                }
            }
        }
        (Kind::Array(item), Node::Array(items)) => {
            for it in items {
                if it.meta.has("overlay/remove") || skip_value(&it.meta) {
                    continue;
                }
                check_at(&it.value, item, &it.meta.pos, Some("-"), out);
            }
        }
        _ => {}
    }
}

/// Items whose value is computed by an overlay function are not checked here.
fn skip_value(meta: &Meta) -> bool {
    meta.ann("overlay/replace")
        .is_some_and(|a| a.kwarg("via").is_some())
        || meta.has("overlay/assert")
}

/// Checks the values an overlay function computed (`#@overlay/replace via=...` in the
/// overlay `right`) where they landed in the merged values `merged`: ytt type-checks the
/// data values after each overlay (`typeAndCheck` of the merged document), so a scalar
/// a function returns is held to the schema like any other. Map items are followed by
/// key; a computed map or array is left alone.
pub fn check_computed(right: &Node, merged: &Node, ty: &Type, out: &mut Vec<Violation>) {
    let (Kind::Map(fields), Node::Map(items), Node::Map(merged_items)) = (&ty.kind, right, merged)
    else {
        return;
    };
    for it in items {
        let Some(f) = fields.iter().find(|f| f.key == it.key) else {
            continue;
        };
        let Some(m) = merged_items.iter().find(|m| m.key == it.key) else {
            continue;
        };
        if skip_value(&it.meta) {
            if matches!(m.value, Node::Scalar(_)) {
                let lead = format!("{}:", it.key.to_display_string());
                check_at(&m.value, &f.ty, &m.meta.pos, Some(&lead), out);
            }
        } else {
            check_computed(&it.value, &m.value, &f.ty, out);
        }
    }
}

/// Checks a whole node against `ty` (the node's own position is unknown).
pub fn check_node(node: &Node, ty: &Type) -> Vec<Violation> {
    check_doc(node, ty, &ty.pos)
}

/// Checks a document value positioned at `pos`.
///
/// As ytt's `typeAndCheck` does, when some map or array is of the wrong kind (found
/// while types are assigned) only those violations are reported: the scalar checks
/// (`CheckNode`, which also finds undeclared keys) run only on a well-shaped value.
pub fn check_doc(node: &Node, ty: &Type, pos: &Pos) -> Vec<Violation> {
    let mut out = Vec::new();
    check_at(node, ty, pos, None, &mut out);
    if out.iter().any(|v| v.structural) {
        out.retain(|v| v.structural);
    }
    out
}

/// Adds missing map keys (with their defaults) throughout `node`.
pub fn fill_defaults(node: &mut Node, ty: &Type) {
    match (&ty.kind, node) {
        (Kind::Map(fields), Node::Map(items)) => {
            for f in fields {
                match items.iter_mut().find(|i| i.key == f.key) {
                    Some(it) => fill_defaults(&mut it.value, &f.ty),
                    None => items.push(MapItem {
                        key: f.key.clone(),
                        value: f.ty.default.clone(),
                        meta: Meta::at(f.ty.pos.clone()),
                    }),
                }
            }
        }
        (Kind::Array(item), Node::Array(items)) => {
            for it in items {
                fill_defaults(&mut it.value, item);
            }
        }
        _ => {}
    }
}

/// The plain key of a map field (for paths).
pub fn key_text(k: &Value) -> String {
    k.to_display_string()
}

/// Values in `node` that set data values marked `#@schema/deprecated`: (path, where,
/// notice).
pub fn deprecated_uses(node: &Node, ty: &Type, path: &str, out: &mut Vec<(String, Pos, String)>) {
    match (&ty.kind, node) {
        (Kind::Map(fields), Node::Map(items)) => {
            for it in items {
                let Some(f) = fields.iter().find(|f| f.key == it.key) else {
                    continue;
                };
                let p = if path.is_empty() {
                    key_text(&it.key)
                } else {
                    format!("{path}.{}", key_text(&it.key))
                };
                if let Some(notice) = &f.ty.docs.deprecated {
                    out.push((p.clone(), it.meta.pos.clone(), notice.clone()));
                }
                deprecated_uses(&it.value, &f.ty, &p, out);
            }
        }
        (Kind::Array(item), Node::Array(items)) => {
            for (n, it) in items.iter().enumerate() {
                deprecated_uses(&it.value, item, &format!("{path}[{n}]"), out);
            }
        }
        _ => {}
    }
}
