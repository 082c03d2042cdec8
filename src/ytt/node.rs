//! The tree a template evaluates to: documents, map items and array items that carry
//! their template position and their evaluated annotations (`overlay/match` with its
//! Starlark arguments, `data/values`, ...). Overlays and data values work on this tree;
//! [`Node::to_value`] turns it into a plain [`crate::yaml::Value`] for the emitter.
//!
//! A map or array a fragment placed is a [`Node::Shared`] cell: ytt places a fragment's
//! `yamlmeta` node by pointer, so every place holding the same fragment holds the same
//! node, and an overlay that edits it at one place edits it at all. Only the overlays
//! edit through the cell; every other reader of a template's result gets it with the
//! cells copied out ([`Node::unshare`]).

use std::cell::RefCell;
use std::rc::Rc;

use crate::yaml::Value;
use crate::ytt::starlark::Value as SValue;

/// A position in a template (file and 1-based line).
#[derive(Debug, Clone, PartialEq)]
pub struct Pos {
    pub file: Rc<str>,
    pub line: usize,
}

impl Default for Pos {
    /// No position: an empty file name (shared, so that making one allocates nothing) and
    /// line 0.
    fn default() -> Self {
        thread_local! {
            static NO_FILE: Rc<str> = Rc::from("");
        }
        Pos {
            file: NO_FILE.with(Rc::clone),
            line: 0,
        }
    }
}

impl Pos {
    /// The position a `file:line` place (as [`Pos`] displays one) names; a place with
    /// no line number is taken whole as the file, at an unknown line.
    pub fn parse_place(place: &str) -> Pos {
        match place.rsplit_once(':') {
            Some((file, line)) => match line.parse() {
                Ok(line) => Pos {
                    file: file.into(),
                    line,
                },
                Err(_) => Pos {
                    file: place.into(),
                    line: 0,
                },
            },
            None => Pos {
                file: place.into(),
                line: 0,
            },
        }
    }
}

impl std::fmt::Display for Pos {
    /// `file:line`, as ytt prints a position; a node made in memory (line 0) prints its
    /// line as `?`, and without a file just `?`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.file.is_empty(), self.line) {
            (true, 0) => write!(f, "?"),
            (false, 0) => write!(f, "{}:?", self.file),
            _ => write!(f, "{}:{}", self.file, self.line),
        }
    }
}

/// An evaluated annotation: `#@name args`.
#[derive(Clone)]
pub struct Ann {
    pub name: String,
    pub args: Vec<SValue>,
    pub kwargs: Vec<(String, SValue)>,
    pub pos: Pos,
}

impl std::fmt::Debug for Ann {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "@{}", self.name)
    }
}

impl Ann {
    /// A keyword argument by name.
    pub fn kwarg(&self, name: &str) -> Option<&SValue> {
        self.kwargs.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

/// Position and annotations of a document, map item or array item.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    pub pos: Pos,
    pub anns: Vec<Ann>,
    /// For output documents: the template file whose output they are part of.
    pub origin: Option<Rc<str>>,
    /// The value was computed (`#@ expr`, or built from a Starlark value), not written in
    /// YAML. ytt drops empty documents written in YAML but prints computed empty
    /// collections; and an integer that went through Starlark is a Go `int64` to ytt
    /// where go-yaml gives an `int` (as `@overlay/assert` messages name them).
    pub computed: bool,
}

impl Meta {
    pub fn at(pos: Pos) -> Meta {
        Meta {
            pos,
            anns: Vec::new(),
            origin: None,
            computed: false,
        }
    }

    /// The annotation named `name`, if present.
    pub fn ann(&self, name: &str) -> Option<&Ann> {
        self.anns.iter().find(|a| a.name == name)
    }

    pub fn has(&self, name: &str) -> bool {
        self.ann(name).is_some()
    }
}

/// A value node: a scalar, a map or an array.
#[derive(Debug, Clone)]
pub enum Node {
    Scalar(Value),
    Map(Vec<MapItem>),
    Array(Vec<ArrayItem>),
    /// A map or array held by several places (cloning the node shares it, as copying a
    /// Go pointer does).
    Shared(Shared),
}

/// The cell of a [`Node::Shared`]: a map or array node.
#[derive(Clone)]
pub struct Shared(pub Rc<RefCell<Node>>);

impl Shared {
    pub fn new(n: Node) -> Shared {
        Shared(Rc::new(RefCell::new(n)))
    }
}

/// A node seen through its cell when it is shared: derefs to a map, array or scalar.
pub enum View<'a> {
    Plain(&'a Node),
    Cell(std::cell::Ref<'a, Node>),
}

impl std::ops::Deref for View<'_> {
    type Target = Node;
    fn deref(&self) -> &Node {
        match self {
            View::Plain(n) => n,
            View::Cell(r) => r,
        }
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Shared({:?})", self.0.borrow())
    }
}

/// A key/value pair of a map.
#[derive(Debug, Clone)]
pub struct MapItem {
    pub key: Value,
    pub value: Node,
    pub meta: Meta,
}

/// An array element.
#[derive(Debug, Clone)]
pub struct ArrayItem {
    pub value: Node,
    pub meta: Meta,
}

/// A document.
#[derive(Debug, Clone)]
pub struct Doc {
    pub value: Node,
    pub meta: Meta,
}

impl Doc {
    /// Whether ytt prints the document: null documents never, empty maps and arrays only
    /// when they were computed (`--- #@ {}`), not written in YAML (`--- {}`).
    pub fn printed(&self) -> bool {
        !self.value.is_empty_doc() || (self.meta.computed && !matches!(self.value, Node::Scalar(_)))
    }
}

impl Node {
    pub fn null() -> Node {
        Node::Scalar(Value::Null)
    }

    /// The plain value (annotations dropped).
    pub fn to_value(&self) -> Value {
        match self {
            Node::Scalar(v) => v.clone(),
            Node::Map(items) => Value::Map(
                items
                    .iter()
                    .map(|i| (i.key.clone(), i.value.to_value()))
                    .collect(),
            ),
            Node::Array(items) => Value::Array(items.iter().map(|i| i.value.to_value()).collect()),
            Node::Shared(s) => s.0.borrow().to_value(),
        }
    }

    /// The node itself, or the contents of its cell when it is shared (never a cell).
    pub fn view(&self) -> View<'_> {
        match self {
            Node::Shared(s) => View::Cell(s.0.borrow()),
            n => View::Plain(n),
        }
    }

    /// A node placed at several places: a map or array becomes one cell they share
    /// (a cell stays the same cell); a scalar is simply copied.
    pub fn into_shared(self) -> Node {
        match self {
            Node::Map(_) | Node::Array(_) => Node::Shared(Shared::new(self)),
            n => n,
        }
    }

    /// Turns every map and array below this node into a shared cell, as every ytt node
    /// is a pointer: what is placed again from the tree shares them.
    pub fn share_below(&mut self) {
        match self {
            Node::Map(items) => items.iter_mut().for_each(|i| i.value.share()),
            Node::Array(items) => items.iter_mut().for_each(|i| i.value.share()),
            Node::Scalar(_) | Node::Shared(_) => {}
        }
    }

    /// [`Node::share_below`], then the node itself (a map or array) becomes a cell.
    pub fn share(&mut self) {
        if matches!(self, Node::Map(_) | Node::Array(_)) {
            self.share_below();
            let n = std::mem::replace(self, Node::Scalar(Value::Null));
            *self = Node::Shared(Shared::new(n));
        }
    }

    /// The node with every shared cell in it copied out: a tree of its own.
    pub fn unshared(&self) -> Node {
        let mut n = self.clone();
        n.unshare();
        n
    }

    /// Replaces every shared cell in the tree by a copy of its contents.
    pub fn unshare(&mut self) {
        match self {
            Node::Scalar(_) => {}
            Node::Map(items) => items.iter_mut().for_each(|i| i.value.unshare()),
            Node::Array(items) => items.iter_mut().for_each(|i| i.value.unshare()),
            Node::Shared(s) => {
                let mut n = s.0.borrow().clone();
                n.unshare();
                *self = n;
            }
        }
    }

    /// [`Node::to_value`] for a tree that is no longer needed: moves the scalars
    /// instead of copying them.
    pub fn into_value(self) -> Value {
        match self {
            Node::Scalar(v) => v,
            Node::Map(items) => Value::Map(
                items
                    .into_iter()
                    .map(|i| (i.key, i.value.into_value()))
                    .collect(),
            ),
            Node::Array(items) => {
                Value::Array(items.into_iter().map(|i| i.value.into_value()).collect())
            }
            Node::Shared(s) => s.0.borrow().to_value(),
        }
    }

    /// A node tree for a plain value; every item gets position `pos`.
    pub fn from_value(v: &Value, pos: &Pos) -> Node {
        match v {
            Value::Map(items) => Node::Map(
                items
                    .iter()
                    .map(|(k, v)| MapItem {
                        key: k.clone(),
                        value: Node::from_value(v, pos),
                        meta: Meta::at(pos.clone()),
                    })
                    .collect(),
            ),
            Value::Array(items) => Node::Array(
                items
                    .iter()
                    .map(|v| ArrayItem {
                        value: Node::from_value(v, pos),
                        meta: Meta::at(pos.clone()),
                    })
                    .collect(),
            ),
            v => Node::Scalar(v.clone()),
        }
    }

    /// ytt's type name of a node in messages (`map`, `array`, `string`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Scalar(v) => v.type_name(),
            Node::Map(_) => "map",
            Node::Array(_) => "array",
            Node::Shared(s) => s.0.borrow().type_name(),
        }
    }

    /// ytt's notion of an empty document: null, `{}` or `[]`.
    pub fn is_empty_doc(&self) -> bool {
        match self {
            Node::Scalar(Value::Null) => true,
            Node::Map(i) => i.is_empty(),
            Node::Array(i) => i.is_empty(),
            Node::Shared(s) => s.0.borrow().is_empty_doc(),
            _ => false,
        }
    }
}
