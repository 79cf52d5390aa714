//! A zeroed array on an anonymous memory map aligned to 2 MiB and, on
//! Linux, advised to the kernel as transparent huge pages
//! (`madvise(MADV_HUGEPAGE)`), whose pages a thread of its own makes
//! resident in the background.
//!
//! Why huge pages: the transposition table is read at random, one cache
//! line per node. On 4 KiB pages nearly every probe also misses the TLB, and
//! the page walk doubles the stall (perf put a fifth of `mach bench`'s time
//! on the two TT probe loads). A 2 MiB page covers 512 times as much table
//! per TLB entry. Where the kernel declines (huge pages off, memory
//! fragmented) the table works the same on small pages.
//!
//! Why a memory map, filled in the background: its pages read as zero from
//! the start, so a table of any size exists at once. Making them resident
//! is what takes time (writing zeros over 4 GiB took 7 s on the 2-core
//! machine, and a GUI waiting for `readyok` gives up after a few), and a
//! search must not do it either: a page touched for the first time in the
//! middle of a search stalls it for as long (a `go wtime 10000` took 3 s).
//! So the first [`FILL_CHUNK`] is made resident before `zeroed` returns,
//! the rest by the filler thread, chunk by chunk from the start; a search on
//! the clock uses only the part already resident ([`HugeSlice::ready_len`]).
//! The filler waits while a search runs ([`HugeSlice::pause_filling`]): its
//! page faults and the search's own queue behind each other in the kernel,
//! and the first `go wtime 10000` on a fresh 4 GiB table stalled 1.3 s at
//! depth 1 so; paused, it reached depth 17 in 0.64 s.
//! Zeroing again (`ucinewgame`, `Clear Hash`) writes zeros over the first
//! [`ZERO_IN_PLACE`] bytes, hands the pages of the rest back to the kernel
//! (`MADV_DONTNEED`) and fills them again the same way.

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use memmap2::{MmapMut, MmapRaw};

/// Alignment of the block: one huge page on x86-64 and most aarch64 kernels.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// Bytes made resident at a time: the first of them before `zeroed`
/// returns (a table as large as the default `Hash` at once), then one
/// chunk between two looks at the filler's stop flag.
pub const FILL_CHUNK: usize = 2 * 1024 * 1024;

/// How often a paused filler looks whether the search has ended.
const PAUSED_POLL: std::time::Duration = std::time::Duration::from_millis(2);

/// Resident bytes that [`HugeSlice::zero`] overwrites with zeros rather than
/// hand back to the kernel: writing them is quicker than making them
/// resident again (tens of ms), up to this size.
pub const ZERO_IN_PLACE: usize = 256 * 1024 * 1024;

/// Types made of `AtomicU64`s only: all-zero bytes are a valid value, so a
/// zeroed block is initialised, and [`HugeSlice::zero`] may store zeros
/// through `AtomicU64`s while another thread still writes a value.
///
/// # Safety
/// Implement only for types made of `AtomicU64` fields (no padding).
pub unsafe trait Zeroable {}

/// `len` zeroed values of `T` on one huge-page-aligned block, unmapped on drop.
pub struct HugeSlice<T: Zeroable> {
    /// The first value, `fill.offset` bytes into `fill.map`.
    ptr: NonNull<T>,
    len: usize,
    fill: Arc<Fill>,
    /// The thread making the rest of the block resident, if one runs.
    filler: Mutex<Option<JoinHandle<()>>>,
}

/// The block and how much of it is resident, shared with the filler thread.
struct Fill {
    /// The mapping: the values and the slack before them that aligns them.
    map: MmapRaw,
    offset: usize,
    /// Bytes of the values.
    bytes: usize,
    /// Bytes from the first value on that are resident.
    ready: AtomicUsize,
    /// Tells the filler to stop after its chunk.
    cancel: AtomicBool,
    /// True once the filler has ended (or none runs).
    done: AtomicBool,
    /// While a search runs the filler waits: its page faults and the
    /// search's own (its stack, its allocations) would queue behind each
    /// other in the kernel, and a first search on a 4 GiB table was measured
    /// to stall 1.3 s at depth 1 so.
    paused: AtomicBool,
}

// SAFETY: the slice owns its block like a `Box<[T]>`; sending or sharing it
// is as safe as sending or sharing `T`.
unsafe impl<T: Zeroable + Send> Send for HugeSlice<T> {}
unsafe impl<T: Zeroable + Sync> Sync for HugeSlice<T> {}

impl<T: Zeroable> HugeSlice<T> {
    /// `len` (at least 1) zeroed values, or `None` when the memory cannot be
    /// had. Quick for any size: at most [`FILL_CHUNK`] bytes are made
    /// resident here, the rest in the background.
    pub fn zeroed(len: usize) -> Option<HugeSlice<T>> {
        // Unmapping the block does not drop its values; zeroing stores words.
        const { assert!(!std::mem::needs_drop::<T>()) };
        const { assert!(std::mem::size_of::<T>().is_multiple_of(8) && std::mem::align_of::<T>() >= 8) };
        let len = len.max(1);
        let bytes = len.checked_mul(std::mem::size_of::<T>())?.max(1);
        // A block smaller than a huge page cannot have one: no need to map
        // 2 MiB of alignment slack for it (a 1 MiB table stays small). The
        // map itself is page-aligned, enough for any `T` here.
        let huge = bytes >= HUGE_PAGE;
        let align = if huge { HUGE_PAGE } else { 1 }.max(std::mem::align_of::<T>());
        let slack = align - 1;
        let map = MmapMut::map_anon(bytes.checked_add(slack)?)
            .map_err(|e| log::debug!("cannot map {bytes} bytes: {e}"))
            .ok()?;
        // Raw: the values are only ever reached through `ptr`.
        let map = MmapRaw::from(map);
        let offset = map.as_ptr().align_offset(align);
        if offset > slack {
            return None;
        }
        // SAFETY: `offset + bytes <= map.len()`, inside the mapping.
        let ptr = NonNull::new(unsafe { map.as_mut_ptr().add(offset) } as *mut T)?;
        let fill = Arc::new(Fill {
            map,
            offset,
            bytes,
            ready: AtomicUsize::new(0),
            cancel: AtomicBool::new(false),
            done: AtomicBool::new(false),
            paused: AtomicBool::new(false),
        });
        // Advised before the first write: pages already touched stay small.
        if huge {
            fill.advise_huge();
        }
        let slice = HugeSlice {
            ptr,
            len,
            fill,
            filler: Mutex::new(None),
        };
        slice.start_filling(0);
        Some(slice)
    }

    /// How many values from the first are resident: the part a search on
    /// the clock uses, so as not to stall on the kernel. All of them once
    /// the filler has ended, and at once where nothing fills in the
    /// background (the pages become resident as they are touched).
    pub fn ready_len(&self) -> usize {
        if self.fill.is_done() {
            return self.len;
        }
        let ready = self.fill.ready.load(Ordering::Acquire) / std::mem::size_of::<T>();
        ready.clamp(1, self.len)
    }

    /// Holds the background filling while a search runs (`true`) and lets
    /// it go on between searches (`false`).
    pub fn pause_filling(&self, paused: bool) {
        self.fill.paused.store(paused, Ordering::Release);
    }

    /// Sets every value back to zero, quickly whatever the size: zeros are
    /// written over the first [`ZERO_IN_PLACE`] bytes if resident; the pages
    /// of the rest go back to the kernel (they read as zero after that) and
    /// are made resident again in the background, as after
    /// [`zeroed`](Self::zeroed). Between searches.
    pub fn zero(&self) {
        self.zero_keeping(ZERO_IN_PLACE);
    }

    /// `zero`, writing zeros over at most `in_place` resident bytes.
    fn zero_keeping(&self, in_place: usize) {
        let mut filler = self.filler.lock().unwrap_or_else(|e| e.into_inner());
        self.fill.stop(filler.take());
        let fill = &self.fill;
        let keep = fill.ready.load(Ordering::Acquire).min(in_place);
        // SAFETY: the block is `fill.bytes` bytes of `T`s, which are made of
        // `AtomicU64`s (`Zeroable`), so of `fill.bytes / 8` of them.
        let words: &[AtomicU64] = unsafe {
            std::slice::from_raw_parts(self.ptr.as_ptr() as *const AtomicU64, fill.bytes / 8)
        };
        // Atomic stores: a helper thread finishing the last search may still
        // store an entry (which then may or may not survive, as before).
        let (kept, rest) = words.split_at(keep / 8);
        kept.iter().for_each(|w| w.store(0, Ordering::Relaxed));
        if !fill.discard(keep) {
            rest.iter().for_each(|w| w.store(0, Ordering::Relaxed));
            return;
        }
        drop(filler);
        self.start_filling(keep);
    }

    /// Makes one chunk after the first `from` bytes resident here and starts
    /// a thread for the rest, if any.
    fn start_filling(&self, from: usize) {
        let fill = &self.fill;
        fill.ready.store(from, Ordering::Release);
        fill.cancel.store(false, Ordering::Release);
        fill.set_done(false);
        // Nothing (more) to fill, or the kernel cannot: the pages become
        // resident as the search touches them.
        if !fill.fill_chunk() || fill.ready.load(Ordering::Acquire) >= fill.bytes {
            fill.set_done(true);
            return;
        }
        let f = fill.clone();
        let spawned = std::thread::Builder::new()
            .name("mach-hash-fill".into())
            .spawn(move || {
                // Each turn is a system call that fills a chunk, not a spin.
                loop {
                    if f.cancel.load(Ordering::Acquire) {
                        break;
                    }
                    if f.paused.load(Ordering::Acquire) {
                        std::thread::sleep(PAUSED_POLL);
                        continue;
                    }
                    if !f.fill_chunk() {
                        break;
                    }
                }
                f.set_done(true);
            });
        match spawned {
            Ok(h) => *self.filler.lock().unwrap_or_else(|e| e.into_inner()) = Some(h),
            Err(e) => {
                log::debug!("no thread to fill the hash table in the background: {e}");
                fill.set_done(true);
            }
        }
    }
}

impl Fill {
    fn is_done(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    fn set_done(&self, done: bool) {
        self.done.store(done, Ordering::Release);
    }

    /// Stops the filler thread `handle` and waits for it (one chunk at most).
    fn stop(&self, handle: Option<JoinHandle<()>>) {
        self.cancel.store(true, Ordering::Release);
        if let Some(h) = handle {
            let _ = h.join();
        }
    }

    /// Makes the next chunk resident (`MADV_POPULATE_WRITE`: the kernel
    /// writes no value, so a search may use the part already resident
    /// meanwhile). False when all is resident, or where the kernel cannot
    /// (then the pages become resident as they are touched).
    #[cfg(target_os = "linux")]
    fn fill_chunk(&self) -> bool {
        let ready = self.ready.load(Ordering::Acquire);
        if ready >= self.bytes {
            return false;
        }
        let n = FILL_CHUNK.min(self.bytes - ready);
        let r = self
            .map
            .advise_range(memmap2::Advice::PopulateWrite, self.offset + ready, n);
        if let Err(e) = r {
            log::debug!("madvise(MADV_POPULATE_WRITE) failed: {e}");
            return false;
        }
        self.ready.store(ready + n, Ordering::Release);
        true
    }

    #[cfg(not(target_os = "linux"))]
    fn fill_chunk(&self) -> bool {
        false
    }

    /// Hands the pages of the values after the first `from` bytes back to
    /// the kernel: a private anonymous mapping reads as zero after
    /// `MADV_DONTNEED`. False where that is not available (the caller writes
    /// the zeros).
    #[cfg(target_os = "linux")]
    fn discard(&self, from: usize) -> bool {
        if from >= self.bytes {
            return true;
        }
        // SAFETY: the range is ours (the kernel rounds its ends out to
        // pages: `from` is a multiple of `FILL_CHUNK` or 0, so its start is
        // a page boundary, and its end stays inside the mapping); its values
        // are all valid at zero, which is what the next reader sees, as if
        // zeros had been stored.
        let r = unsafe {
            self.map.unchecked_advise_range(
                memmap2::UncheckedAdvice::DontNeed,
                self.offset + from,
                self.bytes - from,
            )
        };
        r.map_err(|e| log::debug!("madvise(MADV_DONTNEED) failed: {e}"))
            .is_ok()
    }

    #[cfg(not(target_os = "linux"))]
    fn discard(&self, _from: usize) -> bool {
        false
    }

    /// Asks Linux to back the block with huge pages; a hint, so its result
    /// is not needed (the block works on small pages too).
    #[cfg(target_os = "linux")]
    fn advise_huge(&self) {
        let r = self
            .map
            .advise_range(memmap2::Advice::HugePage, self.offset, self.bytes);
        if let Err(e) = r {
            log::debug!("madvise(MADV_HUGEPAGE) declined: {e}");
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn advise_huge(&self) {}
}

impl<T: Zeroable> Deref for HugeSlice<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised values (zero is valid for
        // `T`) inside the mapping, which lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeSlice<T> {
    fn drop(&mut self) {
        // The filler ends before the block may be unmapped.
        let filler = self.filler.get_mut().unwrap_or_else(|e| e.into_inner());
        self.fill.stop(filler.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    struct Pair(AtomicU64, AtomicU64);
    // SAFETY: two atomics, valid at zero.
    unsafe impl Zeroable for Pair {}

    /// Waits (a minute at most) for the filler to make all of `s` resident.
    fn filled(s: &HugeSlice<Pair>) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while s.ready_len() < s.len() {
            assert!(std::time::Instant::now() < deadline, "not filled");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

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
    fn zeroing_clears_every_value_of_small_and_huge_slices_which_stay_usable() {
        // One huge-page block with a part page at its end, and one small block.
        for len in [300_001, 1_000] {
            let s: HugeSlice<Pair> = HugeSlice::zeroed(len).unwrap();
            for (i, p) in s.iter().enumerate() {
                p.0.store(i as u64 + 1, Relaxed);
                p.1.store(u64::MAX, Relaxed);
            }
            s.zero();
            assert!(
                s.iter()
                    .all(|p| p.0.load(Relaxed) == 0 && p.1.load(Relaxed) == 0),
                "{len}"
            );
            s[len - 1].1.store(5, Relaxed);
            assert_eq!(s[len - 1].1.load(Relaxed), 5);
            // Zeroing an untouched or a zeroed block is fine too.
            s.zero();
            s.zero();
            assert_eq!(s[len - 1].1.load(Relaxed), 0);
            // Handing every page back to the kernel (what `zero` does
            // past `ZERO_IN_PLACE`) clears as well.
            for (i, p) in s.iter().enumerate() {
                p.0.store(i as u64 + 1, Relaxed);
            }
            s.zero_keeping(0);
            assert!(s.iter().all(|p| p.0.load(Relaxed) == 0), "{len}");
            filled(&s);
            assert_eq!(s.ready_len(), len);
        }
    }

    #[test]
    fn a_large_slice_is_resident_from_its_start_first_then_all_of_it() {
        // 64 MiB: four chunks, the first resident before `zeroed` returns.
        let len = 4 * FILL_CHUNK / std::mem::size_of::<Pair>();
        let chunk = FILL_CHUNK / std::mem::size_of::<Pair>();
        let s: HugeSlice<Pair> = HugeSlice::zeroed(len).unwrap();
        assert!(s.ready_len() >= chunk, "{}", s.ready_len());
        filled(&s);
        s[len - 1].0.store(3, Relaxed);
        // Handed back to the kernel: resident again from the start.
        s.zero_keeping(0);
        assert!(s.ready_len() >= chunk, "{}", s.ready_len());
        assert_eq!(s[len - 1].0.load(Relaxed), 0);
        filled(&s);
        // Kept in place: all of it stays resident.
        s[len - 1].0.store(3, Relaxed);
        s.zero();
        assert_eq!(s.ready_len(), len);
        assert_eq!(s[len - 1].0.load(Relaxed), 0);
    }

    #[test]
    fn an_impossible_size_is_none_not_a_panic() {
        assert!(HugeSlice::<Pair>::zeroed(isize::MAX as usize / 16).is_none());
        assert!(HugeSlice::<Pair>::zeroed(usize::MAX / 8).is_none());
        let one = HugeSlice::<Pair>::zeroed(0).unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one.as_ptr() as usize % std::mem::align_of::<Pair>(), 0);
    }
}
