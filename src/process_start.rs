//! Process start-up of the `strake` binary on Linux/glibc/x86-64, which defines the C
//! `main` itself (see `main.rs`). Rust's runtime start-up does three things before
//! `main` that a CLI relies on, and they are done here:
//! - standard descriptors 0–2 that are closed are opened on `/dev/null`, so a file
//!   opened later never becomes "stdout" by accident;
//! - `SIGPIPE` is ignored, so writing to a closed pipe is an error the command handles
//!   (`strake template | head` exits 1 quietly) rather than a kill;
//! - a stack overflow on the main thread is reported on stderr instead of as a bare
//!   segmentation fault. Rust's runtime finds the main thread's guard page by reading
//!   `/proc/self/maps` (glibc's `pthread_getattr_np`) and maps a signal stack: that is
//!   most of its 45 µs. Here the signal stack is a static buffer (untouched, so free,
//!   unless a signal arrives), and the handler tells an overflow from other faults by
//!   the faulting address: an overflow faults within a few pages of the stack pointer.
//!
//! Threads that strake spawns get no signal stack; an overflow there ends the process
//! with the default segmentation fault.
//!
//! The C `main` itself is here too, with the start-up work of strake's own: code paging
//! advice and the choice of how the heap starts (see [`start_heap`]).

use std::cell::UnsafeCell;

/// The C entry point: prepares the process as Rust's runtime would, runs the command,
/// and exits with its code, flushing stdout. A panic has printed its message through
/// the panic hook already and exits with 101, as it would from a Rust `main`.
#[unsafe(no_mangle)]
extern "C" fn main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
    prepare();
    text_pages_on_demand();
    // SAFETY: the C runtime passes `argc` valid NUL-terminated strings (the program
    // name first), which live as long as the process.
    let args = (1..usize::try_from(argc).unwrap_or(0))
        .map(|i| unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) }.to_bytes());
    start_heap(strake::cli::renders_templates(args));
    let status = match std::panic::catch_unwind(strake::cli::main) {
        Ok(code) => exit_status(code),
        Err(_) => 101,
    };
    // Runs Rust's exit-time cleanup (flushing stdout) before exiting.
    std::process::exit(status)
}

/// Chooses how the heap starts, before its first allocation.
///
/// A template render (`renders`) gets huge pages, and a helper thread faults in the
/// allocator's first huge page while this thread starts up in the arena's small-page
/// prefix (see [`strake::allocator`]): the kernel zeroes the 2 MiB page on another core
/// instead of in the middle of this thread's work. With the helper, renders took
/// 0.79–0.83 of the time they took without it (`scripts/bench-ab`), and 0.75 of the time
/// they took on small pages. The helper is skipped when the process may run on one CPU
/// only (no [`strake::other_cpus`]), where it would only take turns with this thread. It
/// is not pinned to the other CPUs as the template parse-ahead helpers are: pinned, it
/// shares their CPU, and renders took 1.13–1.18 times as long.
///
/// Every other command keeps the heap on 4 KiB pages. A schema export, which allocates
/// about 500 KiB, took 0.94–0.95 of the time that way, and `strake version` 0.80
/// (alternating runs of one binary, 10 × 20 each); the schema export's peak RSS dropped
/// from 6.3 to 4.7 MiB. The registry and bundle commands run for much longer than a
/// page fault takes, and their large buffers come from the system allocator anyway.
fn start_heap(renders: bool) {
    if !renders {
        crate::ALLOCATOR.use_small_pages();
        return;
    }
    if strake::other_cpus::other_cpus().is_none() {
        return;
    }
    // A failed spawn leaves the page to be faulted in on first use, as without the helper.
    let _ = std::thread::Builder::new()
        .stack_size(64 << 10)
        .spawn(|| crate::ALLOCATOR.prefault_huge_page());
}

/// The exit status an `ExitCode` stands for. std has no stable accessor for it
/// (`ExitCode::exit_process` is unstable), but two codes compare equal exactly when
/// their statuses do, and strake's commands use a handful of small values.
fn exit_status(code: std::process::ExitCode) -> libc::c_int {
    (0..=u8::MAX)
        .find(|&n| std::process::ExitCode::from(n) == code)
        .map_or(1, libc::c_int::from)
}

/// Advises the kernel that the program's code is read at random, so that it maps it
/// page by page rather than 16 pages around every fault (fault-around): a run touches a
/// small part of the large binary. Kernel 6.18, on this project's VMs, keeps faulting
/// around all the same (the same page faults and RSS with and without the advice,
/// measured in the eighth and ninth sessions); scripts/dist's code order keeps the
/// executed code together instead. The advice costs one system call.
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

/// Runs the start-up steps; call first thing in `main`.
fn prepare() {
    open_missing_standard_descriptors();
    // SAFETY: installing SIG_IGN for SIGPIPE has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    report_stack_overflows();
}

/// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is not open.
fn open_missing_standard_descriptors() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: `fds` is a valid array of three pollfd; a zero timeout returns at once.
    let polled = unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) };
    for pfd in &fds {
        let closed = if polled >= 0 {
            pfd.revents & libc::POLLNVAL != 0
        } else {
            // poll can fail in restricted sandboxes; ask each descriptor instead.
            // SAFETY: F_GETFD only queries the descriptor.
            unsafe { libc::fcntl(pfd.fd, libc::F_GETFD) == -1 }
        };
        // SAFETY: opening /dev/null takes the lowest free descriptor, which is `pfd.fd`
        // as the lower ones are open by now.
        if closed && unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) } == -1 {
            // Without /dev/null there is nothing sensible to run with.
            std::process::abort();
        }
    }
}

/// Bytes of the signal stack the fault handler runs on: the handler itself needs little,
/// the kernel's signal frame (with the AVX-512 state) a few KiB.
const SIGNAL_STACK_BYTES: usize = 64 << 10;

/// How far from the stack pointer a fault counts as a stack overflow. Functions with
/// large frames probe their stack page by page, so an overflow faults within a page or
/// two of the stack pointer; 64 KiB leaves room for unprobed small frames.
const OVERFLOW_WINDOW: usize = 64 << 10;

/// The main thread's signal stack. Only the kernel writes to it, when it delivers a
/// signal. Page-aligned, as the kernel's signal frame wants 64-byte alignment at least.
#[repr(align(4096))]
struct SignalStack(UnsafeCell<[u8; SIGNAL_STACK_BYTES]>);

// SAFETY: the buffer is never read or written by Rust code; it is handed to the kernel.
unsafe impl Sync for SignalStack {}

static SIGNAL_STACK: SignalStack = SignalStack(UnsafeCell::new([0; SIGNAL_STACK_BYTES]));

/// Installs [`on_fault`] for SIGSEGV and SIGBUS on the main thread's signal stack.
fn report_stack_overflows() {
    let stack = libc::stack_t {
        ss_sp: SIGNAL_STACK.0.get().cast(),
        ss_flags: 0,
        ss_size: SIGNAL_STACK_BYTES,
    };
    // SAFETY: the stack is a static buffer that lives as long as the process; the
    // sigaction struct is fully initialised (zeroed, then the fields we use).
    unsafe {
        if libc::sigaltstack(&stack, std::ptr::null_mut()) != 0 {
            return;
        }
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_fault as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGSEGV, &action, std::ptr::null_mut());
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// The fault handler: reports a stack overflow and aborts, as Rust's runtime does; any
/// other fault gets the default action back and happens again when the handler returns.
/// Async-signal-safe: it calls only `write`, `abort` and `signal`.
extern "C" fn on_fault(
    signal: libc::c_int,
    info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    // SAFETY: the kernel passes a valid siginfo and ucontext to an SA_SIGINFO handler.
    let (address, stack_pointer) = unsafe {
        let context = &*(context as *const libc::ucontext_t);
        (
            (*info).si_addr() as usize,
            context.uc_mcontext.gregs[libc::REG_RSP as usize] as usize,
        )
    };
    if address.abs_diff(stack_pointer) <= OVERFLOW_WINDOW {
        let message = b"strake: fatal: the main thread overflowed its stack (input nested too deeply), aborting\n";
        // SAFETY: write and abort are async-signal-safe; the message is a static buffer.
        unsafe {
            libc::write(2, message.as_ptr().cast(), message.len());
            libc::abort();
        }
    }
    // SAFETY: restoring the default action is async-signal-safe.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
    }
}
