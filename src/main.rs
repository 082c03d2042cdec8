//! The `strake` binary: parses the command line and hands it to [`strake::cli`].
//!
//! On Linux with glibc on x86-64 the binary defines the C `main` itself instead of
//! letting Rust's runtime start it (see [`process_start`]): Rust's start-up reads
//! `/proc/self/maps` and maps a signal stack, about 45 µs of every run, which is 3% of a
//! schema export. What that start-up does for us is done here at a fraction of the cost.
//! (`cargo test` builds this file with its own test harness as `main`, so the C `main` is
//! left out of test builds.)

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

/// The C entry point: prepares the process as Rust's runtime would, runs the command,
/// and exits with its code, flushing stdout. A panic has printed its message through
/// the panic hook already and exits with 101, as it would from a Rust `main`.
#[cfg(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    process_start::prepare();
    text_pages_on_demand();
    prefault_heap_in_background();
    let status = match std::panic::catch_unwind(strake::cli::main) {
        Ok(code) => exit_status(code),
        Err(_) => 101,
    };
    // Runs Rust's exit-time cleanup (flushing stdout) before exiting.
    std::process::exit(status)
}

/// Has a helper thread fault in the allocator's first huge page while this thread starts
/// up in the arena's small-page prefix (see [`strake::allocator`]): the kernel zeroes
/// the 2 MiB page on another core instead of in the middle of this thread's work.
/// `scripts/bench-ab`, PGO dist builds with and without it: renders 0.79–0.83 of the
/// time; schema exports 1.00 (they reach the huge pages about when the helper has
/// started). Skipped when the process may use a single CPU, where the helper would only
/// take turns with this thread.
#[cfg(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
))]
fn prefault_heap_in_background() {
    if process_start::usable_cpus() < 2 {
        return;
    }
    // A failed spawn leaves the page to be faulted in on first use, as without the helper.
    let _ = std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(|| ALLOCATOR.prefault_huge_page());
}

/// The exit status an `ExitCode` stands for. std has no stable accessor for it
/// (`ExitCode::exit_process` is unstable), but two codes compare equal exactly when
/// their statuses do, and strake's commands use a handful of small values.
#[cfg(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
))]
fn exit_status(code: std::process::ExitCode) -> libc::c_int {
    (0..=u8::MAX)
        .find(|&n| std::process::ExitCode::from(n) == code)
        .map_or(1, libc::c_int::from)
}

#[cfg(not(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
)))]
fn main() -> std::process::ExitCode {
    strake::cli::main()
}

/// Asks the kernel to map the program's code page by page as it runs, instead of
/// 16 pages around every fault (fault-around): a run touches a small part of the
/// large binary, and the neighbours it never executes would otherwise count in its
/// resident memory.
#[cfg(all(
    target_os = "linux",
    target_arch = "x86_64",
    target_env = "gnu",
    not(test)
))]
fn text_pages_on_demand() {
    unsafe extern "C" {
        static __executable_start: u8;
        static etext: u8;
    }
    // SAFETY: both symbols are defined by the linker for every executable; only their
    // addresses are taken. madvise only changes paging advice for our own mapping.
    unsafe {
        let page = 4096usize;
        let start = (&raw const __executable_start) as usize & !(page - 1);
        let end = (&raw const etext) as usize;
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_RANDOM);
    }
}
