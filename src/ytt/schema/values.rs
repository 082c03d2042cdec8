//! The values schema at work while data values are computed ([`ValuesChecker`], called by
//! `datavalues::Pipeline`): it supplies the schema defaults, type-checks every source of
//! data values before it is merged, fills in defaults of new nodes after each merge, and
//! finally runs all validations (`#@schema/validation` and `#@assert/validate`) on the
//! final values, reporting every violation together.

use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::node::{Doc, Meta, Node, Pos};
use crate::ytt::starlark::Thread;

use super::check::{check_computed, check_doc, fill_defaults};
use super::error::{Sources, compact, to_error};
use super::source::SchemaSource;
use super::types::{Kind, Type};
use super::validation::Validation;

/// Schema type checks and validations for one library's data values.
pub struct ValuesChecker {
    /// The root type, when the library has a schema.
    pub root: Option<Type>,
    sources: Sources,
    /// `#@assert/validate` annotations of data values documents, by value path.
    asserts: Vec<(String, Validation)>,
    /// The first malformed `#@assert/validate`: ytt reads them on the final values,
    /// so it is reported when they are validated (and not at all when validations
    /// are disabled).
    bad_assert: Option<String>,
    disabled: bool,
}

const INVALID: &str = "\nOne or more data values were invalid";

/// The heading of every failure of the final validations.
const FINAL: &str = "Validating final data values:\n";

impl ValuesChecker {
    /// Reads the library's schema documents (if any).
    pub fn load<L: SchemaSource + Clone + 'static>(lib: &L) -> Result<ValuesChecker, Error> {
        let (root, sources) = super::load_schema(lib)?;
        Ok(ValuesChecker {
            root,
            sources,
            asserts: Vec::new(),
            bad_assert: None,
            disabled: lib.validation_disabled(),
        })
    }

    /// The schema's default values (the starting point of data values).
    pub fn defaults(&self) -> Option<Node> {
        self.root.as_ref().map(|t| t.default.clone())
    }

    /// Type-checks a `#@data/values` document and remembers its validations.
    pub fn check_doc(&mut self, d: &Doc) -> Result<(), Error> {
        if let Err(m) = collect_asserts(&d.value, &d.meta, "", &mut self.asserts) {
            self.bad_assert.get_or_insert(m);
        }
        if let Some(root) = &self.root {
            if d.value.is_empty_doc() && matches!(d.value, Node::Scalar(_)) {
                return Ok(());
            }
            let v = check_doc(&d.value, root, &d.meta.pos);
            if !v.is_empty() {
                let f: Vec<_> = v.iter().map(|v| v.failure()).collect();
                return Err(to_error(INVALID, &f, &self.sources));
            }
            warn_deprecated(&d.value, root);
        }
        Ok(())
    }

    /// Type-checks what the overlay functions of `#@data/values` document `d` computed,
    /// once `d` is merged into `values`.
    pub fn check_merged(&self, d: &Doc, values: &Option<Node>) -> Result<(), Error> {
        let (Some(root), Some(merged)) = (&self.root, values) else {
            return Ok(());
        };
        let mut v = Vec::new();
        check_computed(&d.value, merged, root, &mut v);
        if v.is_empty() {
            return Ok(());
        }
        let f: Vec<_> = v.iter().map(|v| v.failure()).collect();
        Err(to_error(INVALID, &f, &self.sources))
    }

    /// Type-checks values from a flag or file: `label` names the source in messages and
    /// `text` is its one-line source (`key=value`), when it is not a file.
    pub fn check_value(
        &self,
        node: &Node,
        label: &str,
        text: Option<(&str, &str)>,
    ) -> Result<(), Error> {
        let Some(root) = &self.root else {
            return Ok(());
        };
        let mut node = node.clone();
        let mut sources = self.sources.clone();
        if let Some((name, src)) = text {
            let pos = Pos {
                file: name.into(),
                line: 1,
            };
            reposition(&mut node, &pos);
            sources.add(name, src);
        }
        let v = check_doc(&node, root, &Pos::default());
        if !v.is_empty() {
            let f: Vec<_> = v.iter().map(|v| v.failure()).collect();
            let e = to_error(INVALID, &f, &sources);
            return Err(if label.is_empty() {
                e
            } else {
                e.context(label)
            });
        }
        warn_deprecated(&node, root);
        Ok(())
    }

    /// Adds the sources of a file read outside the library (`--data-values-file`).
    pub fn add_source(&mut self, name: &str, text: &str) {
        self.sources.add(name, text);
    }

    /// Fills defaults of nodes that a merge added.
    pub fn fill(&self, values: &mut Option<Node>) {
        if let (Some(root), Some(v)) = (&self.root, values.as_mut()) {
            fill_defaults(v, root);
        }
    }

    /// Runs all validations on the final values.
    pub fn finish(&self, values: &Option<Node>) -> Result<(), Error> {
        if self.disabled {
            return Ok(());
        }
        if let Some(m) = &self.bad_assert {
            return Err(Error::msg(format!("{FINAL}{m}")));
        }
        if self.asserts.is_empty() && !self.root.as_ref().is_some_and(has_validations) {
            return Ok(());
        }
        let root_node = values.clone().unwrap_or(Node::Map(Vec::new()));
        let mut w = Walk {
            thread: Thread::new(),
            root: &root_node,
            asserts: &self.asserts,
            report: Vec::new(),
        };
        w.visit(&root_node, self.root.as_ref(), None, "", &Pos::default())?;
        if w.report.is_empty() {
            return Ok(());
        }
        let mut msg = String::from(FINAL);
        for (path, from, broken) in &w.report {
            msg.push_str(&format!("  {path}\n    from: {from}\n"));
            for (b, by) in broken {
                msg.push_str(&format!("    - must be: {} (by: {by})\n", b.must_be));
                if !b.found.is_empty() {
                    msg.push_str(&format!("      found: {}\n", b.found));
                }
            }
            msg.push('\n');
        }
        Err(Error::msg(msg.trim_end().to_string()))
    }
}

thread_local! {
    static WARNINGS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Takes the warnings recorded on this thread since the last call (deprecated data
/// values that were given a value).
pub fn take_warnings() -> Vec<String> {
    WARNINGS.with(|w| std::mem::take(&mut *w.borrow_mut()))
}

fn warn_deprecated(node: &Node, root: &Type) {
    let mut uses = Vec::new();
    super::check::deprecated_uses(node, root, "", &mut uses);
    for (path, pos, notice) in uses {
        let at = if pos.file.is_empty() {
            String::new()
        } else if pos.file.starts_with('(') {
            format!(" (set by {})", pos.file)
        } else {
            format!(" (set in {})", compact(&pos))
        };
        WARNINGS.with(|w| {
            w.borrow_mut().push(format!(
                "Warning: data value '{path}'{at} is deprecated: {notice}"
            ))
        });
    }
}

fn has_validations(t: &Type) -> bool {
    !t.validations.is_empty()
        || match &t.kind {
            Kind::Map(fs) => fs.iter().any(|f| has_validations(&f.ty)),
            Kind::Array(i) => has_validations(i),
            _ => false,
        }
}

/// Sets every position in `node` to `pos`.
fn reposition(node: &mut Node, pos: &Pos) {
    match node {
        Node::Map(items) => {
            for i in items {
                i.meta.pos = pos.clone();
                reposition(&mut i.value, pos);
            }
        }
        Node::Array(items) => {
            for i in items {
                i.meta.pos = pos.clone();
                reposition(&mut i.value, pos);
            }
        }
        Node::Scalar(_) => {}
        Node::Shared(s) => reposition(&mut s.0.borrow_mut(), pos),
    }
}

/// The path of a map item under `parent`, as ytt's `pathToNode` writes it: the key as
/// `%s` prints it (a key that is not a string shows Go's `%!s(...)` form).
fn child_path(parent: &str, key: &Value) -> String {
    let key = crate::ytt::go_type::percent_s(key);
    if parent.is_empty() {
        key
    } else {
        format!("{parent}.{key}")
    }
}

/// Collects `#@assert/validate` annotations of a data values document by path.
fn collect_asserts(
    node: &Node,
    meta: &Meta,
    path: &str,
    out: &mut Vec<(String, Validation)>,
) -> Result<(), String> {
    for a in &meta.anns {
        if a.name == "assert/validate" {
            let v = Validation::from_ann(a)
                .map_err(|m| format!("Invalid @assert/validate annotation - {m}"))?;
            out.push((path.to_string(), v));
        }
    }
    match &*node.view() {
        Node::Map(items) => {
            for i in items {
                collect_asserts(&i.value, &i.meta, &child_path(path, &i.key), out)?;
            }
        }
        Node::Array(items) => {
            for (n, i) in items.iter().enumerate() {
                collect_asserts(&i.value, &i.meta, &format!("{path}[{n}]"), out)?;
            }
        }
        Node::Scalar(_) | Node::Shared(_) => {}
    }
    Ok(())
}

type Entry = (String, String, Vec<(super::validation::Broken, String)>);

struct Walk<'a> {
    thread: Thread,
    root: &'a Node,
    asserts: &'a [(String, Validation)],
    report: Vec<Entry>,
}

impl Walk<'_> {
    fn visit(
        &mut self,
        node: &Node,
        ty: Option<&Type>,
        parent: Option<&Node>,
        path: &str,
        from: &Pos,
    ) -> Result<(), Error> {
        let mut vals: Vec<&Validation> = Vec::new();
        if let Some(t) = ty {
            vals.extend(t.validations.iter());
        }
        vals.extend(
            self.asserts
                .iter()
                .filter(|(p, _)| p == path)
                .map(|(_, v)| v),
        );
        // Each validation that finds violations is reported on its own, as ytt does.
        let shown = if path.is_empty() {
            "(document)".to_string()
        } else {
            path.to_string()
        };
        // A value made in memory (`with_data_values`) has no file nor line: ytt's
        // position of it prints as `?`; one parsed from a `--data-value-yaml` value has
        // a line but no file, printed bare. The document keeps the schema's position.
        let from = match ty {
            Some(t) if from.file.is_empty() && path.is_empty() => compact(&t.pos),
            _ if from.file.is_empty() && from.line > 0 => from.line.to_string(),
            _ if from.file.is_empty() && !path.is_empty() => "?".to_string(),
            Some(t) if from.file.is_empty() => compact(&t.pos),
            _ => compact(from),
        };
        for v in vals {
            let r = v
                .run(&mut self.thread, node, parent, self.root)
                .map_err(|m| Error::msg(format!("{FINAL}Validating {path}: {m}")))?;
            let broken: Vec<_> = r
                .unwrap_or_default()
                .into_iter()
                .map(|b| (b, compact(&v.pos)))
                .collect();
            if !broken.is_empty() {
                self.report.push((shown.clone(), from.clone(), broken));
            }
        }
        match node {
            Node::Map(items) => {
                for it in items {
                    let t = ty.and_then(|t| t.field(&it.key));
                    self.visit(
                        &it.value,
                        t,
                        Some(node),
                        &child_path(path, &it.key),
                        &it.meta.pos,
                    )?;
                }
            }
            Node::Array(items) => {
                let t = ty.and_then(|t| match &t.kind {
                    Kind::Array(i) => Some(&**i),
                    _ => None,
                });
                for (n, it) in items.iter().enumerate() {
                    self.visit(
                        &it.value,
                        t,
                        Some(node),
                        &format!("{path}[{n}]"),
                        &it.meta.pos,
                    )?;
                }
            }
            // Data values reach the checks unshared.
            Node::Scalar(_) | Node::Shared(_) => {}
        }
        Ok(())
    }
}

impl ValuesChecker {
    /// Type-checks a `--data-value*` flag setting the value at key path `key` to `leaf`; `label` names
    /// the place ytt gives the flag (`(data-value arg)`, `(data-values-env arg) PREFIX`)
    /// and `text` is its line there (the argument, the environment variable), both shown
    /// in messages.
    ///
    /// As ytt's flag overlay does, only the map items of the key path sit at the flag's
    /// place; what a YAML value holds keeps the place its parse gave it: a line of the
    /// value, in no file (shown as such, quoting the value's text).
    pub fn check_flag(
        &self,
        key: &[String],
        leaf: &Node,
        label: &str,
        text: &str,
    ) -> Result<(), Error> {
        let Some(root) = &self.root else {
            return Ok(());
        };
        let at = Pos {
            file: label.into(),
            line: 1,
        };
        let mut node = leaf.clone();
        for part in key.iter().rev() {
            node = Node::Map(vec![crate::ytt::node::MapItem {
                key: Value::String(part.clone()),
                value: node,
                meta: Meta::at(at.clone()),
            }]);
        }
        let mut sources = self.sources.clone();
        sources.add(label, text);
        sources.add("", text.split_once('=').map_or(text, |(_, v)| v));
        let v = check_doc(&node, root, &Pos::default());
        if !v.is_empty() {
            let f: Vec<_> = v.iter().map(|v| v.failure()).collect();
            return Err(to_error(INVALID, &f, &sources));
        }
        warn_deprecated(&node, root);
        Ok(())
    }
}
