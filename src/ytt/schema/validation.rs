//! Validations: `#@schema/validation` on schema nodes and `#@assert/validate` on data
//! values nodes. A validation holds rules (named: `min_len`, `max_len`, `min`, `max`,
//! `not_null`, `one_of`, `one_not_null`; custom: `("message", fn)` where `fn` is a function
//! or an `assert.*` rule object) plus the conditions `when=` and `when_null_skip=`.
//! [`Validation::run`] checks one value and returns the rules it breaks.

use crate::ytt::fragment::node_to_starlark;
use crate::ytt::node::{Ann, Node, Pos};
use crate::ytt::starlark::value::{compare, equals, iterate};
use crate::ytt::starlark::{Args, Struct, Thread, Value as SValue, repr};

/// How a rule checks a value.
#[derive(Clone)]
pub enum Check {
    MinLen(SValue),
    MaxLen(SValue),
    Min(SValue),
    Max(SValue),
    NotNull,
    OneOf(Vec<SValue>),
    OneNotNull(Option<Vec<SValue>>),
    /// A function (or rule object with `check`) returning True when valid.
    Custom(SValue),
}

/// One rule: what a valid value is, and how to check it.
#[derive(Clone)]
pub struct Rule {
    pub msg: String,
    pub check: Check,
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
    pub when_null_skip: Option<bool>,
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
            when_null_skip: None,
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
            let check = rule_fn(f).ok_or_else(|| {
                format!(
                    "expected second item in the 2-tuple to be an assertion function, but was {} (at {at})",
                    f.type_name()
                )
            })?;
            v.rules.push(Rule {
                msg: desc.to_string(),
                check: Check::Custom(check),
                critical: false,
            });
        }
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
                    v.rules
                        .push(rule(format!("length >= {}", repr(&n)), Check::MinLen(n)));
                }
                "max_len" => {
                    let n = number(val)?;
                    v.named.max_len = Some(n.clone());
                    v.rules
                        .push(rule(format!("length <= {}", repr(&n)), Check::MaxLen(n)));
                }
                "min" => {
                    v.named.min = Some(val.clone());
                    v.rules.push(rule(
                        format!("a value >= {}", repr(val)),
                        Check::Min(val.clone()),
                    ));
                }
                "max" => {
                    v.named.max = Some(val.clone());
                    v.rules.push(rule(
                        format!("a value <= {}", repr(val)),
                        Check::Max(val.clone()),
                    ));
                }
                "not_null" => match val {
                    SValue::Bool(b) => {
                        v.not_null = *b;
                        if *b {
                            v.rules.insert(
                                0,
                                Rule {
                                    msg: "not null".into(),
                                    check: Check::NotNull,
                                    critical: true,
                                },
                            );
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
                    v.named.one_of = Some(items.clone());
                    v.rules
                        .push(rule(format!("one of {}", repr(val)), Check::OneOf(items)));
                }
                "one_not_null" => {
                    let (keys, what) = match val {
                        SValue::Bool(true) => (None, "all children".to_string()),
                        SValue::Bool(false) => {
                            return Err("one_not_null= cannot be False".into());
                        }
                        o => match seq(o) {
                            Some(items) => (Some(items), repr(o)),
                            None => {
                                return Err(format!(
                                    "expected True or a sequence of keys, but was a '{}'",
                                    o.type_name()
                                ));
                            }
                        },
                    };
                    v.rules.push(rule(
                        format!("exactly one of {what} to be not null"),
                        Check::OneNotNull(keys),
                    ));
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
                "when_null_skip" => match val {
                    SValue::Bool(b) => v.when_null_skip = Some(*b),
                    o => {
                        return Err(format!(
                            "expects when_null_skip= to be a bool, but was {}",
                            o.type_name()
                        ));
                    }
                },
                other => {
                    return Err(format!("unknown keyword argument \"{other}\" (at {at})"));
                }
            }
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
        if is_null && !self.not_null && self.when_null_skip != Some(false) {
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
            let res = r.check.apply(thread, &sv);
            if let Some(found) = res {
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

fn rule(msg: String, check: Check) -> Rule {
    Rule {
        msg,
        check,
        critical: false,
    }
}

/// The callable of a custom rule: a function, or an object's `check` attribute.
fn rule_fn(f: &SValue) -> Option<SValue> {
    if is_callable(f) {
        return Some(f.clone());
    }
    if let SValue::Host(h) = f {
        if let Some(s) = h.as_any().downcast_ref::<Struct>() {
            return s.get("check").filter(|c| is_callable(c)).cloned();
        }
        if let Ok(Some(c)) = h.attr("check") {
            return is_callable(&c).then_some(c);
        }
    }
    None
}

fn length(v: &SValue) -> Result<i128, String> {
    match v {
        SValue::Str(s) => Ok(s.len() as i128),
        o => o
            .len()
            .map(|n| n as i128)
            .ok_or_else(|| format!("value of type {} has no length", o.type_name())),
    }
}

fn num(v: &SValue) -> f64 {
    match v {
        SValue::Int(i) => *i as f64,
        SValue::Float(f) => *f,
        _ => 0.0,
    }
}

impl Check {
    /// `None` when `v` satisfies the rule, else what was found.
    fn apply(&self, thread: &mut Thread, v: &SValue) -> Option<String> {
        match self {
            Check::MinLen(m) => match length(v) {
                Ok(n) if (n as f64) >= num(m) => None,
                Ok(n) => Some(format!("length = {n}")),
                Err(e) => Some(e),
            },
            Check::MaxLen(m) => match length(v) {
                Ok(n) if (n as f64) <= num(m) => None,
                Ok(n) => Some(format!("length = {n}")),
                Err(e) => Some(e),
            },
            Check::Min(m) => match compare(v, m) {
                Ok(std::cmp::Ordering::Less) => Some(format!("value < {}", repr(m))),
                Ok(_) => None,
                Err(e) => Some(e.msg.clone()),
            },
            Check::Max(m) => match compare(v, m) {
                Ok(std::cmp::Ordering::Greater) => Some(format!("value > {}", repr(m))),
                Ok(_) => None,
                Err(e) => Some(e.msg.clone()),
            },
            Check::NotNull => matches!(v, SValue::None).then(|| "value is null".to_string()),
            Check::OneOf(items) => {
                let ok = items.iter().any(|i| equals(i, v).unwrap_or(false));
                (!ok).then(|| "not one of allowed values".to_string())
            }
            Check::OneNotNull(keys) => {
                let Some((children, _g)) = iterate(v) else {
                    return Some(format!("value of type {} has no children", v.type_name()));
                };
                let mut set = Vec::new();
                for k in &children {
                    if let Some(ks) = keys
                        && !ks.iter().any(|x| equals(x, k).unwrap_or(false))
                    {
                        continue;
                    }
                    let child = match v {
                        SValue::Host(h) => h.index(k).ok(),
                        SValue::Dict(d) => d.get(k).ok().flatten(),
                        _ => None,
                    };
                    if child.is_some_and(|c| !matches!(c, SValue::None)) {
                        set.push(crate::ytt::starlark::to_str(k));
                    }
                }
                match set.len() {
                    1 => None,
                    0 => Some("all values are null".into()),
                    _ => Some(format!("multiple values are not null [{}]", set.join(", "))),
                }
            }
            Check::Custom(f) => match thread.call(f, Args::new(vec![v.clone()])) {
                Ok(SValue::Bool(true)) => None,
                Ok(_) => Some(String::new()),
                Err(e) => Some(
                    e.msg
                        .trim_start_matches("fail: ")
                        .trim_start_matches("check: ")
                        .to_string(),
                ),
            },
        }
    }
}
