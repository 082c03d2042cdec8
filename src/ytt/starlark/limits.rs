//! The bounds of one evaluation, set per OS thread: the steps (loop iterations and
//! calls) a [`Thread`](super::eval::Thread) may make and its call depth, with the
//! record of a call refused at that depth (a host on a larger stack may then evaluate
//! again with a higher limit).

/// Loop iterations and function calls one [`Thread`](super::eval::Thread) may make: a template that loops
/// forever (`while True:`) is stopped with an error at the loop instead of hanging.
/// starlark-go can count steps (`Thread.SetMaxExecutionSteps`) but ytt sets no limit; this
/// one is far above what real renders use (a 3 MB installer with hundreds of documents
/// takes about 40,000 steps, see `benches/ytt-installer`) and is reached in about five
/// seconds by a tight loop (`while True: i += 1`) in an optimised build.
pub const DEFAULT_MAX_STEPS: u64 = 50_000_000;

thread_local! {
    /// The step limit that [`Thread::new`](super::eval::Thread::new) gives threads made on this OS thread.
    pub(super) static MAX_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(DEFAULT_MAX_STEPS) };
}

/// Runs `f` with `max_steps` as the step limit of every [`Thread`](super::eval::Thread) it makes on this OS
/// thread (a render makes one per template file), then restores the previous limit. For
/// callers and tests that want a tighter bound than [`DEFAULT_MAX_STEPS`].
pub fn with_max_steps<R>(max_steps: u64, f: impl FnOnce() -> R) -> R {
    struct Restore(u64);
    impl Drop for Restore {
        fn drop(&mut self) {
            MAX_STEPS.with(|m| m.set(self.0));
        }
    }
    let _restore = Restore(MAX_STEPS.with(|m| m.replace(max_steps)));
    f()
}

/// The call depth [`Thread::new`](super::eval::Thread::new) allows by default: it fits a 2 MiB thread stack in
/// debug builds (about 6 KiB per call).
pub const DEFAULT_MAX_DEPTH: usize = 250;

thread_local! {
    /// The call depth limit that [`Thread::new`](super::eval::Thread::new) gives threads made on this OS thread.
    pub(super) static MAX_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(DEFAULT_MAX_DEPTH) };
    /// Set when a call on this OS thread was refused at the depth limit.
    static DEPTH_LIMIT_HIT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Notes that a call on this OS thread was refused at its depth limit.
pub(crate) fn note_depth_limit_hit() {
    DEPTH_LIMIT_HIT.with(|h| h.set(true));
}

/// Whether a call on this OS thread was refused at the depth limit since the last call
/// (even when the error was caught, as `assert.try_to` does): a host that can run
/// deeper may then evaluate again with a higher limit.
pub fn take_depth_limit_hit() -> bool {
    DEPTH_LIMIT_HIT.with(|h| h.replace(false))
}

/// Runs `f` with `max_depth` as the call depth limit of every [`Thread`](super::eval::Thread) it makes on this
/// OS thread, then restores the previous limit. For hosts that run on a stack large
/// enough for deeper recursion than [`DEFAULT_MAX_DEPTH`].
pub fn with_max_depth<R>(max_depth: usize, f: impl FnOnce() -> R) -> R {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            MAX_DEPTH.with(|m| m.set(self.0));
        }
    }
    let _restore = Restore(MAX_DEPTH.with(|m| m.replace(max_depth)));
    f()
}
