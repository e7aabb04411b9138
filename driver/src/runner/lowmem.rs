//! The allocator of cliff-pulley: every allocation comes from one arena
//! mapped below 4 GiB, so that the interpreter's stack and the job
//! buffers have addresses that pulley32 code, which holds addresses in 32
//! bits, can use (the filetest runner only runs pulley32 on 32-bit hosts).
//!
//! It is a bump allocator: freeing gives memory back only when it is the
//! last block. The program is short-lived and allocates little after
//! reading the job file (the lines it writes, one stack and two buffers
//! per child), so the waste is bounded by the jobs' own sizes.

use std::alloc::{GlobalAlloc, Layout};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the arena starts (1 GiB, above the image's region, see
/// lib/harness/pulley.go) and how large it may grow: it ends at 3 GiB.
const ARENA_BASE: usize = 0x4000_0000;
const ARENA_SIZE: usize = 0x8000_0000;

/// The next free byte; 0 until the arena is mapped.
static NEXT: AtomicUsize = AtomicUsize::new(0);
/// The start of the last block handed out (for in-place realloc and free).
static LAST: AtomicUsize = AtomicUsize::new(0);

pub struct LowArena;

fn arena() -> usize {
    let next = NEXT.load(Ordering::Relaxed);
    if next != 0 {
        return next;
    }
    // NORESERVE: only touched pages cost memory.
    let p = unsafe {
        libc::mmap(
            ARENA_BASE as *mut libc::c_void,
            ARENA_SIZE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED || p as usize != ARENA_BASE {
        // Nothing can be allocated, not even an error message.
        const MSG: &[u8] = b"cliff-pulley: cannot map the low memory arena\n";
        unsafe {
            libc::write(2, MSG.as_ptr().cast(), MSG.len());
            libc::_exit(5);
        }
    }
    NEXT.store(ARENA_BASE, Ordering::Relaxed);
    ARENA_BASE
}

unsafe impl GlobalAlloc for LowArena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // Single-threaded: the program starts no thread.
        let start = arena().next_multiple_of(layout.align().max(16));
        let end = match start.checked_add(layout.size()) {
            Some(end) if end <= ARENA_BASE + ARENA_SIZE => end,
            _ => return ptr::null_mut(),
        };
        NEXT.store(end, Ordering::Relaxed);
        LAST.store(start, Ordering::Relaxed);
        start as *mut u8
    }

    unsafe fn dealloc(&self, p: *mut u8, _layout: Layout) {
        if p as usize == LAST.load(Ordering::Relaxed) {
            NEXT.store(p as usize, Ordering::Relaxed);
            LAST.store(0, Ordering::Relaxed);
        }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if p as usize == LAST.load(Ordering::Relaxed) {
            match (p as usize).checked_add(new_size) {
                Some(end) if end <= ARENA_BASE + ARENA_SIZE => {
                    NEXT.store(end, Ordering::Relaxed);
                    return p;
                }
                _ => return ptr::null_mut(),
            }
        }
        let new = unsafe { self.alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
        if !new.is_null() {
            unsafe { ptr::copy_nonoverlapping(p, new, layout.size().min(new_size)) };
        }
        new
    }
}
