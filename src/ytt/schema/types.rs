//! The values schema as a tree of types: what each data value may hold, its default,
//! its documentation (`title`, `desc`, `examples`, `deprecated`) and its validations.
//! Built from an evaluated `#@data/values-schema` document by
//! [`super::build::build_doc`].

use crate::yaml::Value;
use crate::ytt::node::{Node, Pos};

use super::validation::Validation;

/// The shape of a value.
#[derive(Clone)]
pub enum Kind {
    /// A map with exactly these keys, in schema order.
    Map(Vec<Field>),
    /// An array whose items all have this type.
    Array(Box<Type>),
    String,
    Int,
    Float,
    Bool,
    /// `#@schema/type any=True`: anything goes.
    Any,
}

/// A key of a map type.
#[derive(Clone)]
pub struct Field {
    pub key: Value,
    pub ty: Type,
}

/// Documentation of a node.
#[derive(Clone, Default)]
pub struct Docs {
    pub title: Option<String>,
    pub desc: Option<String>,
    /// `(description, example)` pairs in order.
    pub examples: Vec<(String, Value)>,
    /// `#@schema/deprecated "notice"`.
    pub deprecated: Option<String>,
}

/// The type of one node of the data values.
#[derive(Clone)]
pub struct Type {
    pub kind: Kind,
    pub nullable: bool,
    /// Where the type was defined (the map item, array item or document).
    pub pos: Pos,
    /// The default value (arrays: `[]` unless `#@schema/default`).
    pub default: Node,
    pub docs: Docs,
    pub validations: Vec<Validation>,
}

impl Type {
    /// ytt's name of the type in messages (`string`, `integer`, `map`, ...).
    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Map(_) => "map",
            Kind::Array(_) => "array",
            Kind::String => "string",
            Kind::Int => "integer",
            Kind::Float => "float",
            Kind::Bool => "boolean",
            Kind::Any => "any",
        }
    }

    /// The type of a map's key, if declared.
    pub fn field(&self, key: &Value) -> Option<&Type> {
        match &self.kind {
            Kind::Map(fields) => fields.iter().find(|f| &f.key == key).map(|f| &f.ty),
            _ => None,
        }
    }

    /// True when `node` (a scalar) fits this type (ignores nested structure).
    pub fn accepts_shape(&self, node: &Node) -> bool {
        match (&self.kind, node) {
            (Kind::Any, _) => true,
            (_, Node::Scalar(Value::Null)) => self.nullable,
            (Kind::Map(_), Node::Map(_)) => true,
            (Kind::Array(_), Node::Array(_)) => true,
            (Kind::String, Node::Scalar(Value::String(_))) => true,
            (Kind::Int, Node::Scalar(Value::Int(_))) => true,
            (Kind::Float, Node::Scalar(Value::Float(_) | Value::Int(_))) => true,
            (Kind::Bool, Node::Scalar(Value::Bool(_))) => true,
            _ => false,
        }
    }
}
