//! JSON strings escaped exactly as Go's `encoding/json` writes them (Go 1.22 and
//! later), for the byte-exact JSON that imgpkg writes: image configs and the
//! tarball's `manifest.json`.

/// A JSON string escaped like Go's `encoding/json` (Go 1.22+): `\b \f \n \r \t`,
/// other control characters as `\u00xx`, and the HTML-sensitive `<`, `>`, `&` and
/// the line separators U+2028/U+2029 as `\uXXXX`.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// [`write_string`] into a new string.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_string(&mut out, s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_like_go() {
        assert_eq!(
            string("a\"b\\c\n\t\u{1}<x>&\u{2028}é\u{8}\u{c}"),
            r#""a\"b\\c\n\t\u0001\u003cx\u003e\u0026\u2028é\b\f""#
        );
    }
}
