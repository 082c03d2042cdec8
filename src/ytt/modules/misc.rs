//! Small `@ytt:*` modules: `template`, `struct`, `regexp`, `version`, `ip`.

use std::rc::Rc;

use std::any::Any;

use crate::ytt::fragment::{Noop, Replace, ReplaceHook};
use crate::ytt::starlark::{Args, Error as SError, Interpreter, Module, Struct, Value};

use super::{SResult, module, native, string_arg, unconvertible_value};

/// `@ytt:template` for the file whose thread carries `hook` (see [`ReplaceHook`]):
/// `template.replace(x)` replaces the current node at once and returns a `noop`, as
/// ytt's `TplReplace` does; without a node being built it returns a marker that replaces
/// the node it is set on.
pub fn template_module(hook: Option<Rc<dyn Any>>) -> Module {
    module(
        "@ytt:template",
        vec![(
            "replace",
            native("template.replace", move |t, a| {
                // As in ytt, keyword arguments are ignored.
                let [v] = a.pos.as_slice() else {
                    return Err(SError::new(
                        "template.replace: expected exactly one argument",
                    ));
                };
                if let Some(h) = hook.as_ref().and_then(|h| h.downcast_ref::<ReplaceHook>())
                    && (h.0)(v, t.depth())?
                {
                    return Ok(Value::Host(Rc::new(Noop)));
                }
                Ok(Value::Host(Rc::new(Replace(v.clone()))))
            }),
        )],
    )
}

fn struct_make(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    if !a.pos.is_empty() {
        return Err(SError::new(
            "struct.make: unexpected positional arguments (structs are made from keyword arguments only)",
        ));
    }
    Ok(Value::host(Struct::new(
        a.kwargs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )))
}

/// dicts (recursively) → structs.
fn encode(v: &Value) -> SResult<Value> {
    Ok(match v {
        Value::Dict(d) => {
            let mut fields = Vec::new();
            for (k, v) in d.map.borrow().entries() {
                let k = k.as_str().ok_or_else(|| {
                    SError::new("struct.encode: expected dict keys to be strings")
                })?;
                fields.push((k.to_string(), encode(v)?));
            }
            Value::host(Struct::new(fields))
        }
        Value::List(l) => {
            let items: SResult<Vec<Value>> = l.items.borrow().iter().map(encode).collect();
            Value::list(items?)
        }
        Value::Tuple(t) => {
            let items: SResult<Vec<Value>> = t.iter().map(encode).collect();
            Value::list(items?)
        }
        // ytt's struct.encode does not know YAML fragments.
        Value::Host(h) if h.as_any().is::<crate::ytt::fragment::Fragment>() => {
            use crate::ytt::fragment::{Frag, Fragment};
            let go_type = match h
                .as_any()
                .downcast_ref::<Fragment>()
                .map(|f| f.frag())
                .as_deref()
            {
                Some(Frag::Map(_)) => "*yamlmeta.Map",
                Some(Frag::Array(_)) => "*yamlmeta.Array",
                _ => "*yamlmeta.DocumentSet",
            };
            return Err(SError::new(format!(
                "struct.encode: unknown type {go_type} for conversion to starlark value"
            )));
        }
        Value::Host(h) => match h.as_any().downcast_ref::<Struct>() {
            Some(Struct {
                conversion_hint: Some(hint),
                ..
            }) => {
                return Err(SError::new(format!(
                    "struct.encode: Unable to convert value: {hint}"
                )));
            }
            _ => v.clone(),
        },
        other => other.clone(),
    })
}

/// structs (recursively) → dicts.
fn decode(v: &Value) -> SResult<Value> {
    Ok(match v {
        Value::Host(h) => match h.as_any().downcast_ref::<Struct>() {
            Some(s) => {
                let mut m = crate::ytt::starlark::OrderedMap::new();
                for (k, v) in &s.fields {
                    m.insert(Value::str(k), decode(v)?)?;
                }
                Value::dict(m)
            }
            None => v.clone(),
        },
        Value::List(l) => {
            let items: SResult<Vec<Value>> = l.items.borrow().iter().map(decode).collect();
            Value::list(items?)
        }
        Value::Dict(d) => {
            let mut m = crate::ytt::starlark::OrderedMap::new();
            for (k, v) in d.map.borrow().entries() {
                m.insert(k.clone(), decode(v)?)?;
            }
            Value::dict(m)
        }
        other => other.clone(),
    })
}

/// `f` with its first arguments fixed to `bound`: ytt's `struct.bind_result`, whose
/// errors carry that name.
fn bound_call(f: Value, bound: Vec<Value>) -> Value {
    Value::native("struct.bind_result", move |t, args: &Args| {
        let mut pos = bound.clone();
        pos.extend(args.pos.iter().cloned());
        t.call(
            &f,
            Args {
                pos,
                kwargs: args.kwargs.clone(),
            },
        )
        .map_err(|mut e| {
            e.msg = format!("struct.bind_result: {}", e.msg);
            e
        })
    })
}

/// Functions, builtins and callable host values (such as overlay matchers).
fn is_callable(v: &Value) -> bool {
    match v {
        Value::Function(_) | Value::Builtin(_) => true,
        Value::Host(h) => h.type_name() == "builtin_function_or_method",
        _ => false,
    }
}

pub fn struct_module() -> Module {
    module(
        "@ytt:struct",
        vec![
            ("make", native("struct.make", struct_make)),
            (
                "make_and_bind",
                native("struct.make_and_bind", |_t, a| {
                    // Callable values are bound to the receiver (f(recv, ...)); any
                    // other value becomes a plain field, as given.
                    let [recv] = a.pos.as_slice() else {
                        return Err(SError::new(
                            "struct.make_and_bind: expected at exactly one argument",
                        ));
                    };
                    let mut fields = Vec::new();
                    for (k, f) in &a.kwargs {
                        if !is_callable(f) {
                            fields.push((k.to_string(), f.clone()));
                            continue;
                        }
                        let (f, r) = (f.clone(), recv.clone());
                        fields.push((k.to_string(), bound_call(f, vec![r])));
                    }
                    Ok(Value::host(Struct::new(fields)))
                }),
            ),
            (
                "bind",
                native("struct.bind", |_t, a| {
                    // struct.bind(f, *args): f with its first arguments fixed.
                    if a.pos.len() < 2 {
                        return Err(SError::new("struct.bind: expected at least two arguments"));
                    }
                    Ok(bound_call(a.pos[0].clone(), a.pos[1..].to_vec()))
                }),
            ),
            (
                "encode",
                native("struct.encode", |_t, a| {
                    let [v] = a.pos.as_slice() else {
                        return Err(SError::new("struct.encode: expected exactly one argument"));
                    };
                    encode(v)
                }),
            ),
            (
                "decode",
                native("struct.decode", |_t, a| {
                    let [v] = a.pos.as_slice() else {
                        return Err(SError::new("struct.decode: expected exactly one argument"));
                    };
                    decode(v)
                }),
            ),
        ],
    )
}

/// `@ytt:module`: `module.make(name, **members)` is starlark-go's `MakeModule`, a
/// module value (type `module`, printed `<module "name">`) whose members are the
/// keyword arguments. Its name is unpacked by `UnpackPositionalArgs`, whose messages
/// name the built-in once more after ytt's own prefix.
pub fn module_module() -> Module {
    module(
        "@ytt:module",
        vec![(
            "make",
            native("module.make", |_t, a| {
                const NAME: &str = "module.make";
                let name = match a.pos.as_slice() {
                    [v] => v.as_str().ok_or_else(|| {
                        SError::new(format!(
                            "{NAME}: {NAME}: for parameter 1: got {}, want string",
                            v.type_name()
                        ))
                    })?,
                    other => {
                        return Err(SError::new(format!(
                            "{NAME}: {NAME}: got {} arguments, want 1",
                            other.len()
                        )));
                    }
                };
                let members = a
                    .kwargs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                Ok(Value::host(Struct::module(name, members)))
            }),
        )],
    )
}

pub fn regexp_module() -> Module {
    // Go's words for a pattern Go refuses, after the function's name (as ytt wraps
    // the errors of its builtins).
    fn re(func: &str, p: &str) -> SResult<regex::Regex> {
        let r = regex::Regex::new(&super::go_regexp::to_rust(p)).map_err(|e| {
            match super::go_regexp::error_of(p) {
                Some(go) => SError::new(format!("{func}: {go}")),
                None => SError::new(format!("{func}: error parsing regexp: {e}")),
            }
        })?;
        match super::go_regexp::go_only_error(p) {
            Some(go) => Err(SError::new(format!("{func}: {go}"))),
            None => Ok(r),
        }
    }
    module(
        "@ytt:regexp",
        vec![
            (
                "match",
                native("regexp.match", |_t, a| {
                    let v = a.positional("regexp.match", 2, 2)?;
                    let p = string_arg("regexp.match", v[0].as_ref().expect("pattern"))?;
                    let s = string_arg("regexp.match", v[1].as_ref().expect("target"))?;
                    Ok(Value::Bool(re("regexp.match", p)?.is_match(s)))
                }),
            ),
            (
                "replace",
                native("regexp.replace", |t, a| {
                    let v = a.positional("regexp.replace", 3, 3)?;
                    let p = string_arg("regexp.replace", v[0].as_ref().expect("pattern"))?;
                    let s = string_arg("regexp.replace", v[1].as_ref().expect("source"))?;
                    let r = re("regexp.replace", p)?;
                    match v[2].as_ref().expect("repl") {
                        Value::Str(repl) => Ok(Value::str(&r.replace_all(s, &**repl))),
                        f => {
                            let mut out = String::new();
                            let mut last = 0;
                            for m in r.find_iter(s) {
                                out.push_str(&s[last..m.start()]);
                                let x = t.call(f, Args::new(vec![Value::str(m.as_str())]))?;
                                out.push_str(x.as_str().ok_or_else(|| {
                                    SError::new("regexp.replace: function must return a string")
                                })?);
                                last = m.end();
                            }
                            out.push_str(&s[last..]);
                            Ok(Value::str(&out))
                        }
                    }
                }),
            ),
        ],
    )
}

/// ytt's own version, as far as `version.require_at_least` is concerned.
const YTT_VERSION: &str = "0.48.0";

pub fn version_module() -> Module {
    module(
        "@ytt:version",
        vec![(
            "require_at_least",
            native("version.require_at_least", |_t, a| {
                let v = a.positional("version.require_at_least", 1, 1)?;
                let want = v[0].as_ref().and_then(|x| x.as_str()).unwrap_or("");
                // As in ytt: strict semver (no `v` prefix, all three parts), and, as
                // hashicorp/go-version compares, build metadata does not count.
                let Ok(mut w) = semver::Version::parse(want) else {
                    return Err(SError::new(format!(
                        "version.require_at_least: version string '{want}' must be a valid semver"
                    )));
                };
                w.build = semver::BuildMetadata::EMPTY;
                let have = semver::Version::parse(YTT_VERSION).expect("own version");
                if have < w {
                    return Err(SError::new(format!(
                        "version.require_at_least: ytt version '{YTT_VERSION}' does not meet the minimum required version '{want}'"
                    )));
                }
                Ok(Value::None)
            }),
        )],
    )
}

/// The one string argument of an `@ytt:ip` function, checked as ytt checks it.
fn ip_string_arg(name: &str, a: &Args) -> SResult<String> {
    if a.pos.len() != 1 {
        return Err(SError::new(format!(
            "{name}: expected exactly one argument"
        )));
    }
    match a.pos[0].as_str() {
        Some(s) => Ok(s.to_string()),
        None => Err(SError::new(format!(
            "{name}: expected a string, but was {}",
            a.pos[0].type_name()
        ))),
    }
}

/// An address as Go's `net.ParseIP` reads it: an IPv4-mapped IPv6 address is IPv4.
fn parse_go_ip(s: &str) -> Option<std::net::IpAddr> {
    match s.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V6(v6) => Some(match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => std::net::IpAddr::V6(v6),
        }),
        v4 => Some(v4),
    }
}

/// A method of an `@ytt:ip` value, named `ip.addr.<name>` or `ip.net.<name>` as ip.go
/// names it; like ytt's, it refuses positional arguments ("expected no argument").
fn ip_method(name: &'static str, f: impl Fn() -> Value + 'static) -> Value {
    native(name, move |_t, a| {
        if a.pos.is_empty() {
            Ok(f())
        } else {
            Err(SError::new(format!("{name}: expected no argument")))
        }
    })
}

fn addr_value(a: std::net::IpAddr) -> Value {
    let s = a.to_string();
    unconvertible_value(
        "@ytt:ip.addr",
        "@ytt:ip.addr does not automatically encode (hint: use .string())",
        vec![
            (
                "is_ipv4",
                ip_method("ip.addr.is_ipv4", move || Value::Bool(a.is_ipv4())),
            ),
            (
                "is_ipv6",
                ip_method("ip.addr.is_ipv6", move || Value::Bool(a.is_ipv6())),
            ),
            (
                "string",
                ip_method("ip.addr.string", move || Value::str(&s)),
            ),
        ],
    )
}

pub fn ip_module() -> Module {
    module(
        "@ytt:ip",
        vec![
            (
                "parse_addr",
                native("ip.parse_addr", |_t, a| {
                    let s = ip_string_arg("ip.parse_addr", a)?;
                    let ip = parse_go_ip(&s).ok_or_else(|| {
                        SError::new(format!("ip.parse_addr: invalid IP address: {s}"))
                    })?;
                    Ok(addr_value(ip))
                }),
            ),
            (
                "parse_cidr",
                native("ip.parse_cidr", |_t, a| {
                    let s = ip_string_arg("ip.parse_cidr", a)?;
                    // Go's net.ParseCIDR: an address, `/`, and decimal digits for at most
                    // the address's bits; any other text is its one error.
                    let bad = || SError::new(format!("ip.parse_cidr: invalid CIDR address: {s}"));
                    let (addr, bits) = s.split_once('/').ok_or_else(bad)?;
                    let ip: std::net::IpAddr = addr.parse().map_err(|_| bad())?;
                    if bits.is_empty() || !bits.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad());
                    }
                    let max = if ip.is_ipv4() { 32 } else { 128 };
                    let bits: u32 = bits.parse().ok().filter(|b| *b <= max).ok_or_else(bad)?;
                    let net = match ip {
                        std::net::IpAddr::V4(v4) => {
                            let m = if bits == 0 {
                                0
                            } else {
                                u32::MAX << (32 - bits.min(32))
                            };
                            std::net::IpAddr::V4((u32::from(v4) & m).into())
                        }
                        std::net::IpAddr::V6(v6) => {
                            let m = if bits == 0 {
                                0
                            } else {
                                u128::MAX << (128 - bits.min(128))
                            };
                            std::net::IpAddr::V6((u128::from(v6) & m).into())
                        }
                    };
                    let net_s = format!("{net}/{bits}");
                    let netv = unconvertible_value(
                        "@ytt:ip.net",
                        "@ytt:ip.net does not automatically encode (hint: use .string())",
                        vec![
                            ("addr", ip_method("ip.net.addr", move || addr_value(net))),
                            (
                                "string",
                                ip_method("ip.net.string", move || Value::str(&net_s)),
                            ),
                        ],
                    );
                    Ok(Value::tuple(vec![addr_value(ip), netv]))
                }),
            ),
        ],
    )
}
