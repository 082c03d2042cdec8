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
        SValue::StrIter(..) => "starlark.stringElems".into(),
        SValue::Host(h) => match h.type_name().as_str() {
            "struct" => "*core.StarlarkStruct".into(),
            "yamlfragment" => "*yamltemplate.StarlarkFragment".into(),
            "builtin_function_or_method" => "*starlark.Builtin".into(),
            "module" => "*starlarkstruct.Module".into(),
            "@ytt:ip.addr" => "*yttlibrary.IPAddrValue".into(),
            "@ytt:ip.net" => "*yttlibrary.IPNetValue".into(),
            "@ytt:assert.assertion" => "*yttlibrary.Assertion".into(),
            other => other.to_string(),
        },
    }
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
}
