//! ytt's rules for attaching comments to nodes: within a document, a comment goes to the
//! first node (document, map item, array item) on the nearest line at or below it, or to
//! the last node of its own line; comments no node takes go to the next document, or to an
//! injected trailing document. [`super::parse`] collects the comments and documents
//! ([`RawComment`], [`RawDoc`]); [`assign_comments`] makes the [`Document`]s.

use std::sync::Arc;

use super::ast::{Comment, Document, Node, Position};
use super::value::Value;

/// A comment as the parser meets it.
pub(super) struct RawComment {
    /// The text after `#`.
    pub(super) data: String,
    /// Byte offset in the parsed text.
    pub(super) offset: usize,
    /// Corrected line, 0 = the prepended marker line.
    pub(super) line: usize,
}

/// A document as the parser builds it, before comments are attached.
pub(super) struct RawDoc {
    /// Offset where this document's comment region starts.
    pub(super) region_start: usize,
    /// Offset after an explicit `...` end marker, if any.
    pub(super) explicit_end: Option<usize>,
    /// Corrected line of the document start (0 for the prepended marker).
    pub(super) line: usize,
    pub(super) value: Node,
}

/// A node that can take comments, in a document's pre-order: 0 is the document itself, then
/// every map and array item (known line or not) in tree order.
type NodeSeq = u32;

/// Lists `(line, seq)` of every item with a known line, in pre-order (seq = pre-order number).
fn collect_node_lines(node: &Node, seq: &mut NodeSeq, out: &mut Vec<(usize, NodeSeq)>) {
    let mut visit = |line: Option<usize>, child: &Node, seq: &mut NodeSeq| {
        *seq += 1;
        if let Some(l) = line {
            out.push((l, *seq));
        }
        collect_node_lines(child, seq, out);
    };
    match node {
        Node::Map(m) => {
            for i in &m.items {
                visit(i.pos.line, &i.value, seq);
            }
        }
        Node::Array(a) => {
            for i in &a.items {
                visit(i.pos.line, &i.value, seq);
            }
        }
        Node::Scalar(_) => {}
    }
}

/// Hands out `pending` comments (sorted by node seq) to the items of `node`, numbering the
/// items in pre-order as [`collect_node_lines`] does.
fn distribute_comments(
    node: &mut Node,
    seq: &mut NodeSeq,
    pending: &mut std::iter::Peekable<std::vec::IntoIter<(NodeSeq, Comment)>>,
) {
    let mut visit = |comments: &mut Vec<Comment>, child: &mut Node, seq: &mut NodeSeq| {
        *seq += 1;
        while let Some((_, c)) = pending.next_if(|(s, _)| *s == *seq) {
            comments.push(c);
        }
        if pending.peek().is_some() {
            distribute_comments(child, seq, pending);
        }
    };
    match node {
        Node::Map(m) => {
            for i in &mut m.items {
                visit(&mut i.comments, &mut i.value, seq);
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                visit(&mut i.comments, &mut i.value, seq);
            }
        }
        Node::Scalar(_) => {}
    }
}

/// ytt's comment assignment: within a document, a comment goes to the first node on the
/// nearest line at or below it (the last node when on the same line); comments no node
/// takes go to the next document (or to an injected trailing document).
pub(super) fn assign_comments(
    raw: Vec<RawDoc>,
    comments: Vec<RawComment>,
    file: &Arc<str>,
    prepended: bool,
) -> Vec<Document> {
    let mut docs = Vec::with_capacity(raw.len() + 1);
    let mut unassigned: Vec<Comment> = Vec::new();
    let n = raw.len();
    let starts: Vec<usize> = raw.iter().map(|d| d.region_start).collect();
    let mut per_doc: Vec<Vec<RawComment>> = (0..n).map(|_| Vec::new()).collect();
    for c in comments {
        let k = starts.partition_point(|&s| s <= c.offset).saturating_sub(1);
        if k < n {
            if k + 1 == n
                && let Some(end) = raw[k].explicit_end
                && c.offset >= end
            {
                continue; // after the final `...`: go-yaml never reads these
            }
            per_doc[k].push(c);
        }
    }
    let mut lines: Vec<(usize, NodeSeq)> = Vec::new();
    let mut assigned: Vec<(NodeSeq, Comment)> = Vec::new();
    for (i, (rd, cs)) in raw.into_iter().zip(per_doc).enumerate() {
        let doc_line = if i == 0 && rd.line == 0 {
            None
        } else {
            Some(rd.line)
        };
        let mut doc = Document {
            pos: Position {
                file: file.clone(),
                line: doc_line,
            },
            comments: std::mem::take(&mut unassigned),
            value: rd.value,
            injected: false,
        };
        if !cs.is_empty() {
            // Node lines sorted by (line, pre-order): for a comment's line L, the first entry
            // with a line >= L is the node it goes to, or the last entry on L itself.
            lines.clear();
            if let Some(l) = doc_line {
                lines.push((l, 0));
            }
            collect_node_lines(&doc.value, &mut 0, &mut lines);
            if !lines.is_sorted() {
                lines.sort_unstable();
            }
            assigned.clear();
            for c in cs {
                let comment = Comment {
                    data: c.data,
                    pos: Position::new(file.clone(), c.line),
                };
                let idx = lines.partition_point(|&(l, _)| l < c.line);
                match lines.get(idx) {
                    Some(&(line, first)) => {
                        let seq = if line == c.line {
                            let end = lines.partition_point(|&(l, _)| l <= c.line);
                            lines[end - 1].1
                        } else {
                            first
                        };
                        assigned.push((seq, comment));
                    }
                    None => unassigned.push(comment),
                }
            }
            // Stable: comments of one node keep their source order.
            assigned.sort_by_key(|&(seq, _)| seq);
            let mut pending = std::mem::take(&mut assigned).into_iter().peekable();
            while let Some((_, c)) = pending.next_if(|(s, _)| *s == 0) {
                doc.comments.push(c);
            }
            if pending.peek().is_some() {
                distribute_comments(&mut doc.value, &mut 0, &mut pending);
            }
        }
        if i == 0 && prepended && doc.pos.line.is_none() {
            doc.pos.line = Some(1);
        }
        docs.push(doc);
    }
    if !unassigned.is_empty() {
        docs.push(Document {
            pos: Position::unknown(file.clone()),
            comments: unassigned,
            value: Node::Scalar(Value::Null),
            injected: true,
        });
    }
    docs
}
