//! Deeply nested values: the depth that recursive walks of a value (printing, ordering,
//! hashing, conversion to YAML) may reach, so that a value a loop nested a million levels
//! deep is refused with an error instead of overflowing the stack (dropping such a value
//! is in `flat_drop.rs`).

/// Levels of nested lists, tuples, dicts and structs that a walk of a value goes down
/// before it fails (or, for `str`/`repr`, prints `...`). starlark-go recurses without a
/// bound (Go stacks grow to 1 GB; ytt then dies); YAML input stops at
/// [`crate::yaml::MAX_NESTING`] levels, so this leaves room for data nested inside a
/// template and still fits the smallest stack a render runs on.
pub const MAX_VALUE_DEPTH: usize = 1000;

thread_local! {
    static LEVEL: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of a walk that host values re-enter (printing a struct prints its fields
/// with a new call): the depth is kept per OS thread. `None` past [`MAX_VALUE_DEPTH`].
pub struct Level(());

impl Level {
    pub fn enter() -> Option<Level> {
        LEVEL.with(|l| {
            let depth = l.get();
            if depth >= MAX_VALUE_DEPTH {
                return None;
            }
            l.set(depth + 1);
            Some(Level(()))
        })
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        LEVEL.with(|l| l.set(l.get() - 1));
    }
}
