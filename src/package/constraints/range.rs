//! kapp-controller's version constraint language (carvel-dev/semver v4, blang style):
//! the tokenizer, wildcard expansion and comparator parsing of its `ParseRange`, with
//! its quirks kept (one-character tokens dropped, `x` anywhere in a term expands it,
//! no `~`, `^` or `*`), and its error texts, which show the offending part.

use std::cmp::Ordering;

use semver::Version;

use super::version::{ParseError, parse_strict};
use crate::package::go_quote::go_quote;

/// Why a constraint string does not parse; the texts are the upstream ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    #[error("First element in range is '||'")]
    LeadingOr,
    #[error("Last element in range is '||'")]
    TrailingOr,
    #[error("Could not get version from string: {}", go_quote(.0))]
    NoVersion(String),
    #[error(
        "Could not parse Range {}: Could not parse comparator {} in {}",
        go_quote(.term),
        go_quote(.operator),
        go_quote(.term)
    )]
    Comparator { term: String, operator: String },
    #[error(
        "Could not parse Range {}: Could not parse version {} in {}: {error}",
        go_quote(.term),
        go_quote(.version),
        go_quote(.term)
    )]
    Version {
        term: String,
        version: String,
        error: ParseError,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    Equal,
    NotEqual,
    Greater,
    GreaterOrEqual,
    Less,
    LessOrEqual,
}

impl Operator {
    fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "" | "=" | "==" => Operator::Equal,
            "!" | "!=" => Operator::NotEqual,
            ">" => Operator::Greater,
            ">=" => Operator::GreaterOrEqual,
            "<" => Operator::Less,
            "<=" => Operator::LessOrEqual,
            _ => return None,
        })
    }

    fn admits(self, ordering: Ordering) -> bool {
        match self {
            Operator::Equal => ordering == Ordering::Equal,
            Operator::NotEqual => ordering != Ordering::Equal,
            Operator::Greater => ordering == Ordering::Greater,
            Operator::GreaterOrEqual => ordering != Ordering::Less,
            Operator::Less => ordering == Ordering::Less,
            Operator::LessOrEqual => ordering != Ordering::Greater,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Comparator {
    operator: Operator,
    version: Version,
}

/// A parsed range: an OR of ANDs of comparators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Range {
    any_of: Vec<Vec<Comparator>>,
}

impl Range {
    /// Parses `text` exactly as carvel-dev/semver's `ParseRange` does.
    pub fn parse(text: &str) -> Result<Self, RangeError> {
        let tokens = split_and_trim(text);
        let or_parts = split_or_parts(&tokens)?;
        let expanded = or_parts
            .into_iter()
            .map(|part| expand_wildcards(&part))
            .collect::<Result<Vec<_>, _>>()?;
        let mut any_of = Vec::with_capacity(expanded.len());
        for part in expanded {
            let mut all_of = Vec::with_capacity(part.len());
            for term in part {
                let (operator_text, version_text) = split_comparator_version(&term)?;
                let Some(operator) = Operator::parse(operator_text) else {
                    return Err(RangeError::Comparator {
                        term: format!("{operator_text}{version_text}"),
                        operator: operator_text.to_string(),
                    });
                };
                let version = parse_strict(version_text).map_err(|error| RangeError::Version {
                    term: format!("{operator_text}{version_text}"),
                    version: version_text.to_string(),
                    error,
                })?;
                all_of.push(Comparator { operator, version });
            }
            any_of.push(all_of);
        }
        Ok(Range { any_of })
    }

    /// Whether `version` satisfies the range. Ordering is the fork's: plain semver
    /// precedence, then build metadata (the `semver` crate orders it the same way).
    pub fn matches(&self, version: &Version) -> bool {
        self.any_of.iter().any(|all_of| {
            all_of
                .iter()
                .all(|c| c.operator.admits(version.cmp(&c.version)))
        })
    }
}

/// Splits at spaces, except a space right after `>`, `<` or `=`; drops every token of
/// one character; removes the spaces left inside a token.
fn split_and_trim(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut last = 0usize;
    let mut last_char = 0u8;
    for (i, &byte) in bytes.iter().enumerate() {
        if byte == b' ' && !matches!(last_char, b'>' | b'<' | b'=') {
            if last + 1 < i {
                tokens.push(&text[last..i]);
            }
            last = i + 1;
        } else if byte != b' ' {
            last_char = byte;
        }
    }
    if last + 1 < bytes.len() {
        tokens.push(&text[last..]);
    }
    tokens.into_iter().map(|t| t.replace(' ', "")).collect()
}

fn split_or_parts(tokens: &[String]) -> Result<Vec<Vec<String>>, RangeError> {
    let mut parts = Vec::new();
    let mut last = 0;
    for (i, token) in tokens.iter().enumerate() {
        if token == "||" {
            if i == 0 {
                return Err(RangeError::LeadingOr);
            }
            parts.push(tokens[last..i].to_vec());
            last = i + 1;
        }
    }
    if last == tokens.len() {
        return Err(RangeError::TrailingOr);
    }
    parts.push(tokens[last..].to_vec());
    Ok(parts)
}

/// The operator (everything before the first digit, trimmed) and the version.
fn split_comparator_version(term: &str) -> Result<(&str, &str), RangeError> {
    match term.find(|c: char| c.is_ascii_digit()) {
        Some(i) => Ok((term[..i].trim(), &term[i..])),
        None => Err(RangeError::NoVersion(term.to_string())),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Wildcard {
    None,
    Minor,
    Patch,
}

fn wildcard_kind(version: &str) -> Wildcard {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.last() != Some(&"x") {
        return Wildcard::None;
    }
    match parts.len() {
        2 => Wildcard::Minor,
        3 => Wildcard::Patch,
        _ => Wildcard::None,
    }
}

/// `1.x.x` → `1.x`, then the first `.x` → `.0`, then `1.0` → `1.0.0`.
fn flatten_wildcard(version: &str) -> String {
    let flat = version.replacen(".x.x", ".x", 1).replacen(".x", ".0", 1);
    if flat.split('.').count() == 2 {
        format!("{flat}.0")
    } else {
        flat
    }
}

/// Adds one to the dot-separated part `index` (Go's `strconv.Atoi`, so signs and leading
/// zeros parse); an unparsable part gives an empty version, as upstream.
fn increment_part(version: &str, index: usize) -> String {
    let mut parts: Vec<String> = version.split('.').map(str::to_string).collect();
    let Some(number) = parts.get(index).and_then(|p| p.parse::<i64>().ok()) else {
        return String::new();
    };
    parts[index] = number.wrapping_add(1).to_string();
    parts.join(".")
}

/// Rewrites every term containing an `x` (anywhere) the way upstream does.
fn expand_wildcards(terms: &[String]) -> Result<Vec<String>, RangeError> {
    let mut expanded = Vec::with_capacity(terms.len());
    for term in terms {
        if !term.contains('x') {
            expanded.push(term.clone());
            continue;
        }
        let (operator, version) = split_comparator_version(term)?;
        let kind = wildcard_kind(version);
        let flat = flatten_wildcard(version);
        let (result_operator, increment) = match operator {
            ">" => (">=", true),
            ">=" => (">=", false),
            "<" => ("<", false),
            "<=" => ("<", true),
            "" | "=" | "==" => {
                expanded.push(format!(">={flat}"));
                ("<", true)
            }
            "!=" | "!" => {
                expanded.push(format!("<{flat}"));
                (">=", true)
            }
            _ => ("", false),
        };
        let result_version = if increment {
            match kind {
                Wildcard::Patch => increment_part(&flat, 1),
                Wildcard::Minor => increment_part(&flat, 0),
                Wildcard::None => String::new(),
            }
        } else {
            flat
        };
        expanded.push(format!("{result_operator}{result_version}"));
    }
    Ok(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> Version {
        parse_strict(text).unwrap()
    }

    #[test]
    fn tokenizer_keeps_spaces_after_operators_and_drops_single_characters() {
        assert_eq!(split_and_trim(">= 1.0.0 <2.0.0"), [">=1.0.0", "<2.0.0"]);
        assert_eq!(split_and_trim("! 1.5.0"), ["1.5.0"]);
        assert!(split_and_trim(" ").is_empty());
    }

    #[test]
    fn wildcards_expand_as_upstream() {
        let range = Range::parse("1.x.x").unwrap();
        assert!(range.matches(&v("1.0.9")));
        assert!(!range.matches(&v("1.1.0")));
        assert!(Range::parse(">1.x").unwrap().matches(&v("2.0.0")));
        assert!(!Range::parse(">1.x").unwrap().matches(&v("1.9.0")));
    }

    #[test]
    fn errors_name_the_offending_part() {
        assert_eq!(
            Range::parse("~1.2").unwrap_err().to_string(),
            "Could not parse Range \"~1.2\": Could not parse comparator \"~\" in \"~1.2\""
        );
        assert_eq!(
            Range::parse("1.x.3").unwrap_err().to_string(),
            "Could not get version from string: \"<\""
        );
    }

    #[test]
    fn the_library_quirks_are_kept() {
        for ok in [
            ">= 1.0.0 <2.0.0",
            ">=0.50.0 x",
            "<1.0.0 || >=2.0.0",
            "1.2.x",
        ] {
            assert!(Range::parse(ok).is_ok(), "{ok}");
        }
        // One-character tokens are dropped, so nothing is left.
        assert_eq!(Range::parse("").unwrap_err(), RangeError::TrailingOr);
        assert_eq!(Range::parse("*").unwrap_err(), RangeError::TrailingOr);
        // The `x` of `next` makes the term a wildcard.
        assert_eq!(
            Range::parse("2.0.0-next.1").unwrap_err().to_string(),
            "Could not get version from string: \"<\""
        );
        assert_eq!(
            Range::parse(">=0.50").unwrap_err().to_string(),
            "Could not parse Range \">=0.50\": Could not parse version \"0.50\" in \">=0.50\": No Major.Minor.Patch elements found"
        );
    }

    #[test]
    fn build_metadata_takes_part_in_ordering() {
        let range = Range::parse("<=1.0.0").unwrap();
        assert!(!range.matches(&v("1.0.0+build.1")));
        assert!(v("1.0.0+build.10") > v("1.0.0+build.2"));
    }
}
