//! Errors of the Starlark interpreter: positions, syntax/resolve/eval errors and the
//! starlark-go style traceback ("Traceback (most recent call last): ... Error: msg").

use std::fmt;
use std::sync::Arc;

/// A place in a source file. `file` and `line` are already mapped through the line map
/// of the parsed source, so for generated code they point into the original template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: Arc<str>,
    pub line: u32,
    pub col: u32,
}

impl Position {
    pub fn new(file: impl Into<Arc<str>>, line: u32, col: u32) -> Self {
        Position {
            file: file.into(),
            line,
            col,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// Which phase produced an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Tokenizing or parsing failed.
    Syntax,
    /// Name resolution failed (for example `undefined: x`).
    Resolve,
    /// A runtime error (including `fail(...)`).
    Eval,
}

/// One line of a traceback: where execution was inside `function`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceFrame {
    pub pos: Position,
    pub function: String,
}

/// An interpreter error (boxed, so results stay small on the evaluator's deep
/// recursion). Fields are reached through `Deref` to [`ErrorData`].
#[derive(Clone, Debug)]
pub struct Error(Box<ErrorData>);

impl std::ops::Deref for Error {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
}

/// The content of an [`Error`]. `msg` is the bare message (`undefined: x`,
/// `key "a" not in dict`, `fail: boom`); `pos` the innermost position;
/// `stack` the call stack, outermost frame first.
#[derive(Clone, Debug)]
pub struct ErrorData {
    pub kind: ErrorKind,
    pub msg: String,
    pub pos: Option<Position>,
    pub stack: Vec<TraceFrame>,
    /// The text of the source line at `pos`, when the interpreter knows it.
    pub source_line: Option<String>,
    /// Position inside the frame currently being unwound (internal bookkeeping).
    pub(crate) cur: Option<Position>,
    /// Frames collected while unwinding, innermost first (internal bookkeeping).
    pub(crate) unwound: Vec<TraceFrame>,
    /// Further errors found in the same pass (the resolver reports every one), in order.
    pub more: Vec<Error>,
}

impl Error {
    /// A runtime error without a position (natives return these; the call site adds it).
    pub fn new(msg: impl Into<String>) -> Self {
        Error(Box::new(ErrorData {
            kind: ErrorKind::Eval,
            msg: msg.into(),
            pos: None,
            stack: Vec::new(),
            source_line: None,
            cur: None,
            unwound: Vec::new(),
            more: Vec::new(),
        }))
    }

    pub fn syntax(pos: Position, msg: impl Into<String>) -> Self {
        let mut e = Error::new(msg);
        e.kind = ErrorKind::Syntax;
        e.pos = Some(pos);
        e
    }

    pub fn resolve(pos: Position, msg: impl Into<String>) -> Self {
        let mut e = Error::new(msg);
        e.kind = ErrorKind::Resolve;
        e.pos = Some(pos);
        e
    }

    /// Records `pos` as the current position of the frame being unwound (and as the
    /// innermost position when none is known yet).
    pub(crate) fn at(mut self, pos: &Position) -> Self {
        if self.cur.is_none() {
            self.cur = Some(pos.clone());
        }
        if self.pos.is_none() {
            self.pos = Some(pos.clone());
        }
        self
    }

    /// Closes the frame of `function` while the error leaves it.
    pub(crate) fn leave_frame(&mut self, function: &str) {
        if let Some(pos) = self.cur.take() {
            self.unwound.push(TraceFrame {
                pos,
                function: function.to_string(),
            });
        }
    }

    /// Finishes the stack once the error leaves the outermost module.
    pub(crate) fn finish(&mut self) {
        if !self.unwound.is_empty() {
            let mut frames = std::mem::take(&mut self.unwound);
            frames.reverse();
            frames.extend(std::mem::take(&mut self.stack));
            self.stack = frames;
        }
    }

    /// The starlark-go style backtrace of an evaluation error.
    pub fn backtrace(&self) -> String {
        let mut out = String::new();
        if !self.stack.is_empty() {
            out.push_str("Traceback (most recent call last):\n");
            for fr in &self.stack {
                out.push_str(&format!("  {}: in {}\n", fr.pos, fr.function));
                if let Some(line) = self
                    .source_line
                    .as_ref()
                    .filter(|_| Some(&fr.pos) == self.pos.as_ref())
                {
                    out.push_str(&format!("    {}\n", shown_line(line.trim())));
                }
            }
        } else if let Some(pos) = &self.pos {
            out.push_str(&format!("{pos}: "));
        }
        if self.stack.is_empty() {
            out.push_str(&self.msg);
        } else {
            out.push_str(&format!("Error: {}", self.msg));
        }
        out
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pos {
            Some(p) => write!(f, "{}: {}", p, self.msg),
            None => f.write_str(&self.msg),
        }
    }
}

impl std::error::Error for Error {}

/// Characters of a source line that an error message shows; the rest is cut.
pub const SHOWN_LINE_CHARS: usize = 200;

/// `line` for an error message: whole when short, else its first [`SHOWN_LINE_CHARS`]
/// characters and how many were left out (a generated 200 KB line would bury the message).
pub fn shown_line(line: &str) -> std::borrow::Cow<'_, str> {
    match line.char_indices().nth(SHOWN_LINE_CHARS) {
        None => std::borrow::Cow::Borrowed(line),
        Some((cut, _)) => {
            let left_out = line[cut..].chars().count();
            std::borrow::Cow::Owned(format!("{}... ({left_out} more characters)", &line[..cut]))
        }
    }
}

/// Shorthand for results of the interpreter.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Builds an `Err(Error::new(format!(...)))`.
macro_rules! bail {
    ($($arg:tt)*) => { return Err($crate::ytt::starlark::error::Error::new(format!($($arg)*))) };
}
pub(crate) use bail;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_source_lines_are_cut() {
        assert_eq!(shown_line("a: 1"), "a: 1");
        let exact = "é".repeat(SHOWN_LINE_CHARS);
        assert_eq!(shown_line(&exact), exact.as_str());
        let long = format!("{}{}", "é".repeat(SHOWN_LINE_CHARS), "x".repeat(200_000));
        assert_eq!(
            shown_line(&long),
            format!(
                "{}... (200000 more characters)",
                "é".repeat(SHOWN_LINE_CHARS)
            )
        );
    }

    #[test]
    fn backtrace_lists_frames_outermost_first() {
        let mut e = Error::new("boom").at(&Position::new("a.star", 3, 5));
        e.leave_frame("f");
        e = e.at(&Position::new("a.star", 7, 1));
        e.leave_frame("<toplevel>");
        e.finish();
        assert_eq!(
            e.backtrace(),
            "Traceback (most recent call last):\n  a.star:7:1: in <toplevel>\n  a.star:3:5: in f\nError: boom"
        );
        assert_eq!(e.to_string(), "a.star:3:5: boom");
    }
}
