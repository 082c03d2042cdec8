//! `@ytt:math`: the Starlark math module ytt ships (starlark-go's `lib/math`): rounding
//! (`ceil`/`floor` give ints, `round` a float rounded half away from zero), powers and
//! logarithms, trigonometry and hyperbolic functions, `gamma`, angles, and the constants
//! `e` and `pi`. Every function takes ints or floats.

use crate::ytt::starlark::{Args, Error as SError, Module, Value};

use super::{SResult, module, native};

/// `x` as a float when it is an int or a float (starlark-go's `floatOrInt`).
fn float_arg(fname: &str, param: &str, v: &Value) -> SResult<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        other => Err(SError::new(format!(
            "{fname}: for parameter {param}: got {}, want float or int",
            other.type_name()
        ))),
    }
}

fn unary(name: &'static str, f: fn(f64) -> f64) -> Value {
    native(name, move |_t, a: &Args| {
        let v = a.positional(name, 1, 1)?;
        Ok(Value::Float(f(float_arg(
            name,
            "1",
            v[0].as_ref().expect("x"),
        )?)))
    })
}

fn binary(name: &'static str, f: fn(f64, f64) -> f64) -> Value {
    native(name, move |_t, a: &Args| {
        let v = a.positional(name, 2, 2)?;
        let x = float_arg(name, "1", v[0].as_ref().expect("x"))?;
        let y = float_arg(name, "2", v[1].as_ref().expect("y"))?;
        Ok(Value::Float(f(x, y)))
    })
}

/// `ceil`/`floor`: ints stay as they are, floats round to an int.
fn to_int(name: &'static str, f: fn(f64) -> f64) -> Value {
    native(name, move |_t, a: &Args| {
        let v = a.positional(name, 1, 1)?;
        match v[0].as_ref().expect("x") {
            Value::Int(i) => Ok(Value::Int(*i)),
            other => {
                let r = f(float_arg(name, "1", other)?);
                if !r.is_finite() {
                    return Err(SError::new(format!("{name}: cannot convert {r} to int")));
                }
                Ok(Value::Int(r as i128))
            }
        }
    })
}

/// IEEE 754 remainder: `x - n*y` with `n` the integer nearest `x/y`, ties to even.
fn remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let r = x % y;
    let half = y.abs() / 2.0;
    let r = if r.abs() > half || (r.abs() == half && ((x - r) / y) % 2.0 != 0.0) {
        r - y.abs().copysign(r)
    } else {
        r
    };
    if r == 0.0 { 0.0f64.copysign(x) } else { r }
}

/// The gamma function. Integers up to 33 are reduced by the same products as Go's
/// `math.Gamma` (so `gamma(5)` is exactly 24); other arguments use the Lanczos
/// approximation (g = 7, 9 terms) with the reflection formula below 1/2.
fn gamma(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY || (x < 0.0 && x.fract() == 0.0) {
        return f64::NAN;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x.fract() == 0.0 && x <= 33.0 {
        let (mut z, mut n) = (1.0, x);
        while n >= 3.0 {
            n -= 1.0;
            z *= n;
        }
        return z;
    }
    lanczos_gamma(x)
}

fn lanczos_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return pi / ((pi * x).sin() * lanczos_gamma(1.0 - x));
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    (2.0 * std::f64::consts::PI).sqrt() * t.powf(x + 0.5) * (-t).exp() * a
}

fn log(_t: &mut crate::ytt::starlark::Thread, a: &Args) -> SResult<Value> {
    let v = a.unpack("log", &["x", "base?"])?;
    let x = float_arg("log", "x", v[0].as_ref().expect("x"))?;
    match &v[1] {
        None => Ok(Value::Float(x.ln())),
        Some(b) => {
            let base = float_arg("log", "base", b)?;
            if base == 1.0 {
                return Err(SError::new("log: division by zero"));
            }
            Ok(Value::Float(x.ln() / base.ln()))
        }
    }
}

pub fn math_module() -> Module {
    module(
        "@ytt:math",
        vec![
            ("ceil", to_int("ceil", f64::ceil)),
            ("floor", to_int("floor", f64::floor)),
            ("round", unary("round", f64::round)),
            ("fabs", unary("fabs", f64::abs)),
            ("copysign", binary("copysign", f64::copysign)),
            ("mod", binary("mod", |x, y| x % y)),
            ("remainder", binary("remainder", remainder)),
            ("pow", binary("pow", f64::powf)),
            ("exp", unary("exp", f64::exp)),
            ("sqrt", unary("sqrt", f64::sqrt)),
            ("log", native("log", log)),
            ("gamma", unary("gamma", gamma)),
            ("acos", unary("acos", f64::acos)),
            ("asin", unary("asin", f64::asin)),
            ("atan", unary("atan", f64::atan)),
            ("atan2", binary("atan2", f64::atan2)),
            ("cos", unary("cos", f64::cos)),
            ("sin", unary("sin", f64::sin)),
            ("tan", unary("tan", f64::tan)),
            ("hypot", binary("hypot", f64::hypot)),
            ("acosh", unary("acosh", f64::acosh)),
            ("asinh", unary("asinh", f64::asinh)),
            ("atanh", unary("atanh", f64::atanh)),
            ("cosh", unary("cosh", f64::cosh)),
            ("sinh", unary("sinh", f64::sinh)),
            ("tanh", unary("tanh", f64::tanh)),
            (
                "degrees",
                unary("degrees", |x| 360.0 * x / (2.0 * std::f64::consts::PI)),
            ),
            (
                "radians",
                unary("radians", |x| 2.0 * std::f64::consts::PI * x / 360.0),
            ),
            ("e", Value::Float(std::f64::consts::E)),
            ("pi", Value::Float(std::f64::consts::PI)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainder_rounds_the_quotient_to_even() {
        assert_eq!(remainder(7.0, 4.0), -1.0);
        assert_eq!(remainder(5.0, 2.0), 1.0);
        assert_eq!(remainder(7.0, 2.0), -1.0);
        assert_eq!(remainder(-7.0, 3.0), -1.0);
        assert_eq!(remainder(6.0, 3.0), 0.0);
        assert!(remainder(1.0, 0.0).is_nan());
    }

    #[test]
    fn gamma_of_integers_is_exact_and_others_are_close() {
        assert_eq!(gamma(5.0), 24.0);
        assert_eq!(gamma(1.0), 1.0);
        assert_eq!(gamma(2.0), 1.0);
        assert_eq!(gamma(11.0), 3_628_800.0);
        assert!((gamma(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-14);
        assert!((gamma(-0.5) + 2.0 * std::f64::consts::PI.sqrt()).abs() < 1e-13);
        assert!(gamma(-2.0).is_nan());
        assert_eq!(gamma(0.0), f64::INFINITY);
    }
}
