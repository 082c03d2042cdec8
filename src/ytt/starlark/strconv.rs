//! Go's `strconv` text of strings and floats, as the starlark-go fork in ytt prints them:
//! `strconv.Quote`'s double-quoted strings and `FormatFloat`'s `e`, `f` and `g` forms
//! (`str(1.0/3)` is `0.333333`, `str(4.0)` is `4`). Knows nothing of values: the text
//! forms of values are in `format.rs`.

use std::fmt::Write;

use unicode_general_category::{GeneralCategory, get_general_category};

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
    if super::unicode15::newer_than_go(c) {
        return false;
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
    fn quote_escapes_as_go() {
        assert_eq!(quote("a\"b\\\n\x01é"), "\"a\\\"b\\\\\\n\\x01é\"");
    }
}
