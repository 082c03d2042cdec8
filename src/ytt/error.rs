//! Errors of the template engine. Template errors carry the file, line and the text
//! of the offending template line, and print like
//! `<message>\n    in <file>:<line>\n      <file>:<line> | <source line>`. Interpreter errors
//! become engine errors through [`starlark_error`].

use std::fmt;

use crate::ytt::starlark::Error as SError;

/// Where in a template an error happened.
#[derive(Debug, Clone, PartialEq)]
pub struct Position {
    pub file: String,
    pub line: usize,
    /// The template line's text (without its line ending), when known.
    pub text: Option<String>,
}

impl Position {
    /// The position of 1-based `line` in `src`, with that line's text.
    pub fn in_source(file: &str, line: usize, src: &str) -> Position {
        let text = if line == 0 {
            None
        } else {
            src.lines()
                .nth(line - 1)
                .map(|l| l.trim_end_matches('\r').to_string())
        };
        Position {
            file: file.to_string(),
            line,
            text,
        }
    }
}

/// A template engine error.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// Bad command-line usage (flags, marks).
    Usage(String),
    /// A file could not be read or written.
    Io(String),
    /// An error in a template, at a position.
    Template {
        message: String,
        pos: Option<Position>,
    },
}

impl Error {
    /// A template error without a position yet.
    pub fn msg(message: impl Into<String>) -> Error {
        Error::Template {
            message: message.into(),
            pos: None,
        }
    }

    /// A template error at a position.
    pub fn at(message: impl Into<String>, pos: Position) -> Error {
        Error::Template {
            message: message.into(),
            pos: Some(pos),
        }
    }

    /// Adds a position to an error that has none.
    pub fn with_pos(self, pos: impl FnOnce() -> Position) -> Error {
        match self {
            Error::Template { message, pos: None } => Error::Template {
                message,
                pos: Some(pos()),
            },
            e => e,
        }
    }

    /// Prefixes the message with context (such as which overlay or data value).
    pub fn context(self, prefix: &str) -> Error {
        match self {
            Error::Template { message, pos } => Error::Template {
                message: format!("{prefix}: {message}"),
                pos,
            },
            Error::Io(m) => Error::Io(format!("{prefix}: {m}")),
            Error::Usage(m) => Error::Usage(format!("{prefix}: {m}")),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Io(m) => write!(f, "{m}"),
            Error::Template { message, pos } => {
                write!(f, "{message}")?;
                if let Some(p) = pos.as_ref().filter(|p| p.line > 0) {
                    write!(f, "\n    in {}:{}", p.file, p.line)?;
                    if let Some(t) = &p.text {
                        let shown = crate::ytt::starlark::error::shown_line(t);
                        write!(f, "\n      {}:{} | {}", p.file, p.line, shown)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {}

/// Converts an interpreter error into an engine error with the template position.
pub fn starlark_error(e: &SError) -> Error {
    match &e.pos {
        Some(p) => Error::at(
            e.msg.clone(),
            Position {
                file: p.file.to_string(),
                line: p.line as usize,
                text: e.source_line.clone(),
            },
        ),
        None => Error::msg(e.msg.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_template_line_is_cut() {
        let src = format!("a: #@ foo + \"{}\"\n", "x".repeat(200_000));
        let shown =
            Error::at("undefined: foo", Position::in_source("big.yml", 1, &src)).to_string();
        assert!(shown.len() < 400, "{} bytes", shown.len());
        assert!(
            shown.starts_with(
                "undefined: foo\n    in big.yml:1\n      big.yml:1 | a: #@ foo + \"xxx"
            )
        );
        assert!(
            shown.ends_with("xxx... (199814 more characters)"),
            "{shown}"
        );
    }

    #[test]
    fn shows_file_line_and_text() {
        let e = Error::at(
            "undefined: foo",
            Position::in_source("config.yml", 2, "a: 1\nb: #@ foo\n"),
        );
        assert_eq!(
            e.to_string(),
            "undefined: foo\n    in config.yml:2\n      config.yml:2 | b: #@ foo"
        );
    }
}
