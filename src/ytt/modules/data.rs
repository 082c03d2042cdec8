//! `@ytt:data`: `data.values`, `data.read(path)` and `data.list([path])` over the files
//! of the current library.

use crate::ytt::eval::LibRef;
use crate::ytt::fragment::{check_struct_keys, plain_to_struct};
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
                    read(&l1, path_arg("data.read", p)?)
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
                    Ok(list(&l2, dir))
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

fn read(lib: &LibRef, path: &str) -> SResult<Value> {
    let rel = path.trim_start_matches('/').trim_start_matches("./");
    // Relative paths are looked up next to the calling file first, then at the root.
    let sibling = match (path.starts_with('/'), lib.current_file()) {
        (false, Some(cur)) => cur.rsplit_once('/').map(|(dir, _)| format!("{dir}/{rel}")),
        _ => None,
    };
    let f = sibling
        .as_deref()
        .and_then(|s| lib.file(s))
        .or_else(|| lib.file(rel))
        .ok_or_else(|| {
        SError::new(format!(
            "Expected to find file '{path}' (hint: only files included via -f flag are available)"
        ))
    })?;
    let s = String::from_utf8_lossy(&f.bytes);
    Ok(Value::str(&s))
}

/// `data.list(path)`: the files under `path`. A relative path (default: none) starts at
/// the calling file's directory and the names are relative to that directory; a path
/// starting with `/` starts at the library root and the names start with `/`.
fn list(lib: &LibRef, dir: &str) -> Value {
    let absolute = dir.starts_with('/');
    let cur_dir = match (absolute, lib.current_file()) {
        (false, Some(cur)) => cur.rsplit_once('/').map(|(d, _)| d.to_string()),
        _ => None,
    };
    let base = cur_dir.clone().unwrap_or_default();
    let mut dir = dir.trim_start_matches('/').trim_end_matches('/');
    while let Some(rest) = dir.strip_prefix("./") {
        dir = rest;
    }
    let dir = if dir == "." { "" } else { dir };
    let full = match (base.is_empty(), dir.is_empty()) {
        (true, _) => dir.to_string(),
        (false, true) => base.clone(),
        (false, false) => format!("{base}/{dir}"),
    };
    let mut names: Vec<&str> = lib
        .files
        .iter()
        .map(|f| f.rel.as_str())
        .filter(|r| full.is_empty() || r.starts_with(&format!("{full}/")))
        .collect();
    names.sort_by(|a, b| {
        a.matches('/')
            .count()
            .cmp(&b.matches('/').count())
            .then(a.cmp(b))
    });
    let shown = |r: &str| -> String {
        if absolute {
            format!("/{r}")
        } else if base.is_empty() {
            r.to_string()
        } else {
            r[base.len() + 1..].to_string()
        }
    };
    Value::list(names.into_iter().map(|r| Value::str(&shown(r))).collect())
}
