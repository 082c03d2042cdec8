//! Deeply nested values: the depth that recursive walks of a value (printing, ordering,
//! hashing, conversion to YAML) may reach, and dropping nested lists, tuples and dicts
//! without recursion, so that a value a loop nested a million levels deep is refused
//! with an error instead of overflowing the stack.

use std::rc::Rc;

use super::value::{Dict, List, Tuple, Value};

/// Levels of nested lists, tuples, dicts and structs that a walk of a value goes down
/// before it fails (or, for `str`/`repr`, prints `...`). starlark-go recurses without a
/// bound (Go stacks grow to 1 GB; ytt then dies); YAML input stops at
/// [`crate::yaml::MAX_NESTING`] levels, so this leaves room for data nested inside a
/// template and still fits the smallest stack a render runs on.
pub const MAX_VALUE_DEPTH: usize = 1000;

thread_local! {
    static LEVEL: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of a walk that host values re-enter (printing a struct prints its fields
/// with a new call): the depth is kept per OS thread. `None` past [`MAX_VALUE_DEPTH`].
pub struct Level(());

impl Level {
    pub fn enter() -> Option<Level> {
        LEVEL.with(|l| {
            let depth = l.get();
            if depth >= MAX_VALUE_DEPTH {
                return None;
            }
            l.set(depth + 1);
            Some(Level(()))
        })
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        LEVEL.with(|l| l.set(l.get() - 1));
    }
}

/// Whether dropping `v` may drop further containers.
fn is_container(v: &Value) -> bool {
    matches!(v, Value::List(_) | Value::Tuple(_) | Value::Dict(_))
}

/// Drops `items` and the containers only they hold, one at a time from a work list.
fn drop_flat(mut pending: Vec<Value>) {
    while let Some(v) = pending.pop() {
        match v {
            Value::List(l) => {
                if let Ok(list) = Rc::try_unwrap(l) {
                    pending.append(&mut list.items.take());
                }
            }
            Value::Tuple(t) => {
                if let Ok(mut tuple) = Rc::try_unwrap(t) {
                    pending.append(&mut tuple.0);
                }
            }
            Value::Dict(d) => {
                if let Ok(dict) = Rc::try_unwrap(d) {
                    for (k, v) in dict.map.take().into_entries() {
                        pending.push(k);
                        pending.push(v);
                    }
                }
            }
            _ => {}
        }
    }
}

impl Drop for List {
    fn drop(&mut self) {
        let items = self.items.get_mut();
        if items.iter().any(is_container) {
            drop_flat(std::mem::take(items));
        }
    }
}

impl Drop for Tuple {
    fn drop(&mut self) {
        if self.0.iter().any(is_container) {
            drop_flat(std::mem::take(&mut self.0));
        }
    }
}

impl Drop for Dict {
    fn drop(&mut self) {
        let map = self.map.get_mut();
        if map
            .entries()
            .iter()
            .any(|(k, v)| is_container(k) || is_container(v))
        {
            let entries = std::mem::take(map).into_entries();
            drop_flat(entries.into_iter().flat_map(|(k, v)| [k, v]).collect());
        }
    }
}
