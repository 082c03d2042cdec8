//! `template.replace(x)`: x's items take the place of a node of the YAML being built,
//! when it is called (ytt's `TplReplace`), as a statement of its own, or as the value set
//! on a node.

use super::*;

impl Builder {
    /// `__ytt_replace_here(value)`: a `template.replace(x)` evaluated as a statement of its
    /// own. As in ytt, x takes the place of the node started last in the current context
    /// (the latest child of its parent, since nothing was started after it); any other
    /// value is left alone.
    pub fn replace_here(&mut self, v: &SValue) -> SResult<()> {
        let SValue::Host(h) = v else { return Ok(()) };
        let Some(r) = h.as_any().downcast_ref::<Replace>() else {
            return Ok(());
        };
        let inner = r.0.clone();
        let nodes = self.nodes.clone();
        let y = self.yaml_ctx()?;
        let Some((idx, tag)) = y.last.take() else {
            return Err(SError::new(
                "template.replace can only be used on map items, array items and documents",
            ));
        };
        let t = Self::tnode(&nodes, tag)?;
        let parent = self.parent_slot(t)?;
        let y = self.yaml_ctx()?;
        if let Some(p) = y.slots[parent].children.iter().rposition(|&c| c == idx) {
            y.slots[parent].children.remove(p);
        }
        let placeholder_key = match y.slots[idx].kind {
            Kind::MapItem => Some(y.slots[idx].key.clone()),
            _ => None,
        };
        self.splice(t, &inner, placeholder_key)
    }

    /// `template.replace(x)` called while this context builds YAML, as ytt's
    /// `TplReplace` runs it: x takes the place of the current node (the one whose value
    /// expression is running, else the one started last), which stays current, orphaned.
    /// False when this builder builds nothing any more (its file has run and no def
    /// body is being built), or builds text.
    pub fn replace_now(&mut self, v: &SValue) -> SResult<bool> {
        if self.ran && self.stack.len() == 1 {
            return Ok(false);
        }
        let nodes = self.nodes.clone();
        let Some(Ctx::Yaml(y)) = self.stack.last_mut() else {
            return Ok(false);
        };
        if let Some(kind) = y.orphan {
            return Err(SError::new(format!(
                "template.replace: expected to find placeholder {}",
                match kind {
                    Kind::MapItem => "map item in map",
                    Kind::ArrayItem => "array item in array",
                    _ => "doc in docset",
                }
            )));
        }
        let found = |what: &str| {
            SError::new(format!(
                "template.replace: expected to replace document value, map item or array item, but found {what}"
            ))
        };
        let (tag, started) = match (y.target, y.last) {
            (Some(tag), _) => (tag, None),
            (None, Some((idx, tag))) => (tag, Some(idx)),
            (None, None) if y.root.is_some() => return Err(found("*yamlmeta.DocumentSet")),
            (None, None) => return Err(found("<nil>")),
        };
        let t = Self::tnode(&nodes, tag)?;
        let (kind, mut placeholder_key) = match &t.kind {
            TKind::MapItem { key, .. } => (Kind::MapItem, Some(key.clone())),
            TKind::ArrayItem { .. } => (Kind::ArrayItem, None),
            TKind::Doc { .. } => (Kind::Doc, None),
            TKind::Map => return Err(found("*yamlmeta.Map")),
            TKind::Array => return Err(found("*yamlmeta.Array")),
            TKind::DocSet => return Err(found("*yamlmeta.DocumentSet")),
        };
        if let Some(idx) = started {
            let parent = self.parent_slot(t)?;
            let y = self.yaml_ctx()?;
            if let Some(p) = y.slots[parent].children.iter().rposition(|&c| c == idx) {
                y.slots[parent].children.remove(p);
            }
            if kind == Kind::MapItem {
                placeholder_key = Some(y.slots[idx].key.clone());
            }
        }
        self.splice(t, v, placeholder_key)?;
        self.yaml_ctx()?.orphan = Some(kind);
        Ok(true)
    }

    /// `template.replace(x)` set on a node: x's items take the node's place. In a map, an
    /// item with the key of an earlier item replaces it: freely when x is a plain value (a
    /// dict or a struct), and for a YAML fragment only with `yaml/map-key-override` (or
    /// implicit overrides). As in ytt, an item with the placeholder's own key
    /// (`placeholder_key`) is an error: it takes the placeholder's place before the
    /// placeholder is replaced.
    pub(super) fn splice(
        &mut self,
        t: &TNode,
        v: &SValue,
        placeholder_key: Option<Value>,
    ) -> SResult<()> {
        let implicit_overrides = self.implicit_overrides;
        if let Ok(y) = self.yaml_ctx() {
            y.last = None;
        }
        let parent = self.parent_slot(t)?;
        let pos = t.pos.clone();
        let y = self.yaml_ctx()?;
        let pkind = y.slots[parent].kind;
        let frag = match v {
            SValue::Host(h) => h
                .as_any()
                .downcast_ref::<Fragment>()
                .map(|f| f.shared_frag()),
            _ => None,
        };
        match pkind {
            Kind::Map => {
                let carries_meta = matches!(frag, Some(Frag::Map(_)));
                let items = match frag {
                    Some(Frag::Map(items)) => items,
                    _ => match starlark_to_node(v, &pos)? {
                        Node::Map(items) => items,
                        _ => return Err(replace_type_error("map", v)),
                    },
                };
                for item in items {
                    let may_override = implicit_overrides
                        || !carries_meta
                        || item.meta.has("yaml/map-key-override");
                    if placeholder_key.as_ref() == Some(&item.key) {
                        return Err(SError::new(if may_override {
                            "template.replace: expected to find placeholder map item in map"
                                .to_string()
                        } else {
                            format!(
                                "template.replace: expected key '{}' to not be specified again (unless 'yaml/map-key-override' annotation is added)",
                                crate::ytt::go_type::percent_s(&item.key)
                            )
                        }));
                    }
                    y.slots
                        .push(Slot::built(Kind::MapItem, item.meta, item.key, item.value));
                    let idx = y.slots.len() - 1;
                    // The replacement's own errors are the built-in's.
                    attach(y, parent, idx, may_override)
                        .map_err(|e| SError::new(format!("template.replace: {}", e.msg)))?;
                }
            }
            Kind::Array => {
                let items = match frag {
                    Some(Frag::Array(items)) => items,
                    // ytt's `convertValToArrayItems` takes a list or an array node only.
                    Some(Frag::DocSet(_)) => return Err(replace_type_error("array", v)),
                    _ => match starlark_to_node(v, &pos)? {
                        Node::Array(items) => items,
                        _ => return Err(replace_type_error("array", v)),
                    },
                };
                for item in items {
                    y.slots.push(Slot::built(
                        Kind::ArrayItem,
                        item.meta,
                        Value::Null,
                        item.value,
                    ));
                    let idx = y.slots.len() - 1;
                    y.slots[parent].children.push(idx);
                }
            }
            // A document is replaced by the documents of a document set fragment or by
            // one document per item of a list (a tuple or a set too: ytt converts all
            // three to a Go slice); ytt refuses anything else.
            Kind::DocSet => {
                let docs = match (frag, v) {
                    (Some(Frag::DocSet(docs)), _) => docs,
                    (None, SValue::List(_) | SValue::Tuple(_) | SValue::Set(_)) => {
                        let (vals, _g) = crate::ytt::fragment::items_of(v)?;
                        let mut docs = Vec::new();
                        for x in vals {
                            docs.push(Doc {
                                value: starlark_to_node(&x, &pos)?,
                                meta: Meta::at(pos.clone()),
                            });
                        }
                        docs
                    }
                    _ => return Err(replace_type_error("docset", v)),
                };
                for d in docs {
                    y.slots
                        .push(Slot::built(Kind::Doc, d.meta, Value::Null, d.value));
                    let idx = y.slots.len() - 1;
                    y.slots[parent].children.push(idx);
                }
            }
            _ => {
                return Err(SError::new(
                    "template.replace can only be used on map items, array items and documents",
                ));
            }
        }
        Ok(())
    }
}

/// ytt's refusal of a `template.replace` value of the wrong kind (`expected value to be
/// map, but was int64`), naming the Go type ytt turned the value into.
fn replace_type_error(wanted: &str, v: &SValue) -> SError {
    let go = crate::ytt::fragment::go_value_type(v)
        .map(str::to_string)
        .unwrap_or_else(|| crate::ytt::overlay::go_type::of_starlark(v));
    SError::new(format!(
        "template.replace: expected value to be {wanted}, but was {go}"
    ))
}
