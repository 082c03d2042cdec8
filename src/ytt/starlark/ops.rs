//! Operators on values: unary and binary arithmetic (i128 ints that grow into big ints,
//! floats, Python floor division and modulo), string/list/tuple concatenation and
//! repetition, `in`, comparisons, bitwise and set operators, indexing, slicing and
//! attribute access (methods of built-in types, fields of host values).

use std::cmp::Ordering;
use std::rc::Rc;

use super::bigint::BigInt;

use super::ast::{BinOp, UnaryOp};
use super::error::{Error, Result, bail};
use super::format::{interpolate, repr};
use super::orderedmap::OrderedMap;
use super::value::*;

fn overflow() -> Error {
    Error::new("integer overflow")
}

pub fn unary(op: UnaryOp, x: &Value) -> Result<Value> {
    match (op, x) {
        (UnaryOp::Not, _) => return Ok(Value::Bool(!x.truth())),
        (UnaryOp::Neg, Value::Int(i)) => {
            return Ok(match i.checked_neg() {
                Some(n) => Value::Int(n),
                None => Value::from_bigint(BigInt::from_i128(*i).neg()),
            });
        }
        (UnaryOp::Neg, Value::BigInt(b)) => return Ok(Value::from_bigint(b.neg())),
        (UnaryOp::Invert, Value::BigInt(b)) => return Ok(Value::from_bigint(b.not())),
        (UnaryOp::Plus, Value::BigInt(_)) => return Ok(x.clone()),
        (UnaryOp::Neg, Value::Float(f)) => return Ok(Value::Float(-f)),
        (UnaryOp::Plus, Value::Int(_) | Value::Float(_)) => return Ok(x.clone()),
        (UnaryOp::Invert, Value::Int(i)) => return Ok(Value::Int(!i)),
        _ => {}
    }
    let sym = match op {
        UnaryOp::Neg => "-",
        UnaryOp::Plus => "+",
        UnaryOp::Invert => "~",
        UnaryOp::Not => "not",
    };
    bail!("unknown unary op: {sym} {}", x.type_name())
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::BigInt(b) => Some(b.to_f64()),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn floor_div(a: i128, b: i128) -> Result<i128> {
    let q = a.checked_div(b).ok_or_else(overflow)?;
    Ok(if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

fn floor_mod(a: i128, b: i128) -> i128 {
    let r = a.checked_rem(b).unwrap_or(0);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}

/// The count of a repetition (`s * n`, `[x] * n`) of a sequence of `len` elements, as
/// starlark-go's `tupleRepeat`/`stringRepeat`: an empty sequence stays empty whatever
/// the count, a count past 32 bits is "too large", one below 1 gives nothing, and a
/// result of 2^30 elements or more is refused.
fn repeat_count(len: usize, n: &Value) -> Result<usize> {
    if len == 0 {
        return Ok(0);
    }
    let Ok(i) = super::int_args::as_int32(n) else {
        bail!("repeat count {} too large", super::format::repr(n));
    };
    if i < 1 {
        return Ok(0);
    }
    let size = len as i64 * i;
    if size >= 1 << 30 {
        bail!("excessive repeat ({size} elements)");
    }
    Ok(i as usize)
}

fn repeat(items: &[Value], n: &Value) -> Result<Vec<Value>> {
    let n = repeat_count(items.len(), n)?;
    let mut out = Vec::with_capacity(items.len() * n);
    for _ in 0..n {
        out.extend_from_slice(items);
    }
    Ok(out)
}

/// `a + b` as a new string, made in a reused buffer so that only the result is allocated.
fn concat(a: &str, b: &str) -> Rc<str> {
    // Bytes carried apart (see `crate::go_bytes`) may join into characters.
    if b.as_bytes().first() == Some(&0xf4) && crate::go_bytes::has_raw(a) {
        return Rc::from(crate::go_bytes::normalized(&format!("{a}{b}")).as_ref());
    }
    thread_local! {
        static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    BUFFER.with_borrow_mut(|buf| {
        buf.clear();
        buf.push_str(a);
        buf.push_str(b);
        let joined = Rc::from(buf.as_str());
        if buf.capacity() > 1 << 16 {
            // A large result leaves no large buffer behind.
            *buf = String::new();
        }
        joined
    })
}

/// `x op y` for every operator except `and`/`or`.
pub fn binary(op: BinOp, x: &Value, y: &Value) -> Result<Value> {
    use Value::*;
    if ((matches!(x, BigInt(_)) && matches!(y, Int(_) | BigInt(_)))
        || (matches!(x, Int(_)) && matches!(y, BigInt(_))))
        && !matches!(op, BinOp::Shl | BinOp::Shr)
        && let Some(r) = big_binary(op, x, y)
    {
        return r;
    }
    let r = match op {
        BinOp::Eq => return Ok(Bool(equals(x, y)?)),
        // starlark-go's `CompareDepth` answers False to every comparison of an int
        // with a NaN float, `!=` included.
        BinOp::Ne => return Ok(Bool(!equals(x, y)? && !int_against_nan(x, y))),
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge => return ordered(op, x, y),
        BinOp::In => return contains(y, x).map(Bool),
        BinOp::NotIn => return contains(y, x).map(|b| Bool(!b)),
        BinOp::Add => match (x, y) {
            (Int(a), Int(b)) => Some(match a.checked_add(*b) {
                Some(v) => Int(v),
                Option::None => big_int_op(op, x, y)?,
            }),
            (Str(a), Str(b)) => Some(Str(concat(a, b))),
            (List(a), List(b)) => {
                let mut v = a.items.borrow().clone();
                v.extend(b.items.borrow().iter().cloned());
                Some(Value::list(v))
            }
            (Tuple(a), Tuple(b)) => Some(Value::tuple(a.iter().chain(b.iter()).cloned().collect())),
            _ => float_op(x, y, |a, b| Ok(a + b))?,
        },
        BinOp::Sub => match (x, y) {
            (Int(a), Int(b)) => Some(match a.checked_sub(*b) {
                Some(v) => Int(v),
                Option::None => big_int_op(op, x, y)?,
            }),
            _ => float_op(x, y, |a, b| Ok(a - b))?,
        },
        BinOp::Mul => match (x, y) {
            (Int(a), Int(b)) => Some(match a.checked_mul(*b) {
                Some(v) => Int(v),
                Option::None => big_int_op(op, x, y)?,
            }),
            (Str(s), n @ (Int(_) | BigInt(_))) | (n @ (Int(_) | BigInt(_)), Str(s)) => {
                Some(Str(repeat_str(s, n)?.into()))
            }
            (List(l), n @ (Int(_) | BigInt(_))) | (n @ (Int(_) | BigInt(_)), List(l)) => {
                Some(Value::list(repeat(&l.items.borrow(), n)?))
            }
            (Tuple(t), n @ (Int(_) | BigInt(_))) | (n @ (Int(_) | BigInt(_)), Tuple(t)) => {
                Some(Value::tuple(repeat(t, n)?))
            }
            _ => float_op(x, y, |a, b| Ok(a * b))?,
        },
        BinOp::Div => float_op(x, y, |a, b| {
            if b == 0.0 {
                Err(Error::new("real division by zero"))
            } else {
                Ok(a / b)
            }
        })?,
        BinOp::FloorDiv => match (x, y) {
            (Int(_), Int(0)) => bail!("floored division by zero"),
            (Int(a), Int(b)) => Some(match floor_div(*a, *b) {
                Ok(q) => Int(q),
                Err(_) => big_int_op(op, x, y)?,
            }),
            _ => float_op(x, y, |a, b| {
                if b == 0.0 {
                    Err(Error::new("floored division by zero"))
                } else {
                    Ok((a / b).floor())
                }
            })?,
        },
        BinOp::Mod => match (x, y) {
            (Str(s), _) => return interpolate(s, y),
            (Int(_), Int(0)) => bail!("integer modulo by zero"),
            (Int(a), Int(b)) => Some(Int(floor_mod(*a, *b))),
            _ => float_op(x, y, |a, b| {
                if b == 0.0 {
                    return Err(Error::new("float modulo by zero"));
                }
                // starlark-go of 2020 takes Go's `math.Mod` as it is: the result has
                // the sign of the dividend (`-7.5 % 2` is `-1.5`), unlike int `%`.
                Ok(a % b)
            })?,
        },
        BinOp::BitAnd => match (x, y) {
            (Int(a), Int(b)) => Some(Int(a & b)),
            (Set(a), Set(b)) => {
                // starlark-go walks the smaller set (the left one on a tie), so the
                // result follows its order.
                let (a, b) = if a.map.borrow().len() > b.map.borrow().len() {
                    (b, a)
                } else {
                    (a, b)
                };
                let out = super::value::Set::default();
                for v in a.items() {
                    if b.map.borrow().get(&v)?.is_some() {
                        out.insert(v)?;
                    }
                }
                Some(Set(Rc::new(out)))
            }
            _ => Option::None,
        },
        BinOp::BitOr => match (x, y) {
            (Int(a), Int(b)) => Some(Int(a | b)),
            (Set(a), Set(b)) => {
                let out = super::value::Set::default();
                for v in a.items().into_iter().chain(b.items()) {
                    out.insert(v)?;
                }
                Some(Set(Rc::new(out)))
            }
            _ => Option::None,
        },
        BinOp::BitXor => match (x, y) {
            (Int(a), Int(b)) => Some(Int(a ^ b)),
            (Set(a), Set(b)) => {
                // Symmetric difference: the left set's own elements, then the right's.
                let out = super::value::Set::default();
                for v in a.items() {
                    if b.map.borrow().get(&v)?.is_none() {
                        out.insert(v)?;
                    }
                }
                for v in b.items() {
                    if a.map.borrow().get(&v)?.is_none() {
                        out.insert(v)?;
                    }
                }
                Some(Set(Rc::new(out)))
            }
            _ => Option::None,
        },
        BinOp::Shl | BinOp::Shr => match x {
            Int(_) | BigInt(_) => Some(shift(op, x, y)?),
            _ => Option::None,
        },
        BinOp::And | BinOp::Or => {
            unreachable!("short-circuit operators are evaluated by the evaluator")
        }
    };
    if let Some(v) = r {
        return Ok(v);
    }
    if let Value::Host(h) = x
        && let Some(r) = h.binary(op, y, true)
    {
        return r;
    }
    if let Value::Host(h) = y
        && let Some(r) = h.binary(op, x, false)
    {
        return r;
    }
    bail!(
        "unknown binary op: {} {} {}",
        x.type_name(),
        op.symbol(),
        y.type_name()
    )
}

/// `x op y` when an operand is a big int; None for the operators ints do not take.
fn big_binary(op: BinOp, x: &Value, y: &Value) -> Option<Result<Value>> {
    match op {
        BinOp::Add
        | BinOp::Sub
        | BinOp::Mul
        | BinOp::FloorDiv
        | BinOp::Mod
        | BinOp::BitAnd
        | BinOp::BitOr
        | BinOp::BitXor => Some(big_int_op(op, x, y)),
        _ => None,
    }
}

/// Integer arithmetic in arbitrary precision (both operands are ints).
fn big_int_op(op: BinOp, x: &Value, y: &Value) -> Result<Value> {
    let (Some(a), Some(b)) = (x.as_bigint(), y.as_bigint()) else {
        return Err(overflow());
    };
    let r = match op {
        BinOp::Add => a.add(&b),
        BinOp::Sub => a.sub(&b),
        BinOp::Mul => a.mul(&b),
        BinOp::FloorDiv | BinOp::Mod => {
            if b.is_zero() {
                bail!(
                    "{}",
                    if op == BinOp::Mod {
                        "integer modulo by zero"
                    } else {
                        "floored division by zero"
                    }
                );
            }
            let (q, m) = a.div_mod_floor(&b);
            if op == BinOp::Mod { m } else { q }
        }
        BinOp::BitAnd => a.and(&b),
        BinOp::BitOr => a.or(&b),
        BinOp::BitXor => a.xor(&b),
        _ => return Err(overflow()),
    };
    Ok(Value::from_bigint(r))
}

/// `x << y` and `x >> y` for an int `x`: starlark-go reads the count with `AsInt32`,
/// whose error ("got T, want int", "N out of range") is the operation's, then refuses
/// a negative count and a left shift by 512 or more.
fn shift(op: BinOp, x: &Value, y: &Value) -> Result<Value> {
    let n = super::int_args::as_int32(y)?;
    if n < 0 {
        bail!("negative shift count: {n}");
    }
    if op == BinOp::Shl && n >= 512 {
        bail!("shift count too large: {n}");
    }
    if let Value::Int(a) = x {
        if op == BinOp::Shr {
            return Ok(Value::Int(if n >= 127 {
                a.signum().min(0)
            } else {
                a >> n
            }));
        }
        if *a == 0 {
            return Ok(Value::Int(0));
        }
        if n < 127 && ((a << n) >> n) == *a {
            return Ok(Value::Int(a << n));
        }
    }
    let Some(a) = x.as_bigint() else {
        return Err(overflow());
    };
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    Ok(Value::from_bigint(if op == BinOp::Shl {
        a.shl(n)
    } else {
        a.shr(n)
    }))
}

fn repeat_str(s: &str, n: &Value) -> Result<String> {
    Ok(s.repeat(repeat_count(s.len(), n)?))
}

fn float_op(x: &Value, y: &Value, f: impl Fn(f64, f64) -> Result<f64>) -> Result<Option<Value>> {
    match (as_f64(x), as_f64(y)) {
        (Some(a), Some(b)) => Ok(Some(Value::Float(f(a, b)?))),
        _ => Ok(None),
    }
}

fn ordered(op: BinOp, x: &Value, y: &Value) -> Result<Value> {
    // An unordered pair (a NaN) answers False to every ordering, as Go's float compare.
    let ord = compare_op(op.symbol(), x, y)?;
    Ok(Value::Bool(ord.is_some_and(|ord| match op {
        BinOp::Lt => ord == Ordering::Less,
        BinOp::Gt => ord == Ordering::Greater,
        BinOp::Le => ord != Ordering::Greater,
        _ => ord != Ordering::Less,
    })))
}

/// Ordering for `sorted` and the like: [`compare_op`] with `<`, a NaN pair as equal.
pub fn compare(a: &Value, b: &Value) -> Result<std::cmp::Ordering> {
    Ok(compare_op("<", a, b)?.unwrap_or(Ordering::Equal))
}

/// Ordering of numbers, strings (by bytes), bools and sequences of the same type, None
/// when a NaN makes the pair unordered. Other pairs fail as starlark-go's `Compare`
/// with operator `op`: the error names the first pair of elements that cannot be
/// ordered (`(1, "a") < (1, 2)` fails with "string < int not implemented").
pub fn compare_op(op: &str, a: &Value, b: &Value) -> Result<Option<std::cmp::Ordering>> {
    compare_depth(op, a, b, 0)
}

fn compare_depth(op: &str, a: &Value, b: &Value, depth: u32) -> Result<Option<Ordering>> {
    if depth >= super::equality::MAX_COMPARE_DEPTH {
        bail!("comparison exceeded maximum recursion depth");
    }
    let fail = || {
        Err(Error::new(format!(
            "{} {op} {} not implemented",
            a.type_name(),
            b.type_name()
        )))
    };
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Int(x), Value::Float(y)) => super::number_cmp::int_float_cmp(*x, *y),
        (Value::Float(x), Value::Int(y)) => {
            super::number_cmp::int_float_cmp(*y, *x).map(Ordering::reverse)
        }
        (Value::BigInt(_), Value::Int(_) | Value::BigInt(_))
        | (Value::Int(_), Value::BigInt(_)) => {
            let (x, y) = (a.as_bigint(), b.as_bigint());
            Some(x.zip(y).map_or(Ordering::Equal, |(x, y)| x.cmp(&y)))
        }
        (Value::BigInt(x), Value::Float(y)) => super::number_cmp::bigint_float_cmp(x, *y),
        (Value::Float(x), Value::BigInt(y)) => {
            super::number_cmp::bigint_float_cmp(y, *x).map(Ordering::reverse)
        }
        (Value::Str(x), Value::Str(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        // None is ordered in starlark-go (`NoneType.CompareSameType`): equal to itself.
        (Value::None, Value::None) => Some(Ordering::Equal),
        (Value::List(x), Value::List(y)) => seq_cmp(
            op,
            &x.items.borrow().clone(),
            &y.items.borrow().clone(),
            depth,
        )?,
        (Value::Tuple(x), Value::Tuple(y)) => seq_cmp(op, x, y, depth)?,
        (Value::Host(h), _) => match h.compare(b) {
            Some(r) => Some(r?),
            None => return fail(),
        },
        _ => return fail(),
    })
}

/// starlark-go's `sliceCompare`: the first pair of elements that differ decides.
fn seq_cmp(op: &str, x: &[Value], y: &[Value], depth: u32) -> Result<Option<Ordering>> {
    for (a, b) in x.iter().zip(y) {
        if !super::equality::equals_depth(a, b, depth + 1)? {
            return compare_depth(op, a, b, depth + 1);
        }
    }
    Ok(Some(x.len().cmp(&y.len())))
}

/// Whether `x` is an int of the 32-bit range that `r` yields (starlark-go's
/// `rangeValue.contains`).
fn range_contains(r: &super::value::Range, x: &Value) -> bool {
    let Value::Int(i) = x else { return false };
    if i32::try_from(*i).is_err() {
        return false;
    }
    let (start, step) = (r.start as i128, r.step as i128);
    let d = i - start;
    d % step == 0 && d / step >= 0 && ((d / step) as u128) < r.len() as u128
}

/// Whether one side is an int and the other a NaN float.
fn int_against_nan(x: &Value, y: &Value) -> bool {
    let nan = |v: &Value| matches!(v, Value::Float(f) if f.is_nan());
    let int = |v: &Value| matches!(v, Value::Int(_) | Value::BigInt(_));
    (int(x) && nan(y)) || (nan(x) && int(y))
}

/// `needle in haystack`.
pub fn contains(haystack: &Value, needle: &Value) -> Result<bool> {
    match haystack {
        Value::List(l) => {
            for v in l.items.borrow().iter() {
                if equals(v, needle)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Value::Tuple(t) => {
            for v in t.iter() {
                if equals(v, needle)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        // A failed lookup (an unhashable needle) is "not found" for `in` on a dict.
        Value::Dict(d) => Ok(d.get(needle).is_ok_and(|v| v.is_some())),
        Value::Set(s) => Ok(s.map.borrow().get(needle)?.is_some()),
        Value::Str(s) => match needle {
            Value::Str(n) => Ok(s.contains(&**n)),
            other => bail!(
                "'in <string>' requires string as left operand, not {}",
                other.type_name()
            ),
        },
        // starlark-go's `NumberToInt` turns the needle into an int (a float is
        // truncated), and one past the 32-bit range is in no range.
        Value::Range(r) => match needle {
            Value::Int(_) | Value::BigInt(_) => Ok(range_contains(r, needle)),
            Value::Float(f) if f.is_finite() => {
                Ok(range_contains(r, &super::int_args::int_of_float(*f)))
            }
            other => bail!(
                "'in <range>' requires integer as left operand, not {}",
                other.type_name()
            ),
        },
        Value::Host(h) => match h.contains(needle) {
            Some(r) => r,
            None => bail!(
                "unknown binary op: {} in {}",
                needle.type_name(),
                haystack.type_name()
            ),
        },
        _ => bail!(
            "unknown binary op: {} in {}",
            needle.type_name(),
            haystack.type_name()
        ),
    }
}

fn seq_index(type_name: &str, i: &Value, n: usize) -> Result<usize> {
    let orig = super::int_args::as_int32(i)
        .map_err(|e| Error::new(format!("{type_name} index: {}", e.msg)))?;
    let mut k = orig;
    if k < 0 {
        k += n as i64;
    }
    if k < 0 || k >= n as i64 {
        if n == 0 {
            bail!("index {orig} out of range: empty {type_name}");
        }
        bail!(
            "{type_name} index {orig} out of range [{}:{}]",
            -(n as i128),
            n - 1
        );
    }
    Ok(k as usize)
}

/// `x[i]`.
pub fn get_index(x: &Value, i: &Value) -> Result<Value> {
    match x {
        Value::Dict(d) => match d.get(i)? {
            Some(v) => Ok(v),
            None => bail!("key {} not in dict", repr(i)),
        },
        Value::List(l) => {
            let items = l.items.borrow();
            Ok(items[seq_index("list", i, items.len())?].clone())
        }
        Value::Tuple(t) => Ok(t[seq_index("tuple", i, t.len())?].clone()),
        Value::Str(s) => {
            let b = crate::go_bytes::to_bytes(s);
            let k = seq_index("string", i, b.len())?;
            Ok(Value::Str(byte_str(&b[k..k + 1])))
        }
        Value::Range(r) => Ok(Value::Int(r.at(seq_index("range", i, r.len())?))),
        Value::Host(h) => h.index(i),
        _ => bail!(
            "unhandled index operation {}[{}]",
            x.type_name(),
            i.type_name()
        ),
    }
}

/// `x[i] = v`.
pub fn set_index(x: &Value, i: &Value, v: Value) -> Result<()> {
    match x {
        Value::Dict(d) => d.set(i.clone(), v),
        Value::List(l) => {
            // starlark-go's setIndex: the index first, its error without a prefix.
            let n = l.items.borrow().len();
            let k = match super::int_args::as_int32(i) {
                Ok(_) => seq_index("list", i, n)?,
                Err(e) => return Err(e),
            };
            l.check_mutable("assign to element of")?;
            l.items.borrow_mut()[k] = v;
            Ok(())
        }
        Value::Host(h) => h.set_index(i, v),
        _ => bail!("{} value does not support item assignment", x.type_name()),
    }
}

/// A slice bound: None, or an int as `AsInt32` reads it. starlark-go's `asIndex` says
/// "got T, want int" for any failure, an int past the 32-bit range included; `what`
/// leads the error ("invalid start index").
fn slice_bound(v: &Value, what: &str) -> Result<Option<i128>> {
    match v {
        Value::None => Ok(None),
        other => super::int_args::as_int32(other)
            .map(|i| Some(i128::from(i)))
            .map_err(|_| Error::new(format!("{what}: got {}, want int", other.type_name()))),
    }
}

/// Python's slice bounds: (start, stop, step) clamped for a sequence of length `n`.
fn slice_bounds(n: usize, lo: &Value, hi: &Value, step: &Value) -> Result<(i128, i128, i128)> {
    let step = match step {
        Value::None => 1,
        other => super::int_args::as_int32(other).map_err(|_| {
            Error::new(format!(
                "got {} for slice step, want int",
                other.type_name()
            ))
        })? as i128,
    };
    if step == 0 {
        bail!("zero is not a valid slice step");
    }
    let n = n as i128;
    let (lower, upper) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let clamp = |v: Option<i128>, dflt: i128| match v {
        None => dflt,
        Some(mut s) => {
            if s < 0 {
                s += n;
            }
            s.clamp(lower, upper)
        }
    };
    let start = clamp(
        slice_bound(lo, "invalid start index")?,
        if step > 0 { lower } else { upper },
    );
    let stop = clamp(
        slice_bound(hi, "invalid end index")?,
        if step > 0 { upper } else { lower },
    );
    Ok((start, stop, step))
}

/// Indices selected by `[lo:hi:step]` on a sequence of length `n`.
fn slice_indices(n: usize, lo: &Value, hi: &Value, step: &Value) -> Result<Vec<usize>> {
    let (start, stop, step) = slice_bounds(n, lo, hi, step)?;
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    Ok(out)
}

/// `x[lo:hi:step]`.
pub fn slice(x: &Value, lo: &Value, hi: &Value, step: &Value) -> Result<Value> {
    match x {
        Value::Str(s) => {
            let b = crate::go_bytes::to_bytes(s);
            let idx = slice_indices(b.len(), lo, hi, step)?;
            let bytes: Vec<u8> = idx.into_iter().map(|i| b[i]).collect();
            Ok(Value::Str(byte_str(&bytes)))
        }
        Value::List(l) => {
            let items = l.items.borrow();
            let idx = slice_indices(items.len(), lo, hi, step)?;
            Ok(Value::list(
                idx.into_iter().map(|i| items[i].clone()).collect(),
            ))
        }
        Value::Tuple(t) => {
            let idx = slice_indices(t.len(), lo, hi, step)?;
            Ok(Value::tuple(
                idx.into_iter().map(|i| t[i].clone()).collect(),
            ))
        }
        Value::Range(r) => {
            // A slice of a range is a range, as in starlark-go.
            let (start, stop, step) = slice_bounds(r.len(), lo, hi, step)?;
            let conv =
                |v: i128| i64::try_from(v).map_err(|_| Error::new("range slice out of range"));
            let (rs, rt) = (r.start as i128, r.step as i128);
            Ok(Value::Range(Range {
                start: conv(rs + rt * start)?,
                stop: conv(rs + rt * stop)?,
                step: conv(rt * step)?,
            }))
        }
        _ => bail!("invalid slice operand {}", x.type_name()),
    }
}

/// The method table entry for built-in types.
fn method_of(x: &Value, name: &str) -> Option<MethodFn> {
    match x {
        Value::Str(_) => super::string_methods::lookup(name),
        Value::List(_) => super::methods::list_method(name),
        Value::Dict(_) => super::methods::dict_method(name),
        Value::Set(_) => super::methods::set_method(name),
        _ => None,
    }
}

/// `x.name`, or None when there is no such field or method.
pub fn try_attr(x: &Value, name: &str) -> Result<Option<Value>> {
    if let Value::Host(h) = x {
        return h.attr_of(x, name);
    }
    Ok(method_of(x, name).map(|m| {
        Value::Builtin(Rc::new(Builtin {
            name: name.to_string(),
            kind: BuiltinKind::Method(m, x.clone()),
        }))
    }))
}

/// `x.name` with starlark-go's error for a missing attribute (`getAttr`), which ends
/// with a hint at the nearest attribute name when one is near.
pub fn get_attr(x: &Value, name: &str) -> Result<Value> {
    if let Some(v) = try_attr(x, name)? {
        return Ok(v);
    }
    let mut msg = format!("{} has no .{name} field or method", x.type_name());
    // Built-in types list their methods sorted; ytt's own values in their own order.
    let names = match x {
        Value::Host(h) => h.attr_names(),
        _ => attr_names(x),
    };
    if let Some(near) = super::spell::nearest(name, &names) {
        msg.push_str(&format!(" (did you mean .{near}?)"));
    }
    Err(Error::new(msg))
}

/// Attribute names of `x` (for `dir` and `hasattr`), sorted.
pub fn attr_names(x: &Value) -> Vec<String> {
    let mut names: Vec<String> = match x {
        Value::Str(_) => super::string_methods::NAMES
            .iter()
            .map(|s| s.to_string())
            .collect(),
        Value::List(_) => super::methods::LIST_METHODS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        Value::Dict(_) => super::methods::DICT_METHODS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        Value::Set(_) => super::methods::SET_METHODS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        Value::Host(h) => h.attr_names(),
        _ => Vec::new(),
    };
    names.sort();
    names
}

/// `x.name = v`.
pub fn set_attr(x: &Value, name: &str, v: Value) -> Result<()> {
    match x {
        Value::Host(h) => h.set_attr(name, v),
        _ => bail!("can't assign to .{name} field of {}", x.type_name()),
    }
}

/// A dict from key/value pairs (used by builtins).
pub fn dict_from_pairs(pairs: Vec<(Value, Value)>) -> Result<Value> {
    let mut m = OrderedMap::new();
    for (k, v) in pairs {
        m.insert(k, v)?;
    }
    Ok(Value::dict(m))
}
