//! `@ytt:library`: private libraries under `_ytt_lib/`: `library.get(name, alias=, strict=,
//! dangerous_data_values_disable_validation=, ...)` and its
//! `with_data_values(...)`, `with_data_values_schema(...)`, `eval()`, `export(name)` and
//! `data_values()`. Computing a library's data values and rendering it are steps of the
//! run, a layer above the modules: they come in as [`LibrarySteps`].

use std::any::Any;
use std::rc::Rc;

use crate::ytt::error::Error;
use crate::ytt::eval::{Addressed, EvalOpts, Lib, LibRef};
use crate::ytt::fragment::{Frag, Fragment, check_struct_keys, plain_to_struct, starlark_to_node};
use crate::ytt::node::{Doc, Node, Pos};
use crate::ytt::starlark::{Args, Error as SError, HostValue, Module, Value};

use super::{SResult, native};

/// The directory that holds a directory's private libraries.
const PRIVATE_DIR: &str = "_ytt_lib";

/// The steps of a run that a private library goes through. The run implements them.
pub trait LibrarySteps {
    /// Computes `lib`'s data values in ytt's order: its own values files, `refs` (the
    /// parent's `#@library/ref` documents for it), `flag_refs` (the parent's `@name:`
    /// flags: key path, or empty for a whole `--data-values-file`, and value), then
    /// `extra` (`with_data_values(values, plain)`).
    fn compute_values(
        &self,
        lib: &LibRef,
        refs: &[Doc],
        extra: &[(Node, bool)],
        flag_refs: &[(Vec<String>, Node, Pos)],
    ) -> Result<(), Error>;
    /// Templates `lib`'s output files and applies its overlays: its output documents,
    /// and the modules of its library files by relative path, in evaluation order.
    fn render(&self, lib: &LibRef) -> Result<LibraryResult, Error>;
}

/// What evaluating a private library gives.
pub struct LibraryResult {
    /// Output documents, overlays applied.
    pub docs: Vec<Doc>,
    /// Each library file's relative path and module, in the order they were evaluated.
    pub exports: Vec<(String, Module)>,
}

/// A private library of `parent` by name, with its default data values.
pub fn private_lib(parent: &LibRef, name: &str, steps: &Rc<dyn LibrarySteps>) -> SResult<LibRef> {
    let current = parent.current_file();
    let prefix = library_prefix(parent, current.as_deref(), name).map_err(SError::new)?;
    Handle::new(
        parent.clone(),
        name.to_string(),
        None,
        prefix,
        steps.clone(),
    )
    .lib()
}

/// When the `#@library/ref` path `r` (`@name`, `@~alias`, `@name~alias`, each maybe
/// followed by further `@...` segments for nested libraries) selects library `name`
/// got with `alias`: the rest of the path (empty when it is meant for this library).
fn ref_rest<'a>(r: &'a str, name: &str, alias: Option<&str>) -> Option<&'a str> {
    let r = r.strip_prefix('@')?;
    let (seg, rest) = match r.find('@') {
        Some(i) => (&r[..i], &r[i..]),
        None => (r, ""),
    };
    let (seg_name, seg_alias) = match seg.split_once('~') {
        Some((n, a)) => (n, Some(a)),
        None => (seg, None),
    };
    let name_ok = seg_name.is_empty() || seg_name == name;
    let alias_ok = seg_alias.is_none_or(|a| Some(a) == alias);
    (name_ok && alias_ok && !(seg_name.is_empty() && seg_alias.is_none())).then_some(rest)
}

/// Where library `name` is for `file` of `lib` (the file whose `@ytt:library` module is
/// asked, not the one running when it is asked): `_ytt_lib/name/` in that file's
/// directory, as ytt looks it up (not in the directories above). The error is ytt's:
/// no `_ytt_lib` there, a path segment missing (naming the segments found before it),
/// or a path through another private directory.
fn library_prefix(lib: &LibRef, file: Option<&str>, name: &str) -> Result<String, String> {
    let current = file.unwrap_or_default();
    let dir = current.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
    let base = if dir.is_empty() {
        PRIVATE_DIR.to_string()
    } else {
        format!("{dir}/{PRIVATE_DIR}")
    };
    let has = |prefix: &str| lib.private.iter().any(|f| f.rel.starts_with(prefix));
    if !has(&format!("{base}/")) {
        return Err(format!(
            "Could not find private library (directory '{PRIVATE_DIR}' missing?)"
        ));
    }
    let pieces: Vec<&str> = name.split('/').collect();
    let mut prefix = base;
    for (i, piece) in pieces.iter().enumerate() {
        prefix = format!("{prefix}/{piece}");
        if !has(&format!("{prefix}/")) {
            return Err(format!(
                "Expected to find library '{name}', but did not find '{}'",
                pieces[..i].join("/")
            ));
        }
        if *piece == PRIVATE_DIR {
            return Err(format!(
                "Could not load private library '{}'",
                pieces[..i].join("/")
            ));
        }
    }
    Ok(format!("{prefix}/"))
}

/// `library.get(name)`'s value, with what was added to it since.
#[derive(Clone)]
struct Handle {
    parent: LibRef,
    name: String,
    alias: Option<String>,
    /// `with_data_values(values, plain=...)`, in call order.
    extra: Vec<(Node, bool)>,
    /// `with_data_values_schema(schema)`, in call order.
    schemas: Vec<Node>,
    opts: EvalOpts,
    /// Where the library's files are among the parent's private files
    /// (`_ytt_lib/name/`, or `dir/_ytt_lib/name/` beside the calling file).
    prefix: String,
    steps: Rc<dyn LibrarySteps>,
}

impl Handle {
    fn new(
        parent: LibRef,
        name: String,
        alias: Option<String>,
        prefix: String,
        steps: Rc<dyn LibrarySteps>,
    ) -> Handle {
        let opts = parent.opts;
        Handle {
            parent,
            name,
            alias,
            extra: Vec::new(),
            schemas: Vec::new(),
            opts,
            prefix,
            steps,
        }
    }

    /// The library as ytt's messages name it (`LibraryRef.AsString`): its path, and
    /// `~alias` when it was given one.
    fn desc(&self) -> String {
        match self.alias.as_deref() {
            Some(a) if !a.is_empty() => format!("{}~{a}", self.name),
            _ => self.name.clone(),
        }
    }

    /// Builds the library: its files, its own data values, then the `#@library/ref`
    /// documents of its parent meant for it, the extra values and `@lib:` flags.
    fn lib(&self) -> SResult<LibRef> {
        let (parent, name) = (&self.parent, &self.name);
        let prefix = &self.prefix;
        let files: Vec<_> = parent
            .private
            .iter()
            .filter(|f| f.rel.starts_with(prefix.as_str()))
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
        let dir = prefix.trim_end_matches('/');
        let lname = if parent.name.is_empty() {
            dir.to_string()
        } else {
            format!("{}/{dir}", parent.name)
        };
        let lib = Lib::new(&lname, files, self.opts, parent.loader.clone());
        *lib.outer.borrow_mut() = Rc::downgrade(parent);
        let alias = self.alias.as_deref();
        // The parent's `#@library/ref` schema documents: those for this library are
        // overlaid on its schema before the `with_data_values_schema` ones; those for a
        // library of this one are passed down, after the library's own (ytt's
        // `libraryValue.librarySchemas` puts a parent's last).
        let mut schemas_down = Vec::new();
        for (i, a) in parent.schema_refs.borrow().iter().enumerate() {
            match ref_rest(&a.path, name, alias) {
                Some("") => lib.extra_schemas.borrow_mut().push(a.doc.clone()),
                Some(rest) => schemas_down.push(Addressed {
                    path: rest.to_string(),
                    ..a.clone()
                }),
                None => continue,
            }
            parent.schema_refs_used.borrow_mut().insert(i);
        }
        lib.extra_schemas
            .borrow_mut()
            .extend(self.schemas.iter().map(|n| Doc {
                value: n.clone(),
                meta: Default::default(),
            }));
        let mut refs = Vec::new();
        let mut refs_down = Vec::new();
        for (i, a) in parent.refs.borrow().iter().enumerate() {
            match ref_rest(&a.path, name, alias) {
                Some("") => refs.push(a.doc.clone()),
                // Meant for a library of this one: passed down.
                Some(rest) => refs_down.push(Addressed {
                    path: rest.to_string(),
                    ..a.clone()
                }),
                None => continue,
            }
            parent.refs_used.borrow_mut().insert(i);
        }
        // `--data-value @ref:key=value` flags, by the same paths as `#@library/ref`.
        let mut flag_refs: Vec<(Vec<String>, Node, Pos)> = Vec::new();
        for (i, (r, k, n)) in parent.flag_refs.borrow().iter().enumerate() {
            match ref_rest(&format!("@{r}"), name, alias) {
                Some("") => {
                    // The flag's place (`(data-value arg):1`), as its overlay names it.
                    let place = parent.flag_ref_places.borrow().get(i).cloned();
                    let at = place.map_or_else(Pos::default, |(_, p)| Pos::parse_place(&p));
                    flag_refs.push((k.clone(), n.clone(), at));
                }
                Some(rest) => {
                    lib.flag_refs.borrow_mut().push((
                        rest.trim_start_matches('@').to_string(),
                        k.clone(),
                        n.clone(),
                    ));
                    let place = parent.flag_ref_places.borrow().get(i).cloned();
                    lib.flag_ref_places
                        .borrow_mut()
                        .push(place.unwrap_or_default());
                }
                None => continue,
            }
            parent.flag_refs_used.borrow_mut().insert(i);
        }
        self.steps
            .compute_values(&lib, &refs, &self.extra, &flag_refs)
            .map_err(|e| SError::new(crate::ytt::eval::with_lib_texts(&lib, e).to_string()))?;
        // The documents the parent passes down go after those of the library's own
        // files: ytt's `libraryValue.libraryValues` orders a parent's values on top.
        lib.refs.borrow_mut().extend(refs_down);
        lib.schema_refs.borrow_mut().extend(schemas_down);
        Ok(lib)
    }
}

impl HostValue for Handle {
    /// ytt's library instances are Starlark modules.
    fn type_name(&self) -> String {
        "module".into()
    }
    fn repr(&self) -> String {
        "<module \"library\">".into()
    }
    fn attr(&self, name: &str) -> SResult<Option<Value>> {
        let h = self.clone();
        Ok(Some(match name {
            "with_data_values" => native("library.with_data_values", move |_t, a| {
                let refuse = |m: String| SError::new(format!("library.with_data_values: {m}"));
                let [values] = a.pos.as_slice() else {
                    return Err(refuse("expected exactly one argument".into()));
                };
                let node =
                    starlark_to_node(values, &Pos::default()).map_err(|e| refuse(e.msg.clone()))?;
                let mut plain = false;
                if let Some((k, _)) = a.kwargs.iter().find(|(k, _)| &**k != "plain") {
                    return Err(refuse(format!("invalid argument name: {k}")));
                }
                if let Some((_, v)) = a.kwargs.iter().find(|(k, _)| &**k == "plain") {
                    let Value::Bool(b) = v else {
                        return Err(refuse(format!(
                            "expected starlark.Bool, but was {}",
                            crate::ytt::overlay::go_type::of_starlark(v)
                        )));
                    };
                    plain = *b;
                }
                let mut h2 = h.clone();
                h2.extra.push((node, plain));
                Ok(Value::host(h2))
            }),
            "with_data_values_schema" => {
                native("library.with_data_values_schema", move |_t, a| {
                    let refuse =
                        |m: String| SError::new(format!("library.with_data_values_schema: {m}"));
                    // Keyword arguments are not looked at.
                    let [schema] = a.pos.as_slice() else {
                        return Err(refuse("expected exactly one argument".into()));
                    };
                    let node = starlark_to_node(schema, &Pos::default())
                        .map_err(|e| refuse(e.msg.clone()))?;
                    let mut h2 = h.clone();
                    h2.schemas.push(node);
                    Ok(Value::host(h2))
                })
            }
            "eval" => native("library.eval", move |_t, a| {
                if !a.pos.is_empty() {
                    return Err(SError::new(format!(
                        "library.eval: Evaluating library '{}': expected no arguments",
                        h.desc()
                    )));
                }
                // ytt names the function and the library before every failure of the
                // library's evaluation (its data values, templates and overlays).
                let in_eval = |m: &dyn std::fmt::Display| {
                    SError::new(format!(
                        "library.eval: Evaluating library '{}': {m}",
                        h.desc()
                    ))
                };
                let lib = h.lib().map_err(|e| in_eval(&e.msg))?;
                let result = h
                    .steps
                    .render(&lib)
                    .map_err(|e| in_eval(&crate::ytt::eval::with_lib_texts(&lib, e)))?;
                Ok(Fragment::value(Frag::DocSet(result.docs)))
            }),
            "data_values" => native("library.data_values", move |_t, a| {
                // ytt wraps this function's refusals in the words of `export`.
                let refuse = |m: &str| {
                    SError::new(format!(
                        "library.data_values: Exporting from library '{}': {m}",
                        h.desc()
                    ))
                };
                if !a.pos.is_empty() {
                    return Err(refuse("expected no arguments"));
                }
                let lib = h.lib().map_err(|e| refuse(&e.msg))?;
                let v = lib.values.borrow().clone();
                check_struct_keys(&v)?;
                Ok(plain_to_struct(&v))
            }),
            "export" => native("library.export", move |_t, a: &Args| {
                // ytt puts the function and the library in front of its own refusals.
                let refuse = |m: String| {
                    SError::new(format!(
                        "library.export: Exporting from library '{}': {m}",
                        h.desc()
                    ))
                };
                let (sym, path) = export_args(a).map_err(refuse)?;
                if sym.starts_with('_') {
                    return Err(refuse(
                        "Symbols starting with '_' are private, and cannot be exported".into(),
                    ));
                }
                let lib = h.lib().map_err(|e| refuse(e.msg.clone()))?;
                // As ytt does, the whole library is evaluated (its templates, overlays
                // and every library file) and the symbol looked for among the modules
                // of its library files.
                let result = h
                    .steps
                    .render(&lib)
                    .map_err(|e| refuse(crate::ytt::eval::with_lib_texts(&lib, e).to_string()))?;
                let mut found = Vec::new();
                for (rel, m) in result.exports {
                    if path.as_ref().is_some_and(|p| *p != rel) {
                        continue;
                    }
                    if let Some(val) = m.get(&sym) {
                        found.push((rel, val));
                    }
                }
                match found.len() {
                    1 => Ok(found.remove(0).1),
                    0 => Err(refuse(format!(
                        "Expected to find exported symbol '{sym}', but did not"
                    ))),
                    _ => {
                        let paths: Vec<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
                        Err(refuse(format!(
                            "Expected to find exactly one exported symbol '{sym}', but found multiple across files: {}",
                            paths.join(", ")
                        )))
                    }
                }
            }),
            _ => return Ok(None),
        }))
    }
    fn attr_names(&self) -> Vec<String> {
        [
            "data_values",
            "eval",
            "export",
            "with_data_values",
            "with_data_values_schema",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The `@ytt:library` module of `lib`. It belongs to the file that loads it:
/// `library.get` finds libraries beside that file, also when it runs in a function
/// called from another file.
pub fn module(lib: &LibRef, steps: &Rc<dyn LibrarySteps>) -> Module {
    let l = lib.clone();
    let file = lib.current_file();
    let steps = steps.clone();
    super::module(
        "@ytt:library",
        vec![(
            "get",
            native("library.get", move |_t, a| {
                // ytt's `core.ErrWrapper` puts the function's name before every refusal.
                let refuse = |m: String| SError::new(format!("library.get: {m}"));
                let (name, alias, overrides) = get_args(a).map_err(refuse)?;
                if name.starts_with('@') {
                    return Err(refuse(format!(
                        "Expected library '{name}' to be specified without '@'"
                    )));
                }
                // Fail early when the library does not exist.
                let prefix = library_prefix(&l, file.as_deref(), &name).map_err(refuse)?;
                let mut h = Handle::new(l.clone(), name, alias, prefix, steps.clone());
                let [
                    ignore_unknown_comments,
                    implicit_map_key_overrides,
                    strict,
                    disable_validation,
                ] = overrides;
                if let Some(b) = ignore_unknown_comments {
                    h.opts.ignore_unknown_comments = b;
                }
                if let Some(b) = implicit_map_key_overrides {
                    h.opts.implicit_map_key_overrides = b;
                }
                if let Some(b) = strict {
                    h.opts.strict = b;
                }
                // Once validations are off (`--dangerous-data-values-disable-validation`
                // or an outer library's `library.get`), `False` does not turn them back
                // on: ytt's `ThatSkipsDataValuesValidations` ors the two.
                if disable_validation == Some(true) {
                    h.opts.dangerous_disable_validation = true;
                }
                Ok(Value::Host(Rc::new(h)))
            }),
        )],
    )
}

/// `library.get`'s name, alias, template switch overrides and whether it turns off
/// data values validations.
type GetArgs = (String, Option<String>, [Option<bool>; 4]);

/// The arguments of `library.get(name, alias=, ignore_unknown_comments=,
/// implicit_map_key_overrides=, strict=, dangerous_data_values_disable_validation=)` as
/// ytt's `LibraryModule.Get` reads them: one positional string, then the keywords in the
/// order given (the four switches are Starlark bools, in that order in the result).
fn get_args(a: &Args) -> Result<GetArgs, String> {
    let [name] = a.pos.as_slice() else {
        return Err("expected exactly one argument".into());
    };
    let name = name
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("expected a string, but was {}", name.type_name()))?;
    let mut alias = None;
    let mut overrides = [None; 4];
    for (k, v) in &a.kwargs {
        let slot = match &**k {
            "alias" => {
                let s = v
                    .as_str()
                    .ok_or_else(|| format!("expected a string, but was {}", v.type_name()))?;
                alias = Some(s.to_string());
                continue;
            }
            "ignore_unknown_comments" => 0,
            "implicit_map_key_overrides" => 1,
            "strict" => 2,
            "dangerous_data_values_disable_validation" => 3,
            other => return Err(format!("Unexpected kwarg '{other}'")),
        };
        let Value::Bool(b) = v else {
            return Err(format!(
                "expected starlark.Bool, but was {}",
                crate::ytt::overlay::go_type::of_starlark(v)
            ));
        };
        overrides[slot] = Some(*b);
    }
    Ok((name, alias, overrides))
}

/// The symbol and `path=` of `library.export(name, path=...)`, refused as ytt refuses
/// them.
fn export_args(a: &Args) -> Result<(String, Option<String>), String> {
    let [name] = a.pos.as_slice() else {
        return Err("expected exactly one argument".into());
    };
    let as_string = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("expected a string, but was {}", v.type_name()))
    };
    let sym = as_string(name)?;
    let mut path = None;
    for (k, v) in &a.kwargs {
        if &**k != "path" {
            return Err(format!("Unexpected keyword argument '{k}'"));
        }
        path = Some(as_string(v)?);
    }
    Ok((sym, path))
}
