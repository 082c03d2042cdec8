//! Schema error reports in ytt's layout: a summary underlined with `=`, then one hunk per
//! problem showing the file, the offending source line, what was found and what was
//! expected (with the schema position that set the expectation) and hints.
//!
//! ```text
//! One or more data values were invalid
//! ====================================
//!
//! values.yml:
//!     |
//!   3 | name: 123
//!     |
//!
//!     = found: integer
//!     = expected: string (by schema.yml:3)
//! ```

use std::collections::HashMap;
use std::rc::Rc;

use crate::ytt::error::{Error, Position};
use crate::ytt::node::Pos;

use super::source::SchemaSource;

/// One problem found in schema or data values.
#[derive(Debug, Clone)]
pub struct Failure {
    /// A line above the hunk (such as "Given data value is not declared in schema").
    pub description: Option<String>,
    pub pos: Pos,
    /// Lines of annotations shown above the node's line (as ytt shows the annotation
    /// that is wrong above the node it annotates).
    pub ann_pos: Vec<Pos>,
    pub found: String,
    pub expected: String,
    pub hints: Vec<String>,
    /// A problem ytt reports as a plain message rather than a report hunk (such as
    /// "Invalid @schema/validation annotation - ...").
    pub plain: Option<String>,
    /// The line shown for a value made in memory (no file), as ytt's position of such
    /// a value holds it (`key: "value"`).
    pub memory: Option<String>,
}

/// A problem in a schema document itself, reported as ytt's `NewSchemaError` reports
/// it: `summary` underlined, then the hunk of `failure`.
#[derive(Debug, Clone)]
pub struct SchemaProblem {
    /// The heading: `Invalid schema`, or `Invalid schema - <problem>` where ytt names the
    /// problem there (a wrong number of array items, a null value, a default of the wrong
    /// type, `@schema/default` on an array item).
    pub summary: String,
    pub failures: Vec<Failure>,
    /// The report is itself wrapped in an `Invalid schema` report that has no hunk of its
    /// own, as ytt's `getValue` wraps what `@schema/default`'s reading returns.
    pub nested: bool,
}

impl SchemaProblem {
    /// The problem under heading `summary` instead of `Invalid schema`.
    pub fn titled(mut self, summary: &str) -> SchemaProblem {
        self.summary = format!("\n{summary}");
        self
    }

    /// The problem wrapped once more, as ytt wraps a report returned where it expected
    /// a single problem.
    pub fn nested(mut self) -> SchemaProblem {
        self.nested = true;
        self
    }

    /// The message ytt prints for this problem (`plain` problems print alone).
    pub fn message(&self, sources: &Sources) -> String {
        if let [f] = self.failures.as_slice()
            && let Some(msg) = &f.plain
        {
            return msg.clone();
        }
        let inner = render(&self.summary, &self.failures, sources);
        let msg = if self.nested {
            // ytt's report of a report: the outer heading with no hunk, then the inner
            // report's text followed by " \n" (its "misc" line) and the closing "\n".
            format!("\nInvalid schema\n==============\n{inner}\n \n")
        } else {
            inner
        };
        msg.trim_end().to_string()
    }
}

/// An invalid-schema problem at `pos`.
pub fn invalid(
    pos: &Pos,
    description: &str,
    found: &str,
    expected: &str,
    hints: &[&str],
) -> SchemaProblem {
    SchemaProblem {
        summary: "\nInvalid schema".to_string(),
        failures: vec![Failure {
            description: (!description.is_empty()).then(|| description.to_string()),
            pos: pos.clone(),
            ann_pos: Vec::new(),
            found: found.to_string(),
            expected: expected.to_string(),
            hints: hints.iter().map(|s| s.to_string()).collect(),
            plain: None,
            memory: None,
        }],
        nested: false,
    }
}

/// A problem ytt reports as the plain message `msg`, at `pos`.
pub fn plain(pos: &Pos, msg: String) -> SchemaProblem {
    let mut p = invalid(pos, "", "", "", &[]);
    p.failures[0].plain = Some(msg);
    p
}

/// An invalid-schema problem of the node at `node` shown with its annotations at `anns`.
pub fn invalid_ann(
    node: &Pos,
    anns: &[Pos],
    description: &str,
    found: &str,
    expected: &str,
    hints: &[&str],
) -> SchemaProblem {
    let mut p = invalid(node, description, found, expected, hints);
    p.failures[0].ann_pos = anns.to_vec();
    p
}

/// Source texts by display name, for quoting lines in reports: texts added by hand
/// (flags, `--data-values-file`) and the files of a library (read when needed).
#[derive(Default, Clone)]
pub struct Sources {
    texts: HashMap<String, String>,
    lib: Option<Rc<dyn SchemaSource>>,
}

impl Sources {
    /// Sources that include the files of `lib`.
    pub fn of_lib<L: SchemaSource + Clone + 'static>(lib: &L) -> Sources {
        Sources {
            texts: HashMap::new(),
            lib: Some(Rc::new(lib.clone())),
        }
    }

    pub fn add(&mut self, name: &str, text: &str) {
        self.texts.insert(name.to_string(), text.to_string());
    }

    /// The text of 1-based `line` of source `name`.
    pub fn line(&self, name: &str, line: usize) -> Option<String> {
        if line == 0 {
            return None;
        }
        let pick = |t: &str| {
            t.split('\n')
                .nth(line - 1)
                .map(|l| l.trim_end_matches('\r').to_string())
        };
        if let Some(t) = self.texts.get(name) {
            return pick(t);
        }
        let lib = self.lib.as_ref()?;
        match lib.files().iter().find(|f| lib.display(&f.rel) == name) {
            Some(f) => pick(&String::from_utf8_lossy(&f.bytes)),
            None => pick(&String::from_utf8_lossy(&lib.outer_text(name)?)),
        }
    }
}

/// Renders failures under a summary as ytt does.
pub fn render(summary: &str, failures: &[Failure], sources: &Sources) -> String {
    let width = failures
        .iter()
        .map(|f| f.pos.line.to_string().len())
        .max()
        .unwrap_or(1);
    let pad = |delim: &str, s: &str| format!("  {s:>width$} {delim}");
    let mut out = String::new();
    out.push_str(summary);
    out.push('\n');
    out.push_str(&"=".repeat(summary.trim_start_matches('\n').chars().count()));
    out.push('\n');
    for f in failures {
        out.push('\n');
        if let Some(d) = &f.description {
            out.push_str(d);
            out.push('\n');
        }
        let file: &str = &f.pos.file;
        let text = sources.line(file, f.pos.line);
        match text {
            _ if f.memory.is_some() => {
                let line = f.memory.as_deref().unwrap_or_default();
                out.push_str("Data value calculated:\n");
                out.push_str(&format!("{}\n", pad("#", "")));
                out.push_str(&format!("{} {line}\n", pad("#", "")));
                out.push_str(&format!("{}\n", pad("#", "")));
            }
            Some(t) => {
                out.push_str(&format!("{file}:\n"));
                out.push_str(&format!("{}\n", pad("|", "")));
                let mut anns = f.ann_pos.clone();
                anns.sort_by_key(|p| p.line);
                let mut prev: Option<usize> = None;
                for p in &anns {
                    let line = sources.line(&p.file, p.line).unwrap_or_default();
                    if prev.is_some_and(|l| !next_to(l, p.line)) {
                        out.push_str(&format!("{} ...\n", pad("|", "")));
                    }
                    out.push_str(&format!("{} {line}\n", pad("|", &p.line.to_string())));
                    prev = Some(p.line);
                }
                if prev.is_some_and(|l| !next_to(l, f.pos.line)) {
                    out.push_str(&format!("{} ...\n", pad("|", "")));
                }
                out.push_str(&format!("{} {t}\n", pad("|", &f.pos.line.to_string())));
                out.push_str(&format!("{}\n", pad("|", "")));
            }
            None if file.is_empty() => out.push_str("(data value given in memory)\n"),
            None => out.push_str(&format!("{file}:{}\n", f.pos.line)),
        }
        out.push('\n');
        // ytt leaves out an empty found or expected, keeping their line breaks.
        if !f.found.is_empty() {
            out.push_str(&format!("{} found: {}", pad("=", ""), f.found));
        }
        out.push('\n');
        if !f.expected.is_empty() {
            out.push_str(&format!("{} expected: {}", pad("=", ""), f.expected));
        }
        out.push('\n');
        for h in &f.hints {
            out.push_str(&format!("{} hint: {h}\n", pad("=", "")));
        }
    }
    out
}

/// Whether two lines of one file are shown without `...` between them: ytt's
/// `Position.IsNextTo` holds for lines at most one apart, the same line included (an
/// annotation written after the value on the value's own line).
fn next_to(a: usize, b: usize) -> bool {
    a.abs_diff(b) <= 1
}

/// An engine error holding a rendered report, positioned at the first failure.
pub fn to_error(summary: &str, failures: &[Failure], sources: &Sources) -> Error {
    if let [f] = failures
        && let Some(msg) = &f.plain
    {
        return Error::at(
            msg.clone(),
            Position {
                file: f.pos.file.to_string(),
                line: f.pos.line,
                text: None,
            },
        );
    }
    let msg = render(summary, failures, sources);
    match failures.first() {
        Some(f) if !f.pos.file.is_empty() && !f.pos.file.starts_with('(') && f.pos.line > 0 => {
            Error::at(
                msg.trim_end().to_string(),
                Position {
                    file: f.pos.file.to_string(),
                    line: f.pos.line,
                    text: None,
                },
            )
        }
        _ => Error::msg(msg.trim_end().to_string()),
    }
}

/// Shows a position as `file:line`.
pub fn compact(pos: &Pos) -> String {
    if pos.file.is_empty() {
        "(unknown)".to_string()
    } else {
        format!("{}:{}", pos.file, pos.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_like_ytt() {
        let mut s = Sources::default();
        s.add("v.yml", "a: 1\nname: 123\n");
        let f = Failure {
            description: None,
            pos: Pos {
                file: "v.yml".into(),
                line: 2,
            },
            ann_pos: vec![],
            plain: None,
            memory: None,
            found: "integer".into(),
            expected: "string (by schema.yml:3)".into(),
            hints: vec![],
        };
        assert_eq!(
            render("One or more data values were invalid", &[f], &s),
            "One or more data values were invalid\n====================================\n\nv.yml:\n    |\n  2 | name: 123\n    |\n\n    = found: integer\n    = expected: string (by schema.yml:3)\n"
        );
    }
}
