//! The `yamlfragment` value (what a def with a YAML body returns, and how YAML nodes
//! look to Starlark), `template.replace` markers, and conversions between Starlark
//! values, template nodes and plain YAML values.

use std::any::Any;
use std::cell::{Ref, RefCell};
use std::rc::Rc;

use crate::yaml::Value;
use crate::ytt::node::{ArrayItem, Doc, MapItem, Meta, Node, Pos, Shared};
use crate::ytt::starlark::deep::{Level, MAX_VALUE_DEPTH};
use crate::ytt::starlark::{Error as SError, HostValue, OrderedMap, Struct, Value as SValue};

type SResult<T> = std::result::Result<T, SError>;

/// What a yamlfragment holds.
#[derive(Debug, Clone)]
pub enum Frag {
    /// What a def with a YAML body returns when it builds no node: its value is null,
    /// its length 0, and it is false.
    Nil,
    DocSet(Vec<Doc>),
    Map(Vec<MapItem>),
    Array(Vec<ArrayItem>),
}

/// ytt's `yamlfragment`. ytt's fragment holds a pointer to its nodes, and
/// `overlay.apply` edits the nodes of its left argument in place, so the fragment is a
/// cell that [`Fragment::set`] can refill. A map or array fragment placed as a value is
/// placed as one shared node ([`Fragment::placed`]), the same at every place, which a
/// refill updates too.
#[derive(Debug)]
pub struct Fragment(RefCell<Frag>, RefCell<Option<Shared>>);

/// The value of `template.replace(x)`: its items replace the node it is set on.
#[derive(Clone)]
pub struct Replace(pub SValue);

impl HostValue for Replace {
    fn type_name(&self) -> String {
        "template.replace".into()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What `template.replace(x)` returns once it has replaced the current node (ytt's
/// `StarlarkNoop`): of type `noop`, printed `noop`, false, unhashable. Set as a node's
/// value, it leaves the node as it is.
pub struct Noop;

impl HostValue for Noop {
    fn type_name(&self) -> String {
        "noop".into()
    }
    fn repr(&self) -> String {
        "noop".into()
    }
    fn truth(&self) -> bool {
        false
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The thread-local key under which a file's evaluation hands `@ytt:template` its
/// [`ReplaceHook`].
pub const REPLACE_HOOK: &str = "ytt.template.replace";

/// What `template.replace(x)` calls, bound to the file that loaded `@ytt:template`, as
/// ytt binds the module to its compiled template: replaces the current node of the YAML
/// that file is building (called with the caller's call depth), or answers false when
/// it builds none any more (its evaluation is over, or it is a text template).
pub struct ReplaceHook(pub Box<ReplaceFn>);

/// The function of a [`ReplaceHook`]: the replacing value and the caller's call depth.
pub type ReplaceFn = dyn Fn(&SValue, usize) -> SResult<bool>;

impl Fragment {
    pub fn value(f: Frag) -> SValue {
        SValue::Host(Rc::new(Fragment(RefCell::new(f), RefCell::new(None))))
    }

    /// What the fragment holds now.
    pub fn frag(&self) -> Ref<'_, Frag> {
        self.0.borrow()
    }

    /// Replaces what the fragment holds (ytt's in-place edit of a fragment's nodes): the
    /// places it was put at see the new contents.
    pub fn set(&self, f: Frag) {
        if let Some(cell) = &*self.1.borrow() {
            let n = match &f {
                Frag::Map(items) => Some(Node::Map(items.clone())),
                Frag::Array(items) => Some(Node::Array(items.clone())),
                _ => None,
            };
            if let Some(n) = n {
                *cell.0.borrow_mut() = n;
            }
        }
        *self.0.borrow_mut() = f;
    }

    /// The node a map or array fragment is placed as: one cell for every place (ytt
    /// sets the fragment's own `*yamlmeta.Map` or `*yamlmeta.Array` as the value).
    fn placed(&self) -> Option<Node> {
        if let Some(cell) = &*self.1.borrow() {
            return Some(Node::Shared(cell.clone()));
        }
        self.share_nodes();
        let n = match &*self.frag() {
            Frag::Map(items) => Node::Map(items.clone()),
            Frag::Array(items) => Node::Array(items.clone()),
            _ => return None,
        };
        let cell = Shared::new(n);
        *self.1.borrow_mut() = Some(cell.clone());
        Some(Node::Shared(cell))
    }

    /// Turns the maps and arrays the fragment holds into shared cells (see
    /// [`Node::share_below`]): every place it goes to, and every fragment read out of it,
    /// then holds the same nodes, as in ytt.
    fn share_nodes(&self) {
        match &mut *self.0.borrow_mut() {
            Frag::Nil => {}
            Frag::Map(items) => items.iter_mut().for_each(|i| i.value.share()),
            Frag::Array(items) => items.iter_mut().for_each(|i| i.value.share()),
            Frag::DocSet(docs) => docs.iter_mut().for_each(|d| d.value.share()),
        }
    }

    /// What the fragment holds, its nodes shared with every other place they go to
    /// (`template.replace` splices them).
    pub fn shared_frag(&self) -> Frag {
        self.share_nodes();
        self.frag().clone()
    }

    /// The document set this fragment holds, if it holds one.
    pub fn doc_set(&self) -> Option<Vec<Doc>> {
        match &*self.frag() {
            Frag::DocSet(d) => Some(d.clone()),
            _ => None,
        }
    }

    fn items_as_values(&self) -> Vec<SValue> {
        // What is read out is the fragment's own node, shared.
        self.share_nodes();
        match &*self.frag() {
            Frag::Nil => Vec::new(),
            Frag::Map(items) => items.iter().map(|i| scalar_to_starlark(&i.key)).collect(),
            Frag::Array(items) => items.iter().map(|i| node_to_starlark(&i.value)).collect(),
            Frag::DocSet(docs) => docs.iter().map(|d| node_to_starlark(&d.value)).collect(),
        }
    }
}

impl HostValue for Fragment {
    fn type_name(&self) -> String {
        "yamlfragment".into()
    }
    /// ytt prints the Go type of the wrapped node (`yamlfragment(*yamlmeta.Map)`),
    /// never its contents.
    fn repr(&self) -> String {
        let go_type = match &*self.frag() {
            // No node at all: Go's `%T` of a nil value.
            Frag::Nil => "<nil>",
            Frag::Map(_) => "*yamlmeta.Map",
            Frag::Array(_) => "*yamlmeta.Array",
            Frag::DocSet(_) => "*yamlmeta.DocumentSet",
        };
        format!("yamlfragment({go_type})")
    }
    fn index(&self, key: &SValue) -> SResult<SValue> {
        // What is read out is the fragment's own node, shared.
        self.share_nodes();
        match &*self.frag() {
            Frag::Nil => Err(SError::new(format!(
                "key {} not in yamlfragment",
                key_repr(key)
            ))),
            Frag::Map(items) => {
                let k = starlark_to_scalar(key)?;
                items
                    .iter()
                    .find(|i| i.key == k)
                    .map(|i| node_to_starlark(&i.value))
                    .ok_or_else(|| {
                        SError::new(format!("key {} not in yamlfragment", key_repr(key)))
                    })
            }
            Frag::Array(items) => {
                let i = index_of(key, items.len()).map_err(|e| {
                    non_int_index(key).map_or(e, |t| {
                        SError::new(format!(
                            "yamlfragment.Get: Expected array index to be an int64, but was {t}"
                        ))
                    })
                })?;
                Ok(node_to_starlark(&items[i].value))
            }
            // ytt's message swaps its arguments here: the key comes first, printed with
            // Go's `%s`, and the type named is that of the word "yamlfragment".
            Frag::DocSet(docs) => {
                let i = index_of(key, docs.len()).map_err(|e| {
                    non_int_index(key).map_or(e, |_| {
                        SError::new(format!(
                            "{}.Get: Expected document set index to be an int64, but was string",
                            go_percent_s(key)
                        ))
                    })
                })?;
                Ok(node_to_starlark(&docs[i].value))
            }
        }
    }
    /// A map fragment is a mapping (`**m()`, `dict(m())`).
    fn items(&self) -> Option<Vec<(SValue, SValue)>> {
        // What is read out is the fragment's own node, shared.
        self.share_nodes();
        match &*self.frag() {
            Frag::Map(items) => Some(
                items
                    .iter()
                    .map(|i| (scalar_to_starlark(&i.key), node_to_starlark(&i.value)))
                    .collect(),
            ),
            _ => None,
        }
    }
    /// As in ytt, two fragments cannot be compared; a fragment differs from any other value.
    fn equals(&self, other: &SValue) -> SResult<bool> {
        match other {
            SValue::Host(o) if o.as_any().is::<Fragment>() => {
                Err(SError::new("yamlfragment.CompareSameType: Not implemented"))
            }
            _ => Ok(false),
        }
    }
    fn iterate(&self) -> Option<Vec<SValue>> {
        Some(self.items_as_values())
    }
    fn len(&self) -> Option<usize> {
        Some(match &*self.frag() {
            Frag::Nil => 0,
            Frag::Map(i) => i.len(),
            Frag::Array(i) => i.len(),
            Frag::DocSet(d) => d.len(),
        })
    }
    /// `f[k] = v`: ytt's fragments are read-only (its key assignment is checked first,
    /// for arrays too).
    fn set_index(&self, _key: &SValue, _v: SValue) -> SResult<()> {
        Err(SError::new("yamlfragment.SetKey: Not implemented"))
    }
    /// `x in fragment`: as in ytt, a fragment is a mapping here, so a map fragment looks
    /// the key up and an array or document set fragment an index (`0 in f` is true when
    /// `f` has an item); a lookup that fails (a key of the wrong type) is not found, so a
    /// string is never `in` an array fragment.
    fn contains(&self, key: &SValue) -> Option<SResult<bool>> {
        Some(Ok(match &*self.frag() {
            Frag::Nil => false,
            Frag::Map(items) => match starlark_to_scalar(key) {
                Ok(k) => items.iter().any(|i| i.key == k),
                Err(_) => false,
            },
            Frag::Array(items) => index_of(key, items.len()).is_ok(),
            Frag::DocSet(docs) => index_of(key, docs.len()).is_ok(),
        }))
    }
    fn truth(&self) -> bool {
        self.len().unwrap_or(0) > 0
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn key_repr(v: &SValue) -> String {
    crate::ytt::starlark::repr(v)
}

/// The Go type (`%T`) ytt sees a key of another type than int as, after turning it
/// into a Go value; `None` for an int key.
fn non_int_index(key: &SValue) -> Option<&'static str> {
    match key {
        SValue::Int(_) | SValue::BigInt(_) => None,
        other => go_value_type(other),
    }
}

/// The Go type (`%T`) of the Go value ytt turns a Starlark value into (`int64`,
/// `*orderedmap.Map` for dicts and structs, `[]interface {}` for lists, the node type of
/// a fragment); `None` for values ytt cannot convert.
pub fn go_value_type(v: &SValue) -> Option<&'static str> {
    Some(match v {
        SValue::Int(_) | SValue::BigInt(_) => "int64",
        SValue::None => "<nil>",
        SValue::Bool(_) => "bool",
        SValue::Float(_) => "float64",
        SValue::Str(_) => "string",
        SValue::List(_) | SValue::Tuple(_) | SValue::Set(_) => "[]interface {}",
        SValue::Dict(_) => "*orderedmap.Map",
        SValue::Host(h) => match h
            .as_any()
            .downcast_ref::<Fragment>()
            .map(|f| f.frag())
            .as_deref()
        {
            Some(Frag::Nil) => "<nil>",
            Some(Frag::Map(_)) => "*yamlmeta.Map",
            Some(Frag::Array(_)) => "*yamlmeta.Array",
            Some(Frag::DocSet(_)) => "*yamlmeta.DocumentSet",
            None if h.type_name() == "struct" => "*orderedmap.Map",
            None => return None,
        },
        _ => return None,
    })
}

/// A key as Go's `%s` prints the Go value ytt turns it into (`%!s(bool=true)` for
/// what is not a string).
fn go_percent_s(key: &SValue) -> String {
    match key {
        SValue::Str(s) => s.to_string(),
        SValue::None => "%!s(<nil>)".into(),
        SValue::Bool(b) => format!("%!s(bool={b})"),
        SValue::Float(_) => format!("%!s(float64={})", key_repr(key)),
        other => key_repr(other),
    }
}

/// An array or document set fragment is looked up like a mapping from positions: an
/// index outside `0..len` (negative ones too, as in ytt) is a missing key.
fn index_of(key: &SValue, len: usize) -> SResult<usize> {
    let i = key.as_int().ok_or_else(|| {
        SError::new(format!(
            "unhandled index operation yamlfragment[{}]",
            key.type_name()
        ))
    })?;
    if i < 0 || i >= len as i128 {
        return Err(SError::new(format!("key {i} not in yamlfragment")));
    }
    Ok(i as usize)
}

/// The plain value of a fragment (documents become an array).
pub fn frag_to_value(f: &Frag) -> Value {
    match f {
        Frag::Nil => Value::Null,
        Frag::Map(items) => Node::Map(items.clone()).to_value(),
        Frag::Array(items) => Node::Array(items.clone()).to_value(),
        Frag::DocSet(docs) => Value::Array(docs.iter().map(|d| d.value.to_value()).collect()),
    }
}

/// A YAML scalar as a Starlark value.
pub fn scalar_to_starlark(v: &Value) -> SValue {
    match v {
        Value::Null => SValue::None,
        Value::Bool(b) => SValue::Bool(*b),
        Value::Int(i) => SValue::Int(*i),
        Value::Float(f) => SValue::Float(*f),
        Value::String(s) => SValue::str(s),
        Value::Array(_) | Value::Map(_) => plain_to_starlark(v),
    }
}

/// A node as Starlark sees it inside a fragment: scalars plain, collections as fragments.
pub fn node_to_starlark(n: &Node) -> SValue {
    match n {
        Node::Scalar(v) => scalar_to_starlark(v),
        Node::Map(items) => Fragment::value(Frag::Map(items.clone())),
        Node::Array(items) => Fragment::value(Frag::Array(items.clone())),
        // A fragment of the very node: placing it, or overlaying it, shares it.
        Node::Shared(s) => {
            let f = match &*s.0.borrow() {
                Node::Map(items) => Frag::Map(items.clone()),
                Node::Array(items) => Frag::Array(items.clone()),
                n => return node_to_starlark(n),
            };
            SValue::Host(Rc::new(Fragment(
                RefCell::new(f),
                RefCell::new(Some(s.clone())),
            )))
        }
    }
}

/// A plain value as Starlark data: maps become dicts, arrays lists (`yaml.decode`).
pub fn plain_to_starlark(v: &Value) -> SValue {
    match v {
        Value::Map(items) => {
            let mut m = OrderedMap::new();
            for (k, v) in items {
                // Keys of decoded YAML are scalars, always hashable.
                let _ = m.insert(plain_to_starlark(k), plain_to_starlark(v));
            }
            SValue::dict(m)
        }
        Value::Array(items) => SValue::list(items.iter().map(plain_to_starlark).collect()),
        v => scalar_to_starlark(v),
    }
}

/// A plain value as ytt data values: maps become structs, arrays lists.
pub fn plain_to_struct(v: &Value) -> SValue {
    match v {
        Value::Map(items) => {
            let fields = items
                .iter()
                .map(|(k, v)| (key_string(k), plain_to_struct(v)))
                .collect();
            SValue::host(Struct::new(fields))
        }
        Value::Array(items) => SValue::list(items.iter().map(plain_to_struct).collect()),
        v => scalar_to_starlark(v),
    }
}

/// Checks that every map key in data values `v` is a string, as ytt's `data.values`
/// struct needs (ytt 0.48 crashes on others, such as `on:` read as a YAML 1.1 boolean).
pub fn check_struct_keys(v: &Value) -> SResult<()> {
    fn walk(v: &Value, path: &mut Vec<String>) -> SResult<()> {
        match v {
            Value::Map(items) => {
                for (k, v) in items {
                    let Value::String(name) = k else {
                        let at = if path.is_empty() {
                            "at the top level".to_string()
                        } else {
                            format!("under '{}'", path.join("."))
                        };
                        return Err(SError::new(format!(
                            "Expected data value keys to be strings, but key {} ({}) {at} is not (hint: quote the key in the YAML; unquoted on, off, yes, no, y and n are booleans)",
                            k.to_display_string(),
                            k.type_name(),
                        )));
                    };
                    path.push(name.clone());
                    walk(v, path)?;
                    path.pop();
                }
                Ok(())
            }
            Value::Array(items) => items.iter().try_for_each(|v| walk(v, path)),
            _ => Ok(()),
        }
    }
    walk(v, &mut Vec::new())
}

/// A map key as the string used for struct fields.
pub fn key_string(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        other => other.to_display_string(),
    }
}

/// A Starlark scalar as a YAML scalar (keys, matcher values).
pub fn starlark_to_scalar(v: &SValue) -> SResult<Value> {
    Ok(match v {
        SValue::None => Value::Null,
        SValue::Bool(b) => Value::Bool(*b),
        SValue::Int(i) => {
            if !Value::int_in_range(*i) {
                return Err(SError::new(format!(
                    "not sure how to get int: {i} is outside the 64-bit range and cannot be output"
                )));
            }
            Value::Int(*i)
        }
        SValue::BigInt(b) => {
            return Err(SError::new(format!(
                "not sure how to get int: {b} is outside the 64-bit range and cannot be output"
            )));
        }
        SValue::Float(f) => Value::Float(*f),
        SValue::Str(s) => Value::String(s.to_string()),
        other => {
            return Err(SError::new(format!(
                "expected a scalar map key, but was {}",
                other.type_name()
            )));
        }
    })
}

/// Converts a Starlark value into a node tree; items get position `pos`. A value nested
/// deeper than [`MAX_VALUE_DEPTH`] (or one that contains itself) is refused, so that the
/// walks of the tree (overlays, schema checks, emitting) stay within the stack.
pub fn starlark_to_node(v: &SValue, pos: &Pos) -> SResult<Node> {
    let mut n = to_node(v, pos, false)?;
    n.unshare();
    Ok(n)
}

/// [`starlark_to_node`] for a value a template sets on a node: a map or array fragment
/// in it is placed as the one node the fragment's places share ([`Node::Shared`]), as
/// ytt sets the fragment's own node.
pub fn starlark_to_placed_node(v: &SValue, pos: &Pos) -> SResult<Node> {
    to_node(v, pos, true)
}

fn to_node(v: &SValue, pos: &Pos, share: bool) -> SResult<Node> {
    let Some(_level) = Level::enter() else {
        return Err(too_deep());
    };
    Ok(match v {
        SValue::None
        | SValue::Bool(_)
        | SValue::Int(_)
        | SValue::BigInt(_)
        | SValue::Float(_)
        | SValue::Str(_) => Node::Scalar(starlark_to_scalar(v)?),
        SValue::List(l) => array_node(&l.items.borrow(), pos, share)?,
        SValue::Tuple(t) => array_node(t, pos, share)?,
        SValue::Set(_) => {
            let (items, _g) = items_of(v)?;
            array_node(&items, pos, share)?
        }
        SValue::Dict(d) => dict_node(d, pos, share)?,
        SValue::Host(h) => host_node(h, pos, share)?,
        // ytt converts the kinds above only; a range, a function or a string's
        // elems() stop it with the Go type it had no case for.
        other => return Err(not_convertible(other)),
    })
}

/// ytt's words for a value with no YAML form.
fn not_convertible(v: &SValue) -> SError {
    SError::new(format!(
        "unknown type {} for conversion to go value",
        crate::ytt::go_type::of_starlark(v)
    ))
}

/// A dict as a map node (kept out of [`starlark_to_node`]: its frame is on every level of
/// a deep value's conversion).
#[inline(never)]
fn dict_node(d: &crate::ytt::starlark::value::Dict, pos: &Pos, share: bool) -> SResult<Node> {
    // Converting reads the values only, so the dict stays borrowed meanwhile.
    let map = d.map.borrow();
    let mut items = Vec::with_capacity(map.len());
    for (k, v) in map.entries() {
        items.push(MapItem {
            key: starlark_to_scalar(k)?,
            value: to_node(v, pos, share)?,
            meta: computed_at(pos),
        });
    }
    Ok(Node::Map(items))
}

/// A host value (fragment or struct) as a node; out of [`starlark_to_node`] as [`dict_node`].
#[inline(never)]
fn host_node(h: &Rc<dyn HostValue>, pos: &Pos, share: bool) -> SResult<Node> {
    Ok(if let Some(f) = h.as_any().downcast_ref::<Fragment>() {
        if frag_deeper_than(&f.frag(), MAX_VALUE_DEPTH) {
            return Err(too_deep());
        }
        if share && let Some(n) = f.placed() {
            return Ok(n);
        }
        match &*f.frag() {
            Frag::Nil => Node::Scalar(Value::Null),
            Frag::Map(items) => Node::Map(items.clone()),
            Frag::Array(items) => Node::Array(items.clone()),
            Frag::DocSet(docs) => {
                // A set of documents used as a value: its documents' values in order
                // (ytt only allows this through template.replace).
                if docs.len() == 1 {
                    docs[0].value.clone()
                } else {
                    Node::Array(
                        docs.iter()
                            .map(|d| ArrayItem {
                                value: d.value.clone(),
                                meta: d.meta.clone(),
                            })
                            .collect(),
                    )
                }
            }
        }
    } else if let Some(s) = h.as_any().downcast_ref::<Struct>() {
        if let Some(hint) = &s.conversion_hint {
            return Err(SError::new(format!("Unable to convert value: {hint}")));
        }
        if s.module_name.is_some() {
            return Err(module_not_convertible());
        }
        let mut items = Vec::with_capacity(s.fields.len());
        for (k, v) in &s.fields {
            items.push(MapItem {
                key: Value::String(k.clone()),
                value: to_node(v, pos, share)?,
                meta: computed_at(pos),
            });
        }
        Node::Map(items)
    } else if h.type_name() == "module" {
        return Err(module_not_convertible());
    } else {
        return Err(not_convertible(&SValue::Host(h.clone())));
    })
}

/// ytt's words for a module (`@ytt:json`, a `library.get(...)` instance) used as YAML.
fn module_not_convertible() -> SError {
    SError::new("unknown type *starlarkstruct.Module for conversion to go value")
}

fn too_deep() -> SError {
    SError::new(format!(
        "value nested too deeply to convert to YAML: more than {MAX_VALUE_DEPTH} levels of lists, dicts and structs (or a value that contains itself)"
    ))
}

/// Whether the nodes of a fragment nest deeper than `limit` levels.
fn frag_deeper_than(f: &Frag, limit: usize) -> bool {
    match f {
        Frag::Nil => false,
        Frag::DocSet(docs) => docs.iter().any(|d| node_deeper_than(&d.value, limit)),
        Frag::Map(items) => items.iter().any(|i| node_deeper_than(&i.value, limit)),
        Frag::Array(items) => items.iter().any(|i| node_deeper_than(&i.value, limit)),
    }
}

fn node_deeper_than(n: &Node, limit: usize) -> bool {
    match n {
        Node::Scalar(_) => false,
        _ if limit == 0 => true,
        Node::Map(items) => items.iter().any(|i| node_deeper_than(&i.value, limit - 1)),
        Node::Array(items) => items.iter().any(|i| node_deeper_than(&i.value, limit - 1)),
        Node::Shared(s) => node_deeper_than(&s.0.borrow(), limit),
    }
}

/// The meta of an item made from a Starlark value: its value is computed (an integer
/// in it is an `int64` to ytt, not go-yaml's `int`).
fn computed_at(pos: &Pos) -> Meta {
    let mut meta = Meta::at(pos.clone());
    meta.computed = true;
    meta
}

fn array_node(items: &[SValue], pos: &Pos, share: bool) -> SResult<Node> {
    let mut out = Vec::with_capacity(items.len());
    for v in items {
        out.push(ArrayItem {
            value: to_node(v, pos, share)?,
            meta: computed_at(pos),
        });
    }
    Ok(Node::Array(out))
}

/// A Starlark value as a plain YAML value (for the encoders).
pub fn starlark_to_plain(v: &SValue) -> SResult<Value> {
    Ok(starlark_to_node(v, &Pos::default())?.to_value())
}

/// The items of an iterable as a vector (with the guard that blocks mutation while
/// they are used), or the "not iterable" error.
pub fn items_of(v: &SValue) -> SResult<(Vec<SValue>, crate::ytt::starlark::iteration::IterGuard)> {
    let (it, g) = crate::ytt::starlark::iteration::iterate_or_err(v)?;
    Ok((it.collect(), g))
}

/// ytt's `NewGoFromAST`, which `json.encode` and `toml.encode` run on their argument,
/// panics on a document set fragment anywhere in it (in a list, as a dict value); ytt's
/// builtin wrapper reports the panic as `(p) ...` followed by a Go backtrace. The same
/// first words, and why, in place of the backtrace. Run after the value converted.
pub fn refuse_document_sets(v: &SValue) -> SResult<()> {
    if holds_document_set(v, MAX_VALUE_DEPTH) {
        return Err(SError::new(
            "(p) Unexpected docset value within document (a document set fragment cannot be encoded; ytt 0.48 panics here)",
        ));
    }
    Ok(())
}

fn holds_document_set(v: &SValue, depth: usize) -> bool {
    if depth == 0 {
        return false;
    }
    match v {
        SValue::List(l) => l
            .items
            .borrow()
            .iter()
            .any(|x| holds_document_set(x, depth - 1)),
        SValue::Tuple(t) => t.iter().any(|x| holds_document_set(x, depth - 1)),
        SValue::Dict(d) => d
            .map
            .borrow()
            .entries()
            .iter()
            .any(|(_, x)| holds_document_set(x, depth - 1)),
        SValue::Host(h) => {
            if let Some(f) = h.as_any().downcast_ref::<Fragment>() {
                matches!(*f.frag(), Frag::DocSet(_))
            } else if let Some(s) = h.as_any().downcast_ref::<Struct>() {
                s.fields
                    .iter()
                    .any(|(_, x)| holds_document_set(x, depth - 1))
            } else {
                false
            }
        }
        _ => false,
    }
}
