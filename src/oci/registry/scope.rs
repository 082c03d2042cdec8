//! Token scopes (`repository:<name>:<actions>`) and the covering test that lets a
//! cached `push,pull` token serve a later `pull` request.

use std::collections::BTreeSet;
use std::fmt;

/// One scope: a resource (`repository:library/nginx`) and its actions.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Scope {
    pub resource: String,
    pub actions: BTreeSet<String>,
}

impl Scope {
    /// `repository:<repo>:pull`
    pub fn pull(repository: &str) -> Scope {
        Scope::new(repository, &["pull"])
    }

    /// `repository:<repo>:push,pull`
    pub fn push(repository: &str) -> Scope {
        Scope::new(repository, &["push", "pull"])
    }

    fn new(repository: &str, actions: &[&str]) -> Scope {
        Scope {
            resource: format!("repository:{repository}"),
            actions: actions.iter().map(|a| a.to_string()).collect(),
        }
    }

    /// Parses `type:name:actions`; `None` when malformed.
    pub fn parse(text: &str) -> Option<Scope> {
        let (resource, actions) = text.rsplit_once(':')?;
        if !resource.contains(':') {
            return None;
        }
        Some(Scope {
            resource: resource.to_string(),
            actions: actions
                .split(',')
                .filter(|a| !a.is_empty())
                .map(str::to_string)
                .collect(),
        })
    }

    /// True when a token for `self` also grants `other`.
    pub fn covers(&self, other: &Scope) -> bool {
        self.resource == other.resource
            && (self.actions.contains("*") || other.actions.is_subset(&self.actions))
    }
}

/// Prints as registries expect; `push` first as ggcr and docker write it.
impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut actions: Vec<&str> = self.actions.iter().map(String::as_str).collect();
        actions.sort_by_key(|a| (*a != "push", *a));
        write!(f, "{}:{}", self.resource, actions.join(","))
    }
}

/// Merges `extra` into `scopes`: actions on a resource already present are unioned.
pub fn merge(scopes: &mut Vec<Scope>, extra: &[Scope]) {
    for e in extra {
        match scopes.iter_mut().find(|s| s.resource == e.resource) {
            Some(s) => s.actions.extend(e.actions.iter().cloned()),
            None => scopes.push(e.clone()),
        }
    }
    scopes.sort();
}

/// True when every scope in `wanted` is covered by one in `held`.
pub fn all_covered(held: &[Scope], wanted: &[Scope]) -> bool {
    wanted.iter().all(|w| held.iter().any(|h| h.covers(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        assert_eq!(Scope::push("a/b").to_string(), "repository:a/b:push,pull");
        assert_eq!(Scope::pull("a/b").to_string(), "repository:a/b:pull");
        let s = Scope::parse("repository:a/b:pull,push").unwrap();
        assert_eq!(s, Scope::push("a/b"));
        assert!(Scope::parse("nonsense").is_none());
    }

    #[test]
    fn push_covers_pull_not_the_reverse() {
        assert!(Scope::push("a/b").covers(&Scope::pull("a/b")));
        assert!(!Scope::pull("a/b").covers(&Scope::push("a/b")));
        assert!(!Scope::push("a/b").covers(&Scope::pull("a/c")));
        let star = Scope::parse("repository:a/b:*").unwrap();
        assert!(star.covers(&Scope::push("a/b")));
    }

    #[test]
    fn merging_unions_actions() {
        let mut s = vec![Scope::pull("a/b")];
        merge(&mut s, &[Scope::push("a/b"), Scope::pull("c/d")]);
        assert_eq!(s, vec![Scope::push("a/b"), Scope::pull("c/d")]);
        assert!(all_covered(&s, &[Scope::pull("c/d"), Scope::pull("a/b")]));
        assert!(!all_covered(&s, &[Scope::push("c/d")]));
    }
}
