//! Exact comparison of ints with floats, as starlark-go compares them: as rationals, not
//! through a conversion to float64, so that an int past 2^53 still orders against the
//! float nearest to it.

use super::bigint::BigInt;

/// An int against a float, exactly (starlark-go compares the two as rationals, so
/// `9007199254740993 > 9007199254740992.0`); None when the float is NaN.
pub fn int_float_cmp(x: i128, y: f64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if y.is_nan() {
        return None;
    }
    // Past ±1.7e38 (and at the infinities) the float is beyond every i128.
    if y >= 1.7e38 {
        return Some(Ordering::Less);
    }
    if y <= -1.7e38 {
        return Some(Ordering::Greater);
    }
    let floor = y.floor();
    Some(match x.cmp(&(floor as i128)) {
        Ordering::Equal if y != floor => Ordering::Less,
        o => o,
    })
}

/// A big int against a float, exactly as [`int_float_cmp`]; None when the float is NaN.
pub fn bigint_float_cmp(x: &BigInt, y: f64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering;
    if y.is_nan() {
        return None;
    }
    if y.is_infinite() {
        return Some(if y > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        });
    }
    let floor = y.floor();
    Some(match x.cmp(&BigInt::from_f64(floor)) {
        Ordering::Equal if y != floor => Ordering::Less,
        o => o,
    })
}
