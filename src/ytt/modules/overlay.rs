//! `@ytt:overlay`: matcher constructors and `overlay.apply(left, *overlays)`.

use std::rc::Rc;

use crate::ytt::fragment::{Frag, Fragment, starlark_to_node};
use crate::ytt::node::{Doc, Meta, Node, Pos};
use crate::ytt::overlay::matcher::{Matcher, subset_arg};
use crate::ytt::overlay::{Defaults, Overlay};
use crate::ytt::starlark::{Error as SError, Module, Value};

use super::native;

fn m(x: Matcher) -> Value {
    Value::Host(Rc::new(x))
}

fn docs_of(v: &Value) -> Result<(Vec<Doc>, bool), SError> {
    if let Value::Host(h) = v
        && let Some(Fragment(Frag::DocSet(d))) = h.as_any().downcast_ref::<Fragment>()
    {
        return Ok((d.clone(), true));
    }
    let n = starlark_to_node(v, &Pos::default())?;
    Ok((
        vec![Doc {
            value: n,
            meta: Meta::default(),
        }],
        false,
    ))
}

pub fn module() -> Module {
    super::module(
        "@ytt:overlay",
        vec![
            ("all", m(Matcher::All)),
            (
                "subset",
                native("overlay.subset", |_t, a| {
                    let v = a.positional("overlay.subset", 1, 1)?;
                    Ok(m(Matcher::Subset(subset_arg(v[0].as_ref().expect("arg"))?)))
                }),
            ),
            (
                "index",
                native("overlay.index", |_t, a| {
                    let v = a.positional("overlay.index", 1, 1)?;
                    let i = v[0]
                        .as_ref()
                        .and_then(|x| x.as_int())
                        .ok_or_else(|| SError::new("overlay.index: expected an int"))?;
                    Ok(m(Matcher::Index(i)))
                }),
            ),
            (
                "map_key",
                native("overlay.map_key", |_t, a| {
                    let v = a.positional("overlay.map_key", 1, 1)?;
                    let k = v[0]
                        .as_ref()
                        .and_then(|x| x.as_str())
                        .ok_or_else(|| SError::new("overlay.map_key: expected a string"))?;
                    Ok(m(Matcher::MapKey(k.to_string())))
                }),
            ),
            (
                "and_op",
                native("overlay.and_op", |_t, a| Ok(m(Matcher::And(a.pos.clone())))),
            ),
            (
                "or_op",
                native("overlay.or_op", |_t, a| Ok(m(Matcher::Or(a.pos.clone())))),
            ),
            (
                "not_op",
                native("overlay.not_op", |_t, a| {
                    let v = a.positional("overlay.not_op", 1, 1)?;
                    Ok(m(Matcher::Not(v[0].clone().expect("arg"))))
                }),
            ),
            (
                "apply",
                native("overlay.apply", |t, a| {
                    let Some(left) = a.pos.first() else {
                        return Err(SError::new("overlay.apply: expected left argument"));
                    };
                    let (mut docs, is_docset) = docs_of(left)?;
                    for right in &a.pos[1..] {
                        let (rdocs, r_is_docset) = docs_of(right)?;
                        let mut o = Overlay { thread: t };
                        if r_is_docset {
                            o.apply_docs(&mut docs, &rdocs)
                        } else {
                            let r = &rdocs[0].value;
                            let mut res = Ok(());
                            for d in docs.iter_mut() {
                                res = o.merge_node(&mut d.value, r, &Defaults::default());
                                if res.is_err() {
                                    break;
                                }
                            }
                            res
                        }
                        .map_err(|e| SError::new(e.to_string()))?;
                    }
                    Ok(if is_docset {
                        Fragment::value(Frag::DocSet(docs))
                    } else {
                        match docs.into_iter().next().map(|d| d.value) {
                            Some(Node::Map(i)) => Fragment::value(Frag::Map(i)),
                            Some(Node::Array(i)) => Fragment::value(Frag::Array(i)),
                            Some(Node::Scalar(v)) => crate::ytt::fragment::scalar_to_starlark(&v),
                            None => Value::None,
                        }
                    })
                }),
            ),
        ],
    )
}
