//! Go strings are byte strings; strake's are UTF-8. A Starlark string in ytt can hold
//! bytes that are no UTF-8 (`"é".elems()`, `"é"[0]` give one byte of the two), so strake
//! carries each such byte (0x80 to 0xFF) as one private-use character, U+10FF00 to
//! U+10FF7F (clear of the noncharacters U+10FFFE and U+10FFFF, which `chr` can make),
//! and turns them back into bytes where ytt's output shows them: YAML prints
//! such a string as `!!binary` base64, JSON each of its bytes as `\ufffd`.

use std::borrow::Cow;

/// The character that stands for the byte `0x80 + n` is `RAW + n`.
const RAW: u32 = 0x10FF00;

/// The character carrying byte `b` (0x80 or above) of a string that is no UTF-8.
fn raw_char(b: u8) -> char {
    char::from_u32(RAW + (b as u32 - 0x80)).expect("plane 16 private use")
}

/// The byte a carrying character stands for.
pub fn raw_byte(c: char) -> Option<u8> {
    let n = c as u32;
    (RAW..=RAW + 0x7f)
        .contains(&n)
        .then(|| (n - RAW + 0x80) as u8)
}

/// Whether `s` holds a carried byte (all of them are 4-byte characters led by 0xF4).
pub fn has_raw(s: &str) -> bool {
    s.as_bytes().contains(&0xf4) && s.chars().any(|c| raw_byte(c).is_some())
}

/// The string of Go bytes `b`: its UTF-8 sequences as they are, every other byte
/// carried.
pub fn from_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(chunk.invalid().iter().map(|&x| raw_char(x)));
    }
    out
}

/// The Go bytes of `s` (carried bytes as themselves).
pub fn to_bytes(s: &str) -> Cow<'_, [u8]> {
    if !has_raw(s) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        match raw_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    Cow::Owned(out)
}

/// `s` with carried bytes that form UTF-8 together (`"\xc3" + "\xa9"`) turned into
/// the characters they make, as the same bytes are in Go.
pub fn normalized(s: &str) -> Cow<'_, str> {
    match to_bytes(s) {
        Cow::Borrowed(_) => Cow::Borrowed(s),
        Cow::Owned(b) => Cow::Owned(from_bytes(&b)),
    }
}

/// The length of `s` in Go bytes.
pub fn len(s: &str) -> usize {
    if has_raw(s) {
        to_bytes(s).len()
    } else {
        s.len()
    }
}

/// Standard base64 (with `=` padding) of `b`, as Go's `base64.StdEncoding`.
pub fn base64(b: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_join_back_into_characters() {
        let e = "é".as_bytes();
        let (a, b) = (from_bytes(&e[..1]), from_bytes(&e[1..]));
        assert_eq!((len(&a), len(&b)), (1, 1));
        assert_eq!(to_bytes(&a).as_ref(), &[0xc3]);
        let joined = format!("{a}{b}");
        assert_eq!(normalized(&joined), "é");
        assert_eq!(from_bytes("aé".as_bytes()), "aé");
        assert_eq!(raw_byte('\u{10ff7f}'), Some(0xff));
        assert_eq!(raw_byte('\u{10ff00}'), Some(0x80));
        assert_eq!(raw_byte('\u{10feff}'), None);
        assert_eq!(raw_byte('\u{10ffff}'), None);
    }

    #[test]
    fn base64_as_go_writes_it() {
        assert_eq!(base64(&[0xc3]), "ww==");
        assert_eq!(base64(&[0xa9]), "qQ==");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(b"fooba"), "Zm9vYmE=");
    }
}
