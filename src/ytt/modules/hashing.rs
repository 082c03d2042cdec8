//! `@ytt:sha256` and `@ytt:md5`: hex digests of strings.

use sha2::Digest;

use crate::ytt::starlark::{Error as SError, Module, Value};

use super::{module, native};

pub fn sha256_module() -> Module {
    module(
        "@ytt:sha256",
        vec![(
            "sum",
            native("sha256.sum", |_t, a| {
                let s = a
                    .pos
                    .first()
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| SError::new("sha256.sum: expected a string"))?;
                Ok(Value::str(&hex::encode(sha2::Sha256::digest(s.as_bytes()))))
            }),
        )],
    )
}

pub fn md5_module() -> Module {
    module(
        "@ytt:md5",
        vec![(
            "sum",
            native("md5.sum", |_t, a| {
                let s = a
                    .pos
                    .first()
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| SError::new("md5.sum: expected a string"))?;
                Ok(Value::str(&hex::encode(md5(s.as_bytes()))))
            }),
        )],
    )
}

/// MD5 (RFC 1321).
fn md5(input: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32)
        .collect();
    let (mut a0, mut b0, mut c0, mut d0) =
        (0x67452301u32, 0xefcdab89u32, 0x98badcfeu32, 0x10325476u32);
    let mut msg = input.to_vec();
    let bit_len = (input.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_le_bytes());
    for chunk in msg.chunks(64) {
        let m: Vec<u32> = chunk
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f2 = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f2.rotate_left(S[i]));
        }
        a0 = a0.wrapping_add(a);
        b0 = b0.wrapping_add(b);
        c0 = c0.wrapping_add(c);
        d0 = d0.wrapping_add(d);
    }
    let mut out = [0u8; 16];
    out[..4].copy_from_slice(&a0.to_le_bytes());
    out[4..8].copy_from_slice(&b0.to_le_bytes());
    out[8..12].copy_from_slice(&c0.to_le_bytes());
    out[12..].copy_from_slice(&d0.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn md5_known() {
        assert_eq!(
            hex::encode(super::md5(b"")),
            "d41d8cd98f00b204e9800998ecf8427e"
        );
    }
}
