//! `#@library/ref` paths (`@path`, `@~alias`, `@path~alias`, repeated for nested
//! libraries: `@a@b~x`) checked as ytt's `LibraryRefExtractor` checks them, on data
//! values and schema documents and in the `@lib:` prefix of data value flags.

use crate::ytt::error::Error;
use crate::ytt::node::Ann;

/// The library path of a `#@library/ref` annotation, checked as ytt's library ref
/// extractor checks it: one string, `@path`, `@~alias` or `@path~alias`, repeated for
/// nested libraries (`@a@b`).
pub fn library_ref(ann: &Ann) -> Result<String, Error> {
    if ann.args.len() != 1 {
        return Err(Error::msg(format!(
            "Expected library/ref annotation to have one arg, got {}",
            ann.args.len()
        )));
    }
    let Some(r) = ann.args[0].as_str() else {
        return Err(Error::msg(format!(
            "expected a string, but was {}",
            ann.args[0].type_name()
        )));
    };
    check_ref_path(r).map_err(|m| Error::msg(format!("Annotation library/ref: {m}")))?;
    Ok(r.to_string())
}

/// A library path (`@path`, `@~alias` or `@path~alias`, repeated for nested libraries)
/// checked as ytt's `LibraryRefExtractor.FromStr` checks it, for annotations and flags.
pub fn check_ref_path(r: &str) -> Result<(), String> {
    if r.is_empty() {
        return Err("Expected library ref to not be empty".into());
    }
    let Some(pieces) = r.strip_prefix('@') else {
        return Err("Expected library ref to start with '@'".into());
    };
    for piece in pieces.split('@') {
        match piece.split('~').collect::<Vec<_>>().as_slice() {
            [_, ""] => return Err("Expected library alias to not be empty".into()),
            [_] | [_, _] => {}
            _ => {
                return Err(format!(
                    "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '{r}'"
                ));
            }
        }
    }
    Ok(())
}
