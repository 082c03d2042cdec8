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
use crate::ytt::starlark::{Args, Env, Error as SError, Struct, Thread, Value};

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
    Ok(bound_assertion(bound, true))
}

/// `assert.max(bound)`.
pub fn max(bound: &Value) -> SResult<Value> {
    Ok(bound_assertion(bound, false))
}

/// `assert.min_len(n)` (`min`) or `assert.max_len(n)`.
pub fn len_bound(n: i128, min: bool) -> Value {
    len_assertion(n, min)
}

/// `assert.not_null()`.
pub fn not_null() -> Value {
    from_source(
        "assert.not_null",
        "lambda value: value != None or fail(\"value is null\")",
        vec![],
    )
}

/// `assert.one_not_null(keys)`; `None` checks every key.
pub fn one_not_null(keys: Option<&Value>) -> SResult<Value> {
    one_not_null_assertion(keys)
}

/// `assert.one_of(seq)`.
pub fn one_of(seq: &Value) -> SResult<Value> {
    Ok(from_source(
        "assert.one_of",
        "lambda val: yaml.decode(yaml.encode(val)) in yaml.decode(yaml.encode(enum)) or fail(\"not one of allowed values\")",
        vec![("enum", seq.clone()), ("yaml", yaml_value())],
    ))
}

/// The `yaml` value of `@ytt:yaml` (`encode` and `decode`), which the checks of ytt's
/// assertions call too.
pub fn yaml_value() -> Value {
    let one_arg = |fname: &str, args: &Args| -> SResult<Value> {
        match args.pos.as_slice() {
            [v] => Ok(v.clone()),
            _ => Err(SError::new(format!(
                "{fname}: expected exactly one argument"
            ))),
        }
    };
    let encode = Value::native("yaml.encode", move |_t, args| {
        let v = one_arg("yaml.encode", args)?;
        let s = yaml_encode(&v).map_err(|e| SError::new(format!("yaml.encode: {}", e.msg)))?;
        Ok(Value::str(&s))
    });
    let decode = Value::native("yaml.decode", move |_t, args| {
        let v = one_arg("yaml.decode", args)?;
        let s = v.as_str().ok_or_else(|| {
            SError::new(format!(
                "yaml.decode: expected a string, but was {}",
                v.type_name()
            ))
        })?;
        let ds = crate::yaml::parse_ytt_document_set(s, "yaml.decode", false)
            .map_err(|e| SError::new(format!("yaml.decode: {}", e.message)))?;
        if let Some((key, _)) = ds.first_duplicate_key() {
            return Err(SError::new(format!(
                "yaml.decode: Unexpected duplicate key: {}",
                crate::ytt::go_type::percent_s(&key)
            )));
        }
        let docs: Vec<_> = ds.docs.iter().filter(|d| !d.injected).collect();
        if docs.len() > 1 {
            return Err(SError::new(format!(
                "yaml.decode: Expected to find exactly one YAML document, but found {}",
                docs.len()
            )));
        }
        let v = docs.first().map(|d| d.value.to_value()).unwrap_or(Y::Null);
        Ok(crate::ytt::fragment::plain_to_starlark(&v))
    });
    Value::host(Struct::module(
        "yaml",
        vec![("encode".into(), encode), ("decode".into(), decode)],
    ))
}

/// An assertion whose `check` is the Starlark lambda `src`, evaluated with `env` as its
/// only predeclared names, as ytt's `NewAssertionFromSource` makes the assertions of
/// `min`, `max`, `min_len`, `max_len`, `not_null` and `one_of`: the check is a
/// function named `lambda` (`<function lambda>`), whose parameter is named by the
/// source and whose failures are Starlark's.
fn from_source(name: &str, src: &str, env: Vec<(&str, Value)>) -> Value {
    let name = crate::ytt::error::internal_source(name);
    let mut predeclared = Env::default();
    for (k, v) in env {
        predeclared.insert(k.to_string(), v);
    }
    // The same few sources are made into checks for every validation of a schema:
    // each is parsed and resolved once per thread.
    thread_local! {
        static PREPARED: std::cell::RefCell<
            std::collections::HashMap<String, Rc<crate::ytt::starlark::ast::File>>,
        > = Default::default();
    }
    // Each source comes with one name and one set of predeclared names.
    let key = format!("{name}\0{src}");
    let prepared = PREPARED.with(|cache| {
        if let Some(f) = cache.borrow().get(&key) {
            return Some(f.clone());
        }
        let file = crate::ytt::starlark::prepare_expr(&name, src, &|n| predeclared.contains_key(n))
            .ok()?;
        let file = Rc::new(file);
        cache.borrow_mut().insert(key, file.clone());
        Some(file)
    });
    let check = prepared
        .and_then(|f| {
            Thread::new()
                .eval_prepared_expr(&f, Rc::new(predeclared))
                .ok()
        })
        .unwrap_or(Value::None);
    Value::host(Struct::typed(
        "@ytt:assert.assertion",
        None,
        vec![("check".into(), check)],
    ))
}

/// An assertion value whose `check(value)` is the built-in `name` (ytt's
/// `NewAssertionFromStarlarkFunc`): it runs `check` and returns True.
fn builtin_assertion(name: &str, check: impl Fn(&Value) -> SResult<()> + 'static) -> Value {
    let check = Rc::new(check);
    let f = Value::native(name, move |_t, a| {
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

/// A Starlark sequence (what ytt's `starlark.Sequence` accepts): iterable with a length.
pub fn is_sequence(v: &Value) -> bool {
    !matches!(v, Value::Str(_)) && v.len().is_some() && crate::ytt::fragment::items_of(v).is_ok()
}

/// The assertion of `assert.min(b)` (`min`) or `assert.max(b)`: the bound is compared
/// through its YAML encoding when the check runs.
pub fn bound_assertion(bound: &Value, min: bool) -> Value {
    let (name, src, var) = if min {
        (
            "assert.min",
            "lambda val: yaml.decode(yaml.encode(val)) >= yaml.decode(yaml.encode(min)) or fail(\"value < {}\".format(yaml.decode(yaml.encode(min))))",
            "min",
        )
    } else {
        (
            "assert.max",
            "lambda val: yaml.decode(yaml.encode(val)) <= yaml.decode(yaml.encode(max)) or fail(\"value > {}\".format(yaml.decode(yaml.encode(max))))",
            "max",
        )
    };
    from_source(
        name,
        src,
        vec![(var, bound.clone()), ("yaml", yaml_value())],
    )
}

fn len_assertion(n: i128, min: bool) -> Value {
    let (name, src, var) = if min {
        (
            "assert.min_len",
            "lambda sequence: True if len(sequence) >= minimum else fail (\"length = {}\".format(len(sequence)))",
            "minimum",
        )
    } else {
        (
            "assert.max_len",
            "lambda sequence: True if len(sequence) <= maximum else fail (\"length = {}\".format(len(sequence)))",
            "maximum",
        )
    };
    from_source(name, src, vec![(var, Value::Int(n))])
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
    Ok(builtin_assertion("assert.one_not_null", move |x| {
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
