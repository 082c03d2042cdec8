//! Overlay matchers (`overlay.all`, `subset`, `index`, `map_key`, `and_op`, `or_op`,
//! `not_op`, plain Starlark functions and the `by="key"` shorthand), `expects` checking,
//! and calls of `via=` functions.

use std::any::Any;

use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::fragment::{node_to_starlark, starlark_to_node, starlark_to_plain};
use crate::ytt::node::{Meta, Node};
use crate::ytt::starlark::{
    Args, Error as SError, HostValue, Interpreter, Value as SValue, Value as V,
};

/// A built-in matcher value.
#[derive(Clone)]
pub enum Matcher {
    All,
    Subset(Value),
    Index(i128),
    MapKey(String),
    And(Vec<SValue>),
    Or(Vec<SValue>),
    Not(SValue),
}

impl Matcher {
    /// The name ytt gives the built-in function this matcher is (`not_op`'s is
    /// `overlay.or_op` in ytt too).
    fn builtin_name(&self) -> &'static str {
        match self {
            Matcher::All => "overlay.all",
            Matcher::Subset(_) => "overlay.subset_matcher",
            Matcher::Index(_) => "overlay.index_matcher",
            Matcher::MapKey(_) => "overlay.map_key_matcher",
            Matcher::And(_) => "overlay.and_op",
            Matcher::Or(_) | Matcher::Not(_) => "overlay.or_op",
        }
    }
}

impl HostValue for Matcher {
    fn type_name(&self) -> String {
        "builtin_function_or_method".into()
    }
    fn repr(&self) -> String {
        format!("<built-in function {}>", self.builtin_name())
    }
    fn call(&self, thread: &mut dyn Interpreter, args: &Args) -> Option<Result<SValue, SError>> {
        Some((|| {
            if args.pos.len() != 3 {
                return Err(SError::new(format!(
                    "{}: expected exactly 3 arguments",
                    self.builtin_name()
                )));
            }
            let left = starlark_to_node(&args.pos[1], &Default::default())?;
            let right = starlark_to_node(&args.pos[2], &Default::default())?;
            let key;
            let call = match &args.pos[0] {
                V::Int(i) if *i >= 0 => MatchCall::Indexed(*i as usize),
                // Anything else is a key, as a map item's matcher gets it.
                other => {
                    key = starlark_to_plain(other).unwrap_or(Value::Null);
                    MatchCall::Keyed(&key)
                }
            };
            self.matches(thread, call, &left, &right)
                .map(SValue::Bool)
                .map_err(|e| SError::new(e.to_string()))
        })())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// What the matcher is asked about: an array item or document (by index) or a map item.
#[derive(Clone, Copy)]
pub enum MatchCall<'a> {
    Indexed(usize),
    Keyed(&'a Value),
}

impl Matcher {
    fn matches(
        &self,
        thread: &mut dyn Interpreter,
        call: MatchCall<'_>,
        left: &Node,
        right: &Node,
    ) -> Result<bool, Error> {
        // ytt calls its matchers as built-in functions, which put their name in front
        // of what they fail with (`overlay.map_key_matcher: Expected ...`).
        self.matches_unnamed(thread, call, left, right)
            .map_err(|e| match self {
                Matcher::Index(_)
                | Matcher::MapKey(_)
                | Matcher::And(_)
                | Matcher::Or(_)
                | Matcher::Not(_) => e.context(self.builtin_name()),
                _ => e,
            })
    }

    fn matches_unnamed(
        &self,
        thread: &mut dyn Interpreter,
        call: MatchCall<'_>,
        left: &Node,
        right: &Node,
    ) -> Result<bool, Error> {
        Ok(match self {
            Matcher::All => true,
            Matcher::Subset(expected) => subset_of_node(expected, left),
            // ytt's index matcher reads its first argument as an int64: an array
            // item's or document's index, or a map item's key, which must be an
            // integer too.
            Matcher::Index(i) => match call {
                MatchCall::Indexed(j) => j as i128 == *i,
                MatchCall::Keyed(Value::Int(k)) => k == i,
                MatchCall::Keyed(_) => return Err(Error::msg("expected starlark.Int")),
            },
            Matcher::MapKey(k) => {
                let (left, right) = (left.view(), right.view());
                let l = map_get(&left, k)?;
                let r = map_get(&right, k)?;
                match (l, r) {
                    (Some(l), Some(r)) => l.to_value() == r.to_value(),
                    _ => {
                        return Err(Error::msg(format!(
                            "Expected to find map item with key '{k}', but did not"
                        )));
                    }
                }
            }
            Matcher::And(ms) => {
                for m in ms {
                    if !call_matcher(thread, m, call, left, right)? {
                        return Ok(false);
                    }
                }
                true
            }
            Matcher::Or(ms) => {
                for m in ms {
                    if call_matcher(thread, m, call, left, right)? {
                        return Ok(true);
                    }
                }
                false
            }
            Matcher::Not(m) => !call_matcher(thread, m, call, left, right)?,
        })
    }
}

/// The value of `key` in map `n` (`None` when absent, which compares like null).
fn map_get<'n>(n: &'n Node, key: &str) -> Result<Option<&'n Node>, Error> {
    match n {
        Node::Map(items) => Ok(items
            .iter()
            .find(|i| matches!(&i.key, Value::String(s) if s == key))
            .map(|i| &i.value)),
        other => Err(Error::msg(format!(
            "Expected value to be map, but was {}",
            go_value_type(other)
        ))),
    }
}

/// The Go type ytt's matchers see a left or right value as (a Starlark value turned
/// back into a Go value: integers are `int64`).
fn go_value_type(n: &Node) -> &'static str {
    match n {
        Node::Scalar(Value::Int(_)) => "int64",
        other => super::go_type::of_node(other),
    }
}

/// [`subset`] against a node tree, without first turning the whole tree into a value
/// (overlays test every document against every matcher).
fn subset_of_node(expected: &Value, actual: &Node) -> bool {
    match (expected, actual) {
        (e, Node::Shared(a)) => subset_of_node(e, &a.0.borrow()),
        (Value::Map(e), Node::Map(a)) => e.iter().all(|(k, ev)| {
            a.iter()
                .find(|item| &item.key == k)
                .is_some_and(|item| subset_of_node(ev, &item.value))
        }),
        (Value::Array(e), Node::Array(a)) => {
            e.len() <= a.len()
                && e.iter()
                    .zip(a.iter())
                    .all(|(ev, item)| subset_of_node(ev, &item.value))
        }
        (e, Node::Scalar(a)) => subset(e, a),
        _ => false,
    }
}

/// ytt's subset rule: maps by key (recursively), arrays position by position (the
/// expected array may be shorter), scalars by equal type and value (`1` is not `1.0`).
pub fn subset(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Map(e), Value::Map(a)) => e.iter().all(|(k, ev)| {
            a.iter()
                .find(|(ak, _)| ak == k)
                .is_some_and(|(_, av)| subset(ev, av))
        }),
        (Value::Array(e), Value::Array(a)) => {
            e.len() <= a.len() && e.iter().zip(a.iter()).all(|(ev, av)| subset(ev, av))
        }
        (e, a) => e == a,
    }
}

/// True for a value ytt can call (a `starlark.Callable`).
pub fn is_callable(v: &SValue) -> bool {
    matches!(
        v,
        SValue::Function(_) | SValue::Builtin(_) | SValue::Host(_)
    )
}

/// Refuses a `by=` that is neither a function nor (except for documents) a string key,
/// as ytt does before matching anything.
pub fn check_matcher_type(by: &SValue, document: bool) -> Result<(), Error> {
    let callable = matches!(
        by,
        SValue::Function(_) | SValue::Builtin(_) | SValue::Host(_)
    );
    if callable || (!document && matches!(by, SValue::Str(_))) {
        return Ok(());
    }
    let wanted = if document {
        "function"
    } else {
        "either string (for map key) or function"
    };
    Err(Error::msg(format!(
        "Expected 'overlay/match' annotation keyword argument 'by' to be {wanted}, but was {}",
        super::go_type::of_starlark(by)
    )))
}

/// Calls matcher `by` (built-in, Starlark function, or a string key shorthand).
pub fn call_matcher(
    thread: &mut dyn Interpreter,
    by: &SValue,
    call: MatchCall<'_>,
    left: &Node,
    right: &Node,
) -> Result<bool, Error> {
    if let SValue::Host(h) = by
        && let Some(m) = h.as_any().downcast_ref::<Matcher>()
    {
        return m.matches(thread, call, left, right);
    }
    if let SValue::Str(k) = by {
        return Matcher::MapKey(k.to_string()).matches(thread, call, left, right);
    }
    let first = match call {
        MatchCall::Indexed(i) => SValue::Int(i as i128),
        MatchCall::Keyed(k) => crate::ytt::fragment::scalar_to_starlark(k),
    };
    let args = Args::new(vec![first, node_to_starlark(left), node_to_starlark(right)]);
    let r = thread
        .call(by, args)
        .map_err(|e| Error::msg(e.msg.clone()))?;
    match r {
        SValue::Bool(b) => Ok(b),
        other => Err(Error::msg(format!(
            "expected starlark.Bool, but was {}",
            super::go_type::of_starlark(&other)
        ))),
    }
}

/// Calls a `via=` function with (left, right) and returns its raw result.
pub fn call_via_raw(
    thread: &mut dyn Interpreter,
    ann: &str,
    via: &SValue,
    left: &Node,
    right: &Node,
    meta: &Meta,
) -> Result<SValue, Error> {
    if !matches!(
        via,
        SValue::Function(_) | SValue::Builtin(_) | SValue::Host(_)
    ) {
        return Err(super::err_at(
            format!(
                "Expected '{ann}' annotation keyword argument 'via' to be function, but was {}",
                super::go_type::of_starlark(via)
            ),
            meta,
        ));
    }
    let args = Args::new(vec![node_to_starlark(left), node_to_starlark(right)]);
    // As in ytt, the function's failure is its message alone: the overlay reports it
    // under the node it was applying, with no call stack.
    thread
        .call(via, args)
        .map_err(|e| Error::msg(e.msg.clone()))
}

/// Calls a `via=` function and converts its result to a node.
pub fn call_via(
    thread: &mut dyn Interpreter,
    ann: &str,
    via: &SValue,
    left: &Node,
    right: &Node,
    meta: &Meta,
) -> Result<Node, Error> {
    let r = call_via_raw(thread, ann, via, left, right, meta)?;
    starlark_to_node(&r, &meta.pos).map_err(|e| crate::ytt::error::starlark_error(&e))
}

/// A plain value for `overlay.subset(...)`'s argument.
pub fn subset_arg(v: &SValue) -> Result<Value, SError> {
    starlark_to_plain(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets() {
        let m = |v: Vec<(&str, Value)>| {
            Value::Map(v.into_iter().map(|(k, v)| (Value::str(k), v)).collect())
        };
        assert!(subset(
            &m(vec![("a", Value::Int(1))]),
            &m(vec![("a", Value::Int(1)), ("b", Value::Null)])
        ));
        assert!(!subset(
            &m(vec![("a", Value::str("1"))]),
            &m(vec![("a", Value::Int(1))])
        ));
        assert!(subset(
            &Value::Array(vec![]),
            &Value::Array(vec![Value::Int(1)])
        ));
    }
}
