//! Overlays: applying documents, map items and array items annotated with
//! `@overlay/match`, `@overlay/merge|replace|remove|insert|append|assert` and
//! `@overlay/match-child-defaults` to a left tree, as ytt's overlay package does.
//! Used for overlay documents in templates, `overlay.apply()` and data values.

pub mod compare;
pub mod expects;
pub use crate::ytt::go_type;
pub mod matcher;
mod ops;

use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::node::{Ann, ArrayItem, Doc, MapItem, Meta, Node, Pos};
use crate::ytt::starlark::{Interpreter, Value as SValue};

use expects::{CountKwargs, Verdict, check_at};
use matcher::{MatchCall, call_matcher, check_matcher_type};
use ops::{Op, insert_kind, known_kwargs, op_of, or_add, verdict_with_message};

/// `expects`/`missing_ok`/`when` inherited from `@overlay/match-child-defaults`.
#[derive(Clone, Default)]
pub struct Defaults {
    counts: CountKwargs,
}

impl Defaults {
    /// The defaults a document (or data values document) gives its children: its own
    /// `@overlay/match-child-defaults`, over `parent`'s.
    pub fn of_node(meta: &Meta, parent: &Defaults) -> Defaults {
        child_defaults(meta, parent).unwrap_or_else(|_| parent.clone())
    }
}

/// Applies overlays with a thread for calling matcher and `via` functions.
pub struct Overlay<'t> {
    pub thread: &'t mut dyn Interpreter,
}

fn err_at(msg: impl Into<String>, meta: &Meta) -> Error {
    if meta.pos.file.is_empty() {
        return Error::msg(msg);
    }
    Error::at(msg, pos_of(meta))
}

const COUNT_KWARGS: [&str; 3] = ["expects", "missing_ok", "when"];

fn child_defaults(meta: &Meta, parent: &Defaults) -> Result<Defaults, Error> {
    let Some(a) = meta.ann("overlay/match-child-defaults") else {
        return Ok(parent.clone());
    };
    known_kwargs(a, &COUNT_KWARGS, meta)?;
    Ok(Defaults {
        counts: CountKwargs::of(meta, "overlay/match-child-defaults").or_defaults(&parent.counts),
    })
}

/// The defaults a node with operation `op` passes to its children. Only a merge and an
/// assert look into the children, and only they read (and check) the node's
/// `@overlay/match-child-defaults`.
fn own_defaults(op: Op, meta: &Meta, parent: &Defaults) -> Result<Defaults, Error> {
    match op {
        Op::Merge | Op::Assert => child_defaults(meta, parent),
        _ => Ok(parent.clone()),
    }
}

struct MatchSpec {
    by: Option<SValue>,
    counts: CountKwargs,
}

/// The `@overlay/match` keywords of a node; documents and array items (`needs_kwargs`)
/// must give at least one.
fn match_spec(meta: &Meta, defaults: &Defaults, needs_kwargs: bool) -> Result<MatchSpec, Error> {
    let ann = meta.ann("overlay/match");
    // A node without the annotation has no keywords either (an overlay document given
    // to `overlay.apply()` in a document set may have none).
    if needs_kwargs && ann.is_none_or(|a| a.kwargs.is_empty()) {
        return Err(err_at(
            "Expected 'overlay/match' annotation to have at least one keyword argument (by=..., expects=...)",
            meta,
        ));
    }
    if let Some(a) = ann {
        let allowed = ["by", "expects", "missing_ok", "when"];
        known_kwargs(a, &allowed, meta)?;
    }
    Ok(MatchSpec {
        by: meta
            .ann("overlay/match")
            .and_then(|a| a.kwarg("by").cloned()),
        counts: CountKwargs::of(meta, "overlay/match").or_defaults(&defaults.counts),
    })
}

/// The value an inserted node gets: `via(left, right)` when `@overlay/insert` has
/// `via`, else the right node's value.
fn inserted_value(
    thread: &mut dyn Interpreter,
    ann: Option<&Ann>,
    left: &Node,
    right: &Node,
    meta: &Meta,
) -> Result<Node, Error> {
    match ann.and_then(|a| a.kwarg("via")) {
        Some(via) => matcher::call_via(thread, "overlay/insert", via, left, right, meta),
        None => Ok(right.clone()),
    }
}

/// A document an overlay adds at the end: ytt appends it to the last document set, so
/// it joins the output file of the last document.
fn appended(left: &[Doc], value: Node, overlay: &Meta) -> Doc {
    let mut meta = Meta::at(overlay.pos.clone());
    meta.origin = left.last().and_then(|d| d.meta.origin.clone());
    Doc { value, meta }
}

impl Overlay<'_> {
    /// Applies overlay documents `right` to `left` in order.
    pub fn apply_docs(&mut self, left: &mut Vec<Doc>, right: &[Doc]) -> Result<(), Error> {
        for r in right {
            // ytt copies what it takes from an overlay (`DeepCopy`): nothing of it is
            // shared with the left side, or between two places it goes to.
            let mut r = r.clone();
            r.value.unshare();
            let r = &r;
            self.apply_doc(left, r)
                .map_err(|e| e.context(&format!("Document on line {}", r.meta.pos)))?;
        }
        Ok(())
    }

    fn apply_doc(&mut self, left: &mut Vec<Doc>, r: &Doc) -> Result<(), Error> {
        let (op, op_ann) = op_of(&r.meta, Op::Merge)?;
        let defaults = own_defaults(op, &r.meta, &Defaults::default())?;
        if op == Op::Append {
            let doc = appended(left, r.value.clone(), &r.meta);
            left.push(doc);
            return Ok(());
        }
        let spec = match_spec(&r.meta, &Defaults::default(), true)?;
        let Some(by) = &spec.by else {
            return Err(err_at(
                // Two spaces, as ytt words it for documents.
                "Expected 'overlay/match' annotation keyword argument 'by'  to be specified",
                &r.meta,
            ));
        };
        check_matcher_type(by, true).map_err(|e| e.with_pos(|| pos_of(&r.meta)))?;
        let mut matched = Vec::new();
        for (i, l) in left.iter().enumerate() {
            if call_matcher(self.thread, by, MatchCall::Indexed(i), &l.value, &r.value)
                .map_err(|e| e.with_pos(|| pos_of(&r.meta)))?
            {
                matched.push((i, l.meta.pos.clone()));
            }
        }
        let (matched, at): (Vec<usize>, Vec<Pos>) = matched.into_iter().unzip();
        let verdict = check_at(&spec.counts, self.thread, &at, &r.meta)?;
        if verdict == Verdict::Skip {
            return Ok(());
        }
        match op {
            Op::Merge => {
                for &i in &matched {
                    self.merge(&mut left[i].value, &r.value, &defaults, &r.meta)?;
                }
            }
            Op::Replace => {
                for &i in &matched {
                    left[i].value = self.replaced(&left[i].value, &r.value, op_ann, &r.meta)?;
                    // ytt puts a copy of the overlay document in the left one's place:
                    // later overlays see the overlay document's position.
                    left[i].meta.pos = r.meta.pos.clone();
                }
                if matched.is_empty() && or_add(op_ann) {
                    let value =
                        self.replaced(&Node::Scalar(Value::Null), &r.value, op_ann, &r.meta)?;
                    let doc = appended(left, value, &r.meta);
                    left.push(doc);
                }
            }
            Op::Remove => {
                for &i in matched.iter().rev() {
                    left.remove(i);
                }
            }
            Op::Assert => {
                for &i in &matched {
                    let computed = left[i].meta.computed;
                    self.assert(
                        (&mut left[i].value, computed),
                        &r.value,
                        op_ann,
                        &r.meta,
                        &defaults,
                    )?;
                }
            }
            Op::Insert => {
                let (before, after) = insert_kind(op_ann, &r.meta)?;
                for &i in matched.iter().rev() {
                    let value =
                        inserted_value(self.thread, op_ann, &left[i].value, &r.value, &r.meta)?;
                    // It joins the document set (the output file) of the one it is
                    // inserted beside.
                    let mut meta = Meta::at(r.meta.pos.clone());
                    meta.origin = left[i].meta.origin.clone();
                    let new = Doc { value, meta };
                    if after {
                        left.insert(i + 1, new.clone());
                    }
                    if before {
                        left.insert(i, new);
                    }
                }
            }
            Op::Append => unreachable!(),
        }
        Ok(())
    }

    /// Merges `right` into `left` (map into map, array into array, otherwise replace).
    fn merge(
        &mut self,
        left: &mut Node,
        right: &Node,
        defaults: &Defaults,
        meta: &Meta,
    ) -> Result<(), Error> {
        match (right, &*left) {
            // A scalar replaces the left value, and so does a collection a null left
            // value (e.g. a nullable data value being set).
            (Node::Scalar(_), _) | (Node::Map(_) | Node::Array(_), Node::Scalar(Value::Null)) => {
                *left = right.clone();
                Ok(())
            }
            _ => self.apply_node(left, right, defaults, meta),
        }
    }

    fn replaced(
        &mut self,
        left: &Node,
        right: &Node,
        ann: Option<&Ann>,
        meta: &Meta,
    ) -> Result<Node, Error> {
        match ann.and_then(|a| a.kwarg("via")) {
            Some(via) => matcher::call_via(self.thread, "overlay/replace", via, left, right, meta),
            None => Ok(right.clone()),
        }
    }

    /// `@overlay/assert`: with `via`, the function's verdict; without, every right map
    /// key, array item and scalar must be in `left` (see [`compare::contains`]). Then
    /// the right node's children apply to `left` as an overlay, as in ytt.
    fn assert(
        &mut self,
        (left, left_computed): (&mut Node, bool),
        right: &Node,
        ann: Option<&Ann>,
        meta: &Meta,
        defaults: &Defaults,
    ) -> Result<(), Error> {
        match ann.and_then(|a| a.kwarg("via")) {
            Some(via) => {
                let r =
                    matcher::call_via_raw(self.thread, "overlay/assert", via, left, right, meta)?;
                match r {
                    SValue::None | SValue::Bool(true) => {}
                    SValue::Bool(false) => {
                        return Err(err_at(
                            "Expected via invocation to return true, but was false",
                            meta,
                        ));
                    }
                    r if verdict_with_message(&r).is_some() => {
                        if let Some((false, msg)) = verdict_with_message(&r) {
                            return Err(err_at(
                                format!(
                                    "Expected via invocation to return true, but was false with message: {msg}"
                                ),
                                meta,
                            ));
                        }
                    }
                    _ => {
                        return Err(err_at(
                            "Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those",
                            meta,
                        ));
                    }
                }
            }
            None => {
                let sides = (
                    compare::Side {
                        node: left,
                        computed: left_computed,
                    },
                    compare::Side {
                        node: right,
                        computed: meta.computed,
                    },
                );
                if let Err(why) = compare::contains(sides.0, sides.1) {
                    return Err(err_at(
                        format!("Expected objects to equal, but did not: {why}"),
                        meta,
                    ));
                }
            }
        }
        self.apply_node(left, right, defaults, meta)
    }

    /// ytt's plain application of a right node to a left one (what `@overlay/assert`
    /// does after its check, and `overlay.apply()` with a map or array): a map or an
    /// array goes into a left node of the same kind and any other left node, null
    /// included, is refused; a scalar right node changes nothing.
    pub fn apply_node(
        &mut self,
        left: &mut Node,
        right: &Node,
        defaults: &Defaults,
        meta: &Meta,
    ) -> Result<(), Error> {
        match (right, left) {
            (Node::Map(r), Node::Map(l)) => self.apply_map(l, r, defaults),
            (Node::Array(r), Node::Array(l)) => self.apply_array(l, r, defaults),
            // A node several places hold is edited in place, for all of them.
            (r, Node::Shared(s)) => {
                let s = s.clone();
                let mut l = s.0.borrow_mut();
                self.apply_node(&mut l, r, defaults, meta)
            }
            (Node::Shared(r), l) => {
                let r = r.0.borrow().unshared();
                self.apply_node(l, &r, defaults, meta)
            }
            (Node::Map(_), other) => Err(err_at(
                format!("Expected map, but was {}", go_type::friendly_name(other)),
                meta,
            )),
            (Node::Array(_), other) => Err(err_at(
                format!("Expected array, but was {}", go_type::friendly_name(other)),
                meta,
            )),
            (Node::Scalar(_), _) => Ok(()),
        }
    }

    fn apply_map(
        &mut self,
        left: &mut Vec<MapItem>,
        right: &[MapItem],
        parent_defaults: &Defaults,
    ) -> Result<(), Error> {
        for r in right {
            self.apply_map_item(left, r, parent_defaults).map_err(|e| {
                e.context(&format!(
                    "Map item (key '{}') on line {}",
                    key_str(&r.key),
                    r.meta.pos
                ))
            })?;
        }
        Ok(())
    }

    fn apply_map_item(
        &mut self,
        left: &mut Vec<MapItem>,
        r: &MapItem,
        parent_defaults: &Defaults,
    ) -> Result<(), Error> {
        let (op, op_ann) = op_of(&r.meta, Op::Merge)?;
        if matches!(op, Op::Append | Op::Insert) {
            return Err(err_at(
                format!(
                    "Overlay op {} is not supported on map item",
                    if op == Op::Append {
                        "overlay/append"
                    } else {
                        "overlay/insert"
                    }
                ),
                &r.meta,
            ));
        }
        let defaults = own_defaults(op, &r.meta, parent_defaults)?;
        let spec = match_spec(&r.meta, parent_defaults, false)?;
        if let Some(by) = &spec.by {
            check_matcher_type(by, false).map_err(|e| e.with_pos(|| pos_of(&r.meta)))?;
        }
        let mut matched = Vec::new();
        for (i, l) in left.iter().enumerate() {
            let ok = match &spec.by {
                Some(by) => call_matcher(
                    self.thread,
                    by,
                    MatchCall::Keyed(&l.key),
                    &l.value,
                    &r.value,
                )
                .map_err(|e| e.with_pos(|| pos_of(&r.meta)))?,
                None => l.key == r.key,
            };
            if ok {
                matched.push((i, l.meta.pos.clone()));
            }
        }
        let (matched, at): (Vec<usize>, Vec<Pos>) = matched.into_iter().unzip();
        if check_at(&spec.counts, self.thread, &at, &r.meta)? == Verdict::Skip {
            return Ok(());
        }
        self.apply_matched(left, r, &matched, op, op_ann, &defaults)?;
        Ok(())
    }

    /// Applies a merge, replace, remove or assert of the right item `r` to the left
    /// items at `matched` (or adds `r` when a merge matched nothing, or a replace with
    /// `or_add` did). A replace takes the right item whole, key included. Shared by
    /// map items and array items; inserts are the caller's.
    fn apply_matched<T: OverlayItem>(
        &mut self,
        left: &mut Vec<T>,
        r: &T,
        matched: &[usize],
        op: Op,
        op_ann: Option<&Ann>,
        defaults: &Defaults,
    ) -> Result<(), Error> {
        if matched.is_empty() {
            match op {
                Op::Merge => left.push(r.clone()),
                Op::Replace if or_add(op_ann) => {
                    let mut new = r.clone();
                    *new.value_mut() =
                        self.replaced(&Node::Scalar(Value::Null), r.value(), op_ann, r.meta())?;
                    if has_via(op_ann) {
                        new.set_computed();
                    }
                    left.push(new);
                }
                _ => {}
            }
            return Ok(());
        }
        match op {
            Op::Merge => {
                for &i in matched {
                    let replaces = replaces_on_merge(left[i].value(), r.value());
                    self.merge(left[i].value_mut(), r.value(), defaults, r.meta())?;
                    if replaces {
                        left[i].took_value_from(r);
                    }
                }
            }
            Op::Replace => {
                for &i in matched {
                    let replaced = self.replaced(left[i].value(), r.value(), op_ann, r.meta())?;
                    let mut new = r.clone();
                    *new.value_mut() = replaced;
                    if has_via(op_ann) {
                        new.set_computed();
                    }
                    left[i] = new;
                }
            }
            Op::Remove => {
                for &i in matched.iter().rev() {
                    left.remove(i);
                }
            }
            Op::Assert => {
                for &i in matched {
                    let computed = left[i].meta().computed;
                    self.assert(
                        (left[i].value_mut(), computed),
                        r.value(),
                        op_ann,
                        r.meta(),
                        defaults,
                    )?;
                }
            }
            Op::Append | Op::Insert => unreachable!("callers handle appends and inserts"),
        }
        Ok(())
    }

    fn apply_array(
        &mut self,
        left: &mut Vec<ArrayItem>,
        right: &[ArrayItem],
        parent_defaults: &Defaults,
    ) -> Result<(), Error> {
        for r in right {
            self.apply_array_item(left, r, parent_defaults)
                .map_err(|e| e.context(&format!("Array item on line {}", r.meta.pos)))?;
        }
        Ok(())
    }

    fn apply_array_item(
        &mut self,
        left: &mut Vec<ArrayItem>,
        r: &ArrayItem,
        parent_defaults: &Defaults,
    ) -> Result<(), Error> {
        let (op, op_ann) = op_of(&r.meta, Op::Merge)?;
        let defaults = own_defaults(op, &r.meta, parent_defaults)?;
        if op == Op::Append {
            left.push(r.clone());
            return Ok(());
        }
        // An array item without `@overlay/match` matches nothing (ytt expects 0 matches):
        // a merge appends it, a replace with `or_add` adds it, other ops do nothing.
        let mut matched = Vec::new();
        if r.meta.has("overlay/match") {
            let spec = match_spec(&r.meta, parent_defaults, true)?;
            let Some(by) = spec.by.clone() else {
                return Err(err_at(
                    "Expected 'overlay/match' annotation keyword argument 'by' to be specified",
                    &r.meta,
                ));
            };
            check_matcher_type(&by, false).map_err(|e| e.with_pos(|| pos_of(&r.meta)))?;
            let mut at = Vec::new();
            for (i, l) in left.iter().enumerate() {
                let ok = call_matcher(self.thread, &by, MatchCall::Indexed(i), &l.value, &r.value)
                    .map_err(|e| e.with_pos(|| pos_of(&r.meta)))?;
                if ok {
                    matched.push(i);
                    at.push(l.meta.pos.clone());
                }
            }
            if check_at(&spec.counts, self.thread, &at, &r.meta)? == Verdict::Skip {
                return Ok(());
            }
        }
        if op == Op::Insert {
            let (before, after) = insert_kind(op_ann, &r.meta)?;
            for &i in matched.iter().rev() {
                let mut new = r.clone();
                new.value = inserted_value(self.thread, op_ann, &left[i].value, &r.value, &r.meta)?;
                if has_via(op_ann) {
                    new.meta.computed = true;
                }
                if after {
                    left.insert(i + 1, new.clone());
                }
                if before {
                    left.insert(i, new);
                }
            }
        } else {
            self.apply_matched(left, r, &matched, op, op_ann, &defaults)?;
        }
        Ok(())
    }
}

/// What overlays need of a map item or an array item.
trait OverlayItem: Clone {
    fn value(&self) -> &Node;
    fn value_mut(&mut self) -> &mut Node;
    fn meta(&self) -> &Meta;
    /// Called after a merge replaced this item's value with `from`'s: the item then
    /// takes `from`'s position, as ytt does (so a data value set by a later file or
    /// flag is reported at that file or flag, and a later overlay's count error names
    /// the overlay's line) and the Go type of its value.
    fn took_value_from(&mut self, from: &Self);
    /// Marks the item's value as computed by a `via` function.
    fn set_computed(&mut self);
}

/// True when merging `right` into `left` replaces `left` whole rather than merging
/// into it: a scalar (or null) right value, or a null left value.
fn replaces_on_merge(left: &Node, right: &Node) -> bool {
    matches!(left, Node::Scalar(Value::Null)) || matches!(right, Node::Scalar(_))
}

impl OverlayItem for MapItem {
    fn value(&self) -> &Node {
        &self.value
    }
    fn value_mut(&mut self) -> &mut Node {
        &mut self.value
    }
    fn meta(&self) -> &Meta {
        &self.meta
    }
    fn set_computed(&mut self) {
        self.meta.computed = true;
    }
    fn took_value_from(&mut self, from: &Self) {
        self.meta.pos = from.meta.pos.clone();
        self.meta.computed = from.meta.computed;
    }
}

impl OverlayItem for ArrayItem {
    fn value(&self) -> &Node {
        &self.value
    }
    fn value_mut(&mut self) -> &mut Node {
        &mut self.value
    }
    fn meta(&self) -> &Meta {
        &self.meta
    }
    fn set_computed(&mut self) {
        self.meta.computed = true;
    }
    fn took_value_from(&mut self, from: &Self) {
        self.meta.pos = from.meta.pos.clone();
        self.meta.computed = from.meta.computed;
    }
}

/// True when an operation's annotation computes the new value with `via`.
fn has_via(ann: Option<&Ann>) -> bool {
    ann.and_then(|a| a.kwarg("via")).is_some()
}

/// A key as ytt's overlay messages print it (Go's `%s`).
pub(crate) fn key_str(v: &Value) -> String {
    go_type::percent_s(v)
}

fn pos_of(meta: &Meta) -> crate::ytt::error::Position {
    crate::ytt::error::Position {
        file: meta.pos.file.to_string(),
        line: meta.pos.line,
        text: None,
    }
}

/// True when a document is an overlay: ytt takes aside the documents annotated with
/// `@overlay/match`; any other document is output (its overlay annotations unused).
pub fn is_overlay_doc(d: &Doc) -> bool {
    d.meta.has("overlay/match")
}

impl Overlay<'_> {
    /// Merges `right` (with its overlay annotations) into `left`, as a document body.
    pub fn merge_node(
        &mut self,
        left: &mut Node,
        right: &Node,
        defaults: &Defaults,
    ) -> Result<(), Error> {
        self.merge(left, right, defaults, &Meta::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ytt::node::Pos;
    use crate::ytt::starlark::Thread;

    fn ann(name: &str, kwargs: Vec<(&str, SValue)>) -> Ann {
        Ann {
            name: name.into(),
            args: vec![],
            kwargs: kwargs.into_iter().map(|(k, v)| (k.into(), v)).collect(),
            pos: Pos::default(),
        }
    }

    fn item(k: &str, v: Node, anns: Vec<Ann>) -> MapItem {
        MapItem {
            key: Value::str(k),
            value: v,
            meta: Meta {
                anns,
                ..Meta::default()
            },
        }
    }

    fn s(v: &str) -> Node {
        Node::Scalar(Value::str(v))
    }

    #[test]
    fn map_merge_needs_missing_ok_for_new_keys_and_appends_them() {
        let mut thread = Thread::new();
        let mut o = Overlay {
            thread: &mut thread,
        };
        let mut left = Node::Map(vec![item("a", s("1"), vec![])]);
        let right = Node::Map(vec![item("b", s("2"), vec![])]);
        let err = o
            .merge_node(&mut left, &right, &Defaults::default())
            .unwrap_err();
        assert!(err.to_string().contains("to be 1, but was 0"), "{err}");
        let right = Node::Map(vec![
            item(
                "b",
                s("2"),
                vec![ann(
                    "overlay/match",
                    vec![("missing_ok", SValue::Bool(true))],
                )],
            ),
            item("a", s("x"), vec![]),
        ]);
        o.merge_node(&mut left, &right, &Defaults::default())
            .unwrap();
        assert_eq!(
            left.to_value(),
            Value::Map(vec![
                (Value::str("a"), Value::str("x")),
                (Value::str("b"), Value::str("2"))
            ])
        );
    }

    #[test]
    fn array_items_append_and_remove() {
        let mut thread = Thread::new();
        let mut o = Overlay {
            thread: &mut thread,
        };
        let ai = |v: &str, anns: Vec<Ann>| ArrayItem {
            value: s(v),
            meta: Meta {
                anns,
                ..Meta::default()
            },
        };
        let mut left = Node::Array(vec![ai("a", vec![]), ai("b", vec![])]);
        let right = Node::Array(vec![
            ai("c", vec![]),
            ai(
                "",
                vec![
                    ann(
                        "overlay/match",
                        vec![(
                            "by",
                            SValue::Host(std::rc::Rc::new(matcher::Matcher::Index(0))),
                        )],
                    ),
                    ann("overlay/remove", vec![]),
                ],
            ),
        ]);
        o.merge_node(&mut left, &right, &Defaults::default())
            .unwrap();
        assert_eq!(
            left.to_value(),
            Value::Array(vec![Value::str("b"), Value::str("c")])
        );
    }
}
