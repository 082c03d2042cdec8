//! Node building at run time: the state behind the `__ytt_*` host calls of one
//! compiled template. A stack of contexts (the file's top level, then one per running
//! def with a YAML or text body); each YAML context holds the node instances built so
//! far, and attaches every new instance to the latest instance of its parent's tag.

use crate::ytt::starlark::fast_hash::FastMap;
use std::rc::Rc;

use crate::yaml::Value;
use crate::ytt::compile::yaml::{AnnSlot, TKind, TNode};
use crate::ytt::fragment::{
    Frag, Fragment, Noop, Replace, starlark_to_node, starlark_to_placed_node, starlark_to_scalar,
};
use crate::ytt::node::{Ann, ArrayItem, Doc, MapItem, Meta, Node, Pos};
use crate::ytt::starlark::{Error as SError, Value as SValue};

type SResult<T> = std::result::Result<T, SError>;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    DocSet,
    Doc,
    Map,
    Array,
    MapItem,
    ArrayItem,
}

#[derive(Debug, Clone)]
enum SlotVal {
    None,
    Scalar(Value),
    Child(usize),
    Built(Node),
}

#[derive(Debug, Clone)]
struct Slot {
    kind: Kind,
    meta: Meta,
    key: Value,
    value: SlotVal,
    children: Vec<usize>,
}

impl Slot {
    /// A slot whose value is already built (a replacement's item or document).
    fn built(kind: Kind, meta: Meta, key: Value, value: Node) -> Slot {
        Slot {
            kind,
            meta,
            key,
            value: SlotVal::Built(value),
            children: Vec::new(),
        }
    }
}

#[derive(Debug, Default)]
struct YamlCtx {
    slots: Vec<Slot>,
    inst: FastMap<usize, usize>,
    root: Option<usize>,
    /// The node started (or set) last, as (slot, tag): what a `template.replace(...)`
    /// statement replaces.
    last: Option<(usize, usize)>,
    /// The node whose value expression is running (`__ytt_at`): ytt's current node then,
    /// what a `template.replace(...)` in that expression replaces.
    target: Option<usize>,
    /// The kind of the node a `template.replace(...)` took out of its parent: it stays
    /// ytt's current node, orphaned, until another node starts.
    orphan: Option<Kind>,
}

#[derive(Debug)]
enum Ctx {
    Yaml(YamlCtx),
    Text(String),
}

/// The node-building state of one template file.
#[derive(Debug)]
pub struct Builder {
    nodes: Rc<Vec<TNode>>,
    stack: Vec<Ctx>,
    pending: FastMap<usize, Vec<Ann>>,
    implicit_overrides: bool,
    /// Call depth at which each context of `stack` was begun (0 for the top level).
    depths: Vec<usize>,
    /// The number in the names of this template's instructions (`__ytt_tpl{N}_...`), as
    /// ytt counts its compiled templates.
    tpl_id: usize,
    /// The file's program has run: its top level builds nothing any more.
    ran: bool,
}

impl Builder {
    pub fn new(nodes: Rc<Vec<TNode>>, implicit_overrides: bool) -> Builder {
        Builder {
            nodes,
            stack: vec![Ctx::Yaml(YamlCtx::default())],
            pending: FastMap::default(),
            implicit_overrides,
            depths: vec![0],
            tpl_id: 2,
            ran: false,
        }
    }

    /// Numbers this template's instructions as ytt's instruction set `id` does.
    pub fn with_tpl_id(mut self, id: usize) -> Builder {
        self.tpl_id = id;
        self
    }

    /// A builder for a text template (`.txt` file): its top context is text.
    pub fn new_text() -> Builder {
        Builder {
            nodes: Rc::new(Vec::new()),
            stack: vec![Ctx::Text(String::new())],
            pending: FastMap::default(),
            implicit_overrides: false,
            depths: vec![0],
            tpl_id: 2,
            ran: false,
        }
    }

    /// Drops contexts of functions that were left by an error (caught, for example, by
    /// `assert.try_to`): those begun deeper than `depth` (or at it, when `inclusive`).
    pub fn unwind(&mut self, depth: usize, inclusive: bool) {
        while self.stack.len() > 1 {
            let d = *self.depths.last().expect("depth");
            if d > depth || (inclusive && d == depth) {
                self.stack.pop();
                self.depths.pop();
            } else {
                break;
            }
        }
    }

    /// Begins a context: `yaml` or `text` for the body of a def (contexts a failed call
    /// left at the same depth are dropped first), `inline-text` for a text-templated
    /// string inside the current context.
    pub fn begin(&mut self, kind: &str, depth: usize) {
        self.unwind(depth, kind != "inline-text");
        self.depths.push(depth);
        self.stack.push(if kind == "text" || kind == "inline-text" {
            Ctx::Text(String::new())
        } else {
            Ctx::Yaml(YamlCtx::default())
        });
    }

    /// Ends the innermost context and returns what it built.
    pub fn end(&mut self) -> SResult<SValue> {
        if self.stack.len() <= 1 {
            return Err(SError::new("internal: no template context to end"));
        }
        self.depths.pop();
        match self.stack.pop().expect("context") {
            Ctx::Text(s) => Ok(SValue::str(&s)),
            Ctx::Yaml(mut y) => Ok(match y.root {
                None => Fragment::value(Frag::Nil),
                Some(r) => match build(&mut y, r) {
                    Built::DocSet(d) => Fragment::value(Frag::DocSet(d)),
                    Built::Node(Node::Map(i)) => Fragment::value(Frag::Map(i)),
                    Built::Node(Node::Array(i)) => Fragment::value(Frag::Array(i)),
                    Built::Node(Node::Scalar(v)) => crate::ytt::fragment::scalar_to_starlark(&v),
                    Built::Node(n @ Node::Shared(_)) => crate::ytt::fragment::node_to_starlark(&n),
                    Built::Doc(d) => Fragment::value(Frag::DocSet(vec![d])),
                    Built::Item(n) => crate::ytt::fragment::node_to_starlark(&n),
                },
            }),
        }
    }

    /// Ends the innermost context, discarding it (an explicit `return`). A def with a
    /// YAML body that returns before building its first node is an error (ytt 0.48
    /// crashes there with "index out of range").
    pub fn end_discard(&mut self) -> SResult<()> {
        if self.stack.len() > 1 {
            self.depths.pop();
            if let Some(Ctx::Yaml(YamlCtx { root: None, .. })) = self.stack.pop() {
                return Err(SError::new(
                    "return before the first YAML node of a function with a YAML body (ytt 0.48 fails here with: index out of range)",
                ));
            }
        }
        Ok(())
    }

    /// The documents built at the top level of a YAML template (moved out: call once).
    pub fn finish_docs(&mut self) -> Vec<Doc> {
        match self.stack.first_mut() {
            Some(Ctx::Yaml(y)) => match y.root.map(|r| build(y, r)) {
                Some(Built::DocSet(d)) => d,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The text built at the top level of a text template.
    pub fn finish_text(&self) -> String {
        match self.stack.first() {
            Some(Ctx::Text(s)) => s.clone(),
            _ => String::new(),
        }
    }

    pub fn text(&mut self, s: &str) -> SResult<()> {
        match self.stack.last_mut() {
            Some(Ctx::Text(t)) => {
                t.push_str(s);
                Ok(())
            }
            _ => Err(SError::new("internal: text outside of a text context")),
        }
    }

    pub fn text_expr(&mut self, v: &SValue) -> SResult<()> {
        match v {
            SValue::Str(s) => self.text(s),
            // ytt's words (texttemplate's NodeText.SetValue) with the Go type of the
            // converted value.
            other => Err(SError::new(format!(
                "cannot set non-string value ({}), consider using str(...) to convert to string",
                crate::ytt::fragment::go_value_type(other)
                    .map(str::to_string)
                    .unwrap_or_else(|| crate::ytt::go_type::of_starlark(other))
            ))),
        }
    }

    pub fn annotate(&mut self, tag: usize, ann: Ann) {
        self.pending.entry(tag).or_default().push(ann);
    }

    fn tnode(nodes: &[TNode], tag: usize) -> SResult<&TNode> {
        nodes
            .get(tag)
            .ok_or_else(|| SError::new(format!("internal: unknown node tag {tag}")))
    }

    /// The annotations of the next instance of `tag` (node `t`): those `__ytt_annot`
    /// recorded for it, with the node's constant ones in their places.
    fn take_anns(&mut self, t: &TNode, tag: usize) -> Vec<Ann> {
        let called = if self.pending.is_empty() {
            Vec::new()
        } else {
            self.pending.remove(&tag).unwrap_or_default()
        };
        if t.anns.is_empty() {
            return last_of_each_name(called);
        }
        let mut called = called.into_iter();
        let mut anns = Vec::with_capacity(t.anns.len());
        for slot in &t.anns {
            match slot {
                AnnSlot::Constant(ann) => anns.push(ann.clone()),
                AnnSlot::Called => anns.extend(called.next()),
            }
        }
        // Calls left over from an instance that was never started (an error caught
        // between its annotations and its start).
        anns.extend(called);
        last_of_each_name(anns)
    }

    fn yaml_ctx(&mut self) -> SResult<&mut YamlCtx> {
        match self.stack.last_mut() {
            Some(Ctx::Yaml(y)) => Ok(y),
            _ => Err(SError::new("internal: YAML node outside of a YAML context")),
        }
    }

    fn new_slot(t: &TNode, anns: Vec<Ann>) -> Slot {
        let (kind, key, value) = match &t.kind {
            TKind::DocSet => (Kind::DocSet, Value::Null, SlotVal::None),
            TKind::Doc { scalar } => (Kind::Doc, Value::Null, scalar_val(scalar)),
            TKind::Map => (Kind::Map, Value::Null, SlotVal::None),
            TKind::Array => (Kind::Array, Value::Null, SlotVal::None),
            TKind::MapItem { key, scalar } => (Kind::MapItem, key.clone(), scalar_val(scalar)),
            TKind::ArrayItem { scalar } => (Kind::ArrayItem, Value::Null, scalar_val(scalar)),
        };
        Slot {
            kind,
            meta: Meta {
                pos: t.pos.clone(),
                anns,
                origin: None,
                computed: false,
            },
            key,
            value,
            children: Vec::new(),
        }
    }

    /// The slot of the parent instance of `t` in the current context, creating an empty
    /// copy of the parent as the context's root when there is none (a def's body).
    fn parent_slot(&mut self, t: &TNode) -> SResult<usize> {
        let ptag = t
            .parent
            .ok_or_else(|| SError::new("internal: node without parent"))?;
        let nodes = self.nodes.clone();
        let tpl_id = self.tpl_id;
        let y = self.yaml_ctx()?;
        if let Some(&i) = y.inst.get(&ptag) {
            return Ok(i);
        }
        if y.root.is_some() {
            let last = y.last.map(|(_, tag)| tag);
            let common = common_parent(&nodes, last, ptag);
            // The parent was never started (its start sat in a block that did not run,
            // as a `---` under `#@ if False:` closed before the map below it). ytt unwinds
            // its node stack to the common parent of the node started last and this one,
            // and adds this node there (`EvaluationCtx.startNode`); the parent's
            // `AddValue` refuses a node of the wrong kind.
            if let Some(&c) = y.inst.get(&common) {
                let parent_kind = y.slots[c].kind;
                return match misplaced(parent_kind, &t.kind) {
                    None => Ok(c),
                    Some(msg) => Err(SError::new(format!("__ytt_tpl{tpl_id}_start_node: {msg}"))),
                };
            }
            // A def body that climbs above the node it began under (a second `---` after
            // a map item, say): ytt 0.48 finds the common parent missing from its node
            // stack and panics (ytt issues #23 and #152). The message keeps ytt's first
            // line and says why in place of the Go backtrace.
            return Err(SError::new(format!(
                "(p) expected to find node tag {} when unwinding (reason: the function body opens a node outside the node it began under, as a second document after a map item does; ytt 0.48 panics here)",
                common + 1
            )));
        }
        let mut slot = Self::new_slot(Self::tnode(&nodes, ptag)?, Vec::new());
        slot.value = SlotVal::None;
        y.slots.push(slot);
        let idx = y.slots.len() - 1;
        y.inst.insert(ptag, idx);
        if y.root.is_none() {
            y.root = Some(idx);
        }
        Ok(idx)
    }

    /// `__ytt_start(tag[, key])`.
    pub fn start(&mut self, tag: usize, key: Option<&SValue>) -> SResult<()> {
        let nodes = self.nodes.clone();
        let t = Self::tnode(&nodes, tag)?;
        let anns = self.take_anns(t, tag);
        let mut slot = Self::new_slot(t, anns);
        if let Some(k) = key {
            slot.key = starlark_to_scalar(k)?;
        }
        if matches!(t.kind, TKind::DocSet) {
            let y = self.yaml_ctx()?;
            y.slots.push(slot);
            let idx = y.slots.len() - 1;
            y.inst.insert(tag, idx);
            y.root = Some(idx);
            return Ok(());
        }
        let y = self.attach_new(t, tag, slot)?;
        y.target = None;
        y.orphan = None;
        Ok(())
    }

    /// `__ytt_at(tag)`: the value expression of `tag` is about to run.
    pub fn at(&mut self, tag: usize) {
        if let Ok(y) = self.yaml_ctx() {
            y.target = Some(tag);
            y.orphan = None;
        }
    }

    /// The file's program has run.
    pub fn finish_run(&mut self) {
        self.ran = true;
    }

    /// `__ytt_set(tag, value[, key])`.
    pub fn set(&mut self, tag: usize, v: &SValue, key: Option<&SValue>) -> SResult<()> {
        let nodes = self.nodes.clone();
        let t = Self::tnode(&nodes, tag)?;
        let anns = self.take_anns(t, tag);
        if let Ok(y) = self.yaml_ctx() {
            // A `template.replace(...)` of its own expression took the node out: ytt sets
            // the value on the orphaned node, which nothing shows.
            let replaced = y.target.take() == Some(tag) && y.orphan.is_some();
            if replaced {
                return Ok(());
            }
            y.orphan = None;
        }
        // A `noop` (what `template.replace` returns) leaves the node's value unset.
        let noop;
        let v = match v {
            SValue::Host(h) if h.as_any().is::<Noop>() => {
                noop = SValue::None;
                &noop
            }
            v => v,
        };
        if let SValue::Host(h) = v
            && let Some(r) = h.as_any().downcast_ref::<Replace>()
        {
            let inner = r.0.clone();
            let placeholder_key = match (key, &t.kind) {
                (Some(k), _) => Some(starlark_to_scalar(k)?),
                (None, TKind::MapItem { key, .. }) => Some(key.clone()),
                _ => None,
            };
            return self.splice(t, &inner, placeholder_key);
        }
        if let SValue::Host(h) = v
            && let Some(Frag::DocSet(_)) = h
                .as_any()
                .downcast_ref::<Fragment>()
                .map(|f| f.frag())
                .as_deref()
        {
            // ytt's `MapItem.AddValue` and `ArrayItem.AddValue` list the allowed kinds
            // in different orders; `Document.AddValue` refuses a document set too.
            let what = match t.kind {
                TKind::MapItem { .. } => Some("map items can only contain arrays, maps"),
                TKind::ArrayItem { .. } => Some("array items can only contain maps, arrays"),
                TKind::Doc { .. } => Some("documents can only contain arrays, maps"),
                _ => None,
            };
            if let Some(what) = what {
                return Err(SError::new(format!(
                    "{what}, or scalars; this is a document set"
                )));
            }
        }
        let node = starlark_to_placed_node(v, &t.pos)?;
        let mut slot = Self::new_slot(t, anns);
        if let Some(k) = key {
            slot.key = starlark_to_scalar(k)?;
        }
        slot.value = SlotVal::Built(node);
        slot.meta.computed = true;
        self.attach_new(t, tag, slot)?;
        Ok(())
    }

    /// Adds `slot`, a new instance of node `tag` (template node `t`), to its parent
    /// slot and makes it the node started last; gives the context it went into.
    fn attach_new(&mut self, t: &TNode, tag: usize, slot: Slot) -> SResult<&mut YamlCtx> {
        let parent = self.parent_slot(t)?;
        let implicit = self.implicit_overrides;
        let y = self.yaml_ctx()?;
        y.slots.push(slot);
        let idx = y.slots.len() - 1;
        attach(y, parent, idx, implicit)?;
        y.inst.insert(tag, idx);
        y.last = Some((idx, tag));
        Ok(y)
    }
}

mod replace;

fn scalar_val(s: &Option<Value>) -> SlotVal {
    match s {
        Some(v) => SlotVal::Scalar(v.clone()),
        None => SlotVal::None,
    }
}

/// ytt's `AddValue` refusal of a node of kind `child` under a node of kind `parent`
/// (`None` when it is accepted), naming the child as ytt's `TypeName` does.
fn misplaced(parent: Kind, child: &TKind) -> Option<String> {
    let name = match child {
        TKind::DocSet => "document set",
        TKind::Doc { .. } => "document",
        TKind::Map => "map",
        TKind::Array => "array",
        TKind::MapItem { .. } => "map item",
        TKind::ArrayItem { .. } => "array item",
    };
    let is_item = matches!(child, TKind::MapItem { .. } | TKind::ArrayItem { .. });
    let (ok, what) = match parent {
        Kind::DocSet => (
            matches!(child, TKind::Doc { .. }),
            "document sets can only contain documents",
        ),
        Kind::Map => (
            matches!(child, TKind::MapItem { .. }),
            "maps can only contain map items",
        ),
        Kind::Array => (
            matches!(child, TKind::ArrayItem { .. }),
            "arrays can only contain array items",
        ),
        Kind::Doc => (
            !is_item,
            "documents can only contain arrays, maps, or scalars",
        ),
        Kind::MapItem => (
            !is_item,
            "map items can only contain arrays, maps, or scalars",
        ),
        Kind::ArrayItem => (
            !is_item,
            "array items can only contain maps, arrays, or scalars",
        ),
    };
    (!ok).then(|| format!("{what}; this is a {name}"))
}

/// The nearest common ancestor of the node started last (`last`, itself included) and
/// `tag` (itself included), as ytt's `FindCommonParentTag` finds it; the root when there
/// is no last node.
fn common_parent(nodes: &[TNode], last: Option<usize>, tag: usize) -> usize {
    let chain = |mut t: usize| {
        let mut v = vec![t];
        while let Some(p) = nodes.get(t).and_then(|n| n.parent) {
            v.push(p);
            t = p;
        }
        v
    };
    let Some(last) = last else { return 0 };
    let above_last = chain(last);
    chain(tag)
        .into_iter()
        .find(|t| above_last.contains(t))
        .unwrap_or(0)
}

/// Attaches slot `idx` under `parent`; map items with a key already present replace it
/// when overriding is allowed, otherwise it is an error.
fn attach(y: &mut YamlCtx, parent: usize, idx: usize, implicit: bool) -> SResult<()> {
    let kind = y.slots[idx].kind;
    match kind {
        Kind::Map | Kind::Array => {
            y.slots[parent].value = SlotVal::Child(idx);
        }
        Kind::MapItem => {
            let key = &y.slots[idx].key;
            let existing = y.slots[parent]
                .children
                .iter()
                .position(|&c| y.slots[c].key == *key);
            match existing {
                Some(p) => {
                    let over = implicit || y.slots[idx].meta.has("yaml/map-key-override");
                    if !over {
                        return Err(SError::new(format!(
                            "expected key '{}' to not be specified again (unless 'yaml/map-key-override' annotation is added)",
                            crate::ytt::go_type::percent_s(key)
                        )));
                    }
                    // The overriding item goes to the end, as in ytt.
                    y.slots[parent].children.remove(p);
                    y.slots[parent].children.push(idx);
                }
                None => y.slots[parent].children.push(idx),
            }
        }
        _ => y.slots[parent].children.push(idx),
    }
    Ok(())
}

enum Built {
    DocSet(Vec<Doc>),
    Doc(Doc),
    Node(Node),
    Item(Node),
}

/// The value of slot `idx`, moved out of it (every slot is built once: it has one parent).
fn slot_value(y: &mut YamlCtx, idx: usize) -> Node {
    match std::mem::replace(&mut y.slots[idx].value, SlotVal::None) {
        SlotVal::None => Node::null(),
        SlotVal::Scalar(v) => Node::Scalar(v),
        SlotVal::Built(n) => n,
        SlotVal::Child(c) => match build(y, c) {
            Built::Node(n) => n,
            _ => Node::null(),
        },
    }
}

/// Builds slot `idx` and everything under it, moving the values out of the slots.
fn build(y: &mut YamlCtx, idx: usize) -> Built {
    let kind = y.slots[idx].kind;
    match kind {
        Kind::DocSet | Kind::Map | Kind::Array => {
            let children = std::mem::take(&mut y.slots[idx].children);
            let mut docs = Vec::new();
            let mut map_items = Vec::new();
            let mut array_items = Vec::new();
            match kind {
                Kind::DocSet => docs.reserve(children.len()),
                Kind::Map => map_items.reserve(children.len()),
                _ => array_items.reserve(children.len()),
            }
            for c in children {
                let value = slot_value(y, c);
                let meta = std::mem::take(&mut y.slots[c].meta);
                match kind {
                    Kind::DocSet => docs.push(Doc { value, meta }),
                    Kind::Map => map_items.push(MapItem {
                        key: std::mem::replace(&mut y.slots[c].key, Value::Null),
                        value,
                        meta,
                    }),
                    _ => array_items.push(ArrayItem { value, meta }),
                }
            }
            match kind {
                Kind::DocSet => Built::DocSet(docs),
                Kind::Map => Built::Node(Node::Map(map_items)),
                _ => Built::Node(Node::Array(array_items)),
            }
        }
        Kind::Doc => Built::Doc(Doc {
            value: slot_value(y, idx),
            meta: std::mem::take(&mut y.slots[idx].meta),
        }),
        Kind::MapItem | Kind::ArrayItem => Built::Item(slot_value(y, idx)),
    }
}

/// Position of a tag (for errors).
pub fn tag_pos(nodes: &[TNode], tag: usize) -> Option<Pos> {
    nodes.get(tag).map(|n| n.pos.clone())
}

impl Builder {
    /// The template line of a tag (0 when unknown).
    pub fn tag_line(&self, tag: usize) -> usize {
        self.nodes.get(tag).map(|n| n.pos.line).unwrap_or(0)
    }
}

/// A node's annotations with one of each name: as in ytt, which keeps a node's
/// annotations by name, a later annotation of a name replaces an earlier one (it takes
/// the earlier one's place).
fn last_of_each_name(mut anns: Vec<Ann>) -> Vec<Ann> {
    let mut i = 1;
    while i < anns.len() {
        if let Some(j) = anns[..i].iter().position(|a| a.name == anns[i].name) {
            let later = anns.remove(i);
            anns[j] = later;
        } else {
            i += 1;
        }
    }
    anns
}
