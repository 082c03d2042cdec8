//! Rendering a library: template every output file in order, take overlay documents
//! out and apply them to all other documents, drop empty documents. [`module_loader`]
//! gives a library the `@ytt:*` modules, with [`RunSteps`] for its private libraries.

use std::path::Path;
use std::rc::Rc;

use crate::ytt::datavalues::{Pipeline, is_values_file};
use crate::ytt::error::Error;
use crate::ytt::eval::{LibRef, ModuleLoader, eval_text, eval_yaml};
use crate::ytt::files::FileKind;
use crate::ytt::modules::{LibrarySteps, Modules};
use crate::ytt::node::{Doc, Node};
use crate::ytt::overlay::{Overlay, is_overlay_doc};
use crate::ytt::starlark::Thread;

/// The result of rendering a library.
pub struct Rendered {
    /// Output documents (after overlays; empty documents dropped), in file order.
    pub docs: Vec<Doc>,
    /// Text template outputs: (relative path, text).
    pub texts: Vec<(String, String)>,
    /// The YAML files written by `--output-files`, in order: as in ytt, those with a
    /// document to output before the overlays ran (written empty if the overlays
    /// removed them all).
    /// Each is the `origin` its documents carry (one per input file, told apart by
    /// identity: two `-f` directories may hold files of the same relative path).
    pub yaml_files: Vec<std::rc::Rc<str>>,
}

/// Templates the library's output files and applies its overlays.
pub fn render(lib: &LibRef) -> Result<Rendered, Error> {
    let mut docs = Vec::new();
    let mut overlays = Vec::new();
    let mut texts = Vec::new();
    let mut yaml_files = Vec::new();
    for f in lib.files.clone() {
        if !f.is_output_template() {
            if f.for_output == Some(true) && matches!(f.kind, FileKind::Data | FileKind::Starlark) {
                // ytt's `LibraryExecution.eval` has no way to output such a file.
                return Err(Error::Template {
                    message: "Unknown file type".to_string(),
                    pos: None,
                });
            }
            continue;
        }
        match f.kind {
            FileKind::YamlTemplate | FileKind::YamlPlain => {
                if f.kind == FileKind::YamlTemplate && is_values_file(lib, &f)? {
                    continue;
                }
                let ev = eval_yaml(lib, &f)?;
                let origin: std::rc::Rc<str> = std::rc::Rc::from(lib.display(&f.rel).as_str());
                yaml_files.push(origin.clone());
                for mut d in ev.docs {
                    d.meta.origin = Some(origin.clone());
                    if is_overlay_doc(&d) {
                        overlays.push(d);
                    } else if d.meta.has("data/values-schema") {
                        // consumed by the values schema, never output
                    } else {
                        docs.push(d);
                    }
                }
            }
            FileKind::TextTemplate => {
                let ev = eval_text(lib, &f)?;
                texts.push((f.rel.clone(), ev.text.unwrap_or_default()));
            }
            FileKind::TextPlain => {
                texts.push((
                    f.rel.clone(),
                    String::from_utf8_lossy(&f.bytes).into_owned(),
                ));
            }
            _ => {}
        }
    }
    docs.retain(kept);
    yaml_files.retain(|file| docs.iter().any(|d| is_from(d, file)));
    if !overlays.is_empty() {
        let mut thread = Thread::new();
        let mut o = Overlay {
            thread: &mut thread,
        };
        let mut overlay_files: Vec<&str> = Vec::new();
        for ov in &overlays {
            let file = ov.meta.origin.as_deref().unwrap_or_default();
            if !overlay_files.contains(&file) {
                overlay_files.push(file);
            }
        }
        let order = format!(
            "Overlaying (in following order: {})",
            overlay_files.join(", ")
        );
        for ov in &overlays {
            o.apply_docs(&mut docs, std::slice::from_ref(ov))
                .map_err(|e| e.without_pos().context(&order))?;
        }
    }
    docs.retain(kept);
    Ok(Rendered {
        docs,
        texts,
        yaml_files,
    })
}

/// What `@ytt:library` puts a private library through: the data values pipeline, then
/// [`render`].
pub struct RunSteps;

impl LibrarySteps for RunSteps {
    fn compute_values(
        &self,
        lib: &LibRef,
        refs: &[Doc],
        extra: &[(Node, bool)],
        flag_refs: &[(String, Node)],
    ) -> Result<(), Error> {
        let p = Pipeline {
            lib,
            cwd: Path::new("."),
            stdin: None,
        };
        p.run_library(refs, flag_refs, extra).map(drop)
    }

    fn render(&self, lib: &LibRef) -> Result<Vec<Doc>, Error> {
        render(lib).map(|r| r.docs)
    }
}

/// The module loader of a run's libraries: the `@ytt:*` modules, private libraries
/// going through [`RunSteps`].
pub fn module_loader() -> Rc<dyn ModuleLoader> {
    Rc::new(Modules::new(Rc::new(RunSteps)))
}

/// Whether a document goes to the output (see [`Doc::printed`]).
/// Whether document `d` is part of the output of the file `origin` stands for.
pub fn is_from(d: &Doc, origin: &std::rc::Rc<str>) -> bool {
    d.meta
        .origin
        .as_ref()
        .is_some_and(|o| std::rc::Rc::ptr_eq(o, origin))
}

fn kept(d: &Doc) -> bool {
    d.printed()
}
