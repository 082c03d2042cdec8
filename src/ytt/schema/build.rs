//! Building the type tree ([`Type`]) of an evaluated `#@data/values-schema` document:
//! types inferred from the values, `@schema/*` annotations read, defaults checked against
//! the types they belong to.

use crate::yaml::Value;
use crate::ytt::node::{Doc, Meta, Node, Pos};

use super::annotations::{self, NodeAnns, Site};
use super::error::{SchemaProblem, compact, invalid, invalid_ann};
use super::types::{Field, Kind, Type};

/// Builds the root type of a schema document. As ytt's `getType` does for any node, an
/// empty document (a null value) is refused unless it is annotated
/// `@schema/type any=True`: "null value not allowed here".
pub fn build_doc(doc: &Doc) -> Result<Type, SchemaProblem> {
    build(&doc.value, &doc.meta, &doc.meta.pos, Site::Doc)
}

/// Builds the type of `value`, annotated by `meta`, defined at `pos`, in ytt's order:
/// the type annotations, the value's own type (its children first), the documentation
/// annotations, the default, the validations.
fn build(value: &Node, meta: &Meta, pos: &Pos, site: Site) -> Result<Type, SchemaProblem> {
    let mut anns = NodeAnns::default();
    annotations::read_type(meta, &mut anns)?;
    let kind = if anns.any {
        no_schema_within_any(value)?;
        Kind::Any
    } else {
        infer(value, pos)?
    };
    annotations::read_docs(meta, site, &mut anns)?;
    let mut ty = Type {
        kind,
        nullable: anns.nullable || anns.any,
        pos: pos.clone(),
        default: Node::null(),
        docs: anns.docs.clone(),
        validations: Vec::new(),
    };
    check_examples(&ty, meta)?;
    annotations::read_default(meta, value, site, &mut anns)?;
    annotations::read_validations(meta, &mut anns)?;
    ty.validations = anns.validations.clone();
    ty.default = default_of(&ty, value, &anns)?;
    Ok(ty)
}

/// ytt's `checkExamplesValue`: every example must be a value of the node's type, checked
/// as a value given at the annotated node; the problems of all examples are reported
/// together, each hunk showing the annotation and its `found` naming it.
fn check_examples(ty: &Type, meta: &Meta) -> Result<(), SchemaProblem> {
    let Some(a) = meta.anns.iter().rfind(|a| a.name == "schema/examples") else {
        return Ok(());
    };
    let by = compact(&a.pos);
    let failures: Vec<_> = ty
        .docs
        .examples
        .iter()
        .flat_map(|(_, ex)| super::check::check_node(&Node::from_value(ex, &ty.pos), ty))
        .map(|v| {
            let mut f = v.failure();
            f.pos = ty.pos.clone();
            f.ann_pos = vec![a.pos.clone()];
            f.found = format!("{} (by {by})", f.found);
            f
        })
        .collect();
    if failures.is_empty() {
        return Ok(());
    }
    Err(SchemaProblem {
        summary: String::new(),
        failures,
        nested: false,
    }
    .titled("Invalid schema - @schema/examples has wrong type"))
}

/// ytt's check of an "any type" fragment: no node inside it may carry `@schema/nullable`,
/// `@schema/type` or `@schema/default` (the first such node, in document order, fails).
fn no_schema_within_any(value: &Node) -> Result<(), SchemaProblem> {
    let children: Vec<(&Meta, &Node)> = match value {
        Node::Map(items) => items.iter().map(|it| (&it.meta, &it.value)).collect(),
        Node::Array(items) => items.iter().map(|it| (&it.meta, &it.value)).collect(),
        Node::Scalar(_) => Vec::new(),
        Node::Shared(s) => return no_schema_within_any(&s.0.borrow()),
    };
    for (meta, child) in children {
        let found: Vec<_> = ["schema/nullable", "schema/type", "schema/default"]
            .iter()
            .filter_map(|name| meta.anns.iter().find(|a| a.name == *name))
            .collect();
        if !found.is_empty() {
            let names: Vec<&str> = found.iter().map(|a| a.name.as_str()).collect();
            let ann_pos: Vec<Pos> = found.iter().map(|a| a.pos.clone()).collect();
            return Err(invalid_ann(
                &meta.pos,
                &ann_pos,
                "Schema was specified within an \"any type\" fragment",
                &format!("@{} annotation(s)", names.join(", @")),
                "no '@schema/...' on nodes within a node annotated '@schema/type any=True'",
                &[
                    "an \"any type\" fragment has no constraints; nested schema annotations conflict and are disallowed",
                ],
            ));
        }
        no_schema_within_any(child)?;
    }
    Ok(())
}

fn infer(value: &Node, pos: &Pos) -> Result<Kind, SchemaProblem> {
    Ok(match value {
        Node::Shared(s) => return infer(&s.0.borrow(), pos),
        Node::Map(items) => {
            let mut fields: Vec<Field> = Vec::with_capacity(items.len());
            for it in items {
                let ty = build(&it.value, &it.meta, &it.meta.pos, Site::MapItem)?;
                fields.push(Field {
                    key: it.key.clone(),
                    ty,
                });
            }
            Kind::Map(fields)
        }
        Node::Array(items) => {
            if items.len() != 1 {
                return Err(invalid(
                    pos,
                    "",
                    &format!("{} array items", items.len()),
                    "exactly 1 array item, of the desired type",
                    &[
                        "in schema, the one item of the array implies the type of its elements.",
                        "in schema, the default value for an array is always an empty list.",
                        "default values can be overridden via a data values overlay.",
                    ],
                )
                .titled("Invalid schema - wrong number of items in array definition"));
            }
            let it = &items[0];
            Kind::Array(Box::new(build(
                &it.value,
                &it.meta,
                &it.meta.pos,
                Site::ArrayItem,
            )?))
        }
        Node::Scalar(v) => match v {
            Value::String(_) => Kind::String,
            Value::Int(_) => Kind::Int,
            Value::Float(_) => Kind::Float,
            Value::Bool(_) => Kind::Bool,
            Value::Null => {
                return Err(invalid(
                    pos,
                    "",
                    "null value",
                    "non-null value",
                    &[
                        "in YAML, omitting a value implies null.",
                        "to set the default value to null, annotate with @schema/nullable.",
                        "to allow any value, annotate with @schema/type any=True.",
                    ],
                )
                .titled("Invalid schema - null value not allowed here"));
            }
            Value::Array(_) | Value::Map(_) => Kind::Any,
        },
    })
}

/// The default of a freshly built type.
fn default_of(ty: &Type, value: &Node, anns: &NodeAnns) -> Result<Node, SchemaProblem> {
    if let Some(d) = &anns.default {
        let mut d = d.clone();
        let violations = super::check::check_node(&d, ty);
        if !violations.is_empty() {
            // ytt checks the default as a value given at the annotated node, and adds
            // the annotation to each hunk.
            let at = compact(&anns.default_pos);
            let failures = violations
                .iter()
                .map(|v| {
                    let mut f = v.failure();
                    f.pos = ty.pos.clone();
                    f.ann_pos = vec![anns.default_pos.clone()];
                    f.found = format!("{} (at {at})", f.found);
                    f
                })
                .collect();
            return Err(SchemaProblem {
                summary: String::new(),
                failures,
                nested: false,
            }
            .titled("Invalid schema - @schema/default is wrong type"));
        }
        super::check::fill_defaults(&mut d, ty);
        return Ok(d);
    }
    if anns.nullable {
        return Ok(Node::null());
    }
    Ok(match &ty.kind {
        Kind::Any => value.clone(),
        Kind::Array(_) => Node::Array(Vec::new()),
        Kind::Map(fields) => match value {
            Node::Map(items) => Node::Map(
                items
                    .iter()
                    .zip(fields)
                    .map(|(it, f)| crate::ytt::node::MapItem {
                        key: it.key.clone(),
                        value: f.ty.default.clone(),
                        meta: Meta::at(it.meta.pos.clone()),
                    })
                    .collect(),
            ),
            _ => Node::Map(Vec::new()),
        },
        _ => value.clone(),
    })
}
