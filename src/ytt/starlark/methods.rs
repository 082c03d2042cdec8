//! Methods of lists, dicts and sets (the starlark-go fork in ytt: sets only have
//! `union`). Mutating methods fail on frozen values and during iteration. The update of
//! a dict from arguments is shared with the `dict(...)` builtin.

use std::rc::Rc;

use super::error::{Error, Result, bail};
use super::int_args::int_param;
use super::iteration::iterate;
use super::value::*;

pub const LIST_METHODS: &[&str] = &[
    "append", "clear", "extend", "index", "insert", "pop", "remove",
];
pub const DICT_METHODS: &[&str] = &[
    "clear",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
];
pub const SET_METHODS: &[&str] = &["union"];

pub fn list_method(name: &str) -> Option<MethodFn> {
    Some(match name {
        "append" => list_append,
        "clear" => list_clear,
        "extend" => list_extend,
        "index" => list_index,
        "insert" => list_insert,
        "pop" => list_pop,
        "remove" => list_remove,
        _ => return None,
    })
}

pub fn dict_method(name: &str) -> Option<MethodFn> {
    Some(match name {
        "clear" => dict_clear,
        "get" => dict_get,
        "items" => dict_items,
        "keys" => dict_keys,
        "pop" => dict_pop,
        "popitem" => dict_popitem,
        "setdefault" => dict_setdefault,
        "update" => dict_update,
        "values" => dict_values,
        _ => return None,
    })
}

pub fn set_method(name: &str) -> Option<MethodFn> {
    match name {
        "union" => Some(set_union),
        _ => None,
    }
}

fn named(name: &str, e: Error) -> Error {
    Error::new(format!("{name}: {}", e.msg))
}

fn list_of(v: &Value) -> &Rc<List> {
    match v {
        Value::List(l) => l,
        _ => unreachable!("list receiver"),
    }
}

fn dict_of(v: &Value) -> &Rc<Dict> {
    match v {
        Value::Dict(d) => d,
        _ => unreachable!("dict receiver"),
    }
}

fn list_append(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 1)?;
    let l = list_of(r);
    l.check_mutable("append to").map_err(|e| named(name, e))?;
    l.items.borrow_mut().push(v[0].clone().expect("value"));
    Ok(Value::None)
}

fn list_clear(name: &str, r: &Value, a: &Args) -> Result<Value> {
    a.positional(name, 0, 0)?;
    let l = list_of(r);
    l.check_mutable("clear").map_err(|e| named(name, e))?;
    l.items.borrow_mut().clear();
    Ok(Value::None)
}

fn list_extend(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 1)?;
    let x = v[0].as_ref().expect("iterable");
    let l = list_of(r);
    // The argument is checked to be iterable before the list to be mutable.
    let items = match x {
        Value::List(o) => o.items.borrow().clone(),
        other => match iterate(other) {
            Some((items, _)) => items,
            None => bail!(
                "{name}: for parameter 1: got {}, want iterable",
                other.type_name()
            ),
        },
    };
    l.check_mutable("extend").map_err(|e| named(name, e))?;
    l.items.borrow_mut().extend(items);
    Ok(Value::None)
}

fn list_index(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 3)?;
    let items = list_of(r).items.borrow().clone();
    let (start, end) =
        super::int_args::indices(&v[1], &v[2], items.len()).map_err(|e| named(name, e))?;
    let x = v[0].as_ref().expect("value");
    for (i, item) in items.iter().enumerate().take(end).skip(start) {
        if equals(item, x).map_err(|e| named(name, e))? {
            return Ok(Value::Int(i as i128));
        }
    }
    bail!("{name}: value not in list")
}

fn list_insert(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 2, 2)?;
    let mut i = i128::from(int_param(name, 1, v[0].as_ref().expect("index"))?);
    let l = list_of(r);
    l.check_mutable("insert into").map_err(|e| named(name, e))?;
    let mut items = l.items.borrow_mut();
    let n = items.len() as i128;
    if i < 0 {
        i += n;
    }
    let i = i.clamp(0, n) as usize;
    items.insert(i, v[1].clone().expect("value"));
    Ok(Value::None)
}

fn list_pop(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 0, 1)?;
    let l = list_of(r);
    let n = l.items.borrow().len() as i128;
    let orig = match &v[0] {
        None => n - 1,
        Some(x) => i128::from(int_param(name, 1, x)?),
    };
    let i = if orig < 0 { orig + n } else { orig };
    if i < 0 || i >= n {
        if n == 0 {
            bail!("{name}: index {orig} out of range: empty list");
        }
        bail!("{name}: list index {orig} out of range [{}:{}]", -n, n - 1);
    }
    l.check_mutable("pop from").map_err(|e| named(name, e))?;
    Ok(l.items.borrow_mut().remove(i as usize))
}

fn list_remove(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 1)?;
    let l = list_of(r);
    l.check_mutable("remove from").map_err(|e| named(name, e))?;
    let x = v[0].as_ref().expect("value");
    let items = l.items.borrow().clone();
    for (i, item) in items.iter().enumerate() {
        if equals(item, x).map_err(|e| named(name, e))? {
            l.items.borrow_mut().remove(i);
            return Ok(Value::None);
        }
    }
    bail!("remove: element not found")
}

fn dict_clear(name: &str, r: &Value, a: &Args) -> Result<Value> {
    a.positional(name, 0, 0)?;
    let d = dict_of(r);
    // starlark-go's `dict.clear` returns the hash table's error without its name.
    d.check_mutable("clear")?;
    d.map.borrow_mut().clear();
    Ok(Value::None)
}

fn dict_get(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 2)?;
    match dict_of(r)
        .get(v[0].as_ref().expect("key"))
        .map_err(|e| named(name, e))?
    {
        Some(x) => Ok(x),
        None => Ok(v[1].clone().unwrap_or(Value::None)),
    }
}

fn dict_items(name: &str, r: &Value, a: &Args) -> Result<Value> {
    a.positional(name, 0, 0)?;
    let m = dict_of(r).map.borrow();
    Ok(Value::list(
        m.entries()
            .iter()
            .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
            .collect(),
    ))
}

fn dict_keys(name: &str, r: &Value, a: &Args) -> Result<Value> {
    a.positional(name, 0, 0)?;
    Ok(Value::list(dict_of(r).map.borrow().keys()))
}

fn dict_values(name: &str, r: &Value, a: &Args) -> Result<Value> {
    a.positional(name, 0, 0)?;
    Ok(Value::list(dict_of(r).map.borrow().values()))
}

fn dict_pop(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 2)?;
    let d = dict_of(r);
    let key = v[0].as_ref().expect("key");
    d.check_mutable("delete from").map_err(|e| named(name, e))?;
    match d.map.borrow_mut().remove(key).map_err(|e| named(name, e))? {
        Some(x) => Ok(x),
        None => match &v[1] {
            Some(dflt) => Ok(dflt.clone()),
            None => bail!("{name}: missing key"),
        },
    }
}

fn dict_popitem(name: &str, r: &Value, a: &Args) -> Result<Value> {
    a.positional(name, 0, 0)?;
    let d = dict_of(r);
    let Some((k, v)) = d.map.borrow().first() else {
        bail!("{name}: empty dict")
    };
    d.check_mutable("delete from").map_err(|e| named(name, e))?;
    d.map.borrow_mut().remove(&k)?;
    Ok(Value::tuple(vec![k, v]))
}

fn dict_setdefault(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 2)?;
    let d = dict_of(r);
    let key = v[0].clone().expect("key");
    if let Some(x) = d.get(&key).map_err(|e| named(name, e))? {
        return Ok(x);
    }
    let dflt = v[1].clone().unwrap_or(Value::None);
    d.set(key, dflt.clone()).map_err(|e| named(name, e))?;
    Ok(dflt)
}

fn dict_update(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let d = dict_of(r);
    // Entries are set one by one, as starlark-go's `updateDict` does: those set before
    // a failing one stay set. A frozen dict fails at the first entry set, so `update()`
    // with nothing to set is no mutation.
    update_dict(a, name, &mut |k, v| {
        d.check_mutable("insert into")?;
        d.map.borrow_mut().insert(k, v)
    })?;
    Ok(Value::None)
}

fn set_union(name: &str, r: &Value, a: &Args) -> Result<Value> {
    // starlark-go unpacks an optional iterable ("want at most 1"); without one its
    // `set_union` dereferences nil, which is kept an arity error here.
    if a.pos.is_empty() && a.kwargs.is_empty() {
        bail!("{name}: got 0 arguments, want 1");
    }
    let v = a.positional(name, 0, 1)?;
    let Value::Set(s) = r else {
        unreachable!("set receiver")
    };
    let x = v[0].as_ref().expect("iterable");
    let Some((items, _)) = iterate(x) else {
        bail!(
            "{name}: for parameter 1: got {}, want iterable",
            x.type_name()
        )
    };
    let out = Set::default();
    for item in s.items().into_iter().chain(items) {
        out.insert(item).map_err(|e| named(name, e))?;
    }
    Ok(Value::Set(Rc::new(out)))
}

/// Shared by `dict(...)` and `dict.update(...)`: `set` sets one entry (starlark-go's
/// `SetKey`, which checks whether the dict may be mutated); its errors are named
/// `fname` like every error here.
pub(crate) fn update_dict(
    a: &Args,
    fname: &str,
    set: &mut dyn FnMut(Value, Value) -> Result<()>,
) -> Result<()> {
    if a.pos.len() > 1 {
        bail!("{fname}: got {} arguments, want at most 1", a.pos.len());
    }
    if let Some(src) = a.pos.first() {
        match src {
            Value::Dict(d) => {
                // A copy of the items: the source may be the dict being updated.
                let items = d.map.borrow().to_vec();
                for (k, v) in items {
                    set(k, v).map_err(|e| named(fname, e))?;
                }
            }
            Value::Host(h) if h.items().is_some() => {
                for (k, v) in h.items().unwrap_or_default() {
                    set(k, v).map_err(|e| named(fname, e))?;
                }
            }
            other => {
                let Some((items, _g)) = iterate(other) else {
                    bail!("{fname}: got {}, want iterable", other.type_name())
                };
                for (i, pair) in items.into_iter().enumerate() {
                    let Some((kv, _)) = iterate(&pair) else {
                        bail!(
                            "{fname}: dictionary update sequence element #{i} is not iterable ({})",
                            pair.type_name()
                        )
                    };
                    // A string iterable has no length for starlark-go's `Len`.
                    if matches!(pair, Value::StrIter(..)) {
                        bail!(
                            "{fname}: dictionary update sequence element #{i} has unknown length ({})",
                            pair.type_name()
                        );
                    }
                    if kv.len() != 2 {
                        bail!(
                            "{fname}: dictionary update sequence element #{i} has length {}, want 2",
                            kv.len()
                        );
                    }
                    let mut kv = kv.into_iter();
                    set(kv.next().expect("key"), kv.next().expect("value"))
                        .map_err(|e| named(fname, e))?;
                }
            }
        }
    }
    for (k, v) in &a.kwargs {
        set(Value::Str(k.clone()), v.clone()).map_err(|e| named(fname, e))?;
    }
    // starlark-go's updateDict: a name given twice among the keyword arguments (one of
    // them from `**kwargs`) is an error, after all of them were set.
    for (i, (k, _)) in a.kwargs.iter().enumerate() {
        if a.kwargs[..i].iter().any(|(seen, _)| seen == k) {
            bail!(
                "{fname}: duplicate keyword arg: {}",
                super::strconv::quote(k)
            );
        }
    }
    Ok(())
}
