//! YAML 1.1 scalar resolution as go-yaml v2 (ytt's fork) does it: which plain scalars are
//! booleans, nulls, ints and floats, how explicit tags convert values, and which strings
//! would need quoting because they would resolve to something else.

use std::borrow::Cow;

use super::value::Value;

/// The core tags a scalar can carry (short `!!x` form or the long `tag:yaml.org,2002:x`).
const CORE_PREFIX: &str = "tag:yaml.org,2002:";

/// Resolves an untagged plain scalar as go-yaml v2 does.
///
/// * `y Y yes Yes YES true True TRUE on On ON` → `true`; the `n/no/false/off` forms → `false`
/// * `""`, `~`, `null`, `Null`, `NULL` → null
/// * `.inf` forms, `+.inf`, `-.inf`, `.nan` forms → floats
/// * ints via Go `ParseInt(s, 0, 64)` after removing `_`: `0x`/`0o`/`0b` prefixes, leading-zero
///   octal, signs; then `uint64`; then YAML-style floats (`1e3`, `3.`, `.5`); then `0b`/`-0b`
/// * timestamps (`2001-12-14`, ...) stay strings (go-yaml returns them as strings too)
/// * everything else is a string.
pub fn resolve_plain(s: &str) -> Value {
    match resolve_core(s) {
        Resolved::Value(v) => v,
        Resolved::Timestamp | Resolved::Str => Value::String(s.to_string()),
        Resolved::Merge => Value::String(s.to_string()),
    }
}

/// [`resolve_plain`] taking the text by value, so an owned string becomes the value without
/// a copy.
pub fn resolve_plain_cow(s: Cow<'_, str>) -> Value {
    match resolve_core(&s) {
        Resolved::Value(v) => v,
        Resolved::Timestamp | Resolved::Str | Resolved::Merge => Value::String(s.into_owned()),
    }
}

/// Whether the plain scalar `<<` (merge key) is meant.
pub fn is_merge_key(s: &str) -> bool {
    s == "<<"
}

#[derive(Debug, PartialEq)]
pub(super) enum Resolved {
    Value(Value),
    Timestamp,
    Merge,
    Str,
}

pub(super) fn resolve_core(s: &str) -> Resolved {
    let first = s.as_bytes().first().copied();
    let hint = match first {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(b'<') if s == "<<" => return Resolved::Merge,
        _ => return Resolved::Str,
    };
    if let Some(v) = lookup_map(s) {
        return Resolved::Value(v);
    }
    match hint {
        b'M' | b'N' => Resolved::Str,
        b'.' => match go_parse_float(s) {
            Some(f) => Resolved::Value(Value::Float(f)),
            None => Resolved::Str,
        },
        _ => {
            if is_timestamp(s) {
                return Resolved::Timestamp;
            }
            let plain: Cow<'_, str> = if s.contains('_') {
                Cow::Owned(s.chars().filter(|c| *c != '_').collect())
            } else {
                Cow::Borrowed(s)
            };
            if let Some(i) = go_parse_int_base0(&plain) {
                return Resolved::Value(Value::Int(i));
            }
            if is_yaml_style_float(&plain)
                && let Some(f) = go_parse_float(&plain)
            {
                return Resolved::Value(Value::Float(f));
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                if let Some(i) = parse_digits(rest, 2) {
                    return Resolved::Value(Value::Int(i));
                }
            } else if let Some(rest) = plain.strip_prefix("-0b")
                && let Some(i) = parse_digits(rest, 2)
                && i <= i128::from(i64::MAX) + 1
            {
                return Resolved::Value(Value::Int(-i));
            }
            Resolved::Str
        }
    }
}

fn lookup_map(s: &str) -> Option<Value> {
    Some(match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        ".nan" | ".NaN" | ".NAN" => Value::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Value::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// Go's `strconv.ParseInt(s, 0, 64)` falling back to `ParseUint(s, 0, 64)`: optional sign
/// (unsigned: none), base prefixes `0x`/`0X`, `0o`/`0O`, `0b`/`0B`, a leading `0` for octal.
/// Underscores were removed by the caller. Returns `None` for syntax errors or overflow.
fn go_parse_int_base0(s: &str) -> Option<i128> {
    let (neg, body) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    if body.is_empty() {
        return None;
    }
    let b = body.as_bytes();
    let (radix, digits) = if b[0] == b'0' && b.len() > 1 {
        match b[1] {
            b'x' | b'X' => (16, &body[2..]),
            b'o' | b'O' => (8, &body[2..]),
            b'b' | b'B' => (2, &body[2..]),
            _ => (8, &body[1..]),
        }
    } else {
        (10, body)
    };
    let mag = parse_digits(digits, radix)?;
    if neg {
        // ParseInt only (ParseUint rejects signs).
        if mag <= i128::from(i64::MAX) + 1 {
            Some(-mag)
        } else {
            None
        }
    } else if mag <= i128::from(i64::MAX) {
        Some(mag)
    } else if s.starts_with('+') {
        None // ParseUint does not accept a sign
    } else if mag <= i128::from(u64::MAX) {
        Some(mag)
    } else {
        None
    }
}

fn parse_digits(digits: &str, radix: u32) -> Option<i128> {
    if digits.is_empty() {
        return None;
    }
    let mut acc: i128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        acc = acc
            .checked_mul(i128::from(radix))?
            .checked_add(i128::from(d))?;
        if acc > i128::from(u64::MAX) + 1 {
            return None;
        }
    }
    Some(acc)
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Go's `strconv.ParseFloat(s, 64)` for the decimal forms go-yaml can reach: out-of-range
/// values are errors (so `1e400` stays a string). Hex floats, `inf` and `nan` words are not
/// accepted here (go-yaml only reaches ParseFloat for `.`-prefixed or YAML-style floats).
fn go_parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if body.is_empty()
        || !body
            .bytes()
            .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-' | b'_'))
    {
        return None;
    }
    if !body.bytes().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let _ = b;
    let f: f64 = if body.contains('_') {
        // Go's `underscoreOK`: each `_` sits between two digits.
        let bytes = body.as_bytes();
        let ok = bytes.iter().enumerate().all(|(i, &c)| {
            c != b'_'
                || (i > 0
                    && bytes[i - 1].is_ascii_digit()
                    && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        });
        if !ok {
            return None;
        }
        s.replace('_', "").parse().ok()?
    } else {
        s.parse().ok()?
    };
    if f.is_infinite() {
        return None;
    }
    Some(f)
}

/// go-yaml's timestamp check: starts with four digits and `-`, and parses as one of
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999`, or
/// `2006-1-2`.
pub fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let rest = &s[5..];
    // month-day
    let mut p = Cursor { s: rest, i: 0 };
    if !p.num(1, 2, 1, 12) || !p.lit('-') {
        return false;
    }
    let month: u32 = rest[..p.i - 1].parse().unwrap_or(0);
    let day_start = p.i;
    if !p.num(1, 2, 1, 31) {
        return false;
    }
    // Go's time.Parse refuses a day past the end of its month ("day out of range").
    let year: u32 = s[..4].parse().unwrap_or(0);
    let day: u32 = rest[day_start..p.i].parse().unwrap_or(0);
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day > days_in_month {
        return false;
    }
    if p.done() {
        return true;
    }
    let sep = p.peek();
    match sep {
        Some('T') | Some('t') => {
            p.i += 1;
            if !p.clock() {
                return false;
            }
            // zone: Z or ±hh:mm
            if p.lit('Z') {
                return p.done();
            }
            match p.peek() {
                Some('+') | Some('-') => {
                    p.i += 1;
                    p.num(2, 2, 0, 23) && p.lit(':') && p.num(2, 2, 0, 59) && p.done()
                }
                _ => false,
            }
        }
        Some(' ') => {
            p.i += 1;
            p.clock() && p.done()
        }
        _ => false,
    }
}

struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.i == self.s.len()
    }
    fn peek(&self) -> Option<char> {
        self.s[self.i..].chars().next()
    }
    fn lit(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += c.len_utf8();
            true
        } else {
            false
        }
    }
    fn num(&mut self, min_len: usize, max_len: usize, lo: u32, hi: u32) -> bool {
        let b = self.s.as_bytes();
        let start = self.i;
        while self.i < b.len() && self.i - start < max_len && b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let len = self.i - start;
        if len < min_len {
            return false;
        }
        let v: u32 = self.s[start..self.i].parse().unwrap_or(u32::MAX);
        v >= lo && v <= hi
    }
    /// `15:4:5` with optional `.fraction`.
    fn clock(&mut self) -> bool {
        if !(self.num(1, 2, 0, 23) && self.lit(':') && self.num(1, 2, 0, 59) && self.lit(':')) {
            return false;
        }
        if !self.num(1, 2, 0, 59) {
            return false;
        }
        if self.lit('.') {
            let b = self.s.as_bytes();
            let start = self.i;
            while self.i < b.len() && b[self.i].is_ascii_digit() {
                self.i += 1;
            }
            if self.i == start || self.i - start > 9 {
                return false;
            }
        }
        true
    }
}

/// go-yaml's base-60 float check used when deciding to quote (`1:30`, `-1:20:30.5`).
pub fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(&c) = b.first() else { return false };
    if !(c == b'+' || c == b'-' || c.is_ascii_digit()) || !s.contains(':') {
        return false;
    }
    // ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
    let mut i = 0;
    if b[i] == b'+' || b[i] == b'-' {
        i += 1;
    }
    if i >= b.len() || !b[i].is_ascii_digit() {
        return false;
    }
    i += 1;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while i < b.len() && b[i] == b':' {
        i += 1;
        // [0-5]?[0-9]
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        match i - start {
            1 => {}
            2 if b[start] <= b'5' => {}
            2 => {
                // "[0-5]?[0-9]" cannot take two digits starting with 6-9; try one digit,
                // which then must be followed by ':' '.' or end.
                i = start + 1;
            }
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

/// Whether go-yaml would emit this string without quotes as far as resolution goes: it must
/// resolve back to a string when read plain, and not look like a base-60 float.
pub fn resolves_to_str(s: &str) -> bool {
    resolve_core(s) == Resolved::Str && !is_base60_float(s)
}

/// Normalises a tag to go-yaml's long form (`!!int` → `tag:yaml.org,2002:int`).
pub fn long_tag(tag: &str) -> String {
    match tag.strip_prefix("!!") {
        Some(rest) => format!("{CORE_PREFIX}{rest}"),
        None => tag.to_string(),
    }
}

/// Short form of a tag for messages (`tag:yaml.org,2002:int` → `!!int`).
pub fn short_tag(tag: &str) -> String {
    match tag.strip_prefix(CORE_PREFIX) {
        Some(rest) => format!("!!{rest}"),
        None => tag.to_string(),
    }
}

/// Resolves a scalar carrying an explicit tag (long form), as go-yaml's `resolve(tag, in)`.
/// Unknown (custom) tags give the string. Errors read like go-yaml's
/// ``cannot decode !!str `abc` as a !!int``.
pub fn resolve_tagged(tag: &str, s: &str) -> Result<Value, String> {
    let suffix = tag.strip_prefix(CORE_PREFIX);
    match suffix {
        Some("str") => Ok(Value::String(s.to_string())),
        Some("binary") => {
            use base64::Engine as _;
            // Go's base64.StdEncoding.DecodeString skips only line breaks.
            let cleaned: String = s.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(cleaned.as_bytes())
                .map_err(|_| "!!binary value contains invalid base64 data".to_string())?;
            // Bytes that are no UTF-8 stay bytes, as in a Go string.
            Ok(Value::String(match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(e) => crate::go_bytes::from_bytes(e.as_bytes()),
            }))
        }
        Some(t @ ("bool" | "int" | "float" | "null" | "timestamp")) => {
            let (rtag, value) = match resolve_core(s) {
                Resolved::Value(v) => (value_tag(&v), v),
                Resolved::Timestamp => ("timestamp", Value::String(s.to_string())),
                Resolved::Str | Resolved::Merge => ("str", Value::String(s.to_string())),
            };
            if rtag == t {
                return Ok(value);
            }
            if t == "float"
                && let Value::Int(i) = value
            {
                return Ok(Value::Float(i as f64));
            }
            Err(format!("cannot decode !!{rtag} `{s}` as a !!{t}"))
        }
        // `!!merge`, `!!map`, `!!seq` on a scalar, custom tags and `!`: the text as a string.
        _ => Ok(Value::String(s.to_string())),
    }
}

fn value_tag(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Float(_) => "float",
        _ => "str",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Value {
        resolve_plain(s)
    }

    #[test]
    fn booleans() {
        for t in [
            "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
        ] {
            assert_eq!(r(t), Value::Bool(true), "{t}");
        }
        for f in [
            "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
        ] {
            assert_eq!(r(f), Value::Bool(false), "{f}");
        }
        for s in ["yES", "tRUE", "oN", "yesterday", "nullable"] {
            assert_eq!(r(s), Value::str(s), "{s}");
        }
    }

    #[test]
    fn nulls() {
        for n in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(r(n), Value::Null, "{n:?}");
        }
        assert_eq!(r("nULL"), Value::str("nULL"));
        assert_eq!(r("~x"), Value::str("~x"));
    }

    #[test]
    fn integers() {
        let cases: &[(&str, i128)] = &[
            ("42", 42),
            ("-17", -17),
            ("+8", 8),
            ("0", 0),
            ("017", 15),
            ("0755", 493),
            ("0o17", 15),
            ("0x1F", 31),
            ("0XFF", 255),
            ("0b1010", 10),
            ("-0b11", -3),
            ("1_000_000", 1_000_000),
            ("12345678901234567890", 12345678901234567890),
            ("9223372036854775807", 9223372036854775807),
            ("-9223372036854775808", -9223372036854775808),
        ];
        for (s, want) in cases {
            assert_eq!(r(s), Value::Int(*want), "{s}");
        }
    }

    #[test]
    fn floats() {
        let cases: &[(&str, f64)] = &[
            ("1.5", 1.5),
            ("-0.25", -0.25),
            ("1e3", 1000.0),
            ("1.5e+3", 1500.0),
            ("2.5e-4", 0.00025),
            ("3.", 3.0),
            (".5", 0.5),
            ("10.0", 10.0),
            ("089", 89.0),
            ("99999999999999999999", 99999999999999999999.0),
            ("+.inf", f64::INFINITY),
            (".5_5", 0.55),
            ("-.Inf", f64::NEG_INFINITY),
        ];
        for (s, want) in cases {
            assert_eq!(r(s), Value::Float(*want), "{s}");
        }
        assert!(matches!(r(".NaN"), Value::Float(f) if f.is_nan()));
        for s in [
            "1e400", ".", "1.2.3", "10.0.0.1", "+x", "-", "._", ".e5", "1e", "+inf", ".5_", "._5",
        ] {
            assert_eq!(r(s), Value::str(s), "{s}");
        }
    }

    #[test]
    fn timestamps_stay_strings() {
        assert!(is_timestamp("2001-12-14"));
        assert!(is_timestamp("2001-12-14t21:59:43.10-05:00"));
        assert!(is_timestamp("2001-12-14T21:59:43Z"));
        assert!(is_timestamp("2001-12-14 21:59:43.10"));
        assert!(is_timestamp("2024-1-2"));
        assert!(!is_timestamp("2001-13-14"));
        assert!(!is_timestamp("2001-02-30"));
        assert!(!is_timestamp("2023-02-29"));
        assert!(is_timestamp("2024-02-29"));
        assert!(!is_timestamp("1900-02-29"));
        assert!(is_timestamp("2000-02-29"));
        assert!(!is_timestamp("2001-04-31 10:00:00"));
        assert!(!is_timestamp("20011-12-14"));
        assert_eq!(r("2001-12-14"), Value::str("2001-12-14"));
        assert!(!resolves_to_str("2001-12-14"));
    }

    #[test]
    fn base60() {
        assert!(is_base60_float("1:30"));
        assert!(is_base60_float("12:30"));
        assert!(is_base60_float("-1:20:30.5"));
        assert!(is_base60_float("190:20:30"));
        assert!(!is_base60_float("1:"));
        assert!(!is_base60_float("a:b"));
        assert!(!is_base60_float("1:2:"));
        assert!(!is_base60_float("http://x"));
        assert_eq!(r("1:30"), Value::str("1:30"));
        assert!(!resolves_to_str("1:30"));
    }

    #[test]
    fn quoting_need() {
        for s in [
            "yes",
            "no",
            "on",
            "y",
            "true",
            "123",
            "-5",
            "1.5",
            "1e3",
            "0x10",
            "0o17",
            "null",
            "~",
            "",
            "2024-01-02",
            "12:30",
            ".inf",
            "<<",
        ] {
            assert!(!resolves_to_str(s), "{s:?} must be quoted");
        }
        for s in [
            "1.2.3",
            "v1",
            "a:b",
            "+x",
            "_",
            ".",
            "~x",
            "yesterday",
            "hello",
        ] {
            assert!(resolves_to_str(s), "{s:?} may be plain");
        }
    }

    #[test]
    fn tags() {
        let t = |tag: &str, s: &str| resolve_tagged(&long_tag(tag), s);
        assert_eq!(t("!!str", "123"), Ok(Value::str("123")));
        assert_eq!(t("!!str", "true"), Ok(Value::str("true")));
        assert_eq!(t("!!int", "42"), Ok(Value::Int(42)));
        assert_eq!(t("!!float", "7"), Ok(Value::Float(7.0)));
        assert_eq!(t("!!bool", "yes"), Ok(Value::Bool(true)));
        assert_eq!(t("!!null", ""), Ok(Value::Null));
        assert_eq!(t("!custom", "1"), Ok(Value::str("1")));
        assert_eq!(t("!!binary", "aGVsbG8="), Ok(Value::str("hello")));
        assert_eq!(
            t("!!int", "abc"),
            Err("cannot decode !!str `abc` as a !!int".to_string())
        );
        assert_eq!(short_tag("tag:yaml.org,2002:int"), "!!int");
    }
}
