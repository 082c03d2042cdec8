//! Equality of values as starlark-go's `Equal` and `EqualDepth` decide it: ints and
//! floats compare numerically, lists, tuples and dicts element by element with no
//! shortcut for a value compared with itself (a list holding a NaN is not equal to
//! itself), and nesting is bounded: starlark-go starts a comparison with a depth of
//! [`MAX_COMPARE_DEPTH`] and fails with "comparison exceeded maximum recursion depth"
//! when an element lies deeper.

use super::error::{Result, bail};
use super::value::Value;

/// starlark-go's `maxdepth`: the depth a comparison starts with. A comparison of
/// values at nesting level `MAX_COMPARE_DEPTH` (the top being level 0) fails.
pub const MAX_COMPARE_DEPTH: u32 = 10;

/// Equality as starlark-go's `Equal` (int == float compares numerically).
pub fn equals(a: &Value, b: &Value) -> Result<bool> {
    equals_depth(a, b, 0)
}

/// Equality of values at nesting `level` of a comparison (starlark-go's `EqualDepth`
/// with a depth of `MAX_COMPARE_DEPTH - level`).
pub fn equals_depth(a: &Value, b: &Value, level: u32) -> Result<bool> {
    if level >= MAX_COMPARE_DEPTH {
        bail!("comparison exceeded maximum recursion depth");
    }
    Ok(match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => {
            super::number_cmp::int_float_cmp(*x, *y) == Some(std::cmp::Ordering::Equal)
        }
        (Value::BigInt(x), Value::BigInt(y)) => x == y,
        (Value::BigInt(_), Value::Int(_)) | (Value::Int(_), Value::BigInt(_)) => false,
        (Value::BigInt(x), Value::Float(y)) | (Value::Float(y), Value::BigInt(x)) => {
            super::number_cmp::bigint_float_cmp(x, *y) == Some(std::cmp::Ordering::Equal)
        }
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::List(x), Value::List(y)) => seq_eq(&x.items.borrow(), &y.items.borrow(), level)?,
        (Value::Tuple(x), Value::Tuple(y)) => seq_eq(x, y, level)?,
        (Value::Dict(x), Value::Dict(y)) => {
            let (xm, ym) = (x.map.borrow(), y.map.borrow());
            if xm.len() != ym.len() {
                return Ok(false);
            }
            for (k, v) in xm.entries() {
                // starlark-go's `dictsEqual` ignores the lookup's error.
                match ym.get(k) {
                    Ok(Some(v2)) if equals_depth(v, &v2, level + 1)? => {}
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
                if !matches!(ym.get(&k), Ok(Some(_))) {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Range(x), Value::Range(y)) => {
            let (n, m) = (x.len(), y.len());
            n == m && (n == 0 || (x.start == y.start && (n == 1 || x.step == y.step)))
        }
        // A string iterable is a Go struct compared by value: same string, same kind.
        (Value::StrIter(s, k), Value::StrIter(t, l)) => s == t && k == l,
        (Value::Host(x), _) => return x.equals(b),
        (_, Value::Host(y)) => return y.equals(a),
        _ => a.ptr_eq(b),
    })
}

/// starlark-go's `sliceCompare` for `==`: lengths first, then element by element.
fn seq_eq(x: &[Value], y: &[Value], level: u32) -> Result<bool> {
    if x.len() != y.len() {
        return Ok(false);
    }
    for (a, b) in x.iter().zip(y) {
        if !equals_depth(a, b, level + 1)? {
            return Ok(false);
        }
    }
    Ok(true)
}
