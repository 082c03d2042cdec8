//! Annotation arguments that are constants: the compiler makes their values itself instead
//! of emitting code for the program to evaluate (see [`super::yaml::AnnSlot`]).
//!
//! Only forms whose value cannot depend on anything are taken: plain string literals
//! (quoted with `"` or `'`, holding neither their quote, a backslash nor a line break),
//! decimal int literals, and tuples of these, as positional arguments or after
//! `name=`. `True`, `False` and `None` are names that a template could rebind, so they,
//! like every other form, are left to the program.

use std::rc::Rc;

use crate::ytt::starlark::Value as SValue;

/// Positional and keyword arguments of an annotation.
pub type Args = (Vec<SValue>, Vec<(String, SValue)>);

/// The arguments of an annotation whose content (the text after its name) is empty or a
/// list of constants; `None` for any other content.
pub fn constant_args(content: &str) -> Option<Args> {
    let mut p = Reader {
        s: content.as_bytes(),
        i: 0,
    };
    let mut args = Vec::new();
    let mut kwargs: Vec<(String, SValue)> = Vec::new();
    p.skip_blanks();
    if p.at_end() {
        return Some((args, kwargs));
    }
    loop {
        if let Some(name) = p.keyword_name() {
            if kwargs.iter().any(|(k, _)| *k == name) {
                return None;
            }
            kwargs.push((name, p.value()?));
        } else if kwargs.is_empty() {
            args.push(p.value()?);
        } else {
            // A positional argument after a keyword one is an error the program reports.
            return None;
        }
        p.skip_blanks();
        if p.at_end() {
            return Some((args, kwargs));
        }
        p.expect(b',')?;
        p.skip_blanks();
    }
}

/// A cursor over annotation text.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn at_end(&self) -> bool {
        self.i == self.s.len()
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek() == Some(byte)).then(|| self.i += 1)
    }

    /// `name =` (not `==`) of a keyword argument, consumed; `None` (nothing consumed)
    /// when the argument is positional.
    fn keyword_name(&mut self) -> Option<String> {
        let start = self.i;
        let mut end = start;
        while end < self.s.len() && (self.s[end].is_ascii_alphanumeric() || self.s[end] == b'_') {
            end += 1;
        }
        if end == start || self.s[start].is_ascii_digit() {
            return None;
        }
        let mut after = end;
        while matches!(self.s.get(after), Some(b' ' | b'\t')) {
            after += 1;
        }
        if self.s.get(after) != Some(&b'=') || self.s.get(after + 1) == Some(&b'=') {
            return None;
        }
        self.i = after + 1;
        self.skip_blanks();
        // ASCII letters, digits and `_` only.
        Some(String::from_utf8_lossy(&self.s[start..end]).into_owned())
    }

    /// One constant: a string, an int or a tuple.
    fn value(&mut self) -> Option<SValue> {
        match self.peek()? {
            quote @ (b'"' | b'\'') => self.string(quote),
            b'0'..=b'9' => self.int(),
            b'(' => self.tuple(),
            _ => None,
        }
    }

    fn string(&mut self, quote: u8) -> Option<SValue> {
        let start = self.i + 1;
        // The closing quote must come before any backslash or line break.
        let len = memchr::memchr3(quote, b'\\', b'\n', &self.s[start..])?;
        if self.s[start + len] != quote {
            return None;
        }
        let text = &self.s[start..start + len];
        if memchr::memchr(b'\r', text).is_some() {
            return None;
        }
        // A `"""` string: its text would have started with the two quotes found empty.
        if len == 0 && self.s.get(start + 1) == Some(&quote) {
            return None;
        }
        self.i = start + len + 1;
        // The content is a &str, and a quote is ASCII: the slice is UTF-8.
        Some(SValue::Str(Rc::from(std::str::from_utf8(text).ok()?)))
    }

    /// A decimal int literal: `0`, or digits not starting with `0` (Starlark rejects
    /// `01`), short enough to be exact in 64 bits.
    fn int(&mut self) -> Option<SValue> {
        let start = self.i;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        let digits = &self.s[start..self.i];
        if (digits.len() > 1 && digits[0] == b'0')
            || digits.len() > 18
            || matches!(
                self.peek(),
                Some(b'.' | b'e' | b'E' | b'x' | b'X' | b'o' | b'O' | b'b' | b'B' | b'_')
            )
            || self.peek().is_some_and(|b| b.is_ascii_alphanumeric())
        {
            return None;
        }
        let text = std::str::from_utf8(digits).ok()?;
        Some(SValue::Int(text.parse::<i128>().ok()?))
    }

    /// `(a, b)`, `(a,)`, or `(a)` (which is `a`).
    fn tuple(&mut self) -> Option<SValue> {
        self.i += 1;
        let mut items = Vec::new();
        let mut trailing_comma = false;
        loop {
            self.skip_blanks();
            if self.peek() == Some(b')') {
                self.i += 1;
                break;
            }
            items.push(self.value()?);
            self.skip_blanks();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    trailing_comma = true;
                }
                b')' => {
                    self.i += 1;
                    trailing_comma = false;
                    break;
                }
                _ => return None,
            }
        }
        match (items.len(), trailing_comma) {
            // `()` is an empty tuple.
            (0, _) => Some(SValue::tuple(items)),
            (1, false) => items.pop(),
            _ => Some(SValue::tuple(items)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ytt::starlark::format::repr;

    /// The arguments as Starlark would print them, or "called" for `None`.
    fn show(content: &str) -> String {
        match constant_args(content) {
            None => "called".into(),
            Some((args, kwargs)) => {
                let mut parts: Vec<String> = args.iter().map(repr).collect();
                parts.extend(kwargs.iter().map(|(k, v)| format!("{k}={}", repr(v))));
                parts.join(", ")
            }
        }
    }

    #[test]
    fn constants_are_strings_ints_and_tuples_positional_or_named() {
        assert_eq!(show(""), "");
        assert_eq!(show("  "), "");
        assert_eq!(show(" \"a b\" "), "\"a b\"");
        assert_eq!(show("'it'"), "\"it\"");
        assert_eq!(show("\"\""), "\"\"");
        assert_eq!(show("\"é ü\""), "\"é ü\"");
        assert_eq!(show("min_len=1"), "min_len=1");
        assert_eq!(show("min_len = 0, max_len=30"), "min_len=0, max_len=30");
        assert_eq!(show("(\"Port\", 443)"), "(\"Port\", 443)");
        assert_eq!(show("(\"a\",)"), "(\"a\",)");
        assert_eq!(show("(\"a\")"), "\"a\"");
        assert_eq!(show("()"), "()");
        assert_eq!(show("(\"x\", (1, 2)), \"y\""), "(\"x\", (1, 2)), \"y\"");
        assert_eq!(show("\"a\", key=(\"b\", 3)"), "\"a\", key=(\"b\", 3)");
    }

    #[test]
    fn everything_else_is_left_to_the_program() {
        for called in [
            "\"a\\nb\"",
            "\"a\rb\"",
            "\"a\nb\"",
            "\"a\" + \"b\"",
            "\"\"\"a\"\"\"",
            "\"a\" # note",
            "'a\"",
            "\"",
            "x",
            "True",
            "any=True",
            "None",
            "-1",
            "01",
            "1.5",
            "1e3",
            "0x10",
            "1_000",
            "12345678901234567890",
            "[1]",
            "{\"a\": 1}",
            "one_of=[\"a\"]",
            "a=1, a=2",
            "a=1, \"b\"",
            "a==1",
            "\"a\",",
            "(\"a\" \"b\")",
            "(1, x)",
            "f(1)",
            "lambda v: v",
            "1 2",
        ] {
            assert_eq!(show(called), "called", "{called}");
        }
    }
}
