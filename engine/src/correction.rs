//! Correction history: how far searches found the static evaluation off in
//! positions with the same pawns, or with the same pieces of one side, so the
//! next static evaluation of such a position starts nearer the truth. Per
//! thread, per side to move; cleared by `ucinewgame`, kept between moves.
//!
//! Each table learns the error left after the correction (search score -
//! corrected static eval), moved towards it by a depth-scaled step that
//! shrinks as the entry nears its limit (history gravity), as Stockfish
//! does; the correction is a weighted sum of the three entries the position
//! maps to (its pawns, White's pieces, Black's pieces).

use shakmaty::{Bitboard, Chess, Position};

use crate::params::{CORR_PAWN_WEIGHT, CORR_PIECE_WEIGHT};
use crate::score::MATE_BOUND;

/// Entries per table and side to move (a power of two).
const SIZE: usize = 16_384;
/// Entries saturate at this magnitude.
const LIMIT: i32 = 1024;
/// The weighted sum of entries is in 1/SCALE centipawns.
const SCALE: i32 = 131_072;

/// The three correction tables of one search thread.
pub struct Correction {
    /// [side to move][pawn key]
    pawns: Vec<i16>,
    /// [side to move][colour of the pieces][piece key]
    pieces: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            pawns: vec![0; 2 * SIZE],
            pieces: vec![0; 2 * 2 * SIZE],
        }
    }
}

/// A 64-bit mix (splitmix64's finaliser), folded to a table index.
#[inline]
fn index(mut h: u64) -> usize {
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    (h as usize) & (SIZE - 1)
}

/// The table slots of `pos`: its pawn slot and the piece slot of each colour.
#[inline]
fn slots(pos: &Chess) -> (usize, [usize; 2]) {
    let b = pos.board();
    let stm = pos.turn() as usize;
    let w = b.white();
    let pawn_key = (b.pawns() & w).0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (b.pawns() & b.black())
            .0
            .wrapping_mul(0xd6e8_feb8_6659_fd93);
    let piece_key = |c: Bitboard| {
        (b.knights() & c).0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (b.bishops() & c).0.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (b.rooks() & c).0.wrapping_mul(0x1656_67b1_9e37_79f9)
            ^ (b.queens() & c).0.wrapping_mul(0x27d4_eb2f_1656_67c5)
            ^ (b.kings() & c).0.rotate_left(29)
    };
    let pawn = stm * SIZE + index(pawn_key);
    let white = (stm * 2) * SIZE + index(piece_key(w));
    let black = (stm * 2 + 1) * SIZE + index(piece_key(b.black()));
    (pawn, [white, black])
}

impl Correction {
    /// The correction to add to `pos`'s static evaluation, in centipawns.
    #[inline]
    pub fn of(&self, pos: &Chess) -> i32 {
        let (pawn, [white, black]) = slots(pos);
        let pieces = self.pieces[white] as i32 + self.pieces[black] as i32;
        (self.pawns[pawn] as i32 * CORR_PAWN_WEIGHT() + pieces * CORR_PIECE_WEIGHT()) / SCALE
    }

    /// `raw` (a static evaluation of `pos`) corrected, kept clear of mate scores.
    #[inline]
    pub fn corrected(&self, pos: &Chess, raw: i32) -> i32 {
        (raw + self.of(pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Learns that a search of `depth` plies found `pos` worth `diff`
    /// centipawns more than its corrected static evaluation said.
    pub fn update(&mut self, pos: &Chess, depth: i32, diff: i32) {
        let (pawn, pieces) = slots(pos);
        let bonus = (diff * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let learn = |e: &mut i16| {
            let v = *e as i32;
            *e = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        };
        learn(&mut self.pawns[pawn]);
        learn(&mut self.pieces[pieces[0]]);
        learn(&mut self.pieces[pieces[1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_fen;

    #[test]
    fn a_fresh_table_corrects_nothing() {
        let c = Correction::default();
        assert_eq!(c.of(&Chess::default()), 0);
    }

    #[test]
    fn repeated_findings_pull_the_correction_towards_them_and_no_further() {
        let mut c = Correction::default();
        let pos = Chess::default();
        // As the search would: each time the error left after the correction.
        for _ in 0..200 {
            let left = 40 - c.of(&pos);
            c.update(&pos, 10, left);
        }
        let k = c.of(&pos);
        assert!((36..=40).contains(&k), "{k}");
        // Saturated: no finding moves the entries beyond their limit.
        for _ in 0..400 {
            c.update(&pos, 10, -5000);
        }
        let floor = -LIMIT * (CORR_PAWN_WEIGHT() + 2 * CORR_PIECE_WEIGHT()) / SCALE;
        let k = c.of(&pos);
        assert!((floor..=floor + 2).contains(&k), "{k} {floor}");
    }

    #[test]
    fn a_correction_belongs_to_the_side_to_move_and_to_the_pawns_and_pieces() {
        let mut c = Correction::default();
        let white = Chess::default();
        let black = from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            false,
        )
        .unwrap();
        let other = from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", false).unwrap();
        for _ in 0..100 {
            let left = 60 - c.of(&white);
            c.update(&white, 10, left);
        }
        assert!(c.of(&white) > 50);
        assert_eq!(c.of(&black), 0);
        // Same pawns, other pieces: only the pawn share carries over.
        let shared = c.of(&other);
        assert!(shared > 0 && shared < c.of(&white), "{shared}");
    }

    #[test]
    fn a_corrected_evaluation_never_reads_as_a_mate() {
        let mut c = Correction::default();
        let pos = Chess::default();
        for _ in 0..100 {
            c.update(&pos, 20, 10_000);
        }
        assert!(c.corrected(&pos, MATE_BOUND - 5) < MATE_BOUND);
    }
}
