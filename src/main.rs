//! The `strake` binary: parses the command line and hands it to [`strake::cli`].

/// Small blocks from a huge-page arena, the rest from the system allocator; see
/// [`strake::allocator`].
#[global_allocator]
static ALLOCATOR: strake::allocator::ClassArena =
    strake::allocator::ClassArena::new(strake::allocator::DEFAULT_RESERVE);

fn main() -> std::process::ExitCode {
    text_pages_on_demand();
    strake::cli::main()
}

/// Asks the kernel to map the program's code page by page as it runs, instead of
/// 16 pages around every fault (fault-around): a run touches a small part of the
/// large binary, and the neighbours it never executes would otherwise count in its
/// resident memory.
#[cfg(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu"))]
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

#[cfg(not(all(target_os = "linux", target_arch = "x86_64", target_env = "gnu")))]
fn text_pages_on_demand() {}
