//! Encoders and decoders: `@ytt:yaml`, `@ytt:json`, `@ytt:base64`, `@ytt:url`, `@ytt:toml`.

use base64::Engine;

use crate::yaml::Value as Y;
use crate::ytt::eval::fragment::{plain_to_starlark, starlark_to_plain};
use crate::ytt::starlark::{Args, Error as SError, Module, Value};

use super::{SResult, module, native, struct_value};

fn str_arg<'a>(fname: &str, args: &'a Args) -> SResult<&'a str> {
    args.pos
        .first()
        .and_then(|v| v.as_str())
        .ok_or_else(|| SError::new(format!("{fname}: expected a string argument")))
}

pub fn yaml_module() -> Module {
    module(
        "@ytt:yaml",
        vec![
            (
                "encode",
                native("yaml.encode", |_t, args| {
                    let v = args.positional("yaml.encode", 1, 1)?;
                    let plain = starlark_to_plain(v[0].as_ref().expect("arg"))?;
                    let s = crate::yaml::to_yaml_document(&plain)
                        .map_err(|e| SError::new(format!("yaml.encode: {e}")))?;
                    Ok(Value::str(&s))
                }),
            ),
            (
                "decode",
                native("yaml.decode", |_t, args| {
                    let s = str_arg("yaml.decode", args)?;
                    let ds = crate::yaml::parse_document_set(s, "yaml.decode")
                        .map_err(|e| SError::new(format!("yaml.decode: {}", e.message)))?;
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
        serde_json::Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Y::Int(i as i128)
            } else if let Some(u) = n.as_u64() {
                Y::Int(u as i128)
            } else {
                Y::Float(n.as_f64().unwrap_or(0.0))
            }
        }
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
                    let v = args.unpack("json.encode", &["value", "indent?"])?;
                    let plain = starlark_to_plain(v[0].as_ref().expect("arg"))?;
                    let indent = v[1].as_ref().and_then(|i| i.as_int()).unwrap_or(0);
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
                    let v = args.positional("toml.encode", 1, 1)?;
                    let plain = starlark_to_plain(v[0].as_ref().expect("arg"))?;
                    Ok(Value::str(
                        &super::toml::encode(&plain).map_err(SError::new)?,
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
                    Ok(Value::str(
                        &base64::engine::general_purpose::STANDARD.encode(s.as_bytes()),
                    ))
                }),
            ),
            (
                "decode",
                native("base64.decode", |_t, args| {
                    let s = str_arg("base64.decode", args)?;
                    let b = base64::engine::general_purpose::STANDARD
                        .decode(s.as_bytes())
                        .map_err(|e| SError::new(format!("base64.decode: {e}")))?;
                    Ok(Value::str(&String::from_utf8_lossy(&b)))
                }),
            ),
        ],
    )
}

/// What Go's `url.PathEscape`/`url.QueryEscape` leave as is here: letters, digits, `-_.~`.
const URL_ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

fn escape(s: &str, path_segment: bool) -> String {
    let escaped = percent_encoding::utf8_percent_encode(s, URL_ESCAPED).to_string();
    if path_segment {
        escaped
    } else {
        escaped.replace("%20", "+")
    }
}

fn unescape(s: &str, plus_space: bool) -> SResult<String> {
    // A `%` must start two hex digits (percent_decode would keep it as it is).
    let bytes = s.as_bytes();
    let bad_escape = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'%'
            && bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| !h.iter().all(u8::is_ascii_hexdigit))
    });
    if bad_escape {
        return Err(SError::new(format!("invalid URL escape in '{s}'")));
    }
    let spaced;
    let s = if plus_space {
        spaced = s.replace('+', " ");
        &spaced
    } else {
        s
    };
    Ok(percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned())
}

pub fn url_module() -> Module {
    module(
        "@ytt:url",
        vec![
            (
                "path_segment_encode",
                native("url.path_segment_encode", |_t, a| {
                    Ok(Value::str(&escape(
                        str_arg("url.path_segment_encode", a)?,
                        true,
                    )))
                }),
            ),
            (
                "path_segment_decode",
                native("url.path_segment_decode", |_t, a| {
                    Ok(Value::str(&unescape(
                        str_arg("url.path_segment_decode", a)?,
                        false,
                    )?))
                }),
            ),
            (
                "query_param_value_encode",
                native("url.query_param_value_encode", |_t, a| {
                    Ok(Value::str(&escape(
                        str_arg("url.query_param_value_encode", a)?,
                        false,
                    )))
                }),
            ),
            (
                "query_param_value_decode",
                native("url.query_param_value_decode", |_t, a| {
                    Ok(Value::str(&unescape(
                        str_arg("url.query_param_value_decode", a)?,
                        true,
                    )?))
                }),
            ),
            (
                "query_params_encode",
                native("url.query_params_encode", |_t, a| {
                    let v = a.positional("url.query_params_encode", 1, 1)?;
                    let plain = starlark_to_plain(v[0].as_ref().expect("arg"))?;
                    let Y::Map(mut items) = plain else {
                        return Err(SError::new("url.query_params_encode: expected a dict"));
                    };
                    items.sort_by_key(|a| a.0.to_display_string());
                    let mut parts = Vec::new();
                    for (k, v) in items {
                        let k = escape(&k.to_display_string(), false);
                        let vals = match v {
                            Y::Array(vs) => vs,
                            other => vec![other],
                        };
                        for v in vals {
                            parts.push(format!("{k}={}", escape(&v.to_display_string(), false)));
                        }
                    }
                    Ok(Value::str(&parts.join("&")))
                }),
            ),
            (
                "query_params_decode",
                native("url.query_params_decode", |_t, a| {
                    let s = str_arg("url.query_params_decode", a)?;
                    let mut items: Vec<(String, Vec<Y>)> = Vec::new();
                    for part in s.split('&').filter(|p| !p.is_empty()) {
                        let (k, v) = part.split_once('=').unwrap_or((part, ""));
                        let (k, v) = (unescape(k, true)?, unescape(v, true)?);
                        match items.iter_mut().find(|(x, _)| *x == k) {
                            Some((_, vs)) => vs.push(Y::String(v)),
                            None => items.push((k, vec![Y::String(v)])),
                        }
                    }
                    items.sort_by(|a, b| a.0.cmp(&b.0));
                    Ok(plain_to_starlark(&Y::Map(
                        items
                            .into_iter()
                            .map(|(k, v)| (Y::String(k), Y::Array(v)))
                            .collect(),
                    )))
                }),
            ),
            (
                "parse",
                native("url.parse", |_t, a| {
                    let s = str_arg("url.parse", a)?.to_string();
                    let u =
                        url::Url::parse(&s).map_err(|e| SError::new(format!("url.parse: {e}")))?;
                    Ok(url_value(u))
                }),
            ),
        ],
    )
}

fn url_value(u: url::Url) -> Value {
    let user = if u.username().is_empty() {
        Value::None
    } else {
        let name = u.username().to_string();
        let pw = u.password().map(|p| p.to_string());
        struct_value(
            "user",
            vec![
                ("name", Value::str(&name)),
                (
                    "password",
                    pw.map(|p| Value::str(&p)).unwrap_or(Value::None),
                ),
            ],
        )
    };
    let u1 = u.clone();
    let u2 = u.clone();
    let u3 = u.clone();
    struct_value(
        "url",
        vec![
            ("user", user),
            (
                "hostname",
                native("url.hostname", move |_t, _a| {
                    Ok(Value::str(u1.host_str().unwrap_or("")))
                }),
            ),
            (
                "string",
                native("url.string", move |_t, _a| Ok(Value::str(u2.as_str()))),
            ),
            (
                "without_user",
                native("url.without_user", move |_t, _a| {
                    let mut v = u3.clone();
                    let _ = v.set_username("");
                    let _ = v.set_password(None);
                    Ok(url_value(v))
                }),
            ),
        ],
    )
}
