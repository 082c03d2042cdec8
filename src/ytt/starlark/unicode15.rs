//! The code points Unicode assigned after version 15.0.0, the version of the tables
//! in the Go toolchain that builds ytt 0.48 (`unicode.Version`). Go's `unicode` and
//! `strconv` packages see them as unassigned: not printable (so `repr` escapes them),
//! no letter or digit, no case mapping. The general-category data this crate reads
//! is newer (Unicode 16.0), so the string methods and `repr` consult this list first.
//! The ranges are those assigned in Unicode 15.1 and 16.0 (5,812 code points).

/// Inclusive ranges, sorted.
const NEWER: &[(u32, u32)] = &[
    (0x897, 0x897),
    (0x1B4E, 0x1B4F),
    (0x1B7F, 0x1B7F),
    (0x1C89, 0x1C8A),
    (0x2427, 0x2429),
    (0x2FFC, 0x2FFF),
    (0x31E4, 0x31E5),
    (0x31EF, 0x31EF),
    (0xA7CB, 0xA7CD),
    (0xA7DA, 0xA7DC),
    (0x105C0, 0x105F3),
    (0x10D40, 0x10D65),
    (0x10D69, 0x10D85),
    (0x10D8E, 0x10D8F),
    (0x10EC2, 0x10EC4),
    (0x10EFC, 0x10EFC),
    (0x11380, 0x11389),
    (0x1138B, 0x1138B),
    (0x1138E, 0x1138E),
    (0x11390, 0x113B5),
    (0x113B7, 0x113C0),
    (0x113C2, 0x113C2),
    (0x113C5, 0x113C5),
    (0x113C7, 0x113CA),
    (0x113CC, 0x113D5),
    (0x113D7, 0x113D8),
    (0x113E1, 0x113E2),
    (0x116D0, 0x116E3),
    (0x11BC0, 0x11BE1),
    (0x11BF0, 0x11BF9),
    (0x11F5A, 0x11F5A),
    (0x13460, 0x143FA),
    (0x16100, 0x16139),
    (0x16D40, 0x16D79),
    (0x18CFF, 0x18CFF),
    (0x1CC00, 0x1CCF9),
    (0x1CD00, 0x1CEB3),
    (0x1E5D0, 0x1E5FA),
    (0x1E5FF, 0x1E5FF),
    (0x1F8B2, 0x1F8BB),
    (0x1F8C0, 0x1F8C1),
    (0x1FA89, 0x1FA89),
    (0x1FA8F, 0x1FA8F),
    (0x1FABE, 0x1FABE),
    (0x1FAC6, 0x1FAC6),
    (0x1FADC, 0x1FADC),
    (0x1FADF, 0x1FADF),
    (0x1FAE9, 0x1FAE9),
    (0x1FBCB, 0x1FBEF),
    (0x2EBF0, 0x2EE5D),
];

/// Whether `c` was assigned after Unicode 15.0.0 (so Go's tables do not know it).
pub fn newer_than_go(c: char) -> bool {
    let c = c as u32;
    if c < NEWER[0].0 {
        return false;
    }
    let i = NEWER.partition_point(|&(start, _)| start <= c);
    i > 0 && c <= NEWER[i - 1].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_the_additions_of_unicode_15_1_and_16_0() {
        // CJK stroke HXG and an ideographic description character (15.1), an emoji
        // and a Garay letter (16.0).
        for c in ['\u{31EF}', '\u{2FFC}', '\u{1FAE9}', '\u{10D50}'] {
            assert!(newer_than_go(c), "{c:?}");
        }
        // Unicode 15.0 and older, and code points still unassigned.
        for c in ['a', '\u{1FAE8}', '\u{31350}', '\u{378}', '\u{10FFFF}'] {
            assert!(!newer_than_go(c), "{c:?}");
        }
    }
}
