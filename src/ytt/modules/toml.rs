//! `@ytt:toml`: a TOML encoder printing like the Go encoder ytt uses (sorted keys, plain
//! values before tables, two-space indentation under table headers) and a TOML 1.0
//! decoder (tables, arrays of tables, inline tables, arrays, and the scalars of
//! `toml_scalar`).

use super::toml_scalar;
use crate::yaml::Value as Y;

/// A basic string as the Go encoder writes it: `"` and `\\` escaped, the short escapes
/// for backspace, tab, newline, form feed and carriage return, other control bytes and
/// DEL as lower-case `\u00XX`.
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A float as the Go encoder writes it: `strconv.FormatFloat(f, 'f', -1, 64)` (all
/// digits, never an exponent) with `.0` added when there is no decimal point.
fn float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+inf" } else { "-inf" }.into();
    }
    let s = format!("{f}");
    if s.contains('.') { s } else { format!("{s}.0") }
}

fn bare_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        quote(k)
    }
}

fn inline(v: &Y) -> Result<String, String> {
    Ok(match v {
        Y::Null => return Err("toml.encode: null values cannot be encoded".into()),
        Y::Bool(b) => b.to_string(),
        Y::Int(i) => i.to_string(),
        Y::Float(f) => float(*f),
        Y::String(s) => quote(s),
        Y::Array(items) => {
            let parts: Result<Vec<_>, _> = items.iter().map(inline).collect();
            format!("[{}]", parts?.join(", "))
        }
        Y::Map(items) => {
            let mut parts = Vec::new();
            for (k, v) in sorted(items) {
                if matches!(v, Y::Null) {
                    continue;
                }
                parts.push(format!("{} = {}", bare_key(&k), inline(v)?));
            }
            format!("{{{}}}", parts.join(", "))
        }
    })
}

fn sorted(items: &[(Y, Y)]) -> Vec<(String, &Y)> {
    let mut v: Vec<(String, &Y)> = items
        .iter()
        .map(|(k, v)| (k.to_display_string(), v))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// True for a non-empty array of maps only: the Go encoder writes those as `[[name]]`
/// sections. A null element cannot be encoded.
fn is_table_array(v: &Y) -> Result<bool, String> {
    let Y::Array(items) = v else { return Ok(false) };
    if items.iter().any(|i| matches!(i, Y::Null)) {
        return Err("toml: cannot encode array with nil element".into());
    }
    Ok(!items.is_empty() && items.iter().all(|i| matches!(i, Y::Map(_))))
}

/// Writes the entries of a table at `path`: its plain values first, then its tables and
/// arrays of tables, each group in key order, indented `unit` spaces per level. Null
/// values are left out, as the Go encoder leaves out nil map values.
fn table(path: &[String], items: &[(Y, Y)], unit: usize, out: &mut String) -> Result<(), String> {
    let indent = " ".repeat(unit * path.len());
    let entries: Vec<(String, &Y)> = sorted(items)
        .into_iter()
        .filter(|(_, v)| !matches!(v, Y::Null))
        .collect();
    let mut subs = Vec::new();
    for (k, v) in &entries {
        if matches!(v, Y::Map(_)) || is_table_array(v)? {
            subs.push((k, *v));
        } else {
            out.push_str(&format!("{indent}{} = {}\n", bare_key(k), inline(v)?));
        }
    }
    for (k, v) in subs {
        let mut p = path.to_vec();
        p.push(k.clone());
        let header: Vec<String> = p.iter().map(|s| bare_key(s)).collect();
        let header_indent = " ".repeat(unit * (p.len() - 1));
        match v {
            Y::Map(sub) => {
                // A blank line before top-level tables only.
                if p.len() == 1 && !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!("{header_indent}[{}]\n", header.join(".")));
                table(&p, sub, unit, out)?;
            }
            Y::Array(elems) => {
                for e in elems {
                    let Y::Map(sub) = e else { continue };
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(&format!("{header_indent}[[{}]]\n", header.join(".")));
                    table(&p, sub, unit, out)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Encodes a map as a TOML document, indenting `unit` spaces per table level.
pub fn encode(v: &Y, unit: usize) -> Result<String, String> {
    let Y::Map(items) = v else {
        return Err("toml: top-level values must be Go maps or structs".into());
    };
    let mut out = String::new();
    table(&[], items, unit, &mut out)?;
    Ok(out)
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t') {
            self.i += 1;
        }
    }
    fn ws_nl(&mut self) {
        loop {
            self.ws();
            if self.i < self.s.len() && matches!(self.s[self.i], b'\n' | b'\r') {
                self.i += 1;
            } else if self.i < self.s.len() && self.s[self.i] == b'#' {
                while self.i < self.s.len() && self.s[self.i] != b'\n' {
                    self.i += 1;
                }
            } else {
                break;
            }
        }
    }
    fn key(&mut self) -> Result<Vec<String>, String> {
        let mut parts = Vec::new();
        loop {
            self.ws();
            let part = if self.i < self.s.len() && matches!(self.s[self.i], b'"' | b'\'') {
                match self.value()? {
                    Y::String(s) => s,
                    _ => unreachable!(),
                }
            } else {
                let start = self.i;
                while self.i < self.s.len()
                    && (self.s[self.i].is_ascii_alphanumeric()
                        || matches!(self.s[self.i], b'_' | b'-'))
                {
                    self.i += 1;
                }
                if start == self.i {
                    return Err(format!("toml.decode: expected a key at offset {start}"));
                }
                String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
            };
            parts.push(part);
            self.ws();
            if self.i < self.s.len() && self.s[self.i] == b'.' {
                self.i += 1;
            } else {
                return Ok(parts);
            }
        }
    }
    fn value(&mut self) -> Result<Y, String> {
        self.ws();
        let Some(&c) = self.s.get(self.i) else {
            return Err("toml.decode: expected a value".into());
        };
        match c {
            b'"' | b'\'' => toml_scalar::string(self.s, &mut self.i).map(Y::String),
            b'[' => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws_nl();
                    if self.s.get(self.i) == Some(&b']') {
                        self.i += 1;
                        return Ok(Y::Array(items));
                    }
                    items.push(self.value()?);
                    self.ws_nl();
                    if self.s.get(self.i) == Some(&b',') {
                        self.i += 1;
                    }
                }
            }
            b'{' => {
                self.i += 1;
                let mut map = Vec::new();
                loop {
                    self.ws();
                    if self.s.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        return Ok(Y::Map(map));
                    }
                    let k = self.key()?;
                    self.ws();
                    self.i += 1; // '='
                    let v = self.value()?;
                    insert(&mut map, &k, v)?;
                    self.ws();
                    if self.s.get(self.i) == Some(&b',') {
                        self.i += 1;
                    }
                }
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && !matches!(self.s[self.i], b',' | b']' | b'}' | b'\n' | b'\r' | b'#')
                {
                    self.i += 1;
                }
                let word = String::from_utf8_lossy(&self.s[start..self.i])
                    .trim()
                    .to_string();
                toml_scalar::word(&word)
                    .ok_or_else(|| format!("toml.decode: unsupported value '{word}'"))
            }
        }
    }
}

fn table_at<'a>(root: &'a mut Vec<(Y, Y)>, path: &[String]) -> Result<&'a mut Vec<(Y, Y)>, String> {
    let mut cur = root;
    for p in path {
        let k = Y::String(p.clone());
        let idx = match cur.iter().position(|(kk, _)| *kk == k) {
            Some(i) => i,
            None => {
                cur.push((k, Y::Map(Vec::new())));
                cur.len() - 1
            }
        };
        // A path through an array of tables goes on in its last table.
        let next = match &mut cur[idx].1 {
            Y::Array(items) => items.last_mut(),
            other => Some(other),
        };
        match next {
            Some(Y::Map(m)) => cur = m,
            _ => return Err(format!("toml.decode: key '{p}' is not a table")),
        }
    }
    Ok(cur)
}

/// `[[path]]`: appends a new table to the array of tables at `path`.
fn push_table(root: &mut Vec<(Y, Y)>, path: &[String]) -> Result<(), String> {
    let (last, parents) = path.split_last().expect("table name");
    let t = table_at(root, parents)?;
    let k = Y::String(last.clone());
    match t.iter_mut().find(|(kk, _)| *kk == k) {
        Some((_, Y::Array(items))) => items.push(Y::Map(Vec::new())),
        Some(_) => {
            return Err(format!(
                "toml.decode: key '{last}' is not an array of tables"
            ));
        }
        None => t.push((k, Y::Array(vec![Y::Map(Vec::new())]))),
    }
    Ok(())
}

fn insert(map: &mut Vec<(Y, Y)>, key: &[String], v: Y) -> Result<(), String> {
    let (last, parents) = key.split_last().expect("key");
    let t = table_at(map, parents)?;
    t.push((Y::String(last.clone()), v));
    Ok(())
}

fn sort_keys(v: &mut Y) {
    match v {
        Y::Map(items) => {
            items.sort_by_key(|a| a.0.to_display_string());
            items.iter_mut().for_each(|(_, v)| sort_keys(v));
        }
        Y::Array(items) => items.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

/// Decodes a TOML document into a map (keys sorted, as Go maps come out).
pub fn decode(s: &str) -> Result<Y, String> {
    let mut p = P {
        s: s.as_bytes(),
        i: 0,
    };
    let mut root: Vec<(Y, Y)> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    loop {
        p.ws_nl();
        if p.i >= p.s.len() {
            break;
        }
        if p.s[p.i] == b'[' {
            let array = p.s.get(p.i + 1) == Some(&b'[');
            p.i += if array { 2 } else { 1 };
            current = p.key()?;
            p.ws();
            let close: &[u8] = if array { b"]]" } else { b"]" };
            if p.s.get(p.i..p.i + close.len()) != Some(close) {
                return Err("toml.decode: expected ']' after table name".into());
            }
            p.i += close.len();
            if array {
                push_table(&mut root, &current)?;
            } else {
                table_at(&mut root, &current)?;
            }
            continue;
        }
        let k = p.key()?;
        p.ws();
        if p.s.get(p.i) != Some(&b'=') {
            return Err(format!(
                "toml.decode: expected '=' after key '{}'",
                k.join(".")
            ));
        }
        p.i += 1;
        let v = p.value()?;
        let t = table_at(&mut root, &current)?;
        insert(t, &k, v)?;
    }
    let mut v = Y::Map(root);
    sort_keys(&mut v);
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let v = decode("name = \"n\"\n[section]\nkey = 1\nlist = [1, 2]\n").unwrap();
        assert_eq!(
            encode(&v, 2).unwrap(),
            "name = \"n\"\n\n[section]\n  key = 1\n  list = [1, 2]\n"
        );
    }
}
