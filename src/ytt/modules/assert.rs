//! `@ytt:assert`: `fail`, `try_to`, `equals` (values compared by their YAML encoding, so
//! fragments, dicts and structs with the same content are equal), and the assertions
//! `min`, `max`, `min_len`, `max_len`, `not_null`, `one_not_null` and `one_of`, values
//! of type `@ytt:assert.assertion` whose `check(value)` returns True or fails.
//!
//! As in ytt, an error raised by a module function is prefixed with its name
//! (`assert.fail: fail: ...`), while `check` failures are not (`fail: value < 3`).

use crate::ytt::starlark::{Args, Error as SError, Interpreter, Module, Value};

use super::{SResult, module, native};
use crate::ytt::assertions::{self, fail, is_sequence, not_null_check, yaml_encode};
use crate::ytt::overlay::go_type;

/// A module function whose errors carry its name, as ytt's builtins do.
fn named(
    name: &'static str,
    f: impl Fn(&mut dyn Interpreter, &Args) -> SResult<Value> + 'static,
) -> Value {
    native(name, move |t, a| {
        f(t, a).map_err(|mut e| {
            e.msg = format!("{name}: {}", e.msg);
            e
        })
    })
}

/// ytt's count check: "got 3 arguments, want 1" (`at_most`: "want at most 1").
fn arg_count(a: &Args, want: usize, at_most: bool) -> SResult<()> {
    let n = a.pos.len();
    if (at_most && n <= want) || (!at_most && n == want) {
        return Ok(());
    }
    let range = if at_most { "at most " } else { "" };
    Err(SError::new(format!(
        "got {n} arguments, want {range}{want}"
    )))
}

fn is_callable(v: &Value) -> bool {
    matches!(v, Value::Function(_) | Value::Builtin(_))
}

fn equals(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    arg_count(a, 2, false)?;
    let (x, y) = (&a.pos[0], &a.pos[1]);
    for v in [x, y] {
        if is_callable(v) {
            return Err(SError::new(format!(
                "expected argument not to be a function, but was {}",
                go_type::of_starlark(v)
            )));
        }
    }
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

fn try_to(t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    arg_count(a, 1, false)?;
    let f = &a.pos[0];
    if !matches!(f, Value::Function(_) | Value::Builtin(_) | Value::Host(_)) {
        return Err(SError::new(format!(
            "expected argument to be a function, but was {}",
            go_type::of_starlark(f)
        )));
    }
    Ok(match t.call(f, Args::default()) {
        Ok(r) => Value::tuple(vec![r, Value::None]),
        Err(e) => Value::tuple(vec![Value::None, Value::str(&e.msg)]),
    })
}

fn bound(name: &'static str, min: bool) -> Value {
    named(name, move |_t, a| {
        arg_count(a, 1, false)?;
        Ok(assertions::bound_assertion(&a.pos[0], min))
    })
}

fn len_bound(name: &'static str, min: bool) -> Value {
    named(name, move |_t, a| {
        arg_count(a, 1, false)?;
        // Starlark's NumberToInt: an int, or a float truncated toward zero.
        let n = match &a.pos[0] {
            Value::Int(n) => *n,
            Value::Float(f) if f.is_finite() => f.trunc() as i128,
            other => {
                return Err(SError::new(format!(
                    "expected value to be an number, but was {}",
                    other.type_name()
                )));
            }
        };
        Ok(assertions::len_bound(n, min))
    })
}

fn not_null(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    arg_count(a, 1, true)?;
    match a.pos.first() {
        // `assert.not_null(x)` checks at once.
        Some(x) => {
            not_null_check(x)?;
            Ok(Value::Bool(true))
        }
        None => Ok(assertions::not_null()),
    }
}

fn one_not_null(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    if a.pos.len() > 1 {
        return Err(SError::new(format!(
            "got {} arguments, want 1",
            a.pos.len()
        )));
    }
    match a.pos.first() {
        None | Some(Value::Bool(true)) => assertions::one_not_null(None),
        Some(Value::Bool(false)) => Err(SError::new("one_not_null() cannot be False")),
        Some(k) if is_sequence(k) => assertions::one_not_null(Some(k)),
        Some(k) => Err(SError::new(format!(
            "expected a sequence of keys, but was a '{}'",
            k.type_name()
        ))),
    }
}

fn one_of(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    if a.pos.is_empty() {
        return Err(SError::new("got 0 arguments, want at least 1"));
    }
    let enum_value = if a.pos.len() == 1 {
        a.pos[0].clone()
    } else {
        Value::tuple(a.pos.clone())
    };
    if !is_sequence(&enum_value) {
        return Err(SError::new(format!(
            "expected a sequence, but was a '{}'",
            enum_value.type_name()
        )));
    }
    assertions::one_of(&enum_value)
}

pub fn assert_module() -> Module {
    module(
        "@ytt:assert",
        vec![
            (
                "fail",
                named("assert.fail", |_t, a| {
                    arg_count(a, 1, false)?;
                    match &a.pos[0] {
                        Value::Str(m) => Err(fail(m.to_string())),
                        other => Err(SError::new(format!(
                            "expected a string, but was {}",
                            other.type_name()
                        ))),
                    }
                }),
            ),
            ("equals", named("assert.equals", equals)),
            ("try_to", named("assert.try_to", try_to)),
            ("min", bound("assert.min", true)),
            ("max", bound("assert.max", false)),
            ("min_len", len_bound("assert.min_len", true)),
            ("max_len", len_bound("assert.max_len", false)),
            ("not_null", named("assert.not_null", not_null)),
            ("one_not_null", named("assert.one_not_null", one_not_null)),
            ("one_of", named("assert.one_of", one_of)),
        ],
    )
}
