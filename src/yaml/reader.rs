//! go-yaml's reader: before its scanner sees a character, libyaml's reader decodes the
//! input's bytes and refuses what is no UTF-8 and the characters YAML does not allow
//! (control characters, noncharacters). Its problems carry no line (go-yaml names none
//! for a reader error: `yaml: control characters are not allowed`), and the reader works
//! through the input in chunks of 512 bytes, decoding each whole chunk when the scanner
//! first needs a character of it: a problem in a later chunk is only met when the scanner
//! gets there, after any syntax error further up.

/// The size of libyaml's raw input buffer: the reader decodes the input this many bytes
/// at a time.
pub(crate) const CHUNK: usize = 512;

/// A problem of go-yaml's reader: its words and the byte offset it was met at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReaderProblem {
    pub problem: &'static str,
    pub offset: usize,
}

/// Bytes looked at together while skipping printable ASCII.
const ASCII_BLOCK: usize = 16;

/// An ASCII byte the reader lets through: tab, line feed, carriage return, or printable.
fn printable_ascii(b: u8) -> bool {
    (0x20..=0x7e).contains(&b) || b == 0x09 || b == 0x0a || b == 0x0d
}

/// The first problem libyaml's reader meets in `input` (UTF-8, or no encoding it knows:
/// input led by a UTF-16 byte order mark is decoded as UTF-16 there, and is left alone
/// here).
pub(crate) fn reader_problem(input: &[u8]) -> Option<ReaderProblem> {
    if input.starts_with(b"\xff\xfe") || input.starts_with(b"\xfe\xff") {
        return None;
    }
    let start = if input.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let at = |problem, offset| Some(ReaderProblem { problem, offset });
    let mut i = start;
    while i < input.len() {
        // Most of a template is printable ASCII: skip it a block at a time (the fold has
        // no early exit, so it compiles to vector compares).
        while let Some(block) = input.get(i..i + ASCII_BLOCK) {
            if block.iter().fold(true, |ok, &b| ok & printable_ascii(b)) {
                i += ASCII_BLOCK;
            } else {
                break;
            }
        }
        let Some(&octet) = input.get(i) else {
            break;
        };
        // Plain ASCII is the common case: only the control characters need a look.
        if octet < 0x80 {
            if !printable_ascii(octet) {
                return at("control characters are not allowed", i);
            }
            i += 1;
            continue;
        }
        let (width, lead) = match octet {
            o if o & 0xe0 == 0xc0 => (2, u32::from(o & 0x1f)),
            o if o & 0xf0 == 0xe0 => (3, u32::from(o & 0x0f)),
            o if o & 0xf8 == 0xf0 => (4, u32::from(o & 0x07)),
            _ => return at("invalid leading UTF-8 octet", i),
        };
        if i + width > input.len() {
            return at("incomplete UTF-8 octet sequence", i);
        }
        let mut value = lead;
        for k in 1..width {
            let o = input[i + k];
            if o & 0xc0 != 0x80 {
                return at("invalid trailing UTF-8 octet", i + k);
            }
            value = (value << 6) + u32::from(o & 0x3f);
        }
        let shortest = match width {
            2 => value >= 0x80,
            3 => value >= 0x800,
            _ => value >= 0x10000,
        };
        if !shortest {
            return at("invalid length of a UTF-8 sequence", i);
        }
        if (0xd800..=0xdfff).contains(&value) || value > 0x10ffff {
            return at("invalid Unicode character", i);
        }
        let allowed = value == 0x85
            || (0xa0..=0xd7ff).contains(&value)
            || (0xe000..=0xfffd).contains(&value)
            || (0x10000..=0x10ffff).contains(&value);
        if !allowed {
            return at("control characters are not allowed", i);
        }
        i += width;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(b: &[u8]) -> Option<(&'static str, usize)> {
        reader_problem(b).map(|p| (p.problem, p.offset))
    }

    #[test]
    fn refuses_what_libyaml_refuses() {
        assert_eq!(problem(b"a: 1\n\tb: \"\r\n\"\xc2\x85\xef\xbb\xbf"), None);
        assert_eq!(
            problem(b"a: \x07"),
            Some(("control characters are not allowed", 3))
        );
        assert_eq!(
            problem(b"a: \x7f"),
            Some(("control characters are not allowed", 3))
        );
        assert_eq!(
            problem(b"a: \xc2\x80"),
            Some(("control characters are not allowed", 3))
        );
        assert_eq!(
            problem(b"\xef\xbf\xbe"),
            Some(("control characters are not allowed", 0))
        );
        assert_eq!(
            problem(b"a: \xff"),
            Some(("invalid leading UTF-8 octet", 3))
        );
        assert_eq!(
            problem(b"a: \xe9t\xe9"),
            Some(("invalid trailing UTF-8 octet", 4))
        );
        assert_eq!(
            problem(b"a: \xc3"),
            Some(("incomplete UTF-8 octet sequence", 3))
        );
        assert_eq!(
            problem(b"\xc0\x80"),
            Some(("invalid length of a UTF-8 sequence", 0))
        );
        assert_eq!(
            problem(b"\xed\xa0\x80"),
            Some(("invalid Unicode character", 0))
        );
        assert_eq!(problem(b"\xef\xbb\xbfa"), None);
        assert_eq!(problem(b"\xff\xfea\x00"), None);
    }
}
