//! `@ytt:overlay`: matcher constructors and `overlay.apply(left, *overlays)`.

use std::rc::Rc;

use crate::ytt::error::Error;
use crate::ytt::fragment::{Frag, Fragment, starlark_to_node};
use crate::ytt::go_type;
use crate::ytt::node::{Doc, Meta, Node, Pos};
use crate::ytt::overlay::matcher::{Matcher, subset_arg};
use crate::ytt::overlay::{Defaults, Overlay};
use crate::ytt::starlark::{Args, Error as SError, Module, Value};

use super::native;

fn m(x: Matcher) -> Value {
    Value::Host(Rc::new(x))
}

fn docs_of(v: &Value) -> Result<(Vec<Doc>, bool), SError> {
    if let Value::Host(h) = v
        && let Some(d) = h
            .as_any()
            .downcast_ref::<Fragment>()
            .and_then(|f| f.doc_set())
    {
        return Ok((d, true));
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

/// The one positional argument of `name`, refused otherwise in ytt's words.
fn one_arg(a: &Args, name: &str) -> Result<Value, SError> {
    match a.pos.as_slice() {
        [v] => Ok(v.clone()),
        _ => Err(SError::new(format!(
            "{name}: expected exactly one argument"
        ))),
    }
}

/// The positional arguments of a matcher combinator, at least one.
fn some_args(a: &Args, name: &str) -> Result<Vec<Value>, SError> {
    if a.pos.is_empty() {
        return Err(SError::new(format!(
            "{name}: expected at least one argument"
        )));
    }
    Ok(a.pos.clone())
}

pub fn module() -> Module {
    super::module(
        "@ytt:overlay",
        vec![
            ("all", m(Matcher::All)),
            (
                "subset",
                native("overlay.subset", |_t, a| {
                    let v = one_arg(a, "overlay.subset")?;
                    Ok(m(Matcher::Subset(subset_arg(&v)?)))
                }),
            ),
            (
                "index",
                native("overlay.index", |_t, a| {
                    let v = one_arg(a, "overlay.index")?;
                    let i = match v {
                        Value::Int(i) => i,
                        _ => return Err(SError::new("overlay.index: expected starlark.Int")),
                    };
                    Ok(m(Matcher::Index(i)))
                }),
            ),
            (
                "map_key",
                native("overlay.map_key", |_t, a| {
                    let v = one_arg(a, "overlay.map_key")?;
                    let k = v.as_str().ok_or_else(|| {
                        SError::new(format!(
                            "overlay.map_key: expected a string, but was {}",
                            v.type_name()
                        ))
                    })?;
                    Ok(m(Matcher::MapKey(k.to_string())))
                }),
            ),
            (
                "and_op",
                native("overlay.and_op", |_t, a| {
                    Ok(m(Matcher::And(some_args(a, "overlay.and_op")?)))
                }),
            ),
            (
                "or_op",
                native("overlay.or_op", |_t, a| {
                    Ok(m(Matcher::Or(some_args(a, "overlay.or_op")?)))
                }),
            ),
            (
                "not_op",
                native("overlay.not_op", |_t, a| {
                    Ok(m(Matcher::Not(one_arg(a, "overlay.not_op")?)))
                }),
            ),
            (
                "apply",
                native("overlay.apply", |t, a| {
                    let Some(left) = a.pos.first() else {
                        return Err(SError::new(
                            "overlay.apply: expected exactly at least argument",
                        ));
                    };
                    let in_apply = |e: SError| SError::new(format!("overlay.apply: {}", e.msg));
                    let (mut docs, is_docset) = docs_of(left).map_err(in_apply)?;
                    for right in &a.pos[1..] {
                        let (mut rdocs, r_is_docset) = docs_of(right).map_err(in_apply)?;
                        // ytt copies what it takes from an overlay: nothing of it is
                        // shared with the left side.
                        rdocs.iter_mut().for_each(|d| d.value.unshare());
                        // As in ytt, an overlay that is neither a map, an array nor
                        // documents (None, an empty fragment, a scalar) changes nothing.
                        if !r_is_docset && matches!(rdocs[0].value, Node::Scalar(_)) {
                            continue;
                        }
                        let mut o = Overlay { thread: t };
                        // ytt overlays documents only on documents, and a map or an
                        // array only on a node of the same kind.
                        match (is_docset, r_is_docset) {
                            (true, true) => o.apply_docs(&mut docs, &rdocs),
                            (false, false) => o.apply_node(
                                &mut docs[0].value,
                                &rdocs[0].value,
                                &Defaults::default(),
                                &Meta::default(),
                            ),
                            (false, true) => Err(Error::msg(format!(
                                "Expected document set, but was {}",
                                go_type::friendly_name(&docs[0].value)
                            ))),
                            (true, false) => Err(Error::msg(format!(
                                "Expected {}, but was document set",
                                if matches!(rdocs[0].value, Node::Map(_)) {
                                    "map"
                                } else {
                                    "array"
                                }
                            ))),
                        }
                        .map_err(|e| SError::new(format!("overlay.apply: {}", e.flat_message())))?;
                    }
                    let result = if is_docset {
                        Frag::DocSet(docs)
                    } else {
                        match docs.into_iter().next().map(|d| d.value) {
                            Some(Node::Map(i)) => Frag::Map(i),
                            Some(Node::Array(i)) => Frag::Array(i),
                            Some(Node::Shared(s)) => match &*s.0.borrow() {
                                Node::Map(i) => Frag::Map(i.clone()),
                                Node::Array(i) => Frag::Array(i.clone()),
                                _ => Frag::Nil,
                            },
                            Some(Node::Scalar(v)) => {
                                return Ok(crate::ytt::fragment::scalar_to_starlark(&v));
                            }
                            None => return Ok(Value::None),
                        }
                    };
                    // ytt edits the nodes of a fragment given as the left argument in
                    // place (`Op.Apply` works on the pointer the fragment holds) and
                    // returns a fragment of those same nodes: the variable that held the
                    // left fragment sees the result, and so do later applies on it.
                    if let Value::Host(h) = left
                        && let Some(f) = h.as_any().downcast_ref::<Fragment>()
                        && !matches!(*f.frag(), Frag::Nil)
                    {
                        f.set(result);
                        return Ok(left.clone());
                    }
                    Ok(Fragment::value(result))
                }),
            ),
        ],
    )
}
