//! The YAML node tree as ytt sees it: a `DocumentSet` of `Document`s whose values are maps,
//! arrays or scalars, with `MapItem`/`ArrayItem` nodes that carry a source position and the
//! `#`-comments ytt attached to them.
//!
//! Only documents, map items and array items have positions and comments (as in ytt, maps and
//! arrays take their parent's position). Scalars and map keys are plain [`Value`]s.

use std::fmt;
use std::sync::Arc;

use super::value::Value;

/// A position in a source file: file name and 1-based line (`None` when unknown, e.g. for
/// nodes produced by evaluation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The file name as given to the parser (e.g. `config.yml` or `sub/x.yml`).
    pub file: Arc<str>,
    /// 1-based line number, if known.
    pub line: Option<usize>,
}

impl Position {
    /// A known position.
    pub fn new(file: Arc<str>, line: usize) -> Position {
        Position {
            file,
            line: Some(line),
        }
    }

    /// A position in `file` without a line.
    pub fn unknown(file: Arc<str>) -> Position {
        Position { file, line: None }
    }

    /// Whether the line is known.
    pub fn is_known(&self) -> bool {
        self.line.is_some()
    }
}

impl fmt::Display for Position {
    /// `file:line` (or `file:?` when the line is unknown), as ytt prints positions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}", self.file, l),
            None => write!(f, "{}:?", self.file),
        }
    }
}

/// What kind of comment this is, from its first character after `#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentKind {
    /// `#@ code`, `#@ expr` or `#@name args`: a ytt annotation (see [`Comment::annotation`]).
    Ytt,
    /// `#! text`: a ytt comment, ignored by the template compiler.
    YttComment,
    /// Any other `#` comment: allowed only in files without templating (ytt raises
    /// "Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)").
    Plain,
}

/// A `#` comment attached to a node.
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    /// The text after `#` (so `@ x = 1`, `@overlay/match by="name"`, `! note`, ` plain`),
    /// without the line break (a trailing `\r` of CRLF input is removed too).
    pub data: String,
    /// Where the comment is.
    pub pos: Position,
}

/// A parsed ytt annotation comment (`#@...`), split as ytt's `NewAnnotationFromString` does:
/// the name is the text after `@` up to the first space, the content is the rest after that
/// single space (not trimmed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Annotation<'a> {
    /// Empty for code/value comments (`#@ ...`), otherwise e.g. `overlay/match`, `data/values`.
    pub name: &'a str,
    /// Code or arguments (`x = 1`, `by="name"`); may be empty.
    pub content: &'a str,
}

impl Comment {
    /// The comment's kind.
    pub fn kind(&self) -> CommentKind {
        match self.data.as_bytes().first() {
            Some(b'@') => CommentKind::Ytt,
            Some(b'!') => CommentKind::YttComment,
            _ => CommentKind::Plain,
        }
    }

    /// For `#@` comments: the annotation name and content. `None` for other kinds.
    pub fn annotation(&self) -> Option<Annotation<'_>> {
        let rest = self.data.strip_prefix('@')?;
        let (name, content) = match rest.split_once(' ') {
            Some((n, c)) => (n, c),
            None => (rest, ""),
        };
        Some(Annotation { name, content })
    }

    /// True if the comment is on the same line as the node at `node_pos` (for `#@ expr`
    /// comments this makes it a value annotation rather than code above the node).
    pub fn is_on_line_of(&self, node_pos: &Position) -> bool {
        node_pos.line.is_some() && self.pos.line == node_pos.line
    }
}

/// A node value: a collection or a scalar.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A mapping.
    Map(Map),
    /// A sequence.
    Array(Array),
    /// A scalar (never `Value::Array`/`Value::Map`).
    Scalar(Value),
}

/// A mapping; its position is that of its parent node.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// Parent's position.
    pub pos: Position,
    /// Items in source order. Duplicate keys are kept as parsed; see
    /// [`DocumentSet::override_map_keys`].
    pub items: Vec<MapItem>,
}

/// A key/value pair of a mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct MapItem {
    /// The key's line.
    pub pos: Position,
    /// Comments ytt attached to this item.
    pub comments: Vec<Comment>,
    /// The resolved key (string, int, bool, null, float).
    pub key: Value,
    /// The value.
    pub value: Node,
}

/// A sequence; its position is that of its parent node.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Parent's position.
    pub pos: Position,
    /// Items in order.
    pub items: Vec<ArrayItem>,
}

/// An element of a sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayItem {
    /// The line of its `-` (block) or of the `[`/`,` before it (flow).
    pub pos: Position,
    /// Comments ytt attached to this item.
    pub comments: Vec<Comment>,
    /// The value.
    pub value: Node,
}

/// One YAML document.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The `---` line, or line 1 for a first document without `---`; unknown for the
    /// injected trailing document.
    pub pos: Position,
    /// Comments attached to the document itself: those above its `---` that no node of the
    /// previous document took, and comments on the `---` line.
    pub comments: Vec<Comment>,
    /// The document's content (`Node::Scalar(Value::Null)` for an empty document).
    pub value: Node,
    /// True for the extra empty document ytt appends to hold comments after the last node
    /// of the file (e.g. a closing `#@ end`). It is never printed.
    pub injected: bool,
}

impl Document {
    /// Calls `f` on the document's own comments, then on those of its nodes in order.
    pub fn walk_comments(&self, f: &mut dyn FnMut(&Comment)) {
        self.comments.iter().for_each(&mut *f);
        walk_node_comments(&self.value, f);
    }
}

/// All documents of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct DocumentSet {
    /// The file name used in positions.
    pub file: Arc<str>,
    /// The documents, in order. Note that, like ytt, a file that does not start with `---`
    /// but has a `---` later (e.g. `#@ if x:` then `---`) yields an empty first document.
    pub docs: Vec<Document>,
    /// The source lines (split on `\n`, a trailing `\r` removed), for error messages:
    /// `source_line(n)` gives line `n` (1-based).
    pub lines: SourceLines,
}

/// The lines of a source text (split on `\n`, a trailing `\r` removed), kept as the text
/// and the offsets where lines start, so no line is copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLines {
    /// `prefix` bytes that are not part of the source (the parser's prepended `---\n`), then
    /// the source.
    text: String,
    prefix: usize,
    /// Byte offset of each line's start in `text` (the first is `prefix`).
    starts: Vec<usize>,
}

impl Default for SourceLines {
    /// No text: one empty line, as `"".split('\n')` gives.
    fn default() -> SourceLines {
        SourceLines::new(String::new())
    }
}

impl SourceLines {
    /// Splits `text` into lines.
    pub fn new(text: String) -> SourceLines {
        SourceLines::with_prefix(text, 0)
    }

    /// Lines of `text[prefix..]`; the whole `text` stays available as [`SourceLines::full_text`]
    /// (the parser reads the source with a prepended `---\n` without copying it twice).
    pub(crate) fn with_prefix(text: String, prefix: usize) -> SourceLines {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(prefix);
        push_line_starts(&text.as_bytes()[prefix..], prefix, &mut starts);
        SourceLines {
            text,
            prefix,
            starts,
        }
    }

    /// The source with its prefix.
    pub(crate) fn full_text(&self) -> &str {
        &self.text
    }

    /// The number of lines (one more than the number of `\n`).
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Never true (even an empty text has one, empty, line); for API completeness.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Line `i` (0-based), without its line break.
    pub fn get(&self, i: usize) -> Option<&str> {
        let start = *self.starts.get(i)?;
        let line = match self.starts.get(i + 1) {
            Some(&next) => &self.text[start..next - 1],
            None => &self.text[start..],
        };
        Some(line.strip_suffix('\r').unwrap_or(line))
    }

    /// The lines in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The lines joined with `sep` (like `[String]::join`).
    pub fn join(&self, sep: &str) -> String {
        let mut out = String::with_capacity(self.text.len());
        for (i, l) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(l);
        }
        out
    }

    /// The 1-based line holding byte `offset` of the source (0 for an offset in the prefix,
    /// which counts from the start of the prefix).
    pub fn line_of(&self, offset: usize) -> usize {
        match offset.checked_sub(self.prefix) {
            Some(o) => self.starts.partition_point(|&s| s <= o + self.prefix),
            None => 0,
        }
    }
}

/// Pushes `base + i + 1` for every `\n` at index `i` of `bytes`, skipping eight bytes at a
/// time where none is.
fn push_line_starts(bytes: &[u8], base: usize, starts: &mut Vec<usize>) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    const NL: u64 = ONES * b'\n' as u64;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = base;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let x = word ^ NL;
        // Non-zero when some byte of `x` is zero (some byte of `word` is `\n`).
        if x.wrapping_sub(ONES) & !x & HIGHS != 0 {
            for (i, &b) in chunk.iter().enumerate() {
                if b == b'\n' {
                    starts.push(at + i + 1);
                }
            }
        }
        at += 8;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if b == b'\n' {
            starts.push(at + i + 1);
        }
    }
}

impl DocumentSet {
    /// Line `n` (1-based) of the source, if it exists.
    pub fn source_line(&self, n: usize) -> Option<&str> {
        n.checked_sub(1).and_then(|i| self.lines.get(i))
    }

    /// ytt's `HasTemplating`: true if any comment of any node is a `#@` comment. Files without
    /// templating are plain YAML (their plain `#` comments are fine).
    pub fn has_templating(&self) -> bool {
        let mut found = false;
        self.walk_comments(&mut |c| {
            if c.kind() == CommentKind::Ytt {
                found = true;
            }
        });
        found
    }

    /// Calls `f` on every comment attached to any node, in tree order.
    pub fn walk_comments(&self, f: &mut dyn FnMut(&Comment)) {
        for doc in &self.docs {
            doc.walk_comments(f);
        }
    }

    /// The first plain (non-ytt) `#` comment, if any: in a templated file ytt rejects it with
    /// "Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)".
    pub fn first_plain_comment(&self) -> Option<Comment> {
        let mut first: Option<Comment> = None;
        self.walk_comments(&mut |c| {
            if first.is_none() && c.kind() == CommentKind::Plain {
                first = Some(c.clone());
            }
        });
        first
    }

    /// ytt's `OverrideMapKeys` for plain (untemplated) files: in every map, items with the
    /// same key collapse into one, kept in the place of the first occurrence but being the
    /// last item (its value, position and comments).
    pub fn override_map_keys(&mut self) {
        for doc in &mut self.docs {
            override_keys_in(&mut doc.value);
        }
    }

    /// The first map key given twice in one map, and the line of its second item: plain
    /// YAML read as data (`--data-values-file`, `yaml.decode`) refuses it, as ytt does
    /// ("Unexpected duplicate key").
    pub fn first_duplicate_key(&self) -> Option<(Value, Option<usize>)> {
        fn walk(node: &Node) -> Option<(Value, Option<usize>)> {
            match node {
                Node::Map(m) => {
                    for (i, item) in m.items.iter().enumerate() {
                        if m.items[..i].iter().any(|prev| prev.key == item.key) {
                            return Some((item.key.clone(), item.pos.line));
                        }
                        if let Some(d) = walk(&item.value) {
                            return Some(d);
                        }
                    }
                    None
                }
                Node::Array(a) => a.items.iter().find_map(|i| walk(&i.value)),
                Node::Scalar(_) => None,
            }
        }
        self.docs.iter().find_map(|d| walk(&d.value))
    }

    /// An untemplated file's documents as plain values: duplicate keys collapsed as
    /// [`Self::override_map_keys`] does, injected and null documents left out (`{}` and `[]`
    /// are kept, unlike [`Self::printable_values`]).
    pub fn into_plain_values(mut self) -> Vec<Value> {
        self.override_map_keys();
        self.docs
            .iter()
            .filter(|d| !d.injected)
            .map(|d| d.value.to_value())
            .filter(|v| *v != Value::Null)
            .collect()
    }

    /// The printable documents as plain values: injected and empty documents (null, `{}`,
    /// `[]`) are left out, as ytt does when printing.
    pub fn printable_values(&self) -> Vec<Value> {
        self.docs
            .iter()
            .filter(|d| !d.injected)
            .map(|d| d.value.to_value())
            .filter(|v| !v.is_empty_document())
            .collect()
    }
}

fn walk_node_comments(node: &Node, f: &mut dyn FnMut(&Comment)) {
    match node {
        Node::Map(m) => {
            for item in &m.items {
                item.comments.iter().for_each(&mut *f);
                walk_node_comments(&item.value, f);
            }
        }
        Node::Array(a) => {
            for item in &a.items {
                item.comments.iter().for_each(&mut *f);
                walk_node_comments(&item.value, f);
            }
        }
        Node::Scalar(_) => {}
    }
}

fn override_keys_in(node: &mut Node) {
    match node {
        Node::Map(m) => {
            let old = std::mem::take(&mut m.items);
            let mut out: Vec<MapItem> = Vec::with_capacity(old.len());
            for item in old {
                match out.iter().position(|i| i.key == item.key) {
                    Some(idx) => out[idx] = item,
                    None => out.push(item),
                }
            }
            for item in &mut out {
                override_keys_in(&mut item.value);
            }
            m.items = out;
        }
        Node::Array(a) => {
            for item in &mut a.items {
                override_keys_in(&mut item.value);
            }
        }
        Node::Scalar(_) => {}
    }
}

impl Node {
    /// Converts the subtree to a plain value (comments and positions dropped, duplicate keys
    /// kept as they are).
    pub fn to_value(&self) -> Value {
        match self {
            Node::Scalar(v) => v.clone(),
            Node::Map(m) => Value::Map(
                m.items
                    .iter()
                    .map(|i| (i.key.clone(), i.value.to_value()))
                    .collect(),
            ),
            Node::Array(a) => Value::Array(a.items.iter().map(|i| i.value.to_value()).collect()),
        }
    }

    /// Builds a node tree from a value; every node gets position `pos` and no comments.
    pub fn from_value(v: &Value, pos: &Position) -> Node {
        match v {
            Value::Map(items) => Node::Map(Map {
                pos: pos.clone(),
                items: items
                    .iter()
                    .map(|(k, v)| MapItem {
                        pos: pos.clone(),
                        comments: vec![],
                        key: k.clone(),
                        value: Node::from_value(v, pos),
                    })
                    .collect(),
            }),
            Value::Array(items) => Node::Array(Array {
                pos: pos.clone(),
                items: items
                    .iter()
                    .map(|v| ArrayItem {
                        pos: pos.clone(),
                        comments: vec![],
                        value: Node::from_value(v, pos),
                    })
                    .collect(),
            }),
            scalar => Node::Scalar(scalar.clone()),
        }
    }

    /// True for `Node::Scalar(Value::Null)`.
    pub fn is_null(&self) -> bool {
        matches!(self, Node::Scalar(Value::Null))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: usize) -> Position {
        Position::new(Arc::from("f.yml"), line)
    }

    fn comment(data: &str) -> Comment {
        Comment {
            data: data.to_string(),
            pos: pos(1),
        }
    }

    #[test]
    fn comment_kinds_and_annotations() {
        assert_eq!(comment("@ x = 1").kind(), CommentKind::Ytt);
        assert_eq!(comment("! note").kind(), CommentKind::YttComment);
        assert_eq!(comment(" plain").kind(), CommentKind::Plain);
        assert_eq!(comment("").kind(), CommentKind::Plain);
        let c = comment("@ x = 1");
        let a = c.annotation().unwrap();
        assert_eq!((a.name, a.content), ("", "x = 1"));
        let c = comment("@overlay/match by=\"name\"");
        let a = c.annotation().unwrap();
        assert_eq!(a.name, "overlay/match");
        assert_eq!(a.content, "by=\"name\"");
        let c = comment("@data/values");
        let a = c.annotation().unwrap();
        assert_eq!((a.name, a.content), ("data/values", ""));
        let c = comment("@  indented");
        let a = c.annotation().unwrap();
        assert_eq!((a.name, a.content), ("", " indented"));
        assert!(comment("! x").annotation().is_none());
    }

    #[test]
    fn source_lines_split_like_str_split() {
        for text in ["", "a", "a\n", "a\r\nb\n\nc", "\n\n", "x\ry\r\n"] {
            let lines = SourceLines::new(text.to_string());
            let want: Vec<&str> = text
                .split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .collect();
            assert_eq!(lines.iter().collect::<Vec<_>>(), want, "{text:?}");
            assert_eq!(lines.len(), want.len());
            assert_eq!(lines.join("\n"), want.join("\n"));
            assert_eq!(lines.get(want.len()), None);
        }
        let lines = SourceLines::new("ab\ncd\n".to_string());
        assert_eq!(
            (0..7).map(|o| lines.line_of(o)).collect::<Vec<_>>(),
            [1, 1, 1, 2, 2, 2, 3]
        );
    }

    #[test]
    fn override_keeps_first_position_last_value() {
        let item = |k: &str, v: i64, line: usize| MapItem {
            pos: pos(line),
            comments: vec![],
            key: Value::str(k),
            value: Node::Scalar(Value::from(v)),
        };
        let mut ds = DocumentSet {
            file: Arc::from("f.yml"),
            docs: vec![Document {
                pos: pos(1),
                comments: vec![],
                value: Node::Map(Map {
                    pos: pos(1),
                    items: vec![item("a", 1, 1), item("b", 2, 2), item("a", 3, 3)],
                }),
                injected: false,
            }],
            lines: SourceLines::default(),
        };
        ds.override_map_keys();
        let v = ds.docs[0].value.to_value();
        assert_eq!(
            v,
            Value::Map(vec![
                (Value::str("a"), Value::Int(3)),
                (Value::str("b"), Value::Int(2))
            ])
        );
    }
}
