//! The errors of Go's `regexp` package, for patterns that `@ytt:regexp` refuses: ytt
//! compiles with Go's RE2 parser and shows its error as `error parsing regexp: <what>:
//! `<part>``. The patterns are matched with the `regex` crate; when it refuses one, this
//! walks the pattern as Go's parser does, left to right, and names the first problem in
//! Go's words with the part of the pattern Go quotes.

/// Go's message for `pattern`, if the walk finds one of the problems Go reports.
pub fn error_of(pattern: &str) -> Option<String> {
    let (code, expr) = first_problem(pattern)?;
    Some(format!("error parsing regexp: {code}: `{expr}`"))
}

/// Go's message for a pattern the `regex` crate takes but Go does not: stacked
/// repetitions (`a**`) and counts over 1000.
pub fn go_only_error(pattern: &str) -> Option<String> {
    let (code, expr) = first_problem(pattern)?;
    [NESTED_REPEAT, REPEAT_SIZE]
        .contains(&code)
        .then(|| format!("error parsing regexp: {code}: `{expr}`"))
}

/// `pattern` in the `regex` crate's syntax where Go's differs: a `{` that does not start
/// a counted repetition (`{n}`, `{n,}`, `{n,m}`) is a literal brace in Go, so it is
/// escaped (`\[:a:\]{([0-9]+)}` matches the text `[:a:]{12}`). Classes and escapes are
/// copied as they are.
pub fn to_rust(pattern: &str) -> String {
    let b = pattern.as_bytes();
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut i = 0;
    while i < b.len() {
        let start = i;
        match b[i] {
            b'\\' => {
                let Some(c) = pattern[i + 1..].chars().next() else {
                    return pattern.to_string();
                };
                i += 1 + c.len_utf8();
                if let Some(ascii) = perl_class(c, false) {
                    out.push_str(ascii);
                    continue;
                }
                if matches!(c, 'x' | 'p' | 'P') && b.get(i) == Some(&b'{') {
                    i = pattern[i..].find('}').map_or(b.len(), |k| i + k + 1);
                }
            }
            b'[' => match class_problem(pattern, i) {
                Ok(end) => {
                    out.push_str(&class_to_rust(&pattern[i..end]));
                    i = end;
                    continue;
                }
                Err(_) => return pattern.to_string(),
            },
            b'{' => match counted_repeat(pattern, i) {
                Some((end, _, _)) => i = end,
                None => {
                    out.push_str("\\{");
                    i += 1;
                    continue;
                }
            },
            _ => i += pattern[i..].chars().next().map_or(1, char::len_utf8),
        }
        out.push_str(&pattern[start..i]);
    }
    out
}

/// Go's Perl classes and word boundaries are ASCII-only (`\\d` is `[0-9]`, `\\w`
/// `[0-9A-Za-z_]`, `\\s` `[\\t\\n\\f\\r ]`), where the `regex` crate's are Unicode: their
/// ASCII spelling outside a class (`in_class == false`) or inside one.
fn perl_class(c: char, in_class: bool) -> Option<&'static str> {
    Some(match (c, in_class) {
        ('d', false) => "[0-9]",
        ('D', false) => "[^0-9]",
        ('w', false) => "[0-9A-Za-z_]",
        ('W', false) => "[^0-9A-Za-z_]",
        ('s', false) => "[\\t\\n\\f\\r ]",
        ('S', false) => "[^\\t\\n\\f\\r ]",
        ('b', false) => "(?-u:\\b)",
        ('B', false) => "(?-u:\\B)",
        ('d', true) => "0-9",
        ('D', true) => "[^0-9]",
        ('w', true) => "0-9A-Za-z_",
        ('W', true) => "[^0-9A-Za-z_]",
        ('s', true) => "\\t\\n\\f\\r ",
        ('S', true) => "[^\\t\\n\\f\\r ]",
        _ => return None,
    })
}

/// A whole class (`[...]`, already checked) with its Perl classes spelled in ASCII.
fn class_to_rust(class: &str) -> String {
    let mut out = String::with_capacity(class.len());
    let mut chars = class.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e) => match perl_class(e, true) {
                Some(ascii) => out.push_str(ascii),
                None => {
                    out.push('\\');
                    out.push(e);
                }
            },
            None => out.push('\\'),
        }
    }
    out
}

const MISSING_BRACKET: &str = "missing closing ]";
const MISSING_PAREN: &str = "missing closing )";
const UNEXPECTED_PAREN: &str = "unexpected )";
const MISSING_REPEAT_ARG: &str = "missing argument to repetition operator";
const NESTED_REPEAT: &str = "invalid nested repetition operator";
const REPEAT_SIZE: &str = "invalid repeat count";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";
const BAD_ESCAPE: &str = "invalid escape sequence";
const BAD_RANGE: &str = "invalid character class range";
const BAD_PERL_OP: &str = "invalid or unsupported Perl syntax";

/// Escapes Go takes after a backslash outside classes (besides punctuation).
const ESCAPES: &str = "aAbBdDfnrsStvwWzpPxQ0123456789";

fn first_problem(s: &str) -> Option<(&'static str, String)> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut parens = 0usize;
    // Whether something a repetition applies to comes before, and where the repetition
    // just before (if the last thing was one) started.
    let mut operand = false;
    let mut last_repeat: Option<usize> = None;
    while i < b.len() {
        let start = i;
        match b[i] {
            b'(' => {
                let (next, opens) = if b.get(i + 1) == Some(&b'?') {
                    match perl_group(s, i) {
                        Ok(v) => v,
                        Err(problem) => return Some(problem),
                    }
                } else {
                    (i + 1, true)
                };
                if opens {
                    parens += 1;
                    operand = false;
                }
                last_repeat = None;
                i = next;
            }
            b')' => {
                if parens == 0 {
                    return Some((UNEXPECTED_PAREN, s.to_string()));
                }
                parens -= 1;
                operand = true;
                last_repeat = None;
                i += 1;
            }
            b'|' => {
                operand = false;
                last_repeat = None;
                i += 1;
            }
            b'*' | b'+' | b'?' | b'{' => {
                let end = if b[i] == b'{' {
                    match counted_repeat(s, i) {
                        Some((end, min, max)) => {
                            if min > 1000 || max.is_some_and(|m| m > 1000 || m < min) {
                                return Some((REPEAT_SIZE, s[i..end].to_string()));
                            }
                            end
                        }
                        None => {
                            // Not a repetition: a literal `{`.
                            operand = true;
                            last_repeat = None;
                            i += 1;
                            continue;
                        }
                    }
                } else {
                    i + 1
                };
                let end = if b.get(end) == Some(&b'?') {
                    end + 1
                } else {
                    end
                };
                if let Some(prev) = last_repeat {
                    return Some((NESTED_REPEAT, s[prev..end].to_string()));
                }
                if !operand {
                    return Some((MISSING_REPEAT_ARG, s[start..end].to_string()));
                }
                last_repeat = Some(start);
                i = end;
            }
            b'[' => {
                match class_problem(s, i) {
                    Ok(end) => i = end,
                    Err(problem) => return Some(problem),
                }
                operand = true;
                last_repeat = None;
            }
            b'\\' => {
                let Some(c) = s[i + 1..].chars().next() else {
                    return Some((TRAILING_BACKSLASH, String::new()));
                };
                if c.is_ascii_alphanumeric() && !ESCAPES.contains(c) {
                    return Some((BAD_ESCAPE, format!("\\{c}")));
                }
                i += 1 + c.len_utf8();
                // `\x{41}`, `\p{Greek}`: the braces belong to the escape.
                if matches!(c, 'x' | 'p' | 'P') && b.get(i) == Some(&b'{') {
                    i = s[i..].find('}').map_or(s.len(), |k| i + k + 1);
                }
                operand = true;
                last_repeat = None;
            }
            _ => {
                i += s[i..].chars().next().map_or(1, char::len_utf8);
                operand = true;
                last_repeat = None;
            }
        }
    }
    if parens > 0 {
        return Some((MISSING_PAREN, s.to_string()));
    }
    None
}

/// A `(?` group at `open`: where its body starts and whether it opens a group (`(?i)`
/// only sets flags), or Go's error for Perl syntax Go does not take (`(?=`, `(?!`, …),
/// named by the text up to the character Go stopped at.
fn perl_group(s: &str, open: usize) -> Result<(usize, bool), (&'static str, String)> {
    let rest = &s[open + 2..];
    let named = rest.strip_prefix("P<").or_else(|| {
        rest.strip_prefix('<')
            .filter(|r| !r.starts_with('=') && !r.starts_with('!'))
    });
    if let Some(name) = named {
        // A named capture: its body starts after `>` (the `regex` crate's message
        // covers a bad name).
        let end = name
            .find('>')
            .map_or(s.len(), |k| s.len() - name.len() + k + 1);
        return Ok((end, true));
    }
    for (k, c) in rest.char_indices() {
        let end = open + 2 + k + c.len_utf8();
        match c {
            'i' | 'm' | 's' | 'U' | '-' => {}
            ':' => return Ok((end, true)),
            ')' => return Ok((end, false)),
            _ => return Err((BAD_PERL_OP, s[open..end].to_string())),
        }
    }
    Err((MISSING_PAREN, s.to_string()))
}

/// `{n}`, `{n,}` or `{n,m}` at `i`: where it ends and its bounds.
fn counted_repeat(s: &str, i: usize) -> Option<(usize, u64, Option<u64>)> {
    let close = i + s[i..].find('}')?;
    let inner = &s[i + 1..close];
    let num = |t: &str| -> Option<u64> {
        if t.is_empty() || !t.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        Some(t.parse().unwrap_or(u64::MAX))
    };
    let (min, max) = match inner.split_once(',') {
        None => {
            let n = num(inner)?;
            (n, Some(n))
        }
        Some((a, "")) => (num(a)?, None),
        Some((a, b)) => (num(a)?, Some(num(b)?)),
    };
    Some((close + 1, min, max))
}

/// Walks the class at `open`: `Ok(end)` past its `]`, or Go's error.
fn class_problem(s: &str, open: usize) -> Result<usize, (&'static str, String)> {
    let whole = &s[open..];
    let mut t = &s[open + 1..];
    if let Some(r) = t.strip_prefix('^') {
        t = r;
    }
    let mut first = true;
    loop {
        if t.is_empty() {
            return Err((MISSING_BRACKET, whole.to_string()));
        }
        if t.starts_with(']') && !first {
            return Ok(s.len() - t.len() + 1);
        }
        first = false;
        if t.starts_with("[:")
            && let Some(k) = t[2..].find(":]")
        {
            t = &t[2 + k + 2..];
            continue;
        }
        let range_start = t;
        let (lo, rest) = class_char(t, whole)?;
        t = rest;
        if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
            let (hi, rest) = class_char(&t[1..], whole)?;
            if hi < lo {
                let text = &range_start[..range_start.len() - rest.len()];
                return Err((BAD_RANGE, text.to_string()));
            }
            t = rest;
        }
    }
}

/// One character of a class (escapes taken whole).
fn class_char<'a>(t: &'a str, whole: &str) -> Result<(char, &'a str), (&'static str, String)> {
    let mut it = t.chars();
    match it.next() {
        None => Err((MISSING_BRACKET, whole.to_string())),
        Some('\\') => match it.next() {
            None => Err((TRAILING_BACKSLASH, String::new())),
            Some(c) => Ok((c, &t[1 + c.len_utf8()..])),
        },
        Some(c) => Ok((c, &t[c.len_utf8()..])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brace_that_starts_no_repetition_is_a_literal() {
        assert_eq!(to_rust(r"\[:a:\]{([0-9]+)}"), r"\[:a:\]\{([0-9]+)}");
        assert_eq!(to_rust("a{2}b{2,}c{1,3}"), "a{2}b{2,}c{1,3}");
        assert_eq!(to_rust("x{,3}{"), r"x\{,3}\{");
        assert_eq!(to_rust(r"[{]\x{41}\p{Greek}\{"), r"[{]\x{41}\p{Greek}\{");
    }

    #[test]
    fn perl_classes_are_ascii_as_in_go() {
        assert_eq!(to_rust(r"^\w+\d\s$"), r"^[0-9A-Za-z_]+[0-9][\t\n\f\r ]$");
        assert_eq!(
            to_rust(r"[\w.-]\b[^\D]"),
            r"[0-9A-Za-z_.-](?-u:\b)[^[^0-9]]"
        );
        for (p, s, want) in [
            (r"^\w+$", "héllo", false),
            (r"^\d$", "٣", false),
            (r"^[\w-]+$", "a-b_9", true),
            (r"\bé", "é", false),
            (r"^\s$", "\u{0b}", false),
        ] {
            let r = regex::Regex::new(&to_rust(p)).unwrap();
            assert_eq!(r.is_match(s), want, "{p} {s}");
        }
    }

    #[test]
    fn names_the_first_problem_as_go_does() {
        for (p, want) in [
            ("[a-", "missing closing ]: `[a-`"),
            ("x[abc", "missing closing ]: `[abc`"),
            ("(ab", "missing closing ): `(ab`"),
            ("ab)", "unexpected ): `ab)`"),
            ("*a", "missing argument to repetition operator: `*`"),
            ("a(+)", "missing argument to repetition operator: `+`"),
            ("a**", "invalid nested repetition operator: `**`"),
            ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
            ("a{1001}", "invalid repeat count: `{1001}`"),
            ("a{3,2}", "invalid repeat count: `{3,2}`"),
            ("ab\\", "trailing backslash at end of expression: ``"),
            ("a\\q", "invalid escape sequence: `\\q`"),
            ("[z-a]", "invalid character class range: `z-a`"),
            ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
        ] {
            assert_eq!(
                error_of(p).as_deref(),
                Some(format!("error parsing regexp: {want}").as_str()),
                "{p}"
            );
        }
        assert_eq!(error_of("a{,2}b"), None);
        assert_eq!(error_of("\\x{1001}+"), None);
        assert_eq!(
            go_only_error("a**").as_deref(),
            Some("error parsing regexp: invalid nested repetition operator: `**`")
        );
        assert_eq!(go_only_error("(ab"), None);
        assert_eq!(error_of("[]a]"), None);
        assert_eq!(error_of("(?i)a+?"), None);
    }
}
