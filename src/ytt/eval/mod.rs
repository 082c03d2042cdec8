//! Evaluation: runs compiled templates, Starlark modules and text templates of one
//! library (the root file set or a private library under `_ytt_lib/`), resolves
//! `load()` of files within the library, and holds the library's data values. The
//! `@ytt:*` modules come from the [`ModuleLoader`] the library is handed: they are a
//! layer above evaluation.

pub mod builder;
mod library_files;
mod library_refs;
mod prepare;
mod schema_source;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::yaml::{self, DocumentSet, Value};
use crate::ytt::compile::program::Program;
use crate::ytt::compile::{program, text};
use crate::ytt::error::{Error, Position, starlark_error};
use crate::ytt::files::{FileKind, InputFile};
use crate::ytt::fragment::ReplaceHook;
use crate::ytt::node::{Ann, ArrayItem, Doc, MapItem, Meta, Node, Pos};
use crate::ytt::starlark::ast::LineOrigin;
use crate::ytt::starlark::error::Position as SPosition;
use crate::ytt::starlark::{
    Env, Error as SError, Module, Thread, Value as SValue, parse_with_origins,
};

use crate::ytt::yaml_docs::parse_yaml;

use builder::Builder;
pub use library_files::{eval_library_file, first_read_error};
pub use library_refs::Addressed;

/// Options that change evaluation.
#[derive(Debug, Clone, Copy, Default)]
pub struct EvalOpts {
    pub implicit_map_key_overrides: bool,
    pub ignore_unknown_comments: bool,
    /// `--strict`: reject YAML 1.1 booleans other than true/false (`yes`, `on`, ...).
    pub strict: bool,
    /// `--dangerous-data-values-disable-validation` (schema hook, helper "schema").
    pub dangerous_disable_validation: bool,
}

/// One library: the root file set or a private library.
pub struct Lib {
    /// `""` for the root, otherwise the library's path (`_ytt_lib/name`) for messages.
    pub name: String,
    /// The library's own files, paths relative to the library root.
    pub files: Vec<InputFile>,
    /// Files of its private libraries (paths relative to the library root, starting
    /// with `_ytt_lib/`).
    pub private: Vec<InputFile>,
    /// The data values (a map, or null before any were given).
    pub values: RefCell<Value>,
    /// The final data values as ytt's values document holds them (each node where it
    /// was last given), for `--data-values-inspect -o pos`; `None` when none were given.
    pub values_doc: RefCell<Option<Doc>>,
    pub opts: EvalOpts,
    /// Resolves the `load()` calls of the library's files.
    pub loader: Rc<dyn ModuleLoader>,
    /// `#@library/ref "@name"` data values documents meant for private libraries: the
    /// library's own first, then those its parent passed down (ytt's order).
    pub refs: RefCell<Vec<Addressed>>,
    /// Indexes in `refs` of the documents a `library.get` took (ytt refuses unused ones).
    pub refs_used: RefCell<std::collections::BTreeSet<usize>>,
    /// `--data-value @name:key=value` flags meant for private libraries.
    pub flag_refs: RefCell<Vec<(String, Vec<String>, Node)>>,
    /// Each of `flag_refs`'s whole library path as given on the command line (`@a@b`)
    /// and where it came from, as ytt names it (`(data-value arg):1`).
    pub flag_ref_places: RefCell<Vec<(String, String)>>,
    /// Indexes in `flag_refs` of the values a `library.get` took.
    pub flag_refs_used: RefCell<std::collections::BTreeSet<usize>>,
    /// Schema documents overlaid on the library's own schema, in order: the parent's
    /// `#@library/ref` schema documents for it, then `with_data_values_schema(...)`.
    pub extra_schemas: RefCell<Vec<Doc>>,
    /// The library whose `library.get` made this one (none for the root): values the
    /// outer libraries give it are quoted from their files in schema reports.
    pub outer: RefCell<std::rc::Weak<Lib>>,
    /// `#@library/ref "@name"` schema documents meant for private libraries.
    pub schema_refs: RefCell<Vec<Addressed>>,
    /// Indexes in `schema_refs` of the documents a `library.get` took.
    pub schema_refs_used: RefCell<std::collections::BTreeSet<usize>>,
    cache: RefCell<HashMap<String, Module>>,
    /// Parsed YAML files by [`InputFile::key`]: each file is parsed once per run although
    /// the values, schema and render stages all look at it.
    parsed: RefCell<HashMap<usize, Rc<DocumentSet>>>,
    /// YAML templates compiled and resolved by a stage that is not their last (schema
    /// files are evaluated for the schema and again for the output).
    /// Keyed by [`InputFile::key`].
    prepared: RefCell<HashMap<usize, Rc<Prepared>>>,
    /// Files being evaluated, innermost last (for relative loads and cycles).
    loading: RefCell<Vec<String>>,
}

/// A YAML template ready to evaluate: plain documents, or its node templates and its
/// compiled Starlark program with names resolved.
enum Prepared {
    Plain(Rc<DocumentSet>),
    Program {
        nodes: Rc<Vec<crate::ytt::compile::yaml::TNode>>,
        file: crate::ytt::starlark::ast::File,
    },
}

/// Whether an evaluation is the file's last (its prepared form can be dropped).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reuse {
    /// Another stage evaluates the file again: keep what parsing and compiling made.
    Keep,
    Last,
}

pub type LibRef = Rc<Lib>;

/// Resolves `load(name)` for the files a library evaluates: the `@ytt:*` modules,
/// `@lib:path` files of private libraries and paths within the library (through
/// [`load_file`]). The `modules` layer implements it.
pub trait ModuleLoader {
    fn load(&self, lib: &LibRef, thread: &mut Thread, name: &str) -> Result<Module, SError>;
}

impl Lib {
    /// A library made of `files` (private library files are split off), whose files load
    /// modules through `loader`.
    pub fn new(
        name: &str,
        files: Vec<InputFile>,
        opts: EvalOpts,
        loader: Rc<dyn ModuleLoader>,
    ) -> LibRef {
        let (private, own): (Vec<_>, Vec<_>) = files
            .into_iter()
            .partition(|f| f.rel.starts_with("_ytt_lib/") || f.rel.contains("/_ytt_lib/"));
        Rc::new(Lib {
            name: name.to_string(),
            files: own,
            private,
            values: RefCell::new(Value::Null),
            values_doc: RefCell::new(None),
            opts,
            loader,
            refs: RefCell::new(Vec::new()),
            refs_used: RefCell::new(std::collections::BTreeSet::new()),
            flag_refs: RefCell::new(Vec::new()),
            flag_ref_places: RefCell::new(Vec::new()),
            flag_refs_used: RefCell::new(std::collections::BTreeSet::new()),
            extra_schemas: RefCell::new(Vec::new()),
            outer: RefCell::new(std::rc::Weak::new()),
            schema_refs: RefCell::new(Vec::new()),
            schema_refs_used: RefCell::new(std::collections::BTreeSet::new()),
            cache: RefCell::new(HashMap::new()),
            parsed: RefCell::new(HashMap::new()),
            prepared: RefCell::new(HashMap::new()),
            loading: RefCell::new(Vec::new()),
        })
    }

    /// Parses a YAML file of this library (named `name` in positions).
    fn parse_file(&self, src: &str, name: &str) -> Result<DocumentSet, Error> {
        parse_yaml(src, name)
    }

    /// Forgets loaded modules (they captured the data values of their time).
    pub fn clear_cache(&self) {
        self.cache.borrow_mut().clear();
    }

    /// The file being evaluated (innermost), relative to the library root.
    pub fn current_file(&self) -> Option<String> {
        self.loading.borrow().last().cloned()
    }

    pub fn file(&self, rel: &str) -> Option<&InputFile> {
        self.files.iter().find(|f| f.rel == rel)
    }

    /// The relative path of the file `path` names from the file at `current` (from the
    /// library root when `path` starts with `/`), found as ytt finds it; the error is
    /// ytt's.
    pub fn find_file(&self, current: &str, path: &str) -> Result<String, String> {
        let (start, path) = match path.strip_prefix('/') {
            Some(p) => ("", p),
            None => (crate::ytt::lookup::dir_of(current), path),
        };
        let all = self
            .files
            .iter()
            .chain(&self.private)
            .map(|f| f.rel.as_str());
        crate::ytt::lookup::find_file(self.files.iter().map(|f| f.rel.as_str()), all, start, path)
    }

    /// The directory `path` names from the file at `current` (see [`Lib::find_file`]).
    pub fn find_dir(&self, current: &str, path: &str) -> Result<String, String> {
        let (start, path) = match path.strip_prefix('/') {
            Some(p) => ("", p),
            None => (crate::ytt::lookup::dir_of(current), path),
        };
        if path.is_empty() {
            return Ok(start.to_string());
        }
        let all = self
            .files
            .iter()
            .chain(&self.private)
            .map(|f| f.rel.as_str());
        crate::ytt::lookup::find_dir(all, start, path)
    }

    /// The parsed YAML of `f` (one of this library's files, valid UTF-8), parsed on first
    /// use and shared afterwards. Syntax errors are not cached.
    pub fn parsed_yaml(&self, f: &InputFile, src: &str) -> Result<Rc<DocumentSet>, Error> {
        if let Some(ds) = self.parsed.borrow().get(&f.key()) {
            return Ok(ds.clone());
        }
        let ds = Rc::new(self.parse_file(src, &self.display(&f.rel))?);
        self.parsed.borrow_mut().insert(f.key(), ds.clone());
        Ok(ds)
    }

    /// Display name of a file in messages.
    pub fn display(&self, rel: &str) -> String {
        if self.name.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.name)
        }
    }
}

/// Converts a parsed (untemplated) document set into output documents. Duplicate map
/// keys collapse as [`DocumentSet::override_map_keys`] does (the last item wins, in the
/// place of the first).
pub fn plain_docs(ds: &DocumentSet) -> Vec<Doc> {
    plain_docs_owned(ds.clone())
}

/// [`plain_docs`] for a document set that is no longer needed: moves its nodes.
fn plain_docs_owned(ds: DocumentSet) -> Vec<Doc> {
    let file: Rc<str> = Rc::from(&*ds.file);
    ds.docs
        .into_iter()
        .filter(|d| !d.injected)
        .map(|d| Doc {
            meta: Meta::at(Pos {
                file: file.clone(),
                line: d.pos.line.unwrap_or(0),
            }),
            value: from_yaml_node_owned(d.value, &file),
        })
        .collect()
}

fn from_yaml_node_owned(n: yaml::Node, file: &Rc<str>) -> Node {
    let meta = |pos: &yaml::Position| {
        Meta::at(Pos {
            file: file.clone(),
            line: pos.line.unwrap_or(0),
        })
    };
    match n {
        yaml::Node::Scalar(v) => Node::Scalar(v),
        yaml::Node::Map(m) => {
            let mut items: Vec<MapItem> = Vec::with_capacity(m.items.len());
            for i in m.items {
                let item = MapItem {
                    meta: meta(&i.pos),
                    key: i.key,
                    value: from_yaml_node_owned(i.value, file),
                };
                match items.iter().position(|seen| seen.key == item.key) {
                    Some(idx) => items[idx] = item,
                    None => items.push(item),
                }
            }
            Node::Map(items)
        }
        yaml::Node::Array(a) => {
            // Pushed into a new vector rather than collected in place: the items differ in
            // size, so an in-place collect would end in a reallocation.
            let mut items = Vec::with_capacity(a.items.len());
            for i in a.items {
                items.push(ArrayItem {
                    meta: meta(&i.pos),
                    value: from_yaml_node_owned(i.value, file),
                });
            }
            Node::Array(items)
        }
    }
}

fn origins(prog: &Program, file: &str, src: &str) -> Vec<LineOrigin> {
    let lines: Vec<&str> = src.split('\n').collect();
    let f: std::sync::Arc<str> = std::sync::Arc::from(file);
    // Several generated lines come from each template line: share its text.
    let mut texts: Vec<Option<std::sync::Arc<str>>> = vec![None; lines.len() + 1];
    prog.lines
        .iter()
        .map(|l| {
            let text = match texts.get_mut(l.src_line) {
                Some(slot) => slot
                    .get_or_insert_with(|| source_text(&lines, l.src_line))
                    .clone(),
                None => source_text(&lines, l.src_line),
            };
            LineOrigin {
                file: f.clone(),
                line: l.src_line as u32,
                text,
            }
        })
        .collect()
}

/// The text of 1-based line `line` of a source split at `\n` into `lines` (empty when out
/// of range); as in ytt, a CRLF file's line keeps its `\r`.
fn source_text(lines: &[&str], line: usize) -> std::sync::Arc<str> {
    std::sync::Arc::from(lines.get(line.wrapping_sub(1)).copied().unwrap_or(""))
}

/// The host calls of a program, bound to its builder.
fn builder_env(b: &Rc<RefCell<Builder>>, file: &str) -> Env {
    let mut env = Env::default();
    let file: Rc<str> = Rc::from(file);
    let bb = b.clone();
    env.insert(
        compile_names::START.into(),
        SValue::native(compile_names::START, move |t, args| {
            let tag = tag_arg(args)?;
            bb.borrow_mut().unwind(t.depth(), false);
            bb.borrow_mut()
                .start(tag, args.pos.get(1))
                .map(|_| SValue::None)
        }),
    );
    let bb = b.clone();
    let run_file: std::sync::Arc<str> = std::sync::Arc::from(&*file);
    env.insert(
        program::STARTS.into(),
        SValue::native(program::STARTS, move |t, args| {
            let (first, last) = (tag_arg(args)?, tag_arg_at(args, 1)?);
            let mut b = bb.borrow_mut();
            b.unwind(t.depth(), false);
            for tag in first..=last {
                if let Err(mut e) = b.start(tag, None) {
                    // The run's line is its first node's: point at the failing node's.
                    if e.pos.is_none() {
                        let pos = SPosition::new(run_file.clone(), b.tag_line(tag) as u32, 1);
                        e.cur = Some(pos.clone());
                        e.pos = Some(pos);
                    }
                    return Err(e);
                }
            }
            Ok(SValue::None)
        }),
    );
    let bb = b.clone();
    env.insert(
        compile_names::SET.into(),
        SValue::native(compile_names::SET, move |t, args| {
            let tag = tag_arg(args)?;
            bb.borrow_mut().unwind(t.depth(), false);
            let v = args
                .pos
                .get(1)
                .ok_or_else(|| SError::new("internal: __ytt_set needs a value"))?;
            bb.borrow_mut()
                .set(tag, v, args.pos.get(2))
                .map(|_| SValue::None)
        }),
    );
    let bb = b.clone();
    env.insert(
        compile_names::AT.into(),
        SValue::native(compile_names::AT, move |t, args| {
            let tag = tag_arg(args)?;
            bb.borrow_mut().unwind(t.depth(), false);
            bb.borrow_mut().at(tag);
            Ok(SValue::Int(tag as i128))
        }),
    );
    let bb = b.clone();
    let f2 = file.clone();
    env.insert(
        compile_names::ANNOT.into(),
        SValue::native(compile_names::ANNOT, move |_t, args| {
            let tag = tag_arg(args)?;
            let name = args
                .pos
                .get(1)
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            // `__ytt_annot(tag, name, line, args...)`: the annotation's own line.
            let line = match args.pos.get(2).and_then(|v| v.as_int()) {
                Some(l) => l as usize,
                None => bb.borrow().tag_line(tag),
            };
            bb.borrow_mut().annotate(
                tag,
                Ann {
                    name,
                    args: args.pos.get(3..).unwrap_or_default().to_vec(),
                    kwargs: args
                        .kwargs
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.clone()))
                        .collect(),
                    pos: Pos {
                        file: f2.clone(),
                        line,
                    },
                },
            );
            Ok(SValue::None)
        }),
    );
    let bb = b.clone();
    env.insert(
        program::BEGIN_CTX.into(),
        SValue::native(program::BEGIN_CTX, move |t, args| {
            let kind = args.pos.first().and_then(|v| v.as_str()).unwrap_or("yaml");
            bb.borrow_mut().begin(kind, t.depth());
            Ok(SValue::None)
        }),
    );
    let bb = b.clone();
    env.insert(
        program::END_CTX.into(),
        SValue::native(program::END_CTX, move |t, _args| {
            bb.borrow_mut().unwind(t.depth(), false);
            bb.borrow_mut().end()
        }),
    );
    let bb = b.clone();
    env.insert(
        program::END_CTX_WITH.into(),
        SValue::native(program::END_CTX_WITH, move |t, args| {
            bb.borrow_mut().unwind(t.depth(), false);
            bb.borrow_mut().end_discard()?;
            Ok(args.pos.first().cloned().unwrap_or(SValue::None))
        }),
    );
    let bb = b.clone();
    env.insert(
        program::REPLACE_HERE.into(),
        SValue::native(program::REPLACE_HERE, move |t, args| {
            bb.borrow_mut().unwind(t.depth(), false);
            let v = args.pos.first().cloned().unwrap_or(SValue::None);
            bb.borrow_mut().replace_here(&v).map(|_| SValue::None)
        }),
    );
    let bb = b.clone();
    env.insert(
        text::TEXT_PUT.into(),
        SValue::native(text::TEXT_PUT, move |t, args| {
            bb.borrow_mut().unwind(t.depth(), false);
            let s = args.pos.first().and_then(|v| v.as_str()).unwrap_or("");
            bb.borrow_mut().text(s).map(|_| SValue::None)
        }),
    );
    let bb = b.clone();
    env.insert(
        text::TEXT_EXPR.into(),
        SValue::native(text::TEXT_EXPR, move |t, args| {
            bb.borrow_mut().unwind(t.depth(), false);
            let v = args.pos.first().cloned().unwrap_or(SValue::None);
            bb.borrow_mut().text_expr(&v).map(|_| SValue::None)
        }),
    );
    env
}

mod compile_names {
    pub use crate::ytt::compile::yaml::{ANNOT, AT, SET, START};
}

fn tag_arg(args: &crate::ytt::starlark::Args) -> Result<usize, SError> {
    tag_arg_at(args, 0)
}

/// The node tag passed as positional argument `index` of a host call.
fn tag_arg_at(args: &crate::ytt::starlark::Args, index: usize) -> Result<usize, SError> {
    args.pos
        .get(index)
        .and_then(|v| v.as_int())
        .map(|i| i as usize)
        .ok_or_else(|| SError::new("internal: node tag expected"))
}

/// What evaluating a file gives.
pub struct Evaluated {
    pub module: Module,
    pub docs: Vec<Doc>,
    pub text: Option<String>,
}

/// Evaluates a YAML template of `lib` and returns its module and documents.
pub fn eval_yaml(lib: &LibRef, f: &InputFile) -> Result<Evaluated, Error> {
    eval_yaml_with(lib, f, Reuse::Last)
}

thread_local! {
    /// How many templates the run on this thread has compiled (a run evaluates on one
    /// thread; [`begin_template_count`] starts each run's count afresh).
    static TEMPLATES_COMPILED: std::cell::Cell<usize> = const { std::cell::Cell::new(1) };
}

/// Starts a run's count of compiled templates: ytt numbers the instructions of each
/// template it compiles (`__ytt_tpl{N}_start_node`) from one count for the whole run, in
/// which its first template is 2.
pub fn begin_template_count() {
    TEMPLATES_COMPILED.set(1);
}

/// The instruction number of the template compiled next (ytt's `NewInstructionSet`).
fn next_template_id() -> usize {
    let id = TEMPLATES_COMPILED.get() + 1;
    TEMPLATES_COMPILED.set(id);
    id
}

/// [`eval_yaml`], keeping the compiled file for a later evaluation when `reuse` says so.
/// The documents are trees of their own (no node in them shared with another place).
pub fn eval_yaml_with(lib: &LibRef, f: &InputFile, reuse: Reuse) -> Result<Evaluated, Error> {
    let mut ev = eval_yaml_shared(lib, f, reuse)?;
    ev.docs.iter_mut().for_each(|d| d.value.unshare());
    Ok(ev)
}

/// Evaluates a YAML template for output: a fragment placed at several places stays one
/// node there ([`Node::Shared`]), for the overlays that follow.
pub fn eval_yaml_for_output(lib: &LibRef, f: &InputFile) -> Result<Evaluated, Error> {
    eval_yaml_shared(lib, f, Reuse::Last)
}

fn eval_yaml_shared(lib: &LibRef, f: &InputFile, reuse: Reuse) -> Result<Evaluated, Error> {
    // ytt compiles every YAML template it evaluates, templated or not; a plain one
    // (`yaml-plain`) only parses, unless it is a library file (`TemplateLoader.EvalYAML`
    // templates what is a template or a library).
    let tpl_id = if f.kind == FileKind::YamlPlain && !f.library {
        0
    } else {
        next_template_id()
    };
    let text = f.go_text();
    let src: &str = &text;
    let name = lib.display(&f.rel);
    let cached = match reuse {
        Reuse::Keep => lib.prepared.borrow().get(&f.key()).cloned(),
        Reuse::Last => lib.prepared.borrow_mut().remove(&f.key()),
    };
    let prepared = match cached {
        Some(p) => p,
        None => {
            let p = Rc::new(prepare_yaml(lib, f, src, &name, reuse)?);
            if reuse == Reuse::Keep {
                lib.prepared.borrow_mut().insert(f.key(), p.clone());
            }
            p
        }
    };
    // The last evaluation of a plain file owns its parse: move the nodes out of it.
    let prepared = match Rc::try_unwrap(prepared) {
        Ok(Prepared::Plain(ds)) => {
            let docs = match Rc::try_unwrap(ds) {
                Ok(owned) => plain_docs_owned(owned),
                Err(shared) => plain_docs(&shared),
            };
            return Ok(Evaluated {
                module: Module::from_values(&name, vec![]),
                docs,
                text: None,
            });
        }
        Ok(p) => Rc::new(p),
        Err(shared) => shared,
    };
    match &*prepared {
        Prepared::Plain(ds) => Ok(Evaluated {
            module: Module::from_values(&name, vec![]),
            docs: plain_docs(ds),
            text: None,
        }),
        Prepared::Program { nodes, file } => {
            let b = Rc::new(RefCell::new(
                Builder::new(nodes.clone(), lib.opts.implicit_map_key_overrides)
                    .with_tpl_id(tpl_id),
            ));
            let env = Rc::new(builder_env(&b, &name));
            let module = run_resolved(lib, &f.rel, file, env, &b)?;
            let docs = b.borrow_mut().finish_docs();
            Ok(Evaluated {
                module,
                docs,
                text: None,
            })
        }
    }
}

/// Parses (or takes the cached parse of) a YAML template and compiles it.
fn prepare_yaml(
    lib: &LibRef,
    f: &InputFile,
    src: &str,
    name: &str,
    reuse: Reuse,
) -> Result<Prepared, Error> {
    // Preparing for the last evaluation is the last use of the parsed tree: take it out of
    // the cache so that peak memory does not grow with the number of files. A file kept
    // for another evaluation (the schema file, evaluated again for its data values) keeps
    // its parse too: the next stage looks at its document annotations again.
    let ds = match reuse {
        Reuse::Keep => lib.parsed_yaml(f, src)?,
        Reuse::Last => {
            let cached = lib.parsed.borrow_mut().remove(&f.key());
            match cached {
                Some(ds) => ds,
                None => Rc::new(lib.parse_file(src, name)?),
            }
        }
    };
    let plain = f.kind == FileKind::YamlPlain && !f.library;
    prepare::prepare_parsed(ds, plain, lib.opts, src, name)
}

/// Evaluates a text template of `lib`.
pub fn eval_text(lib: &LibRef, f: &InputFile) -> Result<Evaluated, Error> {
    // A text template takes a number of ytt's template count too.
    next_template_id();
    let text = f.go_text();
    let src: &str = &text;
    let name = lib.display(&f.rel);
    let mut prog = Program::new("text");
    text::compile_into(&mut prog, src, 1)
        .map_err(|e| e.led_by(&format!("Parsing text template '{name}'")))
        .and_then(|_| prog.check_blocks())
        .map_err(|e| {
            let pos = Position::in_source(&name, e.line, src);
            if e.syntax {
                Error::syntax_at(e.message, pos)
            } else {
                Error::at(e.message, pos)
            }
        })?;
    let b = Rc::new(RefCell::new(Builder::new_text()));
    let module = exec_program(lib, &f.rel, &name, src, &prog, &b)
        .map_err(|e| e.context("Evaluating text template"))?;
    let text = b.borrow().finish_text();
    Ok(Evaluated {
        module,
        docs: Vec::new(),
        text: Some(text),
    })
}

/// Evaluates a Starlark file of `lib`.
pub fn eval_star(lib: &LibRef, f: &InputFile) -> Result<Module, Error> {
    let text = f.go_text();
    let src: &str = &text;
    let name = lib.display(&f.rel);
    let mut prog = Program::new("yaml");
    for (i, l) in src.split('\n').enumerate() {
        prog.push_plain(l.trim_end_matches('\r').to_string(), i + 1);
    }
    let b = Rc::new(RefCell::new(Builder::new(Rc::new(Vec::new()), false)));
    exec_program(lib, &f.rel, &name, src, &prog, &b)
        .map_err(|e| e.context("Evaluating starlark template"))
}

fn exec_program(
    lib: &LibRef,
    rel: &str,
    name: &str,
    src: &str,
    prog: &Program,
    b: &Rc<RefCell<Builder>>,
) -> Result<Module, Error> {
    let env = Rc::new(builder_env(b, name));
    let file = parse_with_origins(name, &prog.source(), origins(prog, name, src))
        .and_then(|file| crate::ytt::starlark::resolve_names(file, &|n| env.contains_key(n)))
        .map_err(|e| starlark_error(&e))?;
    run_resolved(lib, rel, &file, env, b)
}

/// Executes a resolved program of `lib` with the builder calls in `env`.
///
/// The file's `@ytt:template` replaces nodes of `b` while the file runs (see
/// [`ReplaceHook`]).
fn run_resolved(
    lib: &LibRef,
    rel: &str,
    file: &crate::ytt::starlark::ast::File,
    env: Rc<Env>,
    b: &Rc<RefCell<Builder>>,
) -> Result<Module, Error> {
    let mut thread = Thread::new();
    let l2 = lib.clone();
    thread.set_loader(move |t, module| l2.loader.load(&l2, t, module));
    let builder = Rc::downgrade(b);
    thread.set_local(
        crate::ytt::fragment::REPLACE_HOOK,
        Rc::new(ReplaceHook(Box::new(move |v, depth| {
            let Some(b) = builder.upgrade() else {
                return Ok(false);
            };
            b.borrow_mut().unwind(depth, false);
            b.borrow_mut().replace_now(v)
        }))),
    );
    lib.loading.borrow_mut().push(rel.to_string());
    let r = thread.exec_resolved(file, env);
    b.borrow_mut().finish_run();
    lib.loading.borrow_mut().pop();
    r.map_err(|e| starlark_error(&e))
}

/// Loads module `path` (relative to the file being evaluated, or `/`-rooted) of `lib`.
pub fn load_file(lib: &LibRef, path: &str) -> Result<Module, SError> {
    let current = lib.loading.borrow().last().cloned().unwrap_or_default();
    let rel = lib.find_file(&current, path).map_err(SError::new)?;
    if let Some(m) = lib.cache.borrow().get(&rel) {
        return Ok(m.clone());
    }
    if lib.loading.borrow().contains(&rel) {
        return Err(SError::new(format!("cycle in load graph: {rel}")));
    }
    let f = lib
        .file(&rel)
        .cloned()
        .expect("find_file returns one of the library's files");
    if !f.library {
        return Err(SError::new(format!(
            "Expected file '{}' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)",
            lib.display(&rel)
        )));
    }
    let m = match f.kind {
        FileKind::Starlark => eval_star(lib, &f),
        FileKind::TextTemplate | FileKind::TextPlain => eval_text(lib, &f).map(|e| e.module),
        FileKind::YamlTemplate | FileKind::YamlPlain => eval_yaml(lib, &f).map(|e| e.module),
        FileKind::Data => {
            // A library file by its name (`x.lib.json`, or a `*.star` marked
            // `type=data`) of no type ytt can evaluate (`TemplateLoader.Load`).
            return Err(SError::new(format!(
                "File '{}' type is not a known",
                lib.display(&rel)
            )));
        }
    };
    let m = m.map_err(|e| SError::new(with_lib_texts(lib, e).to_string()))?;
    lib.cache.borrow_mut().insert(rel, m.clone());
    Ok(m)
}

/// Fills in the source lines of an error's stack frames from the files of `lib`.
pub fn with_lib_texts(lib: &LibRef, e: Error) -> Error {
    match e {
        Error::Eval(mut ev) => {
            ev.fill_texts(&|file: &str, line: usize| {
                let f = lib
                    .files
                    .iter()
                    .chain(&lib.private)
                    .find(|f| lib.display(&f.rel) == file)?;
                let src = String::from_utf8_lossy(&f.bytes);
                Position::in_source(file, line, &src).text
            });
            ev.mark_starlark_frames(&|file: &str| {
                lib.files
                    .iter()
                    .chain(&lib.private)
                    .any(|f| lib.display(&f.rel) == file && f.kind == FileKind::Starlark)
            });
            Error::Eval(ev)
        }
        e => e,
    }
}
