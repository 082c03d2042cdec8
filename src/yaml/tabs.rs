//! Tabs that libyaml's scanner (so go-yaml v2, so ytt) refuses where granit-parser takes
//! them as white space. libyaml's `yaml_parser_scan_to_next_token` skips a tab only in a
//! flow collection or where a simple key cannot start; in block context that is not so at
//! the start of a line, after `-` or `?`, nor after the `:` of a `?` key. There the tab
//! is read as the start of a token, which no token can start with. And the plain scalar
//! scanner, which reads on over the blank lines and indentation after a plain scalar,
//! refuses a tab there left of the block collection's indentation.

use granit_parser::{Scanner, StrInput, TokenType};

/// libyaml's problem for a tab that cannot start a token.
const CANNOT_START: &str = "found character that cannot start any token";

/// The 1-based line and go-yaml's problem of the first tab libyaml refuses (see the
/// module documentation), if there is one.
pub(super) fn refused_tab(text: &str) -> Option<(usize, &'static str)> {
    if !text.contains('\t') {
        return None;
    }
    if tab_after_spaces(text) {
        return Some((1, CANNOT_START));
    }
    let mut flow = 0usize;
    // Columns of the open block collections.
    let mut blocks: Vec<usize> = Vec::new();
    for tok in Scanner::new(StrInput::new(text)) {
        let Ok(tok) = tok else { break };
        let (span, ty) = tok.into_parts();
        let Some(start) = span.start.byte_offset() else {
            continue;
        };
        // Where the indicator after which a simple key may start ends.
        let after = match ty {
            TokenType::FlowSequenceStart | TokenType::FlowMappingStart => {
                flow += 1;
                None
            }
            TokenType::FlowSequenceEnd | TokenType::FlowMappingEnd => {
                flow = flow.saturating_sub(1);
                None
            }
            // granit places the entry after the blanks that follow its `-`.
            TokenType::BlockEntry => {
                let before = text[..start].trim_end_matches([' ', '\t']);
                before.ends_with('-').then_some(before.len())
            }
            TokenType::BlockMappingStart | TokenType::BlockSequenceStart => {
                blocks.push(column_of(text, start));
                None
            }
            TokenType::BlockEnd => {
                blocks.pop();
                None
            }
            TokenType::Scalar(granit_parser::ScalarStyle::Plain, _) if flow == 0 => {
                let end = span.end.byte_offset().unwrap_or(start).min(text.len());
                let indent = blocks.last().map_or(0, |c| c + 1);
                if let Some(line) = tab_left_of(&text[end..], indent) {
                    return Some((text[..end].matches('\n').count() + 1 + line, VIOLATES));
                }
                None
            }
            TokenType::Scalar(
                granit_parser::ScalarStyle::Literal | granit_parser::ScalarStyle::Folded,
                _,
            ) if flow == 0 => {
                // granit's token starts at the content; the header is on the last line
                // before it holding more than white space.
                let header = text[..start]
                    .trim_end_matches([' ', '\t', '\r', '\n'])
                    .rfind('\n')
                    .map_or(0, |i| i + 1);
                let parent = blocks.last().copied();
                if let Some(indicator) = block_scalar_indicator(&text[header..start])
                    && let Some(line) =
                        tab_in_block_scalar_indentation(&text[header + indicator..], parent)
                {
                    let at = header + indicator;
                    return Some((text[..at].matches('\n').count() + 1 + line, NO_SPACE));
                }
                None
            }
            TokenType::Key => text[start..].starts_with('?').then_some(start + 1),
            // The `:` of a complex key starts its line; a simple key's `:` follows it.
            TokenType::Value => (text[start..].starts_with(':')
                && text[..start]
                    .rsplit('\n')
                    .next()
                    .is_some_and(|l| l.trim_start_matches(' ').is_empty()))
            .then_some(start + 1),
            _ => None,
        };
        if let Some(after) = after
            && flow == 0
            && tab_after_spaces(&text[after..])
        {
            return Some((text[..after].matches('\n').count() + 1, CANNOT_START));
        }
    }
    None
}

/// libyaml's problem for a tab left of the indentation after a plain scalar.
const VIOLATES: &str = "found a tab character that violates indentation";

/// After a plain scalar ending where `rest` starts: the number of lines down (1 for the
/// next) of the first blank line or indentation holding a tab left of column `indent`,
/// as libyaml's plain scalar scanner meets them while it reads on over white space.
fn tab_left_of(rest: &str, indent: usize) -> Option<usize> {
    let mut lines = rest.split('\n');
    let first = lines.next()?;
    if !first.trim_matches([' ', '\t', '\r']).is_empty() {
        return None;
    }
    for (i, line) in lines.enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        for (col, c) in line.chars().enumerate() {
            match c {
                '\t' if col < indent => return Some(i + 1),
                ' ' | '\t' => {}
                _ => return None,
            }
        }
    }
    None
}

/// The offset of the `|` or `>` of a block scalar header on `line`: one followed by
/// indicator characters and then white space or the end of the line.
fn block_scalar_indicator(line: &str) -> Option<usize> {
    line.char_indices().find_map(|(i, c)| {
        let rest =
            line[i + 1..].trim_start_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
        (matches!(c, '|' | '>') && (rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n'])))
            .then_some(i)
    })
}

/// libyaml's problem for a tab in a block scalar's indentation.
const NO_SPACE: &str = "found a tab character where an indentation space is expected";

/// For a block scalar whose header (`|`, `>-`, `|2`, ...) starts `from`, in a block
/// collection at column `parent`: the number of lines down (1 for the first content line)
/// of the first line whose indentation, left of the scalar's, holds a tab, as libyaml's
/// `yaml_parser_scan_block_scalar_breaks` refuses it. The scalar's indentation is its
/// indentation indicator's or that of its first line with content.
fn tab_in_block_scalar_indentation(from: &str, parent: Option<usize>) -> Option<usize> {
    let mut lines = from.split('\n');
    let header = lines.next()?;
    let indicated = header
        .chars()
        .take_while(|c| !c.is_whitespace())
        .find_map(|c| c.to_digit(10))
        .filter(|&d| d > 0)
        .map(|d| parent.map_or(0, |p| p) + d as usize);
    let body: Vec<&str> = lines.map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let indent = indicated.or_else(|| {
        body.iter()
            .find(|l| !l.trim_matches([' ', '\t']).is_empty())
            .map(|l| l.len() - l.trim_start_matches(' ').len())
    })?;
    for (i, line) in body.iter().enumerate() {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces.min(indent)..];
        if spaces < indent && rest.starts_with('\t') {
            return Some(i + 1);
        }
        if spaces < indent && !rest.trim_matches([' ', '\t']).is_empty() {
            return None;
        }
    }
    None
}

/// The 0-based character column of byte offset `at`.
fn column_of(text: &str, at: usize) -> usize {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..at].chars().count()
}

/// Whether `s` starts with spaces (perhaps none) and then a tab.
fn tab_after_spaces(s: &str) -> bool {
    s.trim_start_matches(' ').starts_with('\t')
}

#[cfg(test)]
mod tests {
    use super::{CANNOT_START, NO_SPACE, VIOLATES, refused_tab};

    #[test]
    fn tabs_libyaml_refuses() {
        assert_eq!(refused_tab("- \ta\n"), Some((1, CANNOT_START)));
        assert_eq!(refused_tab("a: 1\nb:\n  -\tc\n"), Some((3, CANNOT_START)));
        assert_eq!(refused_tab("\ta: 1\n"), Some((1, CANNOT_START)));
        assert_eq!(refused_tab("? \ta\n: b\n"), Some((1, CANNOT_START)));
        assert_eq!(refused_tab("? a\n:\tb\n"), Some((2, CANNOT_START)));
    }

    #[test]
    fn tabs_after_a_plain_scalar() {
        assert_eq!(refused_tab("a: 1\n\t\nb: 2\n"), Some((2, VIOLATES)));
        assert_eq!(
            refused_tab("a:\n  b: x\n \t\n  c: 1\n"),
            Some((3, VIOLATES))
        );
        assert_eq!(refused_tab("a: 1\n \t\nb: 2\n"), None);
        assert_eq!(refused_tab("a: 1 # c\n\t\nb: 2\n"), None);
    }

    #[test]
    fn tabs_in_block_scalar_indentation() {
        assert_eq!(refused_tab("a: |\n  x\n\ty\n"), Some((3, NO_SPACE)));
        assert_eq!(refused_tab("a: |\n  x\n \tb: 1\n"), Some((3, NO_SPACE)));
        assert_eq!(refused_tab("a: |\n  x\n  \ty\nb: 1\n"), None);
        assert_eq!(refused_tab("a: |\n  x\nb: \t1\n"), None);
    }

    #[test]
    fn tabs_libyaml_skips() {
        assert_eq!(refused_tab("a:\tb\n"), None);
        assert_eq!(refused_tab("a: [1,\t- 2]\n"), None);
        assert_eq!(refused_tab("a: \"x\"\t\n"), None);
        assert_eq!(refused_tab("a: b\tc\n"), None);
        assert_eq!(refused_tab("- a\n"), None);
    }
}
