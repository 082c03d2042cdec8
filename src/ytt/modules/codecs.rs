//! Encoders and decoders: `@ytt:yaml`, `@ytt:json`, `@ytt:base64`, `@ytt:toml`.

use base64::Engine;

use crate::yaml::Value as Y;
use crate::ytt::fragment::{plain_to_starlark, refuse_document_sets, starlark_to_plain};
use crate::ytt::starlark::{Args, Error as SError, Module, Value};

use super::{SResult, module, native};

/// The one positional argument of `fname`, refused otherwise in ytt's words.
fn one_arg<'a>(fname: &str, args: &'a Args) -> SResult<&'a Value> {
    match args.pos.as_slice() {
        [v] => Ok(v),
        _ => Err(SError::new(format!(
            "{fname}: expected exactly one argument"
        ))),
    }
}

/// The one positional string argument of `fname`.
fn str_arg<'a>(fname: &str, args: &'a Args) -> SResult<&'a str> {
    let v = one_arg(fname, args)?;
    v.as_str().ok_or_else(|| {
        SError::new(format!(
            "{fname}: expected a string, but was {}",
            v.type_name()
        ))
    })
}

/// A boolean keyword argument (false when absent), as ytt's `BoolArg` reads it.
fn bool_kwarg(fname: &str, args: &Args, name: &str) -> SResult<bool> {
    match args.kwargs.iter().find(|(k, _)| k.as_ref() == name) {
        None => Ok(false),
        Some((_, Value::Bool(b))) => Ok(*b),
        Some((_, other)) => Err(SError::new(format!(
            "{fname}: expected starlark.Bool, but was {}",
            crate::ytt::overlay::go_type::of_starlark(other)
        ))),
    }
}

/// ytt's `CheckArgNames`: every keyword must be one of `valid`.
fn check_arg_names(fname: &str, args: &Args, valid: &[&str]) -> SResult<()> {
    match args
        .kwargs
        .iter()
        .find(|(k, _)| !valid.contains(&k.as_ref()))
    {
        Some((k, _)) => Err(SError::new(format!("{fname}: invalid argument name: {k}"))),
        None => Ok(()),
    }
}

/// An int keyword argument (0 when absent), as ytt's `Int64Arg` reads it.
fn int_kwarg(fname: &str, args: &Args, name: &str) -> SResult<i128> {
    match args.kwargs.iter().find(|(k, _)| k.as_ref() == name) {
        None => Ok(0),
        Some((_, v)) => match v.as_int() {
            Some(i) if i64::try_from(i).is_ok() => Ok(i),
            Some(_) => Err(SError::new(format!("{fname}: expected int64 value"))),
            None => Err(SError::new(format!("{fname}: expected starlark.Int"))),
        },
    }
}

/// The options of `base64.encode`/`decode`, read as ytt's `buildEncoding` reads them:
/// URL alphabet (`url`), no padding (`raw`), zero trailing bits required (`strict`).
struct Base64Opts {
    url: bool,
    raw: bool,
    strict: bool,
}

fn base64_opts(fname: &str, args: &Args) -> SResult<Base64Opts> {
    Ok(Base64Opts {
        url: bool_kwarg(fname, args, "url")?,
        raw: bool_kwarg(fname, args, "raw")?,
        strict: bool_kwarg(fname, args, "strict")?,
    })
}

fn base64_encode(s: &str, o: &Base64Opts) -> String {
    use base64::engine::{GeneralPurpose, GeneralPurposeConfig};
    let alphabet = if o.url {
        base64::alphabet::URL_SAFE
    } else {
        base64::alphabet::STANDARD
    };
    let config = GeneralPurposeConfig::new().with_encode_padding(!o.raw);
    GeneralPurpose::new(&alphabet, config).encode(crate::go_bytes::to_bytes(s))
}
pub fn yaml_module() -> Module {
    Module::from_values(
        "@ytt:yaml",
        vec![("yaml".to_string(), crate::ytt::assertions::yaml_value())],
    )
}

fn json_indent(v: &Y, indent: usize, level: usize, out: &mut String) -> SResult<()> {
    let pad = |l: usize| " ".repeat(indent * l);
    match v {
        Y::Map(items) if !items.is_empty() => {
            let mut items: Vec<_> = items.iter().collect();
            // Go sorts the keys by their bytes (a carried byte compares as itself).
            items.sort_by_cached_key(|a| {
                crate::go_bytes::to_bytes(&a.0.to_display_string()).into_owned()
            });
            out.push_str("{\n");
            for (i, (k, v)) in items.iter().enumerate() {
                out.push_str(&pad(level + 1));
                out.push_str(
                    &crate::yaml::json::to_json(&Y::String(k.to_display_string()))
                        .map_err(|e| SError::new(e.to_string()))?,
                );
                out.push_str(": ");
                json_indent(v, indent, level + 1, out)?;
                if i + 1 < items.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&pad(level));
            out.push('}');
        }
        Y::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, v) in items.iter().enumerate() {
                out.push_str(&pad(level + 1));
                json_indent(v, indent, level + 1, out)?;
                if i + 1 < items.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(&pad(level));
            out.push(']');
        }
        other => out
            .push_str(&crate::yaml::json::to_json(other).map_err(|e| SError::new(e.to_string()))?),
    }
    Ok(())
}

pub fn json_module() -> Module {
    module(
        "@ytt:json",
        vec![
            (
                "encode",
                native("json.encode", |_t, args| {
                    let v = one_arg("json.encode", args)?;
                    check_arg_names("json.encode", args, &["indent"])?;
                    let plain = starlark_to_plain(v).map_err(|e| prefixed("json.encode", e))?;
                    refuse_document_sets(v)?;
                    let indent = int_kwarg("json.encode", args, "indent")?;
                    if !(0..=4).contains(&indent) {
                        return Err(SError::new(
                            "json.encode: indent value must be between 0 and 4",
                        ));
                    }
                    let s = if indent > 0 {
                        let mut out = String::new();
                        json_indent(&plain, indent as usize, 0, &mut out)?;
                        out
                    } else {
                        crate::yaml::json::to_json(&plain)
                            .map_err(|e| SError::new(format!("json.encode: {e}")))?
                    };
                    Ok(Value::str(&s))
                }),
            ),
            (
                "decode",
                native("json.decode", |_t, args| {
                    let s = str_arg("json.decode", args)?;
                    super::json_syntax::check(s)
                        .map_err(|e| SError::new(format!("json.decode: {e}")))?;
                    let v = super::json_decode::decode(s)
                        .map_err(|e| SError::new(format!("json.decode: {e}")))?;
                    Ok(plain_to_starlark(&v))
                }),
            ),
        ],
    )
}

pub fn toml_module() -> Module {
    module(
        "@ytt:toml",
        vec![
            (
                "encode",
                native("toml.encode", |_t, args| {
                    let v = one_arg("toml.encode", args)?;
                    check_arg_names("toml.encode", args, &["indent"])?;
                    let plain = starlark_to_plain(v).map_err(|e| prefixed("toml.encode", e))?;
                    refuse_document_sets(v)?;
                    let indent = int_kwarg("toml.encode", args, "indent")?;
                    if !(0..=8).contains(&indent) {
                        return Err(SError::new(
                            "toml.encode: indent value must be between 0 and 8",
                        ));
                    }
                    // As the Go encoder: its two-space default stays unless indent > 0.
                    let unit = if indent > 0 { indent as usize } else { 2 };
                    Ok(Value::str(
                        &super::toml::encode(&plain, unit)
                            .map_err(|e| SError::new(format!("toml.encode: {e}")))?,
                    ))
                }),
            ),
            (
                "decode",
                native("toml.decode", |_t, args| {
                    let s = str_arg("toml.decode", args)?;
                    Ok(plain_to_starlark(
                        &super::toml::decode(s).map_err(SError::new)?,
                    ))
                }),
            ),
        ],
    )
}

pub fn base64_module() -> Module {
    module(
        "@ytt:base64",
        vec![
            (
                "encode",
                native("base64.encode", |_t, args| {
                    let s = str_arg("base64.encode", args)?;
                    let opts = base64_opts("base64.encode", args)?;
                    Ok(Value::str(&base64_encode(s, &opts)))
                }),
            ),
            (
                "decode",
                native("base64.decode", |_t, args| {
                    let s = str_arg("base64.decode", args)?;
                    let o = base64_opts("base64.decode", args)?;
                    let b = super::go_base64::decode(s.as_bytes(), o.url, o.raw, o.strict)
                        .map_err(|at| {
                            SError::new(format!(
                                "base64.decode: illegal base64 data at input byte {at}"
                            ))
                        })?;
                    // Decoded bytes that are no UTF-8 stay bytes, as in Go's string.
                    Ok(Value::Str(crate::ytt::starlark::value::byte_str(&b)))
                }),
            ),
        ],
    )
}

/// `err` as ytt reports a failing built-in: after the built-in's name.
fn prefixed(name: &str, mut err: SError) -> SError {
    err.msg = format!("{name}: {}", err.msg);
    err
}
