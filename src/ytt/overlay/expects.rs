//! How many left nodes an overlay node may match: `@overlay/match`'s `expects`,
//! `missing_ok` and `when` keyword arguments (each inherited from an enclosing
//! `@overlay/match-child-defaults` when the node does not set it), as ytt checks them.
//! `expects` and `missing_ok` fail the overlay on a wrong count; `when` skips it.

use crate::ytt::error::Error;
use crate::ytt::node::{Meta, Pos};
use crate::ytt::starlark::{Args, Interpreter, Value as SValue};

/// The count keywords of one overlay node (or the defaults it passes to its children).
#[derive(Clone, Default)]
pub struct CountKwargs {
    pub expects: Option<SValue>,
    pub missing_ok: Option<SValue>,
    pub when: Option<SValue>,
}

/// What a count check decided.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Apply the overlay node to the matched left nodes.
    Apply,
    /// `when` was not satisfied: leave the left nodes as they are.
    Skip,
}

/// A count that did not satisfy a keyword, or a keyword ytt refuses.
enum Miss {
    Count(String),
    Invalid(String),
}

impl CountKwargs {
    /// The keywords of `meta`'s annotation `name` (`overlay/match` or
    /// `overlay/match-child-defaults`).
    pub fn of(meta: &Meta, name: &str) -> CountKwargs {
        let Some(a) = meta.ann(name) else {
            return CountKwargs::default();
        };
        CountKwargs {
            expects: a.kwarg("expects").cloned(),
            missing_ok: a.kwarg("missing_ok").cloned(),
            when: a.kwarg("when").cloned(),
        }
    }

    /// Fills the keywords this node leaves unset from `defaults`.
    pub fn or_defaults(mut self, defaults: &CountKwargs) -> CountKwargs {
        if self.expects.is_none() {
            self.expects = defaults.expects.clone();
        }
        if self.missing_ok.is_none() {
            self.missing_ok = defaults.missing_ok.clone();
        }
        if self.when.is_none() {
            self.when = defaults.when.clone();
        }
        self
    }

    /// True when a merge that matched nothing may add the node (`missing_ok=True`).
    pub fn missing_ok(&self) -> bool {
        self.missing_ok.as_ref().is_some_and(SValue::truth)
    }

    /// Checks the left nodes matched (at `matched`) against the keywords; the error
    /// reads like ytt's, naming the matched nodes' lines.
    pub fn check(&self, thread: &mut dyn Interpreter, matched: &[Pos]) -> Result<Verdict, String> {
        let n = matched.len();
        let pair = |a: &str, b: &str| {
            Err(format!(
                "Expected only one of keyword arguments ('{a}', '{b}') specified"
            ))
        };
        let (kwarg, value, conditional) = match (&self.expects, &self.missing_ok, &self.when) {
            (Some(_), Some(_), _) => return pair("missing_ok", "expects"),
            (_, Some(_), Some(_)) => return pair("missing_ok", "when"),
            (Some(_), _, Some(_)) => return pair("when", "expects"),
            (_, Some(m), _) => match m {
                SValue::Bool(true) => (
                    "missing_ok",
                    SValue::list(vec![SValue::Int(0), SValue::Int(1)]),
                    false,
                ),
                SValue::Bool(false) => ("missing_ok", SValue::Int(1), false),
                _ => return Err("Expected keyword argument 'missing_ok' to be a boolean".into()),
            },
            (_, _, Some(w)) => ("when", w.clone(), true),
            (Some(e), _, _) => ("expects", e.clone(), false),
            (None, None, None) => ("", SValue::Int(1), false),
        };
        match check_value(thread, &value, kwarg, n) {
            Ok(()) => Ok(Verdict::Apply),
            Err(Miss::Count(_)) if conditional => Ok(Verdict::Skip),
            Err(Miss::Count(m)) if m.starts_with("Expected number") => {
                Err(format!("{m}{}", matched_lines(matched)))
            }
            Err(Miss::Count(m) | Miss::Invalid(m)) => Err(m),
        }
    }
}

/// ` (lines: a.yml:3, b.yml:7)`: the matched nodes' positions, sorted as text, as ytt
/// appends them to a wrong count (nothing when none matched).
fn matched_lines(matched: &[Pos]) -> String {
    if matched.is_empty() {
        return String::new();
    }
    let mut lines: Vec<String> = matched
        .iter()
        .map(|p| {
            let file = if p.file.is_empty() {
                String::new()
            } else {
                format!("{}:", p.file)
            };
            if p.line == 0 {
                format!("{file}?")
            } else {
                format!("{file}{}", p.line)
            }
        })
        .collect();
    lines.sort();
    format!(" (lines: {})", lines.join(", "))
}

fn check_value(
    thread: &mut dyn Interpreter,
    v: &SValue,
    kwarg: &str,
    n: usize,
) -> Result<(), Miss> {
    match v {
        SValue::Int(i) => {
            if *i == n as i128 {
                Ok(())
            } else {
                Err(Miss::Count(format!(
                    "Expected number of matched nodes to be {i}, but was {n}"
                )))
            }
        }
        SValue::Str(s) => {
            let at_least = s
                .strip_suffix('+')
                .and_then(|d| d.parse::<i64>().ok())
                .ok_or_else(|| {
                    Miss::Invalid(format!(
                        "Expected '{s}' to be in format 'i+' where i is an integer"
                    ))
                })?;
            if n as i64 >= at_least {
                Ok(())
            } else {
                Err(Miss::Count(format!(
                    "Expected number of matched nodes to be >= {at_least}, but was {n}"
                )))
            }
        }
        SValue::List(_) => {
            let (items, _guard) =
                crate::ytt::fragment::items_of(v).map_err(|e| Miss::Invalid(e.msg.clone()))?;
            // Any alternative satisfies; otherwise the last one's error stands.
            let mut last = Ok(());
            for item in items {
                last = check_value(thread, &item, kwarg, n);
                if last.is_ok() {
                    return Ok(());
                }
            }
            last
        }
        f @ (SValue::Function(_) | SValue::Builtin(_) | SValue::Host(_)) => {
            let r = thread
                .call(f, Args::new(vec![SValue::Int(n as i128)]))
                .map_err(|e| Miss::Invalid(e.msg.clone()))?;
            match r {
                SValue::Bool(true) => Ok(()),
                SValue::Bool(false) => Err(Miss::Count(
                    "Expectation of number of matched nodes failed".into(),
                )),
                _ => Err(Miss::Invalid(format!(
                    "Expected keyword argument '{kwarg}' to have a function that returns a boolean"
                ))),
            }
        }
        other => Err(Miss::Invalid(format!(
            "Expected 'overlay/match' annotation keyword argument '{kwarg}' to be either int, string or function, but was {}",
            super::go_type::of_starlark(other)
        ))),
    }
}

/// Checks the matches (at `matched`) of the overlay node of `meta`, turning a refusal
/// into an error at `meta` (the caller prefixes it with the node it is about).
pub fn check_at(
    kw: &CountKwargs,
    thread: &mut dyn Interpreter,
    matched: &[Pos],
    meta: &Meta,
) -> Result<Verdict, Error> {
    kw.check(thread, matched)
        .map_err(|m| super::err_at(m, meta))
}
