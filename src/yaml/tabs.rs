//! Tabs that libyaml's scanner (so go-yaml v2, so ytt) refuses where granit-parser takes
//! them as white space. libyaml's `yaml_parser_scan_to_next_token` skips a tab only in a
//! flow collection or where a simple key cannot start; in block context that is not so at
//! the start of a line, after `-` or `?`, nor after the `:` of a `?` key. There the tab
//! is read as the start of a token, which no token can start with.

use granit_parser::{Scanner, StrInput, TokenType};

/// The 1-based line of the first tab libyaml would refuse as the start of a token after
/// the beginning of the text, a `-`, a `?` or a complex key's `:` (spaces before it
/// allowed), if there is one.
pub(super) fn refused_tab_line(text: &str) -> Option<usize> {
    if !text.contains('\t') {
        return None;
    }
    if tab_after_spaces(text) {
        return Some(1);
    }
    let mut flow = 0usize;
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
            return Some(text[..after].matches('\n').count() + 1);
        }
    }
    None
}

/// Whether `s` starts with spaces (perhaps none) and then a tab.
fn tab_after_spaces(s: &str) -> bool {
    s.trim_start_matches(' ').starts_with('\t')
}

#[cfg(test)]
mod tests {
    use super::refused_tab_line;

    #[test]
    fn tabs_libyaml_refuses() {
        assert_eq!(refused_tab_line("- \ta\n"), Some(1));
        assert_eq!(refused_tab_line("a: 1\nb:\n  -\tc\n"), Some(3));
        assert_eq!(refused_tab_line("\ta: 1\n"), Some(1));
        assert_eq!(refused_tab_line("? \ta\n: b\n"), Some(1));
        assert_eq!(refused_tab_line("? a\n:\tb\n"), Some(2));
    }

    #[test]
    fn tabs_libyaml_skips() {
        assert_eq!(refused_tab_line("a:\tb\n"), None);
        assert_eq!(refused_tab_line("a: [1,\t- 2]\n"), None);
        assert_eq!(refused_tab_line("a: \"x\"\t\n"), None);
        assert_eq!(refused_tab_line("a: b\tc\n"), None);
        assert_eq!(refused_tab_line("- a\n"), None);
    }
}
