//! Texts libyaml reads but granit-parser refuses, rewritten so that granit reads them the
//! same: a `#` right after a token starts a comment in libyaml (granit wants a space), and
//! a `-` right before a flow indicator is the plain scalar `-` (granit wants it quoted).

/// `src` with a space put before the `#` at 1-based `line` and 0-based character `col`,
/// when a `#` is there.
pub(super) fn space_before_comment(src: &str, line: usize, col: usize) -> Option<String> {
    let line_start = super::line_start(src, line)?;
    let at = line_start + src.get(line_start..)?.char_indices().nth(col)?.0;
    if !src[at..].starts_with('#') {
        return None;
    }
    let mut spaced = String::with_capacity(src.len() + 1);
    spaced.push_str(&src[..at]);
    spaced.push(' ');
    spaced.push_str(&src[at..]);
    Some(spaced)
}

/// `src` with the `-` at (or just before) 1-based `line` and 0-based character `col`
/// single-quoted, when it stands right before a flow indicator.
pub(super) fn quote_lone_dash(src: &str, line: usize, col: usize) -> Option<String> {
    let line_start = super::line_start(src, line)?;
    let rest = src.get(line_start..)?;
    let at = [col, col.checked_sub(1)?]
        .into_iter()
        .filter_map(|c| rest.char_indices().nth(c).map(|(i, _)| line_start + i))
        .find(|&i| {
            src[i..].starts_with('-') && src[i + 1..].starts_with([',', '[', ']', '{', '}'])
        })?;
    Some(format!("{}'-'{}", &src[..at], &src[at + 1..]))
}
