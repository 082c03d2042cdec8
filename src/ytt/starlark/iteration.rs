//! Iterating values: the items of an iterable (lists, tuples, dict keys, sets, ranges,
//! string iterators, host values), and the guard that keeps a list, dict or set from
//! being mutated while it is iterated ("cannot insert into hash table during iteration").

use super::error::{Error, Result};
use super::value::{Range, StrIterKind, Value, byte_str};

/// Guard that marks a container as being iterated; mutations fail until it drops.
pub struct IterGuard {
    target: Option<Value>,
}

impl Drop for IterGuard {
    fn drop(&mut self) {
        if let Some(t) = &self.target
            && let Some(c) = t.iterations()
        {
            c.set(c.get().saturating_sub(1));
        }
    }
}

/// Items of an iterable value with a guard that blocks mutation while held, or None if
/// the value is not iterable (strings are not iterable in Starlark).
pub fn iterate(v: &Value) -> Option<(Vec<Value>, IterGuard)> {
    let items = match v {
        Value::List(l) => l.items.borrow().clone(),
        Value::Tuple(t) => t.0.clone(),
        Value::Dict(d) => d.map.borrow().keys(),
        Value::Set(s) => s.items(),
        Value::Range(r) => (0..r.len()).map(|i| Value::Int(r.at(i))).collect(),
        Value::StrIter(s, k) => str_iter_items(s, *k),
        Value::Host(h) => return h.iterate().map(|items| (items, IterGuard { target: None })),
        _ => return None,
    };
    if let Some(c) = v.iterations() {
        c.set(c.get() + 1);
    }
    Some((
        items,
        IterGuard {
            target: Some(v.clone()),
        },
    ))
}

/// Items of an iterable produced one at a time (ranges are not materialized).
pub enum ValueIter {
    Items(std::vec::IntoIter<Value>),
    Range(Range, usize),
}

impl Iterator for ValueIter {
    type Item = Value;
    fn next(&mut self) -> Option<Value> {
        match self {
            ValueIter::Items(it) => it.next(),
            ValueIter::Range(r, i) => {
                if *i < r.len() {
                    *i += 1;
                    Some(Value::Int(r.at(*i - 1)))
                } else {
                    None
                }
            }
        }
    }
}

/// Items of an iterable for `for` loops and comprehensions, or the starlark-go error
/// "T value is not iterable".
pub fn iterate_or_err(v: &Value) -> Result<(ValueIter, IterGuard)> {
    if let Value::Range(r) = v {
        return Ok((ValueIter::Range(*r, 0), IterGuard { target: None }));
    }
    iterate(v)
        .map(|(items, g)| (ValueIter::Items(items.into_iter()), g))
        .ok_or_else(|| Error::new(format!("{} value is not iterable", v.type_name())))
}

fn str_iter_items(s: &str, k: StrIterKind) -> Vec<Value> {
    match k {
        // One byte each, as Go's strings are bytes (see `crate::go_bytes`).
        StrIterKind::Elems => crate::go_bytes::to_bytes(s)
            .iter()
            .map(|b| Value::Str(byte_str(&[*b])))
            .collect(),
        StrIterKind::ElemOrds => crate::go_bytes::to_bytes(s)
            .iter()
            .map(|b| Value::Int(*b as i128))
            .collect(),
        StrIterKind::Codepoints => s
            .chars()
            .map(|c| Value::Str(c.to_string().into()))
            .collect(),
        // A byte that is no UTF-8 decodes as U+FFFD, as Go's `utf8.DecodeRuneInString`.
        StrIterKind::CodepointOrds => s
            .chars()
            .map(|c| match crate::go_bytes::raw_byte(c) {
                Some(_) => Value::Int(0xfffd),
                None => Value::Int(c as i128),
            })
            .collect(),
    }
}
