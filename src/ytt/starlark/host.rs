//! Host values: the [`HostValue`] trait through which the embedding program adds its own
//! types (ytt's struct, yamlfragment, YAML nodes, library handles...), and a ready-made
//! [`Struct`] (ytt's `struct` type: named fields, `struct.make(...)`, module values).

use std::any::Any;

use super::error::{Error, Result};
use super::value::{Args, Value};

/// A value type implemented by the host. Every method has a default, so a type only
/// overrides what it supports; defaults produce starlark-go's error messages.
pub trait HostValue: Any {
    /// `type(x)`.
    fn type_name(&self) -> String;
    /// `str(x)`; defaults to `repr`.
    fn to_str(&self) -> String {
        self.repr()
    }
    /// `repr(x)` and how the value prints inside containers.
    fn repr(&self) -> String {
        format!("<{}>", self.type_name())
    }
    fn truth(&self) -> bool {
        true
    }
    /// `x.name`: Ok(None) means "no such field" (the interpreter reports
    /// "T has no .name field or method").
    fn attr(&self, _name: &str) -> Result<Option<Value>> {
        Ok(None)
    }
    /// `x.name` with the value itself at hand (`this` wraps `self`), for methods that
    /// must hold on to their receiver: `Value::native(..)` closures capturing
    /// `this.clone()`. Defaults to [`HostValue::attr`].
    fn attr_of(&self, this: &Value, name: &str) -> Result<Option<Value>> {
        let _ = this;
        self.attr(name)
    }
    /// Names listed by `dir(x)` and checked by `hasattr`.
    fn attr_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// `x.name = v`.
    fn set_attr(&self, name: &str, _v: Value) -> Result<()> {
        Err(Error::new(format!(
            "can't assign to .{name} field of {}",
            self.type_name()
        )))
    }
    /// `x[key]`.
    fn index(&self, key: &Value) -> Result<Value> {
        Err(Error::new(format!(
            "unhandled index operation {}[{}]",
            self.type_name(),
            key.type_name()
        )))
    }
    /// `x[key] = v`.
    fn set_index(&self, _key: &Value, _v: Value) -> Result<()> {
        Err(Error::new(format!(
            "{} value does not support item assignment",
            self.type_name()
        )))
    }
    /// Items for `for`, `list(x)`, ...; None when not iterable.
    fn iterate(&self) -> Option<Vec<Value>> {
        None
    }
    fn len(&self) -> Option<usize> {
        None
    }
    fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }
    /// Key/value pairs when the value is a mapping: used by `**x` in calls, `dict(x)` and
    /// `d.update(x)`; None when it is not a mapping.
    fn items(&self) -> Option<Vec<(Value, Value)>> {
        None
    }
    /// `key in x`; None when unsupported.
    fn contains(&self, _key: &Value) -> Option<Result<bool>> {
        None
    }
    /// Equality with any value (default: identity).
    fn equals(&self, other: &Value) -> Result<bool> {
        Ok(match other {
            Value::Host(o) => std::ptr::addr_eq(self as *const Self, std::rc::Rc::as_ptr(o)),
            _ => false,
        })
    }
    /// Ordering against `other`; None when unsupported.
    fn compare(&self, _other: &Value) -> Option<Result<std::cmp::Ordering>> {
        None
    }
    fn hash(&self) -> Result<u64> {
        Err(Error::new(format!("unhashable type: {}", self.type_name())))
    }
    /// `x op y` (left) or `y op x` (right, `left == false`); None when unsupported.
    fn binary(&self, _op: super::ast::BinOp, _other: &Value, _left: bool) -> Option<Result<Value>> {
        None
    }
    /// Calling the value; None when it is not callable.
    fn call(&self, _thread: &mut super::Thread, _args: &Args) -> Option<Result<Value>> {
        None
    }
    /// Called when the module that created the value is frozen.
    fn freeze(&self) {}
    /// For downcasting in natives: `v.as_any().downcast_ref::<T>()`.
    fn as_any(&self) -> &dyn Any;
}

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
        let found = match key {
            Value::Str(k) => self.get(k),
            _ => None,
        };
        match found {
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
        Some(Ok(match key {
            Value::Str(k) => self.get(k).is_some(),
            _ => false,
        }))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
