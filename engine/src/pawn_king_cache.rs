//! A search thread's cache of the evaluation's pawn-and-king terms
//! (`eval::add_pawn_king_terms`): their White middlegame and endgame sum,
//! kept by the pawns and the kings, so that a position whose pawns and
//! kings the thread has seen reads none of them again.
//!
//! A slot keeps its pawns and kings whole, not a hash of them: a hit is
//! never another structure's answer, and the evaluation is the same number
//! with the cache as without.

use shakmaty::Board;

use crate::eval::pawn_king_weight;
use crate::psqt::Weight;
use crate::weight_cache::WeightCache;

/// What the terms read, whole: each side's pawns and king, and the kings
/// (a king is told from a pawn by `kings`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    white: u64,
    black: u64,
    kings: u64,
}

impl Key {
    #[inline]
    fn of(board: &Board) -> Key {
        let both = board.pawns() | board.kings();
        Key {
            white: (both & board.white()).0,
            black: (both & board.black()).0,
            kings: board.kings().0,
        }
    }

    /// The key's words mixed by odd multipliers and folded (a
    /// multiply-xorshift, as splitmix64's): a slot is its top bits.
    #[inline]
    fn hash(self) -> u64 {
        let mut h = self.white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self.black.wrapping_mul(0xBF58_476D_1CE4_E5B9)
            ^ self.kings.wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// No position has a white pawn or king on every square: marks an empty slot.
const EMPTY: Key = Key {
    white: u64::MAX,
    black: 0,
    kings: 0,
};

/// Slots of one search thread's cache: 32K of 32 bytes, 1 MiB.
const BITS: u32 = 15;

/// One search thread's pawn-and-king sums.
pub struct PawnKingCache(WeightCache<Key>);

impl Default for PawnKingCache {
    fn default() -> Self {
        PawnKingCache(WeightCache::new(BITS, EMPTY))
    }
}

impl PawnKingCache {
    /// The remembered sum of `board`'s pawns and kings, if any.
    #[inline]
    pub fn get(&self, board: &Board) -> Option<Weight> {
        let key = Key::of(board);
        self.0.get(key, key.hash())
    }

    /// [`pawn_king_weight`] of `board`, from the cache when these pawns and
    /// kings were seen, else read and remembered.
    #[inline]
    pub fn white_weight(&self, board: &Board) -> Weight {
        let key = Key::of(board);
        self.0.get_or(key, key.hash(), || pawn_king_weight(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, evaluate_plus, evaluate_with_pawn_king};
    use shakmaty::Position;

    #[test]
    fn the_cached_evaluation_is_exactly_the_uncached_one() {
        let cache = PawnKingCache::default();
        let extra = Weight { mg: 7, eg: -3 };
        let (mut checked, mut hits) = (0, 0);
        for seed in 0..150 {
            for pos in crate::board::random_walk(seed, 160) {
                let board = pos.board();
                if let Some(w) = cache.get(board) {
                    // A hit answers what reading the board answers.
                    assert_eq!(w, pawn_king_weight(board));
                    hits += 1;
                }
                let pk = cache.white_weight(board);
                assert_eq!(cache.get(board), Some(pk));
                assert_eq!(
                    evaluate_with_pawn_king(&pos, Weight { mg: 0, eg: 0 }, pk),
                    evaluate(&pos),
                    "{}",
                    shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                assert_eq!(
                    evaluate_with_pawn_king(&pos, extra, pk),
                    evaluate_plus(&pos, extra)
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
        // Knight, bishop, rook and queen moves keep the pawns and kings.
        assert!(hits > 1_000, "{hits} hits of {checked}");
    }

    #[test]
    fn a_position_with_the_same_pawns_and_kings_hits_and_another_misses() {
        let cache = PawnKingCache::default();
        let pos = crate::board::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            false,
        )
        .unwrap();
        let w = cache.white_weight(pos.board());
        // Knights and a bishop moved, a knight taken: the same pawns and kings.
        let moved = crate::board::from_fen(
            "r2qkb1r/pppp1ppp/2n5/4p3/2B1P1b1/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 0 5",
            false,
        )
        .unwrap();
        assert_eq!(cache.get(moved.board()), Some(w));
        assert_eq!(
            evaluate_with_pawn_king(&moved, Weight { mg: 0, eg: 0 }, w),
            evaluate(&moved)
        );
        // White castled: the king moved, a miss.
        let castled = crate::board::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
            false,
        )
        .unwrap();
        assert_eq!(cache.get(castled.board()), None);
        // A pawn moved: a miss.
        let pushed = crate::board::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 4",
            false,
        )
        .unwrap();
        assert_eq!(cache.get(pushed.board()), None);
    }
}
