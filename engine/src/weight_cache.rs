//! A search thread's cache of White's evaluation weights by a key of what
//! they were read from (the pawns and kings, the pawns alone), kept whole so
//! a hit is exact.

use std::cell::Cell;

use crate::psqt::Weight;

/// White's weights remembered by a key of what they were read from, the
/// key kept whole in its slot so a hit is never another key's answer
/// (interior mutability, as the evaluation is read through `&Searcher`).
/// Always replaces. The pawn-and-king terms' (`pawn_king_cache.rs`) and
/// the pawn chunks' (`pawn_chunks.rs`).
pub struct WeightCache<K: Copy + Eq> {
    slots: Box<[Cell<(K, Weight)>]>,
    bits: u32,
}

impl<K: Copy + Eq> WeightCache<K> {
    /// `1 << bits` slots, each holding `empty`, a key no position has.
    pub fn new(bits: u32, empty: K) -> Self {
        let blank = (empty, Weight { mg: 0, eg: 0 });
        WeightCache {
            slots: (0..1usize << bits).map(|_| Cell::new(blank)).collect(),
            bits,
        }
    }

    /// The weight remembered for `key` (whose mixed bits are `hash`), if any.
    #[inline]
    pub fn get(&self, key: K, hash: u64) -> Option<Weight> {
        let (k, w) = self.slots[(hash >> (64 - self.bits)) as usize].get();
        (k == key).then_some(w)
    }

    /// The weight remembered for `key`, else `read()`, remembered.
    #[inline]
    pub fn get_or(&self, key: K, hash: u64, read: impl FnOnce() -> Weight) -> Weight {
        let slot = &self.slots[(hash >> (64 - self.bits)) as usize];
        let (k, w) = slot.get();
        if k == key {
            return w;
        }
        let w = read();
        slot.set((key, w));
        w
    }
}
