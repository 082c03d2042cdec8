//! YAML for ytt templates: a YAML 1.1 (go-yaml v2) compatible parser that keeps positions and
//! `#@`/`#!` comments, a node tree, plain values, and emitters that print exactly like ytt 0.48.
//!
//! # Node tree (input side, for the template compiler)
//!
//! [`parse_document_set`]`(src, file) -> Result<`[`DocumentSet`]`, `[`YamlError`]`>` parses one
//! file. The tree mirrors ytt's `yamlmeta`:
//!
//! * [`DocumentSet`] `{ file, docs: Vec<Document>, lines }`: all documents of the file, plus
//!   the source lines for error messages ([`DocumentSet::source_line`], [`SourceLines`]).
//! * [`Document`] `{ pos, comments, value: Node, injected }`. Like ytt, text that does not start
//!   with `---` is read as if `---\n` were prepended, so a file `#@ if x:\n---\na: 1\n#@ end`
//!   gives: an empty first document, a document holding comment `#@ if x:`, and an `injected`
//!   trailing document holding `#@ end`. Injected and empty documents are never printed.
//! * [`Node`] = `Map(`[`Map`]`) | Array(`[`Array`]`) | Scalar(`[`Value`]`)`.
//! * [`MapItem`] `{ pos, comments, key: Value, value: Node }` (position = key line; keys are
//!   resolved scalars: strings, ints, bools, null, floats). Duplicate keys are kept as parsed:
//!   for untemplated files call [`DocumentSet::override_map_keys`] (ytt keeps the first
//!   place and the last value); templated files must raise ytt's "to not be specified again"
//!   error.
//! * [`ArrayItem`] `{ pos, comments, value: Node }` (position = line of the `-`, or of the
//!   `[`/`,` in flow sequences).
//! * [`Map`]/[`Array`] `{ pos, items }` (position unknown, as ytt's are invisible nodes).
//! * [`Position`] `{ file, line: Option<usize> }`, displayed as `file:line`.
//!
//! Comments ([`Comment`] `{ data, pos }`, `data` = text after `#`) are attached as ytt does:
//! a comment belongs to the first node (document, map item, array item) on the nearest line at
//! or below it; a comment on the same line as nodes belongs to the last (innermost) node of that
//! line. So `#@ code` lines above a node annotate it, `key: #@ expr` annotates the map item
//! (use [`Comment::is_on_line_of`] to tell value annotations from code above), comments above
//! a `---` annotate that document, and trailing comments go to the injected document.
//! [`Comment::kind`] says `Ytt` (`#@`), `YttComment` (`#!`) or `Plain` (`#`);
//! [`Comment::annotation`] splits `#@name content` as ytt does (name empty for code).
//! [`DocumentSet::has_templating`] is ytt's `HasTemplating` (any `#@` comment), and
//! [`DocumentSet::first_plain_comment`] finds the comment that makes a templated file fail
//! with "Expected ytt-formatted string".
//!
//! Scalars are resolved per YAML 1.1 as go-yaml v2 does ([`resolve`]): booleans
//! (`yes/no/on/off/y/n/true/false` in their three case forms), nulls, ints (`0755` octal,
//! `0x`, `0o`, `0b`, `_`, signs, up to `u64::MAX`), floats (`1e3`, `.5`, `.inf`, `.nan`),
//! timestamps kept as strings; quoted and block scalars are strings; explicit `!!str`, `!!int`,
//! `!!float`, `!!bool`, `!!null`, `!!binary` tags convert; anchors, aliases and `<<` merges are
//! expanded while parsing.
//!
//! # Values and output
//!
//! [`Value`] (`Null | Bool | Int(i128) | Float | String | Array | Map(Vec<(Value, Value)>)`) is
//! the plain value type. [`Node::to_value`] / [`Node::from_value`] convert.
//!
//! * [`emit::to_yaml_document`]`(&Value) -> Result<String, EmitError>` prints one document
//!   as go-yaml v2 (ytt's fork) does: block style, 2-space indent, sequences not indented under
//!   their key, `{}`/`[]` for empty collections, no line wrapping, go-yaml's quoting rules,
//!   `|`/`|-`/`|+` for multi-line strings unless they need double quotes, Go float format.
//! * [`emit::to_yaml_stream`]`(&[Value])` prints documents as `ytt` does: empty documents
//!   (null, `{}`, `[]`) are skipped, `---\n` goes between documents (not before the first).
//! * [`json::to_json_stream`]`(&[Value])` prints `-o json` output: one compact JSON object per
//!   document, keys sorted, no separators, no trailing newline.
//! * For the `@ytt:yaml` / `@ytt:json` modules: [`plain::encode`] (`yaml.encode`, empty
//!   documents encode to `""`), [`plain::decode`] (`yaml.decode`, exactly one document),
//!   [`json::to_json`] (`json.encode`, keys sorted), [`json::to_json_indented`]
//!   (`json.encode(v, indent=n)`), [`json::from_json`] (`json.decode`: numbers become floats,
//!   keys sorted). [`float::format_go_g`] is Go's `%v`/`'g'` float format.
//!
//! # Files
//!
//! [`files`] selects and orders input files the way `ytt -f <dir>` does (lexical order of
//! paths, `.yml`/`.yaml` templates, `*.lib.yml` library files not emitted, other files data).

mod alias_budget;
pub mod ast;
mod comments;
pub mod emit;
pub mod files;
pub mod float;
mod go_errors;
pub mod json;
pub mod parse;
pub mod plain;
mod reader;
mod relaxed;
pub mod resolve;
mod scalar_style;
pub mod strict;
mod tabs;
pub mod value;

pub use ast::{
    Annotation, Array, ArrayItem, Comment, CommentKind, Document, DocumentSet, Map, MapItem, Node,
    Position, SourceLines,
};
pub use emit::{
    EmitError, EmitOptions, to_yaml_document, to_yaml_document_with, to_yaml_documents,
    to_yaml_stream,
};
pub use parse::{YamlError, parse_document_set, parse_document_set_strict, parse_ytt_document_set};
pub use value::Value;

#[cfg(test)]
mod parse_tests;

/// The byte offset at which 1-based `line` of `text` starts; None for line 0.
fn line_start(text: &str, line: usize) -> Option<usize> {
    Some(
        text.split_inclusive('\n')
            .take(line.checked_sub(1)?)
            .map(str::len)
            .sum(),
    )
}
