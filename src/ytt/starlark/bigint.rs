//! Arbitrary-precision integers for the Starlark ints that leave the `i128` fast path
//! (starlark-go's ints are unbounded): sign and magnitude in base 2^32 limbs, with the
//! operations Starlark needs (arithmetic with floored division, two's-complement bitwise
//! operators and shifts, comparison, radix text, float conversion).

use std::cmp::Ordering;

/// A signed integer of any size. Invariants: `mag` has no high zero limbs, and zero is
/// never negative.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BigInt {
    neg: bool,
    /// Little-endian base-2^32 digits.
    mag: Vec<u32>,
}

fn trim(mut v: Vec<u32>) -> Vec<u32> {
    while v.last() == Some(&0) {
        v.pop();
    }
    v
}

fn mag_cmp(a: &[u32], b: &[u32]) -> Ordering {
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn mag_add(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut out = Vec::with_capacity(long.len() + 1);
    let mut carry = 0u64;
    for (i, &x) in long.iter().enumerate() {
        let s = x as u64 + *short.get(i).unwrap_or(&0) as u64 + carry;
        out.push(s as u32);
        carry = s >> 32;
    }
    if carry != 0 {
        out.push(carry as u32);
    }
    out
}

/// `a - b` for `a >= b`.
fn mag_sub(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i64;
    for (i, &x) in a.iter().enumerate() {
        let mut d = x as i64 - *b.get(i).unwrap_or(&0) as i64 - borrow;
        borrow = 0;
        if d < 0 {
            d += 1 << 32;
            borrow = 1;
        }
        out.push(d as u32);
    }
    trim(out)
}

fn mag_mul(a: &[u32], b: &[u32]) -> Vec<u32> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut out = vec![0u32; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        let mut carry = 0u64;
        for (j, &y) in b.iter().enumerate() {
            let t = x as u64 * y as u64 + out[i + j] as u64 + carry;
            out[i + j] = t as u32;
            carry = t >> 32;
        }
        out[i + b.len()] = carry as u32;
    }
    trim(out)
}

fn mag_bits(a: &[u32]) -> usize {
    match a.last() {
        None => 0,
        Some(top) => (a.len() - 1) * 32 + (32 - top.leading_zeros() as usize),
    }
}

fn mag_shl(a: &[u32], n: usize) -> Vec<u32> {
    if a.is_empty() {
        return Vec::new();
    }
    let (limbs, bits) = (n / 32, n % 32);
    let mut out = vec![0u32; limbs];
    if bits == 0 {
        out.extend_from_slice(a);
    } else {
        let mut carry = 0u32;
        for &x in a {
            out.push((x << bits) | carry);
            carry = x >> (32 - bits);
        }
        out.push(carry);
    }
    trim(out)
}

fn mag_shr(a: &[u32], n: usize) -> Vec<u32> {
    let (limbs, bits) = (n / 32, n % 32);
    if limbs >= a.len() {
        return Vec::new();
    }
    let src = &a[limbs..];
    let mut out = Vec::with_capacity(src.len());
    for (i, &x) in src.iter().enumerate() {
        let hi = if bits == 0 {
            0
        } else {
            src.get(i + 1).map_or(0, |&h| h << (32 - bits))
        };
        out.push((x >> bits) | hi);
    }
    trim(out)
}

/// Truncated division of magnitudes (shift and subtract; the numbers here are small).
fn mag_divmod(a: &[u32], b: &[u32]) -> (Vec<u32>, Vec<u32>) {
    if mag_cmp(a, b) == Ordering::Less {
        return (Vec::new(), a.to_vec());
    }
    if b.len() == 1 {
        let (q, r) = mag_divmod_small(a, b[0]);
        return (q, trim(vec![r]));
    }
    let mut q = vec![0u32; a.len()];
    let mut r: Vec<u32> = Vec::new();
    for bit in (0..mag_bits(a)).rev() {
        r = mag_shl(&r, 1);
        if a[bit / 32] >> (bit % 32) & 1 == 1 {
            if r.is_empty() {
                r.push(1);
            } else {
                r[0] |= 1;
            }
        }
        if mag_cmp(&r, b) != Ordering::Less {
            r = mag_sub(&r, b);
            q[bit / 32] |= 1 << (bit % 32);
        }
    }
    (trim(q), r)
}

fn mag_divmod_small(a: &[u32], d: u32) -> (Vec<u32>, u32) {
    let mut q = vec![0u32; a.len()];
    let mut r = 0u64;
    for i in (0..a.len()).rev() {
        let cur = (r << 32) | a[i] as u64;
        q[i] = (cur / d as u64) as u32;
        r = cur % d as u64;
    }
    (trim(q), r as u32)
}

impl BigInt {
    fn make(neg: bool, mag: Vec<u32>) -> BigInt {
        let mag = trim(mag);
        BigInt {
            neg: neg && !mag.is_empty(),
            mag,
        }
    }

    pub fn from_i128(i: i128) -> BigInt {
        let mut u = i.unsigned_abs();
        let mut mag = Vec::new();
        while u != 0 {
            mag.push(u as u32);
            u >>= 32;
        }
        BigInt::make(i < 0, mag)
    }

    /// The value as an `i128`, when it fits.
    pub fn to_i128(&self) -> Option<i128> {
        if self.mag.len() > 4 {
            return None;
        }
        let mut u = 0u128;
        for &x in self.mag.iter().rev() {
            u = (u << 32) | x as u128;
        }
        if self.neg {
            if u <= i128::MIN.unsigned_abs() {
                Some((u as i128).wrapping_neg())
            } else {
                None
            }
        } else {
            i128::try_from(u).ok()
        }
    }

    pub fn is_negative(&self) -> bool {
        self.neg
    }

    pub fn is_zero(&self) -> bool {
        self.mag.is_empty()
    }

    pub fn neg(&self) -> BigInt {
        BigInt::make(!self.neg, self.mag.clone())
    }

    pub fn add(&self, o: &BigInt) -> BigInt {
        if self.neg == o.neg {
            return BigInt::make(self.neg, mag_add(&self.mag, &o.mag));
        }
        match mag_cmp(&self.mag, &o.mag) {
            Ordering::Less => BigInt::make(o.neg, mag_sub(&o.mag, &self.mag)),
            _ => BigInt::make(self.neg, mag_sub(&self.mag, &o.mag)),
        }
    }

    pub fn sub(&self, o: &BigInt) -> BigInt {
        self.add(&o.neg())
    }

    pub fn mul(&self, o: &BigInt) -> BigInt {
        BigInt::make(self.neg != o.neg, mag_mul(&self.mag, &o.mag))
    }

    /// Floored quotient and remainder (the remainder takes the divisor's sign), as
    /// Starlark's `//` and `%`. The divisor must not be zero.
    pub fn div_mod_floor(&self, o: &BigInt) -> (BigInt, BigInt) {
        let (q, r) = mag_divmod(&self.mag, &o.mag);
        let q = BigInt::make(self.neg != o.neg, q);
        let r = BigInt::make(self.neg, r);
        if !r.is_zero() && r.neg != o.neg {
            (q.sub(&BigInt::from_i128(1)), r.add(o))
        } else {
            (q, r)
        }
    }

    pub fn shl(&self, n: usize) -> BigInt {
        BigInt::make(self.neg, mag_shl(&self.mag, n))
    }

    /// Arithmetic (floor) shift right.
    pub fn shr(&self, n: usize) -> BigInt {
        if !self.neg {
            return BigInt::make(false, mag_shr(&self.mag, n));
        }
        // -((|x| - 1) >> n) - 1
        let one = BigInt::from_i128(1);
        let m = BigInt::make(false, self.mag.clone()).sub(&one);
        BigInt::make(false, mag_shr(&m.mag, n)).add(&one).neg()
    }

    /// Two's-complement digits over `len` limbs.
    fn twos(&self, len: usize) -> Vec<u32> {
        let mut v = self.mag.clone();
        v.resize(len, 0);
        if self.neg {
            let mut carry = true;
            for x in v.iter_mut() {
                *x = !*x;
                if carry {
                    let (s, c) = x.overflowing_add(1);
                    *x = s;
                    carry = c;
                }
            }
        }
        v
    }

    fn from_twos(mut v: Vec<u32>) -> BigInt {
        let neg = v.last().is_some_and(|&t| t >> 31 == 1);
        if neg {
            let mut carry = true;
            for x in v.iter_mut() {
                *x = !*x;
                if carry {
                    let (s, c) = x.overflowing_add(1);
                    *x = s;
                    carry = c;
                }
            }
        }
        BigInt::make(neg, v)
    }

    fn bitwise(&self, o: &BigInt, f: fn(u32, u32) -> u32) -> BigInt {
        let len = self.mag.len().max(o.mag.len()) + 1;
        let (a, b) = (self.twos(len), o.twos(len));
        BigInt::from_twos(a.iter().zip(&b).map(|(x, y)| f(*x, *y)).collect())
    }

    pub fn and(&self, o: &BigInt) -> BigInt {
        self.bitwise(o, |x, y| x & y)
    }

    pub fn or(&self, o: &BigInt) -> BigInt {
        self.bitwise(o, |x, y| x | y)
    }

    pub fn xor(&self, o: &BigInt) -> BigInt {
        self.bitwise(o, |x, y| x ^ y)
    }

    /// `~x`, that is `-x - 1`.
    pub fn not(&self) -> BigInt {
        self.neg().sub(&BigInt::from_i128(1))
    }

    /// Digits in `radix` (2..=36, lowercase), with a leading `-` when negative.
    pub fn to_radix(&self, radix: u32) -> String {
        if self.mag.is_empty() {
            return "0".into();
        }
        // The largest power of the radix that fits a limb, and its digit count.
        let (mut chunk, mut width) = (radix, 1);
        while let Some(n) = chunk.checked_mul(radix) {
            chunk = n;
            width += 1;
        }
        let mut parts = Vec::new();
        let mut m = self.mag.clone();
        while !m.is_empty() {
            let (q, r) = mag_divmod_small(&m, chunk);
            parts.push(r);
            m = q;
        }
        let digit = |d: u32| std::char::from_digit(d, radix).unwrap_or('?');
        let mut out = String::new();
        if self.neg {
            out.push('-');
        }
        for (i, p) in parts.iter().rev().enumerate() {
            let mut ds = Vec::new();
            let mut p = *p;
            while p != 0 {
                ds.push(digit(p % radix));
                p /= radix;
            }
            if i > 0 {
                ds.resize(width, '0');
            }
            out.extend(ds.iter().rev());
        }
        out
    }

    /// Parses unsigned digits in `radix`; None when a character is not a digit or
    /// the text is empty.
    pub fn parse_digits(digits: &str, radix: u32, neg: bool) -> Option<BigInt> {
        if digits.is_empty() {
            return None;
        }
        let mut mag: Vec<u32> = Vec::new();
        for c in digits.chars() {
            let d = c.to_digit(radix)?;
            let mut carry = d as u64;
            for x in mag.iter_mut() {
                let t = *x as u64 * radix as u64 + carry;
                *x = t as u32;
                carry = t >> 32;
            }
            if carry != 0 {
                mag.push(carry as u32);
            }
        }
        Some(BigInt::make(neg, mag))
    }

    /// The nearest float (ties to even), infinite beyond the float range, as Go's
    /// `big.Float.Float64`.
    pub fn to_f64(&self) -> f64 {
        let bits = mag_bits(&self.mag);
        let f = if bits <= 64 {
            let mut u = 0u64;
            for &x in self.mag.iter().rev() {
                u = (u << 32) | x as u64;
            }
            u as f64
        } else {
            let shift = bits - 64;
            let top = mag_shr(&self.mag, shift);
            let mut u = 0u64;
            for &x in top.iter().rev() {
                u = (u << 32) | x as u64;
            }
            // A sticky bit below the rounding point keeps ties-to-even exact.
            let rest = mag_cmp(&mag_shl(&top, shift), &self.mag) != Ordering::Equal;
            let m = (u | rest as u64) as f64;
            if shift > 2000 {
                f64::INFINITY
            } else {
                m * 2f64.powi(shift as i32)
            }
        };
        if self.neg { -f } else { f }
    }

    /// The integer part of a finite float.
    pub fn from_f64(f: f64) -> BigInt {
        let t = f.trunc();
        let bits = t.abs().to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        if exp == 0 {
            return BigInt::default();
        }
        let mant = (bits & ((1 << 52) - 1)) | (1 << 52);
        let m = BigInt::from_i128(mant as i128);
        let e = exp - 1075;
        let r = if e >= 0 {
            m.shl(e as usize)
        } else {
            BigInt::make(false, mag_shr(&m.mag, (-e) as usize))
        };
        if t < 0.0 { r.neg() } else { r }
    }
}

impl Ord for BigInt {
    fn cmp(&self, o: &BigInt) -> Ordering {
        match (self.neg, o.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => mag_cmp(&self.mag, &o.mag),
            (true, true) => mag_cmp(&o.mag, &self.mag),
        }
    }
}

impl PartialOrd for BigInt {
    fn partial_cmp(&self, o: &BigInt) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl std::fmt::Display for BigInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_radix(10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(s: &str) -> BigInt {
        let (neg, d) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        BigInt::parse_digits(d, 10, neg).unwrap()
    }

    #[test]
    fn arithmetic_matches_i128_where_it_fits() {
        let vals: [i128; 9] = [
            0,
            1,
            -1,
            7,
            -7,
            1 << 40,
            -(1 << 40) + 3,
            i64::MAX as i128,
            -99,
        ];
        for &a in &vals {
            for &b in &vals {
                let (x, y) = (BigInt::from_i128(a), BigInt::from_i128(b));
                assert_eq!(x.add(&y).to_i128(), Some(a + b));
                assert_eq!(x.sub(&y).to_i128(), Some(a - b));
                assert_eq!(x.mul(&y).to_i128(), a.checked_mul(b));
                assert_eq!(x.and(&y).to_i128(), Some(a & b));
                assert_eq!(x.or(&y).to_i128(), Some(a | b));
                assert_eq!(x.xor(&y).to_i128(), Some(a ^ b));
                assert_eq!(x.cmp(&y), a.cmp(&b));
                if b != 0 {
                    let (q, r) = x.div_mod_floor(&y);
                    assert_eq!(
                        q.to_i128(),
                        Some(a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 }),
                        "{a} // {b}"
                    );
                    assert_eq!(q.mul(&y).add(&r).to_i128(), Some(a), "{a} % {b}");
                }
            }
            let x = BigInt::from_i128(a);
            assert_eq!(x.not().to_i128(), Some(!a));
            assert_eq!(x.shr(3).to_i128(), Some(a >> 3));
            assert_eq!(x.shl(5).to_i128(), Some(a << 5));
            assert_eq!(x.to_radix(10), a.to_string());
            assert_eq!(x.to_f64(), a as f64);
        }
    }

    #[test]
    fn big_values() {
        let a = big("100000000000000000000");
        assert_eq!(
            a.mul(&a).to_string(),
            "10000000000000000000000000000000000000000"
        );
        let p = BigInt::from_i128(1).shl(200);
        assert_eq!(
            p.to_string(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
        assert_eq!(p.to_radix(16), format!("1{}", "0".repeat(50)));
        assert_eq!(p.shr(190).to_i128(), Some(1024));
        assert_eq!(p.neg().shr(300).to_i128(), Some(-1));
        let (q, r) = p.neg().div_mod_floor(&BigInt::from_i128(7));
        assert_eq!(r.to_i128(), Some(3));
        assert_eq!(q.mul(&BigInt::from_i128(7)).add(&r), p.neg());
        assert_eq!(p.to_f64(), 2f64.powi(200));
        assert_eq!(
            BigInt::from_f64(1e39).to_string(),
            "999999999999999939709166371603178586112"
        );
        assert_eq!(BigInt::from_f64(-2.5).to_i128(), Some(-2));
        assert_eq!(BigInt::from_i128(1).shl(1100).to_f64(), f64::INFINITY);
        let m = big("-123456789012345678901234567890123456789012345");
        assert_eq!(
            m.to_string(),
            "-123456789012345678901234567890123456789012345"
        );
        let low = BigInt::from_i128(0xffff);
        let (_, r) = m.div_mod_floor(&BigInt::from_i128(0x10000));
        assert_eq!(m.and(&low), r);
        assert_eq!(m.or(&low).and(&low), low);
        assert_eq!(m.xor(&m), BigInt::default());
    }
}
