//! Walking documents with kbld search rules (`search/*.go`): every string leaf is offered to
//! the rules in order; the first rule whose key matcher (key name anywhere, or exact path)
//! and value matcher accept it decides what happens: nothing (`none`), the whole string is
//! a reference (`entireValue`), or the string is a JSON or YAML document searched in turn.

use std::fmt;

use crate::lock::config::{KeyMatcher, PathPart, SearchRule, Strategy};
use crate::lock::kyaml::to_kbld_yaml;
use crate::yaml::Value;

/// One step of the path to a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path printed as `spec.containers[0].image`.
pub struct PathDisplay<'a>(pub &'a [Seg]);

impl fmt::Display for PathDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// What the walk reports.
pub trait Visitor {
    /// A reference found by a rule; returning `Some(new)` replaces it in the document.
    fn reference(&mut self, path: &[Seg], value: &str) -> Option<String>;
    /// A string leaf no rule matched.
    fn unmatched(&mut self, _path: &[Seg], _value: &str) {}
}

/// Walks `doc` with `rules`, reporting to `visitor` and applying its replacements.
pub fn walk(doc: &mut Value, rules: &[SearchRule], visitor: &mut dyn Visitor) {
    let mut path = Vec::new();
    walk_in(doc, rules, visitor, &mut path);
}

fn walk_in(node: &mut Value, rules: &[SearchRule], visitor: &mut dyn Visitor, path: &mut Vec<Seg>) {
    match node {
        Value::Map(items) => {
            for (k, v) in items.iter_mut() {
                path.push(Seg::Key(key_text(k)));
                walk_in(v, rules, visitor, path);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                path.push(Seg::Index(i));
                walk_in(v, rules, visitor, path);
                path.pop();
            }
        }
        Value::String(s) => {
            if let Some(new) = leaf(s, rules, visitor, path) {
                *s = new;
            }
        }
        _ => {}
    }
}

fn key_text(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        other => other.to_display_string(),
    }
}

fn rule_matches(rule: &SearchRule, path: &[Seg], value: &str) -> bool {
    let key_ok = match &rule.key {
        None => true,
        Some(KeyMatcher::Name(name)) => matches!(path.last(), Some(Seg::Key(k)) if k == name),
        Some(KeyMatcher::Path(parts)) => {
            parts.len() == path.len()
                && parts.iter().zip(path).all(|(p, s)| match (p, s) {
                    (PathPart::Key(a), Seg::Key(b)) => a == b,
                    (PathPart::AllIndexes, Seg::Index(_)) => true,
                    (PathPart::Index(a), Seg::Index(b)) => a == b,
                    _ => false,
                })
        }
    };
    key_ok && rule.value.as_ref().is_none_or(|m| m.matches(value))
}

fn leaf(
    value: &str,
    rules: &[SearchRule],
    visitor: &mut dyn Visitor,
    path: &[Seg],
) -> Option<String> {
    let Some(rule) = rules.iter().find(|r| rule_matches(r, path, value)) else {
        visitor.unmatched(path, value);
        return None;
    };
    match &rule.strategy {
        Strategy::None => None,
        Strategy::EntireValue => visitor.reference(path, value),
        Strategy::Json(inner) => {
            let parsed: serde_json::Value = serde_json::from_str(value).ok()?;
            let mut doc = from_json(&parsed);
            let mut sub = Nested {
                visitor,
                changed: false,
                prefix: path,
            };
            walk(&mut doc, inner, &mut sub);
            sub.changed
                .then(|| serde_json::to_string(&to_json(&doc)).unwrap_or_default())
        }
        Strategy::Yaml(inner) => {
            let set = crate::yaml::parse_document_set(value, "embedded YAML").ok()?;
            let mut doc = set.printable_values().into_iter().next()?;
            let mut sub = Nested {
                visitor,
                changed: false,
                prefix: path,
            };
            walk(&mut doc, inner, &mut sub);
            if sub.changed {
                to_kbld_yaml(&doc).ok()
            } else {
                None
            }
        }
    }
}

/// Forwards what a search inside an embedded document finds, with the outer path in front.
struct Nested<'a> {
    visitor: &'a mut dyn Visitor,
    changed: bool,
    prefix: &'a [Seg],
}

impl Visitor for Nested<'_> {
    fn reference(&mut self, path: &[Seg], value: &str) -> Option<String> {
        let full: Vec<Seg> = self.prefix.iter().chain(path).cloned().collect();
        let out = self.visitor.reference(&full, value);
        self.changed |= out.is_some();
        out
    }
}

fn from_json(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i128::from(i)),
            None => match n.as_u64() {
                Some(u) => Value::Int(i128::from(u)),
                None => Value::Float(n.as_f64().unwrap_or(0.0)),
            },
        },
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(a) => Value::Array(a.iter().map(from_json).collect()),
        serde_json::Value::Object(o) => Value::Map(
            o.iter()
                .map(|(k, v)| (Value::String(k.clone()), from_json(v)))
                .collect(),
        ),
    }
}

/// Back to JSON as Go's `json.Marshal` of a generic map writes it: keys sorted.
fn to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Int(i) => i64::try_from(*i)
            .map(serde_json::Value::from)
            .unwrap_or_else(|_| serde_json::Value::from(*i as f64)),
        Value::Float(f) => serde_json::Value::from(*f),
        Value::String(s) => serde_json::Value::String(s.clone()),
        Value::Array(a) => serde_json::Value::Array(a.iter().map(to_json).collect()),
        Value::Map(items) => {
            let mut sorted: Vec<(String, serde_json::Value)> = items
                .iter()
                .map(|(k, v)| (key_text(k), to_json(v)))
                .collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(sorted.into_iter().collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::config::{Conf, ImageRef};

    struct Collect(Vec<(String, String)>, Vec<String>);
    impl Visitor for Collect {
        fn reference(&mut self, path: &[Seg], value: &str) -> Option<String> {
            self.0
                .push((PathDisplay(path).to_string(), value.to_string()));
            Some(format!("{value}!"))
        }
        fn unmatched(&mut self, path: &[Seg], _value: &str) {
            self.1.push(PathDisplay(path).to_string());
        }
    }

    fn doc(text: &str) -> Value {
        crate::yaml::parse_document_set(text, "t.yml")
            .unwrap()
            .printable_values()
            .remove(0)
    }

    #[test]
    fn default_rule_finds_image_keys_at_any_depth() {
        let mut d = doc(
            "spec:\n  containers:\n  - image: a:1\n    name: x\n  fetch:\n  - imgpkgBundle:\n      image: b:1\n  image: {image: c:1}\n  data:\n    image: 3\n",
        );
        let mut c = Collect(vec![], vec![]);
        walk(&mut d, &Conf::default().search_rules(), &mut c);
        assert_eq!(
            c.0,
            vec![
                ("spec.containers[0].image".to_string(), "a:1".to_string()),
                (
                    "spec.fetch[0].imgpkgBundle.image".to_string(),
                    "b:1".to_string()
                ),
                ("spec.image.image".to_string(), "c:1".to_string()),
            ]
        );
        assert_eq!(c.1, vec!["spec.containers[0].name".to_string()]);
        assert_eq!(
            d.get_str("spec").unwrap().get_str("containers").unwrap(),
            &doc("- image: a:1!\n  name: x\n")
        );
    }

    #[test]
    fn custom_rules_path_value_none_and_json() {
        let rules = vec![
            SearchRule {
                key: Some(KeyMatcher::Path(vec![
                    PathPart::Key("spec".into()),
                    PathPart::Key("images".into()),
                    PathPart::AllIndexes,
                ])),
                value: None,
                strategy: Strategy::EntireValue,
                raw: Value::Null,
            },
            SearchRule {
                key: None,
                value: Some(ImageRef::Image("skip:me".into())),
                strategy: Strategy::None,
                raw: Value::Null,
            },
            SearchRule {
                key: Some(KeyMatcher::Name("cfg".into())),
                value: None,
                strategy: Strategy::Json(vec![SearchRule::for_key("img")]),
                raw: Value::Null,
            },
            SearchRule::for_key("image"),
        ];
        let mut d = doc(
            "spec:\n  images: [x:1, y:2]\n  image: skip:me\n  cfg: '{\"z\":1,\"img\":\"j:1\"}'\n",
        );
        let mut c = Collect(vec![], vec![]);
        walk(&mut d, &rules, &mut c);
        let found: Vec<&str> = c.0.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(found, vec!["x:1", "y:2", "j:1"]);
        assert_eq!(c.0[2].0, "spec.cfg.img");
        let spec = d.get_str("spec").unwrap();
        assert_eq!(spec.get_str("image"), Some(&Value::str("skip:me")));
        assert_eq!(
            spec.get_str("cfg"),
            Some(&Value::str("{\"img\":\"j:1!\",\"z\":1}"))
        );
    }
}
