//! The assertions of `@ytt:assert` (`min`, `max`, `min_len`, `max_len`, `not_null`,
//! `one_not_null`, `one_of`): values of type `@ytt:assert.assertion` whose `check(value)`
//! returns True or fails saying what it found (`fail: value < 3`). The `@ytt:assert`
//! module hands them out, and the named rules of `@schema/validation` and
//! `@assert/validate` run them, as ytt builds both from the same assertions.
//! Values are compared by their YAML encoding ([`yaml_encode`], shared with
//! `yaml.encode`), so structs and fragments compare as dicts and lists.

use std::rc::Rc;

use crate::yaml::Value as Y;
use crate::ytt::fragment::{Fragment, starlark_to_plain};
use crate::ytt::starlark::ast::BinOp;
use crate::ytt::starlark::{Error as SError, Struct, Value, ops};

type SResult<T> = std::result::Result<T, SError>;

/// A value as one YAML document, as `yaml.encode` prints it: a document holding None
/// prints as nothing at all. A document set prints as ytt prints its output: the
/// documents that would be printed, `---` between them.
pub fn yaml_encode(v: &Value) -> SResult<String> {
    if let Value::Host(h) = v
        && let Some(docs) = h
            .as_any()
            .downcast_ref::<Fragment>()
            .and_then(|f| f.doc_set())
    {
        let values: Vec<Y> = docs
            .iter()
            .filter(|d| d.printed())
            .map(|d| d.value.to_value())
            .collect();
        return crate::yaml::to_yaml_documents(&values).map_err(|e| SError::new(e.to_string()));
    }
    let plain = starlark_to_plain(v)?;
    if plain == Y::Null {
        return Ok(String::new());
    }
    crate::yaml::to_yaml_document(&plain).map_err(|e| SError::new(e.to_string()))
}

/// The failure of an assertion, as Starlark's `fail()` words it.
pub fn fail(msg: String) -> SError {
    SError::new(format!("fail: {msg}"))
}

// The assertions behind the named rules of `@schema/validation` and
/// `@assert/validate`, as ytt builds them from its `@ytt:assert` module: each is a
/// `@ytt:assert.assertion` value whose `check` returns True or fails.
/// `assert.min(bound)`.
pub fn min(bound: &Value) -> SResult<Value> {
    bound_assertion(bound, BinOp::Ge, "<")
}

/// `assert.max(bound)`.
pub fn max(bound: &Value) -> SResult<Value> {
    bound_assertion(bound, BinOp::Le, ">")
}

/// `assert.min_len(n)` (`min`) or `assert.max_len(n)`.
pub fn len_bound(n: i128, min: bool) -> Value {
    len_assertion(n, min)
}

/// `assert.not_null()`.
pub fn not_null() -> Value {
    assertion(not_null_check)
}

/// `assert.one_not_null(keys)`; `None` checks every key.
pub fn one_not_null(keys: Option<&Value>) -> SResult<Value> {
    one_not_null_assertion(keys)
}

/// `assert.one_of(seq)`.
pub fn one_of(seq: &Value) -> SResult<Value> {
    one_of_assertion(seq)
}

/// An assertion value: `check(value)` runs `check` and returns True.
pub fn assertion(check: impl Fn(&Value) -> SResult<()> + 'static) -> Value {
    let check = Rc::new(check);
    let f = Value::native("check", move |_t, a| {
        let v = a.positional("check", 1, 1)?;
        check(v[0].as_ref().expect("value"))?;
        Ok(Value::Bool(true))
    });
    Value::host(Struct::typed(
        "@ytt:assert.assertion",
        None,
        vec![("check".into(), f)],
    ))
}

/// `yaml.decode(yaml.encode(v))`, through which ytt's assertions compare values (so
/// structs and fragments compare as dicts and lists).
pub fn yaml_roundtrip(v: &Value) -> SResult<Value> {
    let text = yaml_encode(v)?;
    let ds = crate::yaml::parse_document_set(&text, "yaml.decode")
        .map_err(|e| SError::new(e.message.clone()))?;
    let plain = ds
        .docs
        .iter()
        .find(|d| !d.injected)
        .map(|d| d.value.to_value())
        .unwrap_or(crate::yaml::Value::Null);
    Ok(crate::ytt::fragment::plain_to_starlark(&plain))
}

/// `x op bound` (`>=` for min, `<=` for max) on the YAML round trips, with Starlark's
/// comparison errors.
fn within(x: &Value, op: BinOp, bound: &Value) -> SResult<bool> {
    Ok(matches!(
        ops::binary(op, &yaml_roundtrip(x)?, bound)?,
        Value::Bool(true)
    ))
}

fn length(x: &Value) -> SResult<usize> {
    x.len()
        .ok_or_else(|| SError::new(format!("len: value of type {} has no len", x.type_name())))
}

/// A Starlark sequence (what ytt's `starlark.Sequence` accepts): iterable with a length.
pub fn is_sequence(v: &Value) -> bool {
    !matches!(v, Value::Str(_)) && v.len().is_some() && crate::ytt::fragment::items_of(v).is_ok()
}

/// The assertion of `assert.min(b)` (`op` `>=`, `sign` `<`) or `assert.max(b)`.
pub fn bound_assertion(bound: &Value, op: BinOp, sign: &'static str) -> SResult<Value> {
    let b = yaml_roundtrip(bound)?;
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
}

fn len_assertion(n: i128, min: bool) -> Value {
    assertion(move |x| {
        let len = length(x)? as i128;
        if (min && len >= n) || (!min && len <= n) {
            Ok(())
        } else {
            Err(fail(format!("length = {len}")))
        }
    })
}

pub fn not_null_check(x: &Value) -> SResult<()> {
    match x {
        Value::None => Err(fail("value is null".into())),
        _ => Ok(()),
    }
}

fn one_not_null_assertion(keys: Option<&Value>) -> SResult<Value> {
    let keys: Option<Vec<Value>> = match keys {
        None => None,
        Some(k) => {
            let (ks, _guard) = crate::ytt::fragment::items_of(k)?;
            Some(ks.iter().map(yaml_roundtrip).collect::<SResult<_>>()?)
        }
    };
    Ok(assertion(move |x| {
        let v = yaml_roundtrip(x)?;
        let Value::Dict(d) = &v else {
            return Err(SError::new(format!(
                "check: value must be a map or dict, but was '{}'",
                v.type_name()
            )));
        };
        let dict_keys: Vec<Value> = crate::ytt::fragment::items_of(&v)?.0;
        let wanted = keys.clone().unwrap_or_else(|| dict_keys.clone());
        let mut not_nulls = Vec::new();
        for key in wanted {
            // A key the value lacks counts as null (the schema reports it).
            match d.get(&key)? {
                None | Some(Value::None) => {}
                Some(_) => not_nulls.push(key),
            }
        }
        match not_nulls.len() {
            1 => Ok(()),
            0 if dict_keys.is_empty() => Err(SError::new("check: value is empty")),
            0 => Err(SError::new("check: all values are null")),
            _ => Err(SError::new(format!(
                "check: {} are not null",
                crate::ytt::starlark::repr(&Value::list(not_nulls))
            ))),
        }
    }))
}

fn one_of_assertion(enum_value: &Value) -> SResult<Value> {
    let allowed = yaml_roundtrip(enum_value)?;
    Ok(assertion(move |x| {
        let v = yaml_roundtrip(x)?;
        if matches!(ops::binary(BinOp::In, &v, &allowed)?, Value::Bool(true)) {
            Ok(())
        } else {
            Err(fail("not one of allowed values".into()))
        }
    }))
}
