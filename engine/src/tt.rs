//! Transposition table shared by all search threads without locks.
//!
//! Each slot is two `AtomicU64`: the packed data and `key ^ data`. A reader
//! accepts a slot only if `stored_key ^ data == key`, so an entry torn by two
//! threads writing at once is simply not found (the "lockless hashing" trick
//! of Hyatt and Mann). Four slots make a 64-byte cluster, one cache line.

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};

use crate::huge_pages::{HugeSlice, Zeroable};
use crate::moves::MoveCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Score is exact (PV node).
    Exact,
    /// Score is a lower bound (fail high).
    Lower,
    /// Score is an upper bound (fail low).
    Upper,
}

impl Bound {
    /// What a search result says about the true score: at least `best`
    /// (it failed high), exactly `best` (it raised alpha), or at most.
    pub fn of(best: i32, original_alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: MoveCode,
    /// Score, mate scores relative to the node (see `score::to_tt`).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Cluster {
    slots: [Slot; 4],
}

// SAFETY: a cluster is eight `AtomicU64` (no padding); all zero is an
// empty cluster.
unsafe impl Zeroable for Cluster {}

pub struct TranspositionTable {
    /// On huge pages where the system allows (`huge_pages.rs`): a probe then
    /// rarely misses the TLB as well as the cache.
    clusters: HugeSlice<Cluster>,
    /// Clusters this search uses: all of them, or, for a search on the
    /// clock, the first ones, already resident (`huge_pages.rs`). These are fewer
    /// only in the first seconds after a large `Hash` is set or cleared.
    usable: AtomicUsize,
    /// Search generation, 6 bits; entries of older generations are replaced first.
    age: AtomicU8,
}

const BOUND_BITS: [u64; 3] = [1, 2, 3];

fn pack(e: &Entry, age: u8) -> u64 {
    let bound = match e.bound {
        Bound::Exact => BOUND_BITS[0],
        Bound::Lower => BOUND_BITS[1],
        Bound::Upper => BOUND_BITS[2],
    };
    (e.mv as u64)
        | ((e.score as i16 as u16 as u64) << 16)
        | ((e.eval as i16 as u16 as u64) << 32)
        | ((e.depth.clamp(0, 255) as u64) << 48)
        | (bound << 56)
        | (((age & 63) as u64) << 58)
}

fn unpack(d: u64) -> Option<Entry> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None, // empty slot
    };
    Some(Entry {
        mv: d as u16,
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 0xff) as i32,
        bound,
    })
}

fn age_of(d: u64) -> u8 {
    ((d >> 58) & 63) as u8
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes, or, when that much memory cannot be
    /// had, of the largest halving of it that can (at least one cluster):
    /// a GUI's Hash setting must never abort the process.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut mb = mb.max(1);
        loop {
            match Self::try_new(mb) {
                Some(t) => return t,
                None if mb > 1 => mb /= 2,
                None => return Self::try_new(0).expect("one cluster"),
            }
        }
    }

    /// A table of `mb` mebibytes if the memory can be allocated.
    fn try_new(mb: usize) -> Option<TranspositionTable> {
        let n = (mb.saturating_mul(1024 * 1024) / std::mem::size_of::<Cluster>()).max(1);
        let clusters = HugeSlice::zeroed(n)?;
        Some(TranspositionTable {
            usable: AtomicUsize::new(clusters.len()),
            clusters,
            age: AtomicU8::new(0),
        })
    }

    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Empties the table (between games, `Clear Hash`), quickly at any
    /// size (`huge_pages.rs`).
    pub fn clear(&self) {
        self.clusters.zero();
        self.age.store(0, Relaxed);
    }

    /// Called once per search (before its threads start) so entries of
    /// earlier moves age out. A search on the clock (`on_clock`) uses the
    /// part of the table resident by then: a page touched for the first time
    /// stalls the search as long as the kernel takes to zero it (a 4 GiB
    /// table cost a `go wtime 10000` 3 s). Any other uses all of it: it
    /// stalls likewise until the table is resident, but its result does not
    /// depend on when it started (fixed depth and nodes are reproducible).
    pub fn new_search(&self, on_clock: bool) {
        let n = if on_clock {
            self.clusters.ready_len()
        } else {
            self.clusters.len()
        };
        self.usable.store(n, Relaxed);
        let a = self.age.load(Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Relaxed);
    }

    /// Holds the table's background filling while a search runs (see
    /// `huge_pages.rs`); `false` when it has ended.
    pub fn searching(&self, on: bool) {
        self.clusters.pause_filling(on);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        // Multiply-shift maps the key onto any table size, not only powers of two.
        let n = self.usable.load(Relaxed);
        let i = ((key as u128 * n as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Starts loading the cluster of `key` into the cache, so the probe at
    /// the child node (a few hundred instructions later) does not stall.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: prefetching is a hint; it never faults, whatever the address.
            #[allow(unused_unsafe)]
            unsafe {
                _mm_prefetch(p, _MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in &self.cluster(key).slots {
            let data = s.data.load(Relaxed);
            if s.key.load(Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let age = self.age.load(Relaxed);
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for s in &cluster.slots {
            let data = s.data.load(Relaxed);
            if s.key.load(Relaxed) ^ data == key {
                // Same position: keep the old move if the new entry has none,
                // and keep a deeper exact entry of this search.
                let mut e = entry;
                if let Some(old) = unpack(data) {
                    if e.mv == 0 {
                        e.mv = old.mv;
                    }
                    if old.bound == Bound::Exact
                        && e.bound != Bound::Exact
                        && old.depth > e.depth + 2
                        && age_of(data) == age
                    {
                        return;
                    }
                }
                let d = pack(&e, age);
                s.data.store(d, Relaxed);
                s.key.store(key ^ d, Relaxed);
                return;
            }
            // Replace the shallowest entry, counting each generation of age as 8 plies.
            let worth = match unpack(data) {
                None => i32::MIN,
                Some(old) => old.depth - 8 * (age.wrapping_sub(age_of(data)) & 63) as i32,
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let d = pack(&entry, age);
        victim.data.store(d, Relaxed);
        victim.key.store(key ^ d, Relaxed);
    }

    /// Permille of the first 1000 slots used by the current search generation.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let mut used = 0;
        let mut seen = 0;
        'outer: for c in self.clusters.iter() {
            for s in &c.slots {
                let d = s.data.load(Relaxed);
                if unpack(d).is_some() && age_of(d) == age {
                    used += 1;
                }
                seen += 1;
                if seen == 1000 {
                    break 'outer;
                }
            }
        }
        used * 1000 / seen.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_entries_with_negative_scores() {
        let tt = TranspositionTable::new(1);
        let e = Entry {
            mv: 1234,
            score: -31990,
            eval: -45,
            depth: 17,
            bound: Bound::Lower,
        };
        tt.store(0xdead_beef_1234_5678, e);
        assert_eq!(tt.probe(0xdead_beef_1234_5678), Some(e));
        assert_eq!(tt.probe(0xdead_beef_1234_5679), None);
        assert!(tt.hashfull() <= 1);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef_1234_5678), None);
    }

    #[test]
    fn clearing_a_table_on_huge_pages_forgets_entries_all_over_it() {
        let tt = TranspositionTable::new(8);
        assert_eq!(tt.size_mb(), 8);
        let e = Entry {
            mv: 7,
            score: 12,
            eval: 3,
            depth: 5,
            bound: Bound::Exact,
        };
        let keys: Vec<u64> = (0..10_000u64)
            .map(|i| crate::strength::splitmix64(i) | 1)
            .collect();
        for &k in &keys {
            tt.store(k, e);
        }
        let found = keys.iter().filter(|&&k| tt.probe(k).is_some()).count();
        assert!(found > 9_000, "{found}");
        tt.new_search(false);
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        assert_eq!(tt.hashfull(), 0);
        // Usable again, from age 0.
        tt.store(keys[0], e);
        assert_eq!(tt.probe(keys[0]), Some(e));
        assert!(tt.hashfull() <= 1);
    }

    #[test]
    fn a_full_cluster_replaces_its_shallowest_entry() {
        let tt = TranspositionTable::new(1);
        let n = tt.clusters.len() as u128;
        // Keys that land in cluster 0: key * n >> 64 == 0.
        let keys: Vec<u64> = (1..=5u64)
            .map(|i| i * ((1u128 << 64) / n / 8) as u64)
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            let e = Entry {
                mv: 1,
                score: 0,
                eval: 0,
                depth: [9, 3, 7, 8, 5][i],
                bound: Bound::Exact,
            };
            tt.store(k, e);
        }
        assert!(
            tt.probe(keys[1]).is_none(),
            "depth 3 entry should be the victim"
        );
        for i in [0, 2, 3, 4] {
            assert!(tt.probe(keys[i]).is_some());
        }
    }
}
