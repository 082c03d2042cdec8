//! The generated Starlark program of one template file: source lines with the
//! template line each one came from, and the bookkeeping that turns `def … end`
//! blocks whose bodies build YAML nodes or text into functions that return a
//! yamlfragment (or a string), as ytt does.
//!
//! Code lines are copied as they are (left-trimmed unless the previous line ended
//! in `\`); the dialect closes blocks with `end`, so indentation is not needed.

/// Name of the host function that starts a new building context (`"yaml"` or `"text"`).
pub const BEGIN_CTX: &str = "__ytt_begin";
/// Name of the host function that ends the innermost context and returns what it built.
pub const END_CTX: &str = "__ytt_end";
/// Name of the host function that ends the innermost context and returns its argument
/// (an explicit `return` inside a def whose body builds nodes).
pub const END_CTX_WITH: &str = "__ytt_end_with";
/// Name of the host function that starts, in order, the nodes tagged `first..=last`:
/// `__ytt_starts(first, last)` stands for a run of plain `__ytt_start(tag)` lines.
pub const STARTS: &str = "__ytt_starts";
/// Name of the host function that starts one node: `__ytt_start(tag[, key])`.
pub const START: &str = "__ytt_start";
/// Name of the host function that a bare `x.replace(...)` statement of a template is
/// wrapped in: when its value is a `template.replace(...)`, the node started last takes
/// it in its place (see [`crate::ytt::eval::builder::Builder::replace_here`]).
pub const REPLACE_HERE: &str = "__ytt_replace_here";

/// One generated line and the 1-based template line it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct GenLine {
    pub text: String,
    pub src_line: usize,
}

#[derive(Debug)]
enum Block {
    Def {
        /// Index in `lines` after which `__ytt_begin` goes if the body builds something.
        def_line: usize,
        builds: bool,
        returns: Vec<usize>,
    },
    /// `if`/`for`/`while`, opened at a template line.
    Other(usize),
}

/// A Starlark program under construction.
#[derive(Debug)]
pub struct Program {
    pub lines: Vec<GenLine>,
    blocks: Vec<Block>,
    /// Open bracket depth carried from the previous code line.
    depth: i32,
    /// The previous code line ended in `\`.
    continued: bool,
    /// Open string literal carried from the previous code line (quote char, triple).
    quote: Option<(char, bool)>,
    ctx_kind: &'static str,
    /// The run of plain starts that the last line holds, if it holds one (every other
    /// way of adding a line ends the run).
    start_run: Option<StartRun>,
    /// The `def`/`if`/`for`/`while` statement whose lines are being read: it opens a
    /// block if its last line ends in `:`.
    header: Option<Header>,
}

/// The start of a statement that may open a block.
#[derive(Debug)]
struct Header {
    is_def: bool,
    /// Index in `lines` of the statement's first line.
    line_idx: usize,
    src_line: usize,
}

/// The last generated line, when it starts the consecutive nodes `first..=last`.
#[derive(Debug)]
struct StartRun {
    first: usize,
    last: usize,
    /// Where `last` is written in the line's text (`None` while it is `__ytt_start(first)`).
    last_at: Option<usize>,
}

/// A problem with the block structure of template code.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockError {
    pub line: usize,
    pub message: String,
    /// The error is one of the Starlark syntax (ytt's block scanner), shown as ytt shows
    /// syntax errors: `- <message>` over the template line.
    pub syntax: bool,
}

impl Program {
    /// A new program whose defs build contexts of kind `ctx_kind` (`"yaml"` or `"text"`).
    pub fn new(ctx_kind: &'static str) -> Self {
        Program {
            lines: Vec::new(),
            blocks: Vec::new(),
            depth: 0,
            continued: false,
            quote: None,
            ctx_kind,
            start_run: None,
            header: None,
        }
    }

    /// Marks the innermost enclosing def as one that returns what it built.
    fn mark_building(&mut self) {
        for b in self.blocks.iter_mut().rev() {
            if let Block::Def { builds, .. } = b {
                *builds = true;
                break;
            }
        }
    }

    /// Adds `__ytt_start(tag)` (a node with no computed key). Consecutive tags started
    /// by consecutive lines share one `__ytt_starts(first, last)` line: most nodes of a
    /// template are plain, and one statement per run keeps the program short. The run's
    /// line keeps the template line of its first node.
    pub fn push_start(&mut self, tag: usize, src_line: usize) {
        use std::fmt::Write as _;
        self.mark_building();
        if let Some(run) = &mut self.start_run
            && run.last.checked_add(1) == Some(tag)
            && let Some(GenLine { text, .. }) = self.lines.last_mut()
        {
            match run.last_at {
                Some(at) => text.truncate(at),
                None => {
                    // The second node of the run: `__ytt_start(first)` becomes a range.
                    *text = format!("{STARTS}({}, ", run.first);
                    run.last_at = Some(text.len());
                }
            }
            write!(text, "{tag})").expect("writing to a String");
            run.last = tag;
            return;
        }
        self.lines.push(GenLine {
            text: host_call(START, tag, &[]),
            src_line,
        });
        self.start_run = Some(StartRun {
            first: tag,
            last: tag,
            last_at: None,
        });
    }

    /// Adds a host call or other generated statement that builds output; it marks the
    /// innermost enclosing def as one that returns what it built.
    pub fn push_builder(&mut self, text: String, src_line: usize) {
        self.mark_building();
        self.start_run = None;
        self.lines.push(GenLine { text, src_line });
    }

    /// Adds a generated statement that does not build output.
    pub fn push_plain(&mut self, text: String, src_line: usize) {
        self.start_run = None;
        self.lines.push(GenLine { text, src_line });
    }

    /// Adds one template code line (the text after `#@ `), tracking blocks.
    pub fn push_code(&mut self, raw: &str, src_line: usize) -> Result<(), BlockError> {
        self.start_run = None;
        let text = if self.continued {
            raw.to_string()
        } else {
            raw.trim_start().to_string()
        };
        let starts_statement = !self.continued && self.depth == 0 && self.quote.is_none();
        let (stmt, depth_after, ends_backslash, quote) = scan_code(&text, self.depth, self.quote);
        self.depth = depth_after;
        self.quote = quote;
        self.continued = ends_backslash;
        if starts_statement {
            let first = first_word(stmt);
            let idx = self.lines.len();
            match first {
                "def" | "if" | "for" | "while" => {
                    self.header = Some(Header {
                        is_def: first == "def",
                        line_idx: idx,
                        src_line,
                    });
                }
                "elif" | "else" if self.blocks.is_empty() => {
                    // ytt's block scanner closes a block before `elif`/`else:`, and
                    // there is none to close.
                    return Err(BlockError {
                        line: src_line,
                        message: "unexpected end".into(),
                        syntax: true,
                    });
                }
                "end" if stmt.trim() == "end" => {
                    match self.blocks.pop() {
                        None => {
                            return Err(BlockError {
                                line: src_line,
                                message: "unexpected end".into(),
                                syntax: true,
                            });
                        }
                        Some(Block::Def {
                            def_line,
                            builds,
                            returns,
                        }) => {
                            if builds {
                                for r in returns {
                                    let l = &mut self.lines[r];
                                    l.text = rewrite_return(&l.text);
                                }
                                let src = self.lines[def_line].src_line;
                                // the return goes just before `end`
                                self.lines.push(GenLine {
                                    text: format!("return {END_CTX}()"),
                                    src_line,
                                });
                                self.lines.insert(
                                    def_line + 1,
                                    GenLine {
                                        text: format!("{BEGIN_CTX}(\"{}\")", self.ctx_kind),
                                        src_line: src,
                                    },
                                );
                                // Block indices held by enclosing defs stay valid: they
                                // point before def_line.
                                for b in self.blocks.iter_mut() {
                                    if let Block::Def { returns, .. } = b {
                                        for r in returns.iter_mut() {
                                            if *r > def_line {
                                                *r += 1;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        Some(Block::Other(_)) => {}
                    }
                }
                "return" => {
                    if let Some(Block::Def { returns, .. }) = self
                        .blocks
                        .iter_mut()
                        .rev()
                        .find(|b| matches!(b, Block::Def { .. }))
                    {
                        returns.push(idx);
                    }
                }
                _ => {}
            }
        }
        // A block header ends with its statement's last line: `def f(x):` opens a
        // block that `end` closes, `def f(x): return x` is whole on its line.
        if !self.continued
            && self.depth == 0
            && self.quote.is_none()
            && let Some(h) = self.header.take()
            && ends_with_colon(stmt)
        {
            self.blocks.push(if h.is_def {
                Block::Def {
                    def_line: h.line_idx,
                    builds: false,
                    returns: Vec::new(),
                }
            } else {
                Block::Other(h.src_line)
            });
        }
        self.lines.push(GenLine { text, src_line });
        Ok(())
    }

    /// Checks that every block was closed; an open one is named by the line that opened
    /// it, as ytt's block scanner names it at the end of the program.
    pub fn finish(&self) -> Result<(), BlockError> {
        if let Some(b) = self.blocks.last() {
            let line = match b {
                Block::Def { def_line, .. } => self.lines[*def_line].src_line,
                Block::Other(l) => *l,
            };
            return Err(BlockError {
                line,
                message:
                    "mismatched set of block openings (if/else/elif/for/def) and closing (end)"
                        .into(),
                syntax: true,
            });
        }
        Ok(())
    }

    /// [`Program::finish`], except that a syntax error met before the end of the
    /// program comes first: ytt's block scanner finds an unclosed block only when the
    /// parser reaches the end, so an earlier parse error is the one reported.
    pub fn check_blocks(&self) -> Result<(), BlockError> {
        let unclosed = match self.finish() {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        match crate::ytt::starlark::parse_file("", &self.source()) {
            Err(e)
                if e.kind == crate::ytt::starlark::ErrorKind::Syntax
                    && !e.msg.starts_with("mismatched set") =>
            {
                Err(BlockError {
                    line: self.src_line(e.pos.as_ref().map_or(0, |p| p.line as usize)),
                    message: e.msg.clone(),
                    syntax: true,
                })
            }
            _ => Err(unclosed),
        }
    }

    /// The program text, one generated line per entry.
    pub fn source(&self) -> String {
        let len = self.lines.iter().map(|l| l.text.len() + 1).sum();
        let mut s = String::with_capacity(len);
        for l in &self.lines {
            s.push_str(&l.text);
            s.push('\n');
        }
        s
    }

    /// The template line of generated line `gen_line` (1-based).
    pub fn src_line(&self, gen_line: usize) -> usize {
        if gen_line == 0 {
            return 0;
        }
        self.lines
            .get(gen_line - 1)
            .or(self.lines.last())
            .map(|l| l.src_line)
            .unwrap_or(0)
    }
}

/// The generated line `name(tag<rest…>)`: a host call, built directly (the compiler
/// makes one or more per node, and the formatting machinery costs more than the text).
pub fn host_call(name: &str, tag: usize, rest: &[&str]) -> String {
    use std::fmt::Write as _;
    let rest_len: usize = rest.iter().map(|r| r.len()).sum();
    let mut s = String::with_capacity(name.len() + rest_len + 8);
    s.push_str(name);
    s.push('(');
    write!(s, "{tag}").expect("writing to a String");
    for r in rest {
        s.push_str(r);
    }
    s.push(')');
    s
}

fn first_word(s: &str) -> &str {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

fn ends_with_colon(s: &str) -> bool {
    s.trim_end().ends_with(':')
}

/// `return X` → `return __ytt_end_with(X)`.
fn rewrite_return(line: &str) -> String {
    let t = line.trim_start();
    let rest = t["return".len()..].trim();
    let (expr, comment) = split_comment(rest);
    let expr = expr.trim();
    if expr.is_empty() {
        format!("return {END_CTX_WITH}(None){comment}")
    } else {
        format!("return {END_CTX_WITH}(({expr})){comment}")
    }
}

/// Splits off a trailing `# comment` that is not inside a string literal.
pub fn split_comment(s: &str) -> (&str, &str) {
    let mut quote: Option<char> = None;
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some(q) => {
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    quote = None;
                }
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                } else if c == '#' {
                    return (&s[..i], &s[i..]);
                }
            }
        }
    }
    (s, "")
}

/// Returns the statement text (without a trailing comment when the line starts outside
/// a string), the bracket depth after the line, whether the line ends in a `\`
/// continuation, and the string literal still open at its end. Works on bytes: every
/// character it looks for is ASCII, and no byte of a multi-byte UTF-8 character is.
fn scan_code(
    text: &str,
    depth: i32,
    open: Option<(char, bool)>,
) -> (&str, i32, bool, Option<(char, bool)>) {
    let bytes = text.as_bytes();
    let mut d = depth;
    // Quotes are ASCII: `"` or `'`.
    let mut quote = open.map(|(q, tri)| (q as u8, tri));
    let mut code_end = bytes.len();
    let triple = |i: usize, q: u8| i + 2 < bytes.len() && bytes[i + 1] == q && bytes[i + 2] == q;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match quote {
            Some((q, tri)) => {
                if c == b'\\' {
                    // The escaped character is skipped (its first byte; the rest of a
                    // multi-byte one matches nothing).
                    i += 2;
                    continue;
                } else if c == q && (!tri || triple(i, q)) {
                    quote = None;
                    if tri {
                        i += 2;
                    }
                }
            }
            None => match c {
                b'"' | b'\'' => {
                    let tri = triple(i, c);
                    quote = Some((c, tri));
                    if tri {
                        i += 2;
                    }
                }
                b'#' => {
                    code_end = i;
                    break;
                }
                b'(' | b'[' | b'{' => d += 1,
                b')' | b']' | b'}' => d -= 1,
                _ => {}
            },
        }
        i += 1;
    }
    let code = &text[..code_end];
    let backslash = code.trim_end_matches([' ', '\t']).ends_with('\\');
    // A single-quoted string cannot span lines without `\`.
    if let Some((_, false)) = quote
        && !backslash
    {
        quote = None;
    }
    (
        code,
        d.max(0),
        backslash,
        quote.map(|(q, tri)| (char::from(q), tri)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_code_finds_comments_brackets_and_open_strings_around_multibyte_text() {
        // A `#` inside a string is text; after it, a comment.
        assert_eq!(
            scan_code("x = \"é#ü\" # ß", 0, None),
            ("x = \"é#ü\" ", 0, false, None)
        );
        // An escaped multi-byte character and an escaped quote stay inside the string.
        assert_eq!(
            scan_code("f(\"\\é\\\"(\", [", 0, None),
            ("f(\"\\é\\\"(\", [", 2, false, None)
        );
        // A triple-quoted string opened here is still open at the end of the line...
        assert_eq!(
            scan_code("s = \"\"\"ñ # (", 0, None),
            ("s = \"\"\"ñ # (", 0, false, Some(('"', true)))
        );
        // ...and closed on the next, where code resumes.
        assert_eq!(
            scan_code("ö\"\"\") # c", 1, Some(('"', true))),
            ("ö\"\"\") ", 0, false, None)
        );
        // A continued line, and a single-quoted string that a line end closes.
        assert_eq!(
            scan_code("y = 'ä' + \\", 0, None),
            ("y = 'ä' + \\", 0, true, None)
        );
        assert_eq!(scan_code("z = 'ä", 0, None), ("z = 'ä", 0, false, None));
    }

    #[test]
    fn def_with_nodes_gets_context() {
        let mut p = Program::new("yaml");
        p.push_code("def f():", 1).unwrap();
        p.push_builder("__ytt_set(1, 2)".into(), 2);
        p.push_code("return 3", 3).unwrap();
        p.push_code("end", 4).unwrap();
        p.finish().unwrap();
        let src = p.source();
        assert_eq!(
            src,
            "def f():\n__ytt_begin(\"yaml\")\n__ytt_set(1, 2)\nreturn __ytt_end_with((3))\nreturn __ytt_end()\nend\n"
        );
        assert_eq!(p.src_line(2), 1);
        assert_eq!(p.src_line(5), 4);
    }

    #[test]
    fn def_without_nodes_is_untouched_and_continuation_keeps_spaces() {
        let mut p = Program::new("yaml");
        p.push_code("def f():", 1).unwrap();
        p.push_code("  x = \"a \\", 2).unwrap();
        p.push_code("   b\"", 3).unwrap();
        p.push_code("  return x", 4).unwrap();
        p.push_code("end", 5).unwrap();
        assert_eq!(p.source(), "def f():\nx = \"a \\\n   b\"\nreturn x\nend\n");
    }

    #[test]
    fn one_line_def_and_headers_spanning_lines_open_blocks_only_when_ending_in_a_colon() {
        let mut p = Program::new("yaml");
        p.push_code("def f(x): return x * 2", 1).unwrap();
        p.push_code("def g(a,", 2).unwrap();
        p.push_code("      b): return a", 3).unwrap();
        p.push_code("for x in [", 4).unwrap();
        p.push_code("  1]:", 5).unwrap();
        p.push_code("end", 6).unwrap();
        p.finish().unwrap();
        let mut p = Program::new("yaml");
        p.push_code("def f(x): return x", 1).unwrap();
        assert!(p.push_code("end", 2).is_err());
        let mut p = Program::new("yaml");
        p.push_code("if x: y = 1", 1).unwrap();
        let e = p.push_code("else: y = 2", 2).unwrap_err();
        assert_eq!((e.line, e.message.starts_with("unexpected end")), (2, true));
        let mut p = Program::new("yaml");
        p.push_code("def h(a,", 1).unwrap();
        p.push_code("  b):", 2).unwrap();
        assert_eq!(p.finish().unwrap_err().line, 1);
    }

    #[test]
    fn unclosed_block_is_reported() {
        let mut p = Program::new("yaml");
        p.push_code("if True:", 3).unwrap();
        assert_eq!(p.finish().unwrap_err().line, 3);
        let mut p = Program::new("yaml");
        assert!(p.push_code("end", 2).is_err());
    }
}
