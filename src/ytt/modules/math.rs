//! `@ytt:math`: ytt's math module (Go's `math` functions behind Starlark builtins):
//! rounding (`ceil`/`floor` give ints, `round` a float rounded half away from zero),
//! powers and logarithms, trigonometry and hyperbolic functions, `gamma`, angles, and
//! the constants `e` and `pi`. Every function takes ints or floats. A call is recorded so
//! that the run warns, as ytt does, that results may differ across CPU architectures.

use std::cell::Cell;

use crate::ytt::overlay::go_type;
use crate::ytt::starlark::bigint::BigInt;
use crate::ytt::starlark::{Args, Error as SError, Module, Value};

use super::{SResult, module, native};

/// What ytt prints (once) when a template calls a function of `@ytt:math`.
pub const WARNING: &str = "\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures.";

thread_local! {
    static CALLED: Cell<bool> = const { Cell::new(false) };
}

/// Whether a `@ytt:math` function was called on this thread since the last call; ytt
/// warns once about such a run.
pub fn take_called() -> bool {
    CALLED.with(|c| c.replace(false))
}

fn note_call() {
    CALLED.with(|c| c.set(true));
}

/// `x` as a float when it is an int or a float (ytt's `AsFloat64`).
fn float_arg(v: &Value) -> Result<f64, String> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::BigInt(b) => Ok(b.to_f64()),
        Value::Float(f) => Ok(*f),
        other => Err(format!(
            "expected float value, but was {}",
            go_type::of_starlark(other)
        )),
    }
}

/// A function of one or two number arguments, as ytt wraps Go's `math` functions:
/// exactly `n` positional arguments (keyword arguments are not looked at), each an int
/// or a float, and errors led by the function's name. `mod` goes by the name `round`
/// there, so its errors do too.
fn floats(name: &'static str, n: usize, f: impl Fn(&[f64]) -> f64 + 'static) -> Value {
    native(name, move |_t, a: &Args| {
        note_call();
        if a.pos.len() != n {
            let want = if n == 1 {
                "one argument"
            } else {
                "two arguments"
            };
            return Err(SError::new(format!("{name}: expected exactly {want}")));
        }
        let xs = a
            .pos
            .iter()
            .map(float_arg)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| SError::new(format!("{name}: {e}")))?;
        Ok(Value::Float(f(&xs)))
    })
}

fn unary(name: &'static str, f: fn(f64) -> f64) -> Value {
    floats(name, 1, move |x| f(x[0]))
}

fn binary(name: &'static str, f: fn(f64, f64) -> f64) -> Value {
    floats(name, 2, move |x| f(x[0], x[1]))
}

/// `ceil`/`floor`: ints stay as they are, floats round to an int (starlark-go's
/// `NumberToInt`); ytt's error wrapper puts the name before starlark-go's own.
fn to_int(name: &'static str, f: fn(f64) -> f64) -> Value {
    native(name, move |_t, a: &Args| {
        note_call();
        let v = a
            .positional(name, 1, 1)
            .map_err(|e| SError::new(format!("{name}: {e}")))?;
        match v[0].as_ref().expect("x") {
            x @ (Value::Int(_) | Value::BigInt(_)) => Ok(x.clone()),
            Value::Float(x) => {
                let r = f(*x);
                if r.is_nan() {
                    return Err(SError::new(format!(
                        "{name}: cannot convert float NaN to integer"
                    )));
                }
                if r.is_infinite() {
                    return Err(SError::new(format!(
                        "{name}: cannot convert float infinity to integer"
                    )));
                }
                if r.abs() >= 1.7e38 {
                    return Ok(Value::from_bigint(BigInt::from_f64(r)));
                }
                Ok(Value::Int(r as i128))
            }
            other => Err(SError::new(format!(
                "{name}: expected float value, but was {}",
                go_type::of_starlark(other)
            ))),
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

/// `log(x, base=e)`: not behind ytt's error wrapper, so its errors are starlark-go's and
/// the conversion's own, unled; a base of 1 divides by zero into an infinity or NaN.
fn log(_t: &mut dyn crate::ytt::starlark::Interpreter, a: &Args) -> SResult<Value> {
    note_call();
    let v = a.positional("log", 1, 2)?;
    let x = float_arg(v[0].as_ref().expect("x")).map_err(SError::new)?;
    let base = match &v[1] {
        None => std::f64::consts::E,
        Some(b) => float_arg(b).map_err(SError::new)?,
    };
    Ok(Value::Float(x.ln() / base.ln()))
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
            ("mod", binary("round", |x, y| x % y)),
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
