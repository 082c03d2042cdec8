//! Decoding JSON that [`super::json_syntax::check`] accepted into plain values, as Go's
//! `encoding/json` decodes into `interface{}`: every number a float64 (one out of its
//! range fails with Go's `UnmarshalTypeError` text), `\u` escapes of lone or unpaired
//! UTF-16 surrogates read as U+FFFD, a repeated object key keeping its last value, and
//! object keys sorted (Go maps have no order; ytt sorts them).

use crate::yaml::Value as Y;

/// Decodes `s`, known to be syntactically valid JSON.
pub fn decode(s: &str) -> Result<Y, String> {
    let mut d = Decoder {
        b: s.as_bytes(),
        i: 0,
        range_error: None,
    };
    let v = d.value();
    // Go finishes decoding and then reports the first number it could not store.
    match d.range_error {
        Some(n) => Err(format!(
            "json: cannot unmarshal number {n} into Go value of type float64"
        )),
        None => Ok(v),
    }
}

struct Decoder<'a> {
    b: &'a [u8],
    i: usize,
    range_error: Option<String>,
}

impl Decoder<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn value(&mut self) -> Y {
        self.ws();
        match self.b.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut items: Vec<(Y, Y)> = Vec::new();
                loop {
                    self.ws();
                    if self.b.get(self.i) == Some(&b'}') {
                        self.i += 1;
                        break;
                    }
                    let k = self.string();
                    self.ws();
                    self.i += 1; // ':'
                    let v = self.value();
                    match items
                        .iter_mut()
                        .find(|(x, _)| matches!(x, Y::String(x) if *x == k))
                    {
                        Some(item) => item.1 = v,
                        None => items.push((Y::String(k), v)),
                    }
                    self.ws();
                    if self.b.get(self.i) == Some(&b',') {
                        self.i += 1;
                    }
                }
                items.sort_by_key(|a| a.0.to_display_string());
                Y::Map(items)
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.ws();
                    if self.b.get(self.i) == Some(&b']') {
                        self.i += 1;
                        break;
                    }
                    items.push(self.value());
                    self.ws();
                    if self.b.get(self.i) == Some(&b',') {
                        self.i += 1;
                    }
                }
                Y::Array(items)
            }
            Some(b'"') => Y::String(self.string()),
            Some(b't') => {
                self.i += 4;
                Y::Bool(true)
            }
            Some(b'f') => {
                self.i += 5;
                Y::Bool(false)
            }
            Some(b'n') => {
                self.i += 4;
                Y::Null
            }
            _ => self.number(),
        }
    }

    fn number(&mut self) -> Y {
        let start = self.i;
        while self.i < self.b.len()
            && matches!(
                self.b[self.i],
                b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'
            )
        {
            self.i += 1;
        }
        let text = String::from_utf8_lossy(&self.b[start..self.i]).into_owned();
        let f: f64 = text.parse().unwrap_or(f64::NAN);
        if !f.is_finite() {
            self.range_error.get_or_insert(text);
            return Y::Null;
        }
        Y::Float(f)
    }

    fn hex4(&self, at: usize) -> Option<u32> {
        let h = self.b.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }

    /// A string from its opening quote, escapes decoded as Go's `unquote` does.
    fn string(&mut self) -> String {
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        while self.i < self.b.len() && self.b[self.i] != b'"' {
            let c = self.b[self.i];
            if c != b'\\' {
                out.push(c);
                self.i += 1;
                continue;
            }
            let e = self.b[self.i + 1];
            self.i += 2;
            let ch = match e {
                b'b' => '\u{8}',
                b'f' => '\u{c}',
                b'n' => '\n',
                b'r' => '\r',
                b't' => '\t',
                b'u' => {
                    let r = self.hex4(self.i).unwrap_or(0xFFFD);
                    self.i += 4;
                    if (0xD800..0xE000).contains(&r) {
                        let low = if self.b.get(self.i..self.i + 2) == Some(b"\\u") {
                            self.hex4(self.i + 2)
                        } else {
                            None
                        };
                        match low {
                            Some(lo) if r < 0xDC00 && (0xDC00..0xE000).contains(&lo) => {
                                self.i += 6;
                                char::from_u32(0x10000 + ((r - 0xD800) << 10) + (lo - 0xDC00))
                                    .unwrap_or('\u{FFFD}')
                            }
                            _ => '\u{FFFD}',
                        }
                    } else {
                        char::from_u32(r).unwrap_or('\u{FFFD}')
                    }
                }
                other => other as char,
            };
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
        self.i += 1;
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surrogates_numbers_and_repeated_keys() {
        assert_eq!(
            decode(r#""\ud800x\ud83d\ude00\udc00""#),
            Ok(Y::String("\u{FFFD}x\u{1F600}\u{FFFD}".into()))
        );
        assert_eq!(
            decode(r#"{"b": 1, "a": 2, "b": 3}"#),
            Ok(Y::Map(vec![
                (Y::String("a".into()), Y::Float(2.0)),
                (Y::String("b".into()), Y::Float(3.0)),
            ]))
        );
        assert_eq!(
            decode("[1e400, -1e999]"),
            Err("json: cannot unmarshal number 1e400 into Go value of type float64".into())
        );
        assert_eq!(decode("1e-400"), Ok(Y::Float(0.0)));
    }
}
