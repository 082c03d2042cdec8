//! `@ytt:data`: `data.values`, `data.read(path)` and `data.list([path])` over the files
//! of the current library.

use crate::ytt::eval::LibRef;
use crate::ytt::eval::fragment::plain_to_struct;
use crate::ytt::starlark::{Error as SError, Module, Value};

use super::{SResult, native};

pub fn module(lib: &LibRef) -> Module {
    let values = match &*lib.values.borrow() {
        crate::yaml::Value::Null => plain_to_struct(&crate::yaml::Value::Map(vec![])),
        v => plain_to_struct(v),
    };
    let l1 = lib.clone();
    let l2 = lib.clone();
    super::module(
        "@ytt:data",
        vec![
            ("values", values),
            (
                "read",
                native("data.read", move |_t, args| {
                    let v = args.unpack("data.read", &["path"])?;
                    let path = v[0]
                        .as_ref()
                        .and_then(|p| p.as_str())
                        .ok_or_else(|| SError::new("data.read: expected path to be a string"))?;
                    read(&l1, path)
                }),
            ),
            (
                "list",
                native("data.list", move |_t, args| {
                    let v = args.unpack("data.list", &["path?"])?;
                    let dir = v[0]
                        .as_ref()
                        .and_then(|p| p.as_str().map(str::to_string))
                        .unwrap_or_default();
                    Ok(list(&l2, &dir))
                }),
            ),
        ],
    )
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

fn list(lib: &LibRef, dir: &str) -> Value {
    let dir = dir.trim_start_matches('/').trim_end_matches('/');
    let mut names: Vec<&str> = lib
        .files
        .iter()
        .map(|f| f.rel.as_str())
        .filter(|r| dir.is_empty() || r.starts_with(&format!("{dir}/")))
        .collect();
    names.sort_by(|a, b| {
        a.matches('/')
            .count()
            .cmp(&b.matches('/').count())
            .then(a.cmp(b))
    });
    Value::list(names.into_iter().map(Value::str).collect())
}
