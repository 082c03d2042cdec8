//! Rendering a library: template every output file in order, take overlay documents
//! out and apply them to all other documents, drop empty documents. [`module_loader`]
//! gives a library the `@ytt:*` modules, with [`RunSteps`] for its private libraries.

use std::path::Path;
use std::rc::Rc;

use crate::ytt::datavalues::{Pipeline, is_values_file};
use crate::ytt::error::Error;
use crate::ytt::eval::{
    LibRef, ModuleLoader, eval_library_file, eval_text, eval_yaml_for_output, first_read_error,
};
use crate::ytt::files::FileKind;
use crate::ytt::lookup::accessible_order;
use crate::ytt::modules::{LibraryResult, LibrarySteps, Modules};
use crate::ytt::node::{Doc, Node, Pos};
use crate::ytt::overlay::{Overlay, is_overlay_doc};
use crate::ytt::starlark::{Module, Thread};

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
    /// The modules of the library files, with their relative paths, in evaluation order
    /// (what `library.export` looks in).
    pub exports: Vec<(String, Module)>,
}

/// Templates the library's output files and applies its overlays.
///
/// As ytt's `LibraryExecution.eval` does, the files are visited in
/// [`accessible_order`] (a directory's own files before its subdirectories'): output
/// templates are evaluated, and so is every library file (`*.star`, `*.lib.yml`,
/// `*.lib.txt`), loaded or not, its module kept for `library.export`. Text outputs keep
/// that order; YAML outputs are put back in input order.
pub fn render(lib: &LibRef) -> Result<Rendered, Error> {
    let mut per_file: Vec<(usize, Rc<str>, Vec<Doc>)> = Vec::new();
    let mut texts = Vec::new();
    let mut exports = Vec::new();
    let files = lib.files.clone();
    for i in accessible_order(files.iter().map(|f| f.rel.as_str())) {
        let f = &files[i];
        if !f.is_output_template() {
            if f.for_output == Some(true) && matches!(f.kind, FileKind::Data | FileKind::Starlark) {
                // ytt's `LibraryExecution.eval` has no way to output such a file.
                return Err(Error::Template {
                    message: "Unknown file type".to_string(),
                    pos: None,
                });
            }
            if f.library
                && let Some(module) = eval_library_file(lib, f)?
            {
                exports.push((f.rel.clone(), module));
            }
            continue;
        }
        match f.kind {
            FileKind::YamlTemplate | FileKind::YamlPlain => {
                if f.kind == FileKind::YamlTemplate && is_values_file(lib, f)? {
                    continue;
                }
                let ev = eval_yaml_for_output(lib, f)?;
                let origin: Rc<str> = Rc::from(lib.display(&f.rel).as_str());
                per_file.push((i, origin, ev.docs));
            }
            FileKind::TextTemplate => {
                let ev = eval_text(lib, f)?;
                texts.push((f.rel.clone(), ev.text.unwrap_or_default()));
            }
            FileKind::TextPlain => {
                // Written back byte for byte: bytes that are no UTF-8 are carried.
                texts.push((f.rel.clone(), crate::go_bytes::from_bytes(&f.bytes)));
            }
            _ => {}
        }
    }
    // ytt's `LibraryExecution.eval` refuses the `#@library/ref` documents and `@lib:`
    // flags no `library.get` took once every file is evaluated, before the overlays.
    lib.check_refs_used()?;
    per_file.sort_by_key(|(i, _, _)| *i);
    let mut docs = Vec::new();
    let mut overlays = Vec::new();
    let mut yaml_files = Vec::new();
    for (_, origin, file_docs) in per_file {
        yaml_files.push(origin.clone());
        for mut d in file_docs {
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
    // Overlays done, the nodes fragments placed at several places are copied out.
    docs.iter_mut().for_each(|d| d.value.unshare());
    docs.retain(kept);
    Ok(Rendered {
        docs,
        texts,
        yaml_files,
        exports,
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
        flag_refs: &[(Vec<String>, Node, Pos)],
    ) -> Result<(), Error> {
        let p = Pipeline {
            lib,
            cwd: Path::new("."),
            stdin: None,
            symlinks: &crate::ytt::symlinks::SymlinkPolicy::default(),
        };
        p.run_library(refs, flag_refs, extra)
            .map(drop)
            .map_err(|e| first_read_error(lib).unwrap_or(e))
    }

    fn render(&self, lib: &LibRef) -> Result<LibraryResult, Error> {
        render(lib)
            .map(|r| LibraryResult {
                docs: r.docs,
                exports: r.exports,
            })
            .map_err(|e| first_read_error(lib).unwrap_or(e))
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
