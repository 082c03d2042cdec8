//! Tokenizer for the ytt Starlark dialect. Indentation is not significant (blocks
//! close with `end`), so no INDENT/OUTDENT tokens exist: a NEWLINE ends each logical
//! line outside brackets. `pass` is rejected as in ytt; string escapes follow the
//! starlark-go version that ytt embeds (unknown escapes such as `\d` or `\u` keep
//! their backslash).

use std::rc::Rc;

use super::bigint::BigInt;

/// A token. Kept to 24 bytes (a program of a few hundred lines has thousands of them):
/// names are boxed, string literals are shared with the syntax tree, and ints that do not
/// fit 64 bits are boxed.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(Box<str>),
    Int(i64),
    /// An int literal beyond 64 bits (Starlark ints are unbounded; ytt's fit 128).
    BigInt(Box<BigInt>),
    Float(f64),
    Str(Rc<str>),
    Newline,
    Eof,
    /// A reserved word (`class`, `import`, …): starlark-go's illegal token, which no
    /// rule of the grammar takes.
    Illegal,
    // keywords
    And,
    Break,
    Continue,
    Def,
    Elif,
    Else,
    End,
    For,
    If,
    In,
    Lambda,
    Load,
    Not,
    Or,
    Return,
    While,
    // punctuation
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Semi,
    Dot,
    Assign,
    Plus,
    Minus,
    Star,
    StarStar,
    Slash,
    SlashSlash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Tilde,
    Shl,
    Shr,
    EqEq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    /// Augmented assignment; the payload is the binary operator's token.
    AugAssign(Box<Tok>),
}

/// A token with its (parsed-text) line and column, both 1-based.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

/// Reserved words of the starlark-go version in ytt (`assert` is not reserved there:
/// ytt templates load `@ytt:assert` as `assert`).
const RESERVED: &[&str] = &[
    "as", "class", "del", "except", "finally", "from", "global", "import", "is", "nonlocal",
    "raise", "try", "with", "yield",
];

/// Tokenizes `src`. Errors carry (line, col) in parsed-text coordinates; the parser maps
/// them to origins.
pub fn tokenize(src: &str) -> std::result::Result<Vec<Token>, (u32, u32, String)> {
    match tokenize_until_error(src) {
        (toks, None) => Ok(toks),
        (_, Some(e)) => Err(e),
    }
}

/// Tokenizes `src` up to its first lexical error, if any: the tokens before it, then an
/// `Eof` where the error is, and the error. starlark-go scans a token only when its
/// parser asks for it, so a syntax error before the bad token is the one it reports;
/// the parser does the same with what this gives.
pub fn tokenize_until_error(src: &str) -> (Vec<Token>, Option<(u32, u32, String)>) {
    let mut lexer = Lexer {
        text: src,
        s: src.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
        depth: 0,
        // Generated programs run about five bytes to a token: one allocation, not a
        // series of copies as the list doubles.
        out: Vec::with_capacity(src.len() / 4 + 8),
    };
    match lexer.run() {
        Ok(()) => (lexer.out, None),
        Err(e) => {
            lexer.push(Tok::Eof, e.0, e.1);
            (lexer.out, Some(e))
        }
    }
}

/// An int token: 64-bit when it fits.
fn int_tok(v: i128) -> Tok {
    i64::try_from(v).map_or_else(|_| Tok::BigInt(Box::new(BigInt::from_i128(v))), Tok::Int)
}

/// An int token from digits in `radix`, of any size.
fn big_int_tok(digits: &str, radix: u32) -> Option<Tok> {
    match i128::from_str_radix(digits, radix) {
        Ok(v) => Some(int_tok(v)),
        Err(_) => BigInt::parse_digits(digits, radix, false).map(|b| Tok::BigInt(Box::new(b))),
    }
}

/// Characters (not bytes) in UTF-8 text: the columns it spans.
fn char_count(bytes: &[u8]) -> u32 {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count() as u32
}

struct Lexer<'a> {
    text: &'a str,
    s: &'a [u8],
    i: usize,
    line: u32,
    col: u32,
    depth: i32,
    out: Vec<Token>,
}

type LexResult<T> = std::result::Result<T, (u32, u32, String)>;

impl<'a> Lexer<'a> {
    fn peek(&self, k: usize) -> u8 {
        *self.s.get(self.i + k).unwrap_or(&0)
    }

    fn bump(&mut self) -> u8 {
        let c = self.s[self.i];
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
            self.col = 1;
        } else if (c & 0xC0) != 0x80 {
            self.col += 1;
        }
        c
    }

    fn push(&mut self, tok: Tok, line: u32, col: u32) {
        self.out.push(Token { tok, line, col });
    }

    fn run(&mut self) -> LexResult<()> {
        loop {
            if self.i >= self.s.len() {
                if !matches!(
                    self.out.last(),
                    None | Some(Token {
                        tok: Tok::Newline,
                        ..
                    })
                ) {
                    let (l, c) = (self.line, self.col);
                    self.push(Tok::Newline, l, c);
                }
                let (l, c) = (self.line, self.col);
                self.push(Tok::Eof, l, c);
                return Ok(());
            }
            let c = self.peek(0);
            let (line, col) = (self.line, self.col);
            match c {
                b' ' | b'\t' | b'\r' | b'\x0c' => {
                    self.bump();
                }
                b'\n' => {
                    self.bump();
                    if self.depth == 0
                        && !matches!(
                            self.out.last(),
                            None | Some(Token {
                                tok: Tok::Newline,
                                ..
                            })
                        )
                    {
                        self.push(Tok::Newline, line, col);
                    }
                }
                b'#' => {
                    while self.i < self.s.len() && self.peek(0) != b'\n' {
                        self.bump();
                    }
                }
                b'\\' => {
                    self.bump();
                    if self.peek(0) == b'\r' {
                        self.bump();
                    }
                    if self.peek(0) == b'\n' {
                        self.bump();
                    } else {
                        return Err((line, col, "stray backslash in program".into()));
                    }
                }
                b'"' | b'\'' => {
                    let s = self.string(false)?;
                    self.push(Tok::Str(s), line, col);
                }
                b'r' | b'R' if matches!(self.peek(1), b'"' | b'\'') => {
                    self.bump();
                    let s = self.string(true)?;
                    self.push(Tok::Str(s), line, col);
                }
                b'0'..=b'9' => {
                    let t = self.number()?;
                    self.push(t, line, col);
                }
                b'.' if self.peek(1).is_ascii_digit() => {
                    let t = self.number()?;
                    self.push(t, line, col);
                }
                c if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 => {
                    let start = self.i;
                    let len = self.s[start..]
                        .iter()
                        .position(|&c| !(c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80))
                        .unwrap_or(self.s.len() - start);
                    self.advance_in_line(len);
                    // Words end at ASCII bytes, so `start..i` lies on char boundaries.
                    let word = &self.text[start..self.i];
                    let tok = match word {
                        "and" => Tok::And,
                        "break" => Tok::Break,
                        "continue" => Tok::Continue,
                        "def" => Tok::Def,
                        "elif" => Tok::Elif,
                        "else" => Tok::Else,
                        "end" => Tok::End,
                        "for" => Tok::For,
                        "if" => Tok::If,
                        "in" => Tok::In,
                        "lambda" => Tok::Lambda,
                        "load" => Tok::Load,
                        "not" => Tok::Not,
                        "or" => Tok::Or,
                        "return" => Tok::Return,
                        "while" => Tok::While,
                        "pass" => {
                            return Err((
                                self.line,
                                self.col,
                                "use of reserved keyword 'pass' is not allowed".into(),
                            ));
                        }
                        w if RESERVED.contains(&w) => Tok::Illegal,
                        _ => Tok::Ident(word.into()),
                    };
                    self.push(tok, line, col);
                }
                _ => {
                    let t = self.punct()?;
                    self.push(t, line, col);
                }
            }
        }
    }

    fn punct(&mut self) -> LexResult<Tok> {
        let (line, col) = (self.line, self.col);
        let c = self.bump();
        let n = self.peek(0);
        let two = |me: &mut Self, t: Tok| {
            me.bump();
            t
        };
        let aug = |me: &mut Self, t: Tok| {
            me.bump();
            Tok::AugAssign(Box::new(t))
        };
        Ok(match c {
            b'(' => {
                self.depth += 1;
                Tok::LParen
            }
            b'[' => {
                self.depth += 1;
                Tok::LBrack
            }
            b'{' => {
                self.depth += 1;
                Tok::LBrace
            }
            b')' | b']' | b'}' if self.depth == 0 => {
                return Err((line, col, format!("unexpected '{}'", c as char)));
            }
            b')' => {
                self.depth -= 1;
                Tok::RParen
            }
            b']' => {
                self.depth -= 1;
                Tok::RBrack
            }
            b'}' => {
                self.depth -= 1;
                Tok::RBrace
            }
            b',' => Tok::Comma,
            b':' => Tok::Colon,
            b';' => Tok::Semi,
            b'.' => Tok::Dot,
            b'=' if n == b'=' => two(self, Tok::EqEq),
            b'=' => Tok::Assign,
            b'!' if n == b'=' => two(self, Tok::Ne),
            b'+' if n == b'=' => aug(self, Tok::Plus),
            b'+' => Tok::Plus,
            b'-' if n == b'=' => aug(self, Tok::Minus),
            b'-' => Tok::Minus,
            b'*' if n == b'*' => two(self, Tok::StarStar),
            b'*' if n == b'=' => aug(self, Tok::Star),
            b'*' => Tok::Star,
            b'/' if n == b'/' => {
                self.bump();
                if self.peek(0) == b'=' {
                    aug(self, Tok::SlashSlash)
                } else {
                    Tok::SlashSlash
                }
            }
            b'/' if n == b'=' => aug(self, Tok::Slash),
            b'/' => Tok::Slash,
            b'%' if n == b'=' => aug(self, Tok::Percent),
            b'%' => Tok::Percent,
            b'&' if n == b'=' => aug(self, Tok::Amp),
            b'&' => Tok::Amp,
            b'|' if n == b'=' => aug(self, Tok::Pipe),
            b'|' => Tok::Pipe,
            b'^' if n == b'=' => aug(self, Tok::Caret),
            b'^' => Tok::Caret,
            b'~' => Tok::Tilde,
            b'<' if n == b'<' => {
                self.bump();
                if self.peek(0) == b'=' {
                    aug(self, Tok::Shl)
                } else {
                    Tok::Shl
                }
            }
            b'<' if n == b'=' => two(self, Tok::Le),
            b'<' => Tok::Lt,
            b'>' if n == b'>' => {
                self.bump();
                if self.peek(0) == b'=' {
                    aug(self, Tok::Shr)
                } else {
                    Tok::Shr
                }
            }
            b'>' if n == b'=' => two(self, Tok::Ge),
            b'>' => Tok::Gt,
            other => {
                return Err((
                    line,
                    col,
                    format!("unexpected input character {:?}", other as char),
                ));
            }
        })
    }

    fn number(&mut self) -> LexResult<Tok> {
        let (line, col) = (self.line, self.col);
        let start = self.i;
        if self.peek(0) == b'0' && matches!(self.peek(1), b'x' | b'X' | b'o' | b'O' | b'b' | b'B') {
            // As starlark-go: the digits of the base, at least one; what follows them
            // is the next token.
            let (radix, kind) = match self.peek(1) {
                b'x' | b'X' => (16, "hex"),
                b'o' | b'O' => (8, "octal"),
                _ => (2, "binary"),
            };
            self.bump();
            self.bump();
            let ds = self.i;
            while (self.peek(0) as char).is_digit(radix) {
                self.bump();
            }
            if self.i == ds {
                return Err((line, col, format!("invalid {kind} literal")));
            }
            let digits = std::str::from_utf8(&self.s[ds..self.i]).unwrap_or("");
            return big_int_tok(digits, radix)
                .ok_or_else(|| (line, col, "invalid int literal".to_string()));
        }
        let mut is_float = false;
        while self.peek(0).is_ascii_digit() {
            self.bump();
        }
        // The common case, a short decimal int (the tags of generated host calls): no text
        // to convert. Longer runs, leading zeros, floats and exponents take the general path.
        let digits = &self.s[start..self.i];
        if (1..=18).contains(&digits.len())
            && (digits.len() == 1 || digits[0] != b'0')
            && !matches!(self.peek(0), b'.' | b'e' | b'E')
        {
            let v = digits
                .iter()
                .fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
            return Ok(Tok::Int(v));
        }
        if self.peek(0) == b'.' {
            is_float = true;
            self.bump();
            while self.peek(0).is_ascii_digit() {
                self.bump();
            }
        }
        if matches!(self.peek(0), b'e' | b'E') {
            // An exponent needs digits (`1e`, `1e+` are bad floats, as in starlark-go).
            is_float = true;
            self.bump();
            if matches!(self.peek(0), b'+' | b'-') {
                self.bump();
            }
            if !self.peek(0).is_ascii_digit() {
                return Err((line, col, "invalid float literal".into()));
            }
            while self.peek(0).is_ascii_digit() {
                self.bump();
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        if is_float {
            return text
                .parse::<f64>()
                .map(Tok::Float)
                .map_err(|_| (line, col, "invalid float literal".to_string()));
        }
        if text.len() > 1 && text.starts_with('0') && !text.bytes().all(|b| b == b'0') {
            let msg = format!("obsolete form of octal literal; use 0o{}", &text[1..]);
            return Err((line, col, msg));
        }
        big_int_tok(text, 10).ok_or_else(|| (line, col, "invalid int literal".to_string()))
    }

    /// Skips `n` bytes that hold no newline.
    fn advance_in_line(&mut self, n: usize) {
        self.col += char_count(&self.s[self.i..self.i + n]);
        self.i += n;
    }

    fn string(&mut self, raw: bool) -> LexResult<Rc<str>> {
        let (line, col) = (self.line, self.col);
        let q = self.bump();
        let triple = self.peek(0) == q && self.peek(1) == q;
        if triple {
            self.bump();
            self.bump();
        }
        // Most literals are one line with no escape: the text between the quotes as is.
        if !triple {
            let rest = &self.s[self.i..];
            if let Some(n) = memchr::memchr3(q, b'\\', b'\n', rest)
                && rest[n] == q
            {
                let start = self.i;
                self.advance_in_line(n);
                self.bump();
                // Quotes are ASCII, so both ends lie on char boundaries.
                return Ok(Rc::from(&self.text[start..start + n]));
            }
        }
        let mut buf: Vec<u8> = Vec::new();
        loop {
            if self.i >= self.s.len() {
                return Err((line, col, "unexpected EOF in string".into()));
            }
            // Copy the run of plain characters up to the next quote, backslash or newline.
            let run = memchr::memchr3(q, b'\\', b'\n', &self.s[self.i..])
                .unwrap_or(self.s.len() - self.i);
            if run > 0 {
                buf.extend_from_slice(&self.s[self.i..self.i + run]);
                self.advance_in_line(run);
                continue;
            }
            let c = self.peek(0);
            if c == q {
                if !triple {
                    self.bump();
                    break;
                }
                if self.peek(1) == q && self.peek(2) == q {
                    self.bump();
                    self.bump();
                    self.bump();
                    break;
                }
                buf.push(self.bump());
                continue;
            }
            if c == b'\n' && !triple {
                return Err((line, col, "unexpected newline in string".into()));
            }
            if c != b'\\' {
                buf.push(self.bump());
                continue;
            }
            // backslash
            self.bump();
            if self.i >= self.s.len() {
                return Err((line, col, "unexpected EOF in string".into()));
            }
            let e = self.peek(0);
            if raw {
                // A raw string keeps every backslash, one before a line break too.
                buf.push(b'\\');
                buf.push(self.bump());
                continue;
            }
            match e {
                b'\n' => {
                    self.bump();
                }
                b'a' => self.esc(&mut buf, 7),
                b'b' => self.esc(&mut buf, 8),
                b'f' => self.esc(&mut buf, 12),
                b'n' => self.esc(&mut buf, b'\n'),
                b'r' => self.esc(&mut buf, b'\r'),
                b't' => self.esc(&mut buf, b'\t'),
                b'v' => self.esc(&mut buf, 11),
                b'\\' | b'\'' | b'"' => {
                    let e = self.bump();
                    buf.push(e);
                }
                b'0'..=b'7' => {
                    let mut v: u32 = 0;
                    for _ in 0..3 {
                        if matches!(self.peek(0), b'0'..=b'7') {
                            v = v * 8 + (self.bump() - b'0') as u32;
                        } else {
                            break;
                        }
                    }
                    if v > 255 {
                        return Err((line, col, format!("invalid escape sequence \\{v:03o}")));
                    }
                    push_byte(&mut buf, v as u8);
                }
                b'x' => {
                    // The escape as starlark-go's `unquote` quotes it in its errors: the
                    // rest of the literal when fewer than two bytes follow the `x`,
                    // else the backslash, the `x` and two bytes.
                    let end = self.content_end(q, triple);
                    // starlark-go finds the end of the literal before it unquotes it.
                    if end >= self.s.len() {
                        return Err((line, col, "unexpected EOF in string".into()));
                    }
                    if self.s[end] == b'\n' && !triple {
                        return Err((line, col, "unexpected newline in string".into()));
                    }
                    let rest = &self.s[self.i - 1..end];
                    if rest.len() < 4 {
                        let msg = format!("truncated escape sequence {}", byte_text(rest));
                        return Err((line, col, msg));
                    }
                    self.bump();
                    match go_hex_byte([self.peek(0), self.peek(1)]) {
                        Some(v) => {
                            self.bump();
                            self.bump();
                            push_byte(&mut buf, v);
                        }
                        None => {
                            let msg = format!("invalid escape sequence {}", byte_text(&rest[..4]));
                            return Err((line, col, msg));
                        }
                    }
                }
                _ => {
                    // unknown escape: keep the backslash, as Python and old starlark-go do
                    buf.push(b'\\');
                }
            }
        }
        // Byte escapes may leave bytes that are no UTF-8.
        Ok(match String::from_utf8(buf) {
            Ok(text) => Rc::from(text),
            Err(e) => Rc::from(crate::go_bytes::from_bytes(e.as_bytes())),
        })
    }

    /// Where the content of the string literal being read ends (at its closing quote,
    /// or where an unterminated one stops), found as starlark-go's scanner finds it
    /// before it unquotes: a backslash hides the byte after it.
    fn content_end(&self, q: u8, triple: bool) -> usize {
        let s = self.s;
        let mut i = self.i;
        while i < s.len() {
            match s[i] {
                b'\\' => i += 2,
                c if c == q
                    && (!triple || (s.get(i + 1) == Some(&q) && s.get(i + 2) == Some(&q))) =>
                {
                    return i;
                }
                b'\n' if !triple => return i,
                _ => i += 1,
            }
        }
        s.len()
    }

    fn esc(&mut self, buf: &mut Vec<u8>, b: u8) {
        self.bump();
        buf.push(b);
    }
}

/// The byte of a `\xHH` escape as Go's `strconv.ParseInt(HH, 16, 0)` reads the two
/// bytes: hex digits, or a sign and one digit (`\x+1` is byte 1, `\x-1` byte 0xff).
fn go_hex_byte(h: [u8; 2]) -> Option<u8> {
    let digit = |b: u8| (b as char).to_digit(16);
    match h {
        [b'+', d] => digit(d).map(|d| d as u8),
        [b'-', d] => digit(d).map(|d| (d as u8).wrapping_neg()),
        [a, b] => Some((digit(a)? * 16 + digit(b)?) as u8),
    }
}

/// Source bytes for a message (a cut through a multi-byte character shows as U+FFFD).
fn byte_text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Bytes above 0x7f from `\x`/octal escapes become the code point of the same value
/// (strings are UTF-8 here, unlike Go's byte strings).
/// A `\x..` or octal escape: one byte, as in starlark-go, whose strings are bytes (one
/// that makes no UTF-8 with its neighbours is carried as `crate::go_bytes` says).
fn push_byte(buf: &mut Vec<u8>, b: u8) {
    buf.push(b);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn newlines_only_outside_brackets() {
        assert_eq!(
            toks("x = [1,\n 2]\ny"),
            vec![
                Tok::Ident("x".into()),
                Tok::Assign,
                Tok::LBrack,
                Tok::Int(1),
                Tok::Comma,
                Tok::Int(2),
                Tok::RBrack,
                Tok::Newline,
                Tok::Ident("y".into()),
                Tok::Newline,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn escapes_follow_old_starlark_go() {
        assert_eq!(toks(r#""\u00e9\d\t""#)[0], Tok::Str("\\u00e9\\d\t".into()));
        assert_eq!(toks(r#"r"\d+\.""#)[0], Tok::Str("\\d+\\.".into()));
        assert_eq!(toks("\"a \\\n  b\"")[0], Tok::Str("a   b".into()));
        assert_eq!(toks(r#""\x41\101""#)[0], Tok::Str("AA".into()));
        assert_eq!(toks(r#"'''a "b" c'''"#)[0], Tok::Str("a \"b\" c".into()));
    }

    #[test]
    fn numbers() {
        assert_eq!(
            toks("0x1f 10 1.5 1e3 .5 12345678901234567890")[..6].to_vec(),
            vec![
                Tok::Int(31),
                Tok::Int(10),
                Tok::Float(1.5),
                Tok::Float(1000.0),
                Tok::Float(0.5),
                Tok::BigInt(Box::new(BigInt::from_i128(12345678901234567890)))
            ]
        );
        assert!(tokenize("0755").is_err());
        // starlark-go's words: a base prefix needs a digit of its base, an exponent
        // needs digits, a closing bracket needs an opening one.
        assert_eq!(tokenize("0x").unwrap_err().2, "invalid hex literal");
        assert_eq!(tokenize("0o8").unwrap_err().2, "invalid octal literal");
        assert_eq!(tokenize("0b").unwrap_err().2, "invalid binary literal");
        assert_eq!(tokenize("1e+").unwrap_err().2, "invalid float literal");
        assert_eq!(tokenize("x = 1)").unwrap_err().2, "unexpected ')'");
        // Short decimal ints take a fast path; its edges agree with the general one.
        assert_eq!(
            toks("0 00 7 999999999999999999 9999999999999999999 10.0 10e1 3,"),
            vec![
                Tok::Int(0),
                Tok::Int(0),
                Tok::Int(7),
                Tok::Int(999_999_999_999_999_999),
                Tok::BigInt(Box::new(BigInt::from_i128(9_999_999_999_999_999_999))),
                Tok::Float(10.0),
                Tok::Float(100.0),
                Tok::Int(3),
                Tok::Comma,
                Tok::Newline,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn pass_and_reserved_words_are_errors() {
        assert_eq!(
            tokenize("pass").unwrap_err().2,
            "use of reserved keyword 'pass' is not allowed"
        );
        assert_eq!(toks("x = class")[2], Tok::Illegal);
    }

    #[test]
    fn operators_and_continuation() {
        assert_eq!(
            toks("a //= 1 \\\n + 2")[1],
            Tok::AugAssign(Box::new(Tok::SlashSlash))
        );
        assert_eq!(toks("a <<= b")[1], Tok::AugAssign(Box::new(Tok::Shl)));
        assert_eq!(toks("a != b")[1], Tok::Ne);
    }
}
