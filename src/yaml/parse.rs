//! Parses YAML text into the ytt node tree ([`DocumentSet`]) with `granit-parser`, reproducing
//! how ytt (go-yaml v2 fork + `yamlmeta`) sees a file: YAML 1.1 scalar resolution, positions of
//! map items (key line) and array items (`-`, `[` or `,` line), anchors, aliases and `<<`
//! merges. The comments met on the way are handed to nodes by [`super::comments`].

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use granit_parser::{
    Event, Options, Parser, ScalarStyle, ScanError, Scanner, Span, StrInput, TokenType,
};

use super::alias_budget::AliasBudget;
use super::ast::{Array, ArrayItem, DocumentSet, Map, MapItem, Node, Position, SourceLines};
use super::comments::{RawComment, RawDoc, assign_comments};
use super::resolve::{long_tag, resolve_plain_cow, resolve_tagged};
use super::value::Value;

/// How deeply maps and arrays may nest in a YAML text (flow and block collections each).
/// go-yaml v3 allows 10,000 levels, ytt's go-yaml v2 fork has no limit (Go stacks grow to
/// 1 GB); every tree walker here recurses once per level, so the text is refused before a
/// walk could exhaust a thread's stack. Real documents (CRD schemas included) stay well
/// below 50 levels.
pub const MAX_NESTING: usize = 255;

/// What is prepended to a text that does not start with a `---` marker.
const PREPENDED: &str = "---\n";

/// A YAML syntax or decoding error, naming the file and (when known) the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct YamlError {
    /// File name as given to the parser.
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What went wrong.
    pub message: String,
}

/// Parses `src` (the content of `file`) into a [`DocumentSet`].
///
/// A leading UTF-8 BOM is ignored; CRLF line ends are accepted. Like ytt, text that does not
/// start with a `---` marker is parsed as if `---\n` were prepended, so comments above a later
/// `---` belong to the documents that follow.
pub fn parse_document_set(src: &str, file: &str) -> Result<DocumentSet, YamlError> {
    read_checked(src, file, false, false)
}

/// [`parse_document_set`] in ytt's strict YAML subset (`--strict`): an ambiguous plain
/// scalar (see [`super::strict`]) is an error at its line.
pub fn parse_document_set_strict(src: &str, file: &str) -> Result<DocumentSet, YamlError> {
    read_checked(src, file, true, false)
}

/// Parses YAML as ytt 0.48's `yamlmeta.Parser` reads it (strict when `strict`). A leading
/// BOM is content there: ytt puts `---\n` in front of text that does not start with a
/// document marker (and a BOM is no white space to its check), so the BOM no longer opens
/// the stream and go-yaml's scanner reads it as the first character of a plain scalar
/// (the first key of `\u{feff}a: 1` is `"\u{feff}a"`).
pub fn parse_ytt_document_set(
    src: &str,
    file: &str,
    strict: bool,
) -> Result<DocumentSet, YamlError> {
    read_checked(src, file, strict, true)
}

/// Parses `src` after go-yaml's reader has looked at its bytes ([`super::reader`]): a
/// reader problem in the first chunk of the input (as go-yaml gets it, `---\n` put in
/// front when ytt puts it there) is reported before anything is parsed; one further on
/// only when no syntax error comes before that chunk. Strings carry bytes that are no
/// UTF-8 as [`crate::go_bytes`] says; the reader sees those bytes.
fn read_checked(
    src: &str,
    file: &str,
    strict: bool,
    bom_is_content: bool,
) -> Result<DocumentSet, YamlError> {
    let bytes = crate::go_bytes::to_bytes(src);
    let Some(found) = super::reader::reader_problem(&bytes) else {
        return parse_document_set_with(src, file, strict, bom_is_content, 0);
    };
    let unmarked = if bom_is_content {
        src
    } else {
        src.strip_prefix('\u{feff}').unwrap_or(src)
    };
    let shift = if !starts_with_doc_marker(unmarked) && !starts_with_directive(unmarked) {
        PREPENDED.len()
    } else {
        0
    };
    let reader_error = YamlError {
        file: file.to_string(),
        line: None,
        message: format!("yaml: {}", found.problem),
    };
    let chunk_start = (found.offset + shift) / super::reader::CHUNK * super::reader::CHUNK;
    if chunk_start == 0 {
        return Err(reader_error);
    }
    // The bytes of lines before the problem's line are read before its chunk is.
    let problem_line = bytes[..found.offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    let line_start = |line: usize| -> usize {
        bytes
            .split_inclusive(|&b| b == b'\n')
            .take(line - 1)
            .map(<[u8]>::len)
            .sum::<usize>()
            + shift
    };
    match parse_document_set_with(src, file, strict, bom_is_content, 0) {
        Err(e)
            if e.line
                .is_some_and(|l| l < problem_line && line_start(l) < chunk_start) =>
        {
            Err(e)
        }
        _ => Err(reader_error),
    }
}

/// Texts rewritten for granit ([`super::relaxed`]) one spot at a time, at most: each
/// rewrite parses the whole text again, so a text with more such spots keeps granit's
/// error instead of being parsed over and over.
pub(super) const MAX_REWRITES: u32 = 64;

/// `rewrites`: how many times the text was rewritten for granit already.
fn parse_document_set_with(
    src: &str,
    file: &str,
    strict: bool,
    bom_is_content: bool,
    rewrites: u32,
) -> Result<DocumentSet, YamlError> {
    let src = if bom_is_content {
        src
    } else {
        src.strip_prefix('\u{feff}').unwrap_or(src)
    };
    let file_arc: Arc<str> = Arc::from(file);
    let prepend = !starts_with_doc_marker(src) && !starts_with_directive(src);
    // One copy of the source serves the parser (with `---\n` prepended when needed) and
    // the lines kept for messages.
    let lines = if prepend {
        let mut t = String::with_capacity(src.len() + PREPENDED.len());
        t.push_str(PREPENDED);
        t.push_str(src);
        SourceLines::with_prefix(t, PREPENDED.len())
    } else {
        SourceLines::new(src.to_string())
    };
    let text = lines.full_text();
    let line_shift = usize::from(prepend);
    let err = |line: Option<usize>, message: String| YamlError {
        file: file.to_string(),
        line,
        message,
    };

    let mut options = Options::default();
    options.block_scalar_eof_without_line_feed = true;
    options.bom_inside_document_as_content = bom_is_content;
    options.flow_nesting_limit = MAX_NESTING;
    options.block_nesting_limit = MAX_NESTING;
    // Without a `#` there are no comments; granit is quicker when it does not look for them.
    options.emit_comments = text.contains('#');
    let mut b = Builder {
        text,
        parser: Parser::new_from_str_with_options(text, options),
        peeked: None,
        done: false,
        syntax_error: None,
        last_end: 0,
        entries: None,
        lines: &lines,
        file: file_arc.clone(),
        anchors: HashMap::new(),
        aliasing: AliasBudget::default(),
        comments: Vec::new(),
        strict,
    };
    let built = b.documents();
    // The whole text is tokenised before a build error is reported: a syntax error anywhere
    // in the file is what go-yaml reports first.
    if built.is_err() {
        b.drain();
    }
    // A tab libyaml refuses is its scanner's error, unless granit found one further up.
    if let Some((tab_line, problem)) = super::tabs::refused_tab(src)
        && b.syntax_error
            .as_ref()
            .is_none_or(|e| e.marker().line().saturating_sub(line_shift).max(1) >= tab_line)
    {
        return Err(err(
            Some(tab_line),
            format!("yaml: line {tab_line}: {problem}"),
        ));
    }
    if let Some(e) = b.syntax_error.as_ref()
        && rewrites < MAX_REWRITES
        && matches!(e.kind(), granit_parser::ErrorKind::CommentNotSeparated)
        && let Some(spaced) = super::relaxed::space_before_comment(
            src,
            e.marker().line() - line_shift,
            e.marker().col(),
        )
    {
        // libyaml's scanner starts a comment at any `#` where a token could start, white
        // space before it or not (`"x"# c`); granit wants the space, so it gets one.
        return parse_document_set_with(&spaced, file, strict, bom_is_content, rewrites + 1);
    }
    if let Some(e) = b.syntax_error.as_ref()
        && rewrites < MAX_REWRITES
        && matches!(
            e.kind(),
            granit_parser::ErrorKind::PlainScalarStartsWithDashFlowIndicator
        )
        && let Some(quoted) =
            super::relaxed::quote_lone_dash(src, e.marker().line() - line_shift, e.marker().col())
    {
        // In a flow collection libyaml reads a `-` right before `,`, `]` or `}` as the plain
        // scalar `-`; granit refuses it, so it is given quoted (the same string).
        return parse_document_set_with(&quoted, file, strict, bom_is_content, rewrites + 1);
    }
    if let Some(e) = b.syntax_error.take() {
        let line = e.marker().line().saturating_sub(line_shift).max(1);
        let message = match e.kind() {
            granit_parser::ErrorKind::RecursionLimitExceeded => format!(
                "yaml: recursion limit exceeded (more than {MAX_NESTING} levels of nested maps and arrays)"
            ),
            kind => {
                let at = super::go_errors::ErrorSite {
                    line,
                    col: e.marker().col(),
                    line_text: src.split('\n').nth(line - 1).unwrap_or(""),
                    eof_line: src.matches('\n').count() + 1,
                    text: src,
                    prepended: !starts_with_doc_marker(src),
                };
                let granit = kind.to_string();
                super::go_errors::go_yaml_message(kind, &at)
                    .or_else(|| super::go_errors::go_yaml_scanner_problem(&granit, &at))
                    .unwrap_or_else(|| format!("yaml: {granit}"))
            }
        };
        return Err(err(Some(line), message));
    }
    let raw_docs = built.map_err(|(line, m)| err(line, m))?;
    let mut comments = std::mem::take(&mut b.comments);
    if !comments.is_sorted_by_key(|c| c.offset) {
        comments.sort_by_key(|c| c.offset);
    }
    let docs = assign_comments(raw_docs, comments, &file_arc, prepend);
    Ok(DocumentSet {
        file: file_arc,
        docs,
        lines,
    })
}

/// Go regexp `\A\s*---\s+` (with `\s` = `[\t\n\f\r ]`).
fn starts_with_doc_marker(s: &str) -> bool {
    let is_ws = |c: char| matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ');
    let rest = s.trim_start_matches(is_ws);
    match rest.strip_prefix("---") {
        Some(after) => after.starts_with(is_ws),
        None => false,
    }
}

/// Whether the first line that is neither blank nor a comment is a directive (`%YAML`,
/// `%TAG`). ytt prepends `---` there too, which go-yaml v2 takes as an empty document
/// before the directives; a YAML 1.2 parser refuses a directive inside a document, so
/// the text is parsed as it is (the empty document would be dropped anyway).
fn starts_with_directive(s: &str) -> bool {
    s.lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('%'))
}

/// Byte offsets of block entry tokens (just after a `-`, on its line) and of `,` (flow entry)
/// tokens, sorted.
struct EntryTokens {
    block: Vec<usize>,
    flow: Vec<usize>,
}

fn collect_entry_tokens(text: &str) -> EntryTokens {
    let mut block = Vec::new();
    let mut flow = Vec::new();
    for tok in Scanner::new(StrInput::new(text)) {
        let Ok(tok) = tok else { break };
        let (span, ty) = tok.into_parts();
        let Some(off) = span.start.byte_offset() else {
            continue;
        };
        match ty {
            TokenType::BlockEntry => block.push(off),
            TokenType::FlowEntry => flow.push(off),
            _ => {}
        }
    }
    EntryTokens { block, flow }
}

/// The largest offset in `sorted` within `[lo, hi)`.
fn last_in_range(sorted: &[usize], lo: usize, hi: usize) -> Option<usize> {
    let idx = sorted.partition_point(|&o| o < hi);
    sorted[..idx].last().copied().filter(|&o| o >= lo)
}

type BuildError = (Option<usize>, String);

struct Builder<'t> {
    text: &'t str,
    /// The event source, read one event ahead (comments are recorded as they pass).
    parser: Parser<'t, StrInput<'t>>,
    /// The next non-comment event, once peeked.
    peeked: Option<(Event<'t>, Span)>,
    /// True once the parser has no more events (or failed).
    done: bool,
    /// The parser's syntax error, if it failed.
    syntax_error: Option<ScanError>,
    /// End offset of the last consumed event.
    last_end: usize,
    /// Entry token offsets, scanned only when a fast path cannot tell (see
    /// [`Builder::block_entry_line_start`]).
    entries: Option<EntryTokens>,
    /// Lines of the source (the text without the prepended `---\n`).
    lines: &'t SourceLines,
    file: Arc<str>,
    /// Anchored nodes of the current document, with the nodes each one stands for.
    anchors: HashMap<usize, (Node, usize)>,
    /// How much of the current document comes from alias expansion.
    aliasing: AliasBudget,
    comments: Vec<RawComment>,
    /// Refuse ambiguous plain scalars (`--strict`).
    strict: bool,
}

impl<'t> Builder<'t> {
    /// Entry token offsets, from a second scan of the text done on first use.
    fn entries(&mut self) -> &EntryTokens {
        self.entries
            .get_or_insert_with(|| collect_entry_tokens(self.text))
    }

    /// Fast path for a block sequence item's `-` line: when only blanks separate the item's
    /// content from a `-` on the same line (the common `- value`), that `-` is the item's
    /// indicator and its block entry token lies between the two, so the line is known
    /// without scanning for tokens. Returns an offset on that line, or `None` when unsure.
    fn dash_before(&self, content_start: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let mut i = content_start.min(bytes.len());
        while i > 0 && matches!(bytes[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        if i == content_start || i == 0 || bytes[i - 1] != b'-' {
            return None;
        }
        let dash = i - 1;
        if dash == 0 || matches!(bytes[dash - 1], b' ' | b'\t' | b'\n') {
            Some(dash)
        } else {
            None
        }
    }

    /// Fast path for an item's indicator (`-` or `,`) when the text between the previous
    /// event and the item's content (`lo..hi`) holds nothing but blanks, line breaks,
    /// comments and that one indicator: then it is the indicator's token. Returns its
    /// offset, or `None` when the text holds anything else (the token scan decides then).
    fn sole_indicator(&self, lo: usize, hi: usize, indicator: u8) -> Option<usize> {
        let region = self.text.as_bytes().get(lo..hi)?;
        let mut found = None;
        let mut i = 0;
        while i < region.len() {
            let b = region[i];
            match b {
                b' ' | b'\t' | b'\r' | b'\n' => {}
                b'#' if i == 0 || matches!(region[i - 1], b' ' | b'\t' | b'\r' | b'\n') => {
                    while i < region.len() && region[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                _ if b == indicator && found.is_none() => {
                    let ws_after = matches!(region.get(i + 1), Some(b' ' | b'\t' | b'\r' | b'\n'));
                    if indicator == b'-' && !ws_after {
                        return None;
                    }
                    found = Some(lo + i);
                }
                _ => return None,
            }
            i += 1;
        }
        found
    }

    fn line_of(&self, offset: usize) -> usize {
        // 1-based line in the source; 0 for the prepended marker line.
        self.lines.line_of(offset)
    }

    fn pos(&self, offset: usize) -> Position {
        Position::new(self.file.clone(), self.line_of(offset))
    }

    fn start_of(span: &Span) -> usize {
        span.start.byte_offset().unwrap_or(0)
    }

    fn end_of(span: &Span) -> usize {
        span.end.byte_offset().unwrap_or(0)
    }

    /// Reads events until the next non-comment one is peeked (or the input ends), recording
    /// comments on the way. A syntax error is kept in `syntax_error` and ends the build.
    fn fill(&mut self) -> Result<(), BuildError> {
        while self.peeked.is_none() && !self.done {
            match self.parser.next() {
                None => self.done = true,
                Some(Err(e)) => {
                    self.syntax_error = Some(e);
                    self.done = true;
                }
                Some(Ok((Event::Comment(text, _), span))) => {
                    let offset = Self::start_of(&span);
                    let mut data = text.into_owned();
                    if data.ends_with('\r') {
                        data.pop();
                    }
                    self.comments.push(RawComment {
                        data,
                        offset,
                        line: self.line_of(offset),
                    });
                }
                Some(Ok(ev)) => self.peeked = Some(ev),
            }
        }
        if self.syntax_error.is_some() {
            // Reported by `parse_document_set` in place of this placeholder.
            return Err((None, String::new()));
        }
        Ok(())
    }

    /// Reads the rest of the input after a build error, to find any syntax error in it.
    fn drain(&mut self) {
        self.peeked = None;
        while self.fill().is_ok() && self.peeked.take().is_some() {}
    }

    /// Returns the next non-comment event, recording comments on the way.
    fn next(&mut self) -> Result<Option<(Event<'t>, Span)>, BuildError> {
        self.fill()?;
        let next = self.peeked.take();
        if let Some((_, span)) = &next {
            let end = Self::end_of(span);
            if end > self.last_end {
                self.last_end = end;
            }
        }
        Ok(next)
    }

    /// Peeks the start offset of the next non-comment event.
    fn peek_start(&mut self) -> Result<Option<usize>, BuildError> {
        self.fill()?;
        Ok(self.peeked.as_ref().map(|(_, span)| Self::start_of(span)))
    }

    fn peek_is(&mut self, f: impl Fn(&Event<'_>) -> bool) -> Result<bool, BuildError> {
        self.fill()?;
        Ok(self.peeked.as_ref().is_some_and(|(ev, _)| f(ev)))
    }

    fn error_at(&self, offset: usize, msg: impl Into<String>) -> BuildError {
        (Some(self.line_of(offset).max(1)), msg.into())
    }

    fn documents(&mut self) -> Result<Vec<RawDoc>, BuildError> {
        let mut docs: Vec<RawDoc> = Vec::new();
        while let Some((ev, span)) = self.next()? {
            match ev {
                Event::StreamStart => {}
                Event::StreamEnd => break,
                Event::DocumentStart(_, Some(v)) if (v.major, v.minor) != (1, 1) => {
                    // go-yaml's parser takes only `%YAML 1.1`, naming the 0-based line of
                    // the directive (which ytt's `---` prefix correction leaves as it is).
                    let before = &self.text[..Self::start_of(&span)];
                    let at = before
                        .rfind("\n%YAML")
                        .map_or(0, |i| i + 1)
                        .min(before.len());
                    let line = self.line_of(at).max(1);
                    return Err((
                        Some(line),
                        format!("yaml: line {}: found incompatible YAML document", line - 1),
                    ));
                }
                Event::DocumentStart(..) => {
                    let start = Self::start_of(&span);
                    let region_start = match docs.last() {
                        None => 0,
                        Some(prev) => prev.explicit_end.unwrap_or(start),
                    };
                    self.anchors.clear();
                    self.aliasing = AliasBudget::default();
                    let value = self.node()?;
                    // DocumentEnd
                    let mut explicit_end = None;
                    if let Some((Event::DocumentEnd, end_span)) = self.next()?
                        && end_span.slice(self.text) == Some("...")
                    {
                        explicit_end = Some(Self::end_of(&end_span));
                    }
                    docs.push(RawDoc {
                        region_start,
                        explicit_end,
                        line: self.line_of(start),
                        value,
                    });
                }
                other => {
                    return Err(self.error_at(
                        Self::start_of(&span),
                        format!("unexpected YAML event {other:?}"),
                    ));
                }
            }
        }
        Ok(docs)
    }

    /// Builds the next node (scalar, alias, sequence or mapping).
    fn node(&mut self) -> Result<Node, BuildError> {
        let Some((ev, span)) = self.next()? else {
            return Err((None, "unexpected end of YAML input".to_string()));
        };
        let start = Self::start_of(&span);
        let decoded_before = self.aliasing.decoded;
        self.aliasing.decoded += 1;
        let (node, anchor) = match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let value = self.scalar_value(text, style, &span, tag.as_deref())?;
                (Node::Scalar(value), anchor)
            }
            Event::Alias(id) => {
                self.aliasing.decoded -= 1;
                let Some(size) = self.anchors.get(&id).map(|(_, size)| *size) else {
                    return Err(self.error_at(start, "unknown anchor referenced"));
                };
                // Checked before the copy is made: the budget bounds the memory too.
                if let Err(m) = self.aliasing.expand(size) {
                    return Err(self.error_at(start, m));
                }
                return Ok(self.anchors[&id].0.clone());
            }
            Event::SequenceStart(style, anchor, _tag) => {
                let flow = matches!(style, granit_parser::StructureStyle::Flow);
                (self.sequence(start, flow)?, anchor)
            }
            Event::MappingStart(_style, anchor, _tag) => (self.mapping(start)?, anchor),
            other => return Err(self.error_at(start, format!("unexpected YAML event {other:?}"))),
        };
        if anchor != 0 {
            let size = self.aliasing.decoded - decoded_before;
            self.anchors.insert(anchor, (node.clone(), size));
        }
        Ok(node)
    }

    fn scalar_value(
        &self,
        text: Cow<'t, str>,
        style: ScalarStyle,
        span: &Span,
        tag: Option<&granit_parser::Tag>,
    ) -> Result<Value, BuildError> {
        // granit reports an empty plain scalar (a missing value) as "~" with an empty span.
        let text = if style == ScalarStyle::Plain && span.is_empty() && text == "~" {
            Cow::Borrowed("")
        } else {
            text
        };
        match tag {
            Some(tag) => {
                let full = long_tag(&format!("{}{}", tag.handle(), tag.suffix()));
                resolve_tagged(&full, &text)
                    .map_err(|m| self.error_at(Self::start_of(span), format!("yaml: {m}")))
            }
            None if style == ScalarStyle::Plain => {
                if self.strict
                    && let Some(m) = super::strict::strict_plain_error(&text)
                {
                    return Err(
                        self.error_at(Self::start_of(span), format!("yaml: Strict parsing: {m}"))
                    );
                }
                Ok(resolve_plain_cow(text))
            }
            None => Ok(Value::String(text.into_owned())),
        }
    }

    fn sequence(&mut self, seq_start: usize, flow: bool) -> Result<Node, BuildError> {
        let mut items = Vec::new();
        // Lower bound for finding a flow item's `,`: the end of the previous item.
        let mut lower = seq_start;
        let mut first = true;
        loop {
            if self.peek_is(|e| matches!(e, Event::SequenceEnd))? {
                self.next()?;
                break;
            }
            let content_start = self.peek_start()?.unwrap_or(seq_start);
            let indicator = if flow {
                if first {
                    Some(seq_start)
                } else {
                    match self.sole_indicator(lower, content_start, b',') {
                        Some(comma) => Some(comma),
                        None => last_in_range(&self.entries().flow, lower, content_start),
                    }
                }
            } else {
                // granit places a block entry token just after its `-` (and any blanks or
                // comment on that line), before the item's content: the last token at or
                // before the content is this item's, and its line is the `-` line.
                match self
                    .dash_before(content_start)
                    .or_else(|| self.sole_indicator(self.last_end, content_start, b'-'))
                {
                    Some(dash) => Some(dash),
                    None => last_in_range(&self.entries().block, 0, content_start + 1),
                }
            };
            let pos = self.pos(indicator.unwrap_or(content_start));
            let value = self.node()?;
            items.push(ArrayItem {
                pos,
                comments: vec![],
                value,
            });
            lower = self.last_end;
            first = false;
        }
        Ok(Node::Array(Array {
            pos: Position::unknown(self.file.clone()),
            items,
        }))
    }

    fn mapping(&mut self, map_start: usize) -> Result<Node, BuildError> {
        let mut items: Vec<MapItem> = Vec::new();
        loop {
            if self.peek_is(|e| matches!(e, Event::MappingEnd))? {
                self.next()?;
                break;
            }
            let mut key_start = self.peek_start()?.unwrap_or(map_start);
            // The parser gives an empty key as a plain `~` at the `:` that follows it.
            let empty_key = self.peek_is(
                |e| matches!(e, Event::Scalar(t, ScalarStyle::Plain, _, None) if t == "~"),
            )? && !self.text[key_start..].starts_with('~');
            if empty_key {
                key_start = explicit_key_indicator(self.text, key_start).unwrap_or(key_start);
            }
            let is_merge = self.peek_is(|e| {
                matches!(e, Event::Scalar(t, ScalarStyle::Plain, _, None) if t == "<<")
                    || matches!(e, Event::Scalar(t, _, _, Some(tag))
                        if tag.suffix() == "merge" && tag.handle().starts_with("tag:yaml.org,2002:") && t == "<<")
            })?;
            let key_node = self.node()?;
            let value = self.node()?;
            if is_merge {
                self.merge_into(&mut items, value, key_start)?;
                continue;
            }
            let key = match key_node {
                Node::Scalar(v) => v,
                _ => return Err(self.error_at(key_start, "yaml: invalid map key")),
            };
            items.push(MapItem {
                pos: self.pos(key_start),
                comments: vec![],
                key,
                value,
            });
        }
        Ok(Node::Map(Map {
            pos: Position::unknown(self.file.clone()),
            items,
        }))
    }

    /// go-yaml (ytt fork) merge: the merged map's items are appended in place. A sequence
    /// is refused unless it is empty: ytt's fork keeps a position node before each
    /// sequence item, and its merge, walking the sequence's children, meets that node
    /// (neither a map nor an alias) and fails as for a scalar.
    fn merge_into(
        &self,
        items: &mut Vec<MapItem>,
        value: Node,
        at: usize,
    ) -> Result<(), BuildError> {
        let want_map = || {
            self.error_at(
                at,
                "yaml: map merge requires map or sequence of maps as the value",
            )
        };
        match value {
            Node::Map(m) => items.extend(m.items),
            Node::Array(a) if a.items.is_empty() => {}
            Node::Array(_) => return Err(want_map()),
            Node::Scalar(_) => return Err(want_map()),
        }
        Ok(())
    }
}

/// Where an empty key given with an explicit `?` indicator sits: go-yaml marks such an
/// empty scalar at the end of the `?` token, so the map item (and any comment on the
/// `?` line, ytt issue #57) belongs to the `?` line, not to the `:` line that follows.
/// Looks back from `at` over blanks and comment-only lines for a `?` ending a line's
/// content; gives the offset just after it.
fn explicit_key_indicator(text: &str, at: usize) -> Option<usize> {
    let mut end = at.min(text.len());
    loop {
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..end];
        let content = match line
            .char_indices()
            .find(|&(i, c)| c == '#' && (i == 0 || line[..i].ends_with([' ', '\t'])))
        {
            Some((i, _)) => &line[..i],
            None => line,
        };
        let trimmed = content.trim_end();
        if let Some(before) = trimmed.strip_suffix('?') {
            if before.is_empty() || before.ends_with([' ', '\t', '-']) {
                return Some(line_start + trimmed.len());
            }
            return None;
        }
        if !trimmed.trim_start().is_empty() || line_start == 0 {
            return None;
        }
        end = line_start - 1;
    }
}
