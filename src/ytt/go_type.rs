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

/// The Go type of what ytt converts a Starlark value to before it sets it on a node
/// (`core.NewStarlarkValue(v).AsGoValue()`): ints become `int64` (or `uint64` past it),
/// lists, tuples and sets `[]interface {}`, dicts and structs `*orderedmap.Map`, and a
/// YAML fragment the node it holds.
pub fn of_go_value(v: &SValue) -> String {
    use crate::ytt::fragment::{Frag, Fragment};
    match v {
        SValue::None => "<nil>".into(),
        SValue::Bool(_) => "bool".into(),
        SValue::Int(i) if i64::try_from(*i).is_ok() => "int64".into(),
        SValue::Int(_) | SValue::BigInt(_) => "uint64".into(),
        SValue::Float(_) => "float64".into(),
        SValue::Str(_) => "string".into(),
        SValue::List(_) | SValue::Tuple(_) | SValue::Set(_) => "[]interface {}".into(),
        SValue::Dict(_) => "*orderedmap.Map".into(),
        SValue::Host(h) => match h.as_any().downcast_ref::<Fragment>().map(|f| &f.0) {
            Some(Frag::Map(_)) => "*yamlmeta.Map".into(),
            Some(Frag::Array(_)) => "*yamlmeta.Array".into(),
            Some(Frag::DocSet(_)) => "*yamlmeta.DocumentSet".into(),
            Some(Frag::Nil) => "<nil>".into(),
            None if h.type_name() == "struct" => "*orderedmap.Map".into(),
            None => of_starlark(v),
        },
        other => of_starlark(other),
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
        assert_eq!(of_go_value(&SValue::Int(3)), "int64");
        assert_eq!(of_go_value(&SValue::None), "<nil>");
    }
}
