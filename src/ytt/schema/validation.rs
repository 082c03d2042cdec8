//! Validations: `#@schema/validation` on schema nodes and `#@assert/validate` on data
//! values nodes. A validation holds rules (named: `min_len`, `max_len`, `min`, `max`,
//! `not_null`, `one_of`, `one_not_null`; custom: `("message", fn)` where `fn` is a function
//! or an `assert.*` rule object) plus the conditions `when=` and `when_null_skip=`.
//! [`Validation::run`] checks one value and returns the rules it breaks.

use crate::ytt::assertions;
use crate::ytt::fragment::node_to_starlark;
use crate::ytt::node::{Ann, Node, Pos};
use crate::ytt::starlark::iteration::iterate;
use crate::ytt::starlark::{Args, Struct, Thread, Value as SValue, repr};

/// One rule: what a valid value is, and the function (a custom one, or the `check`
/// of the `@ytt:assert` assertion behind a named rule) that returns True when the
/// value satisfies it, or fails saying what was found.
#[derive(Clone)]
pub struct Rule {
    pub msg: String,
    pub check: SValue,
    /// Not satisfying it stops the other rules (`not_null`).
    pub critical: bool,
}

/// The named rules as given, for the OpenAPI export.
#[derive(Clone, Default)]
pub struct Named {
    pub min_len: Option<SValue>,
    pub max_len: Option<SValue>,
    pub min: Option<SValue>,
    pub max: Option<SValue>,
    pub one_of: Option<Vec<SValue>>,
}

/// A validation annotation.
#[derive(Clone)]
pub struct Validation {
    /// Where the annotation is (`by:` in reports).
    pub pos: Pos,
    pub rules: Vec<Rule>,
    pub when: Option<SValue>,
    pub not_null: bool,
    pub named: Named,
}

/// A rule a value does not satisfy.
#[derive(Debug, Clone, PartialEq)]
pub struct Broken {
    /// What the value must be.
    pub must_be: String,
    /// What was found (may be empty).
    pub found: String,
}

fn is_callable(v: &SValue) -> bool {
    matches!(v, SValue::Function(_) | SValue::Builtin(_))
}

fn seq(v: &SValue) -> Option<Vec<SValue>> {
    match v {
        SValue::List(_) | SValue::Tuple(_) => iterate(v).map(|(items, _)| items),
        _ => None,
    }
}

impl Validation {
    /// Reads `#@schema/validation` / `#@assert/validate` arguments.
    pub fn from_ann(a: &Ann) -> Result<Validation, String> {
        let mut v = Validation {
            pos: a.pos.clone(),
            rules: Vec::new(),
            when: None,
            not_null: false,
            named: Named::default(),
        };
        let at = format!("{}:{}", a.pos.file, a.pos.line);
        if a.args.is_empty() && a.kwargs.is_empty() {
            return Err(format!(
                "expected annotation to have 2-tuple as argument(s), but found no arguments (by {at})"
            ));
        }
        for arg in &a.args {
            let SValue::Tuple(t) = arg else {
                return Err(format!(
                    "expected annotation to have 2-tuple as argument(s), but found: {} (by {at})",
                    repr(arg)
                ));
            };
            let [desc, f] = t.as_slice() else {
                return Err(format!(
                    "expected 2-tuple, but found tuple with length {} (by {at})",
                    t.len()
                ));
            };
            let Some(desc) = desc.as_str() else {
                return Err(format!(
                    "expected first item in the 2-tuple to be a string describing a valid value, but was {} (at {at})",
                    desc.type_name()
                ));
            };
            let check = rule_fn(f).map_err(|e| format!("{e} (at {at})"))?;
            v.rules.push(rule(desc.to_string(), check));
        }
        // Named rules run in ytt's fixed order whatever the order of the keywords;
        // `not_null` runs before every other rule.
        let mut named: Vec<(u8, Rule)> = Vec::new();
        for (k, val) in &a.kwargs {
            // Starlark's NumberToInt: an int, or a float truncated toward zero.
            let number = |val: &SValue| -> Result<SValue, String> {
                match val {
                    SValue::Int(_) => Ok(val.clone()),
                    SValue::Float(f) if f.is_finite() => Ok(SValue::Int(f.trunc() as i128)),
                    o => Err(format!(
                        "expected keyword argument \"{k}\" to be a number, but was {} (at {at})",
                        o.type_name()
                    )),
                }
            };
            match k.as_str() {
                "min_len" => {
                    let n = number(val)?;
                    v.named.min_len = Some(n.clone());
                    let check = check_of(Ok(assertions::len_bound(int_of(&n), true)))?;
                    named.push((0, rule(format!("length >= {}", repr(&n)), check)));
                }
                "max_len" => {
                    let n = number(val)?;
                    v.named.max_len = Some(n.clone());
                    let check = check_of(Ok(assertions::len_bound(int_of(&n), false)))?;
                    named.push((1, rule(format!("length <= {}", repr(&n)), check)));
                }
                "min" => {
                    v.named.min = Some(val.clone());
                    let check = check_of(assertions::min(val))?;
                    named.push((2, rule(format!("a value >= {}", repr(val)), check)));
                }
                "max" => {
                    v.named.max = Some(val.clone());
                    let check = check_of(assertions::max(val))?;
                    named.push((3, rule(format!("a value <= {}", repr(val)), check)));
                }
                "not_null" => match val {
                    SValue::Bool(b) => {
                        v.not_null = *b;
                        if *b {
                            let check = check_of(Ok(assertions::not_null()))?;
                            named.push((
                                4,
                                Rule {
                                    msg: "not null".into(),
                                    check,
                                    critical: true,
                                },
                            ));
                        }
                    }
                    o => {
                        return Err(format!(
                            "expected keyword argument \"not_null\" to be a boolean, but was {} (at {at})",
                            o.type_name()
                        ));
                    }
                },
                "one_of" => {
                    let items = seq(val).ok_or_else(|| {
                        format!(
                            "expected keyword argument one_of to be a sequence, but was {}",
                            val.type_name()
                        )
                    })?;
                    v.named.one_of = Some(items);
                    let check = check_of(assertions::one_of(val))?;
                    named.push((6, rule(format!("one of {}", repr(val)), check)));
                }
                "one_not_null" => {
                    let (keys, what) = match val {
                        SValue::Bool(true) => (None, "all children".to_string()),
                        SValue::Bool(false) => {
                            return Err("one_not_null= cannot be False".into());
                        }
                        o => match seq(o) {
                            Some(_) => (Some(o), repr(o)),
                            None => {
                                return Err(format!(
                                    "expected True or a sequence of keys, but was a '{}'",
                                    o.type_name()
                                ));
                            }
                        },
                    };
                    let check = check_of(assertions::one_not_null(keys))?;
                    let msg = format!("exactly one of {what} to be not null");
                    named.push((5, rule(msg, check)));
                }
                "when" => {
                    if !is_callable(val) {
                        return Err(format!(
                            "expected keyword argument \"when\" to be a function, but was {} (at {at})",
                            val.type_name()
                        ));
                    }
                    v.when = Some(val.clone());
                }
                other => {
                    return Err(format!("unknown keyword argument \"{other}\" (at {at})"));
                }
            }
        }
        named.sort_by_key(|(rank, _)| *rank);
        v.rules.extend(named.into_iter().map(|(_, r)| r));
        if let Some(i) = v.rules.iter().position(|r| r.critical) {
            let r = v.rules.remove(i);
            v.rules.insert(0, r);
        }
        Ok(v)
    }

    /// Checks `value` (with its parent and the root of the values). `Ok(None)` when the
    /// validation does not apply (null value, `when=` false); `Err` when `when=` fails.
    pub fn run(
        &self,
        thread: &mut Thread,
        value: &Node,
        parent: Option<&Node>,
        root: &Node,
    ) -> Result<Option<Vec<Broken>>, String> {
        let sv = node_to_starlark(value);
        let is_null = matches!(sv, SValue::None);
        if is_null && !self.not_null {
            return Ok(None);
        }
        if let Some(when) = &self.when {
            let nparams = match when {
                SValue::Function(f) => f.def.params.len(),
                _ => 1,
            };
            let mut args = vec![sv.clone()];
            match nparams {
                1 => {}
                2 => {
                    let ctx = Struct::new(vec![
                        (
                            "parent".into(),
                            parent.map(node_to_starlark).unwrap_or(SValue::None),
                        ),
                        ("root".into(), node_to_starlark(root)),
                    ]);
                    args.push(SValue::host(ctx));
                }
                n => {
                    return Err(format!(
                        "Failed to evaluate when=: function must accept 1 or 2 arguments ({n} given)"
                    ));
                }
            }
            let r = thread
                .call(when, Args::new(args))
                .map_err(|e| format!("Failure evaluating when=: {}", e.msg))?;
            match r {
                SValue::Bool(true) => {}
                SValue::Bool(false) => return Ok(None),
                o => {
                    return Err(format!("want when= to be bool, got {}", o.type_name()));
                }
            }
        }
        let mut broken = Vec::new();
        for r in &self.rules {
            if let Some(found) = violation(thread, &r.check, &sv) {
                broken.push(Broken {
                    must_be: r.msg.clone(),
                    found,
                });
                if r.critical {
                    break;
                }
            }
        }
        Ok(Some(broken))
    }
}

fn rule(msg: String, check: SValue) -> Rule {
    Rule {
        msg,
        check,
        critical: false,
    }
}

/// The `check` function of a named rule's assertion.
fn check_of(a: Result<SValue, crate::ytt::starlark::Error>) -> Result<SValue, String> {
    rule_fn(&a.map_err(|e| e.msg.clone())?)
}

/// The int of a number bound (already an int or a truncated float).
fn int_of(n: &SValue) -> i128 {
    match n {
        SValue::Int(i) => *i,
        _ => 0,
    }
}

/// The callable of a custom rule: a function, or an object's `check` attribute, with
/// ytt's complaint when it is neither.
fn rule_fn(f: &SValue) -> Result<SValue, String> {
    if is_callable(f) {
        return Ok(f.clone());
    }
    let check = match f {
        SValue::Host(h) => match h.as_any().downcast_ref::<Struct>() {
            Some(s) => s.get("check").cloned(),
            None => h.attr("check").ok().flatten(),
        },
        SValue::Str(_) | SValue::List(_) | SValue::Dict(_) => None,
        o => {
            return Err(format!(
                "expected second item in the 2-tuple to be an assertion function, but was {}",
                o.type_name()
            ));
        }
    };
    match check {
        Some(c) if is_callable(&c) => Ok(c),
        Some(c) => Err(format!(
            "expected struct with attribute check(), but was {}",
            c.type_name()
        )),
        None => Err(format!(
            "expected second item in tuple to be an assertion function or assertion object, but was a {}",
            f.type_name()
        )),
    }
}

/// What a rule's check found wrong with `v`: `None` when it returns True; an empty
/// text when it returns anything else; its failure (less `fail: ` / `check: `) when it
/// fails.
fn violation(thread: &mut Thread, check: &SValue, v: &SValue) -> Option<String> {
    match thread.call(check, Args::new(vec![v.clone()])) {
        Ok(SValue::Bool(true)) => None,
        Ok(_) => Some(String::new()),
        Err(e) => Some(
            e.msg
                .strip_prefix("fail: ")
                .unwrap_or(&e.msg)
                .trim_start_matches("check: ")
                .to_string(),
        ),
    }
}
