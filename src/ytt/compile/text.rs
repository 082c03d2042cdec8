//! Text templates: `(@ code @)`, `(@= expr @)` and the trim markers `(@-` / `-@)`,
//! compiled into Starlark statements that build a string, as ytt's texttemplate does.
//! Used for `.txt` files and for YAML strings under `#@yaml/text-templated-strings`.

use super::program::{BlockError, Program};

/// Host function that appends literal text to the current text context.
pub const TEXT_PUT: &str = "__ytt_text";
/// Host function that appends the value of a `(@= … @)` expression (must be a string).
pub const TEXT_EXPR: &str = "__ytt_text_expr";

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String, usize),
    Code {
        code: String,
        line: usize,
        print: bool,
    },
}

/// Why a text template cannot be compiled: its `(@`/`@)` directives do not pair up
/// (ytt's words, with the line and column of the offending character), or a code
/// piece does not make a valid block.
#[derive(Debug, Clone, PartialEq)]
pub enum TextError {
    Syntax { line: usize, message: String },
    Block(BlockError),
}

impl From<BlockError> for TextError {
    fn from(e: BlockError) -> Self {
        TextError::Block(e)
    }
}

impl TextError {
    /// The error at its line, a directive error led by `lead` (ytt's `Parsing text
    /// template 'f.txt'` or `Compiling YAML template 'f.yml'`).
    pub fn led_by(self, lead: &str) -> BlockError {
        match self {
            TextError::Syntax { line, message } => BlockError {
                line,
                message: format!("{lead}: {message}"),
                syntax: false,
            },
            TextError::Block(e) => e,
        }
    }
}

/// A code piece's markers as ytt reads them: `-` first trims the text before it, `-`
/// last trims the text after it, and `=` (or `-=`) first prints its value. The code is
/// what remains once `-=`, then `=`, then `-` are taken off the front and `-` off the end.
struct CodeMeta<'a> {
    trim_left: bool,
    trim_right: bool,
    print: bool,
    code: &'a str,
}

fn code_meta(content: &str) -> CodeMeta<'_> {
    let mut code = content.strip_prefix("-=").unwrap_or(content);
    code = code.strip_prefix('=').unwrap_or(code);
    code = code.strip_prefix('-').unwrap_or(code);
    code = code.strip_suffix('-').unwrap_or(code);
    CodeMeta {
        trim_left: content.starts_with('-'),
        trim_right: content.ends_with('-'),
        print: content.starts_with('=') || content.starts_with("-="),
        code,
    }
}

/// One piece as the scanner cut it, before trim markers are applied.
enum Raw<'a> {
    Text(&'a str, usize),
    Code(&'a str, usize),
}

/// Cuts a text template at its `(@` and `@)` directives as ytt's scanner does: a pair
/// of characters opens or closes code wherever it appears, so an opening inside code or
/// a closing inside text is an error, reported at the second character of the pair.
fn scan(src: &str, first_line: usize) -> Result<Vec<Raw<'_>>, TextError> {
    let mut raws = Vec::new();
    let (mut line, mut col) = (first_line, 1);
    let mut last = '\0';
    // Start offset and line of the piece being read, and whether it is code.
    let (mut start, mut start_line, mut in_code) = (0, first_line, false);
    for (i, c) in src.char_indices() {
        if last == '(' && c == '@' {
            if in_code {
                return Err(TextError::Syntax {
                    line,
                    message: format!("Unexpected code opening '(@' at line {line} col {col}"),
                });
            }
            raws.push(Raw::Text(&src[start..i - 1], start_line));
            (start, start_line, in_code) = (i + 1, line, true);
        }
        if last == '@' && c == ')' {
            if !in_code {
                return Err(TextError::Syntax {
                    line,
                    message: format!("Unexpected code closing '@)' at line {line} col {col}"),
                });
            }
            // `(@)` closes the code it opened: nothing is between the two.
            raws.push(Raw::Code(src.get(start..i - 1).unwrap_or(""), start_line));
            (start, start_line, in_code) = (i + 1, line, false);
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
        last = c;
    }
    if in_code {
        return Err(TextError::Syntax {
            line,
            message: format!("Missing code closing '@)' at line {line} col {col}"),
        });
    }
    raws.push(Raw::Text(&src[start..], start_line));
    Ok(raws)
}

/// Splits a text template into pieces; trim markers are applied to neighbouring text.
/// `first_line` is the template line of the first character.
fn parse(src: &str, first_line: usize) -> Result<Vec<Piece>, TextError> {
    let mut pieces = Vec::new();
    let mut trim_next = false;
    for raw in scan(src, first_line)? {
        match raw {
            Raw::Text(t, line) => {
                let t = if trim_next {
                    t.trim_start_matches(char::is_whitespace)
                } else {
                    t
                };
                trim_next = false;
                pieces.push(Piece::Text(t.to_string(), line));
            }
            Raw::Code(content, line) => {
                let meta = code_meta(content);
                trim_next = meta.trim_right;
                if meta.trim_left
                    && let Some(Piece::Text(prev, _)) = pieces.last_mut()
                {
                    prev.truncate(prev.trim_end_matches(char::is_whitespace).len());
                }
                pieces.push(Piece::Code {
                    code: meta.code.trim().to_string(),
                    line,
                    print: meta.print,
                });
            }
        }
    }
    pieces.retain(|p| !matches!(p, Piece::Text(t, _) if t.is_empty()));
    Ok(pieces)
}

/// True when `s` holds a `(@` or `@)` directive: only then is a string worth compiling
/// (ytt compiles every templated string, and a lone `@)` is an error of its scanner;
/// any other string compiles to itself).
pub fn has_directives(s: &str) -> bool {
    s.contains("(@") || s.contains("@)")
}

/// Appends the statements of text template `src` to `prog`. The caller opens and closes
/// the text context around them (the top of a `.txt` file, or a templated YAML string).
pub fn compile_into(prog: &mut Program, src: &str, first_line: usize) -> Result<(), TextError> {
    for piece in parse(src, first_line)? {
        match piece {
            Piece::Text(t, line) => {
                prog.push_builder(format!("{TEXT_PUT}({})", starlark_string(&t)), line)
            }
            Piece::Code {
                code,
                line,
                print: true,
            } => prog.push_builder(format!("{TEXT_EXPR}(({code}))"), line),
            Piece::Code { code, line, .. } => {
                for (i, l) in code.split('\n').enumerate() {
                    prog.push_code(l, line + i)?;
                }
            }
        }
    }
    Ok(())
}

/// A double-quoted Starlark string literal for `s`.
pub fn starlark_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_and_prints() {
        let p = parse("[ (@- for p in ps: -@) (@= p @); (@- end -@) ]", 1).unwrap();
        assert_eq!(
            p,
            vec![
                Piece::Text("[".into(), 1),
                Piece::Code {
                    code: "for p in ps:".into(),
                    line: 1,
                    print: false
                },
                Piece::Code {
                    code: "p".into(),
                    line: 1,
                    print: true
                },
                Piece::Text(";".into(), 1),
                Piece::Code {
                    code: "end".into(),
                    line: 1,
                    print: false
                },
                Piece::Text("]".into(), 1),
            ]
        );
    }

    #[test]
    fn code_markers_follow_ytt() {
        let m = code_meta("=- x -");
        assert_eq!(
            (m.trim_left, m.trim_right, m.print, m.code),
            (false, true, true, " x ")
        );
        let m = code_meta("-");
        assert_eq!(
            (m.trim_left, m.trim_right, m.print, m.code),
            (true, true, false, "")
        );
        let m = code_meta("-=-x");
        assert_eq!(
            (m.trim_left, m.trim_right, m.print, m.code),
            (true, false, true, "x")
        );
    }

    #[test]
    fn a_closing_in_text_is_refused_at_its_column() {
        let e = parse("ab\n cd @) e", 4).unwrap_err();
        assert_eq!(
            e,
            TextError::Syntax {
                line: 5,
                message: "Unexpected code closing '@)' at line 5 col 6".into()
            }
        );
    }

    #[test]
    fn compiles_def_returning_text() {
        let mut prog = Program::new("text");
        compile_into(
            &mut prog,
            "(@ def f(x): -@)\n== (@= x @) ==\n(@- end @)\n",
            1,
        )
        .unwrap();
        assert_eq!(
            prog.source(),
            "def f(x):\n__ytt_begin(\"text\")\n__ytt_text(\"== \")\n__ytt_text_expr((x))\n__ytt_text(\" ==\")\nreturn __ytt_end()\nend\n__ytt_text(\"\\n\")\n"
        );
        assert_eq!(prog.src_line(5), 2);
    }
}
