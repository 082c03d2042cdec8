//! What one data value flag gives, read as ytt reads it: a `--data-value`,
//! `--data-value-yaml` or `--data-value-file` argument (its library, key and value),
//! the variables of a `--data-values-env` prefix, the library ref in a flag's key,
//! and the files a `--data-values-file` path names. The pipeline in the parent module
//! applies them in ytt's order.

use std::path::Path;

use super::{Pipeline, set_path_at};
use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::files::{Local, list_local, split_named};
use crate::ytt::node::{Node, Pos};
use crate::ytt::symlinks::SymlinkPolicy;

/// The values one `--data-values-env` prefix gives: the library they are for (none for
/// the current one), the place ytt gives them, and one entry per variable.
pub(super) struct EnvValues {
    lib_name: Option<String>,
    at: Pos,
    vars: Vec<EnvValue>,
}

/// One `PREFIX_key__sub=value` variable: its key path, value and line (`NAME=value`).
struct EnvValue {
    key: Vec<String>,
    leaf: Node,
    line: String,
}

impl Pipeline<'_> {
    /// The data values of one `--data-values-env PREFIX` (`yaml`: `-yaml`, the values
    /// parsed as YAML): every `PREFIX_key__sub=value` variable sets `key.sub`, in the
    /// environment's own order (as ytt reads `os.Environ()`, so keys new to the data
    /// values are added in that order). `@lib:PREFIX` gives them to a library. Each
    /// value sits at line 1 of `(data-values-env arg) PREFIX`, the place ytt gives it.
    pub(super) fn env_values(
        &self,
        values: &mut Option<Node>,
        schema: &mut crate::ytt::schema::ValuesChecker,
        arg: &str,
        yaml: bool,
        wrap: &dyn Fn(Error) -> Error,
        doc_pos: &mut super::DocPos,
    ) -> Result<(), Error> {
        let env = self.read_env(arg, yaml)?;
        for var in env.vars {
            match &env.lib_name {
                Some(l) => self.keep_for_library(l, var.key, var.leaf, env.at.to_string()),
                None => {
                    schema
                        .check_flag(&var.key, &var.leaf, &env.at.file, &var.line)
                        .map_err(wrap)?;
                    set_path_at(values, &var.key, &var.leaf, &env.at).map_err(wrap)?;
                    doc_pos.note(values, || Some(env.at.clone()));
                    schema.fill(values);
                }
            }
        }
        Ok(())
    }

    /// Reads the variables of one `--data-values-env` (`yaml`: `-yaml`) prefix `arg` as
    /// ytt's `env` does before any file is templated: the library ref, each value (parsed
    /// when `yaml`) and, for a library, its path, failing in ytt's words.
    pub(super) fn read_env(&self, arg: &str, yaml: bool) -> Result<EnvValues, Error> {
        let extracting = |e: Error| {
            e.context(&format!(
                "Extracting data values from env under prefix '{arg}'"
            ))
        };
        let (lib_name, prefix) = library_ref_and_key(arg).map_err(extracting)?;
        let flag = if yaml {
            "data-values-env-yaml"
        } else {
            "data-values-env"
        };
        let at = Pos {
            file: format!("({flag} arg) {prefix}").into(),
            line: 1,
        };
        let mut vars = Vec::new();
        // Every variable, whatever its bytes (as Go's `os.Environ` gives them).
        for (k, v) in std::env::vars_os() {
            let (k, v) = (k.to_string_lossy(), v.to_string_lossy().into_owned());
            if !k.starts_with(&format!("{prefix}_")) {
                continue;
            }
            let line = format!("{k}={v}");
            // Only `__` separates the keys of a variable's name (`PREFIX_a__b`); a dot
            // is part of a key, as ytt's `env` reads it.
            let key: Vec<String> = k[prefix.len() + 1..]
                .split("__")
                .map(str::to_string)
                .collect();
            let leaf = if yaml {
                parse_flag_yaml(&v, &k, self.lib.opts.strict).map_err(|e| {
                    extracting(e.context(&format!("Extracting data value from env variable '{k}'")))
                })?
            } else {
                Node::Scalar(Value::String(v))
            };
            if let Some(l) = &lib_name {
                // ytt checks the library path as it addresses each variable's value.
                crate::ytt::library_ref::check_ref_path(&format!("@{l}"))
                    .map_err(|m| extracting(Error::Usage(m)))?;
            }
            vars.push(EnvValue { key, leaf, line });
        }
        Ok(EnvValues { lib_name, at, vars })
    }

    /// The library (`@name:`), key path and value one `--data-value` (`kind` 0),
    /// `--data-value-yaml` (1) or `--data-value-file` (2) argument gives, checked in
    /// ytt's order: the `=`, the value, then the key.
    pub(super) fn flag_value(
        &self,
        kv: &str,
        kind: usize,
    ) -> Result<(Option<String>, String, Node), Error> {
        let (key, raw) = kv.split_once('=').ok_or_else(|| {
            Error::Io(if kind == 2 {
                "Expected format key=/file/path".to_string()
            } else {
                "Expected format key=value".to_string()
            })
        })?;
        let val = match kind {
            0 => Node::Scalar(Value::String(raw.to_string())),
            1 => parse_flag_yaml(raw, "--data-value-yaml", self.lib.opts.strict).map_err(|e| {
                // ytt's words, then the flag (ytt names only the key).
                Error::Io(format!(
                    "Deserializing value for key '{key}': {e} (--data-value-yaml {kv})"
                ))
            })?,
            _ => self.file_flag_value(raw)?,
        };
        let (lib_name, key) = library_ref_and_key(key)?;
        if let Some(l) = &lib_name {
            crate::ytt::library_ref::check_ref_path(&format!("@{l}")).map_err(Error::Usage)?;
        }
        Ok((lib_name, key, val))
    }

    /// The contents of the file a `--data-value-file` names (`-` for standard input, a
    /// URL, or a local path: a file, or a directory holding one file), as a string (of its
    /// bytes: bytes that are no UTF-8 are kept, as Go's string keeps them). As
    /// `-f` paths, the path may be given a relative path (`NAME=PATH`), unused here.
    fn file_flag_value(&self, raw: &str) -> Result<Node, Error> {
        let finding = |e: Error| e.context(&format!("Finding file '{raw}'"));
        let (_, path) = split_named(raw).map_err(finding)?;
        let path = path.as_str();
        Ok(match path {
            "-" if self.stdin.is_some() => {
                let read = self.stdin.expect("checked");
                // ytt names no cause here (`kvFile`).
                let bytes = read().map_err(|_| Error::Io(format!("Reading file '{raw}'")))?;
                Node::Scalar(Value::String(crate::go_bytes::from_bytes(&bytes)))
            }
            _ if crate::ytt::http_source::is_url(path) => {
                let bytes = crate::ytt::http_source::fetch(path)
                    .map_err(|e| Error::Io(format!("Finding file '{raw}': {e}")))?;
                Node::Scalar(Value::String(crate::go_bytes::from_bytes(&bytes)))
            }
            _ => {
                // ytt lists the files a path names (checking them as `-f` paths are
                // checked); a directory holding a single file stands for that file.
                let found = list_local(path, self.cwd, self.symlinks).map_err(finding)?;
                let file = match found {
                    Local::File(full) => full,
                    Local::Dir(files) => match files.as_slice() {
                        [one] => one.path.clone(),
                        _ => {
                            return Err(Error::Io(format!(
                                "Expected '{raw}' to be a file, but is a directory"
                            )));
                        }
                    },
                };
                let bytes =
                    std::fs::read(&file).map_err(|_| Error::Io(format!("Reading file '{raw}'")))?;
                Node::Scalar(Value::String(crate::go_bytes::from_bytes(&bytes)))
            }
        })
    }
}

/// Splits `@lib:key` into the library and the key, refusing an empty library name and a
/// key with another `:` (a common slip), as ytt does.
fn library_ref_and_key(arg: &str) -> Result<(Option<String>, String), Error> {
    let (lib, key) = match arg.strip_prefix('@').and_then(|r| r.split_once(':')) {
        Some(("", _)) => {
            return Err(Error::Io("Expected library ref to not be empty".into()));
        }
        Some((l, k)) => (Some(l.to_string()), k),
        None => (None, arg),
    };
    if key.contains(':') {
        return Err(Error::Io(format!(
            "Expected at most one library-key separator ':' in '{key}'"
        )));
    }
    Ok((lib, key.to_string()))
}

/// The value of a YAML flag (`--data-value-yaml`, `--data-values-env-yaml`): its nodes
/// keep their lines in the value's text, with no file, as ytt parses it (a file named
/// `""`), so `-o pos` places a nested item at `1`.
fn parse_flag_yaml(raw: &str, flag: &str, strict: bool) -> Result<Node, Error> {
    let parsed = crate::yaml::parse_ytt_document_set(raw, flag, strict);
    let mut ds =
        parsed.map_err(|e| Error::Io(format!("Deserializing YAML value: {}", e.message)))?;
    ds.file = "".into();
    Ok(crate::ytt::eval::plain_docs(&ds)
        .into_iter()
        .next()
        .map_or(Node::null(), |d| d.value))
}

/// Where one data values file's bytes come from.
pub(super) enum ValuesSource {
    /// A local file, and its path as given (or as walked) for messages.
    Path(std::path::PathBuf, String),
    /// The body of an `http://` or `https://` URL, fetched already.
    Fetched(Vec<u8>),
}

impl ValuesSource {
    /// The file's bytes; `display` names it in the error.
    pub(super) fn bytes(&self, display: &str) -> Result<Vec<u8>, Error> {
        match self {
            // Go's `os.ReadFile` error, under ytt's `Reading file`.
            ValuesSource::Path(p, shown) => std::fs::read(p).map_err(|e| {
                let op = match e.kind() {
                    std::io::ErrorKind::IsADirectory => "read",
                    _ => "open",
                };
                Error::Io(format!(
                    "Reading file '{display}': {op} {shown}: {}",
                    crate::ytt::symlinks::go_io_error(&e)
                ))
            }),
            ValuesSource::Fetched(b) => Ok(b.clone()),
        }
    }
}

/// The files one `--data-values-file` names, each with the name ytt gives it in
/// messages: standard input for `-` (`stdin.yml`), the file itself (by its file name),
/// the body of a URL (named by its last
/// path element, as ytt's `HTTPSource` names it), or every file anywhere under a
/// directory (YAML or not, as ytt 0.48 reads them), by their paths inside it and in
/// that order; files are checked as `-f` files are (symlinks by the symlink flags).
pub(super) fn values_file_paths(
    cwd: &Path,
    arg: &str,
    stdin: Option<&dyn Fn() -> std::io::Result<Vec<u8>>>,
    symlinks: &SymlinkPolicy,
) -> Result<Vec<(String, ValuesSource)>, Error> {
    let find = |e: Error| e.context(&format!("Find files '{arg}'"));
    let (named, path) = split_named(arg).map_err(find)?;
    let path = path.as_str();
    if let (Some(read), "-") = (stdin, path) {
        let name = named.unwrap_or_else(|| "stdin.yml".into());
        let bytes = read().map_err(|e| Error::Io(format!("Reading file '{name}': {e}")))?;
        return Ok(vec![(name, ValuesSource::Fetched(bytes))]);
    }
    if crate::ytt::http_source::is_url(path) {
        let bytes = crate::ytt::http_source::fetch(path).map_err(Error::Io)?;
        let name = named.unwrap_or_else(|| crate::ytt::http_source::base_name(path));
        return Ok(vec![(name, ValuesSource::Fetched(bytes))]);
    }
    Ok(match list_local(path, cwd, symlinks).map_err(find)? {
        Local::File(full) => {
            let name = named.unwrap_or_else(|| {
                Path::new(path)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| path.to_string())
            });
            vec![(name, ValuesSource::Path(full, path.to_string()))]
        }
        Local::Dir(files) => files
            .into_iter()
            .map(|f| (f.rel, ValuesSource::Path(f.path, f.shown)))
            .collect(),
    })
}
