//! JSON strings escaped exactly as Go's `encoding/json` writes them: for the byte-exact
//! JSON that imgpkg writes (image configs, the tarball's `manifest.json`) and for ytt's
//! `json.encode` and `-o json`. The two were built with different Go releases, which
//! escape two control characters differently ([`GoRelease`]).

/// The Go release whose escapes to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoRelease {
    /// Before Go 1.22 (ytt 0.48): backspace and form feed as `\u0008` and `\u000c`.
    Before1_22,
    /// Go 1.22 and later (imgpkg): backspace and form feed as `\b` and `\f`.
    Since1_22,
}

/// A JSON string escaped like Go's `encoding/json`: `\" \\ \n \r \t`, backspace and form
/// feed as `release` writes them, other control characters as `\u00xx`, and the
/// HTML-sensitive `<`, `>`, `&` and the line separators U+2028/U+2029 as `\uXXXX`.
pub fn write_string(out: &mut String, s: &str, release: GoRelease) {
    out.push('"');
    if crate::go_bytes::has_raw(s) {
        // Bytes that are no UTF-8 (see `crate::go_bytes`): Go writes each as `\ufffd`.
        let bytes = crate::go_bytes::to_bytes(s);
        for chunk in bytes.utf8_chunks() {
            write_chars(out, chunk.valid(), release);
            for _ in chunk.invalid() {
                out.push_str("\\ufffd");
            }
        }
    } else {
        write_chars(out, s, release);
    }
    out.push('"');
}

/// The characters of a JSON string, escaped as [`write_string`] says.
fn write_chars(out: &mut String, s: &str, release: GoRelease) {
    let short = release == GoRelease::Since1_22;
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' if short => out.push_str("\\b"),
            '\u{c}' if short => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
}

/// [`write_string`] into a new string, as Go 1.22 and later (imgpkg) write it.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_string(&mut out, s, GoRelease::Since1_22);
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
        let mut older = String::new();
        write_string(&mut older, "\u{8}\u{c}", GoRelease::Before1_22);
        assert_eq!(older, r#""\u0008\u000c""#);
    }
}
