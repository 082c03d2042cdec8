//! What ytt's `LibraryExecution` does with a library's files beyond the templates it
//! outputs: it evaluates every library file whether loaded or not, and its schema stage
//! reads every YAML template before anything is evaluated.

use std::rc::Rc;

use super::{LibRef, eval_star, eval_text, eval_yaml};
use crate::ytt::error::Error;
use crate::ytt::files::{FileKind, InputFile};
use crate::ytt::starlark::Module;

/// Evaluates library file `f` of `lib` (a `*.star`, `*.lib.yml` or `*.lib.txt` file) as
/// ytt's `LibraryExecution.eval` evaluates every library file of a library, loaded or
/// not: its module, or `None` for a file of no known type. A module some `load()`
/// already made is reused (evaluating a file again gives the same module).
pub fn eval_library_file(lib: &LibRef, f: &InputFile) -> Result<Option<Module>, Error> {
    // `load()` reaches the first file of a path; another file of the same path (from
    // another `-f` directory) is evaluated on its own.
    let cached = lib.file(&f.rel).is_some_and(|first| first.key() == f.key());
    if cached && let Some(m) = lib.cache.borrow().get(&f.rel) {
        return Ok(Some(m.clone()));
    }
    let m = match f.kind {
        FileKind::Starlark => eval_star(lib, f)?,
        FileKind::TextTemplate | FileKind::TextPlain => eval_text(lib, f)?.module,
        FileKind::YamlTemplate | FileKind::YamlPlain => eval_yaml(lib, f)?.module,
        FileKind::Data => return Ok(None),
    };
    if cached {
        lib.cache.borrow_mut().insert(f.rel.clone(), m.clone());
    }
    Ok(Some(m))
}

/// The error ytt's schema stage would meet in `lib` before any template is evaluated:
/// it reads every YAML template (a `*.yml` file that is no library file, or one marked
/// `type=yaml-template`) in [`crate::ytt::lookup::accessible_order`], parsing each and
/// refusing `#@data/values-schema` on a node that is not a document. An evaluation
/// error met earlier than that in this run gives way to it.
pub fn first_read_error(lib: &LibRef) -> Option<Error> {
    let order = crate::ytt::lookup::accessible_order(lib.files.iter().map(|f| f.rel.as_str()));
    let templates: Vec<&InputFile> = order
        .into_iter()
        .map(|i| &lib.files[i])
        .filter(|f| f.kind == FileKind::YamlTemplate && (f.marked_template || !f.library))
        .collect();
    for f in templates {
        let text = f.go_text();
        let src: &str = &text;
        let cached = lib.parsed.borrow().get(&f.key()).cloned();
        let parsed = match cached {
            Some(ds) => Ok(ds),
            None => lib.parse_file(src, &lib.display(&f.rel)).map(Rc::new),
        };
        // `--strict` is a parse option to ytt: a file outside the strict subset fails
        // to parse.
        let strict = |ds| match lib.opts.strict {
            true => {
                crate::ytt::yaml_docs::parse_yaml_with(src, &lib.display(&f.rel), true).map(|_| ds)
            }
            false => Ok(ds),
        };
        let checked = parsed.and_then(strict).and_then(|ds| {
            crate::ytt::yaml_docs::check_doc_only_annotation(&ds, "data/values-schema")
        });
        if let Err(e) = checked {
            return Some(e);
        }
    }
    None
}
