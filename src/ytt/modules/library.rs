//! `@ytt:library`: private libraries under `_ytt_lib/`: `library.get(name)` and its
//! `with_data_values(...)`, `eval()`, `export(name)` and `data_values()`. Computing a
//! library's data values and rendering it are steps of the run, a layer above the
//! modules: they come in as [`LibrarySteps`].

use std::any::Any;
use std::rc::Rc;

use crate::ytt::error::Error;
use crate::ytt::eval::fragment::{Frag, Fragment, plain_to_struct, starlark_to_node};
use crate::ytt::eval::{Lib, LibRef, load_file};
use crate::ytt::files::FileKind;
use crate::ytt::node::{Doc, Node, Pos};
use crate::ytt::starlark::{Args, Error as SError, HostValue, Module, Thread, Value};

use super::{SResult, native};

/// The steps of a run that a private library goes through. The run implements them.
pub trait LibrarySteps {
    /// Computes `lib`'s data values from its own files, then `refs` (the parent's
    /// `#@library/ref` documents for it), `extra` (`with_data_values(...)`) and
    /// `flag_refs` (the parent's `--data-value @name:key=value` flags, plain by key).
    fn compute_values(
        &self,
        lib: &LibRef,
        refs: &[Doc],
        extra: &[Node],
        flag_refs: &[(String, Node)],
    ) -> Result<(), Error>;
    /// Templates `lib`'s output files and applies its overlays: its output documents.
    fn render(&self, lib: &LibRef) -> Result<Vec<Doc>, Error>;
}

/// A private library of `parent` by name, with its default data values.
pub fn private_lib(parent: &LibRef, name: &str, steps: &Rc<dyn LibrarySteps>) -> SResult<LibRef> {
    build(parent, name, name, &[], steps)
}

/// Builds library `name` of `parent`; `refname` (its alias, or its name) selects the
/// `#@library/ref` documents and `@ref:` flags meant for it.
fn build(
    parent: &LibRef,
    name: &str,
    refname: &str,
    extra: &[Node],
    steps: &Rc<dyn LibrarySteps>,
) -> SResult<LibRef> {
    let prefix = format!("_ytt_lib/{name}/");
    let files: Vec<_> = parent
        .private
        .iter()
        .filter(|f| f.rel.starts_with(&prefix))
        .map(|f| {
            let mut f = f.clone();
            f.rel = f.rel[prefix.len()..].to_string();
            let (kind, library) = crate::ytt::files::kind_of(&f.rel);
            f.kind = kind;
            f.library = library;
            f
        })
        .collect();
    if files.is_empty() {
        return Err(SError::new(format!(
            "Expected to find library '{name}' (hint: private libraries live in '_ytt_lib/{name}/')"
        )));
    }
    let lname = if parent.name.is_empty() {
        format!("_ytt_lib/{name}")
    } else {
        format!("{}/_ytt_lib/{name}", parent.name)
    };
    let lib = Lib::new(&lname, files, parent.opts, parent.loader.clone());
    let refs: Vec<_> = parent
        .refs
        .borrow()
        .iter()
        .filter(|(r, _)| r.trim_start_matches('@') == refname)
        .map(|(_, d)| d.clone())
        .collect();
    let flag_refs: Vec<(String, Node)> = parent
        .flag_refs
        .borrow()
        .iter()
        .filter(|(r, _, _)| r == refname)
        .map(|(_, k, n)| (k.clone(), n.clone()))
        .collect();
    steps
        .compute_values(&lib, &refs, extra, &flag_refs)
        .map_err(|e| SError::new(e.to_string()))?;
    Ok(lib)
}

/// `library.get(name)`'s value.
#[derive(Clone)]
struct Handle {
    parent: LibRef,
    name: String,
    alias: Option<String>,
    extra: Vec<Node>,
    steps: Rc<dyn LibrarySteps>,
}

impl Handle {
    fn lib(&self) -> SResult<LibRef> {
        let refname = self.alias.as_deref().unwrap_or(&self.name);
        build(&self.parent, &self.name, refname, &self.extra, &self.steps)
    }
}

impl HostValue for Handle {
    fn type_name(&self) -> String {
        "library".into()
    }
    fn attr(&self, name: &str) -> SResult<Option<Value>> {
        let h = self.clone();
        Ok(Some(match name {
            "with_data_values" => native("with_data_values", move |_t, a| {
                let v = a.unpack("with_data_values", &["values", "plain?"])?;
                let node = starlark_to_node(v[0].as_ref().expect("values"), &Pos::default())?;
                let mut h2 = h.clone();
                h2.extra.push(node);
                Ok(Value::host(h2))
            }),
            "eval" => native("eval", move |_t, _a| {
                let lib = h.lib()?;
                let docs = h
                    .steps
                    .render(&lib)
                    .map_err(|e| SError::new(e.to_string()))?;
                Ok(Fragment::value(Frag::DocSet(docs)))
            }),
            "data_values" => native("data_values", move |_t, _a| {
                let lib = h.lib()?;
                let v = lib.values.borrow().clone();
                Ok(plain_to_struct(&v))
            }),
            "export" => native("export", move |_t: &mut Thread, a: &Args| {
                let v = a.unpack("export", &["name", "path?"])?;
                let sym = v[0]
                    .as_ref()
                    .and_then(|x| x.as_str())
                    .unwrap_or("")
                    .to_string();
                let lib = h.lib()?;
                let mut found = Vec::new();
                for f in lib.files.clone() {
                    let loadable = f.library
                        && matches!(
                            f.kind,
                            FileKind::Starlark | FileKind::YamlTemplate | FileKind::TextTemplate
                        );
                    if !loadable {
                        continue;
                    }
                    if let Some(p) = v[1].as_ref().and_then(|x| x.as_str())
                        && p != f.rel
                    {
                        continue;
                    }
                    let m = load_file(&lib, &format!("/{}", f.rel))?;
                    if let Some(val) = m.get(&sym) {
                        found.push(val);
                    }
                }
                match found.len() {
                    1 => Ok(found.remove(0)),
                    0 => Err(SError::new(format!(
                        "Expected to find exported symbol '{sym}' in library '{}'",
                        h.name
                    ))),
                    _ => Err(SError::new(format!(
                        "Expected to find exactly one exported symbol '{sym}' in library '{}', but found multiple (hint: use path=...)",
                        h.name
                    ))),
                }
            }),
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<String> {
        ["data_values", "eval", "export", "with_data_values"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

pub fn module(lib: &LibRef, steps: &Rc<dyn LibrarySteps>) -> Module {
    let l = lib.clone();
    let steps = steps.clone();
    super::module(
        "@ytt:library",
        vec![(
            "get",
            native("library.get", move |_t, a| {
                let v = a.unpack(
                    "library.get",
                    &[
                        "name",
                        "alias?",
                        "ignore_unknown_comments?",
                        "implicit_map_key_overrides?",
                    ],
                )?;
                let name = v[0]
                    .as_ref()
                    .and_then(|x| x.as_str())
                    .unwrap_or("")
                    .trim_start_matches('@')
                    .to_string();
                // Fail early when the library does not exist.
                let prefix = format!("_ytt_lib/{name}/");
                if !l.private.iter().any(|f| f.rel.starts_with(&prefix)) {
                    return Err(SError::new(format!(
                        "Expected to find library '{name}' (hint: private libraries live in '_ytt_lib/{name}/')"
                    )));
                }
                let alias = v[1].as_ref().and_then(|x| x.as_str()).map(str::to_string);
                Ok(Value::Host(Rc::new(Handle {
                    parent: l.clone(),
                    name,
                    alias,
                    extra: Vec::new(),
                    steps: steps.clone(),
                })))
            }),
        )],
    )
}
