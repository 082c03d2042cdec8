//! The CPUs this process may use besides the calling thread's: the template parse-ahead
//! helpers are pinned to them, and the binary starts its heap prefault helper (unpinned)
//! only when there are any.

/// The CPUs this process may run on other than the calling thread's own.
///
/// Helpers are pinned to them. Left to itself, the scheduler of this project's VMs
/// sometimes starts a new thread on the CPU of the thread that made it, and moves it
/// only milliseconds later: the helper then takes turns with the main thread instead of
/// running beside it, and a render gets slower, not faster.
#[cfg(target_os = "linux")]
pub struct OtherCpus(libc::cpu_set_t);

/// The other CPUs, or `None` when the process may run on one CPU only.
#[cfg(target_os = "linux")]
pub fn other_cpus() -> Option<OtherCpus> {
    // SAFETY: `set` is a plain bit set that both calls fill in or read.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let own = libc::sched_getcpu();
        if own >= 0 {
            libc::CPU_CLR(own as usize, &mut set);
        }
        (libc::CPU_COUNT(&set) > 0).then_some(OtherCpus(set))
    }
}

#[cfg(target_os = "linux")]
impl OtherCpus {
    pub fn count(&self) -> usize {
        // SAFETY: reads the bit set.
        unsafe { libc::CPU_COUNT(&self.0) as usize }
    }

    /// Restricts a helper to these CPUs (best effort: a failure leaves it unpinned).
    pub fn pin(&self, helper: &std::thread::JoinHandle<()>) {
        use std::os::unix::thread::JoinHandleExt;
        // SAFETY: the thread is alive or exiting (its handle is held), and the set is a
        // valid `cpu_set_t` of the size given.
        unsafe {
            libc::pthread_setaffinity_np(
                helper.as_pthread_t(),
                std::mem::size_of::<libc::cpu_set_t>(),
                &self.0,
            );
        }
    }
}

/// Elsewhere: the other cores, unpinned.
#[cfg(not(target_os = "linux"))]
pub struct OtherCpus(usize);

/// The other cores' count, or `None` on a single core.
#[cfg(not(target_os = "linux"))]
pub fn other_cpus() -> Option<OtherCpus> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores > 1).then_some(OtherCpus(cores - 1))
}

#[cfg(not(target_os = "linux"))]
impl OtherCpus {
    pub fn count(&self) -> usize {
        self.0
    }

    pub fn pin(&self, _helper: &std::thread::JoinHandle<()>) {}
}
