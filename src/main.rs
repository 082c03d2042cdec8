//! The `strake` binary: parses the command line and hands it to [`strake::cli`].
//!
//! On Linux with glibc on x86-64 the binary defines the C `main` itself, in
//! `process_start.rs`, instead of letting Rust's runtime start it: Rust's start-up reads
//! `/proc/self/maps` and maps a signal stack, about 45 µs of every run, which is 3% of a
//! schema export. What that start-up does for us is done there at a fraction of the cost.
//! (`cargo test` builds this file with its own test harness as `main`, so the C `main` is
//! left out of test builds.) Elsewhere Rust's `main` below runs the command.

#![cfg_attr(
    all(
        target_os = "linux",
        target_arch = "x86_64",
        target_env = "gnu",
        not(test)
    ),
    no_main
)]

#[cfg(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
))]
mod process_start;

/// Small blocks from a huge-page arena, the rest from the system allocator; see
/// [`strake::allocator`].
#[global_allocator]
static ALLOCATOR: strake::allocator::ClassArena =
    strake::allocator::ClassArena::new(strake::allocator::DEFAULT_RESERVE);

#[cfg(not(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
)))]
fn main() -> std::process::ExitCode {
    strake::cli::main()
}
