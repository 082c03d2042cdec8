//! A ready-made host value: [`Struct`], ytt's `struct` type (named fields,
//! `struct.make(...)`, module values). The [`HostValue`] trait through which the
//! embedding program adds its own types is in `value.rs`.

use std::any::Any;

use super::error::{Error, Result};
use super::value::{HostValue, Value};

/// ytt's `struct`: a record of named fields (`struct.make(a=1)`, `struct.encode(...)`,
/// module values such as `data.values`). As in ytt: attribute order is creation order,
/// it prints as `struct(...)`, is truthy when it has fields, is unhashable, compares by
/// identity and is not frozen with its module (ytt's `Freeze` is a no-op). It is also a
/// read-only mapping from field names to values, as ytt's structs are: `s["name"]`,
/// `"name" in s`, `len(s)`, `for name in s` (field order), `dict(s)` and `**s`.
///
/// ytt's own values built on a struct keep printing as `struct(...)` but may name their
/// own type (`@ytt:ip.addr`) and refuse to become YAML with a hint
/// ([`Struct::conversion_hint`]). A `@ytt:*` module is a struct of its members that
/// prints as `<module "name">` and has type `module` ([`Struct::module`]).
pub struct Struct {
    pub type_name: String,
    pub fields: Vec<(String, Value)>,
    /// Why the value cannot be converted to YAML, as ytt words it; None when it can.
    pub conversion_hint: Option<String>,
    /// The name of the module this struct is, if it is one.
    pub module_name: Option<String>,
}

impl Struct {
    pub fn new(fields: Vec<(String, Value)>) -> Self {
        Struct {
            type_name: "struct".into(),
            fields,
            conversion_hint: None,
            module_name: None,
        }
    }
    /// A struct-based value of type `type_name` that ytt will not convert to YAML,
    /// saying `hint` instead.
    pub fn typed(type_name: &str, hint: Option<String>, fields: Vec<(String, Value)>) -> Self {
        Struct {
            type_name: type_name.into(),
            fields,
            conversion_hint: hint,
            module_name: None,
        }
    }
    /// The module `name` with `fields` as its members.
    pub fn module(name: &str, fields: Vec<(String, Value)>) -> Self {
        Struct {
            type_name: "module".into(),
            fields,
            conversion_hint: None,
            module_name: Some(name.into()),
        }
    }
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// A key a struct is indexed or searched with: only a string names a field, and
/// anything else fails as ytt's `StarlarkStruct.Get` fails it (`AsString`).
fn string_key(key: &Value) -> Result<&str> {
    match key {
        Value::Str(k) => Ok(k),
        _ => Err(Error::new(format!(
            "expected a string, but was {}",
            key.type_name()
        ))),
    }
}

impl HostValue for Struct {
    fn type_name(&self) -> String {
        self.type_name.clone()
    }
    fn repr(&self) -> String {
        match &self.module_name {
            Some(name) => format!("<module \"{name}\">"),
            None => "struct(...)".into(),
        }
    }
    fn truth(&self) -> bool {
        self.module_name.is_some() || !self.fields.is_empty()
    }
    fn attr(&self, name: &str) -> Result<Option<Value>> {
        Ok(self.get(name).cloned())
    }
    fn attr_names(&self) -> Vec<String> {
        self.fields.iter().map(|(k, _)| k.clone()).collect()
    }
    /// A struct can be used like a map (`s["k"]`, `len(s)`, `"k" in s`, `for k in s`), as
    /// ytt allows for data values; a module cannot, as in ytt.
    fn index(&self, key: &Value) -> Result<Value> {
        if self.module_name.is_some() {
            return Err(Error::new(format!(
                "unhandled index operation module[{}]",
                key.type_name()
            )));
        }
        match self.get(string_key(key)?) {
            Some(v) => Ok(v.clone()),
            None => Err(Error::new(format!(
                "key {} not in {}",
                super::format::repr(key),
                self.type_name
            ))),
        }
    }
    fn iterate(&self) -> Option<Vec<Value>> {
        self.module_name
            .is_none()
            .then(|| self.fields.iter().map(|(k, _)| Value::str(k)).collect())
    }
    fn len(&self) -> Option<usize> {
        self.module_name.is_none().then_some(self.fields.len())
    }
    fn items(&self) -> Option<Vec<(Value, Value)>> {
        if self.module_name.is_some() {
            return None;
        }
        Some(
            self.fields
                .iter()
                .map(|(k, v)| (Value::str(k), v.clone()))
                .collect(),
        )
    }
    fn contains(&self, key: &Value) -> Option<Result<bool>> {
        if self.module_name.is_some() {
            return None;
        }
        // ytt's struct is a starlark `Mapping`, and `in` ignores the error of its
        // `Get`: a key that is no string is just not there.
        Some(Ok(string_key(key).is_ok_and(|k| self.get(k).is_some())))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
