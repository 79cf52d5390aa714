//! A zeroed array on memory aligned to 2 MiB and, on Linux, advised to the
//! kernel as transparent huge pages (`madvise(MADV_HUGEPAGE)`).
//!
//! Why: the transposition table is read at random, one cache line per node.
//! On 4 KiB pages nearly every probe also misses the TLB, and the page walk
//! doubles the stall (perf put a fifth of `mach bench`'s time on the two TT
//! probe loads). A 2 MiB page covers 512 times as much table per TLB entry.
//! Where the kernel declines (huge pages off, memory fragmented) the table
//! works the same on small pages.

use std::alloc::{alloc, dealloc, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

/// Alignment of the block: one huge page on x86-64 and most aarch64 kernels.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Types for which all-zero bytes are a valid value (atomics and integers
/// only), so a zeroed block is initialised.
///
/// # Safety
/// Implement only for types whose every field is valid when all bits are zero.
pub unsafe trait Zeroable {}

/// `len` zeroed values of `T` on one huge-page-aligned block, freed on drop.
pub struct HugeSlice<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the slice owns its block like a `Box<[T]>`; sending or sharing it
// is as safe as sending or sharing `T`.
unsafe impl<T: Zeroable + Send> Send for HugeSlice<T> {}
unsafe impl<T: Zeroable + Sync> Sync for HugeSlice<T> {}

impl<T: Zeroable> HugeSlice<T> {
    /// `len` (at least 1) zeroed values, or `None` when the memory cannot be had.
    pub fn zeroed(len: usize) -> Option<HugeSlice<T>> {
        // Dropping the slice frees the block without dropping its values.
        const { assert!(!std::mem::needs_drop::<T>()) };
        let len = len.max(1);
        let size = len.checked_mul(std::mem::size_of::<T>())?;
        // A block smaller than a huge page cannot have one: no need to pay
        // up to 2 MiB of alignment slack for it (a 1 MiB table stays small).
        let huge = size >= HUGE_PAGE;
        let align = if huge { HUGE_PAGE } else { 1 }.max(std::mem::align_of::<T>());
        let layout = Layout::from_size_align(size.max(1), align).ok()?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc(layout) };
        let ptr = NonNull::new(raw as *mut T)?;
        // Advised before the first write: pages already touched stay small.
        if huge {
            advise_huge(raw, layout.size());
        }
        // SAFETY: `raw` is `layout.size()` writable bytes; all zero is a
        // valid `T`.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Some(HugeSlice { ptr, len, layout })
    }
}

impl<T: Zeroable> Deref for HugeSlice<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised values (zero is valid for
        // `T`) that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeSlice<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with exactly this layout.
        unsafe { dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

/// Asks Linux to back the block with huge pages; a hint, so its result is
/// not needed (the block works on small pages too).
#[cfg(target_os = "linux")]
fn advise_huge(ptr: *mut u8, size: usize) {
    // SAFETY: the range is one live allocation of ours; madvise does not
    // change its contents.
    let r = unsafe { libc::madvise(ptr as *mut libc::c_void, size, libc::MADV_HUGEPAGE) };
    if r != 0 {
        log::debug!(
            "madvise(MADV_HUGEPAGE) declined: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_ptr: *mut u8, _size: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    struct Pair(AtomicU64, AtomicU64);
    // SAFETY: two atomics, valid at zero.
    unsafe impl Zeroable for Pair {}

    #[test]
    fn a_huge_slice_starts_zeroed_is_aligned_and_keeps_what_is_stored() {
        let s: HugeSlice<Pair> = HugeSlice::zeroed(300_000).unwrap();
        assert_eq!(s.len(), 300_000);
        assert_eq!(s.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(s
            .iter()
            .all(|p| p.0.load(Relaxed) == 0 && p.1.load(Relaxed) == 0));
        s[299_999].1.store(7, Relaxed);
        s[0].0.store(9, Relaxed);
        assert_eq!((s[0].0.load(Relaxed), s[299_999].1.load(Relaxed)), (9, 7));
    }

    #[test]
    fn an_impossible_size_is_none_not_a_panic() {
        assert!(HugeSlice::<Pair>::zeroed(usize::MAX / 8).is_none());
        let one = HugeSlice::<Pair>::zeroed(0).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one.as_ptr() as usize % std::mem::align_of::<Pair>(), 0);
    }
}
