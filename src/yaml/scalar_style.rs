//! libyaml's scalar analysis as go-yaml v2 ports it: which characters are breaks, blanks
//! and printable, what a string's text allows (`yaml_emitter_analyze_scalar`) and the
//! style a scalar is then written in (`yaml_emitter_select_scalar_style`, block context).

/// The styles a scalar can be written in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

pub(super) fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// libyaml's `is_printable` (which, oddly, excludes all characters outside the BMP).
pub(super) fn is_printable(c: char) -> bool {
    c == '\n'
        || (' '..='~').contains(&c)
        || ('\u{a0}'..='\u{d7ff}').contains(&c)
        || (('\u{e000}'..='\u{fffd}').contains(&c) && c != '\u{feff}')
}

/// Whether `s` holds a line break (`\r`, `\n`, NEL, LS or PS).
pub(super) fn has_break(s: &str) -> bool {
    // NEL, LS and PS start with the UTF-8 lead bytes 0xC2 and 0xE2.
    s.bytes().any(|b| matches!(b, b'\n' | b'\r' | 0xc2 | 0xe2)) && s.chars().any(is_break)
}

/// Flags from libyaml's `yaml_emitter_analyze_scalar`.
#[derive(Debug, PartialEq, Eq)]
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze(s: &str) -> Analysis {
    if s.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    if s.is_ascii() {
        analyze_chars(s, s.bytes().map(char::from))
    } else {
        analyze_chars(s, s.chars())
    }
}

fn analyze_chars(s: &str, chars: impl Iterator<Item = char>) -> Analysis {
    let mut block_indicators = s.starts_with("---") || s.starts_with("...");
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_ws = true;
    let mut chars = chars.peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        let last = next.is_none();
        let followed_by_ws = next.is_none_or(is_blank);
        if first {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' if followed_by_ws => block_indicators = true,
                '-' if followed_by_ws => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_ws => block_indicators = true,
                '#' if preceded_by_ws => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special = true;
        }
        if c == ' ' {
            if first {
                leading_space = true;
            }
            if last {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            if first {
                leading_break = true;
            }
            if last {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_ws = is_blank(c) || is_break(c) || c == '\0';
        first = false;
    }
    let mut a = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_indicators {
        a.block_plain_allowed = false;
    }
    a
}

/// A quick check that [`analyze`] would allow a plain scalar, for the common text: printable
/// ASCII starting with a letter or digit, not ending in a space, without `: `, ` #` or a
/// final `:` (the only indicators that count after the first character).
fn plain_surely_allowed(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if !first.is_ascii_alphanumeric() || last == b' ' || last == b':' {
        return false;
    }
    let mut prev = 0u8;
    for &c in b {
        match c {
            b'#' if prev == b' ' => return false,
            b' ' if prev == b':' => return false,
            b' '..=b'~' => {}
            _ => return false,
        }
        prev = c;
    }
    true
}

/// libyaml's `yaml_emitter_select_scalar_style` in block context.
pub(super) fn select_style(text: &str, requested: Style, simple_key: bool) -> Style {
    if requested == Style::Double {
        // No analysis can turn a double-quoted request into another style.
        return Style::Double;
    }
    if requested == Style::Plain && plain_surely_allowed(text) {
        return Style::Plain;
    }
    let a = analyze(text);
    let mut style = requested;
    if simple_key && a.multiline {
        style = Style::Double;
    }
    if style == Style::Plain && (!a.block_plain_allowed || (text.is_empty() && simple_key)) {
        style = Style::Single;
    }
    if style == Style::Single && !a.single_quoted_allowed {
        style = Style::Double;
    }
    if style == Style::Literal && (!a.block_allowed || simple_key) {
        style = Style::Double;
    }
    style
}
