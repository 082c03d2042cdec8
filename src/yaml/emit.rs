//! YAML emitter that prints exactly like ytt 0.48 (its fork of go-yaml v2, which is a port of
//! libyaml's emitter): block style, 2-space indent, sequences not indented under a map key,
//! `{}`/`[]` for empty collections, no line wrapping, and libyaml's scalar style analysis
//! (plain, single-quoted, double-quoted with escapes, or `|` literal blocks).
//!
//! The writer keeps libyaml's state (`column`, `indent`, `whitespace`, `indention`) and uses the
//! same primitives (`write_indent`, `write_indicator`), so layouts match byte for byte.

use std::borrow::Cow;

use super::float::format_yaml_float;
use super::resolve::resolves_to_str;
use super::scalar_style::{Style, has_break, is_break, is_printable, select_style};
use super::value::Value;

/// An error while emitting (a value go-yaml cannot represent).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    /// An integer outside `i64::MIN ..= u64::MAX`.
    #[error("integer {0} is too big to be printed as YAML (outside the 64-bit range)")]
    IntOutOfRange(i128),
}

/// Emitter settings that differ between ytt and plain go-yaml v2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmitOptions {
    /// libyaml's `best_width`: plain, single- and double-quoted scalars are folded at a
    /// space once the column passes it. `None` never folds (ytt's fork); `Some(80)` is
    /// go-yaml v2's default (what `sigs.k8s.io/yaml`, hence kbld, imgpkg and kctrl print).
    pub best_width: Option<usize>,
}

impl EmitOptions {
    /// ytt's settings: no folding.
    pub const YTT: EmitOptions = EmitOptions { best_width: None };
    /// go-yaml v2's defaults: fold long scalars at 80 columns.
    pub const GO_YAML_V2: EmitOptions = EmitOptions {
        best_width: Some(80),
    };
}

/// Prints one document (no `---`), ending in a newline, as ytt's `Document.AsYAMLBytes`.
pub fn to_yaml_document(value: &Value) -> Result<String, EmitError> {
    to_yaml_document_with(value, &EmitOptions::YTT)
}

/// Prints one document (no `---`), ending in a newline, with the given settings. Keys are
/// printed in the order the map holds them (sort them first for go-yaml's sorted output).
pub fn to_yaml_document_with(value: &Value, options: &EmitOptions) -> Result<String, EmitError> {
    let mut e = Emitter::new(String::new());
    e.best_width = options.best_width.unwrap_or(usize::MAX);
    e.document(value)?;
    Ok(e.out)
}

/// Prints documents as `ytt` does on stdout: empty documents (null, `{}`, `[]`) are skipped and
/// `---\n` separates the printed ones (none before the first). No documents give `""`.
pub fn to_yaml_stream(docs: &[Value]) -> Result<String, EmitError> {
    emit_documents(docs.iter().filter(|d| !d.is_empty_document()))
}

/// Prints every document given, empty ones too (`{}`, `[]`), `---\n` between them: for
/// callers that chose the documents to print themselves (ytt keeps computed empty
/// collections).
pub fn to_yaml_documents(docs: &[Value]) -> Result<String, EmitError> {
    emit_documents(docs.iter())
}

fn emit_documents<'a>(docs: impl Iterator<Item = &'a Value>) -> Result<String, EmitError> {
    let mut e = Emitter::new(String::with_capacity(4096));
    let mut first = true;
    for doc in docs {
        if !first {
            e.out.push_str("---\n");
        }
        first = false;
        e.document(doc)?;
    }
    Ok(e.out)
}

#[derive(Clone, Copy)]
struct Ctx {
    mapping: bool,
    simple_key: bool,
}

impl Ctx {
    fn root() -> Ctx {
        Ctx {
            mapping: false,
            simple_key: false,
        }
    }
}

struct Emitter {
    out: String,
    column: usize,
    indent: i64,
    indents: Vec<i64>,
    whitespace: bool,
    indention: bool,
    best_width: usize,
}

const BEST_INDENT: i64 = 2;

impl Emitter {
    fn new(out: String) -> Emitter {
        Emitter {
            out,
            column: 0,
            indent: -1,
            indents: Vec::new(),
            whitespace: true,
            indention: true,
            best_width: usize::MAX,
        }
    }

    /// One document: its node, then DOCUMENT-END's `write_indent` (the end is implicit).
    fn document(&mut self, value: &Value) -> Result<(), EmitError> {
        self.column = 0;
        self.indent = -1;
        self.indents.clear();
        self.whitespace = true;
        self.indention = true;
        self.node(value, Ctx::root())?;
        self.write_indent();
        Ok(())
    }

    /// True when scalars are never folded (ytt's setting), so spaces need no column checks.
    fn never_folds(&self) -> bool {
        self.best_width == usize::MAX
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    /// Writes text holding no line breaks.
    fn put_str(&mut self, s: &str) {
        self.out.push_str(s);
        self.column += if s.is_ascii() {
            s.len()
        } else {
            s.chars().count()
        };
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        if self.column < indent {
            push_spaces(&mut self.out, indent - self.column);
            self.column = indent;
        }
        self.whitespace = true;
        self.indention = true;
    }

    /// Writes an (ASCII) indicator.
    fn write_indicator(&mut self, ind: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        self.out.push_str(ind);
        self.column += ind.len();
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn node(&mut self, v: &Value, ctx: Ctx) -> Result<(), EmitError> {
        match v {
            Value::Array(items) if items.is_empty() => self.empty_flow("[", "]"),
            Value::Map(items) if items.is_empty() => self.empty_flow("{", "}"),
            Value::Array(items) => {
                self.increase_indent(false, ctx.mapping && !self.indention);
                for item in items {
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.node(
                        item,
                        Ctx {
                            mapping: false,
                            simple_key: false,
                        },
                    )?;
                }
                self.pop_indent();
            }
            Value::Map(items) => {
                self.increase_indent(false, false);
                for (k, val) in items {
                    self.write_indent();
                    self.key(k)?;
                    self.node(
                        val,
                        Ctx {
                            mapping: true,
                            simple_key: false,
                        },
                    )?;
                }
                self.pop_indent();
            }
            Value::String(s) if crate::go_bytes::has_raw(s) => match raw_string(s) {
                RawString::Text(text) => self.node(&Value::String(text), ctx)?,
                RawString::Binary(text) => {
                    self.write_indicator("!!binary", true, false, false);
                    self.scalar(&text, binary_style(&text), ctx.simple_key);
                }
            },
            scalar => {
                let (text, requested) = scalar_text(scalar)?;
                self.scalar(&text, requested, ctx.simple_key);
            }
        }
        Ok(())
    }

    /// A map key and its `:` (libyaml's simple key check decides between `key:` and the
    /// `? key` form).
    fn key(&mut self, k: &Value) -> Result<(), EmitError> {
        if let Value::String(s) = k
            && crate::go_bytes::has_raw(s)
        {
            return match raw_string(s) {
                RawString::Text(text) => self.key(&Value::String(text)),
                RawString::Binary(text) => {
                    self.binary_key(&text);
                    Ok(())
                }
            };
        }
        let key_ctx = |simple_key| Ctx {
            mapping: true,
            simple_key,
        };
        let scalar = if k.is_scalar() {
            Some(scalar_text(k)?)
        } else {
            None
        };
        let simple = match (&scalar, k) {
            (Some((text, _)), _) => text.len() <= 128 && !has_break(text),
            (None, Value::Array(items)) => items.is_empty(),
            (None, Value::Map(items)) => items.is_empty(),
            (None, _) => true,
        };
        if simple {
            match &scalar {
                Some((text, requested)) => self.scalar(text, *requested, true),
                None => self.node(k, key_ctx(true))?,
            }
            self.write_indicator(":", false, false, false);
        } else {
            self.write_indicator("?", true, false, true);
            match &scalar {
                Some((text, requested)) => self.scalar(text, *requested, false),
                None => self.node(k, key_ctx(false))?,
            }
            self.write_indent();
            self.write_indicator(":", true, false, true);
        }
        Ok(())
    }

    /// A key holding bytes that are no UTF-8, tagged `!!binary` with its base64 text.
    /// libyaml's `check_simple_key` counts the tag (8 bytes for `!!binary`) with the
    /// text; a single base64 line is at most 69 bytes, so only multi-line text (a
    /// literal block) makes it a `? key`.
    fn binary_key(&mut self, text: &str) {
        if has_break(text) {
            self.write_indicator("?", true, false, true);
            self.write_indicator("!!binary", true, false, false);
            self.scalar(text, Style::Literal, false);
            self.write_indent();
            self.write_indicator(":", true, false, true);
        } else {
            self.write_indicator("!!binary", true, false, false);
            self.scalar(text, Style::Plain, true);
            self.write_indicator(":", false, false, false);
        }
    }

    fn scalar(&mut self, text: &str, requested: Style, simple_key: bool) {
        let style = select_style(text, requested, simple_key);
        self.increase_indent(true, false);
        let allow_breaks = !simple_key;
        match style {
            Style::Plain => self.write_plain(text, allow_breaks),
            Style::Single => self.write_single(text, allow_breaks),
            Style::Double => self.write_double(text, allow_breaks),
            Style::Literal => self.write_literal(text),
        }
        self.pop_indent();
    }

    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.increase_indent(true, false);
        self.pop_indent();
        self.write_indicator(close, false, false, false);
    }

    fn write_plain(&mut self, s: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        if !allow_breaks || self.never_folds() || !s.contains(' ') {
            // Plain scalars hold no line breaks.
            self.put_str(s);
        } else {
            let mut spaces = false;
            let mut chars = s.chars().peekable();
            while let Some(c) = chars.next() {
                if c == ' ' {
                    let next_space = chars.peek() == Some(&' ');
                    if !spaces && self.column > self.best_width && !next_space {
                        self.write_indent();
                    } else {
                        self.put(c);
                    }
                    spaces = true;
                } else {
                    self.put(c);
                    spaces = false;
                }
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single(&mut self, s: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        if (!allow_breaks || self.never_folds()) && !s.contains('\'') && !has_break(s) {
            self.put_str(s);
        } else {
            let mut breaks = false;
            let mut spaces = false;
            let mut chars = s.char_indices().peekable();
            while let Some((idx, c)) = chars.next() {
                if c == ' ' {
                    let next = chars.peek().map(|&(_, n)| n);
                    if allow_breaks
                        && !spaces
                        && self.column > self.best_width
                        && idx != 0
                        && next.is_some()
                        && next != Some(' ')
                    {
                        self.write_indent();
                    } else {
                        self.put(c);
                    }
                    spaces = true;
                } else if is_break(c) {
                    if !breaks && c == '\n' {
                        self.put_break();
                    }
                    self.write_break(c);
                    self.indention = true;
                    breaks = true;
                } else {
                    if breaks {
                        self.write_indent();
                    }
                    if c == '\'' {
                        self.put('\'');
                    }
                    self.put(c);
                    self.indention = false;
                    breaks = false;
                    spaces = false;
                }
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn write_double(&mut self, s: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        if (!allow_breaks || self.never_folds())
            && s.bytes()
                .all(|b| matches!(b, b' '..=b'~') && b != b'"' && b != b'\\')
        {
            self.put_str(s);
        } else {
            self.write_double_chars(s, allow_breaks);
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double_chars(&mut self, s: &str, allow_breaks: bool) {
        // go-yaml's `is_bom(value, i)` looks at the first three bytes of the value whatever
        // `i` is, so in a value that starts with a BOM every character is escaped (`a` as
        // `\x61`, a space as `\x20`).
        let escape_all = s.starts_with('\u{feff}');
        let mut spaces = false;
        let mut chars = s.char_indices().peekable();
        while let Some((idx, c)) = chars.next() {
            if c == ' ' && !escape_all {
                let next = chars.peek().map(|&(_, n)| n);
                if allow_breaks
                    && !spaces
                    && self.column > self.best_width
                    && idx != 0
                    && next.is_some()
                {
                    self.write_indent();
                    if next == Some(' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
                continue;
            }
            spaces = false;
            if escape_all || !is_printable(c) || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let esc = match c {
                    '\0' => Some('0'),
                    '\x07' => Some('a'),
                    '\x08' => Some('b'),
                    '\t' => Some('t'),
                    '\n' => Some('n'),
                    '\x0b' => Some('v'),
                    '\x0c' => Some('f'),
                    '\r' => Some('r'),
                    '\x1b' => Some('e'),
                    '"' => Some('"'),
                    '\\' => Some('\\'),
                    '\u{85}' => Some('N'),
                    '\u{a0}' => Some('_'),
                    '\u{2028}' => Some('L'),
                    '\u{2029}' => Some('P'),
                    _ => None,
                };
                match esc {
                    Some(e) => self.put(e),
                    None => {
                        let v = c as u32;
                        let (letter, width) = if v <= 0xff {
                            ('x', 2)
                        } else if v <= 0xffff {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(letter);
                        for shift in (0..width).rev() {
                            let digit = (v >> (shift * 4)) & 0xf;
                            self.put(
                                char::from_digit(digit, 16).map_or('0', |d| d.to_ascii_uppercase()),
                            );
                        }
                    }
                }
            } else {
                self.put(c);
            }
        }
    }

    fn write_literal(&mut self, s: &str) {
        self.write_indicator("|", true, false, false);
        // Block scalar hints: indentation indicator when the text starts with a space or break,
        // then the chomping indicator.
        if let Some(first) = s.chars().next()
            && (first == ' ' || is_break(first))
        {
            self.write_indicator("2", false, false, false);
        }
        let mut rev = s.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (None, _) => Some("-"),
            (Some(last), _) if !is_break(last) => Some("-"),
            (Some(_), None) => Some("+"),
            (Some(_), Some(prev)) if is_break(prev) => Some("+"),
            _ => None,
        };
        if let Some(h) = chomp {
            self.write_indicator(h, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        let mut rest = s;
        while let Some(c) = rest.chars().next() {
            if is_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
                rest = &rest[c.len_utf8()..];
            } else {
                let end = rest.find(is_break).unwrap_or(rest.len());
                if breaks {
                    self.write_indent();
                }
                self.put_str(&rest[..end]);
                self.indention = false;
                breaks = false;
                rest = &rest[end..];
            }
        }
    }
}

/// Appends `n` spaces (indentation) a slice at a time.
fn push_spaces(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                                                ";
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// A Go string carrying raw bytes (see `crate::go_bytes`): text when the bytes are UTF-8
/// after all, else what go-yaml's `stringv` prints for invalid UTF-8 (base64 under the
/// `!!binary` tag).
enum RawString {
    Text(String),
    Binary(String),
}

fn raw_string(s: &str) -> RawString {
    let bytes = crate::go_bytes::to_bytes(s);
    match std::str::from_utf8(&bytes) {
        Ok(text) => RawString::Text(text.to_string()),
        Err(_) => RawString::Binary(base64_lines(&bytes)),
    }
}

/// `stringv`'s style for base64 text: a literal block once it spans lines, else plain.
fn binary_style(text: &str) -> Style {
    if text.contains('\n') {
        Style::Literal
    } else {
        Style::Plain
    }
}

/// go-yaml's `encodeBase64`: standard base64 in lines of 70 characters, each followed by
/// a line break when there is more than one.
fn base64_lines(b: &[u8]) -> String {
    let all = crate::go_bytes::base64(b);
    if all.len() < 70 {
        return all;
    }
    let mut out = String::with_capacity(all.len() + all.len() / 70 + 1);
    for line in all.as_bytes().chunks(70) {
        out.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        out.push('\n');
    }
    out
}

/// The text of a scalar and the style go-yaml's encoder asks for.
fn scalar_text(v: &Value) -> Result<(Cow<'_, str>, Style), EmitError> {
    Ok(match v {
        Value::Null => (Cow::Borrowed("null"), Style::Plain),
        Value::Bool(b) => (
            Cow::Borrowed(if *b { "true" } else { "false" }),
            Style::Plain,
        ),
        Value::Int(i) => {
            if !Value::int_in_range(*i) {
                return Err(EmitError::IntOutOfRange(*i));
            }
            (Cow::Owned(i.to_string()), Style::Plain)
        }
        Value::Float(f) => (Cow::Owned(format_yaml_float(*f)), Style::Plain),
        Value::String(s) => {
            let style = if s.contains('\n') {
                Style::Literal
            } else if resolves_to_str(s) {
                Style::Plain
            } else {
                Style::Double
            };
            (Cow::Borrowed(s.as_str()), style)
        }
        Value::Array(_) | Value::Map(_) => unreachable!("collections are not scalars"),
    })
}

#[cfg(test)]
#[path = "emit_tests.rs"]
mod tests;
