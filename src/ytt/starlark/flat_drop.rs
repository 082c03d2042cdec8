//! Dropping nested lists, tuples and dicts without recursion: a value that a loop nested
//! a million levels deep is freed from a work list instead of overflowing the stack.

use std::rc::Rc;

use super::value::{Dict, List, Tuple, Value};

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
