//! `--file-mark PATH:KEY=VALUE`, as ytt applies it: marks in the order given, each
//! matching files by the path they were found at (`*` is one or more characters within
//! a path segment and `**/*` one or more of any, each only at its first place, as ytt's
//! pattern does), every mark matching at least one file, and `exclusive-for-output`
//! leaving only the files it marks for output.

use super::error::Error;
use super::files::{FileKind, InputFile};

/// One `--file-mark` argument, checked when it is applied (as ytt reports bad marks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileMark {
    pub raw: String,
}

impl FileMark {
    /// Takes any text; [`apply_marks`] checks it.
    pub fn parse(s: &str) -> Result<FileMark, Error> {
        Ok(FileMark { raw: s.to_string() })
    }

    /// `(path, key, value)`, split at the first `:` and the first `=` after it.
    fn parts(&self) -> Result<(&str, &str, &str), Error> {
        let raw = &self.raw;
        let (path, kv) = raw.split_once(':').ok_or_else(|| {
            Error::Io(format!(
                "Expected file mark '{raw}' to be in format path:key=value"
            ))
        })?;
        let (key, value) = kv.split_once('=').ok_or_else(|| {
            Error::Io(format!(
                "Expected file mark '{raw}' key-value portion to be in format key=value"
            ))
        })?;
        Ok((path, key, value))
    }
}

/// A piece of a mark's path pattern.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    /// One or more characters other than `/` (the first `*`).
    Segment,
    /// One or more characters (the first `**/*`).
    Any,
}

fn pattern(path: &str) -> Vec<Piece> {
    let mut pieces = match path.split_once("**/*") {
        Some((a, b)) => vec![
            Piece::Text(a.to_string()),
            Piece::Any,
            Piece::Text(b.to_string()),
        ],
        None => vec![Piece::Text(path.to_string())],
    };
    if let Some(i) = pieces
        .iter()
        .position(|p| matches!(p, Piece::Text(t) if t.contains('*')))
        && let Piece::Text(t) = pieces[i].clone()
    {
        let (a, b) = t.split_once('*').expect("contains a star");
        pieces.splice(
            i..=i,
            [
                Piece::Text(a.to_string()),
                Piece::Segment,
                Piece::Text(b.to_string()),
            ],
        );
    }
    pieces
}

fn matches(pieces: &[Piece], s: &str) -> bool {
    match pieces.split_first() {
        None => s.is_empty(),
        Some((Piece::Text(t), rest)) => {
            s.strip_prefix(t.as_str()).is_some_and(|r| matches(rest, r))
        }
        Some((wild, rest)) => {
            let ends = s.char_indices().skip(1).map(|(i, _)| i).chain([s.len()]);
            for end in ends.filter(|&e| e > 0) {
                if *wild == Piece::Segment && s[..end].contains('/') {
                    return false;
                }
                if matches(rest, &s[end..]) {
                    return true;
                }
            }
            false
        }
    }
}

/// Whether mark path `path` matches the file path `rel`.
pub fn path_matches(path: &str, rel: &str) -> bool {
    matches(&pattern(path), rel)
}

/// Applies `marks` to `files` in order.
pub fn apply_marks(files: &mut Vec<InputFile>, marks: &[FileMark]) -> Result<(), Error> {
    let mut exclusive: Vec<String> = Vec::new();
    for m in marks {
        let (path, key, value) = m.parts()?;
        let bad_value = || Error::Io(format!("Unknown value in file mark '{}'", m.raw));
        let pat = pattern(path);
        let mut matched = false;
        let mut i = 0;
        while i < files.len() {
            if !matches(&pat, &files[i].original_rel) {
                i += 1;
                continue;
            }
            matched = true;
            let f = &mut files[i];
            match key {
                "path" => f.rename(value.to_string()),
                "exclude" if value == "true" => {
                    files.remove(i);
                    continue;
                }
                "exclude" | "for-output" | "exclusive-for-output" if value != "true" => {
                    return Err(bad_value());
                }
                "for-output" => f.for_output = Some(true),
                "exclusive-for-output" => exclusive.push(f.original_rel.clone()),
                "type" => {
                    let (kind, template) = match value {
                        "yaml-template" => (FileKind::YamlTemplate, true),
                        "yaml-plain" => (FileKind::YamlPlain, false),
                        "text-template" => (FileKind::TextTemplate, true),
                        "text-plain" => (FileKind::TextPlain, false),
                        "starlark" => (FileKind::Starlark, false),
                        "data" => (FileKind::Data, false),
                        _ => return Err(bad_value()),
                    };
                    f.kind = kind;
                    f.marked_kind = Some(kind);
                    f.marked_template = template;
                }
                _ => return Err(Error::Io(format!("Unknown key in file mark '{}'", m.raw))),
            }
            i += 1;
        }
        if !matched {
            return Err(Error::Io(format!(
                "Expected file mark '{}' to match at least one file by path, but did not",
                m.raw
            )));
        }
    }
    if !exclusive.is_empty() {
        for f in files.iter_mut() {
            f.for_output = Some(exclusive.contains(&f.original_rel));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_ytts() {
        assert!(path_matches("skip.yml", "skip.yml"));
        assert!(!path_matches("skip.yml", "skipxyml"));
        assert!(path_matches("*.yml", "a.yml"));
        assert!(
            !path_matches("*.yml", ".yml"),
            "a star is one or more characters"
        );
        assert!(!path_matches("*.yml", "d/a.yml"));
        assert!(path_matches("**/*.yml", "d/e/a.yml"));
        assert!(path_matches("**/*.yml", "a.yml"), "**/* is any characters");
        assert!(path_matches("d/**/*", "d/x/y.txt"));
        // only the first star is a wildcard
        assert!(!path_matches("*/*.yml", "d/a.yml"));
        assert!(path_matches("*/*.yml", "d/*.yml"));
    }
}
