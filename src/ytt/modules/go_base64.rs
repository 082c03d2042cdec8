//! Base64 decoding as Go's `encoding/base64` does it for `base64.decode`: quantum by
//! quantum, line breaks skipped anywhere, and on bad input the offset Go's
//! `CorruptInputError` names (which is not always the offset of the bad byte: an
//! unpadded tail is reported at its start, missing padding at the end of the input).

/// The 6-bit value of `c` in the standard or URL alphabet.
fn sextet(c: u8, url: bool) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' if !url => 62,
        b'/' if !url => 63,
        b'-' if url => 62,
        b'_' if url => 63,
        _ => return None,
    })
}

fn is_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

/// Decodes `src` (`url` alphabet, `raw`: no padding, `strict`: unused trailing bits
/// must be zero), or gives the input offset Go reports as "illegal base64 data at
/// input byte N".
pub fn decode(src: &[u8], url: bool, raw: bool, strict: bool) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 3);
    let mut si = 0;
    while si < src.len() {
        si = quantum(src, si, url, raw, strict, &mut out)?;
    }
    Ok(out)
}

/// One quantum of up to four symbols from `si`: its bytes appended to `out`, the
/// offset after it returned.
fn quantum(
    src: &[u8],
    mut si: usize,
    url: bool,
    raw: bool,
    strict: bool,
    out: &mut Vec<u8>,
) -> Result<usize, usize> {
    let mut buf = [0u8; 4];
    let mut dlen = 4;
    let mut trailing_garbage = None;
    let mut j = 0;
    while j < 4 {
        if si == src.len() {
            if j == 0 {
                return Ok(si);
            }
            if j == 1 || !raw {
                return Err(si - j);
            }
            dlen = j;
            break;
        }
        let c = src[si];
        si += 1;
        if let Some(v) = sextet(c, url) {
            buf[j] = v;
            j += 1;
            continue;
        }
        if is_break(c) {
            continue;
        }
        if raw || c != b'=' {
            return Err(si - 1);
        }
        // Padding: it ends the input (line breaks aside).
        match j {
            0 | 1 => return Err(si - 1),
            2 => {
                while si < src.len() && is_break(src[si]) {
                    si += 1;
                }
                if si == src.len() {
                    return Err(src.len());
                }
                if src[si] != b'=' {
                    return Err(si - 1);
                }
                si += 1;
            }
            _ => {}
        }
        while si < src.len() && is_break(src[si]) {
            si += 1;
        }
        if si < src.len() {
            trailing_garbage = Some(si);
        }
        dlen = j;
        break;
    }
    let val = (u32::from(buf[0]) << 18)
        | (u32::from(buf[1]) << 12)
        | (u32::from(buf[2]) << 6)
        | u32::from(buf[3]);
    let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
    match dlen {
        4 => out.extend_from_slice(&bytes),
        3 => {
            if strict && bytes[2] != 0 {
                return Err(si - 1);
            }
            out.extend_from_slice(&bytes[..2]);
        }
        _ => {
            if strict && (bytes[1] != 0 || bytes[2] != 0) {
                return Err(si - 2);
            }
            out.push(bytes[0]);
        }
    }
    match trailing_garbage {
        Some(at) => Err(at),
        None => Ok(si),
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn offsets_as_go_reports_them() {
        assert_eq!(decode(b"YQ==", false, false, false), Ok(b"a".to_vec()));
        assert_eq!(decode(b"YQ", false, false, false), Err(0));
        assert_eq!(decode(b"dGVzdA", false, false, false), Err(4));
        assert_eq!(decode(b"YQ=", false, false, false), Err(3));
        assert_eq!(decode(b"YQ==YQ==", false, false, false), Err(4));
        assert_eq!(decode(b"YR==", false, false, true), Err(2));
        assert_eq!(decode(b"YQ", false, true, false), Ok(b"a".to_vec()));
        assert_eq!(
            decode(b"Y\nQ\r\n==\n", false, false, false),
            Ok(b"a".to_vec())
        );
    }
}
