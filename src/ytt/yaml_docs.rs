//! Input YAML as the engine first reads it, before any evaluation: parsing with syntax
//! errors turned into engine errors at their line, and the document annotations that
//! decide which stage a file belongs to (`data/values`, `data/values-schema`).

use crate::yaml::{self, Comment, CommentKind, DocumentSet, Node};
use crate::ytt::error::{Error, Position};

/// Parses a YAML file into a document set, mapping syntax errors to engine errors.
pub fn parse_yaml(src: &str, file: &str) -> Result<DocumentSet, Error> {
    parse_yaml_with(src, file, false)
}

/// [`parse_yaml`], in ytt's strict YAML subset when `strict` (`--strict`).
pub fn parse_yaml_with(src: &str, file: &str, strict: bool) -> Result<DocumentSet, Error> {
    parse_yaml_named(src, file, strict, "template")
}

/// [`parse_yaml_with`] for a file ytt names `what` in its syntax errors
/// (`Unmarshaling YAML data values file 'f.yml': ...` for a `--data-values-file`).
pub fn parse_yaml_named(
    src: &str,
    file: &str,
    strict: bool,
    what: &str,
) -> Result<DocumentSet, Error> {
    yaml::parse_ytt_document_set(src, file, strict).map_err(|e| {
        let line = e.line.unwrap_or(0);
        Error::at(
            format!("Unmarshaling YAML {what} '{file}': {}", e.message),
            Position::in_source(file, line, src),
        )
    })
}

/// True when any document of the set carries annotation `name` (before evaluation).
pub fn has_doc_annotation(ds: &DocumentSet, name: &str) -> bool {
    ds.docs.iter().any(|d| {
        d.comments
            .iter()
            .any(|c| c.kind() == CommentKind::Ytt && c.annotation().is_some_and(|a| a.name == name))
    })
}

/// Refuses annotation `name` (`data/values`, `data/values-schema`) on a node that is not a
/// document, or twice on one document, as ytt's `DocExtractor` words it before it takes
/// the documents of a file apart: the misplaced annotation names its node's kind and
/// `file:line` inside the message (so no place is shown under it); the doubled one is
/// shown at its document.
pub fn check_doc_only_annotation(ds: &DocumentSet, name: &str) -> Result<(), Error> {
    fn named(comments: &[Comment], name: &str) -> bool {
        comments
            .iter()
            .any(|c| c.kind() == CommentKind::Ytt && c.annotation().is_some_and(|a| a.name == name))
    }
    fn walk(ds: &DocumentSet, node: &Node, name: &str) -> Result<(), Error> {
        let misplaced = |what: &str, line: Option<usize>| {
            let place = match line {
                Some(line) => format!("{}:{line}", ds.file),
                None => format!("{}:?", ds.file),
            };
            let line = line.unwrap_or(0);
            Error::at(
                format!(
                    "Found @{name} on {what} ({place}); only documents (---) can be annotated with @{name}"
                ),
                Position {
                    file: ds.file.to_string(),
                    line,
                    text: ds.source_line(line).map(str::to_string),
                },
            )
        };
        match node {
            Node::Map(m) => {
                for item in &m.items {
                    if named(&item.comments, name) {
                        return Err(misplaced("map item", item.pos.line));
                    }
                    walk(ds, &item.value, name)?;
                }
            }
            Node::Array(a) => {
                for item in &a.items {
                    if named(&item.comments, name) {
                        return Err(misplaced("array item", item.pos.line));
                    }
                    walk(ds, &item.value, name)?;
                }
            }
            Node::Scalar(_) => {}
        }
        Ok(())
    }
    for d in &ds.docs {
        walk(ds, &d.value, name)?;
    }
    for d in &ds.docs {
        let uses = d
            .comments
            .iter()
            .filter(|c| {
                c.kind() == CommentKind::Ytt && c.annotation().is_some_and(|a| a.name == name)
            })
            .count();
        if uses > 1 {
            let line = d.pos.line.unwrap_or(0);
            return Err(Error::at(
                format!("{name} annotation may only be used once per document"),
                Position {
                    file: ds.file.to_string(),
                    line,
                    text: ds.source_line(line).map(str::to_string),
                },
            ));
        }
    }
    Ok(())
}
