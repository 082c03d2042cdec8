//! Starlark values, the bottom of the interpreter: the [`Value`] enum, mutable containers
//! with freezing and "mutation during iteration" checks, functions closed over their
//! module's environment, the [`HostValue`] trait through which the host adds its own
//! types, the [`Interpreter`] through which natives call back into Starlark, and equality
//! and hashing as in starlark-go (ordering is in `ops.rs`, iteration in `iteration.rs`,
//! text forms in `format.rs`). Integers are `i128` ([`Value::Int`]) and, beyond that
//! range, arbitrary-precision [`BigInt`]s ([`Value::BigInt`], never holding a value that
//! fits `i128`), as starlark-go's ints are unbounded.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::ast::{BinOp, FuncDef};
use super::bigint::BigInt;
use super::error::{Error, Result, bail};
use super::fast_hash::FastMap;
use super::orderedmap::{MapKey, OrderedMap};

/// A native function: receives the interpreter that calls it and the call's arguments.
pub type NativeFn = dyn Fn(&mut dyn Interpreter, &Args) -> Result<Value>;
/// A method of a built-in type, bound to its receiver on attribute access.
pub type MethodFn = fn(&str, &Value, &Args) -> Result<Value>;

#[derive(Clone)]
pub enum Value {
    None,
    Bool(bool),
    Int(i128),
    /// An int outside the `i128` range.
    BigInt(Rc<BigInt>),
    Float(f64),
    Str(Rc<str>),
    List(Rc<List>),
    Tuple(Rc<Tuple>),
    Dict(Rc<Dict>),
    Set(Rc<Set>),
    Range(Range),
    Function(Rc<Function>),
    Builtin(Rc<Builtin>),
    /// `s.elems()`, `s.codepoints()`, `s.elem_ords()`, `s.codepoint_ords()`.
    StrIter(Rc<str>, StrIterKind),
    Host(Rc<dyn HostValue>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrIterKind {
    Elems,
    Codepoints,
    ElemOrds,
    CodepointOrds,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub start: i64,
    pub stop: i64,
    pub step: i64,
}

impl Range {
    pub fn len(&self) -> usize {
        let (start, stop, step) = (self.start as i128, self.stop as i128, self.step as i128);
        let n = if step > 0 && stop > start {
            (stop - 1 - start) / step + 1
        } else if step < 0 && start > stop {
            (start - 1 - stop) / -step + 1
        } else {
            0
        };
        n as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn at(&self, i: usize) -> i128 {
        self.start as i128 + i as i128 * self.step as i128
    }
}

/// The items of a tuple (a vector; its own type so that dropping a deeply nested tuple
/// does not recurse, see `flat_drop.rs`).
#[derive(Default, Clone)]
pub struct Tuple(pub Vec<Value>);

impl std::ops::Deref for Tuple {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

/// A mutable list.
#[derive(Default)]
pub struct List {
    pub items: RefCell<Vec<Value>>,
    frozen: Cell<bool>,
    iterating: Cell<u32>,
}

impl List {
    pub fn new(items: Vec<Value>) -> Self {
        List {
            items: RefCell::new(items),
            frozen: Cell::new(false),
            iterating: Cell::new(0),
        }
    }
    /// Errors unless the list may be mutated (`verb` as in "append to").
    pub fn check_mutable(&self, verb: &str) -> Result<()> {
        if self.frozen.get() {
            bail!("cannot {verb} frozen list");
        }
        if self.iterating.get() > 0 {
            bail!("cannot {verb} list during iteration");
        }
        Ok(())
    }
    pub fn is_frozen(&self) -> bool {
        self.frozen.get()
    }
}

/// A mutable, insertion-ordered dict.
#[derive(Default)]
pub struct Dict {
    pub map: RefCell<OrderedMap<Value, Value>>,
    frozen: Cell<bool>,
    iterating: Cell<u32>,
}

impl Dict {
    pub fn new(map: OrderedMap<Value, Value>) -> Self {
        Dict {
            map: RefCell::new(map),
            frozen: Cell::new(false),
            iterating: Cell::new(0),
        }
    }
    pub fn check_mutable(&self, verb: &str) -> Result<()> {
        if self.frozen.get() {
            bail!("cannot {verb} frozen hash table");
        }
        if self.iterating.get() > 0 {
            bail!("cannot {verb} hash table during iteration");
        }
        Ok(())
    }
    pub fn get(&self, k: &Value) -> Result<Option<Value>> {
        self.map.borrow().get(k)
    }
    pub fn set(&self, k: Value, v: Value) -> Result<()> {
        self.check_mutable("insert into")?;
        self.map.borrow_mut().insert(k, v)
    }
    pub fn len(&self) -> usize {
        self.map.borrow().len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A mutable, insertion-ordered set (values stored as keys of an ordered map).
#[derive(Default)]
pub struct Set {
    pub map: RefCell<OrderedMap<Value, Value>>,
    frozen: Cell<bool>,
    iterating: Cell<u32>,
}

impl Set {
    pub fn insert(&self, v: Value) -> Result<()> {
        if self.frozen.get() {
            bail!("cannot insert into frozen hash table");
        }
        if self.iterating.get() > 0 {
            bail!("cannot insert into hash table during iteration");
        }
        self.map.borrow_mut().insert(v, Value::None)
    }
    pub fn items(&self) -> Vec<Value> {
        self.map.borrow().keys()
    }
}

/// A Starlark function (def or lambda) closed over its module and captured cells.
pub struct Function {
    pub def: Rc<FuncDef>,
    /// Default values by parameter index (None for required parameters).
    pub defaults: Vec<Option<Value>>,
    pub freevars: Vec<Rc<RefCell<Option<Value>>>>,
    pub module: Rc<ModuleEnv>,
}

/// The environment of one executing module: its globals (in definition order), the
/// names its `load` statements bound (not exported) and the host's predeclared names.
pub struct ModuleEnv {
    pub name: std::sync::Arc<str>,
    pub globals: RefCell<OrderedGlobals>,
    pub loaded: RefCell<FastMap<String, Value>>,
    pub predeclared: Rc<Env>,
}

/// Module globals in the order they were first assigned.
#[derive(Default)]
pub struct OrderedGlobals {
    pub map: FastMap<String, Value>,
    pub order: Vec<String>,
}

impl OrderedGlobals {
    pub fn set(&mut self, name: &str, v: Value) {
        if self.map.insert(name.to_string(), v).is_none() {
            self.order.push(name.to_string());
        }
    }
}

/// Names the host supplies to a module (natives, host values, constants).
pub type Env = FastMap<String, Value>;

/// A native function or a method bound to its receiver.
pub struct Builtin {
    pub name: String,
    pub kind: BuiltinKind,
}

pub enum BuiltinKind {
    Native(Rc<NativeFn>),
    Method(MethodFn, Value),
}

impl Builtin {
    pub fn receiver(&self) -> Option<&Value> {
        match &self.kind {
            BuiltinKind::Method(_, r) => Some(r),
            BuiltinKind::Native(_) => None,
        }
    }
}

/// The running interpreter as a native function sees it (the evaluator's `Thread`
/// implements it, in `call.rs`): natives and host values call back into Starlark through
/// it (`sorted`'s `key=`, ytt's overlay matchers) without depending on the evaluator.
pub trait Interpreter {
    /// Calls a callable value (function, native, bound method or host value).
    fn call(&mut self, f: &Value, args: Args) -> Result<Value>;
    /// The current call depth (0 at module top level).
    fn depth(&self) -> usize;
    /// Writes the text of one `print(...)` where the host asked (standard error unless it
    /// asked otherwise).
    fn print(&self, text: &str);
    /// The host state stored under `key` on the running thread, if any.
    fn local(&self, key: &str) -> Option<Rc<dyn Any>>;
}

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
    fn binary(&self, _op: BinOp, _other: &Value, _left: bool) -> Option<Result<Value>> {
        None
    }
    /// Calling the value; None when it is not callable.
    fn call(&self, _interpreter: &mut dyn Interpreter, _args: &Args) -> Option<Result<Value>> {
        None
    }
    /// Called when the module that created the value is frozen.
    fn freeze(&self) {}
    /// For downcasting in natives: `v.as_any().downcast_ref::<T>()`.
    fn as_any(&self) -> &dyn Any;
}

/// Arguments of a call: positional values and keyword pairs in call order.
#[derive(Clone, Default)]
pub struct Args {
    pub pos: Vec<Value>,
    pub kwargs: Vec<(Rc<str>, Value)>,
}

impl Args {
    pub fn new(pos: Vec<Value>) -> Self {
        Args {
            pos,
            kwargs: Vec::new(),
        }
    }

    /// Binds arguments to parameter names as starlark-go's `UnpackArgs`: each spec is a
    /// name, optional when it ends in `?`. Positional arguments fill parameters in order.
    pub fn unpack(&self, fname: &str, spec: &[&str]) -> Result<Vec<Option<Value>>> {
        self.unpack_checked(fname, spec, |_, _| None)
    }

    /// [`Args::unpack`] with the type check `UnpackArgs` makes of each argument as it
    /// binds it: `check(i, v)` says what is wrong with `v` for parameter `i` ("got int,
    /// want iterable"). Positional arguments are checked before any keyword argument is
    /// looked at, so `sorted(1, x=1)` fails on the 1; a parameter is named bare when
    /// given by position and quoted when given by keyword.
    pub fn unpack_checked(
        &self,
        fname: &str,
        spec: &[&str],
        check: impl Fn(usize, &Value) -> Option<String>,
    ) -> Result<Vec<Option<Value>>> {
        let names: Vec<&str> = spec.iter().map(|s| s.trim_end_matches('?')).collect();
        if self.pos.len() > spec.len() {
            bail!(
                "{fname}: got {} arguments, want at most {}",
                self.pos.len(),
                spec.len()
            );
        }
        let mut out: Vec<Option<Value>> = vec![None; spec.len()];
        for (i, v) in self.pos.iter().enumerate() {
            if let Some(e) = check(i, v) {
                bail!("{fname}: for parameter {}: {e}", names[i]);
            }
            out[i] = Some(v.clone());
        }
        for (k, v) in &self.kwargs {
            match names.iter().position(|n| **n == **k) {
                Some(i) => {
                    if out[i].is_some() {
                        bail!(
                            "{fname}: got multiple values for keyword argument {}",
                            super::strconv::quote(k)
                        );
                    }
                    if let Some(e) = check(i, v) {
                        bail!("{fname}: for parameter {}: {e}", super::strconv::quote(k));
                    }
                    out[i] = Some(v.clone());
                }
                None => bail!(
                    "{fname}: unexpected keyword argument {}",
                    super::strconv::quote(k)
                ),
            }
        }
        for (i, s) in spec.iter().enumerate() {
            if out[i].is_none() && !s.ends_with('?') {
                bail!("{fname}: missing argument for {}", names[i]);
            }
        }
        Ok(out)
    }

    /// Positional-only arguments, between `min` and `max` of them (starlark-go's
    /// `UnpackPositionalArgs`).
    pub fn positional(&self, fname: &str, min: usize, max: usize) -> Result<Vec<Option<Value>>> {
        if !self.kwargs.is_empty() {
            bail!("{fname}: unexpected keyword arguments");
        }
        // "at least" and "at most" only when the count may vary.
        let range = if min < max {
            ["at least ", "at most "]
        } else {
            ["", ""]
        };
        if self.pos.len() < min {
            bail!(
                "{fname}: got {} arguments, want {}{min}",
                self.pos.len(),
                range[0]
            );
        }
        if self.pos.len() > max {
            bail!(
                "{fname}: got {} arguments, want {}{max}",
                self.pos.len(),
                range[1]
            );
        }
        let mut out: Vec<Option<Value>> = self.pos.iter().cloned().map(Some).collect();
        out.resize(max, None);
        Ok(out)
    }
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(List::new(items)))
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(Tuple(items)))
    }
    pub fn dict(map: OrderedMap<Value, Value>) -> Value {
        Value::Dict(Rc::new(Dict::new(map)))
    }
    /// A native function value.
    pub fn native(
        name: &str,
        f: impl Fn(&mut dyn Interpreter, &Args) -> Result<Value> + 'static,
    ) -> Value {
        Value::Builtin(Rc::new(Builtin {
            name: name.to_string(),
            kind: BuiltinKind::Native(Rc::new(f)),
        }))
    }
    pub fn host(h: impl HostValue + 'static) -> Value {
        Value::Host(Rc::new(h))
    }

    /// The Starlark type name (`type(x)`).
    pub fn type_name(&self) -> String {
        match self {
            Value::None => "NoneType".into(),
            Value::Bool(_) => "bool".into(),
            Value::Int(_) | Value::BigInt(_) => "int".into(),
            Value::Float(_) => "float".into(),
            Value::Str(_) => "string".into(),
            Value::List(_) => "list".into(),
            Value::Tuple(_) => "tuple".into(),
            Value::Dict(_) => "dict".into(),
            Value::Set(_) => "set".into(),
            Value::Range(_) => "range".into(),
            Value::Function(_) => "function".into(),
            Value::Builtin(_) => "builtin_function_or_method".into(),
            // As starlark-go: the ord forms share the type of their element form.
            Value::StrIter(_, k) => match k {
                StrIterKind::Elems | StrIterKind::ElemOrds => "elems".into(),
                StrIterKind::Codepoints | StrIterKind::CodepointOrds => "codepoints".into(),
            },
            Value::Host(h) => h.type_name(),
        }
    }

    pub fn truth(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.items.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) => !d.is_empty(),
            Value::Set(s) => !s.map.borrow().is_empty(),
            Value::Range(r) => !r.is_empty(),
            Value::Host(h) => h.truth(),
            _ => true,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// An int value from a big integer: `Int` when it fits `i128`.
    pub fn from_bigint(b: BigInt) -> Value {
        match b.to_i128() {
            Some(i) => Value::Int(i),
            None => Value::BigInt(Rc::new(b)),
        }
    }

    /// Any int as a big integer.
    pub fn as_bigint(&self) -> Option<BigInt> {
        match self {
            Value::Int(i) => Some(BigInt::from_i128(*i)),
            Value::BigInt(b) => Some((**b).clone()),
            _ => None,
        }
    }

    /// The integer value (bools are not ints here).
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// Converts to i64 as starlark-go's `AsInt32`-style helpers (error names the type).
    pub fn to_i64(&self) -> Result<i64> {
        match self {
            Value::Int(i) => {
                i64::try_from(*i).map_err(|_| Error::new(format!("int {i} out of range")))
            }
            Value::BigInt(b) => bail!("int {b} out of range"),
            v => bail!("got {}, want int", v.type_name()),
        }
    }

    /// Length of sequences and mappings (`len`), None when the value has none.
    pub fn len(&self) -> Option<usize> {
        Some(match self {
            Value::Str(s) => crate::go_bytes::len(s),
            Value::List(l) => l.items.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Dict(d) => d.len(),
            Value::Set(s) => s.map.borrow().len(),
            Value::Range(r) => r.len(),
            Value::Host(h) => return h.len(),
            _ => return None,
        })
    }

    /// True for empty sequences and mappings.
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Freezes the value and everything reachable from it (with a work list, not
    /// recursion: values may nest deeply).
    pub fn freeze(&self) {
        let mut pending = vec![self.clone()];
        while let Some(v) = pending.pop() {
            match &v {
                Value::List(l) if !l.frozen.replace(true) => {
                    pending.extend(l.items.borrow().iter().cloned());
                }
                Value::Dict(d) if !d.frozen.replace(true) => {
                    for (k, v) in d.map.borrow().entries() {
                        pending.push(k.clone());
                        pending.push(v.clone());
                    }
                }
                Value::Set(s) => s.frozen.set(true),
                Value::Tuple(t) => pending.extend(t.iter().cloned()),
                Value::Function(f) => {
                    pending.extend(f.defaults.iter().flatten().cloned());
                    for c in &f.freevars {
                        if let Some(v) = c.borrow().as_ref() {
                            pending.push(v.clone());
                        }
                    }
                }
                Value::Builtin(b) => {
                    if let Some(r) = b.receiver() {
                        pending.push(r.clone());
                    }
                }
                Value::Host(h) => h.freeze(),
                _ => {}
            }
        }
    }

    /// Whether two values are the same object (for mutable values) or equal scalars.
    pub fn ptr_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::List(a), Value::List(b)) => Rc::ptr_eq(a, b),
            (Value::Dict(a), Value::Dict(b)) => Rc::ptr_eq(a, b),
            (Value::Set(a), Value::Set(b)) => Rc::ptr_eq(a, b),
            (Value::Function(a), Value::Function(b)) => Rc::ptr_eq(a, b),
            (Value::Builtin(a), Value::Builtin(b)) => Rc::ptr_eq(a, b),
            (Value::Host(a), Value::Host(b)) => std::ptr::addr_eq(Rc::as_ptr(a), Rc::as_ptr(b)),
            _ => false,
        }
    }

    /// How many iterations over this list, dict or set are under way (it may not be
    /// mutated while there are any; see `iteration.rs`); None for other values.
    pub fn iterations(&self) -> Option<&Cell<u32>> {
        match self {
            Value::List(l) => Some(&l.iterating),
            Value::Dict(d) => Some(&d.iterating),
            Value::Set(s) => Some(&s.iterating),
            _ => None,
        }
    }
}

/// A string from Go bytes: strings here are UTF-8 while starlark-go's are byte strings,
/// so bytes that are no UTF-8 are carried as [`crate::go_bytes`] says.
pub fn byte_str(b: &[u8]) -> Rc<str> {
    crate::go_bytes::from_bytes(b).into()
}

pub use super::equality::equals;

/// Dict and set keys: hashed with [`hash_value`] and compared with [`equals`], so an
/// unhashable key fails with "unhashable type: T".
impl MapKey for Value {
    #[inline]
    fn hash_key(&self) -> Result<u64> {
        hash_value(self)
    }
    #[inline]
    fn same_key(&self, other: &Value) -> Result<bool> {
        equals(self, other)
    }
}

/// Hash of a hashable value; "unhashable type: T" otherwise.
pub fn hash_value(v: &Value) -> Result<u64> {
    hash_depth(v, 0)
}

fn hash_depth(v: &Value, depth: usize) -> Result<u64> {
    use std::hash::{Hash, Hasher};
    if depth > super::deep::MAX_VALUE_DEPTH {
        bail!(
            "hash of a value nested too deeply (more than {} levels)",
            super::deep::MAX_VALUE_DEPTH
        );
    }
    // The hash only places keys in dicts and sets (their order is insertion order), so
    // the fast, non-keyed Fx hash serves.
    let mut h = rustc_hash::FxHasher::default();
    match v {
        Value::None => 0u8.hash(&mut h),
        Value::Bool(b) => (*b as i128).hash(&mut h),
        Value::Int(i) => i.hash(&mut h),
        // Hashed as the float it rounds to, so that an equal float hashes alike.
        Value::BigInt(b) => b.to_f64().to_bits().hash(&mut h),
        Value::Float(f) => {
            if f.fract() == 0.0 && f.abs() < 1e38 {
                (*f as i128).hash(&mut h)
            } else {
                f.to_bits().hash(&mut h)
            }
        }
        Value::Str(s) => s.hash(&mut h),
        Value::Tuple(t) => {
            for x in t.iter() {
                hash_depth(x, depth + 1)?.hash(&mut h);
            }
        }
        Value::Function(f) => (Rc::as_ptr(f) as usize).hash(&mut h),
        Value::Builtin(b) => (Rc::as_ptr(b) as usize).hash(&mut h),
        Value::Host(x) => return x.hash(),
        // starlark-go's `rangeValue.Hash` and `stringIterable.Hash` word it so.
        Value::Range(_) | Value::StrIter(..) => bail!("unhashable: {}", v.type_name()),
        other => bail!("unhashable type: {}", other.type_name()),
    }
    Ok(h.finish())
}
