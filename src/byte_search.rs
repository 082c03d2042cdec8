//! Byte and substring search without CPU feature detection.
//!
//! `memchr`'s top-level functions pick AVX2 at run time, and the first call asks the CPU
//! with `cpuid` (Rust's `is_x86_feature_detected!`, about ten queries). In a virtual
//! machine each `cpuid` traps to the hypervisor: 6 µs each on this project's VMs, so the
//! first search of a process cost about 60 µs, 4% of a whole schema export. SSE2 is part
//! of x86-64 itself, so the SSE2 searchers need no detection; on the short inputs strake
//! searches (template files, Starlark strings) they are as fast. Other architectures use
//! `memchr`'s default routines.

#[cfg(target_arch = "x86_64")]
use memchr::arch::x86_64::sse2;

/// Longest needle searched with the SSE2 packed-pair finder; longer ones use Two-Way,
/// which stays linear on any input.
#[cfg(target_arch = "x86_64")]
const PACKED_PAIR_MAX_NEEDLE: usize = 32;

/// The first position of `needle` in `hay` (0 for an empty needle).
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        match needle {
            [] => Some(0),
            [byte] => sse2_one(*byte).find(hay),
            _ => {
                if needle.len() <= PACKED_PAIR_MAX_NEEDLE
                    && let Some(finder) = sse2::packedpair::Finder::new(needle)
                    && hay.len() >= finder.min_haystack_len()
                {
                    return finder.find(hay, needle);
                }
                memchr::arch::all::twoway::Finder::new(needle).find(hay, needle)
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        memchr::memmem::find(hay, needle)
    }
}

/// The last position of `needle` in `hay` (`hay.len()` for an empty needle).
pub fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        match needle {
            [] => Some(hay.len()),
            [byte] => sse2_one(*byte).rfind(hay),
            _ => memchr::arch::all::twoway::FinderRev::new(needle).rfind(hay, needle),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        memchr::memmem::rfind(hay, needle)
    }
}

/// Whether `needle` occurs in `hay`.
pub fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

/// The first position in `hay` of any of three bytes.
pub fn find_any3(a: u8, b: u8, c: u8, hay: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::memchr::Three::new(a, b, c)
            .expect("SSE2 is part of x86-64")
            .find(hay)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        memchr::memchr3(a, b, c, hay)
    }
}

#[cfg(target_arch = "x86_64")]
fn sse2_one(byte: u8) -> sse2::memchr::One {
    sse2::memchr::One::new(byte).expect("SSE2 is part of x86-64")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer agrees with a plain scan, for needles of 0 to 40 bytes (both
    /// finders), haystacks shorter than the packed-pair minimum, and overlapping matches.
    #[test]
    fn agrees_with_a_naive_scan() {
        let naive_find = |hay: &[u8], needle: &[u8]| {
            (0..=hay.len().saturating_sub(needle.len()))
                .find(|&i| hay.len() >= needle.len() && &hay[i..i + needle.len()] == needle)
        };
        let naive_rfind = |hay: &[u8], needle: &[u8]| {
            (0..=hay.len().saturating_sub(needle.len()))
                .rev()
                .find(|&i| hay.len() >= needle.len() && &hay[i..i + needle.len()] == needle)
        };
        let text: Vec<u8> = (0..3000u32)
            .map(|i| b"ab#@ data/values\nxyz"[(i * 7 % 20) as usize])
            .collect();
        for len in [0, 1, 2, 3, 5, 8, 16, 31, 32, 33, 40] {
            for start in [0, 1, 17, 900, 2990] {
                let end = (start + len).min(text.len());
                let needle = &text[start..end];
                for hay in [&text[..], &text[..10], &text[2000..], b"" as &[u8]] {
                    assert_eq!(find(hay, needle), naive_find(hay, needle), "{needle:?}");
                    if !needle.is_empty() {
                        assert_eq!(rfind(hay, needle), naive_rfind(hay, needle), "{needle:?}");
                    }
                }
            }
        }
        assert_eq!(find(b"aaaa", b"aa"), Some(0));
        assert_eq!(rfind(b"aaaa", b"aa"), Some(2));
        assert_eq!(rfind(b"abc", b""), Some(3));
        assert!(contains(b"#@data/values-schema", b"data/values"));
        assert!(!contains(b"data/value", b"data/values"));
    }

    #[test]
    fn finds_the_first_of_three_bytes() {
        assert_eq!(find_any3(b'"', b'\\', b'\n', b"abc\\def\"g"), Some(3));
        assert_eq!(find_any3(b'"', b'\\', b'\n', &[b'x'; 100]), None);
        let mut long = vec![b'x'; 200];
        long[150] = b'\n';
        assert_eq!(find_any3(b'"', b'\\', b'\n', &long), Some(150));
    }
}
