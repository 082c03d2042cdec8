//! The Go type names (`%T`) ytt puts in some of its messages ("Expected map, but was
//! *yamlmeta.Array", "expected starlark.Bool, but was starlark.String", "unknown type
//! *starlark.Function for conversion to go value"): for YAML nodes as ytt holds them, and
//! for Starlark values as its interpreter holds them.

use crate::yaml::Value;
use crate::ytt::node::Node;
use crate::ytt::starlark::Value as SValue;

/// The Go type of a YAML node's value in ytt (scalars as go-yaml decodes them).
pub fn of_node(n: &Node) -> &'static str {
    match n {
        Node::Map(_) => "*yamlmeta.Map",
        Node::Array(_) => "*yamlmeta.Array",
        Node::Scalar(v) => of_scalar(v),
        Node::Shared(s) => of_node(&s.0.borrow()),
    }
}

/// ytt's user-friendly name of a node's type (`yamlmeta.TypeName`), as its overlay
/// errors print it: `map`, `array`, `null`, `boolean`, `integer`, `float`, `string`.
pub fn friendly_name(n: &Node) -> &'static str {
    match n {
        Node::Map(_) => "map",
        Node::Array(_) => "array",
        Node::Scalar(Value::Null) => "null",
        Node::Scalar(Value::Bool(_)) => "boolean",
        Node::Scalar(Value::Int(_)) => "integer",
        Node::Scalar(Value::Float(_)) => "float",
        Node::Scalar(v) => of_scalar(v),
        Node::Shared(s) => friendly_name(&s.0.borrow()),
    }
}

/// The Go type of a scalar as go-yaml decodes it.
pub fn of_scalar(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Float(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Map(_) => "*orderedmap.Map",
    }
}

/// The Go type of a Starlark value in ytt's interpreter.
pub fn of_starlark(v: &SValue) -> String {
    match v {
        SValue::None => "starlark.NoneType".into(),
        SValue::Bool(_) => "starlark.Bool".into(),
        SValue::Int(_) | SValue::BigInt(_) => "starlark.Int".into(),
        SValue::Float(_) => "starlark.Float".into(),
        SValue::Str(_) => "starlark.String".into(),
        SValue::List(_) => "*starlark.List".into(),
        SValue::Tuple(_) => "starlark.Tuple".into(),
        SValue::Dict(_) => "*starlark.Dict".into(),
        SValue::Set(_) => "*starlark.Set".into(),
        SValue::Range(_) => "starlark.rangeValue".into(),
        SValue::Function(_) => "*starlark.Function".into(),
        SValue::Builtin(_) => "*starlark.Builtin".into(),
        SValue::StrIter(..) => "starlark.stringIterable".into(),
        SValue::Host(h) => match h.type_name().as_str() {
            "struct" => "*core.StarlarkStruct".into(),
            "yamlfragment" => "*yamltemplate.StarlarkFragment".into(),
            "builtin_function_or_method" => "*starlark.Builtin".into(),
            "module" => "*starlarkstruct.Module".into(),
            "@ytt:ip.addr" => "*yttlibrary.IPAddrValue".into(),
            "@ytt:ip.net" => "*yttlibrary.IPNetValue".into(),
            "@ytt:url.value" => "*yttlibrary.URLValue".into(),
            "@ytt:url.user" => "*yttlibrary.URLUser".into(),
            "@ytt:assert.assertion" => "*yttlibrary.Assertion".into(),
            other => other.to_string(),
        },
    }
}

/// A YAML value (a map key, mostly) as Go's `%s` prints it, which ytt uses for keys in
/// its messages: strings as they are, other types in Go's wrong-verb form
/// (`%!s(int=1)`, `%!s(bool=true)`, `%!s(<nil>)`), as go-yaml decodes them.
pub fn percent_s(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        Value::Null => "%!s(<nil>)".to_string(),
        Value::Bool(b) => format!("%!s(bool={b})"),
        Value::Int(i) if *i > i64::MAX as i128 => format!("%!s(uint64={i})"),
        Value::Int(i) => format!("%!s(int={i})"),
        Value::Float(f) => format!("%!s(float64={})", float_v(*f)),
        other => format!("%!s({})", other.type_name()),
    }
}

/// A float as Go's `%v` prints it: shortest digits, exponent form below 1e-4 or from
/// 1e21 on.
pub fn float_v(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-4..1e21).contains(&abs) {
        let e = format!("{f:e}");
        let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mant}e{sign}{:02}", exp.abs());
    }
    format!("{f}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_go_prints_them() {
        assert_eq!(of_node(&Node::Array(vec![])), "*yamlmeta.Array");
        assert_eq!(of_node(&Node::Scalar(Value::Float(1.0))), "float64");
        assert_eq!(of_starlark(&SValue::str("x")), "starlark.String");
        assert_eq!(of_starlark(&SValue::None), "starlark.NoneType");
    }

    #[test]
    fn percent_s_as_go_prints_non_strings() {
        assert_eq!(percent_s(&Value::Int(3)), "%!s(int=3)");
        assert_eq!(
            percent_s(&Value::Int(u64::MAX as i128)),
            "%!s(uint64=18446744073709551615)"
        );
        assert_eq!(percent_s(&Value::Bool(true)), "%!s(bool=true)");
        assert_eq!(percent_s(&Value::Null), "%!s(<nil>)");
        assert_eq!(percent_s(&Value::Float(0.5)), "%!s(float64=0.5)");
        assert_eq!(percent_s(&Value::String("k".into())), "k");
        assert_eq!(float_v(1e21), "1e+21");
        assert_eq!(float_v(1.5), "1.5");
    }
}
