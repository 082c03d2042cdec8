//! Data values: `#@data/values` documents merged as overlays in file order (arrays
//! append, new keys need `missing_ok`), then the command-line flags in ytt's order:
//! `--data-values-file` (plain YAML, arrays replace; a directory gives every file under it), `--data-values-env`,
//! `--data-value`, `--data-value-yaml`, `--data-value-file` (dotted keys, new keys
//! allowed). A values schema plugs in between the documents and the flags: see
//! [`Pipeline`].

use std::path::Path;

use crate::yaml::{CommentKind, Node as YamlNode, Value};
use crate::ytt::error::Error;
use crate::ytt::eval::{LibRef, eval_yaml};
use crate::ytt::files::{FileKind, InputFile};
use crate::ytt::library_ref::{check_ref_path, library_ref};
use crate::ytt::node::{Doc, Meta, Node, Pos};
use crate::ytt::options::DataValueFlag;
use crate::ytt::overlay::{Defaults, Overlay};
use crate::ytt::starlark::Thread;
use crate::ytt::yaml_docs::parse_yaml_named;

mod flags;
mod key_path;
mod plain_merge;
use flags::values_file_paths;
#[cfg(test)]
use key_path::set_path;
use key_path::{dotted_key_path, set_path_at};
use plain_merge::plain_merge_into;

/// What a values schema contributes to the pipeline (implemented by the schema
/// module; `None` means "no schema": the first `#@data/values` document then defines
/// the values and flags may add new keys).
pub trait ValuesSchema {
    /// The defaults the values start from.
    fn defaults(&self) -> Node;
    /// Checks the values after a stage (`"data values file x.yml"`, `"--data-value"`,
    /// ...): types, unknown keys. Validations run once at the end ([`Self::validate`]).
    fn check(&self, values: &Node, stage: &str) -> Result<(), Error>;
    /// Runs the schema's validations on the final values.
    fn validate(&self, values: &Node) -> Result<(), Error>;
}

/// The stages of computing a library's data values.
pub struct Pipeline<'a> {
    pub lib: &'a LibRef,
    pub cwd: &'a Path,
    /// Reads standard input for a `-` data values file (once in a run, as ytt reads
    /// it); none for private libraries.
    pub stdin: Option<&'a dyn Fn() -> std::io::Result<Vec<u8>>>,
    /// The symlink flags, which the files data values flags name are checked by too.
    pub symlinks: &'a crate::ytt::symlinks::SymlinkPolicy,
}

/// The pipeline with an optional schema.
impl Pipeline<'_> {
    /// Keeps a flag's value for private library `lib` (at `key`, empty for a whole
    /// document), with the place ytt names it by when no `library.get` takes it.
    fn keep_for_library(&self, lib: &str, key: Vec<String>, value: Node, place: String) {
        self.lib
            .flag_refs
            .borrow_mut()
            .push((lib.to_string(), key, value));
        self.lib
            .flag_ref_places
            .borrow_mut()
            .push((format!("@{lib}"), place));
    }

    /// Like [`Pipeline::run`], starting from and checking against `schema`.
    pub fn run_with_schema(
        &self,
        schema: Option<&dyn ValuesSchema>,
        flags: &[DataValueFlag],
        refs: &[Doc],
        extra: &[(Node, bool)],
    ) -> Result<(), Error> {
        self.run_inner(schema, flags, refs, &[], extra).map(drop)
    }
}

/// The data values overlay stage of one library, as ytt names it in its errors:
/// `Overlaying data values (in following order: a.yml, b.yml, additional data values): `
/// before whatever went wrong while merging or checking the values.
pub struct OverlayStage {
    order: String,
}

impl OverlayStage {
    /// The stage over the library's values files (shown as given) and, when `additional`,
    /// the values given from outside them (flags, `#@library/ref` documents,
    /// `with_data_values`).
    pub fn new(files: impl Iterator<Item = String>, additional: bool) -> OverlayStage {
        let mut order: Vec<String> = files.collect();
        if additional {
            order.push("additional data values".to_string());
        }
        OverlayStage {
            order: order.join(", "),
        }
    }

    /// Prefixes an error of the stage. Overlay errors and schema reports name their
    /// lines themselves, so no source position is shown under them, as in ytt; other
    /// errors keep theirs (the file and line of the document at fault).
    pub fn wrap(&self, e: Error) -> Error {
        let e = match e {
            Error::Template { message, .. } if message.contains("data values were invalid") => {
                Error::Template { message, pos: None }
            }
            e => e.without_pos(),
        };
        e.context(&format!(
            "Overlaying data values (in following order: {})",
            self.order
        ))
    }
}

/// True when a YAML template file holds `#@data/values` documents.
pub fn is_values_file(lib: &LibRef, f: &InputFile) -> Result<bool, Error> {
    if f.kind != FileKind::YamlTemplate || f.library {
        return Ok(false);
    }
    // Cheap pre-filter: a file whose text never says `data/values` has no such
    // annotation, and need not be parsed for this stage.
    if !f.mentions_data_values {
        return Ok(false);
    }
    let ds = lib.parsed_yaml(f, &f.go_text())?;
    crate::ytt::yaml_docs::check_doc_only_annotation(&ds, "data/values")?;
    Ok(crate::ytt::yaml_docs::has_doc_annotation(
        &ds,
        "data/values",
    ))
}

impl Pipeline<'_> {
    /// Evaluates the values files, then applies `extra` values (library
    /// `with_data_values`: as an overlay, or merged plainly when their flag is set) and the
    /// flags; stores the result in the library. Returns the library's values schema (its
    /// root type), if it has one, as the values were checked against it.
    pub fn run(
        &self,
        flags: &[DataValueFlag],
        refs: &[Doc],
        extra: &[(Node, bool)],
    ) -> Result<Option<crate::ytt::schema::Type>, Error> {
        self.run_inner(None, flags, refs, &[], extra)
    }

    /// The values of a library: its own values files, the parent's `#@library/ref`
    /// documents for it, the parent's `@lib:` flags (`lib_flags`: key path, or empty for a
    /// whole `--data-values-file`, and value), the library's `with_data_values`, then
    /// the parent's documents marked `after_library_module=True`, as ytt orders them.
    pub fn run_library(
        &self,
        refs: &[Doc],
        lib_flags: &[(Vec<String>, Node, Pos)],
        extra: &[(Node, bool)],
    ) -> Result<Option<crate::ytt::schema::Type>, Error> {
        self.run_inner(None, &[], refs, lib_flags, extra)
    }

    fn run_inner(
        &self,
        schema: Option<&dyn ValuesSchema>,
        flags: &[DataValueFlag],
        refs: &[Doc],
        lib_flags: &[(Vec<String>, Node, Pos)],
        extra: &[(Node, bool)],
    ) -> Result<Option<crate::ytt::schema::Type>, Error> {
        // Schema hook (helper "schema"): `#@data/values-schema` defaults first, every
        // source type-checked before it is merged, defaults of new nodes filled after,
        // all validations (`#@schema/validation`, `#@assert/validate`) at the end.
        let mut checker = crate::ytt::schema::ValuesChecker::load(self.lib)?;
        let mut values: Option<Node> = schema.map(|s| s.defaults()).or(checker.defaults());
        // Where the values document is: that of the first source of values (the schema's
        // defaults, else the first values document or flag), as ytt overlays every later
        // one onto it.
        let mut doc_pos = DocPos::default();
        doc_pos.note(&values, || match schema {
            None => checker.root.as_ref().map(|t| t.pos.clone()),
            Some(_) => None,
        });
        let mut values_files = Vec::new();
        for f in self.lib.files.clone() {
            if is_values_file(self.lib, &f)? {
                values_files.push(f);
            }
        }
        let additional = !refs.is_empty()
            || !lib_flags.is_empty()
            || !extra.is_empty()
            || flags.iter().any(|f| !f.targets_library());
        let stage = OverlayStage::new(
            values_files.iter().map(|f| self.lib.display(&f.rel)),
            additional,
        );
        // As ytt's `collectDataValuesDocs` does, every values file is templated (and its
        // documents' annotations read) before any document is overlaid.
        let mut own_docs: Vec<(Doc, String)> = Vec::new();
        for f in values_files {
            // As in ytt, values files are templated before any values exist: their
            // `data.values` is empty.
            *self.lib.values.borrow_mut() = Value::Null;
            let shown = self.lib.display(&f.rel);
            let templating =
                |e: Error| stage.wrap(e.context(&format!("Templating file '{shown}'")));
            let ev = eval_yaml(self.lib, &f).map_err(templating)?;
            // `extractDataValueDocs` refuses any other non-empty document first. (ytt
            // gives no position; the document's is kept, as the conformance runner wants
            // every error to name a file and line.)
            if let Some(d) = ev
                .docs
                .iter()
                .find(|d| !d.meta.has("data/values") && !d.value.is_empty_doc())
            {
                return Err(templating(Error::at(
                    format!(
                        "Expected data values file '{shown}' to only have data values documents"
                    ),
                    pos_of(&d.meta),
                )));
            }
            for d in ev.docs {
                if !d.meta.has("data/values") {
                    continue;
                }
                // `NewEnvelope` reads the library ref, then the keywords.
                let r = match d.meta.ann("library/ref") {
                    Some(r) => Some(library_ref(r).map_err(|e| stage.wrap(e))?),
                    None => None,
                };
                check_values_kwargs(&d).map_err(|e| stage.wrap(e))?;
                match r {
                    Some(name) => self
                        .lib
                        .refs
                        .borrow_mut()
                        .push(crate::ytt::eval::Addressed {
                            original: name.clone(),
                            path: name,
                            doc: d,
                        }),
                    None => own_docs.push((d, shown.clone())),
                }
            }
        }
        for (d, shown) in own_docs {
            // ytt checks a values document against the schema before it overlays it, so
            // an undeclared key is named as such.
            checker.check_doc(&d).map_err(|e| stage.wrap(e))?;
            apply_values_doc(&mut values, &d).map_err(|e| stage.wrap(e))?;
            checker
                .check_merged(&d, &values)
                .map_err(|e| stage.wrap(e))?;
            doc_pos.note(&values, || Some(d.meta.pos.clone()));
            checker.fill(&mut values);
            if let (Some(s), Some(v)) = (schema, &values) {
                s.check(v, &format!("data values file {shown}"))
                    .map_err(|e| stage.wrap(e))?;
            }
        }
        let after_module = |d: &Doc| {
            d.meta
                .ann("data/values")
                .and_then(|a| a.kwarg("after_library_module"))
                .is_some_and(|v| v.truth())
        };
        let w = |e: Error| stage.wrap(e);
        for d in refs.iter().filter(|d| !after_module(d)) {
            apply_values_doc(&mut values, d).map_err(w)?;
            doc_pos.note(&values, || Some(d.meta.pos.clone()));
            checker.check_doc(d).map_err(w)?;
            checker.check_merged(d, &values).map_err(w)?;
            checker.fill(&mut values);
        }
        for (key, node, at) in lib_flags {
            if key.is_empty() {
                // A whole values file (`--data-values-file @lib:path`).
                checker.check_value(node, "", None).map_err(w)?;
                plain_merge_into(&mut values, node, at).map_err(w)?;
            } else {
                checker
                    .check_flag(key, node, "(data-value arg)", &key.join("."))
                    .map_err(w)?;
                set_path_at(&mut values, key, node, at).map_err(w)?;
            }
            checker.fill(&mut values);
        }
        for (e, plain) in extra {
            checker.check_value(e, "", None).map_err(w)?;
            if *plain {
                plain_merge_into(&mut values, e, &Pos::default()).map_err(w)?;
            } else {
                let doc = Doc {
                    value: e.clone(),
                    meta: Meta::default(),
                };
                apply_values_doc(&mut values, &doc).map_err(w)?;
            }
            checker.fill(&mut values);
        }
        for d in refs.iter().filter(|d| after_module(d)) {
            apply_values_doc(&mut values, d).map_err(w)?;
            doc_pos.note(&values, || Some(d.meta.pos.clone()));
            checker.check_doc(d).map_err(w)?;
            checker.check_merged(d, &values).map_err(w)?;
            checker.fill(&mut values);
        }
        self.apply_flags(&mut values, flags, &mut checker, &stage, &mut doc_pos)?;
        if let (Some(s), Some(v)) = (schema, &values) {
            s.check(v, "command-line data values").map_err(w)?;
            s.validate(v)?;
        }
        // (Schema hook: `#@assert/validate` runs with the schema validations, so that
        // all violations are reported together and the disable flag applies.)
        checker.finish(&values)?;
        // Modules loaded while evaluating values files saw partial values.
        self.lib.clear_cache();
        *self.lib.values.borrow_mut() = values.as_ref().map_or(Value::Null, Node::to_value);
        *self.lib.values_doc.borrow_mut() = values.map(|value| Doc {
            value,
            meta: Meta::at(doc_pos.0.unwrap_or_default()),
        });
        Ok(checker.root)
    }

    /// Reads every data value flag as ytt's `AsOverlays` reads them before it looks at
    /// any schema (values files, then `--data-values-env` and `-env-yaml` prefixes, then
    /// `--data-value`, `-yaml` and `-file` arguments), applying none: a run that only
    /// exports the schema still fails on a bad flag.
    pub fn check_flags(&self, flags: &[DataValueFlag]) -> Result<(), Error> {
        let extracting = |e: Error| e.context("Extracting data value from file");
        for fl in flags {
            if let DataValueFlag::ValuesFile(arg) = fl {
                let path = arg
                    .strip_prefix('@')
                    .and_then(|r| r.split_once(':'))
                    .map_or(arg.as_str(), |(_, path)| path);
                for (display, source) in
                    values_file_paths(self.cwd, path, self.stdin, self.symlinks)
                        .map_err(extracting)?
                {
                    self.read_values_file(&display, path, &source)
                        .map_err(extracting)?;
                }
            }
        }
        // Then every `--data-values-env` prefix and every `--data-values-env-yaml` one.
        for yaml in [false, true] {
            for fl in flags {
                match fl {
                    DataValueFlag::Env(p) if !yaml => self.read_env(p, false)?,
                    DataValueFlag::EnvYaml(p) if yaml => self.read_env(p, true)?,
                    _ => continue,
                };
            }
        }
        // ytt's `AsOverlays` reads every `--data-value`, then every `--data-value-yaml`,
        // then every `--data-value-file`, whatever their order on the command line.
        let kvs = |kind: u8| {
            flags.iter().filter_map(move |fl| match fl {
                DataValueFlag::String(kv) if kind == 0 => Some((kv, 0)),
                DataValueFlag::Yaml(kv) if kind == 1 => Some((kv, 1)),
                DataValueFlag::File(kv) if kind == 2 => Some((kv, 2)),
                _ => None,
            })
        };
        for (kv, k) in kvs(0).chain(kvs(1)).chain(kvs(2)) {
            self.flag_value(kv, k).map_err(|e| {
                e.context(if k == 2 {
                    "Extracting data value from file"
                } else {
                    "Extracting data value from KV"
                })
            })?;
        }
        Ok(())
    }

    fn apply_flags(
        &self,
        values: &mut Option<Node>,
        flags: &[DataValueFlag],
        schema: &mut crate::ytt::schema::ValuesChecker,
        stage: &OverlayStage,
        doc_pos: &mut DocPos,
    ) -> Result<(), Error> {
        let w = |e: Error| stage.wrap(e);
        let extracting = |e: Error| e.context("Extracting data value from file");
        for fl in flags {
            if let DataValueFlag::ValuesFile(arg) = fl {
                // `@lib:path` gives a library its values from a file.
                if let Some((lib_name, path)) =
                    arg.strip_prefix('@').and_then(|r| r.split_once(':'))
                {
                    if lib_name.is_empty() {
                        return Err(extracting(Error::Usage(
                            "Expected library ref to not be empty".into(),
                        )));
                    }
                    // Each document is addressed to the library on its own (ytt makes
                    // an envelope of each), named by its place when no library takes it.
                    for (display, source) in
                        values_file_paths(self.cwd, path, self.stdin, self.symlinks)
                            .map_err(extracting)?
                    {
                        let docs = self
                            .read_values_file(&display, path, &source)
                            .map_err(extracting)?;
                        let places = docs.places.clone();
                        for (d, place) in docs.into_iter().zip(places) {
                            // ytt checks the library path as it addresses each document.
                            check_ref_path(&format!("@{lib_name}"))
                                .map_err(|m| extracting(Error::Usage(m)))?;
                            self.keep_for_library(lib_name, Vec::new(), d, place.to_string());
                        }
                    }
                    continue;
                }
                for (display, source) in values_file_paths(self.cwd, arg, self.stdin, self.symlinks)
                    .map_err(extracting)?
                {
                    let docs = self
                        .read_values_file(&display, arg, &source)
                        .map_err(extracting)?;
                    if let Some(src) = &docs.source {
                        schema.add_source(&display, src);
                    }
                    let first = docs.first_pos.clone();
                    let places = docs.places.clone();
                    for (d, place) in docs.into_iter().zip(places) {
                        schema.check_value(&d, "", None).map_err(w)?;
                        plain_merge_into(values, &d, &place).map_err(w)?;
                        doc_pos.note(values, || Some(first.clone()));
                        schema.fill(values);
                    }
                }
            }
        }
        // Every `--data-values-env` prefix, then every `--data-values-env-yaml` one,
        // as ytt takes them.
        for yaml in [false, true] {
            for fl in flags {
                let prefix = match fl {
                    DataValueFlag::Env(p) if !yaml => p,
                    DataValueFlag::EnvYaml(p) if yaml => p,
                    _ => continue,
                };
                self.env_values(values, schema, prefix, yaml, &w, doc_pos)?;
            }
        }
        for kind in 0..3 {
            for fl in flags {
                let (kv, k) = match (kind, fl) {
                    (0, DataValueFlag::String(kv)) => (kv, 0),
                    (1, DataValueFlag::Yaml(kv)) => (kv, 1),
                    (2, DataValueFlag::File(kv)) => (kv, 2),
                    _ => continue,
                };
                let flag = ["--data-value", "--data-value-yaml", "--data-value-file"][k];
                let (lib_name, key, val) = self.flag_value(kv, k).map_err(|e| {
                    e.context(if k == 2 {
                        "Extracting data value from file"
                    } else {
                        "Extracting data value from KV"
                    })
                })?;
                let path = dotted_key_path(&key);
                // ytt places a flag's value at line 1 of a file named after the flag.
                let at = Pos {
                    file: match k {
                        2 => format!(
                            "(data-value-file arg) {key}={}",
                            kv.split_once('=').map_or("", |(_, p)| p)
                        ),
                        _ => format!("({} arg)", flag.trim_start_matches("--")),
                    }
                    .into(),
                    line: 1,
                };
                let leaf = val;
                match lib_name {
                    Some(l) => self.keep_for_library(&l, path, leaf, at.to_string()),
                    None => {
                        let label = format!("({} arg)", flag.trim_start_matches("--"));
                        schema.check_flag(&path, &leaf, &label, kv).map_err(w)?;
                        set_path_at(values, &path, &leaf, &at).map_err(w)?;
                        doc_pos.note(values, || Some(at.clone()));
                        schema.fill(values);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Where the values document starts, once known: see [`Pipeline::run`].
#[derive(Default)]
pub(super) struct DocPos(Option<Pos>);

impl DocPos {
    /// Takes the place of the source just applied when it was the first to give values.
    pub(super) fn note(&mut self, values: &Option<Node>, at: impl FnOnce() -> Option<Pos>) {
        if self.0.is_none() && values.is_some() {
            self.0 = Some(at().unwrap_or_default());
        }
    }
}

/// The non-empty documents of one plain data values file, and its text (for reports).
struct ValuesFileDocs {
    docs: Vec<Node>,
    /// Where each of `docs` starts.
    places: Vec<Pos>,
    /// Where the first of `docs` starts (the values document's place when it is the first
    /// data values given).
    first_pos: Pos,
    source: Option<String>,
}

impl IntoIterator for ValuesFileDocs {
    type Item = Node;
    type IntoIter = std::vec::IntoIter<Node>;
    fn into_iter(self) -> Self::IntoIter {
        self.docs.into_iter()
    }
}

impl Pipeline<'_> {
    /// Reads and checks one `--data-values-file` file (`display` names it in errors):
    /// plain YAML, no `#@` annotations, no key given twice in one map.
    /// `arg` is the flag's path as given, which ytt names in the plain-YAML check.
    fn read_values_file(
        &self,
        display: &str,
        arg: &str,
        source: &flags::ValuesSource,
    ) -> Result<ValuesFileDocs, Error> {
        let bytes = source.bytes(display)?;
        let src = crate::go_bytes::from_bytes(&bytes);
        let ds = parse_yaml_named(&src, display, self.lib.opts.strict, "data values file")?;
        reject_duplicate_keys(&ds, display, &src)?;
        // As ytt's `AnnotateForPlainMerge`, only documents with a value are checked: `#@`
        // comments after the last node (kept by an injected empty document) or on an
        // empty document never reach it.
        let mut bad = None;
        for d in ds
            .docs
            .iter()
            .filter(|d| !matches!(d.value, YamlNode::Scalar(Value::Null)))
        {
            d.walk_comments(&mut |c| {
                if c.kind() == CommentKind::Ytt && bad.is_none() {
                    bad = Some(c.pos.line.unwrap_or(0));
                }
            });
        }
        if let Some(line) = bad {
            return Err(Error::at(
                format!(
                    "Checking data values file '{arg}': Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)"
                ),
                crate::ytt::error::Position::in_source(display, line, &src),
            ));
        }
        let kept: Vec<Doc> = crate::ytt::eval::plain_docs(&ds)
            .into_iter()
            .filter(|d| !d.value.is_empty_doc())
            .collect();
        Ok(ValuesFileDocs {
            first_pos: kept.first().map(|d| d.meta.pos.clone()).unwrap_or_default(),
            places: kept.iter().map(|d| d.meta.pos.clone()).collect(),
            docs: kept.into_iter().map(|d| d.value).collect(),
            source: Some(src),
        })
    }
}

/// A `--data-values-file` with a key given twice in one map is refused at that key.
fn reject_duplicate_keys(
    ds: &crate::yaml::DocumentSet,
    path: &str,
    src: &str,
) -> Result<(), Error> {
    match ds.first_duplicate_key() {
        None => Ok(()),
        Some((key, line)) => Err(Error::at(
            format!(
                "Checking data values file '{path}': Unexpected duplicate key: {}",
                crate::ytt::go_type::percent_s(&key)
            ),
            crate::ytt::error::Position::in_source(path, line.unwrap_or(0), src),
        )),
    }
}

/// The keywords of a `#@data/values` annotation, checked as ytt checks them: only
/// `after_library_module`, and that only on a document marked `#@library/ref`.
fn check_values_kwargs(d: &Doc) -> Result<(), Error> {
    let Some(ann) = d.meta.ann("data/values") else {
        return Ok(());
    };
    for (name, value) in &ann.kwargs {
        if name != "after_library_module" {
            return Err(Error::msg(format!(
                "Unknown kwarg {name} for annotation data/values"
            )));
        }
        // `parseDVAnnotations` reads the value as a Starlark bool first.
        if !matches!(value, crate::ytt::starlark::Value::Bool(_)) {
            return Err(Error::msg(format!(
                "expected starlark.Bool, but was {}",
                crate::ytt::overlay::go_type::of_starlark(value)
            )));
        }
        if !d.meta.has("library/ref") {
            return Err(Error::msg(
                "Annotation data/values: Expected kwarg 'after_library_module' to be used with library/ref annotation",
            ));
        }
    }
    Ok(())
}

/// True when a value `right` laid over `left` replaces it rather than merging into it
/// (a scalar or null right value, or a null left one): ytt then moves the map item to
/// the right value's position.
fn takes_position(left: &Node, right: &Node) -> bool {
    matches!(left, Node::Scalar(Value::Null)) || matches!(right, Node::Scalar(_))
}

/// Merges a `#@data/values` document (an overlay) into the values.
fn apply_values_doc(values: &mut Option<Node>, d: &Doc) -> Result<(), Error> {
    if matches!(values, Some(Node::Scalar(Value::Null))) {
        *values = None;
    }
    match values {
        None => {
            if !matches!(d.value, Node::Map(_) | Node::Scalar(Value::Null)) {
                return Err(Error::at(
                    format!(
                        "Expected data values document to be a map, but was {}",
                        d.value.type_name()
                    ),
                    pos_of(&d.meta),
                ));
            }
            *values = Some(d.value.clone());
            Ok(())
        }
        Some(left) => {
            if d.value.is_empty_doc() && matches!(d.value, Node::Scalar(_)) {
                return Ok(());
            }
            let mut thread = Thread::new();
            let mut o = Overlay {
                thread: &mut thread,
            };
            o.merge_node(
                left,
                &d.value,
                &Defaults::of_node(&d.meta, &Defaults::default()),
            )
            // ytt overlays a values document as a document set of one (`Op.applyDocSet`
            // names it, `line ?` for one made in memory by `with_data_values`).
            .map_err(|e| e.context(&format!("Document on line {}", d.meta.pos)))
        }
    }
}

fn pos_of(m: &Meta) -> crate::ytt::error::Position {
    crate::ytt::error::Position {
        file: m.pos.file.to_string(),
        line: m.pos.line,
        text: None,
    }
}

/// Values for the unit tests of this module and its parts.
#[cfg(test)]
mod test_values {
    use crate::yaml::Value;
    use crate::ytt::node::{Node, Pos};

    pub fn node(v: Value) -> Node {
        Node::from_value(&v, &Pos::default())
    }

    pub fn map(items: Vec<(&str, Value)>) -> Value {
        Value::Map(items.into_iter().map(|(k, v)| (Value::str(k), v)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_values::{map, node};

    #[test]
    fn set_path_creates_maps_and_replaces_the_leaf() {
        let mut values = Some(node(map(vec![(
            "a",
            map(vec![
                ("b", map(vec![("old", Value::Int(1))])),
                ("c", Value::Int(2)),
            ]),
        )])));
        set_path(
            &mut values,
            &dotted_key_path("a.b"),
            &node(map(vec![("new", Value::Int(3))])),
        )
        .unwrap();
        set_path(&mut values, &dotted_key_path("x.y"), &node(Value::str("z"))).unwrap();
        assert_eq!(
            values.unwrap().to_value(),
            map(vec![
                (
                    "a",
                    map(vec![
                        ("b", map(vec![("new", Value::Int(3))])),
                        ("c", Value::Int(2))
                    ])
                ),
                ("x", map(vec![("y", Value::str("z"))])),
            ])
        );
    }
}
