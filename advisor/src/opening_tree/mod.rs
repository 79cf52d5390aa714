//! The opening tree: every position grandmasters reached often in their
//! first moves, with what they played there and how it scored, in Mach's
//! own compact file (`books/gm-tree.bin`, embedded in the binary). It is
//! the exact memory with no index to open: the book and the exact advice
//! read it, and an index's own games are added to it (`book::merge`).
//!
//! Positions are keyed by their Polyglot Zobrist key (a published
//! standard: the stored keys do not depend on any library's version) and
//! moves by their Polyglot code. The layout is in [`format`]; how it is
//! built from a PGN in [`build`].

pub mod build;
pub mod format;

use shakmaty::Chess;

use crate::book::BookMove;
use crate::polyglot;
use format::{Header, MoveStats};

/// A tree file, read in place (from the binary's own bytes or a file read
/// into memory): a lookup is a binary search over its sorted keys.
pub struct OpeningTree<'a> {
    pub header: Header,
    keys: &'a [u8],
    offsets: &'a [u8],
    records: &'a [u8],
}

impl<'a> OpeningTree<'a> {
    /// Checks the header, the section sizes and the checksum; an error
    /// says what is wrong (a foreign, truncated or damaged file).
    pub fn from_bytes(bytes: &'a [u8]) -> Result<OpeningTree<'a>, String> {
        let header = Header::read(bytes)?;
        let (keys, offsets, records) = header.sections(bytes)?;
        let tree = OpeningTree {
            header,
            keys,
            offsets,
            records,
        };
        tree.check_offsets()?;
        Ok(tree)
    }

    fn check_offsets(&self) -> Result<(), String> {
        let mut last = 0;
        for i in 0..=self.len() {
            let o = self.offset(i);
            if o < last || o > self.records.len() {
                return Err(format!("opening tree: offset {i} out of order"));
            }
            last = o;
        }
        Ok(())
    }

    /// Positions in the tree.
    pub fn len(&self) -> usize {
        self.header.positions as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn key_at(&self, i: usize) -> u64 {
        u64::from_le_bytes(self.keys[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    }

    fn offset(&self, i: usize) -> usize {
        u32::from_le_bytes(self.offsets[4 * i..4 * i + 4].try_into().expect("4 bytes")) as usize
    }

    /// The stored moves of the position with this Polyglot key, most
    /// played first (empty when the tree does not hold it).
    pub fn stats(&self, key: u64) -> Vec<MoveStats> {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.key_at(mid).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let bytes = &self.records[self.offset(mid)..self.offset(mid + 1)];
                    return format::read_moves(bytes).unwrap_or_default();
                }
            }
        }
        Vec::new()
    }

    /// What the grandmasters played from exactly `pos` (any move order
    /// leads here), most played first; moves not legal here are dropped.
    pub fn book(&self, pos: &Chess) -> Vec<BookMove> {
        self.stats(polyglot::key(pos))
            .into_iter()
            .filter_map(|s| {
                Some(BookMove {
                    mv: polyglot::decode(pos, s.mv)?,
                    games: s.games,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    avg_elo: s.avg_elo,
                    last_year: s.last_year,
                    backed: Some(f32::from(s.backed) / format::BACKED_STEPS),
                })
            })
            .collect()
    }

    /// Games through this position (the sum over its moves).
    pub fn games_at(&self, pos: &Chess) -> u32 {
        self.stats(polyglot::key(pos)).iter().map(|s| s.games).sum()
    }
}

#[cfg(test)]
mod tests;
