//! Tests of the size-class allocator: classes, reuse, realloc, the system fallback,
//! threads and their exit, and the huge-page advice.

use super::*;

/// An arena for one test. Thread caches refer to the first arena their thread used
/// until the thread exits, so test arenas are leaked like a `static`.
fn leaked_arena(reserve: usize) -> &'static ClassArena {
    Box::leak(Box::new(ClassArena::new(reserve)))
}

impl ClassArena {
    /// Blocks on the shared free list of `class`.
    fn shared_free_len(&self, class: usize) -> usize {
        self.locked(|shared| {
            let mut n = 0;
            let mut block = shared.free[class];
            while !block.is_null() {
                n += 1;
                block = unsafe { (*block).next };
            }
            n
        })
    }
}

#[test]
fn classes_cover_every_small_size_with_little_waste() {
    let mut previous = 0;
    for class in 0..CLASSES {
        let size = class_size(class);
        assert!(
            size > previous,
            "class {class} size {size} after {previous}"
        );
        assert_eq!(size % BLOCK_ALIGN, 0, "class {class} size {size}");
        previous = size;
    }
    assert_eq!(class_size(CLASSES - 1), MAX_SMALL);
    for size in 1..=MAX_SMALL {
        let class = class_of(size);
        assert!(class < CLASSES, "size {size} -> class {class}");
        assert!(class_size(class) >= size, "size {size} -> class {class}");
        if class > 0 {
            assert!(
                class_size(class - 1) < size,
                "size {size} fits class {}",
                class - 1
            );
        }
        if size > 64 {
            assert!(
                class_size(class) * 4 <= size * 5,
                "size {size} wastes too much"
            );
        }
    }
    assert_eq!(class_of(0), 0);
}

/// Fills a block with a pattern made from `tag`, and checks it.
fn fill(ptr: *mut u8, len: usize, tag: usize) {
    for i in 0..len {
        unsafe {
            ptr.add(i)
                .write((tag.wrapping_mul(31).wrapping_add(i)) as u8)
        };
    }
}
fn check(ptr: *mut u8, len: usize, tag: usize) {
    for i in 0..len {
        let want = (tag.wrapping_mul(31).wrapping_add(i)) as u8;
        assert_eq!(unsafe { ptr.add(i).read() }, want, "block {tag} byte {i}");
    }
}

#[test]
fn blocks_are_distinct_aligned_and_reused() {
    let arena = leaked_arena(64 << 20);
    let sizes = [
        1, 8, 16, 17, 100, 256, 257, 1000, 4096, 5000, 20_000, MAX_SMALL,
    ];
    let mut live = Vec::new();
    for (tag, &size) in sizes.iter().cycle().take(200).enumerate() {
        let layout = Layout::from_size_align(size, 8).unwrap();
        let ptr = unsafe { arena.alloc(layout) };
        assert!(!ptr.is_null());
        assert_eq!(ptr as usize % BLOCK_ALIGN, 0);
        fill(ptr, size, tag);
        live.push((ptr, layout, tag));
    }
    if cfg!(target_os = "linux") {
        assert!(live.iter().all(|(p, _, _)| arena.owns(*p)));
    }
    for (ptr, layout, tag) in &live {
        check(*ptr, layout.size(), *tag);
    }
    // Freed blocks serve the next requests of their class.
    let (ptr, layout, _) = live.pop().unwrap();
    unsafe { arena.dealloc(ptr, layout) };
    let again = unsafe { arena.alloc(layout) };
    if cfg!(target_os = "linux") {
        assert_eq!(again, ptr);
    }
    unsafe { arena.dealloc(again, layout) };
    for (ptr, layout, _) in live {
        unsafe { arena.dealloc(ptr, layout) };
    }
}

#[test]
fn large_and_over_aligned_blocks_come_from_the_system() {
    let arena = leaked_arena(8 << 20);
    let small = Layout::from_size_align(64, 8).unwrap();
    let first = unsafe { arena.alloc(small) };
    for layout in [
        Layout::from_size_align(MAX_SMALL + 1, 8).unwrap(),
        Layout::from_size_align(64, 64).unwrap(),
        Layout::from_size_align(4096, 4096).unwrap(),
    ] {
        let ptr = unsafe { arena.alloc(layout) };
        assert!(!ptr.is_null());
        assert!(!arena.owns(ptr), "{layout:?} came from the arena");
        assert_eq!(ptr as usize % layout.align(), 0);
        fill(ptr, layout.size(), 7);
        check(ptr, layout.size(), 7);
        unsafe { arena.dealloc(ptr, layout) };
    }
    unsafe { arena.dealloc(first, small) };
}

#[test]
fn realloc_keeps_contents_across_classes_and_allocators() {
    let arena = leaked_arena(8 << 20);
    let mut layout = Layout::from_size_align(10, 8).unwrap();
    let mut ptr = unsafe { arena.alloc(layout) };
    fill(ptr, 10, 3);
    let mut filled = 10;
    // Grow through every kind of step: same class, next class, into the system.
    for new_size in [
        12,
        16,
        40,
        300,
        900,
        5000,
        20_000,
        MAX_SMALL,
        MAX_SMALL + 10,
        1 << 20,
    ] {
        let same_class = layout.size() <= MAX_SMALL
            && new_size <= MAX_SMALL
            && class_of(new_size) == class_of(layout.size());
        let old = ptr;
        ptr = unsafe { arena.realloc(ptr, layout, new_size) };
        assert!(!ptr.is_null());
        if same_class {
            assert_eq!(ptr, old, "growing to {new_size} within its class moved");
        }
        check(ptr, filled.min(new_size), 3);
        layout = Layout::from_size_align(new_size, 8).unwrap();
        fill(ptr, new_size, 3);
        filled = new_size;
    }
    // And shrink back: a block the system allocator made stays with it.
    for new_size in [300_000, 1000, 24] {
        ptr = unsafe { arena.realloc(ptr, layout, new_size) };
        check(ptr, new_size, 3);
        layout = Layout::from_size_align(new_size, 8).unwrap();
    }
    unsafe { arena.dealloc(ptr, layout) };
}

#[test]
fn zeroed_blocks_are_zero_even_when_reused() {
    let arena = leaked_arena(8 << 20);
    let layout = Layout::from_size_align(200, 8).unwrap();
    let ptr = unsafe { arena.alloc(layout) };
    fill(ptr, 200, 9);
    unsafe { arena.dealloc(ptr, layout) };
    let zeroed = unsafe { arena.alloc_zeroed(layout) };
    assert!((0..200).all(|i| unsafe { zeroed.add(i).read() } == 0));
    unsafe { arena.dealloc(zeroed, layout) };
}

#[test]
fn a_full_arena_hands_over_to_the_system() {
    // One huge page: 64 blocks of 32 KiB fill it; the rest must still work.
    let arena = leaked_arena(HUGE_PAGE);
    let layout = Layout::from_size_align(MAX_SMALL, 16).unwrap();
    let blocks: Vec<_> = (0..100).map(|_| unsafe { arena.alloc(layout) }).collect();
    assert!(blocks.iter().all(|p| !p.is_null()));
    if cfg!(target_os = "linux") {
        assert_eq!(
            blocks.iter().filter(|p| arena.owns(**p)).count(),
            HUGE_PAGE / MAX_SMALL
        );
    }
    for (tag, &ptr) in blocks.iter().enumerate() {
        fill(ptr, 64, tag);
    }
    for (tag, &ptr) in blocks.iter().enumerate() {
        check(ptr, 64, tag);
        unsafe { arena.dealloc(ptr, layout) };
    }
}

#[test]
fn threads_share_the_arena_safely() {
    static ARENA: ClassArena = ClassArena::new(64 << 20);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let mut live: Vec<(usize, Layout, usize)> = Vec::new();
                let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ t;
                for round in 0..20_000usize {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    if live.len() > 64 || (seed & 3 == 0 && !live.is_empty()) {
                        let (ptr, layout, tag) = live.swap_remove(seed as usize % live.len());
                        check(ptr as *mut u8, layout.size().min(32), tag);
                        unsafe { ARENA.dealloc(ptr as *mut u8, layout) };
                    } else {
                        let size = 1 + (seed >> 8) as usize % 3000;
                        let layout = Layout::from_size_align(size, 8).unwrap();
                        let ptr = unsafe { ARENA.alloc(layout) };
                        assert!(!ptr.is_null());
                        fill(ptr, size.min(32), round);
                        live.push((ptr as usize, layout, round));
                    }
                }
                for (ptr, layout, tag) in live {
                    check(ptr as *mut u8, layout.size().min(32), tag);
                    unsafe { ARENA.dealloc(ptr as *mut u8, layout) };
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    if cfg!(target_os = "linux") {
        // The exited threads' lists are shared now.
        let shared: usize = (0..CLASSES).map(|c| ARENA.shared_free_len(c)).sum();
        assert!(shared >= 4 * 64, "only {shared} blocks came back");
    }
}

#[test]
fn an_exiting_thread_hands_its_blocks_to_the_next() {
    let arena = leaked_arena(16 << 20);
    let layout = Layout::from_size_align(96, 8).unwrap();
    let class = class_of(96);
    let freed: Vec<usize> = std::thread::spawn(move || {
        let blocks: Vec<usize> = (0..100)
            .map(|_| unsafe { arena.alloc(layout) } as usize)
            .collect();
        for &block in &blocks {
            unsafe { arena.dealloc(block as *mut u8, layout) };
        }
        blocks
    })
    .join()
    .unwrap();
    if !cfg!(target_os = "linux") {
        return;
    }
    assert!(freed.iter().all(|&b| arena.owns(b as *mut u8)));
    assert_eq!(arena.shared_free_len(class), 100);
    let reused = std::thread::spawn(move || {
        let block = unsafe { arena.alloc(layout) };
        unsafe { arena.dealloc(block, layout) };
        block as usize
    })
    .join()
    .unwrap();
    assert!(
        freed.contains(&reused),
        "a new thread did not reuse the freed blocks"
    );
    // It took a batch of 64 and returned them (and the one it used) when it exited.
    assert_eq!(arena.shared_free_len(class), 100);
}

/// The `VmFlags` line of the mapping that holds `addr`, from /proc/self/smaps.
#[cfg(target_os = "linux")]
fn vm_flags_of_mapping_holding(addr: usize) -> Option<String> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
    let mut lines = smaps.lines();
    while let Some(line) = lines.next() {
        let range = line.split_whitespace().next().unwrap_or("");
        let Some((from, to)) = range.split_once('-') else {
            continue;
        };
        let (Ok(from), Ok(to)) = (
            usize::from_str_radix(from, 16),
            usize::from_str_radix(to, 16),
        ) else {
            continue;
        };
        if (from..to).contains(&addr) {
            return lines
                .find(|l| l.starts_with("VmFlags:"))
                .map(str::to_string);
        }
    }
    None
}

#[cfg(target_os = "linux")]
#[test]
fn the_arena_keeps_small_pages_for_its_prefix_and_huge_pages_after() {
    let len = 8 << 20;
    let start = reserve_arena_memory(len, true).expect("reserve");
    let huge = start + SMALL_PAGE_PREFIX;
    assert_eq!(huge % HUGE_PAGE, 0, "huge pages start at {huge:#x}");
    for addr in [start, huge - 1] {
        let flags = vm_flags_of_mapping_holding(addr).expect("prefix not mapped");
        assert!(!flags.contains(" hg"), "{addr:#x}: {flags}");
    }
    for addr in [huge, start + len - 1] {
        let flags = vm_flags_of_mapping_holding(addr).expect("arena not mapped");
        assert!(flags.contains(" hg"), "{addr:#x}: {flags}");
    }
    assert!(vm_flags_of_mapping_holding(start + len).is_none_or(|f| !f.contains(" hg")));
    unsafe { libc::munmap(start as *mut libc::c_void, len) };
}

/// A 64-byte block of `arena` filled by [`fill`] with `tag`, and its layout.
#[cfg(target_os = "linux")]
fn filled_block(arena: &ClassArena, tag: usize) -> (*mut u8, Layout) {
    let layout = Layout::from_size_align(64, 16).unwrap();
    let block = unsafe { arena.alloc(layout) };
    fill(block, 64, tag);
    (block, layout)
}

/// Pages of `start..start + len` that are resident, by `mincore`.
#[cfg(target_os = "linux")]
fn resident_pages(start: usize, len: usize) -> usize {
    let mut vec = vec![0u8; len.div_ceil(4096)];
    let rc = unsafe { libc::mincore(start as *mut libc::c_void, len, vec.as_mut_ptr()) };
    assert_eq!(rc, 0, "mincore");
    vec.iter().filter(|&&v| v & 1 != 0).count()
}

#[cfg(target_os = "linux")]
#[test]
fn prefaulting_makes_the_first_huge_page_resident_and_keeps_blocks() {
    let arena = leaked_arena(8 << 20);
    // A block in the prefix, written before the prefault.
    let (block, layout) = filled_block(arena, 7);
    let start = arena.base.load(Ordering::Acquire);
    let huge = start + SMALL_PAGE_PREFIX;
    assert_eq!(resident_pages(huge, HUGE_PAGE), 0);
    arena.prefault_huge_page();
    assert_eq!(resident_pages(huge, HUGE_PAGE), HUGE_PAGE / 4096);
    assert_eq!(resident_pages(huge + HUGE_PAGE, HUGE_PAGE), 0);
    check(block, 64, 7);
    unsafe { arena.dealloc(block, layout) };
}

#[cfg(target_os = "linux")]
#[test]
fn an_arena_told_to_use_small_pages_gets_no_huge_page_advice_and_no_prefault() {
    let arena = leaked_arena(8 << 20);
    arena.use_small_pages();
    let (block, layout) = filled_block(arena, 3);
    let start = arena.base.load(Ordering::Acquire);
    let huge = start + SMALL_PAGE_PREFIX;
    for addr in [start, huge, start + (8 << 20) - 1] {
        let flags = vm_flags_of_mapping_holding(addr).expect("arena not mapped");
        assert!(!flags.contains(" hg"), "{addr:#x}: {flags}");
    }
    arena.prefault_huge_page();
    assert_eq!(resident_pages(huge, HUGE_PAGE), 0, "prefaulted anyway");
    check(block, 64, 3);
    unsafe { arena.dealloc(block, layout) };
}

#[cfg(target_os = "linux")]
#[test]
fn small_pages_asked_for_after_the_first_allocation_withdraw_the_advice() {
    let arena = leaked_arena(8 << 20);
    let (block, layout) = filled_block(arena, 5);
    let huge = arena.base.load(Ordering::Acquire) + SMALL_PAGE_PREFIX;
    let before = vm_flags_of_mapping_holding(huge).expect("arena not mapped");
    assert!(before.contains(" hg"), "{before}");
    arena.use_small_pages();
    let after = vm_flags_of_mapping_holding(huge).expect("arena not mapped");
    assert!(!after.contains(" hg") && after.contains(" nh"), "{after}");
    check(block, 64, 5);
    unsafe { arena.dealloc(block, layout) };
}
