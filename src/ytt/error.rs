//! Errors of the template engine. Template errors carry the file, line and the text
//! of the offending template line, and print like
//! `<message>\n    in <file>:<line>\n      <file>:<line> | <source line>`. Interpreter errors
//! become engine errors through [`starlark_error`]; they print as ytt prints the errors of
//! evaluated template code (see [`EvalError`]). [`multi_line`] is ytt's last touch on an
//! error before it is shown: one line per `: Capital` step, each indented further.

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
            // Split at `\n` only, as ytt does: a CRLF file's line keeps its `\r`.
            src.split('\n').nth(line - 1).map(str::to_string)
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
    /// An error of the template's code (syntax, name resolution or evaluation), with the
    /// call stack it happened in.
    Eval(Box<EvalError>),
}

/// An error of evaluated template code, printed as ytt prints it:
/// `<lead>\n- <first message line><hint>`, then per stack frame, innermost first,
/// `    in <function>` and `      <file>:<line> | <source line>` (syntax and name errors
/// have no function: `    <file>:<line> | <source line>`), then the message's further
/// lines under `    reason:`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EvalError {
    /// Context put in front, each ending in `: ` (`Evaluating starlark template: `).
    pub lead: String,
    pub message: String,
    /// Innermost first.
    pub frames: Vec<EvalFrame>,
    /// Further errors printed after this one, each as its own `- <message>` with its
    /// frames (starlark-go's resolver reports every error of a file; ytt lists them all).
    pub also: Vec<EvalError>,
}

/// One frame of an [`EvalError`]: the function (none for syntax and name errors) and
/// where in it the error passed.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalFrame {
    pub function: Option<String>,
    pub pos: Position,
    /// The frame is in a Starlark file, whose lines ytt shows by number alone
    /// (`3 | ...`): it compiles `.star` code with positions that name no file.
    pub bare: bool,
}

impl EvalError {
    /// The innermost position.
    pub fn pos(&self) -> Option<&Position> {
        self.frames.first().map(|f| &f.pos)
    }

    /// Marks the frames in Starlark files (`is_starlark(file)`), which print their line
    /// number without the file's name, as ytt prints them.
    pub fn mark_starlark_frames(&mut self, is_starlark: &dyn Fn(&str) -> bool) {
        for f in &mut self.frames {
            f.bare = is_starlark(&f.pos.file);
        }
        for e in &mut self.also {
            e.mark_starlark_frames(is_starlark);
        }
    }

    /// Fills in the text of frame lines that have none, with `source(file, line)`.
    pub fn fill_texts(&mut self, source: &dyn Fn(&str, usize) -> Option<String>) {
        for f in &mut self.frames {
            if f.pos.text.is_none() && f.pos.line > 0 {
                f.pos.text = source(&f.pos.file, f.pos.line);
            }
        }
        for e in &mut self.also {
            e.fill_texts(source);
        }
    }
}

/// ytt's hint for a few messages of Starlark newcomers.
fn hint(topic: &str) -> &'static str {
    match topic {
        "undefined: true" => " (hint: use 'True' instead of 'true' for boolean assignment)",
        "undefined: false" => " (hint: use 'False' instead of 'false' for boolean assignment)",
        "got newline, want ':'" => " (hint: missing colon at the end of 'if/for/def' statement?)",
        "undefined: null" => " (hint: use 'None' instead of 'null' to indicate no value)",
        "undefined: nil" => " (hint: use 'None' instead of 'nil' to indicate no value)",
        "undefined: none" => " (hint: use 'None' instead of 'none' to indicate no value)",
        "unhandled index operation struct[string]" => {
            " (hint: use getattr(...) to access struct field programmatically)"
        }
        _ => "",
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lead)?;
        self.fmt_entry(f)?;
        self.also.iter().try_for_each(|e| e.fmt_entry(f))
    }
}

impl EvalError {
    /// `\n- <first message line><hint>`, the frames, then the message's further lines
    /// under `    reason:`.
    fn fmt_entry(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = self.message.split('\n');
        let topic = lines.next().unwrap_or("");
        write!(f, "\n- {topic}{}", hint(topic))?;
        for frame in &self.frames {
            let mut pad = "    ";
            if let Some(function) = &frame.function {
                write!(f, "\n    in {function}")?;
                pad = "      ";
            }
            let p = &frame.pos;
            let text = p.text.as_deref().unwrap_or("");
            let shown = crate::ytt::starlark::error::shown_line(text);
            if frame.bare {
                write!(f, "\n{pad}{} | {shown}", p.line)?;
            } else {
                write!(f, "\n{pad}{}:{} | {shown}", p.file, p.line)?;
            }
        }
        let mut reason = lines.peekable();
        if reason.peek().is_some() {
            write!(f, "\n\n    reason:")?;
            for line in reason {
                write!(f, "\n     {line}")?;
            }
        }
        Ok(())
    }
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

    /// A Starlark syntax error at `pos`, shown as ytt shows those: `- <message>` over
    /// `<file>:<line> | <text>`.
    pub fn syntax_at(message: impl Into<String>, pos: Position) -> Error {
        Error::Eval(Box::new(EvalError {
            lead: String::new(),
            message: message.into(),
            frames: vec![EvalFrame {
                function: None,
                pos,
                bare: false,
            }],
            also: Vec::new(),
        }))
    }

    /// The innermost position of a template error.
    pub fn pos(&self) -> Option<&Position> {
        match self {
            Error::Template { pos, .. } => pos.as_ref(),
            Error::Eval(e) => e.pos(),
            _ => None,
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

    /// The error without its position when its message names its place (see
    /// [`names_its_place`]), as ytt prints such messages, with no source line. Other
    /// errors keep their position.
    pub fn without_pos(self) -> Error {
        match self {
            Error::Template { message, pos } if names_its_place(&message, pos.as_ref()) => {
                Error::Template { message, pos: None }
            }
            e => e,
        }
    }

    /// The message as Go's `err.Error()` gives it in ytt: an evaluation error's lead and
    /// message without its call stack (starlark-go's `EvalError.Error()` is its message
    /// alone), a template error's message without its position.
    pub fn flat_message(&self) -> String {
        match self {
            Error::Usage(m) | Error::Io(m) => m.clone(),
            Error::Template { message, .. } => message.clone(),
            Error::Eval(e) => format!("{}{}", e.lead, e.message),
        }
    }

    /// Prefixes the message with context (such as which overlay or data value).
    pub fn context(self, prefix: &str) -> Error {
        match self {
            Error::Template { message, pos } => Error::Template {
                message: format!("{prefix}: {message}"),
                pos,
            },
            Error::Eval(mut e) => {
                e.lead = format!("{prefix}: {}", e.lead);
                Error::Eval(e)
            }
            Error::Io(m) => Error::Io(format!("{prefix}: {m}")),
            Error::Usage(m) => Error::Usage(format!("{prefix}: {m}")),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Io(m) => write!(f, "{m}"),
            Error::Eval(e) => write!(f, "{e}"),
            Error::Template { message, pos } => {
                write!(f, "{message}")?;
                // A message that names its place is printed alone, as ytt prints it.
                let named = names_its_place(message, pos.as_ref());
                if let Some(p) = pos.as_ref().filter(|p| p.line > 0 && !named) {
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

/// Whether a template error's message names its place itself, so that no position is
/// shown under it (ytt prints such messages alone). It does when it holds a
/// `<file>:<line>`:
/// - its own position's, anywhere (`... at line a.yml:3 ...`); or
/// - any place after ` on line `, as ytt's overlay and data values contexts put it
///   (`Document on line a.yml:3: ...`, `Map item (key 'a') on line a.yml:5: ...`;
///   `a.yml:?` when the line is unknown).
///
/// A bare line number (`the block opened on line 3`) names no place.
fn names_its_place(message: &str, pos: Option<&Position>) -> bool {
    let own = pos.is_some_and(|p| message.contains(&format!("{}:{}", p.file, p.line)));
    own || message
        .match_indices(" on line ")
        .any(|(at, lead)| starts_with_file_line(&message[at + lead.len()..]))
}

/// Whether `text` starts with `<file>:<line>` (the line a number or `?`); a bare
/// number before the colon is a line, not a file.
fn starts_with_file_line(text: &str) -> bool {
    let Some((file, after)) = text.split_once(':') else {
        return false;
    };
    !file.is_empty()
        && !file.chars().all(|c| c.is_ascii_digit())
        && after.starts_with(|c: char| c.is_ascii_digit() || c == '?')
}

/// Converts an interpreter error into an engine error: syntax and name errors point at
/// their position; evaluation errors carry the call stack, innermost frame first
/// (frames of natives, which have no position, are left out as ytt leaves them out).
pub fn starlark_error(e: &SError) -> Error {
    use crate::ytt::starlark::ErrorKind;
    let frame = |function: Option<String>, p: &crate::ytt::starlark::Position| EvalFrame {
        bare: false,
        function,
        pos: Position {
            file: p.file.to_string(),
            line: p.line as usize,
            text: None,
        },
    };
    let mut frames: Vec<EvalFrame> = match e.kind {
        ErrorKind::Syntax | ErrorKind::Resolve => e.pos.iter().map(|p| frame(None, p)).collect(),
        ErrorKind::Eval if e.stack.is_empty() => e
            .pos
            .iter()
            .map(|p| frame(Some("<toplevel>".to_string()), p))
            .collect(),
        ErrorKind::Eval => e
            .stack
            .iter()
            .rev()
            .filter(|f| f.pos.line > 0 && !is_internal_source(&f.pos.file))
            .map(|f| frame(Some(f.function.clone()), &f.pos))
            .collect(),
    };
    if frames.is_empty() && e.pos.is_none() && e.kind == ErrorKind::Eval {
        return Error::msg(e.msg.clone());
    }
    if let (Some(first), Some(p)) = (frames.first_mut(), &e.pos)
        && first.pos.file == *p.file
        && first.pos.line == p.line as usize
    {
        first.pos.text = e.source_line.clone();
    }
    let also = e
        .more
        .iter()
        .filter_map(|m| match starlark_error(m) {
            Error::Eval(x) => Some(*x),
            _ => None,
        })
        .collect();
    Error::Eval(Box::new(EvalError {
        lead: String::new(),
        message: e.msg.clone(),
        frames,
        also,
    }))
}

/// ytt's final layout of an error message: the first line is split after each `: `
/// that a capital letter follows (not inside brackets, parentheses or braces), each
/// piece indented two spaces more than the one before; other lines stay as they are.
pub fn multi_line(message: &str) -> String {
    let (first, rest) = match message.split_once('\n') {
        Some((first, rest)) => (first, Some(rest)),
        None => (message, None),
    };
    let Some(split) = split_first_line(first) else {
        return message.to_string();
    };
    let mut out = String::new();
    for (i, chunk) in split.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&"  ".repeat(i));
        out.push_str(chunk);
    }
    if let Some(rest) = rest {
        out.push('\n');
        out.push_str(rest);
    }
    out
}

/// The first line with `: X` turned into `:\nX` outside of brackets; `None` when the
/// brackets do not balance (ytt then leaves the message alone).
fn split_first_line(line: &str) -> Option<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut depth = 0usize;
    let mut raw = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if raw {
            out.push(c);
            if c == '|' && line_ends_with(&chars[..=i], "|...") {
                raw = false;
            }
            i += 1;
            continue;
        }
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
            }
            _ => {}
        }
        if c == '.' && chars.len() > i + 4 && chars[i..i + 4].iter().collect::<String>() == "...|" {
            raw = true;
            out.push(c);
            i += 1;
            continue;
        }
        if depth == 0
            && c == ':'
            && chars.get(i + 1) == Some(&' ')
            && chars.get(i + 2).is_some_and(|n| n.is_ascii_uppercase())
        {
            out.push_str(":\n");
            i += 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    (depth == 0 && !raw).then_some(out)
}

fn line_ends_with(chars: &[char], suffix: &str) -> bool {
    let n = suffix.chars().count();
    chars.len() >= n && chars[chars.len() - n..].iter().copied().eq(suffix.chars())
}

/// The file name under which the engine evaluates Starlark source of its own (the
/// lambda of an `@ytt:assert` assertion, `<assert.min>`).
pub fn internal_source(name: &str) -> String {
    format!("<{name}>")
}

/// Whether `file` names Starlark source of the engine's own ([`internal_source`]): ytt
/// cannot show such lines in an error (it has no template of that name), so their
/// frames are left out, as those of built-ins are.
pub fn is_internal_source(file: &str) -> bool {
    file.starts_with('<') && file.ends_with('>') && file.len() > 2
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
    fn a_message_names_its_place_by_its_own_position_or_after_on_line() {
        let pos = Position::in_source("a.yml", 3, "a: 1\nb: 2\nc: 3\n");
        // Its own `file:line`, anywhere in the message.
        let own = "Compiling YAML template 'a.yml': Unexpected code at line a.yml:3";
        assert!(names_its_place(own, Some(&pos)));
        assert!(!names_its_place(own, None));
        // A place after ` on line `, whatever the position.
        let context = "Document on line b.yml:7: Expected number of matched nodes to be 1";
        assert!(names_its_place(context, Some(&pos)));
        assert!(names_its_place(context, None));
        assert!(names_its_place(
            "Map item (key 'k') on line b.yml:?: x",
            None
        ));
        // No place: another file:line than its own, or a bare line number.
        assert!(!names_its_place("undefined: foo (see a.yml:4)", Some(&pos)));
        let bare = "Missing 'end' for the block opened on line 3 (last line of the template is 5)";
        assert!(!names_its_place(bare, Some(&pos)));
        assert!(!names_its_place("1.yml: Expected 2", None));

        // Both paths follow the rule: named messages lose their position and print
        // alone; others keep and print it.
        assert_eq!(Error::at(context, pos.clone()).without_pos().pos(), None);
        assert_eq!(Error::at(own, pos.clone()).to_string(), own);
        assert_eq!(Error::at(context, pos.clone()).to_string(), context);
        let kept = Error::at(bare, pos.clone()).without_pos();
        assert_eq!(kept.pos(), Some(&pos));
        assert_eq!(
            kept.to_string(),
            format!("{bare}\n    in a.yml:3\n      a.yml:3 | c: 3")
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

    fn eval_error(message: &str, frames: &[(Option<&str>, usize, &str)]) -> Error {
        Error::Eval(Box::new(EvalError {
            lead: String::new(),
            message: message.to_string(),
            frames: frames
                .iter()
                .map(|(function, line, text)| EvalFrame {
                    bare: false,
                    function: function.map(str::to_string),
                    pos: Position {
                        file: "config.yml".into(),
                        line: *line,
                        text: Some(text.to_string()),
                    },
                })
                .collect(),
            also: Vec::new(),
        }))
    }

    #[test]
    fn eval_errors_print_their_stack_innermost_first() {
        let e = eval_error(
            "fail: boom",
            &[
                (Some("f"), 2, "#@   fail(\"boom\")"),
                (Some("<toplevel>"), 4, "a: #@ f()"),
            ],
        );
        assert_eq!(
            e.to_string(),
            "\n- fail: boom\n    in f\n      config.yml:2 | #@   fail(\"boom\")\n    in <toplevel>\n      config.yml:4 | a: #@ f()"
        );
        assert_eq!(
            e.context("Evaluating starlark template")
                .to_string()
                .lines()
                .next(),
            Some("Evaluating starlark template: ")
        );
    }

    #[test]
    fn name_errors_have_no_function_and_get_hints() {
        let e = eval_error("undefined: true", &[(None, 1, "a: #@ true")]);
        assert_eq!(
            e.to_string(),
            "\n- undefined: true (hint: use 'True' instead of 'true' for boolean assignment)\n    config.yml:1 | a: #@ true"
        );
    }

    #[test]
    fn further_message_lines_become_the_reason() {
        let e = eval_error(
            "cannot load h.star: Evaluating starlark template: \n- undefined: y\n    h.star:2 |   return y",
            &[(Some("<toplevel>"), 1, "#@ load(\"h.star\", \"x\")")],
        );
        assert_eq!(
            e.to_string(),
            "\n- cannot load h.star: Evaluating starlark template: \n    in <toplevel>\n      config.yml:1 | #@ load(\"h.star\", \"x\")\n\n    reason:\n     - undefined: y\n         h.star:2 |   return y"
        );
    }

    #[test]
    fn multi_line_splits_the_first_line_at_colon_capital() {
        assert_eq!(
            multi_line(
                "Overlaying (in following order: a.yml: B): Document on line a.yml:3: Expected 1\nnext: Line"
            ),
            "Overlaying (in following order: a.yml: B):\n  Document on line a.yml:3:\n    Expected 1\nnext: Line"
        );
        assert_eq!(
            multi_line("\n- undefined: X\n    a"),
            "\n- undefined: X\n    a"
        );
        assert_eq!(multi_line("a: b: c"), "a: b: c");
        // unbalanced brackets: left alone
        assert_eq!(multi_line("x) A: B"), "x) A: B");
        assert_eq!(multi_line("(x A: B"), "(x A: B");
    }
}
