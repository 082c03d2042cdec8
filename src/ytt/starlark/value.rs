//! Starlark values: the [`Value`] enum, mutable containers with freezing and
//! "mutation during iteration" checks, equality, ordering and hashing as in starlark-go.
//! Integers are `i128` ([`Value::Int`]) and, beyond that range, arbitrary-precision
//! [`BigInt`]s ([`Value::BigInt`], never holding a value that fits `i128`), as
//! starlark-go's ints are unbounded.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::ast::FuncDef;
use super::bigint::BigInt;
use super::error::{Error, Result, bail};
use super::eval::ModuleEnv;
use super::host::HostValue;
use super::orderedmap::OrderedMap;

/// A native function: receives the thread and the call's arguments.
pub type NativeFn = dyn Fn(&mut super::Thread, &Args) -> Result<Value>;
/// A method of a built-in type, bound to its receiver on attribute access.
pub type MethodFn = fn(&mut super::Thread, &str, &Value, &Args) -> Result<Value>;

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
/// does not recurse, see [`super::deep`]).
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
    pub map: RefCell<OrderedMap>,
    frozen: Cell<bool>,
    iterating: Cell<u32>,
}

impl Dict {
    pub fn new(map: OrderedMap) -> Self {
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
    pub map: RefCell<OrderedMap>,
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
            out[i] = Some(v.clone());
        }
        for (k, v) in &self.kwargs {
            match names.iter().position(|n| **n == **k) {
                Some(i) => {
                    if out[i].is_some() {
                        bail!(
                            "{fname}: got multiple values for keyword argument {}",
                            super::format::quote(k)
                        );
                    }
                    out[i] = Some(v.clone());
                }
                None => bail!(
                    "{fname}: unexpected keyword argument {}",
                    super::format::quote(k)
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
    pub fn dict(map: OrderedMap) -> Value {
        Value::Dict(Rc::new(Dict::new(map)))
    }
    /// A native function value.
    pub fn native(
        name: &str,
        f: impl Fn(&mut super::Thread, &Args) -> Result<Value> + 'static,
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
}

/// Guard that marks a container as being iterated; mutations fail until it drops.
pub struct IterGuard {
    target: Option<Value>,
}

impl IterGuard {
    fn counter(v: &Value) -> Option<&Cell<u32>> {
        match v {
            Value::List(l) => Some(&l.iterating),
            Value::Dict(d) => Some(&d.iterating),
            Value::Set(s) => Some(&s.iterating),
            _ => None,
        }
    }
}

impl Drop for IterGuard {
    fn drop(&mut self) {
        if let Some(t) = &self.target
            && let Some(c) = IterGuard::counter(t)
        {
            c.set(c.get().saturating_sub(1));
        }
    }
}

/// Items of an iterable value with a guard that blocks mutation while held, or None if
/// the value is not iterable (strings are not iterable in Starlark).
pub fn iterate(v: &Value) -> Option<(Vec<Value>, IterGuard)> {
    let items = match v {
        Value::List(l) => l.items.borrow().clone(),
        Value::Tuple(t) => t.0.clone(),
        Value::Dict(d) => d.map.borrow().keys(),
        Value::Set(s) => s.items(),
        Value::Range(r) => (0..r.len()).map(|i| Value::Int(r.at(i))).collect(),
        Value::StrIter(s, k) => str_iter_items(s, *k),
        Value::Host(h) => return h.iterate().map(|items| (items, IterGuard { target: None })),
        _ => return None,
    };
    if let Some(c) = IterGuard::counter(v) {
        c.set(c.get() + 1);
    }
    Some((
        items,
        IterGuard {
            target: Some(v.clone()),
        },
    ))
}

/// Items of an iterable produced one at a time (ranges are not materialized).
pub enum ValueIter {
    Items(std::vec::IntoIter<Value>),
    Range(Range, usize),
}

impl Iterator for ValueIter {
    type Item = Value;
    fn next(&mut self) -> Option<Value> {
        match self {
            ValueIter::Items(it) => it.next(),
            ValueIter::Range(r, i) => {
                if *i < r.len() {
                    *i += 1;
                    Some(Value::Int(r.at(*i - 1)))
                } else {
                    None
                }
            }
        }
    }
}

/// Items of an iterable for `for` loops and comprehensions, or the starlark-go error
/// "T value is not iterable".
pub fn iterate_or_err(v: &Value) -> Result<(ValueIter, IterGuard)> {
    if let Value::Range(r) = v {
        return Ok((ValueIter::Range(*r, 0), IterGuard { target: None }));
    }
    iterate(v)
        .map(|(items, g)| (ValueIter::Items(items.into_iter()), g))
        .ok_or_else(|| Error::new(format!("{} value is not iterable", v.type_name())))
}

fn str_iter_items(s: &str, k: StrIterKind) -> Vec<Value> {
    match k {
        // One byte each, as Go's strings are bytes (see `crate::go_bytes`).
        StrIterKind::Elems => crate::go_bytes::to_bytes(s)
            .iter()
            .map(|b| Value::Str(byte_str(&[*b])))
            .collect(),
        StrIterKind::ElemOrds => crate::go_bytes::to_bytes(s)
            .iter()
            .map(|b| Value::Int(*b as i128))
            .collect(),
        StrIterKind::Codepoints => s
            .chars()
            .map(|c| Value::Str(c.to_string().into()))
            .collect(),
        // A byte that is no UTF-8 decodes as U+FFFD, as Go's `utf8.DecodeRuneInString`.
        StrIterKind::CodepointOrds => s
            .chars()
            .map(|c| match crate::go_bytes::raw_byte(c) {
                Some(_) => Value::Int(0xfffd),
                None => Value::Int(c as i128),
            })
            .collect(),
    }
}

/// A string from Go bytes: strings here are UTF-8 while starlark-go's are byte strings,
/// so bytes that are no UTF-8 are carried as [`crate::go_bytes`] says.
pub fn byte_str(b: &[u8]) -> Rc<str> {
    crate::go_bytes::from_bytes(b).into()
}

/// Equality as starlark-go's `Equal` (int == float compares numerically).
pub fn equals(a: &Value, b: &Value) -> Result<bool> {
    equals_depth(a, b, 0)
}

fn equals_depth(a: &Value, b: &Value, depth: u32) -> Result<bool> {
    if depth > 100 {
        bail!("comparison exceeded maximum recursion depth");
    }
    Ok(match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => (*x as f64) == *y,
        (Value::BigInt(x), Value::BigInt(y)) => x == y,
        (Value::BigInt(_), Value::Int(_)) | (Value::Int(_), Value::BigInt(_)) => false,
        (Value::BigInt(x), Value::Float(y)) | (Value::Float(y), Value::BigInt(x)) => {
            x.to_f64() == *y
        }
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            if Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            seq_eq(&x.items.borrow(), &y.items.borrow(), depth)?
        }
        (Value::Tuple(x), Value::Tuple(y)) => seq_eq(x, y, depth)?,
        (Value::Dict(x), Value::Dict(y)) => {
            if Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            let (xm, ym) = (x.map.borrow(), y.map.borrow());
            if xm.len() != ym.len() {
                return Ok(false);
            }
            for (k, v) in xm.entries() {
                match ym.get(k)? {
                    Some(v2) if equals_depth(v, &v2, depth + 1)? => {}
                    _ => return Ok(false),
                }
            }
            true
        }
        (Value::Set(x), Value::Set(y)) => {
            let (xm, ym) = (x.map.borrow(), y.map.borrow());
            if xm.len() != ym.len() {
                return Ok(false);
            }
            for k in xm.keys() {
                if ym.get(&k)?.is_none() {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Range(x), Value::Range(y)) => {
            let (n, m) = (x.len(), y.len());
            n == m && (n == 0 || (x.start == y.start && (n == 1 || x.step == y.step)))
        }
        (Value::Host(x), _) => return x.equals(b),
        (_, Value::Host(y)) => return y.equals(a),
        _ => a.ptr_eq(b),
    })
}

fn seq_eq(x: &[Value], y: &[Value], depth: u32) -> Result<bool> {
    if x.len() != y.len() {
        return Ok(false);
    }
    for (a, b) in x.iter().zip(y) {
        if !equals_depth(a, b, depth + 1)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Ordering for `<`, `sorted`, `min`/`max`: numbers, strings (by bytes), bools and
/// sequences of the same type; other pairs fail as in starlark-go.
pub fn compare(a: &Value, b: &Value) -> Result<std::cmp::Ordering> {
    compare_depth(a, b, 0)
}

fn compare_depth(a: &Value, b: &Value, depth: usize) -> Result<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if depth > super::deep::MAX_VALUE_DEPTH {
        bail!("comparison exceeded maximum recursion depth");
    }
    let fail = || {
        Err(Error::new(format!(
            "{} < {} not implemented",
            a.type_name(),
            b.type_name()
        )))
    };
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Ok(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => Ok(x.partial_cmp(y).unwrap_or(Ordering::Equal)),
        (Value::Int(x), Value::Float(y)) => {
            Ok((*x as f64).partial_cmp(y).unwrap_or(Ordering::Equal))
        }
        (Value::Float(x), Value::Int(y)) => {
            Ok(x.partial_cmp(&(*y as f64)).unwrap_or(Ordering::Equal))
        }
        (Value::BigInt(_), Value::Int(_) | Value::BigInt(_))
        | (Value::Int(_), Value::BigInt(_)) => {
            let (x, y) = (a.as_bigint(), b.as_bigint());
            Ok(x.zip(y).map_or(Ordering::Equal, |(x, y)| x.cmp(&y)))
        }
        (Value::BigInt(x), Value::Float(y)) => {
            Ok(x.to_f64().partial_cmp(y).unwrap_or(Ordering::Equal))
        }
        (Value::Float(x), Value::BigInt(y)) => {
            Ok(x.partial_cmp(&y.to_f64()).unwrap_or(Ordering::Equal))
        }
        (Value::Str(x), Value::Str(y)) => Ok(x.as_bytes().cmp(y.as_bytes())),
        (Value::Bool(x), Value::Bool(y)) => Ok(x.cmp(y)),
        (Value::List(x), Value::List(y)) => {
            seq_cmp(&x.items.borrow().clone(), &y.items.borrow().clone(), depth)
        }
        (Value::Tuple(x), Value::Tuple(y)) => seq_cmp(x, y, depth),
        (Value::Host(h), _) => h.compare(b).unwrap_or_else(fail),
        _ => fail(),
    }
}

fn seq_cmp(x: &[Value], y: &[Value], depth: usize) -> Result<std::cmp::Ordering> {
    for (a, b) in x.iter().zip(y) {
        if !equals(a, b)? {
            return compare_depth(a, b, depth + 1);
        }
    }
    Ok(x.len().cmp(&y.len()))
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
        Value::Range(_) => bail!("unhashable: range"),
        other => bail!("unhashable type: {}", other.type_name()),
    }
    Ok(h.finish())
}

impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::format::repr(self))
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::format::to_str(self))
    }
}
