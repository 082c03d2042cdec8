//! `@ytt:data`: `data.values`, `data.read(path)` and `data.list([path])` over the files
//! of the current library.

use crate::ytt::eval::LibRef;
use crate::ytt::fragment::{check_struct_keys, plain_to_struct};
use crate::ytt::lookup::PRIVATE_DIR;
use crate::ytt::starlark::{Error as SError, Module, Value};

use super::{SResult, native};

/// The module, or an error when the data values cannot be a struct (a key that is not a
/// string).
pub fn module(lib: &LibRef) -> SResult<Module> {
    let values = match &*lib.values.borrow() {
        crate::yaml::Value::Null => plain_to_struct(&crate::yaml::Value::Map(vec![])),
        v => {
            check_struct_keys(v)?;
            plain_to_struct(v)
        }
    };
    let l1 = lib.clone();
    let l2 = lib.clone();
    // Relative paths start at the directory of the file that loaded the module, also
    // when `read`/`list` run in a function called from another file.
    let f1 = lib.current_file();
    let f2 = f1.clone();
    Ok(super::module(
        "@ytt:data",
        vec![
            ("values", values),
            (
                "read",
                native("data.read", move |_t, args| {
                    let [p] = args.pos.as_slice() else {
                        return Err(SError::new("data.read: expected exactly one argument"));
                    };
                    read(&l1, f1.as_deref(), path_arg("data.read", p)?)
                }),
            ),
            (
                "list",
                native("data.list", move |_t, args| {
                    let dir = match args.pos.as_slice() {
                        [] => "",
                        [p] => path_arg("data.list", p)?,
                        _ => {
                            return Err(SError::new(
                                "data.list: expected exactly zero or one argument",
                            ));
                        }
                    };
                    list(&l2, f2.as_deref(), dir)
                }),
            ),
        ],
    ))
}

/// A path argument: a string, refused otherwise in ytt's words.
fn path_arg<'a>(fname: &str, v: &'a Value) -> SResult<&'a str> {
    v.as_str().ok_or_else(|| {
        SError::new(format!(
            "{fname}: expected a string, but was {}",
            v.type_name()
        ))
    })
}

/// `data.read(path)`: as ytt's `DataLoader.FileData`, the file is found as `load()`
/// finds it ([`crate::ytt::lookup`]): from the directory of the file that loaded the
/// module, or from the library root for a path starting with `/`.
fn read(lib: &LibRef, current: Option<&str>, path: &str) -> SResult<Value> {
    let rel = lib
        .find_file(current.unwrap_or(""), path)
        .map_err(|e| SError::new(format!("data.read: {e}")))?;
    let f = lib
        .file(&rel)
        .expect("find_file returns one of the library's files");
    // ytt gives the file's bytes as a string: bytes that are no UTF-8 (an image, a
    // keystore) are kept as bytes, not replaced.
    Ok(Value::Str(crate::ytt::starlark::value::byte_str(&f.bytes)))
}

/// `data.list(path)`: the files under the directory `path`, as ytt lists a library
/// directory: its own files first (in file order), then each subdirectory's listing in
/// the order the subdirectories first appear; private `_ytt_lib` directories are left
/// out. A relative path (default: none) starts at the calling file's directory, a path
/// starting with `/` at the library root; the names are relative to the listed directory,
/// with a leading `/` for a path from the root. A directory that does not exist is an
/// error.
fn list(lib: &LibRef, current: Option<&str>, path: &str) -> SResult<Value> {
    let from_root = path.starts_with('/');
    let start = lib
        .find_dir(current.unwrap_or(""), path)
        .map_err(|e| SError::new(format!("data.list: {e}")))?;
    let visible: Vec<&str> = lib
        .files
        .iter()
        .map(|f| f.rel.as_str())
        .filter(|r| !r.split('/').any(|c| c == PRIVATE_DIR))
        .collect();
    let below: Vec<&str> = visible
        .iter()
        .filter_map(|r| {
            if start.is_empty() {
                Some(*r)
            } else {
                r.strip_prefix(start.as_str())
                    .and_then(|r| r.strip_prefix('/'))
            }
        })
        .collect();
    let mut names = Vec::new();
    list_tree(&below, "", &mut names);
    let shown = |r: &str| -> String {
        if from_root {
            format!("/{r}")
        } else {
            r.to_string()
        }
    };
    Ok(Value::list(
        names.iter().map(|r| Value::str(&shown(r))).collect(),
    ))
}

/// Appends the paths of `files` (relative to one directory, in file order) depth first:
/// the directory's own files, then each subdirectory in order of first appearance.
fn list_tree(files: &[&str], prefix: &str, out: &mut Vec<String>) {
    let mut children: Vec<&str> = Vec::new();
    for f in files {
        match f.split_once('/') {
            None => out.push(format!("{prefix}{f}")),
            Some((child, _)) => {
                if !children.contains(&child) {
                    children.push(child);
                }
            }
        }
    }
    for child in children {
        let inner: Vec<&str> = files
            .iter()
            .filter_map(|f| f.strip_prefix(child).and_then(|r| r.strip_prefix('/')))
            .collect();
        list_tree(&inner, &format!("{prefix}{child}/"), out);
    }
}
