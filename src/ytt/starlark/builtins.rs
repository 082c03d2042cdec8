//! The universe: built-in constants and functions of the starlark-go fork in ytt
//! (`None True False any all bool chr dict dir enumerate fail float getattr hasattr hash
//! int len list max min ord print range repr reversed set sorted str tuple type zip`).
//! There is no `abs`, as in ytt.

use super::bigint::BigInt;
use super::fast_hash::FastMap;
use std::rc::Rc;

use super::error::{Error, Result, bail};
use super::format::{repr, to_str};
use super::int_args::{as_int32, int_param};
use super::iteration::iterate;
use super::methods::update_dict;
use super::ops::{attr_names, compare_op, try_attr};
use super::orderedmap::OrderedMap;
use super::value::*;

type Native = fn(&mut dyn Interpreter, &Args) -> Result<Value>;

thread_local! {
    static UNIVERSE: Rc<FastMap<String, Value>> = Rc::new(build());
}

/// The built-in names (shared per thread).
pub fn universe() -> Rc<FastMap<String, Value>> {
    UNIVERSE.with(|u| u.clone())
}

fn build() -> FastMap<String, Value> {
    let natives: &[(&str, Native)] = &[
        ("any", any),
        ("all", all),
        ("bool", bool_),
        ("chr", chr),
        ("dict", dict),
        ("dir", dir),
        ("enumerate", enumerate),
        ("fail", fail),
        ("float", float),
        ("getattr", getattr),
        ("hasattr", hasattr),
        ("hash", hash),
        ("int", int),
        ("len", len),
        ("list", list),
        ("max", max),
        ("min", min),
        ("ord", ord),
        ("print", print),
        ("range", range),
        ("repr", repr_),
        ("reversed", reversed),
        ("set", set),
        ("sorted", sorted),
        ("str", str_),
        ("tuple", tuple),
        ("type", type_),
        ("zip", zip),
    ];
    let mut m: FastMap<String, Value> = natives
        .iter()
        .map(|(n, f)| (n.to_string(), Value::native(n, f)))
        .collect();
    m.insert("None".into(), Value::None);
    m.insert("True".into(), Value::Bool(true));
    m.insert("False".into(), Value::Bool(false));
    m
}

/// The single argument of `float`-like builtins that check their arguments by hand in
/// starlark-go: "NAME does not accept keyword arguments", then `count_error(n)`.
fn exactly_one(fname: &str, a: &Args, count_error: impl Fn(usize) -> String) -> Result<Value> {
    if !a.kwargs.is_empty() {
        bail!("{fname} does not accept keyword arguments");
    }
    if a.pos.len() != 1 {
        bail!("{}", count_error(a.pos.len()));
    }
    Ok(a.pos[0].clone())
}

/// A callable argument (`key=`); the parameter label is as starlark-go's UnpackArgs
/// prints it (quoted when passed by keyword).
fn want_callable(fname: &str, param: &str, v: &Value) -> Result<Value> {
    match v {
        Value::Function(_) | Value::Builtin(_) | Value::Host(_) => Ok(v.clone()),
        o => bail!(
            "{fname}: for parameter {param}: got {}, want callable",
            o.type_name()
        ),
    }
}

fn one(fname: &str, a: &Args) -> Result<Value> {
    Ok(a.positional(fname, 1, 1)?.remove(0).expect("required"))
}

fn items_of(fname: &str, v: &Value) -> Result<Vec<Value>> {
    match iterate(v) {
        Some((items, _)) => Ok(items),
        None => bail!(
            "{fname}: for parameter 1: got {}, want iterable",
            v.type_name()
        ),
    }
}

fn any(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    Ok(Value::Bool(
        items_of("any", &one("any", a)?)?.iter().any(Value::truth),
    ))
}

fn all(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    Ok(Value::Bool(
        items_of("all", &one("all", a)?)?.iter().all(Value::truth),
    ))
}

fn bool_(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("bool", 0, 1)?;
    Ok(Value::Bool(v[0].as_ref().is_some_and(Value::truth)))
}

fn chr(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = exactly_one("chr", a, |n| format!("chr: got {n} arguments, want 1"))?;
    // starlark-go names only the type, even for an int past the 32-bit range.
    let Ok(i) = as_int32(&v) else {
        bail!("chr: got {}, want int", v.type_name())
    };
    if i < 0 {
        bail!("chr: Unicode code point {i} out of range (<0)");
    }
    // Go's string(rune) turns a surrogate half into U+FFFD.
    let surrogate = (0xD800..=0xDFFF).contains(&i);
    match u32::try_from(i).ok().and_then(char::from_u32) {
        Some(c) => Ok(Value::Str(c.to_string().into())),
        None if surrogate => Ok(Value::str("\u{FFFD}")),
        None => bail!("chr: Unicode code point U+{i:X} out of range (>0x10FFFF)"),
    }
}

fn dict(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let mut m = OrderedMap::new();
    update_dict(a, "dict", &mut |k, v| m.insert(k, v))?;
    Ok(Value::dict(m))
}

fn dir(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = exactly_one("dir", a, |n| format!("dir: got {n} arguments, want 1"))?;
    Ok(Value::list(
        attr_names(&v)
            .into_iter()
            .map(|n| Value::Str(n.into()))
            .collect(),
    ))
}

fn enumerate(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("enumerate", 1, 2)?;
    let start = match &v[1] {
        Some(x) => i128::from(int_param("enumerate", 2, x)?),
        None => 0,
    };
    let items = items_of("enumerate", v[0].as_ref().expect("required"))?;
    Ok(Value::list(
        items
            .into_iter()
            .enumerate()
            .map(|(i, x)| Value::tuple(vec![Value::Int(start + i as i128), x]))
            .collect(),
    ))
}

fn joined(fname: &str, a: &Args) -> Result<String> {
    let mut sep = " ".to_string();
    for (k, v) in &a.kwargs {
        match (&**k, v) {
            ("sep", Value::Str(s)) => sep = s.to_string(),
            ("sep", o) => bail!(
                "{fname}: for parameter \"sep\": got {}, want string",
                o.type_name()
            ),
            (k, _) => bail!(
                "{fname}: unexpected keyword argument {}",
                super::strconv::quote(k)
            ),
        }
    }
    Ok(a.pos.iter().map(to_str).collect::<Vec<_>>().join(&sep))
}

fn fail(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    Err(Error::new(format!("fail: {}", joined("fail", a)?)))
}

fn print(t: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let s = joined("print", a)?;
    t.print(&s);
    Ok(Value::None)
}

fn float(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    if !a.kwargs.is_empty() {
        bail!("float does not accept keyword arguments");
    }
    if a.pos.len() > 1 {
        bail!("float got {} arguments, wants 1", a.pos.len());
    }
    Ok(Value::Float(match &a.pos.first() {
        None => 0.0,
        Some(Value::Bool(b)) => *b as i64 as f64,
        Some(Value::Int(i)) => *i as f64,
        Some(Value::BigInt(b)) => b.to_f64(),
        Some(Value::Float(f)) => *f,
        Some(Value::Str(s)) => {
            let f = parse_go_float(s).ok_or_else(|| {
                Error::new(format!(
                    "float: strconv.ParseFloat: parsing {}: invalid syntax",
                    super::strconv::quote(s)
                ))
            })?;
            // Go's ParseFloat fails with ErrRange past the largest float.
            let spelled_inf = s.to_ascii_lowercase().contains("inf");
            if f.is_infinite() && !spelled_inf {
                bail!(
                    "float: strconv.ParseFloat: parsing {}: value out of range",
                    super::strconv::quote(s)
                );
            }
            f
        }
        Some(o) => bail!("float got {}, want number or string", o.type_name()),
    }))
}

fn parse_go_float(s: &str) -> Option<f64> {
    let t = s.trim_start_matches(['+', '-']);
    let lower = t.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity") {
        return s.parse::<f64>().ok();
    }
    // Go's `special` takes a sign before "inf" only: "-nan" is no float.
    if lower == "nan" {
        return (t.len() == s.len()).then_some(f64::NAN);
    }
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let f = parse_hex_float(hex)?;
        return Some(if s.starts_with('-') { -f } else { f });
    }
    if t.is_empty()
        || !t
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-' | '_'))
    {
        return None;
    }
    if s.contains('_') {
        return if underscores_ok(s) {
            s.replace('_', "").parse::<f64>().ok()
        } else {
            None
        };
    }
    s.parse::<f64>().ok()
}

/// Go's `strconv.underscoreOK` for a decimal number: each `_` stands between two
/// digits (so `1_000.5` is a float for `ParseFloat`, `1__0` and `_1` are not).
fn underscores_ok(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    // What came last: '^' the start, '0' a digit, '_' an underscore, '!' anything else.
    let mut saw = '^';
    for c in s.chars() {
        if c.is_ascii_digit() {
            saw = '0';
        } else if c == '_' {
            if saw != '0' {
                return false;
            }
            saw = '_';
        } else {
            if saw == '_' {
                return false;
            }
            saw = '!';
        }
    }
    saw != '_'
}

/// A Go hexadecimal float after its `0x`: hex digits with at most one `.`, underscores
/// between digits, and a required binary exponent (`p-2`).
fn parse_hex_float(body: &str) -> Option<f64> {
    let (mant, exp) = body.split_once(['p', 'P'])?;
    let exp: i64 = exp.replace('_', "").parse().ok()?;
    let mant = mant.strip_prefix('_').unwrap_or(mant);
    if mant.is_empty() || mant.ends_with('_') || mant.contains("__") {
        return None;
    }
    let (mut m, mut shift, mut sticky, mut seen_dot, mut digits) = (0u64, 0i64, false, false, 0);
    for c in mant.chars() {
        match c {
            '_' => {}
            '.' if !seen_dot => seen_dot = true,
            c => {
                let d = c.to_digit(16)? as u64;
                digits += 1;
                if m >> 60 == 0 {
                    m = m << 4 | d;
                    if seen_dot {
                        shift -= 4;
                    }
                } else {
                    sticky |= d != 0;
                    if !seen_dot {
                        shift += 4;
                    }
                }
            }
        }
    }
    if digits == 0 {
        return None;
    }
    // The sticky bit below the 53-bit rounding point keeps the rounding exact.
    let f = (m | sticky as u64) as f64;
    let e = exp.checked_add(shift)?.clamp(-2200, 2200) as i32;
    // Scale in two steps so that neither factor overflows on its own.
    Some(f * 2f64.powi(e / 2) * 2f64.powi(e - e / 2))
}

fn getattr(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("getattr", 2, 3)?;
    let (x, name) = (v[0].as_ref().expect("object"), v[1].as_ref().expect("name"));
    let Value::Str(name) = name else {
        bail!(
            "getattr: for parameter 2: got {}, want string",
            name.type_name()
        )
    };
    match try_attr(x, name) {
        Ok(Some(r)) => Ok(r),
        Ok(None) | Err(_) if v[2].is_some() => Ok(v[2].clone().expect("default")),
        Ok(None) => bail!("getattr: {} has no .{name} field or method", x.type_name()),
        Err(e) => Err(Error::new(format!("getattr: {}", e.msg))),
    }
}

fn hasattr(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("hasattr", 2, 2)?;
    let (x, name) = (v[0].as_ref().expect("object"), v[1].as_ref().expect("name"));
    let Value::Str(name) = name else {
        bail!(
            "hasattr: for parameter 2: got {}, want string",
            name.type_name()
        )
    };
    Ok(Value::Bool(match try_attr(x, name) {
        Ok(r) => r.is_some(),
        Err(_) => attr_names(x).iter().any(|n| **n == **name),
    }))
}

fn hash(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = one("hash", a)?;
    let Value::Str(s) = v else {
        bail!("hash: for parameter 1: got {}, want string", v.type_name())
    };
    // starlark-go's `javaStringHash` means java.lang.String.hashCode over UTF-16, but
    // splits a rune into surrogates only when the rune itself is a surrogate (which
    // decoding a Go string never yields): every code point, those past U+FFFF too,
    // is added whole.
    let mut h: i32 = 0;
    for c in s.chars() {
        // A byte that is no UTF-8 decodes to U+FFFD in Go.
        let r = match crate::go_bytes::raw_byte(c) {
            Some(_) => 0xFFFD,
            None => c as i32,
        };
        h = h.wrapping_mul(31).wrapping_add(r);
    }
    Ok(Value::Int(h as i128))
}

fn int(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.unpack("int", &["x", "base?"])?;
    let x = v[0].clone().expect("required");
    if let Value::Str(s) = &x {
        let base = match &v[1] {
            None => 10,
            Some(Value::Int(b)) if *b == 0 || (2..=36).contains(b) => *b as u32,
            Some(_) => bail!("int: base must be an integer >= 2 && <= 36"),
        };
        return parse_int(s, base);
    }
    if v[1].is_some() {
        bail!("int: can't convert non-string with explicit base");
    }
    match x {
        Value::Bool(b) => Ok(Value::Int(b as i128)),
        Value::Int(_) | Value::BigInt(_) => Ok(x),
        Value::Float(f) => {
            // starlark-go's NumberToInt.
            if f.is_infinite() {
                bail!("int: cannot convert float infinity to integer");
            }
            if f.is_nan() {
                bail!("int: cannot convert float NaN to integer");
            }
            Ok(super::int_args::int_of_float(f))
        }
        o => bail!("int: cannot convert {} to int", o.type_name()),
    }
}

/// starlark-go's `int(string, base)` rules (sign, 0x/0o/0b prefixes, base 0).
fn parse_int(orig: &str, mut base: u32) -> Result<Value> {
    let invalid = |b: u32| Error::new(format!("int: invalid literal with base {b}: {orig}"));
    let mut s = orig;
    let mut neg = false;
    if let Some(r) = s.strip_prefix('+') {
        s = r;
    } else if let Some(r) = s.strip_prefix('-') {
        s = r;
        neg = true;
    }
    let mut prefix = 0;
    if s.len() > 1 && s.starts_with('0') {
        if s.len() > 2 {
            prefix = match s.as_bytes()[1] {
                b'o' | b'O' => 8,
                b'x' | b'X' => 16,
                b'b' | b'B' => 2,
                _ => 0,
            };
            if prefix != 0 {
                s = &s[2..];
            }
        }
        if prefix == 0 && base == 0 {
            return if s[1..].chars().all(|c| c == '0') {
                Ok(Value::Int(0))
            } else {
                Err(invalid(0))
            };
        }
        if base != 0 && prefix != 0 && prefix != base {
            return Err(invalid(base));
        }
    }
    if base == 0 {
        base = if prefix != 0 { prefix } else { 10 };
    }
    if s.is_empty() || s.starts_with(['+', '-']) {
        return Err(invalid(base));
    }
    // Like Go's big.Int.SetString: digits only (no sign, no underscores), any length.
    if !s.chars().all(|c| c.is_digit(base)) {
        return Err(invalid(base));
    }
    match i128::from_str_radix(s, base) {
        Ok(n) => Ok(Value::Int(if neg { -n } else { n })),
        Err(_) => BigInt::parse_digits(s, base, neg)
            .map(Value::from_bigint)
            .ok_or_else(|| invalid(base)),
    }
}

fn len(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = one("len", a)?;
    match v.len() {
        Some(n) => Ok(Value::Int(n as i128)),
        None => bail!("len: value of type {} has no len", v.type_name()),
    }
}

fn list(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("list", 0, 1)?;
    Ok(Value::list(match &v[0] {
        Some(x) => items_of("list", x)?,
        None => Vec::new(),
    }))
}

fn tuple(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("tuple", 0, 1)?;
    Ok(Value::tuple(match &v[0] {
        Some(x) => items_of("tuple", x)?,
        None => Vec::new(),
    }))
}

fn minmax(
    t: &mut dyn Interpreter,
    a: &Args,
    fname: &str,
    want: std::cmp::Ordering,
) -> Result<Value> {
    if a.pos.is_empty() {
        bail!("{fname} requires at least one positional argument");
    }
    let mut key = None;
    for (k, v) in &a.kwargs {
        if &**k == "key" {
            key = Some(want_callable(fname, "\"key\"", v)?);
        } else {
            bail!(
                "{fname}: unexpected keyword argument {}",
                super::strconv::quote(k)
            );
        }
    }
    let items = if a.pos.len() == 1 {
        match iterate(&a.pos[0]) {
            Some((items, _)) => items,
            None => bail!("{fname}: {} value is not iterable", a.pos[0].type_name()),
        }
    } else {
        a.pos.clone()
    };
    let mut best: Option<(Value, Value)> = None;
    for x in items {
        let k = match &key {
            Some(f) => t.call(f, Args::new(vec![x.clone()]))?,
            None => x.clone(),
        };
        match &best {
            None => best = Some((x, k)),
            Some((_, bk)) => {
                // starlark-go compares with `>` for max and `<` for min.
                let op = if fname == "max" { ">" } else { "<" };
                let ord = compare_op(op, &k, bk)
                    .map_err(|e| Error::new(format!("{fname}: {}", e.msg)))?;
                if ord == Some(want) {
                    best = Some((x, k));
                }
            }
        }
    }
    best.map(|(x, _)| x)
        .ok_or_else(|| Error::new(format!("{fname}: argument is an empty sequence")))
}

fn max(t: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    minmax(t, a, "max", std::cmp::Ordering::Greater)
}

fn min(t: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    minmax(t, a, "min", std::cmp::Ordering::Less)
}

fn ord(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = exactly_one("ord", a, |n| format!("ord: got {n} arguments, want 1"))?;
    let Value::Str(s) = &v else {
        bail!("ord: got {}, want string", v.type_name())
    };
    let mut cs = s.chars();
    match (cs.next(), cs.next()) {
        // A lone byte that is no UTF-8 decodes to U+FFFD in Go.
        (Some(c), None) if crate::go_bytes::raw_byte(c).is_some() => Ok(Value::Int(0xFFFD)),
        (Some(c), None) => Ok(Value::Int(c as i128)),
        _ => bail!(
            "ord: string encodes {} Unicode code points, want 1",
            s.chars().count()
        ),
    }
}

fn range(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("range", 1, 3)?;
    let mut ints = Vec::new();
    for (i, x) in v.iter().enumerate() {
        if let Some(x) = x {
            ints.push(int_param("range", i + 1, x)?);
        }
    }
    let (start, stop, step) = match ints.as_slice() {
        [stop] => (0, *stop, 1),
        [start, stop] => (*start, *stop, 1),
        [start, stop, step] => (*start, *stop, *step),
        _ => unreachable!("one to three arguments"),
    };
    if step == 0 {
        bail!("range: step argument must not be zero");
    }
    Ok(Value::Range(Range { start, stop, step }))
}

fn repr_(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    Ok(Value::Str(repr(&one("repr", a)?).into()))
}

fn reversed(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let mut items = items_of("reversed", &one("reversed", a)?)?;
    items.reverse();
    Ok(Value::list(items))
}

fn set(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.positional("set", 0, 1)?;
    let s = Set::default();
    if let Some(x) = &v[0] {
        for item in items_of("set", x)? {
            s.insert(item)
                .map_err(|e| Error::new(format!("set: {}", e.msg)))?;
        }
    }
    Ok(Value::Set(Rc::new(s)))
}

fn sorted(t: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = a.unpack_checked("sorted", &["iterable", "key?", "reverse?"], |i, v| {
        let want = match (i, v) {
            (0, v) if iterate(v).is_none() => "iterable",
            (1, Value::Function(_) | Value::Builtin(_) | Value::Host(_)) => return None,
            (1, _) => "callable",
            (2, v) if !matches!(v, Value::Bool(_)) => "bool",
            _ => return None,
        };
        Some(format!("got {}, want {want}", v.type_name()))
    })?;
    let (items, _) = iterate(v[0].as_ref().expect("required")).expect("checked iterable");
    let reverse = matches!(v[2], Some(Value::Bool(true)));
    let mut keyed: Vec<(Value, Value)> = Vec::with_capacity(items.len());
    for x in items {
        let k = match &v[1] {
            None => x.clone(),
            Some(f) => t.call(f, Args::new(vec![x.clone()]))?,
        };
        keyed.push((k, x));
    }
    // starlark-go's `sortSlice.Less` keeps the error of the last comparison that
    // failed, and `sort.Reverse` swaps the operands of `Less`.
    let mut err = None;
    let mut less = |x: &Value, y: &Value| match compare_op("<", x, y) {
        Ok(o) => o == Some(std::cmp::Ordering::Less),
        Err(e) => {
            err = Some(e);
            false
        }
    };
    super::go_sort::stable(&mut keyed, &mut |(a, _), (b, _)| {
        if reverse { less(b, a) } else { less(a, b) }
    });
    // starlark-go returns the comparison error unprefixed.
    if let Some(e) = err {
        return Err(e);
    }
    Ok(Value::list(keyed.into_iter().map(|(_, x)| x).collect()))
}

fn str_(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = exactly_one("str", a, |n| {
        format!("str: got {n} arguments, want exactly 1")
    })?;
    Ok(match v {
        Value::Str(_) => v,
        other => Value::Str(to_str(&other).into()),
    })
}

fn type_(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    let v = exactly_one("type", a, |n| {
        format!("type: got {n} arguments, want exactly 1")
    })?;
    Ok(Value::Str(v.type_name().into()))
}

fn zip(_: &mut dyn Interpreter, a: &Args) -> Result<Value> {
    if !a.kwargs.is_empty() {
        bail!("zip does not accept keyword arguments");
    }
    let mut cols = Vec::new();
    for (i, x) in a.pos.iter().enumerate() {
        match iterate(x) {
            Some((items, _)) => cols.push(items),
            None => bail!(
                "zip: argument #{} is not iterable: {}",
                i + 1,
                x.type_name()
            ),
        }
    }
    let rows = cols.iter().map(Vec::len).min().unwrap_or(0);
    Ok(Value::list(
        (0..rows)
            .map(|r| Value::tuple(cols.iter().map(|c| c[r].clone()).collect()))
            .collect(),
    ))
}
