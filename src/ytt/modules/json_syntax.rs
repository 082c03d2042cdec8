//! A JSON syntax check that words its errors as Go's `encoding/json` does
//! (`invalid character 'o' looking for beginning of object key string`, `unexpected end
//! of JSON input`, ...), so that `json.decode` failures read as they do in ytt (they
//! show up in `assert.try_to` results). Decoding itself is [`super::json_decode`]'s.

/// Nesting deeper than this fails, as Go's decoder does.
const MAX_DEPTH: usize = 10_000;

/// Checks that `s` is one JSON value with optional surrounding whitespace.
pub fn check(s: &str) -> Result<(), String> {
    let mut c = Checker {
        b: s.as_bytes(),
        i: 0,
        depth: 0,
    };
    c.value()?;
    c.ws();
    match c.peek() {
        None => Ok(()),
        Some(x) => Err(format!(
            "invalid character {} after top-level value",
            quote_char(x)
        )),
    }
}

/// Go's `quoteChar`.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".into(),
        b'"' => "'\"'".into(),
        b'\n' => "'\\n'".into(),
        b'\r' => "'\\r'".into(),
        b'\t' => "'\\t'".into(),
        0x20..=0x7e => format!("'{}'", c as char),
        0x80..=0xff => format!("'{}'", char::from(c)),
        _ => format!("'\\x{c:02x}'"),
    }
}

struct Checker<'a> {
    b: &'a [u8],
    i: usize,
    depth: usize,
}

const EOF: &str = "unexpected end of JSON input";

impl Checker<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn next(&mut self) -> Result<u8, String> {
        let c = self.peek().ok_or(EOF)?;
        self.i += 1;
        Ok(c)
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn bad(c: u8, context: &str) -> String {
        format!("invalid character {} {context}", quote_char(c))
    }

    fn value(&mut self) -> Result<(), String> {
        self.ws();
        let c = self.next()?;
        match c {
            b'{' => self.nested(Self::object),
            b'[' => self.nested(Self::array),
            b'"' => self.string(),
            b'-' | b'0'..=b'9' => self.number(c),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            _ => Err(Self::bad(c, "looking for beginning of value")),
        }
    }

    fn nested(&mut self, f: fn(&mut Self) -> Result<(), String>) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("exceeded max depth".into());
        }
        f(self)?;
        self.depth -= 1;
        Ok(())
    }

    fn object(&mut self) -> Result<(), String> {
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(());
        }
        loop {
            match self.next()? {
                b'"' => self.string()?,
                c => return Err(Self::bad(c, "looking for beginning of object key string")),
            }
            self.ws();
            match self.next()? {
                b':' => {}
                c => return Err(Self::bad(c, "after object key")),
            }
            self.value()?;
            self.ws();
            match self.next()? {
                b',' => self.ws(),
                b'}' => return Ok(()),
                c => return Err(Self::bad(c, "after object key:value pair")),
            }
        }
    }

    fn array(&mut self) -> Result<(), String> {
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(());
        }
        loop {
            self.value()?;
            self.ws();
            match self.next()? {
                b',' => {}
                b']' => return Ok(()),
                c => return Err(Self::bad(c, "after array element")),
            }
        }
    }

    fn string(&mut self) -> Result<(), String> {
        loop {
            match self.next()? {
                b'"' => return Ok(()),
                b'\\' => match self.next()? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => {
                        for _ in 0..4 {
                            let h = self.next()?;
                            if !h.is_ascii_hexdigit() {
                                return Err(Self::bad(h, "in \\u hexadecimal character escape"));
                            }
                        }
                    }
                    c => return Err(Self::bad(c, "in string escape code")),
                },
                c if c < 0x20 => return Err(Self::bad(c, "in string literal")),
                _ => {}
            }
        }
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
    }

    /// A number whose first byte `first` was read; what follows it is the caller's.
    fn number(&mut self, first: u8) -> Result<(), String> {
        let lead = if first == b'-' { self.next()? } else { first };
        match lead {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            c => return Err(Self::bad(c, "in numeric literal")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            match self.next()? {
                b'0'..=b'9' => self.digits(),
                c => return Err(Self::bad(c, "after decimal point in numeric literal")),
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            let mut c = self.next()?;
            if c == b'+' || c == b'-' {
                c = self.next()?;
            }
            match c {
                b'0'..=b'9' => self.digits(),
                c => return Err(Self::bad(c, "in exponent of numeric literal")),
            }
        }
        Ok(())
    }

    /// The rest of `word`, whose first byte was read.
    fn literal(&mut self, word: &str) -> Result<(), String> {
        for want in word.bytes().skip(1) {
            let c = self.next()?;
            if c != want {
                return Err(Self::bad(
                    c,
                    &format!("in literal {word} (expecting {})", quote_char(want)),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn valid_documents_pass() {
        for s in [
            "{}",
            " [1, -2.5e+3, \"a\\u00e9\\n\", true, false, null, {\"k\": [ ]}] ",
            "0",
            "\"\"",
        ] {
            assert_eq!(check(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn errors_are_worded_as_go_words_them() {
        for (s, want) in [
            (
                "{oops",
                "invalid character 'o' looking for beginning of object key string",
            ),
            ("", "unexpected end of JSON input"),
            ("[1,", "unexpected end of JSON input"),
            (
                "(not JSON)",
                "invalid character '(' looking for beginning of value",
            ),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\": 1 \"b\"}",
                "invalid character '\"' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            ("1 2", "invalid character '2' after top-level value"),
            ("01", "invalid character '1' after top-level value"),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            ("tru", "unexpected end of JSON input"),
            (
                "nul1",
                "invalid character '1' in literal null (expecting 'l')",
            ),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("\"\\q\"", "invalid character 'q' in string escape code"),
            (
                "\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            (
                "{'a': 1}",
                "invalid character '\\'' looking for beginning of object key string",
            ),
        ] {
            assert_eq!(check(s), Err(want.to_string()), "{s}");
        }
    }
}
