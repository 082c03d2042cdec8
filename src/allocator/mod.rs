//! The memory allocator of the `strake` binary: small blocks come from size classes
//! in one reserved arena that the kernel backs with 2 MiB pages; large or over-aligned
//! blocks come from the system allocator.
//!
//! Why: a `strake template` run makes tens of thousands of small allocations. glibc's
//! malloc spends about 150 instructions on each allocation or free (a fifth of a render,
//! measured with callgrind). Every 4 KiB page of heap that it touches for the first time
//! also costs a page fault. On this project's VMs a page fault costs about 5 µs, and a
//! render made about 300 of them.
//! Here a small allocation pops a free list or bumps a pointer. The arena is advised as
//! huge-page memory (`MADV_HUGEPAGE`, which Linux honours in its default THP "madvise"
//! mode), so a render faults in a few 2 MiB pages instead of hundreds of small ones.
//!
//! Shape:
//! - 44 size classes: 16-byte steps up to 256 bytes, then four classes per power of two
//!   up to 32 KiB, so no block wastes more than a fifth of itself.
//! - Each thread keeps its own free lists for blocks up to 4 KiB, and carves new ones from
//!   a 256 KiB chunk of the arena that it owns. No lock and no shared cache line is
//!   touched on that path, so the threads that parse templates in parallel do not slow
//!   each other down. A block freed on another thread joins that thread's lists.
//! - Larger blocks, refills, and the lists of threads that have exited are shared under
//!   one spin lock. When a thread exits, a `pthread` key destructor hands its lists and
//!   the rest of its chunk to the shared pool.
//! - A freed block serves the next request of its class. The arena never returns memory
//!   to the kernel, so its footprint is the sum of each class's peak. That suits a
//!   command-line run.
//! - The system allocator takes blocks over 32 KiB and blocks aligned to more than
//!   16 bytes. (With classes up to 256 KiB, the blocks that growing buffers leave behind
//!   pushed a render's arena past one 2 MiB page: 2.2 MiB instead of 1.8.) It also takes everything once the arena is used up or could not be
//!   reserved (on other systems, or under a tight address-space limit). Streams of large
//!   buffers therefore keep the bounded memory they have with the system allocator.
//! - `dealloc` tells the two kinds of block apart by address.
//! - The arena starts with a [`SMALL_PAGE_PREFIX`] of ordinary 4 KiB pages; its huge
//!   pages begin after it. A process's first allocations land there, while
//!   [`ClassArena::prefault_huge_page`], run by the binary on a helper thread at start,
//!   has the kernel zero the first 2 MiB page on another core. Zeroing that page took
//!   0.1–0.15 ms of the main thread's time; a render now starts without waiting for it
//!   (a schema export reaches the huge pages too soon to gain).
//! - [`ClassArena::use_small_pages`] keeps the whole arena on 4 KiB pages; the binary
//!   uses it for every command but a template render, as a short run that allocates a
//!   few hundred KiB loses more zeroing a 2 MiB page than it saves in page faults.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Number of size classes.
const CLASSES: usize = 44;
/// Classes served from per-thread lists: blocks of up to 4 KiB.
const LOCAL_CLASSES: usize = 32;
/// Largest request served from the arena, in bytes.
pub const MAX_SMALL: usize = 32 << 10;
/// Alignment every arena block has (class sizes are multiples of 16 and chunks start on
/// 16-byte boundaries).
const BLOCK_ALIGN: usize = 16;
/// Bytes a thread takes from the arena at a time for its small blocks.
const CHUNK: usize = 256 << 10;
/// Blocks a thread takes at once from a shared list when its own is empty.
const REFILL_BATCH: usize = 64;
/// The page size the arena asks for, and the alignment of its start.
const HUGE_PAGE: usize = 2 << 20;
/// Bytes of ordinary pages at the start of the arena, before its first huge page: room
/// for the main thread's first allocations while [`ClassArena::prefault_huge_page`]
/// runs. 128 KiB measured a little better than 256 KiB and clearly better than 512 KiB
/// (whose 4 KiB page faults cost more than the overlap saves).
const SMALL_PAGE_PREFIX: usize = 128 << 10;
/// Address space the global allocator reserves: only what is touched becomes memory.
pub const DEFAULT_RESERVE: usize = 1 << 30;

/// The class that serves a request of `size` bytes (`size <= MAX_SMALL`).
#[inline]
fn class_of(size: usize) -> usize {
    if size <= 256 {
        size.max(1).div_ceil(16) - 1
    } else {
        let s = size - 1;
        let log2 = (usize::BITS - 1 - s.leading_zeros()) as usize;
        16 + (log2 - 8) * 4 + ((s >> (log2 - 2)) & 3)
    }
}

/// The block size of a class.
#[inline]
fn class_size(class: usize) -> usize {
    if class < 16 {
        (class + 1) * 16
    } else {
        let k = class - 16;
        (5 + k % 4) << (6 + k / 4)
    }
}

/// A freed block, linked into a free list of its class.
struct FreeBlock {
    next: *mut FreeBlock,
}

/// Takes the first block off a free list.
#[inline]
fn pop(list: &mut *mut FreeBlock) -> Option<*mut u8> {
    let head = *list;
    if head.is_null() {
        return None;
    }
    // SAFETY: listed blocks are unused arena blocks whose first bytes hold the link
    // written by `push`.
    *list = unsafe { (*head).next };
    Some(head.cast())
}

/// Puts an unused arena block (at least 16 bytes, 16-byte aligned) on a free list.
#[inline]
fn push(list: &mut *mut FreeBlock, block: *mut u8) {
    let block = block.cast::<FreeBlock>();
    // SAFETY: the caller no longer uses the block, which has room for the link.
    unsafe { block.write(FreeBlock { next: *list }) };
    *list = block;
}

/// Unused rest of an exited thread's chunk, kept at the start of that range.
struct SpareChunk {
    next: *mut SpareChunk,
    end: usize,
}

/// Whether the arena has been reserved yet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reservation {
    NotTried,
    Reserved,
    Unavailable,
}

/// What the lock guards.
struct Shared {
    reservation: Reservation,
    /// Next never-used byte of the arena, and its end.
    bump: usize,
    end: usize,
    free: [*mut FreeBlock; CLASSES],
    spare: *mut SpareChunk,
    /// The `pthread` key whose destructor flushes a thread's cache (Linux only).
    #[cfg(target_os = "linux")]
    exit_key: Option<libc::pthread_key_t>,
}

/// A thread's own lists and chunk, for the first arena it allocates from.
struct ThreadCache {
    owner: *const ClassArena,
    /// Set when the thread may not (or may no longer) use a cache: it has exited, or
    /// the arena could not be reserved.
    retired: bool,
    bump: usize,
    end: usize,
    free: [*mut FreeBlock; LOCAL_CLASSES],
}

thread_local! {
    // No destructor (so no registration on first use, which could allocate); the
    // arena's `pthread` key destructor flushes it instead.
    static CACHE: UnsafeCell<ThreadCache> = const {
        UnsafeCell::new(ThreadCache {
            owner: std::ptr::null(),
            retired: false,
            bump: 0,
            end: 0,
            free: [null_mut(); LOCAL_CLASSES],
        })
    };
}

/// A size-class allocator over one reserved arena; see the module documentation.
///
/// A thread's cache belongs to the first arena it allocates from and refers to it until
/// the thread exits, so an arena must outlive every thread that used it (the global
/// allocator is a `static`; tests leak theirs).
pub struct ClassArena {
    /// Bytes of address space to reserve on first use.
    reserve: usize,
    lock: AtomicBool,
    shared: UnsafeCell<Shared>,
    /// Start and length of the arena (0 and 0 until reserved): read without the lock by
    /// `dealloc` and `realloc` to tell arena blocks from system ones.
    base: AtomicUsize,
    len: AtomicUsize,
    /// Whether the arena past its prefix is advised as huge-page memory (the default; see
    /// [`ClassArena::use_small_pages`]).
    huge_pages: AtomicBool,
}

// SAFETY: `shared` is only touched while `lock` is held; `base` and `len` are atomics;
// thread caches are thread-local.
unsafe impl Sync for ClassArena {}

impl ClassArena {
    /// An allocator that reserves `reserve` bytes of address space on first use
    /// (rounded down to whole huge pages).
    pub const fn new(reserve: usize) -> Self {
        ClassArena {
            reserve: reserve / HUGE_PAGE * HUGE_PAGE,
            lock: AtomicBool::new(false),
            shared: UnsafeCell::new(Shared {
                reservation: Reservation::NotTried,
                bump: 0,
                end: 0,
                free: [null_mut(); CLASSES],
                spare: null_mut(),
                #[cfg(target_os = "linux")]
                exit_key: None,
            }),
            base: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            huge_pages: AtomicBool::new(true),
        }
    }

    /// Keeps the whole arena on ordinary 4 KiB pages: no huge-page advice. For a short
    /// process that allocates a few hundred KiB, zeroing a 2 MiB page costs more than the
    /// small page faults it saves (the `strake` binary does this for every command but a
    /// template render; see its `process_start`). Call it before the first allocation;
    /// called later it withdraws the advice for pages not touched yet.
    pub fn use_small_pages(&self) {
        self.huge_pages.store(false, Ordering::Release);
        #[cfg(target_os = "linux")]
        self.locked(|shared| {
            if shared.reservation == Reservation::Reserved {
                let start = self.base.load(Ordering::Acquire);
                // SAFETY: advice on the arena's own mapping; contents are kept.
                unsafe {
                    advise_after_prefix(start, self.reserve, libc::MADV_NOHUGEPAGE);
                }
            }
        });
    }

    /// Whether `ptr` is an arena block.
    #[inline]
    fn owns(&self, ptr: *mut u8) -> bool {
        (ptr as usize).wrapping_sub(self.base.load(Ordering::Acquire))
            < self.len.load(Ordering::Acquire)
    }

    /// Runs `f` on the shared state with the lock held.
    #[inline]
    fn locked<R>(&self, f: impl FnOnce(&mut Shared) -> R) -> R {
        while self
            .lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            let mut spins = 0u32;
            while self.lock.load(Ordering::Relaxed) {
                spins += 1;
                if spins < 128 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
        // SAFETY: the lock is held until the store below, so this is the only reference.
        let result = f(unsafe { &mut *self.shared.get() });
        self.lock.store(false, Ordering::Release);
        result
    }

    /// Runs `f` on this thread's cache if it belongs to this arena (adopting it on the
    /// thread's first allocation); `None` when the thread cannot use a cache here.
    #[inline]
    fn with_cache<R>(&self, f: impl FnOnce(&mut ThreadCache) -> R) -> Option<R> {
        CACHE.with(|cell| {
            // SAFETY: the cache is this thread's own, and no allocator call re-enters.
            let cache = unsafe { &mut *cell.get() };
            if !std::ptr::eq(cache.owner, self)
                && (!cache.owner.is_null() || cache.retired || !self.adopt(cache))
            {
                return None;
            }
            Some(f(cache))
        })
    }

    /// Makes `cache` this arena's, so that the thread's exit flushes it here.
    #[cold]
    fn adopt(&self, cache: &mut ThreadCache) -> bool {
        let key = self.locked(|shared| {
            self.ensure_reserved(shared);
            if shared.reservation != Reservation::Reserved {
                return None;
            }
            exit_key(shared)
        });
        match key {
            Some(key) => {
                cache.owner = self;
                register_exit(key, cache);
                true
            }
            None => {
                cache.retired = true;
                false
            }
        }
    }

    /// A block of `class` from this thread's cache; null when it cannot serve one.
    #[inline]
    fn take_local(&self, class: usize) -> *mut u8 {
        self.with_cache(|cache| {
            if let Some(block) = pop(&mut cache.free[class]) {
                return block;
            }
            let size = class_size(class);
            if cache.end - cache.bump < size {
                if !self.refill(cache, class) {
                    return null_mut();
                }
                // The refill moved shared blocks onto the list, or gave a new chunk.
                if let Some(block) = pop(&mut cache.free[class]) {
                    return block;
                }
            }
            let block = cache.bump;
            cache.bump += size;
            block as *mut u8
        })
        .unwrap_or(null_mut())
    }

    /// Gives an empty list of `class` blocks from the shared list, or a new chunk.
    #[cold]
    fn refill(&self, cache: &mut ThreadCache, class: usize) -> bool {
        self.locked(|shared| {
            let mut head = shared.free[class];
            if !head.is_null() {
                let first = head;
                let mut taken = 1;
                // SAFETY: listed blocks hold valid links.
                unsafe {
                    while taken < REFILL_BATCH && !(*head).next.is_null() {
                        head = (*head).next;
                        taken += 1;
                    }
                    shared.free[class] = (*head).next;
                    (*head).next = cache.free[class];
                }
                cache.free[class] = first;
                return true;
            }
            // The rest of an exited thread's chunk, if any; one too small for this class
            // is given up like the rest of an outgrown chunk.
            let spare = shared.spare;
            if !spare.is_null() {
                // SAFETY: spare chunks hold their header at their start.
                let (next, end) = unsafe { ((*spare).next, (*spare).end) };
                shared.spare = next;
                cache.bump = spare as usize;
                cache.end = end;
                return cache.end - cache.bump >= class_size(class)
                    || self.new_chunk(shared, cache);
            }
            self.new_chunk(shared, cache)
        })
    }

    /// Moves the cache onto a fresh chunk of the arena (the old one's rest, smaller than
    /// one block of the class asked for, is given up).
    fn new_chunk(&self, shared: &mut Shared, cache: &mut ThreadCache) -> bool {
        if shared.end - shared.bump < CHUNK {
            return false;
        }
        cache.bump = shared.bump;
        cache.end = shared.bump + CHUNK;
        shared.bump += CHUNK;
        true
    }

    /// A block of `class` from the shared lists or the arena; null when it has none.
    fn take_shared(&self, class: usize) -> *mut u8 {
        self.locked(|shared| {
            if let Some(block) = pop(&mut shared.free[class]) {
                return block;
            }
            self.ensure_reserved(shared);
            let size = class_size(class);
            if shared.end - shared.bump >= size {
                let block = shared.bump;
                shared.bump += size;
                block as *mut u8
            } else {
                null_mut()
            }
        })
    }

    /// Puts an arena block back: on this thread's list, or on the shared one.
    #[inline]
    fn give_back(&self, ptr: *mut u8, class: usize) {
        if class < LOCAL_CLASSES
            && self
                .with_cache(|cache| push(&mut cache.free[class], ptr))
                .is_some()
        {
            return;
        }
        self.locked(|shared| push(&mut shared.free[class], ptr))
    }

    /// Hands a thread's lists and the rest of its chunk to the shared pool.
    fn flush(&self, cache: &mut ThreadCache) {
        self.locked(|shared| {
            for (class, list) in cache.free.iter_mut().enumerate() {
                let head = std::mem::replace(list, null_mut());
                if head.is_null() {
                    continue;
                }
                let mut tail = head;
                // SAFETY: listed blocks hold valid links.
                unsafe {
                    while !(*tail).next.is_null() {
                        tail = (*tail).next;
                    }
                    (*tail).next = shared.free[class];
                }
                shared.free[class] = head;
            }
            if cache.end - cache.bump >= BLOCK_ALIGN {
                let spare = cache.bump as *mut SpareChunk;
                // SAFETY: the rest of the chunk is unused arena memory, 16-byte aligned.
                unsafe {
                    spare.write(SpareChunk {
                        next: shared.spare,
                        end: cache.end,
                    })
                };
                shared.spare = spare;
            }
        });
        cache.bump = 0;
        cache.end = 0;
        cache.owner = std::ptr::null();
        cache.retired = true;
    }

    /// Reserves the arena on first use (with the lock held).
    fn ensure_reserved(&self, shared: &mut Shared) {
        if shared.reservation != Reservation::NotTried {
            return;
        }
        shared.reservation = Reservation::Unavailable;
        let huge_pages = self.huge_pages.load(Ordering::Acquire);
        if let Some(base) = reserve_arena_memory(self.reserve, huge_pages) {
            shared.reservation = Reservation::Reserved;
            shared.bump = base;
            shared.end = base + self.reserve;
            self.len.store(self.reserve, Ordering::Release);
            self.base.store(base, Ordering::Release);
        }
    }
}

/// The key whose destructor flushes thread caches, created on first use.
#[cfg(target_os = "linux")]
fn exit_key(shared: &mut Shared) -> Option<libc::pthread_key_t> {
    if shared.exit_key.is_none() {
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: creates a key with a destructor that accepts what `register_exit` stores.
        if unsafe { libc::pthread_key_create(&mut key, Some(flush_on_exit)) } == 0 {
            shared.exit_key = Some(key);
        }
    }
    shared.exit_key
}

#[cfg(not(target_os = "linux"))]
fn exit_key(_shared: &mut Shared) -> Option<()> {
    None
}

/// Arranges for `cache` to be flushed when the thread exits.
#[cfg(target_os = "linux")]
fn register_exit(key: libc::pthread_key_t, cache: &mut ThreadCache) {
    // SAFETY: the value is this thread's cache, which lives as long as the thread.
    unsafe { libc::pthread_setspecific(key, (cache as *mut ThreadCache).cast()) };
}

#[cfg(not(target_os = "linux"))]
fn register_exit(_key: (), _cache: &mut ThreadCache) {}

/// The `pthread` key destructor: runs as the thread exits, after Rust's thread-local
/// destructors, while its thread-local storage is still in place.
#[cfg(target_os = "linux")]
extern "C" fn flush_on_exit(cache: *mut libc::c_void) {
    // SAFETY: the value registered by `register_exit`; its owner outlives the thread.
    unsafe {
        let cache = &mut *cache.cast::<ThreadCache>();
        if let Some(owner) = cache.owner.as_ref() {
            owner.flush(cache);
        }
    }
}

impl ClassArena {
    /// Reserves the arena if need be and makes its first huge page resident (with
    /// `MADV_POPULATE_WRITE`, which faults the page in without writing to it, so blocks
    /// already handed out there keep their contents). Meant for a helper thread at
    /// process start; see the module documentation. Does nothing where the arena cannot
    /// be reserved, and is only advice where the kernel lacks the call (before 5.14).
    pub fn prefault_huge_page(&self) {
        self.locked(|shared| self.ensure_reserved(shared));
        if self.len.load(Ordering::Acquire) < SMALL_PAGE_PREFIX + HUGE_PAGE
            || !self.huge_pages.load(Ordering::Acquire)
        {
            return;
        }
        #[cfg(target_os = "linux")]
        // SAFETY: the range lies inside the arena's private anonymous mapping; populating
        // changes no contents.
        unsafe {
            let start = self.base.load(Ordering::Acquire);
            libc::madvise(
                (start + SMALL_PAGE_PREFIX) as *mut libc::c_void,
                HUGE_PAGE,
                libc::MADV_POPULATE_WRITE,
            );
        }
    }
}

/// Maps `len` bytes for the arena and returns their start: the first
/// [`SMALL_PAGE_PREFIX`] bytes end on a huge-page boundary and keep ordinary pages; the
/// rest is advised as huge-page memory when `huge_pages`. Nothing is committed until
/// touched.
#[cfg(target_os = "linux")]
fn reserve_arena_memory(len: usize, huge_pages: bool) -> Option<usize> {
    let prefix = SMALL_PAGE_PREFIX.min(len);
    let aligned = reserve_aligned(len + HUGE_PAGE)?;
    let start = aligned + HUGE_PAGE - prefix;
    // SAFETY: unmaps the parts of our own fresh mapping that the arena does not use, and
    // advises the rest; advice only: without transparent huge pages the arena works with
    // small pages.
    unsafe {
        libc::munmap(aligned as *mut libc::c_void, HUGE_PAGE - prefix);
        libc::munmap((start + len) as *mut libc::c_void, prefix);
        if huge_pages {
            advise_after_prefix(start, len, libc::MADV_HUGEPAGE);
        }
    }
    Some(start)
}

/// Gives paging `advice` for the part of the arena at `start` (`len` bytes) past its
/// small-page prefix.
///
/// # Safety
/// `start..start + len` must be the arena's mapping; the advice must keep its contents.
#[cfg(target_os = "linux")]
unsafe fn advise_after_prefix(start: usize, len: usize, advice: libc::c_int) {
    let prefix = SMALL_PAGE_PREFIX.min(len);
    if len > prefix {
        // SAFETY: per the caller, the range is our own mapping.
        unsafe {
            libc::madvise((start + prefix) as *mut libc::c_void, len - prefix, advice);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn reserve_arena_memory(_len: usize, _huge_pages: bool) -> Option<usize> {
    None
}

/// Maps `len` bytes of address space starting on a huge-page boundary. Nothing is
/// committed until touched.
#[cfg(target_os = "linux")]
fn reserve_aligned(len: usize) -> Option<usize> {
    if len == 0 {
        return None;
    }
    let mapped = len + HUGE_PAGE;
    // SAFETY: an anonymous private mapping at an address of the kernel's choice; the
    // unaligned head and tail are unmapped again and the rest is only ever used by the
    // arena.
    unsafe {
        let raw = libc::mmap(
            null_mut(),
            mapped,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        );
        if raw == libc::MAP_FAILED {
            return None;
        }
        let raw = raw as usize;
        let base = (raw + HUGE_PAGE - 1) & !(HUGE_PAGE - 1);
        if base > raw {
            libc::munmap(raw as *mut libc::c_void, base - raw);
        }
        let tail = raw + mapped - (base + len);
        if tail > 0 {
            libc::munmap((base + len) as *mut libc::c_void, tail);
        }
        Some(base)
    }
}

/// Whether a layout may be served by the arena.
#[inline]
fn is_small(layout: &Layout) -> bool {
    layout.size() <= MAX_SMALL && layout.align() <= BLOCK_ALIGN
}

impl ClassArena {
    /// A block for a small layout, or null when the arena cannot serve it.
    #[inline]
    fn take(&self, class: usize) -> *mut u8 {
        if class < LOCAL_CLASSES {
            let block = self.take_local(class);
            if !block.is_null() {
                return block;
            }
        }
        self.take_shared(class)
    }
}

// SAFETY: arena blocks are distinct ranges of the reserved mapping (each handed out by
// one bump or one free-list pop, from a thread's own cache or under the lock), at least
// as large as the request and 16-byte aligned; everything else is the system
// allocator's.
unsafe impl GlobalAlloc for ClassArena {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_small(&layout) {
            let block = self.take(class_of(layout.size()));
            if !block.is_null() {
                return block;
            }
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_small(&layout) {
            let block = self.take(class_of(layout.size()));
            if !block.is_null() {
                // SAFETY: the block has at least `layout.size()` writable bytes.
                unsafe { block.write_bytes(0, layout.size()) };
                return block;
            }
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if self.owns(ptr) {
            self.give_back(ptr, class_of(layout.size()));
        } else {
            // SAFETY: not an arena block, so the system allocator made it with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !self.owns(ptr) {
            // SAFETY: a system block stays with the system allocator (its realloc can
            // grow in place or remap); `dealloc` recognises it by address.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        let class = class_of(layout.size());
        if new_size <= MAX_SMALL && class_of(new_size) == class {
            return ptr;
        }
        // SAFETY: the caller guarantees `new_size` with this alignment is a valid layout.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        // SAFETY: as for `alloc`; the copy stays within both blocks.
        unsafe {
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.give_back(ptr, class);
            }
            new
        }
    }
}

#[cfg(test)]
mod tests;
