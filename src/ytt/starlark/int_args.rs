//! Int arguments as the starlark-go fork in ytt reads them. Its ints keep values of the
//! 32-bit range apart from bigger ones, and `AsInt32` (behind every `int` parameter of a
//! built-in, list and string indices, `chr`) refuses the bigger ones with "N out of range".

use super::error::{Result, bail};
use super::value::Value;

/// starlark-go's `AsInt32`: an int of the signed 32-bit range; a bigger int fails with
/// "N out of range", any other value with "got T, want int".
pub fn as_int32(v: &Value) -> Result<i64> {
    match v {
        Value::Int(i) => match i32::try_from(*i) {
            Ok(n) => Ok(i64::from(n)),
            Err(_) => bail!("{i} out of range"),
        },
        Value::BigInt(b) => bail!("{b} out of range"),
        other => bail!("got {}, want int", other.type_name()),
    }
}

/// An `int` parameter of a built-in as `UnpackPositionalArgs` unpacks it: the error
/// names the function and the 1-based position.
pub fn int_param(fname: &str, position: usize, v: &Value) -> Result<i64> {
    as_int32(v).map_err(|e| {
        super::error::Error::new(format!("{fname}: for parameter {position}: {}", e.msg))
    })
}

/// starlark-go's `indices`: the optional start and end of a sub-sequence of length
/// `n` (None and absent mean the ends; negative ones count from the end), clamped to
/// `[0, n]`. The error says which bound was bad; callers put their name before it.
pub fn indices(start: &Option<Value>, end: &Option<Value>, n: usize) -> Result<(usize, usize)> {
    let bound = |v: &Option<Value>, dflt: usize, which: &str| -> Result<usize> {
        match v {
            None | Some(Value::None) => Ok(dflt),
            Some(x) => {
                // starlark-go's `asIndex` says "got T, want int" for any failure.
                let mut i = as_int32(x).map_err(|_| {
                    super::error::Error::new(format!(
                        "invalid {which} index: got {}, want int",
                        x.type_name()
                    ))
                })?;
                if i < 0 {
                    i += n as i64;
                }
                Ok(i.clamp(0, n as i64) as usize)
            }
        }
    };
    Ok((bound(start, 0, "start")?, bound(end, n, "end")?))
}

/// The int a finite float truncates to (starlark-go's `finiteFloatToInt`).
pub fn int_of_float(f: f64) -> Value {
    let t = f.trunc();
    if t.abs() < 1.7e38 {
        Value::Int(t as i128)
    } else {
        Value::from_bigint(super::bigint::BigInt::from_f64(t))
    }
}
