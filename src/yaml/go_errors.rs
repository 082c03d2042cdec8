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
    /// when go-yaml's would be 0.
    fn message(&self, line: usize) -> String {
        let shown = if self.scanner { line } else { line - 1 };
        if shown == 0 {
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
    /// The whole text.
    pub text: &'a str,
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
    match kind {
        // The quoted scalar runs to the end of the text, where libyaml's scanner stops.
        K::UnclosedQuotedScalar => Some(
            GoYamlProblem {
                problem: "found unexpected end of stream",
                scanner: true,
            }
            .message(at.eof_line),
        ),
        // libyaml's parser meets the end of the stream inside the collection: where a node
        // may start (after the opening bracket, a `,` or a `:`) it wants node content,
        // elsewhere the separator or the closing bracket of the innermost collection.
        K::UnclosedFlowCollection { open } => {
            let problem = match last_significant(at.text) {
                Some('[' | '{' | ',' | ':') | None => "did not find expected node content",
                _ if *open == '{' => "did not find expected ',' or '}'",
                _ => "did not find expected ',' or ']'",
            };
            Some(
                GoYamlProblem {
                    problem,
                    scanner: false,
                }
                .message(at.eof_line),
            )
        }
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
        _ => go_yaml_problem(kind).map(|p| p.message(at.line)),
    }
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
        K::ExpectedDocumentStart => ("did not find expected <document start>", false),
        K::ExpectedBlockSequenceEntry => ("did not find expected '-' indicator", false),
        K::ExpectedNodeContent => ("did not find expected node content", false),
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
