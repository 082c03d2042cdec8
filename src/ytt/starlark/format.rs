//! Text forms of values as the starlark-go fork in ytt prints them: `str`/`repr` (strings
//! and floats as Go's `strconv` writes them, see `strconv.rs`) and the `%` operator
//! (conversions `s r d i o x X e f g E F G c %` and `%(key)s`; no width, precision or
//! flags, like starlark-go).

use std::fmt::Write;

use super::error::{Result, bail};
use super::strconv::{float_str, go_float, quote};
use super::value::{BuiltinKind, StrIterKind, Value};

/// `str(x)`: strings unquoted, everything else as `repr`.
pub fn to_str(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Host(h) => h.to_str(),
        _ => repr(v),
    }
}

/// `repr(x)`.
pub fn repr(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v, &mut Vec::new());
    out
}

/// `{:?}` prints `repr(x)`.
impl std::fmt::Debug for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&repr(self))
    }
}

/// `{}` prints `str(x)`.
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_str(self))
    }
}

fn container_ptr(v: &Value) -> Option<usize> {
    match v {
        Value::List(l) => Some(std::rc::Rc::as_ptr(l) as usize),
        Value::Dict(d) => Some(std::rc::Rc::as_ptr(d) as usize),
        _ => None,
    }
}

fn write_value(out: &mut String, v: &Value, path: &mut Vec<usize>) {
    // Counted per OS thread, not per call: host values (structs) print their fields
    // with a fresh `repr`.
    let Some(_level) = super::deep::Level::enter() else {
        // Too deep to print (see `deep::MAX_VALUE_DEPTH`): elided like a cycle.
        out.push_str("...");
        return;
    };
    if let Some(p) = container_ptr(v) {
        if path.contains(&p) {
            out.push_str(if matches!(v, Value::List(_)) {
                "[...]"
            } else {
                "{...}"
            });
            return;
        }
        path.push(p);
    }
    match v {
        Value::None => out.push_str("None"),
        Value::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::BigInt(b) => {
            let _ = write!(out, "{b}");
        }
        Value::Float(f) => out.push_str(&float_str(*f)),
        Value::Str(s) => out.push_str(&quote(s)),
        Value::List(l) => {
            out.push('[');
            for (i, x) in l.items.borrow().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, x, path);
            }
            out.push(']');
        }
        Value::Tuple(t) => {
            out.push('(');
            for (i, x) in t.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, x, path);
            }
            if t.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Value::Dict(d) => {
            out.push('{');
            for (i, (k, x)) in d.map.borrow().entries().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, k, path);
                out.push_str(": ");
                write_value(out, x, path);
            }
            out.push('}');
        }
        Value::Set(s) => {
            out.push_str("set([");
            for (i, x) in s.items().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, x, path);
            }
            out.push_str("])");
        }
        Value::Range(r) => {
            if r.step != 1 {
                let _ = write!(out, "range({}, {}, {})", r.start, r.stop, r.step);
            } else if r.start != 0 {
                let _ = write!(out, "range({}, {})", r.start, r.stop);
            } else {
                let _ = write!(out, "range({})", r.stop);
            }
        }
        Value::Function(f) => {
            let _ = write!(out, "<function {}>", f.def.name);
        }
        Value::Builtin(b) => match &b.kind {
            BuiltinKind::Native(_) => {
                let _ = write!(out, "<built-in function {}>", b.name);
            }
            BuiltinKind::Method(_, recv) => {
                let _ = write!(
                    out,
                    "<built-in method {} of {} value>",
                    b.name,
                    recv.type_name()
                );
            }
        },
        Value::StrIter(s, k) => {
            let m = match k {
                StrIterKind::Elems => "elems",
                StrIterKind::Codepoints => "codepoints",
                StrIterKind::ElemOrds => "elem_ords",
                StrIterKind::CodepointOrds => "codepoint_ords",
            };
            let _ = write!(out, "{}.{m}()", quote(s));
        }
        Value::Host(h) => out.push_str(&h.repr()),
    }
    if container_ptr(v).is_some() {
        path.pop();
    }
}

/// The `%` operator on a format string.
pub fn interpolate(format: &str, x: &Value) -> Result<Value> {
    let mut out = String::new();
    let args: Vec<Value> = match x {
        Value::Tuple(t) => t.0.clone(),
        v => vec![v.clone()],
    };
    let mut index = 0;
    let mut rest = format;
    loop {
        let Some(i) = rest.find('%') else {
            out.push_str(rest);
            break;
        };
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(r) = rest.strip_prefix('%') {
            out.push('%');
            rest = r;
            continue;
        }
        let arg = if let Some(r) = rest.strip_prefix('(') {
            let Some(j) = r.find(')') else {
                bail!("incomplete format key")
            };
            let key = &r[..j];
            rest = &r[j + 1..];
            match x {
                Value::Dict(d) => match d.get(&Value::str(key))? {
                    Some(v) => v,
                    None => bail!("key not found: {key}"),
                },
                // ytt's struct is a starlark `Mapping` too.
                Value::Host(h) if h.items().is_some() => {
                    let items = h.items().unwrap_or_default();
                    match items.into_iter().find(|(k, _)| k.as_str() == Some(key)) {
                        Some((_, v)) => v,
                        None => bail!("key not found: {key}"),
                    }
                }
                _ => bail!("format requires a mapping"),
            }
        } else {
            if index >= args.len() {
                bail!("not enough arguments for format string");
            }
            args[index].clone()
        };
        let Some(c) = rest.chars().next() else {
            bail!("incomplete format")
        };
        match c {
            's' => out.push_str(&to_str(&arg)),
            'r' => out.push_str(&repr(&arg)),
            'd' | 'i' | 'o' | 'x' | 'X'
                if matches!(arg, Value::BigInt(_))
                    || matches!(arg, Value::Float(f) if f.is_finite() && f.abs() >= 1e38) =>
            {
                let b = match &arg {
                    Value::Float(f) => super::bigint::BigInt::from_f64(*f),
                    other => other.as_bigint().unwrap_or_default(),
                };
                let digits = match c {
                    'o' => b.to_radix(8),
                    'x' => b.to_radix(16),
                    'X' => b.to_radix(16).to_uppercase(),
                    _ => b.to_radix(10),
                };
                out.push_str(&digits);
            }
            'd' | 'i' | 'o' | 'x' | 'X' => {
                let n = match &arg {
                    Value::Int(n) => *n,
                    Value::Float(f) if f.is_finite() => f.trunc() as i128,
                    // starlark-go's `NumberToInt` names an infinite or NaN float.
                    Value::Float(f) if f.is_nan() => {
                        bail!("%{c} format requires integer: cannot convert float NaN to integer")
                    }
                    Value::Float(_) => bail!(
                        "%{c} format requires integer: cannot convert float infinity to integer"
                    ),
                    v => bail!(
                        "%{c} format requires integer: cannot convert {} to int",
                        v.type_name()
                    ),
                };
                let (neg, m) = (n < 0, n.unsigned_abs());
                let digits = match c {
                    'o' => format!("{m:o}"),
                    'x' => format!("{m:x}"),
                    'X' => format!("{m:X}"),
                    _ => format!("{m}"),
                };
                out.push_str(if neg { "-" } else { "" });
                out.push_str(&digits);
            }
            'e' | 'f' | 'g' | 'E' | 'F' | 'G' => {
                let f = match &arg {
                    Value::Float(f) => *f,
                    Value::Int(n) => *n as f64,
                    Value::BigInt(b) => b.to_f64(),
                    v => bail!("%{c} format requires float, not {}", v.type_name()),
                };
                let prec = if c.eq_ignore_ascii_case(&'g') {
                    None
                } else {
                    Some(6)
                };
                out.push_str(&go_float(f, c, prec));
            }
            'c' => match &arg {
                Value::Int(n) => match u32::try_from(*n).ok().and_then(char::from_u32) {
                    Some(ch) => out.push(ch),
                    None => bail!("%c format requires a valid Unicode code point, got {n}"),
                },
                Value::Str(s) if s.chars().count() == 1 => out.push_str(s),
                Value::Str(_) => bail!("%c format requires a single-character string"),
                v => bail!(
                    "%c format requires int or single-character string, not {}",
                    v.type_name()
                ),
            },
            // Reached only after a `%(key)`: a plain `%%` was copied above.
            '%' => out.push('%'),
            // starlark-go reads the conversion as one byte and prints it as a rune: the
            // first byte of a multi-byte character shows as its Latin-1 reading.
            _ => bail!("unknown conversion %{}", char::from(rest.as_bytes()[0])),
        }
        rest = &rest[c.len_utf8()..];
        index += 1;
    }
    // A dict is one argument like any other: `"abc" % {}` has one too many.
    if index < args.len() {
        bail!("too many arguments for format string");
    }
    Ok(Value::Str(out.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_operator() {
        let t = |f: &str, x: Value| {
            interpolate(f, &x)
                .map(|v| to_str(&v))
                .map_err(|e| e.msg.clone())
        };
        assert_eq!(
            t(
                "%s-%d",
                Value::tuple(vec![Value::str("app"), Value::Int(3)])
            )
            .unwrap(),
            "app-3"
        );
        assert_eq!(t("%r", Value::str("q")).unwrap(), "\"q\"");
        assert_eq!(
            t(
                "%x %o %X",
                Value::tuple(vec![Value::Int(255), Value::Int(8), Value::Int(255)])
            )
            .unwrap(),
            "ff 10 FF"
        );
        assert_eq!(t("%d", Value::Float(7.9)).unwrap(), "7");
        assert_eq!(t("%e", Value::Float(12345.678)).unwrap(), "1.234568e+04");
        assert_eq!(t("100%%", Value::tuple(vec![])).unwrap(), "100%");
        assert_eq!(
            t("%5d", Value::Int(3)).unwrap_err(),
            "unknown conversion %5"
        );
        assert_eq!(
            t("%s %s", Value::str("a")).unwrap_err(),
            "not enough arguments for format string"
        );
        assert_eq!(
            t("%s", Value::tuple(vec![Value::Int(1), Value::Int(2)])).unwrap_err(),
            "too many arguments for format string"
        );
    }

    #[test]
    fn repr_of_containers() {
        let l = Value::list(vec![
            Value::Int(1),
            Value::str("a"),
            Value::None,
            Value::Bool(true),
        ]);
        assert_eq!(repr(&l), "[1, \"a\", None, True]");
        assert_eq!(repr(&Value::tuple(vec![Value::Int(1)])), "(1,)");
        if let Value::List(inner) = &l {
            inner.items.borrow_mut().push(l.clone());
        }
        assert_eq!(repr(&l), "[1, \"a\", None, True, [...]]");
    }
}
