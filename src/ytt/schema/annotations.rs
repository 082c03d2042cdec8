//! Reading the `@schema/*` annotations of a schema node: `type any=`, `nullable`,
//! `default`, `title`, `desc`, `examples`, `deprecated` and `validation`. Arguments are
//! already-evaluated Starlark values; wrong arguments are schema problems at the
//! annotation's line.

use crate::yaml::Value;
use crate::ytt::fragment::{starlark_to_node, starlark_to_plain};
use crate::ytt::node::{Ann, Meta, Node, Pos};
use crate::ytt::starlark::Value as SValue;

use super::error::{SchemaProblem, invalid};
use super::types::Docs;
use super::validation::Validation;

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

fn bad(a: &Ann, what: &str, found: &str, expected: &str) -> SchemaProblem {
    invalid(&a.pos, &format!("@{} {what}", a.name), found, expected, &[])
}

fn no_kwargs(a: &Ann) -> Result<(), SchemaProblem> {
    if let Some((k, _)) = a.kwargs.first() {
        return Err(bad(
            a,
            &format!("has unknown keyword argument \"{k}\""),
            &format!("keyword argument \"{k}\""),
            "no keyword arguments",
        ));
    }
    Ok(())
}

fn one_string(a: &Ann) -> Result<String, SchemaProblem> {
    no_kwargs(a)?;
    match a.args.as_slice() {
        [SValue::Str(s)] => Ok(s.to_string()),
        [v] => Err(bad(
            a,
            "expects a string argument",
            &v.type_name(),
            "string",
        )),
        _ => Err(bad(
            a,
            "expects exactly one argument",
            &format!("{} arguments", a.args.len()),
            "1 argument (a string)",
        )),
    }
}

/// Reads the schema annotations of `meta`.
pub fn read(meta: &Meta) -> Result<NodeAnns, SchemaProblem> {
    let mut out = NodeAnns::default();
    for a in &meta.anns {
        match a.name.as_str() {
            "schema/type" => {
                if let Some(v) = a.args.first() {
                    return Err(bad(
                        a,
                        "expects only the keyword argument any=",
                        &format!("positional argument {}", crate::ytt::starlark::repr(v)),
                        "any=True or any=False",
                    ));
                }
                for (k, v) in &a.kwargs {
                    match (k.as_str(), v) {
                        ("any", SValue::Bool(b)) => out.any = *b,
                        ("any", v) => {
                            return Err(bad(
                                a,
                                "expects any= to be a boolean",
                                &v.type_name(),
                                "bool (True or False)",
                            ));
                        }
                        (k, _) => {
                            return Err(bad(
                                a,
                                &format!("has unknown keyword argument \"{k}\""),
                                &format!("keyword argument \"{k}\""),
                                "any=True or any=False",
                            ));
                        }
                    }
                }
                if a.kwargs.is_empty() {
                    return Err(bad(
                        a,
                        "expects a keyword argument",
                        "no arguments",
                        "any=True or any=False",
                    ));
                }
            }
            "schema/nullable" => {
                no_kwargs(a)?;
                if !a.args.is_empty() {
                    return Err(bad(
                        a,
                        "expects no arguments",
                        &format!("{} arguments", a.args.len()),
                        "no arguments",
                    ));
                }
                out.nullable = true;
            }
            "schema/default" => {
                no_kwargs(a)?;
                let [v] = a.args.as_slice() else {
                    return Err(bad(
                        a,
                        "expects exactly one argument",
                        &format!("{} arguments", a.args.len()),
                        "1 argument (the default value)",
                    ));
                };
                let node = starlark_to_node(v, &a.pos)
                    .map_err(|e| bad(a, "has a value that is not YAML", &e.msg, "a YAML value"))?;
                out.default = Some(node);
                out.default_pos = a.pos.clone();
            }
            "schema/title" => out.docs.title = Some(one_string(a)?),
            "schema/desc" => out.docs.desc = Some(one_string(a)?),
            "schema/deprecated" => out.docs.deprecated = Some(one_string(a)?),
            "schema/examples" => {
                no_kwargs(a)?;
                if a.args.is_empty() {
                    return Err(bad(
                        a,
                        "expects at least one example",
                        "no arguments",
                        "tuples of (description, example value)",
                    ));
                }
                for ex in &a.args {
                    out.docs.examples.push(example(a, ex)?);
                }
            }
            "schema/validation" => {
                let v = Validation::from_ann(a).map_err(|m| {
                    invalid(
                        &a.pos,
                        &format!("@{} {m}", a.name),
                        &m,
                        "rules as (description, function) tuples and the keyword arguments min_len, max_len, min, max, not_null, one_of, one_not_null, when, when_null_skip",
                        &[],
                    )
                })?;
                out.validations.push(v);
            }
            // ytt reads only the annotations above; any other `@schema/...` (such as
            // `@schema/example`) is left alone, without a word.
            _ => {}
        }
    }
    Ok(out)
}

fn example(a: &Ann, ex: &SValue) -> Result<(String, Value), SchemaProblem> {
    let SValue::Tuple(t) = ex else {
        return Err(bad(
            a,
            "expects each example to be a tuple",
            &ex.type_name(),
            "a tuple of (description, example value)",
        ));
    };
    let (desc, val) = match t.as_slice() {
        [SValue::Str(d), v] => (d.to_string(), v),
        [v] => (String::new(), v),
        [d, _] => {
            return Err(bad(
                a,
                "expects the description of an example to be a string",
                &d.type_name(),
                "string",
            ));
        }
        _ => {
            return Err(bad(
                a,
                "expects each example to have two items",
                &format!("{} items", t.len()),
                "a tuple of (description, example value)",
            ));
        }
    };
    let v = starlark_to_plain(val)
        .map_err(|e| bad(a, "has an example that is not YAML", &e.msg, "a YAML value"))?;
    Ok((desc, v))
}
