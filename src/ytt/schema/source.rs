//! What the values schema reads from a library: its files, their names in messages,
//! their parsed YAML and the documents of an evaluated schema file. The library and its
//! evaluator belong to the layer above (`eval`, which implements [`SchemaSource`]); the
//! schema never calls the evaluator itself.

use std::rc::Rc;

use crate::yaml::DocumentSet;
use crate::ytt::error::Error;
use crate::ytt::files::InputFile;
use crate::ytt::node::Doc;

/// A library as the values schema sees it.
pub trait SchemaSource {
    /// The library's own files, paths relative to the library root.
    fn files(&self) -> &[InputFile];
    /// The name of file `rel` in messages.
    fn display(&self, rel: &str) -> String;
    /// The parsed YAML of `f` (one of the library's files; `src` is its text), parsed once
    /// per run and shared with the other stages.
    fn parsed_yaml(&self, f: &InputFile, src: &str) -> Result<Rc<DocumentSet>, Error>;
    /// Evaluates template `f` and returns its documents. The file is evaluated again for
    /// the output, so what parsing and compiling made is kept for that evaluation.
    fn eval_schema_file(&self, f: &InputFile) -> Result<Vec<Doc>, Error>;
    /// Schema documents overlaid on the library's own schema, in order (the parent's
    /// `#@library/ref` documents for it, then `with_data_values_schema(...)`).
    fn extra_schemas(&self) -> Vec<Doc>;
    /// Keeps schema document `doc`, annotated `#@library/ref` with `path`, for the
    /// private library that path names (it is not part of this library's schema).
    fn keep_schema_ref(&self, path: String, doc: Doc);
    /// `--dangerous-data-values-disable-validation`.
    fn validation_disabled(&self) -> bool;
    /// The text of file `name` (a name in messages) of a library that got this one:
    /// the values it gives are quoted from there.
    fn outer_text(&self, name: &str) -> Option<std::sync::Arc<[u8]>>;
}
