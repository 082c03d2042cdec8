//! Text forms of values as the starlark-go fork in ytt prints them: `str`/`repr`
//! (floats use Go's `%g` with 6 significant digits: `str(1.0/3)` is `0.333333`,
//! `str(4.0)` is `4`), Go-style float verbs (`%e %f %g`), string quoting, and the
//! `%` operator (conversions `s r d i o x X e f g E F G c %` and `%(key)s`; no width,
//! precision or flags, like starlark-go).

use std::fmt::Write;

use unicode_general_category::{GeneralCategory, get_general_category};

use super::error::{Result, bail};
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

/// Go `strconv.Quote`-style double-quoted string.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            // A byte that is no UTF-8, as Go's `strconv.Quote` writes it.
            c if crate::go_bytes::raw_byte(c).is_some() => {
                let b = crate::go_bytes::raw_byte(c).unwrap_or_default();
                let _ = write!(out, "\\x{b:02x}");
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if !is_go_printable(c) && (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if !is_go_printable(c) => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII
/// space (so not controls, other spaces, separators, format characters, surrogates,
/// private-use or unassigned code points, noncharacters included).
fn is_go_printable(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    use GeneralCategory::*;
    !matches!(
        get_general_category(c),
        SpaceSeparator
            | LineSeparator
            | ParagraphSeparator
            | Control
            | Format
            | Surrogate
            | PrivateUse
            | Unassigned
    )
}

/// The float text of `str(x)` in ytt's starlark-go: Go `FormatFloat(f, 'g', 6, 64)`.
pub fn float_str(f: f64) -> String {
    go_float(f, 'g', Some(6))
}

/// Decimal digits (no leading/trailing zeros except a lone "0") and the decimal point
/// position, for `n` significant digits or the shortest round-trip form.
fn digits(f: f64, n: Option<usize>) -> (String, i32) {
    let s = match n {
        Some(n) => format!("{:.*e}", n.saturating_sub(1), f.abs()),
        None => format!("{:e}", f.abs()),
    };
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut d: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    while d.len() > 1 && d.ends_with('0') {
        d.pop();
    }
    if d == "0" {
        return (d, 1);
    }
    (d, exp + 1)
}

fn fmt_e(d: &str, dp: i32, prec: usize, upper: bool) -> String {
    let mut out = String::new();
    out.push_str(&d[..1]);
    if prec > 0 {
        out.push('.');
        let rest = &d[1..];
        for i in 0..prec {
            out.push(rest.as_bytes().get(i).map(|b| *b as char).unwrap_or('0'));
        }
    }
    let exp = if d == "0" { 0 } else { dp - 1 };
    out.push(if upper { 'E' } else { 'e' });
    out.push(if exp < 0 { '-' } else { '+' });
    let _ = write!(out, "{:02}", exp.abs());
    out
}

fn fmt_f(d: &str, dp: i32, prec: usize) -> String {
    let mut out = String::new();
    let digit = |i: i32| -> char {
        if i >= 0 && (i as usize) < d.len() {
            d.as_bytes()[i as usize] as char
        } else {
            '0'
        }
    };
    if dp > 0 {
        for i in 0..dp {
            out.push(digit(i));
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for i in 0..prec as i32 {
            out.push(digit(dp + i));
        }
    }
    out
}

/// Go `fmt`/`strconv` float formatting for verbs e, f, g (and upper case), with an
/// explicit precision or (None) the shortest representation.
pub fn go_float(f: f64, verb: char, prec: Option<usize>) -> String {
    let upper = verb.is_ascii_uppercase();
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let body = match verb.to_ascii_lowercase() {
        'e' => {
            let p = prec.unwrap_or(6);
            let (d, dp) = digits(f, Some(p + 1));
            fmt_e(&d, dp, p, upper)
        }
        'f' => format!("{:.*}", prec.unwrap_or(6), f.abs()),
        _ => {
            let (d, dp) = digits(f, prec.map(|p| p.max(1)));
            let nd = d.len() as i32;
            let (mut p, eprec) = match prec {
                None => (nd, 6),
                Some(p) => {
                    let p = p.max(1) as i32;
                    let e = if p > nd && nd >= dp { nd } else { p };
                    (p, e)
                }
            };
            let exp = dp - 1;
            if d != "0" && (exp < -4 || exp >= eprec) {
                if p > nd {
                    p = nd;
                }
                fmt_e(&d, dp, (p - 1).max(0) as usize, upper)
            } else {
                if p > dp {
                    p = nd;
                }
                fmt_f(&d, dp, (p - dp).max(0) as usize)
            }
        }
    };
    format!("{sign}{body}")
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
            other => bail!("unknown conversion %{other}"),
        }
        rest = &rest[c.len_utf8()..];
        index += 1;
    }
    if index < args.len() && !matches!(x, Value::Dict(_)) {
        bail!("too many arguments for format string");
    }
    Ok(Value::Str(out.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_str_matches_go_g6() {
        assert_eq!(float_str(4.0), "4");
        assert_eq!(float_str(1.0 / 3.0), "0.333333");
        assert_eq!(float_str(2.5), "2.5");
        assert_eq!(float_str(1e20), "1e+20");
        assert_eq!(float_str(100.0), "100");
        assert_eq!(float_str(123456.0), "123456");
        assert_eq!(float_str(1234567.0), "1.23457e+06");
        assert_eq!(float_str(0.0001), "0.0001");
        assert_eq!(float_str(0.00001), "1e-05");
        assert_eq!(float_str(-0.25), "-0.25");
        assert_eq!(float_str(0.0), "0");
    }

    #[test]
    fn go_verbs() {
        assert_eq!(go_float(12345.678, 'e', Some(6)), "1.234568e+04");
        assert_eq!(go_float(0.5, 'g', None), "0.5");
        assert_eq!(go_float(1e20, 'g', None), "1e+20");
        assert_eq!(go_float(2.5, 'f', Some(6)), "2.500000");
        assert_eq!(go_float(123456789.0, 'g', None), "1.23456789e+08");
        assert_eq!(go_float(0.0, 'e', Some(6)), "0.000000e+00");
        assert_eq!(go_float(1e21, 'g', None), "1e+21");
    }

    #[test]
    fn shortest_g_is_what_go_yaml_prints() {
        assert_eq!(go_float(0.1 + 0.2, 'g', None), "0.30000000000000004");
        assert_eq!(go_float(1e20 * 10.0, 'g', None), "1e+21");
        assert_eq!(go_float(1.0 / 3.0, 'g', None), "0.3333333333333333");
        assert_eq!(go_float(-0.25, 'g', None), "-0.25");
        assert_eq!(go_float(3.0, 'g', None), "3");
        assert_eq!(go_float(1e-7, 'g', None), "1e-07");
        assert_eq!(go_float(123456.0, 'g', None), "123456");
        assert_eq!(go_float(1234567.0, 'g', None), "1.234567e+06");
        assert_eq!(go_float(f64::INFINITY, 'g', None), "+Inf");
    }

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
        assert_eq!(quote("a\"b\\\n\x01é"), "\"a\\\"b\\\\\\n\\x01é\"");
        if let Value::List(inner) = &l {
            inner.items.borrow_mut().push(l.clone());
        }
        assert_eq!(repr(&l), "[1, \"a\", None, True, [...]]");
    }
}
