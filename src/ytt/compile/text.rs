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

/// Splits a text template into pieces; trim markers are applied to neighbouring text.
/// `first_line` is the template line of the first character.
fn parse(src: &str, first_line: usize) -> Result<Vec<Piece>, BlockError> {
    let mut pieces = Vec::new();
    let mut rest = src;
    let mut line = first_line;
    let mut trim_next = false;
    while !rest.is_empty() {
        match rest.find("(@") {
            None => {
                push_text(&mut pieces, rest, line, trim_next);
                break;
            }
            Some(start) => {
                let text = &rest[..start];
                let mut after = &rest[start + 2..];
                let mut trim_prev = false;
                if let Some(a) = after.strip_prefix('-') {
                    trim_prev = true;
                    after = a;
                }
                let mut print = false;
                if let Some(a) = after.strip_prefix('=') {
                    print = true;
                    after = a;
                }
                let text = if trim_prev {
                    text.trim_end_matches(is_ws)
                } else {
                    text
                };
                push_text(&mut pieces, text, line, trim_next);
                line += rest[..start].matches('\n').count();
                let Some(end) = after.find("@)") else {
                    return Err(BlockError {
                        line,
                        message: "text template: Missing code closing '@)' for '(@'".into(),
                        syntax: false,
                    });
                };
                let mut code = &after[..end];
                trim_next = false;
                if let Some(c) = code.strip_suffix('-') {
                    trim_next = true;
                    code = c;
                }
                pieces.push(Piece::Code {
                    code: code.trim().to_string(),
                    line,
                    print,
                });
                line += after[..end].matches('\n').count();
                rest = &after[end + 2..];
            }
        }
    }
    Ok(pieces)
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

fn push_text(pieces: &mut Vec<Piece>, text: &str, line: usize, trim_start: bool) {
    let text = if trim_start {
        text.trim_start_matches(is_ws)
    } else {
        text
    };
    if !text.is_empty() {
        pieces.push(Piece::Text(text.to_string(), line));
    }
}

/// True when `s` holds a `(@` directive (only then is a string worth compiling).
pub fn has_directives(s: &str) -> bool {
    s.contains("(@")
}

/// Appends the statements of text template `src` to `prog`. The caller opens and closes
/// the text context around them (the top of a `.txt` file, or a templated YAML string).
pub fn compile_into(prog: &mut Program, src: &str, first_line: usize) -> Result<(), BlockError> {
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
