//! The hash maps of the interpreter's name tables: module globals, predeclared names,
//! built-ins, the resolver's scopes and the template builder's node tables. Their keys are
//! short identifiers and small integers, looked up once per name use, where std's SipHash
//! costs more than the lookup itself, so they use rustc's Fx hash (`rustc-hash`). Not for
//! maps keyed by untrusted bulk input where collisions could be forced (Starlark dicts
//! keep their own hashing).

/// A `HashMap` with the Fx hash.
pub type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// A `HashSet` with the Fx hash.
pub type FastSet<K> = rustc_hash::FxHashSet<K>;
