//! go-yaml v2's wording of YAML syntax errors (what ytt and the other Go tools print),
//! for the granit-parser errors whose cause is the same, with go-yaml's line numbers.

/// A syntax error as go-yaml v2 words it, for the causes it shares with granit-parser.
struct GoYamlProblem {
    problem: &'static str,
    /// Found by libyaml's scanner (go-yaml names the 1-based line of the problem) rather
    /// than its parser (go-yaml names the 0-based line of the offending token, and ytt
    /// passes that on).
    scanner: bool,
}

impl GoYamlProblem {
    /// go-yaml's `yaml: line N: <problem>` for a problem found on 1-based `line`; no line
    /// when go-yaml's would be 0. ytt puts `---\n` before a text that does not start with
    /// a document marker and takes one off go-yaml's line: a parser error on the first line
    /// of such a text is go-yaml's line 1, which ytt shows as `line 0`.
    fn message(&self, line: usize, prepended: bool) -> String {
        let shown = if self.scanner { line } else { line - 1 };
        if shown == 0 && !prepended {
            format!("yaml: {}", self.problem)
        } else {
            format!("yaml: line {shown}: {}", self.problem)
        }
    }
}

/// Where granit-parser reported an error, in the original text (1-based lines).
pub(crate) struct ErrorSite<'a> {
    pub line: usize,
    /// The 0-based character column of the error on its line.
    pub col: usize,
    pub line_text: &'a str,
    /// The line the end of the text is on (where libyaml's scanner stands at the end).
    pub eof_line: usize,
    /// The whole text (without the `---` that ytt puts in front).
    pub text: &'a str,
    /// Whether ytt puts `---\n` in front of the text (it does not start with one).
    pub prepended: bool,
}

impl ErrorSite<'_> {
    /// The line of libyaml's STREAM-END token: the end of the text, moved to the start of
    /// a further line when the text does not end with a line break.
    fn stream_end_line(&self) -> usize {
        if self.text.is_empty() || self.text.ends_with('\n') {
            self.eof_line
        } else {
            self.eof_line + 1
        }
    }

    /// go-yaml's parser problem for a closing bracket with no flow collection open: after
    /// a `key:` or `-` (on its line or, when it starts its line, on the line it is
    /// indented under) or with nothing before it a node is wanted; at the start of a line
    /// level with a mapping key or a `-`, the next key or `-`.
    fn misplaced_bracket_problem(&self) -> Option<&'static str> {
        const NODE: &str = "did not find expected node content";
        let before: String = self.line_text.chars().take(self.col).collect();
        let before = before.trim_end();
        if before.ends_with(':') || before.ends_with('-') {
            return Some(NODE);
        }
        if !before.is_empty() {
            return None;
        }
        let indent = indent_of(self.line_text);
        let Some(line) = self.content_lines_before().find(|l| indent_of(l) <= indent) else {
            return self.content_lines_before().next().is_none().then_some(NODE);
        };
        if indent_of(line) < indent {
            let t = line.trim();
            return (t.ends_with(':') || t == "-").then_some(NODE);
        }
        Some(self.wanted_at(indent, line.trim_start().starts_with('-')))
    }

    /// What a block collection whose entries start at column `indent` wants next: its
    /// next key, or (`dash`) its next `-`, unless the sequence is indentless (level with
    /// the key it is the value of), where the mapping's next key is wanted.
    fn wanted_at(&self, indent: usize, dash: bool) -> &'static str {
        const KEY: &str = "did not find expected key";
        if !dash {
            return KEY;
        }
        for l in self.content_lines_before() {
            match indent_of(l) {
                i if i < indent => break,
                i if i == indent && !l.trim_start().starts_with('-') => return KEY,
                _ => {}
            }
        }
        "did not find expected '-' indicator"
    }

    /// The first line below the error site's whose indentation holds a tab.
    fn indented_tab_line(&self) -> Option<usize> {
        self.text
            .split('\n')
            .enumerate()
            .skip(self.line)
            .find(|(_, l)| l.trim_start_matches(' ').starts_with('\t'))
            .map(|(i, _)| i + 1)
    }

    /// The lines above the error site holding more than blanks, comments and `---`, the
    /// nearest first.
    fn content_lines_before(&self) -> impl Iterator<Item = &str> {
        let lines: Vec<&str> = self.text.split('\n').take(self.line - 1).collect();
        lines.into_iter().rev().filter(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#') && t != "---"
        })
    }

    /// go-yaml's parser problem for a token that follows a complete block node on the error
    /// site's line (content after a quoted scalar): what the enclosing block mapping,
    /// sequence or document wants next. `None` inside a flow collection, or when the
    /// enclosing collection is not plain to see.
    fn next_entry_problem(&self) -> Option<&'static str> {
        const KEY: &str = "did not find expected key";
        let quote = self.line_text.find(['"', '\''])?;
        let before = &self.line_text[..quote];
        if before.contains(['[', '{']) {
            return None;
        }
        let before = before.trim_end();
        if before.ends_with(':') {
            return Some(KEY);
        }
        if before.ends_with('-') {
            return Some(self.wanted_at(indent_of(self.line_text), true));
        }
        if !before.is_empty() {
            return None;
        }
        let indent = indent_of(self.line_text);
        let Some(parent) = self
            .content_lines_before()
            .find(|l| indent_of(l) < indent || indent == 0)
        else {
            return Some("did not find expected <document start>");
        };
        let t = parent.trim();
        if t.ends_with(':') {
            Some(KEY)
        } else if t.starts_with('-') {
            Some(self.wanted_at(indent_of(parent), true))
        } else {
            None
        }
    }

    /// The line of the bracket that closes the flow collection opened at this site's
    /// line and column (quoted scalars and comments skipped).
    fn closing_line(&self) -> Option<usize> {
        let start = super::line_start(self.text, self.line)?;
        let rest = &self.text[start..];
        let offset = rest.char_indices().nth(self.col)?.0;
        let (mut depth, mut line) = (0usize, self.line);
        let mut quote: Option<char> = None;
        let mut chars = rest[offset..].chars().peekable();
        let mut prev = ' ';
        while let Some(c) = chars.next() {
            match (quote, c) {
                (_, '\n') => {
                    line += 1;
                    if quote.is_none() {
                        prev = c;
                        continue;
                    }
                }
                (Some('"'), '\\') => {
                    chars.next();
                }
                (Some(q), c) if c == q => {
                    if q == '\'' && chars.peek() == Some(&'\'') {
                        chars.next();
                    } else {
                        quote = None;
                    }
                }
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '#') if prev == ' ' || prev == '\t' => {
                    while chars.peek().is_some_and(|&n| n != '\n') {
                        chars.next();
                    }
                }
                (None, '[' | '{') => depth += 1,
                (None, ']' | '}') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(line);
                    }
                }
                _ => {}
            }
            prev = c;
        }
        None
    }

    /// The line where libyaml's scanner stands when it next looks for a token after line
    /// `line`: the first line below it holding something other than blanks and comments,
    /// or the end of the text.
    fn next_token_line(&self, line: usize) -> usize {
        for (i, l) in self.text.split('\n').enumerate().skip(line) {
            let t = l.trim_matches([' ', '\t', '\r']);
            if !t.is_empty() && !t.starts_with('#') {
                return i + 1;
            }
        }
        self.stream_end_line()
    }
}

/// The last character of `text` outside whitespace and comments (a `#` starting a line
/// or following a blank starts a comment).
fn last_significant(text: &str) -> Option<char> {
    text.lines().rev().find_map(|line| {
        let code = match line.find('#') {
            Some(0) => "",
            Some(_) => line
                .match_indices(" #")
                .chain(line.match_indices("\t#"))
                .map(|(i, _)| i)
                .min()
                .map_or(line, |i| &line[..i]),
            None => line,
        };
        code.trim_end().chars().last()
    })
}

/// go-yaml's whole message (`yaml: line N: <problem>`) for a granit-parser error whose
/// cause go-yaml reports too; `None` for the others.
pub(crate) fn go_yaml_message(kind: &granit_parser::ErrorKind, at: &ErrorSite) -> Option<String> {
    use granit_parser::ErrorKind as K;
    let scanner = |problem| GoYamlProblem {
        problem,
        scanner: true,
    };
    let parser = |problem| GoYamlProblem {
        problem,
        scanner: false,
    };
    match kind {
        // The quoted scalar runs to the end of the text, where libyaml's scanner stops.
        K::UnclosedQuotedScalar => {
            Some(scanner("found unexpected end of stream").message(at.eof_line, at.prepended))
        }
        // libyaml's scanner takes `%` for a directive only at the start of a line; elsewhere
        // it cannot start a token.
        K::UnexpectedCharacter { character: '%' } if at.col > 0 => Some(
            scanner("found character that cannot start any token").message(at.line, at.prepended),
        ),
        // The flow collection is still open at the end of the text, where the parser
        // meets STREAM-END: where a node may start (after the opening bracket, a `,` or
        // a `:`) it wants node content, elsewhere a `,` or the closing bracket of the
        // innermost collection.
        K::UnclosedFlowCollection { open } => {
            let problem = match last_significant(at.text) {
                Some('[' | '{' | ',' | ':') | None => "did not find expected node content",
                _ => flow_separator(*open)?,
            };
            Some(parser(problem).message(at.stream_end_line(), at.prepended))
        }
        // The other closing bracket is met where a `,` or the right one is wanted.
        K::MismatchedFlowCollectionEnd { open, .. } => {
            Some(parser(flow_separator(*open)?).message(at.closing_line()?, at.prepended))
        }
        // libyaml finds a required simple key stale when it next looks for a token on a
        // later line (or at the end of the text), and reports it there.
        K::SimpleKeyExpected => Some(
            scanner("could not find expected ':'")
                .message(at.next_token_line(at.line), at.prepended),
        ),
        // go-yaml's decoder names the anchor and no line.
        K::UnknownAnchor => {
            let rest: String = at.line_text.chars().skip(at.col).collect();
            let name: String = rest
                .strip_prefix('*')
                .or_else(|| rest.split_once('*').map(|(_, r)| r))?
                .chars()
                .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                .collect();
            (!name.is_empty()).then(|| format!("yaml: unknown anchor '{name}' referenced"))
        }
        // Content after a quoted scalar is a further token where the enclosing block
        // collection (or the document) wants its next entry.
        K::InvalidTrailingSingleQuotedScalar | K::InvalidTrailingDoubleQuotedScalar => {
            Some(parser(at.next_entry_problem()?).message(at.line, at.prepended))
        }
        // A tab in the indentation of the line after a plain scalar (which libyaml's plain
        // scalar scanner reads on into) is refused on that line.
        K::TabInPlainScalar => Some(
            scanner("found a tab character that violates indentation")
                .message(at.indented_tab_line()?, at.prepended),
        ),
        // libyaml's block scalar scanner wants spaces where the content's indentation is.
        K::TabAtBlockScalarStart => Some(
            scanner("found a tab character where an indentation space is expected")
                .message(at.indented_tab_line()?, at.prepended),
        ),
        // A closing bracket with no flow collection open, where a node is wanted.
        K::MisplacedFlowCollectionEnd => {
            Some(parser(at.misplaced_bracket_problem()?).message(at.line, at.prepended))
        }
        _ => go_yaml_problem(kind).map(|p| p.message(at.line, at.prepended)),
    }
}

/// The number of spaces a line starts with.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// go-yaml's problem for a flow collection opened with `open` that does not go on with
/// a `,` or its closing bracket.
fn flow_separator(open: char) -> Option<&'static str> {
    match open {
        '[' => Some("did not find expected ',' or ']'"),
        '{' => Some("did not find expected ',' or '}'"),
        _ => None,
    }
}

/// A scanner error that granit words as libyaml's context and problem together
/// (`while scanning a block scalar, did not find expected comment or line break`): go-yaml
/// prints only the problem, at the line where the scanner stands.
pub(crate) fn go_yaml_scanner_problem(text: &str, at: &ErrorSite) -> Option<String> {
    let (context, problem) = text.split_once(", ")?;
    if !(context.starts_with("while scanning")
        || context.starts_with("while parsing a quoted")
        || context.starts_with("while parsing a tag"))
    {
        return None;
    }
    Some(format!("yaml: line {}: {problem}", at.line))
}

/// go-yaml's wording of a granit-parser error, where both report the same cause.
fn go_yaml_problem(kind: &granit_parser::ErrorKind) -> Option<GoYamlProblem> {
    use granit_parser::ErrorKind as K;
    let (problem, scanner) = match kind {
        K::MappingValueNotAllowed => ("mapping values are not allowed in this context", true),
        K::BlockSequenceEntryNotAllowed => (
            "block sequence entries are not allowed in this context",
            true,
        ),
        K::MappingKeyNotAllowed => ("mapping keys are not allowed in this context", true),
        K::UnexpectedCharacter {
            character: '@' | '`',
        } => ("found character that cannot start any token", true),
        K::TabInIndentation | K::TabInBlockIndentation => {
            ("found character that cannot start any token", true)
        }
        K::ExpectedBlockMappingKey => ("did not find expected key", false),
        K::UnsupportedYamlMajorVersion => ("found incompatible YAML document", false),
        K::ExpectedDocumentStart => ("did not find expected <document start>", false),
        K::ExpectedBlockSequenceEntry => ("did not find expected '-' indicator", false),
        K::ExpectedNodeContent => ("did not find expected node content", false),
        // libyaml's scanner lets a `-` in a flow collection through as BLOCK-ENTRY, and
        // its parser then finds no node where one is wanted.
        K::BlockEntryInFlowCollection => ("did not find expected node content", false),
        K::ExpectedFlowSequenceSeparator => ("did not find expected ',' or ']'", false),
        K::ExpectedFlowMappingSeparator => ("did not find expected ',' or '}'", false),
        _ => return None,
    };
    Some(GoYamlProblem { problem, scanner })
}

#[cfg(test)]
mod tests {
    use crate::yaml::parse_document_set;

    fn message(src: &str) -> String {
        parse_document_set(src, "f.yml").unwrap_err().message
    }

    #[test]
    fn scanner_errors_name_the_line_of_the_problem() {
        assert_eq!(
            message("a: 1\nb: c: d\n"),
            "yaml: line 2: mapping values are not allowed in this context"
        );
        assert_eq!(
            message("a: 1\nb: @x\n"),
            "yaml: line 2: found character that cannot start any token"
        );
    }

    #[test]
    fn unclosed_quotes_end_at_the_end_of_the_text_and_unknown_anchors_are_named() {
        assert_eq!(
            message("a: \"x\nb: 2\n"),
            "yaml: line 3: found unexpected end of stream"
        );
        assert_eq!(
            message("a: 1\nb: [*nope, 2]\n"),
            "yaml: unknown anchor 'nope' referenced"
        );
    }

    #[test]
    fn parser_errors_name_the_line_before_the_offending_token() {
        assert_eq!(
            message("a:\n  b: 1\n c: 2\n"),
            "yaml: line 2: did not find expected key"
        );
        assert_eq!(
            message("---\na:\n  b: 1\n c: 2\n"),
            "yaml: line 3: did not find expected key"
        );
    }
}
