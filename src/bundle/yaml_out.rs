//! A small YAML writer for the `.imgpkg/` metadata files, printing the way
//! imgpkg does (sigs.k8s.io/yaml → go-yaml v2): `---` header, block style,
//! two-space indentation, sequences in a mapping at the key's column, strings
//! plain when go-yaml would leave them plain, otherwise quoted (single quotes when
//! only indicators are the problem, double quotes when the plain form would be
//! read as another type), multi-line strings as `|` literal blocks.
//!
//! It covers the shapes of ImagesLock, BundleLock and ImageLocations (maps, lists,
//! strings, booleans); it is not a general YAML emitter.

/// A value to print. Map entries are printed in the order given.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Str(String),
    Bool(bool),
    /// A number, printed as is.
    Num(String),
    Map(Vec<(String, Node)>),
    List(Vec<Node>),
}

/// `---\n` followed by the document.
pub fn document(root: &Node) -> String {
    let mut out = String::from("---\n");
    match root {
        Node::Map(entries) if !entries.is_empty() => write_map(&mut out, entries, 0, false),
        Node::List(items) if !items.is_empty() => write_list(&mut out, items, 0),
        other => {
            out.push_str(&inline(other, 0));
            out.push('\n');
        }
    }
    out
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// `first_inline`: the first key goes right after a `- ` already printed.
fn write_map(out: &mut String, entries: &[(String, Node)], indent: usize, first_inline: bool) {
    for (i, (key, value)) in entries.iter().enumerate() {
        if !(i == 0 && first_inline) {
            pad(out, indent);
        }
        out.push_str(&scalar(key, indent, true));
        out.push(':');
        match value {
            Node::Map(m) if !m.is_empty() => {
                out.push('\n');
                write_map(out, m, indent + 2, false);
            }
            Node::List(l) if !l.is_empty() => {
                out.push('\n');
                write_list(out, l, indent);
            }
            other => {
                out.push(' ');
                out.push_str(&inline(other, indent));
                out.push('\n');
            }
        }
    }
}

fn write_list(out: &mut String, items: &[Node], indent: usize) {
    for item in items {
        pad(out, indent);
        out.push('-');
        match item {
            Node::Map(m) if !m.is_empty() => {
                out.push(' ');
                write_map(out, m, indent + 2, true);
            }
            Node::List(l) if !l.is_empty() => {
                out.push('\n');
                write_list(out, l, indent + 2);
            }
            other => {
                out.push(' ');
                out.push_str(&inline(other, indent));
                out.push('\n');
            }
        }
    }
}

fn inline(node: &Node, indent: usize) -> String {
    match node {
        Node::Str(s) => scalar(s, indent, false),
        Node::Bool(b) => b.to_string(),
        Node::Num(n) => n.clone(),
        Node::Map(_) => "{}".to_string(),
        Node::List(_) => "[]".to_string(),
    }
}

/// Prints a string scalar; `indent` is the column of the key that owns it.
fn scalar(s: &str, indent: usize, is_key: bool) -> String {
    if s.contains('\n') && !is_key && literal_allowed(s) {
        return literal(s, indent + 2);
    }
    if !resolves_to_non_string(s) && plain_allowed(s) {
        return s.to_string();
    }
    if !resolves_to_non_string(s) && single_allowed(s) {
        return format!("'{}'", s.replace('\'', "''"));
    }
    double_quoted(s)
}

fn literal(s: &str, content_indent: usize) -> String {
    let mut header = String::from("|");
    if s.starts_with(' ') || s.starts_with('\n') {
        header.push('2');
    }
    let body = if let Some(stripped) = s.strip_suffix('\n') {
        if stripped.ends_with('\n') {
            header.push('+');
        }
        stripped
    } else {
        header.push('-');
        s
    };
    let mut out = header;
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.extend(std::iter::repeat_n(' ', content_indent));
            out.push_str(line);
        }
    }
    out
}

fn is_special(c: char) -> bool {
    !(c == '\n' || c == '\t' || (' '..='~').contains(&c) || (c as u32) >= 0xA0 && c != '\u{FEFF}')
}

fn literal_allowed(s: &str) -> bool {
    if s.chars().any(is_special) {
        return false;
    }
    // No trailing spaces on any line (libyaml's space_break / trailing_space).
    !s.contains(" \n") && !s.ends_with(' ')
}

fn plain_allowed(s: &str) -> bool {
    if s.is_empty() || s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    if s.starts_with(' ') || s.ends_with(' ') || s.contains('\n') || s.contains('\t') {
        return false;
    }
    if s.chars().any(is_special) {
        return false;
    }
    let chars: Vec<char> = s.chars().collect();
    let first = chars[0];
    let followed_by_blank = |i: usize| chars.get(i + 1).is_none_or(|c| *c == ' ');
    if "#,[]{}&*!|>'\"%@`".contains(first) {
        return false;
    }
    if matches!(first, '-' | '?' | ':') && followed_by_blank(0) {
        return false;
    }
    for i in 1..chars.len() {
        if chars[i] == ':' && followed_by_blank(i) {
            return false;
        }
        if chars[i] == '#' && chars[i - 1] == ' ' {
            return false;
        }
    }
    true
}

fn single_allowed(s: &str) -> bool {
    !s.chars().any(is_special) && !s.contains('\n') && !s.starts_with(' ') && !s.ends_with(' ')
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if is_special(c) => {
                let v = c as u32;
                if v <= 0xFF {
                    out.push_str(&format!("\\x{v:02X}"));
                } else if v <= 0xFFFF {
                    out.push_str(&format!("\\u{v:04X}"));
                } else {
                    out.push_str(&format!("\\U{v:08X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// True when go-yaml v2 (YAML 1.1 rules) would read the plain text as something
/// other than a string: null, bool, int, float, base-60 numbers, timestamps.
fn resolves_to_non_string(s: &str) -> bool {
    const WORDS: &[&str] = &[
        "", "~", "null", "Null", "NULL", "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
        "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
        ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",
        ".NaN", ".NAN", "<<",
    ];
    if WORDS.contains(&s) {
        return true;
    }
    let Some(first) = s.chars().next() else {
        return true;
    };
    if !"+-.0123456789".contains(first) {
        return false;
    }
    is_int(s) || is_float(s) || is_base60(s) || is_timestamp(s)
}

fn strip_sign(s: &str) -> &str {
    s.strip_prefix(['+', '-']).unwrap_or(s)
}

fn is_int(s: &str) -> bool {
    let body = strip_sign(s).replace('_', "");
    let digits = |t: &str, radix: u32| !t.is_empty() && t.chars().all(|c| c.is_digit(radix));
    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        return digits(h, 16);
    }
    if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        return digits(b, 2);
    }
    if let Some(o) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        return digits(o, 8);
    }
    digits(&body, 10)
}

fn is_float(s: &str) -> bool {
    let body = strip_sign(s);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int_part, frac) = match mantissa.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (mantissa, None),
    };
    let is_digits = |t: &str| t.chars().all(|c| c.is_ascii_digit() || c == '_');
    if !is_digits(int_part) || !frac.is_none_or(is_digits) {
        return false;
    }
    if int_part.is_empty() && frac.is_none_or(|f| f.is_empty()) {
        return false;
    }
    match exponent {
        None => true,
        Some(e) => {
            let e = strip_sign(e);
            !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
        }
    }
}

fn is_base60(s: &str) -> bool {
    let body = strip_sign(s);
    let mut parts = body.split(':');
    let Some(head) = parts.next() else {
        return false;
    };
    if head.is_empty() || !head.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    if !head.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return false;
    }
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        return false;
    }
    for (i, p) in rest.iter().enumerate() {
        let (seg, frac) = if i == rest.len() - 1 {
            match p.split_once('.') {
                Some((a, b)) => (a, Some(b)),
                None => (*p, None),
            }
        } else {
            (*p, None)
        };
        let ok_seg = !seg.is_empty()
            && seg.len() <= 2
            && seg.chars().all(|c| c.is_ascii_digit())
            && (seg.len() == 1 || seg.as_bytes()[0] <= b'5');
        if !ok_seg || !frac.is_none_or(|f| f.chars().all(|c| c.is_ascii_digit() || c == '_')) {
            return false;
        }
    }
    true
}

fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 8
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && s[5..]
            .split(['-', 'T', 't', ' '])
            .next()
            .is_some_and(|m| !m.is_empty() && m.len() <= 2 && m.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Node {
        Node::Str(v.to_string())
    }

    #[test]
    fn prints_a_lock_like_imgpkg() {
        let doc = Node::Map(vec![
            ("apiVersion".into(), s("imgpkg.carvel.dev/v1alpha1")),
            (
                "images".into(),
                Node::List(vec![Node::Map(vec![
                    (
                        "annotations".into(),
                        Node::Map(vec![
                            ("kbld.carvel.dev/id".into(), s("r.example/a:v1")),
                            (
                                "kbld.carvel.dev/origins".into(),
                                s("- resolved:\n    tag: v1\n"),
                            ),
                        ]),
                    ),
                    ("image".into(), s("r.example/a@sha256:00")),
                    ("isBundle".into(), Node::Bool(false)),
                ])]),
            ),
            ("kind".into(), s("ImagesLock")),
        ]);
        assert_eq!(
            document(&doc),
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nimages:\n- annotations:\n    kbld.carvel.dev/id: r.example/a:v1\n    kbld.carvel.dev/origins: |\n      - resolved:\n          tag: v1\n  image: r.example/a@sha256:00\n  isBundle: false\nkind: ImagesLock\n"
        );
    }

    #[test]
    fn quotes_what_would_not_read_back_as_a_string() {
        assert_eq!(scalar("true", 0, false), "\"true\"");
        assert_eq!(scalar("", 0, false), "\"\"");
        assert_eq!(scalar("123", 0, false), "\"123\"");
        assert_eq!(scalar("1.5e3", 0, false), "\"1.5e3\"");
        assert_eq!(scalar("1:20", 0, false), "\"1:20\"");
        assert_eq!(scalar("127.0.0.1:5000/a", 0, false), "127.0.0.1:5000/a");
        assert_eq!(scalar("a: b", 0, false), "'a: b'");
        assert_eq!(scalar("- x", 0, false), "'- x'");
        assert_eq!(scalar("it's", 0, false), "it's");
        assert_eq!(scalar("#x", 0, false), "'#x'");
        assert_eq!(scalar("no\nend", 0, false), "|-\n  no\n  end");
    }
}
