//! Scalars of a TOML document as the TOML 1.0 decoder ytt uses reads them: basic and
//! literal strings (single- and multi-line, with every escape of the spec), integers in
//! decimal, hexadecimal, octal and binary with `_` between digits, floats with exponents,
//! `inf` and `nan`.

use crate::yaml::Value as Y;

/// Reads a string starting at `s[*i]` (a `"` or `'`); leaves `*i` after its closing quote.
pub fn string(s: &[u8], i: &mut usize) -> Result<String, String> {
    let q = s[*i];
    let multi = s.get(*i..*i + 3) == Some(&[q, q, q][..]);
    if multi {
        *i += 3;
        // A newline right after the opening delimiter is not part of the string.
        if s.get(*i) == Some(&b'\n') {
            *i += 1;
        } else if s.get(*i..*i + 2) == Some(b"\r\n") {
            *i += 2;
        }
    } else {
        *i += 1;
    }
    let mut out: Vec<u8> = Vec::new();
    loop {
        let Some(&c) = s.get(*i) else {
            return Err("toml.decode: unterminated string".into());
        };
        if c == q {
            if !multi {
                *i += 1;
                break;
            }
            if s.get(*i..*i + 3) == Some(&[q, q, q][..]) {
                // Up to two quotes may sit right before the closing delimiter.
                let mut run = 3;
                while run < 5 && s.get(*i + run) == Some(&q) {
                    run += 1;
                }
                out.extend(std::iter::repeat_n(q, run - 3));
                *i += run;
                break;
            }
        }
        if c == b'\\' && q == b'"' {
            *i += 1;
            escape(s, i, multi, &mut out)?;
            continue;
        }
        if c == b'\n' && !multi {
            return Err("toml.decode: unterminated string".into());
        }
        out.push(c);
        *i += 1;
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// One escape of a basic string; `s[*i]` is the byte after the backslash.
fn escape(s: &[u8], i: &mut usize, multi: bool, out: &mut Vec<u8>) -> Result<(), String> {
    let Some(&e) = s.get(*i) else {
        return Err("toml.decode: unterminated string".into());
    };
    *i += 1;
    let simple: Option<&[u8]> = match e {
        b'b' => Some(b"\x08"),
        b't' => Some(b"\t"),
        b'n' => Some(b"\n"),
        b'f' => Some(b"\x0c"),
        b'r' => Some(b"\r"),
        b'"' => Some(b"\""),
        b'\\' => Some(b"\\"),
        _ => None,
    };
    if let Some(bytes) = simple {
        out.extend_from_slice(bytes);
        return Ok(());
    }
    match e {
        b'u' | b'U' => {
            let n = if e == b'u' { 4 } else { 8 };
            let hex = s
                .get(*i..*i + n)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32)
                .ok_or_else(|| "toml.decode: invalid unicode escape".to_string())?;
            *i += n;
            let mut buf = [0u8; 4];
            out.extend_from_slice(hex.encode_utf8(&mut buf).as_bytes());
            Ok(())
        }
        // A line-ending backslash in a multi-line string drops the line break and the
        // whitespace after it.
        b' ' | b'\t' | b'\r' | b'\n' if multi => {
            *i -= 1;
            let mut j = *i;
            while matches!(s.get(j), Some(b' ' | b'\t')) {
                j += 1;
            }
            if !matches!(s.get(j), Some(b'\n' | b'\r')) {
                return Err("toml.decode: invalid escape '\\ '".into());
            }
            while matches!(s.get(j), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                j += 1;
            }
            *i = j;
            Ok(())
        }
        other => Err(format!(
            "toml.decode: unsupported escape '\\{}'",
            other as char
        )),
    }
}

/// A bare value word (`true`, a number, `inf`, `nan`); `None` when it is none of them.
pub fn word(w: &str) -> Option<Y> {
    match w {
        "true" => return Some(Y::Bool(true)),
        "false" => return Some(Y::Bool(false)),
        "inf" | "+inf" => return Some(Y::Float(f64::INFINITY)),
        "-inf" => return Some(Y::Float(f64::NEG_INFINITY)),
        "nan" | "+nan" | "-nan" => return Some(Y::Float(f64::NAN)),
        _ => {}
    }
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = w.strip_prefix(prefix) {
            let digits = digits.replace('_', "");
            return i64::from_str_radix(&digits, radix)
                .ok()
                .map(|n| Y::Int(n.into()));
        }
    }
    let plain = w.replace('_', "");
    if let Ok(n) = plain.parse::<i64>() {
        return Some(Y::Int(n.into()));
    }
    let is_float = plain.contains(['.', 'e', 'E'])
        && plain
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if is_float {
        return plain.parse::<f64>().ok().map(Y::Float);
    }
    None
}
