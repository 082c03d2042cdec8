//! Encoders and decoders: `@ytt:yaml`, `@ytt:json`, `@ytt:base64`, `@ytt:toml`.

use base64::Engine;

use crate::yaml::Value as Y;
use crate::ytt::assertions::yaml_encode;
use crate::ytt::fragment::{plain_to_starlark, starlark_to_plain};
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

/// The base64 engine `base64.encode`/`decode` use: standard or URL alphabet (`url`),
/// padded or not (`raw`), trailing bits checked only when `strict`, as Go's
/// `encoding/base64` does.
fn base64_engine(fname: &str, args: &Args) -> SResult<base64::engine::GeneralPurpose> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    let url = bool_kwarg(fname, args, "url")?;
    let raw = bool_kwarg(fname, args, "raw")?;
    let strict = bool_kwarg(fname, args, "strict")?;
    let alphabet = if url {
        base64::alphabet::URL_SAFE
    } else {
        base64::alphabet::STANDARD
    };
    let config = GeneralPurposeConfig::new()
        .with_encode_padding(!raw)
        .with_decode_padding_mode(if raw {
            DecodePaddingMode::RequireNone
        } else {
            DecodePaddingMode::RequireCanonical
        })
        .with_decode_allow_trailing_bits(!strict);
    Ok(GeneralPurpose::new(&alphabet, config))
}

/// Go's message for undecodable base64: the offset of the first bad input byte.
fn base64_error(e: base64::DecodeError, input_len: usize) -> String {
    let at = match e {
        base64::DecodeError::InvalidByte(i, _) | base64::DecodeError::InvalidLastSymbol(i, _) => i,
        base64::DecodeError::InvalidLength(_) | base64::DecodeError::InvalidPadding => input_len,
    };
    format!("illegal base64 data at input byte {at}")
}

pub fn yaml_module() -> Module {
    module(
        "@ytt:yaml",
        vec![
            (
                "encode",
                native("yaml.encode", |_t, args| {
                    let v = one_arg("yaml.encode", args)?;
                    let s = yaml_encode(v)
                        .map_err(|e| SError::new(format!("yaml.encode: {}", e.msg)))?;
                    Ok(Value::str(&s))
                }),
            ),
            (
                "decode",
                native("yaml.decode", |_t, args| {
                    let s = str_arg("yaml.decode", args)?;
                    let ds = crate::yaml::parse_ytt_document_set(s, "yaml.decode", false)
                        .map_err(|e| SError::new(format!("yaml.decode: {}", e.message)))?;
                    if let Some((key, _)) = ds.first_duplicate_key() {
                        return Err(SError::new(format!(
                            "yaml.decode: Unexpected duplicate key: {}",
                            crate::ytt::go_type::percent_s(&key)
                        )));
                    }
                    let docs: Vec<_> = ds.docs.iter().filter(|d| !d.injected).collect();
                    if docs.len() > 1 {
                        return Err(SError::new(format!(
                            "yaml.decode: Expected to find exactly one YAML document, but found {}",
                            docs.len()
                        )));
                    }
                    let v = docs.first().map(|d| d.value.to_value()).unwrap_or(Y::Null);
                    Ok(plain_to_starlark(&v))
                }),
            ),
        ],
    )
}

fn json_indent(v: &Y, indent: usize, level: usize, out: &mut String) -> SResult<()> {
    let pad = |l: usize| " ".repeat(indent * l);
    match v {
        Y::Map(items) if !items.is_empty() => {
            let mut items: Vec<_> = items.iter().collect();
            items.sort_by_key(|a| a.0.to_display_string());
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

fn json_to_plain(j: &serde_json::Value) -> Y {
    match j {
        serde_json::Value::Null => Y::Null,
        serde_json::Value::Bool(b) => Y::Bool(*b),
        // Go decodes every JSON number as a float64, and so does ytt's json.decode.
        serde_json::Value::Number(n) => Y::Float(n.as_f64().unwrap_or(0.0)),
        serde_json::Value::String(s) => Y::String(s.clone()),
        serde_json::Value::Array(a) => Y::Array(a.iter().map(json_to_plain).collect()),
        serde_json::Value::Object(o) => {
            // Go decodes JSON objects into maps: keys come out sorted.
            let mut items: Vec<(Y, Y)> = o
                .iter()
                .map(|(k, v)| (Y::String(k.clone()), json_to_plain(v)))
                .collect();
            items.sort_by_key(|a| a.0.to_display_string());
            Y::Map(items)
        }
    }
}

pub fn json_module() -> Module {
    module(
        "@ytt:json",
        vec![
            (
                "encode",
                native("json.encode", |_t, args| {
                    let v = one_arg("json.encode", args)?;
                    let mut indent = 0;
                    for (k, val) in &args.kwargs {
                        if k.as_ref() != "indent" {
                            return Err(SError::new(format!(
                                "json.encode: invalid argument name: {k}"
                            )));
                        }
                        indent = val
                            .as_int()
                            .ok_or_else(|| SError::new("json.encode: expected starlark.Int"))?;
                    }
                    if !(0..=4).contains(&indent) {
                        return Err(SError::new(
                            "json.encode: indent value must be between 0 and 4",
                        ));
                    }
                    let plain = starlark_to_plain(v).map_err(|e| prefixed("json.encode", e))?;
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
                    let j: serde_json::Value = serde_json::from_str(s)
                        .map_err(|e| SError::new(format!("json.decode: {e}")))?;
                    Ok(plain_to_starlark(&json_to_plain(&j)))
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
                    let v = args.unpack("toml.encode", &["value", "indent?"])?;
                    let plain = starlark_to_plain(v[0].as_ref().expect("arg"))
                        .map_err(|e| prefixed("toml.encode", e))?;
                    let indent = match &v[1] {
                        None => 0,
                        Some(i) => i.as_int().ok_or_else(|| {
                            SError::new(format!(
                                "toml.encode: expected indent to be an int, but was {}",
                                i.type_name()
                            ))
                        })?,
                    };
                    if !(0..=8).contains(&indent) {
                        return Err(SError::new("indent value must be between 0 and 8"));
                    }
                    // As the Go encoder: its two-space default stays unless indent > 0.
                    let unit = if indent > 0 { indent as usize } else { 2 };
                    Ok(Value::str(
                        &super::toml::encode(&plain, unit).map_err(SError::new)?,
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
                    let engine = base64_engine("base64.encode", args)?;
                    Ok(Value::str(&engine.encode(s.as_bytes())))
                }),
            ),
            (
                "decode",
                native("base64.decode", |_t, args| {
                    let s = str_arg("base64.decode", args)?;
                    let engine = base64_engine("base64.decode", args)?;
                    // Go's decoder skips line breaks.
                    let text: Vec<u8> = s.bytes().filter(|b| !matches!(b, b'\r' | b'\n')).collect();
                    let b = engine.decode(&text).map_err(|e| {
                        SError::new(format!("base64.decode: {}", base64_error(e, text.len())))
                    })?;
                    Ok(Value::str(&String::from_utf8_lossy(&b)))
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
