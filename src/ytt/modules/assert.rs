//! `@ytt:assert`: `fail`, `try_to`, `equals` (values compared by their YAML encoding, so
//! fragments, dicts and structs with the same content are equal), and the assertions
//! `min`, `max`, `min_len`, `max_len`, `not_null`, `one_not_null` and `one_of`, values
//! of type `@ytt:assert.assertion` whose `check(value)` returns True or fails.
//!
//! As in ytt, an error raised by a module function is prefixed with its name
//! (`assert.fail: fail: ...`), while `check` failures are not (`fail: value < 3`).

use std::rc::Rc;

use crate::ytt::fragment::starlark_to_plain;
use crate::ytt::starlark::ast::BinOp;
use crate::ytt::starlark::{Args, Error as SError, Module, Struct, Thread, Value, ops};

use super::codecs::yaml_encode;
use super::{SResult, module, native};

/// A module function whose errors carry its name, as ytt's builtins do.
fn named(name: &'static str, f: impl Fn(&mut Thread, &Args) -> SResult<Value> + 'static) -> Value {
    native(name, move |t, a| {
        f(t, a).map_err(|mut e| {
            e.msg = format!("{name}: {}", e.msg);
            e
        })
    })
}

/// An assertion value: `check(value)` runs `check` and returns True.
fn assertion(check: impl Fn(&Value) -> SResult<()> + 'static) -> Value {
    let check = Rc::new(check);
    let f = native("check", move |_t, a| {
        let v = a.positional("check", 1, 1)?;
        check(v[0].as_ref().expect("value"))?;
        Ok(Value::Bool(true))
    });
    Value::host(Struct {
        type_name: "@ytt:assert.assertion".into(),
        fields: vec![("check".into(), f)],
    })
}

fn fail(msg: String) -> SError {
    SError::new(format!("fail: {msg}"))
}

/// `x op bound` (`>=` for min, `<=` for max), with Starlark's comparison errors.
fn within(x: &Value, op: BinOp, bound: &Value) -> SResult<bool> {
    Ok(matches!(ops::binary(op, x, bound)?, Value::Bool(true)))
}

fn length(x: &Value) -> SResult<usize> {
    x.len()
        .ok_or_else(|| SError::new(format!("value of type {} has no length", x.type_name())))
}

fn equals(_t: &mut Thread, a: &Args) -> SResult<Value> {
    let v = a.positional("equals", 2, 2)?;
    let (x, y) = (v[0].as_ref().expect("a"), v[1].as_ref().expect("b"));
    let (xs, ys) = (yaml_encode(x)?, yaml_encode(y)?);
    if xs == ys {
        return Ok(Value::None);
    }
    Err(SError::new(format!(
        "Not equal:\n(expected type: {})\n{xs}\n\n(was type: {})\n{ys}",
        x.type_name(),
        y.type_name()
    )))
}

fn try_to(t: &mut Thread, a: &Args) -> SResult<Value> {
    let v = a.positional("try_to", 1, 1)?;
    let f = v[0].as_ref().expect("function");
    if !matches!(f, Value::Function(_) | Value::Builtin(_)) {
        return Err(SError::new(format!(
            "expected argument to be a function, but was {}",
            f.type_name()
        )));
    }
    Ok(match t.call(f, Args::default()) {
        Ok(r) => Value::tuple(vec![r, Value::None]),
        Err(e) => Value::tuple(vec![Value::None, Value::str(&e.msg)]),
    })
}

fn bound(name: &'static str, op: BinOp, sign: &'static str) -> Value {
    named(name, move |_t, a| {
        let v = a.positional(name, 1, 1)?;
        let b = v[0].clone().expect("bound");
        Ok(assertion(move |x| {
            if within(x, op, &b)? {
                Ok(())
            } else {
                Err(fail(format!(
                    "value {sign} {}",
                    crate::ytt::starlark::to_str(&b)
                )))
            }
        }))
    })
}

fn len_bound(name: &'static str, min: bool) -> Value {
    named(name, move |_t, a| {
        let v = a.positional(name, 1, 1)?;
        let n = match v[0].as_ref().expect("length") {
            Value::Int(n) => *n,
            other => {
                return Err(SError::new(format!(
                    "expected an int length, but was {}",
                    other.type_name()
                )));
            }
        };
        Ok(assertion(move |x| {
            let len = length(x)? as i128;
            if (min && len >= n) || (!min && len <= n) {
                Ok(())
            } else {
                Err(fail(format!("length = {len}")))
            }
        }))
    })
}

fn not_null_check(x: &Value) -> SResult<()> {
    match x {
        Value::None => Err(fail("value is null".into())),
        _ => Ok(()),
    }
}

fn not_null(_t: &mut Thread, a: &Args) -> SResult<Value> {
    let v = a.positional("not_null", 0, 1)?;
    match &v[0] {
        // `assert.not_null(x)` checks at once.
        Some(x) => {
            not_null_check(x)?;
            Ok(Value::Bool(true))
        }
        None => Ok(assertion(not_null_check)),
    }
}

fn one_not_null(_t: &mut Thread, a: &Args) -> SResult<Value> {
    let v = a.positional("one_not_null", 0, 1)?;
    let keys: Option<Vec<Value>> = match &v[0] {
        Some(k) => Some(crate::ytt::fragment::items_of(k)?.0),
        None => None,
    };
    Ok(assertion(move |x| {
        let crate::yaml::Value::Map(items) = starlark_to_plain(x)? else {
            return Err(SError::new(format!(
                "check: expected a map, but was {}",
                x.type_name()
            )));
        };
        let mut set = Vec::new();
        for (k, v) in &items {
            let key = crate::ytt::fragment::scalar_to_starlark(k);
            let wanted = match &keys {
                None => true,
                Some(ks) => {
                    let mut found = false;
                    for kk in ks {
                        found |= crate::ytt::starlark::value::equals(kk, &key)?;
                    }
                    found
                }
            };
            if wanted && *v != crate::yaml::Value::Null {
                set.push(key);
            }
        }
        match set.len() {
            1 => Ok(()),
            0 => Err(SError::new("check: all values are null")),
            _ => Err(SError::new(format!(
                "check: {} are not null",
                crate::ytt::starlark::repr(&Value::list(set))
            ))),
        }
    }))
}

fn one_of(_t: &mut Thread, a: &Args) -> SResult<Value> {
    let vals: Vec<Value> = if a.pos.len() == 1 {
        crate::ytt::fragment::items_of(&a.pos[0])?.0
    } else {
        a.pos.clone()
    };
    Ok(assertion(move |x| {
        for v in &vals {
            if crate::ytt::starlark::value::equals(v, x)? {
                return Ok(());
            }
        }
        Err(fail(format!(
            "{} not one of allowed values {}",
            crate::ytt::starlark::repr(x),
            crate::ytt::starlark::repr(&Value::list(vals.clone()))
        )))
    }))
}

pub fn assert_module() -> Module {
    module(
        "@ytt:assert",
        vec![
            (
                "fail",
                named("assert.fail", |_t, a| {
                    let v = a.positional("fail", 1, 1)?;
                    Err(fail(crate::ytt::starlark::to_str(
                        v[0].as_ref().expect("message"),
                    )))
                }),
            ),
            ("equals", named("assert.equals", equals)),
            ("try_to", named("assert.try_to", try_to)),
            ("min", bound("assert.min", BinOp::Ge, "<")),
            ("max", bound("assert.max", BinOp::Le, ">")),
            ("min_len", len_bound("assert.min_len", true)),
            ("max_len", len_bound("assert.max_len", false)),
            ("not_null", named("assert.not_null", not_null)),
            ("one_not_null", named("assert.one_not_null", one_not_null)),
            ("one_of", named("assert.one_of", one_of)),
        ],
    )
}
