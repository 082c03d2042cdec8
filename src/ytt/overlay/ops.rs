//! The operation annotations of an overlay node (`@overlay/merge|replace|remove|insert|
//! append|assert`) and their keyword arguments, read as ytt's annotation readers read
//! them: which operation a node asks for, `replace`'s `or_add`, `insert`'s flags, and
//! the verdict of an `assert` `via` function.

use super::{err_at, go_type, matcher};
use crate::ytt::error::Error;
use crate::ytt::node::{Ann, Meta};
use crate::ytt::starlark::Value as SValue;

/// The operation an overlay node asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Op {
    Merge,
    Replace,
    Remove,
    Insert,
    Append,
    Assert,
}

/// A `via` verdict of `(bool, string)`: ytt takes any two-item sequence (tuple or list)
/// whose items are a bool and a string; anything else is neither None, a bool nor such a
/// pair.
pub(super) fn verdict_with_message(r: &SValue) -> Option<(bool, String)> {
    let items: Vec<SValue> = match r {
        SValue::Tuple(t) => t.iter().cloned().collect(),
        SValue::List(l) => l.items.borrow().clone(),
        _ => return None,
    };
    match items.as_slice() {
        [SValue::Bool(ok), SValue::Str(msg)] => Some((*ok, msg.to_string())),
        _ => None,
    }
}

pub(super) fn op_of(meta: &Meta, default: Op) -> Result<(Op, Option<&Ann>), Error> {
    let mut found: Option<(Op, &Ann)> = None;
    for a in &meta.anns {
        let op = match a.name.as_str() {
            "overlay/merge" => Op::Merge,
            "overlay/replace" => Op::Replace,
            "overlay/remove" => Op::Remove,
            "overlay/insert" => Op::Insert,
            "overlay/append" => Op::Append,
            "overlay/assert" => Op::Assert,
            _ => continue,
        };
        if found.is_some() {
            return Err(err_at("Expected to find only one overlay operation", meta));
        }
        // ytt reads the keywords of `replace` and `assert` before matching and those of
        // `insert` after (see [`insert_kind`]); `merge`, `remove` and `append` take
        // none and are never checked for any.
        match op {
            Op::Replace => known_kwargs(a, &["via", "or_add"], meta)?,
            Op::Assert => known_kwargs(a, &["via"], meta)?,
            Op::Insert | Op::Merge | Op::Remove | Op::Append => {}
        }
        if op == Op::Replace
            && let Some(v) = a.kwarg("or_add")
            && !matches!(v, SValue::Bool(_))
        {
            return Err(err_at(
                format!(
                    "expected starlark.Bool, but was {}",
                    go_type::of_starlark(v)
                ),
                meta,
            ));
        }
        found = Some((op, a));
    }
    Ok(match found {
        Some((op, a)) => (op, Some(a)),
        None => (default, None),
    })
}

/// Refuses a keyword argument of annotation `a` not among `allowed`, in ytt's words.
pub(super) fn known_kwargs(a: &Ann, allowed: &[&str], meta: &Meta) -> Result<(), Error> {
    match a
        .kwargs
        .iter()
        .find(|(k, _)| !allowed.contains(&k.as_str()))
    {
        Some((k, _)) => Err(err_at(
            format!("Unknown '{}' annotation keyword argument '{k}'", a.name),
            meta,
        )),
        None => Ok(()),
    }
}

/// `@overlay/replace or_add=True`.
pub(super) fn or_add(ann: Option<&Ann>) -> bool {
    ann.and_then(|a| a.kwarg("or_add"))
        .is_some_and(SValue::truth)
}

/// The `before`/`after` of `@overlay/insert`, read (as ytt does, once the matches are
/// counted) keyword by keyword: each flag must be a bool, `via` a function, and no
/// other keyword is known.
pub(super) fn insert_kind(ann: Option<&Ann>, meta: &Meta) -> Result<(bool, bool), Error> {
    let Some(a) = ann.filter(|a| !a.kwargs.is_empty()) else {
        return Err(err_at(
            "Expected 'overlay/insert' annotation to have at least one keyword argument (before=..., after=...)",
            meta,
        ));
    };
    let (mut before, mut after) = (false, false);
    for (k, v) in &a.kwargs {
        let flag = match k.as_str() {
            "before" => &mut before,
            "after" => &mut after,
            "via" => {
                if !matcher::is_callable(v) {
                    return Err(err_at(
                        format!(
                            "Expected 'overlay/insert' annotation keyword argument 'via' to be function, but was {}",
                            go_type::of_starlark(v)
                        ),
                        meta,
                    ));
                }
                continue;
            }
            _ => {
                return Err(err_at(
                    format!("Unknown 'overlay/insert' annotation keyword argument '{k}'"),
                    meta,
                ));
            }
        };
        match v {
            SValue::Bool(b) => *flag = *b,
            other => {
                return Err(err_at(
                    format!(
                        "expected starlark.Bool, but was {}",
                        go_type::of_starlark(other)
                    ),
                    meta,
                ));
            }
        }
    }
    Ok((before, after))
}
