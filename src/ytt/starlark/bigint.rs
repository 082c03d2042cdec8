//! Arbitrary-precision integers for the Starlark ints that leave the `i128` fast path
//! (starlark-go's ints are unbounded). A thin layer over `num-bigint` giving the
//! operations the interpreter calls by name: arithmetic with floored division,
//! two's-complement bitwise operators and arithmetic shifts, radix text and float
//! conversion as Go's `math/big` does them.

use num_bigint::BigInt as Big;
use num_integer::Integer;
use num_traits::{FromPrimitive, Signed, ToPrimitive, Zero};

/// A signed integer of any size.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct BigInt(Big);

impl BigInt {
    pub fn from_i128(i: i128) -> BigInt {
        BigInt(Big::from(i))
    }

    /// The value as an `i128`, when it fits.
    pub fn to_i128(&self) -> Option<i128> {
        self.0.to_i128()
    }

    pub fn is_negative(&self) -> bool {
        self.0.is_negative()
    }

    pub fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    pub fn neg(&self) -> BigInt {
        BigInt(-&self.0)
    }

    pub fn add(&self, o: &BigInt) -> BigInt {
        BigInt(&self.0 + &o.0)
    }

    pub fn sub(&self, o: &BigInt) -> BigInt {
        BigInt(&self.0 - &o.0)
    }

    pub fn mul(&self, o: &BigInt) -> BigInt {
        BigInt(&self.0 * &o.0)
    }

    /// Floored quotient and remainder (the remainder takes the divisor's sign), as
    /// Starlark's `//` and `%`. The divisor must not be zero.
    pub fn div_mod_floor(&self, o: &BigInt) -> (BigInt, BigInt) {
        let (q, r) = self.0.div_mod_floor(&o.0);
        (BigInt(q), BigInt(r))
    }

    pub fn shl(&self, n: usize) -> BigInt {
        BigInt(&self.0 << n)
    }

    /// Arithmetic (floor) shift right.
    pub fn shr(&self, n: usize) -> BigInt {
        BigInt(&self.0 >> n)
    }

    pub fn and(&self, o: &BigInt) -> BigInt {
        BigInt(&self.0 & &o.0)
    }

    pub fn or(&self, o: &BigInt) -> BigInt {
        BigInt(&self.0 | &o.0)
    }

    pub fn xor(&self, o: &BigInt) -> BigInt {
        BigInt(&self.0 ^ &o.0)
    }

    /// `~x`, that is `-x - 1`.
    pub fn not(&self) -> BigInt {
        BigInt(!&self.0)
    }

    /// Digits in `radix` (2..=36, lowercase), with a leading `-` when negative.
    pub fn to_radix(&self, radix: u32) -> String {
        self.0.to_str_radix(radix)
    }

    /// The value of `digits` in `radix`, negated when `neg`: digits only, as Go's
    /// `big.Int.SetString` takes them (no sign, no underscores).
    pub fn parse_digits(digits: &str, radix: u32, neg: bool) -> Option<BigInt> {
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        let m = Big::parse_bytes(digits.as_bytes(), radix)?;
        Some(BigInt(if neg { -m } else { m }))
    }

    /// The nearest float (ties to even), infinite past `f64::MAX`, as Go's
    /// `big.Float.Float64`.
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(if self.is_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        })
    }

    /// The integer part of a finite float.
    pub fn from_f64(f: f64) -> BigInt {
        BigInt(Big::from_f64(f.trunc()).unwrap_or_default())
    }
}

impl std::fmt::Display for BigInt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
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
