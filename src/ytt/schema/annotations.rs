//! Reading the `@schema/*` annotations of a schema node: `type any=`, `nullable`,
//! `default`, `title`, `desc`, `examples`, `deprecated` and `validation`. Arguments are
//! already-evaluated Starlark values; wrong arguments are schema problems at the
//! annotation's line.

use crate::yaml::Value;
use crate::ytt::fragment::{starlark_to_node, starlark_to_plain};
use crate::ytt::node::{Ann, Meta, Node, Pos};
use crate::ytt::starlark::Value as SValue;

use super::error::{SchemaProblem, invalid_ann, plain};
use super::types::Docs;
use super::validation::Validation;
use crate::ytt::overlay::go_type;

/// What the annotations of one node say.
#[derive(Clone, Default)]
pub struct NodeAnns {
    pub any: bool,
    pub nullable: bool,
    pub default: Option<Node>,
    pub default_pos: Pos,
    pub docs: Docs,
    pub validations: Vec<Validation>,
}

/// A problem with annotation `a` of the node at `node`, in ytt's words.
fn bad(
    node: &Pos,
    a: &Ann,
    description: &str,
    found: &str,
    expected: &str,
    hints: &[&str],
) -> SchemaProblem {
    invalid_ann(
        node,
        std::slice::from_ref(&a.pos),
        description,
        found,
        expected,
        hints,
    )
}

/// `file:line` of an annotation, as its errors cite it.
fn at(a: &Ann) -> String {
    format!("{}:{}", a.pos.file, a.pos.line)
}

/// The one argument of `@schema/desc`, `title`, `deprecated` or `default` (`expected`
/// is what ytt says the argument should be).
fn one_arg<'a>(
    node: &Pos,
    a: &'a Ann,
    expected: &str,
    kwarg_hints: &[&str],
) -> Result<&'a SValue, SchemaProblem> {
    let syntax = format!("syntax error in @{} annotation", a.name);
    if !a.kwargs.is_empty() {
        return Err(bad(
            node,
            a,
            &syntax,
            &format!("keyword argument in @{} (by {})", a.name, at(a)),
            expected,
            kwarg_hints,
        ));
    }
    match a.args.as_slice() {
        [v] => Ok(v),
        [] => Err(bad(
            node,
            a,
            &syntax,
            &format!("missing value in @{} (by {})", a.name, at(a)),
            expected,
            &[],
        )),
        more => Err(bad(
            node,
            a,
            &syntax,
            &format!("{} values in @{} (by {})", more.len(), a.name, at(a)),
            expected,
            &[],
        )),
    }
}

fn one_string(node: &Pos, a: &Ann) -> Result<String, SchemaProblem> {
    match one_arg(
        node,
        a,
        "string",
        &["this annotation only accepts one argument: a string."],
    )? {
        SValue::Str(s) => Ok(s.to_string()),
        _ => Err(bad(
            node,
            a,
            &format!("syntax error in @{} annotation", a.name),
            &format!("Non-string value in @{} (by {})", a.name, at(a)),
            "string",
            &[],
        )),
    }
}

/// The type name ytt gives the value a schema node holds, in default errors (the
/// `String()` of the node's type: `any` and `null` when an annotation set them).
fn value_type_name(value: &Node, anns: &NodeAnns) -> &'static str {
    match value {
        _ if anns.any => "any",
        _ if anns.nullable => "null",
        Node::Map(_) => "map",
        Node::Array(_) => "array",
        Node::Scalar(Value::String(_)) => "string",
        Node::Scalar(Value::Int(_)) => "integer",
        Node::Scalar(Value::Float(_)) => "float",
        Node::Scalar(Value::Bool(_)) => "boolean",
        Node::Scalar(_) => "null",
        Node::Shared(s) => value_type_name(&s.0.borrow(), anns),
    }
}

/// What kind of node carries the annotations: ytt refuses `@schema/default` on an
/// array item and `@schema/deprecated` on a document.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Site {
    Doc,
    MapItem,
    ArrayItem,
}

/// The last annotation named `name` (ytt keeps one annotation per name, the last).
fn named<'a>(meta: &'a Meta, name: &str) -> Option<&'a Ann> {
    meta.anns.iter().rfind(|a| a.name == name)
}

/// Reads `@schema/type` then `@schema/nullable` of `meta`, in that order whatever their
/// order in the file, as ytt's `collectTypeAnnotations` does.
pub fn read_type(meta: &Meta, out: &mut NodeAnns) -> Result<(), SchemaProblem> {
    let node = &meta.pos;
    if let Some(a) = named(meta, "schema/type") {
        if a.kwargs.is_empty() {
            return Err(bad(
                node,
                a,
                "expected @schema/type annotation to have keyword argument and value",
                &format!("missing keyword argument and value (by {})", at(a)),
                "valid keyword argument and value",
                &["Supported key-value pairs are 'any=True', 'any=False'"],
            ));
        }
        for (k, v) in &a.kwargs {
            match (k.as_str(), v) {
                ("any", SValue::Bool(b)) => out.any = *b,
                ("any", v) => {
                    return Err(bad(
                        node,
                        a,
                        "unknown @schema/type annotation keyword argument",
                        &format!("{} (by {})", go_type::of_starlark(v), at(a)),
                        "starlark.Bool",
                        &["Supported kwargs are 'any'"],
                    ));
                }
                (k, _) => {
                    return Err(bad(
                        node,
                        a,
                        "unknown @schema/type annotation keyword argument",
                        &format!("{k} (by {})", at(a)),
                        "A valid kwarg",
                        &["Supported kwargs are 'any'"],
                    ));
                }
            }
        }
    }
    if let Some(a) = named(meta, "schema/nullable") {
        if !a.kwargs.is_empty() {
            return Err(bad(
                node,
                a,
                "expected @schema/nullable annotation to not contain any keyword arguments",
                &format!("keyword argument in @schema/nullable (by {})", at(a)),
                "starlark.Bool",
                &["Supported kwargs are 'any'"],
            ));
        }
        // ytt ignores positional arguments here, and (in 0.48) allows
        // `@schema/nullable` together with `@schema/type any=True`.
        out.nullable = true;
    }
    Ok(())
}

/// Reads the documentation annotations of `meta` in ytt's order (`desc`, `title`,
/// `examples`, `deprecated`), whatever their order in the file.
pub fn read_docs(meta: &Meta, site: Site, out: &mut NodeAnns) -> Result<(), SchemaProblem> {
    let node = &meta.pos;
    if let Some(a) = named(meta, "schema/desc") {
        out.docs.desc = Some(one_string(node, a)?);
    }
    if let Some(a) = named(meta, "schema/title") {
        out.docs.title = Some(one_string(node, a)?);
    }
    if let Some(a) = named(meta, "schema/examples") {
        let syntax = "syntax error in @schema/examples annotation";
        let expected =
            "2-tuple containing description (string) and example value (of expected type)";
        if !a.kwargs.is_empty() {
            return Err(bad(
                node,
                a,
                syntax,
                &format!("keyword argument in @schema/examples (by {})", at(a)),
                expected,
                &[],
            ));
        }
        if a.args.is_empty() {
            return Err(bad(
                node,
                a,
                syntax,
                &format!("missing value in @schema/examples (by {})", at(a)),
                expected,
                &[],
            ));
        }
        for ex in &a.args {
            out.docs.examples.push(example(node, a, ex)?);
        }
    }
    if let Some(a) = named(meta, "schema/deprecated") {
        if site == Site::Doc {
            return Err(bad(
                node,
                a,
                "@schema/deprecated not supported on a document",
                "",
                "",
                &[
                    "do you mean to deprecate the entire schema document?",
                    "use schema/deprecated on individual keys.",
                ],
            ));
        }
        out.docs.deprecated = Some(one_string(node, a)?);
    }
    Ok(())
}

/// Reads `@schema/default` of `meta` (annotating `value`), after the type annotations
/// (`out` holds what they said), as ytt's `collectValueAnnotations` does.
pub fn read_default(
    meta: &Meta,
    value: &Node,
    site: Site,
    out: &mut NodeAnns,
) -> Result<(), SchemaProblem> {
    let node = &meta.pos;
    let Some(a) = named(meta, "schema/default") else {
        return Ok(());
    };
    if site == Site::ArrayItem {
        return Err(bad(
            node,
            a,
            "",
            "",
            "",
            &[
                "do you mean to set a default value for the array?",
                "set an array's default by annotating its parent.",
            ],
        )
        .titled("Invalid schema - @schema/default not supported on array item")
        .nested());
    }
    let expected = format!(
        "{} (by {}:{})",
        value_type_name(value, out),
        node.file,
        node.line
    );
    let v = one_arg(
        node,
        a,
        &expected,
        &[
            "this annotation only accepts one argument: the default value.",
            "value must be in Starlark format, e.g.: {'key': 'value'}, True.",
        ],
    )?;
    let node_value = starlark_to_node(v, &a.pos).map_err(|e| {
        bad(
            node,
            a,
            "syntax error in @schema/default annotation",
            &e.msg,
            "",
            &[],
        )
    })?;
    out.default = Some(node_value);
    out.default_pos = a.pos.clone();
    Ok(())
}

/// Reads the `@schema/validation` annotations of `meta`.
pub fn read_validations(meta: &Meta, out: &mut NodeAnns) -> Result<(), SchemaProblem> {
    for a in meta.anns.iter().filter(|a| a.name == "schema/validation") {
        let v = Validation::from_ann(a).map_err(|m| {
            plain(
                &a.pos,
                format!("Invalid @schema/validation annotation - {m}"),
            )
        })?;
        out.validations.push(v);
    }
    Ok(())
}

fn example(node: &Pos, a: &Ann, ex: &SValue) -> Result<(String, Value), SchemaProblem> {
    let syntax = "syntax error in @schema/examples annotation";
    let expected = "2-tuple containing description (string) and example value (of expected type)";
    let fail = |found: String| Err(bad(node, a, syntax, &found, expected, &[]));
    let SValue::Tuple(t) = ex else {
        return fail(format!(
            "{} for @schema/examples (at {})",
            ex.type_name(),
            at(a)
        ));
    };
    let (desc, val) = match t.as_slice() {
        [] | [_] => return fail(format!("empty tuple in @schema/examples (by {})", at(a))),
        [SValue::Str(d), v] => (d.to_string(), v),
        [d, _] => {
            return fail(format!(
                "{} value for @schema/examples (at {})",
                d.type_name(),
                at(a)
            ));
        }
        more => {
            return fail(format!(
                "{}-tuple argument in @schema/examples (by {})",
                more.len(),
                at(a)
            ));
        }
    };
    let v = starlark_to_plain(val).map_err(|e| bad(node, a, syntax, &e.msg, expected, &[]))?;
    Ok((desc, v))
}
