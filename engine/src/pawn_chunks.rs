//! MACH's pawn chunks as evaluation terms: the chunk library's patterns made
//! only of pawns, compiled to bitboard tests (`pawn_chunk_patterns.rs`,
//! written by `mach chunks pawns`), each present instance counting +1 for
//! White's feature and -1 for Black's, weighted by `psqt::PAWN_CHUNKS`
//! (fitted by `mach tune --fit chunks`) and cached by the pawns.
//!
//! The engine knows nothing of the chunk language: it receives the patterns
//! as data. A pattern depends only on the two sides' pawns, so one answer
//! serves every position with the same pawns.

use shakmaty::{Board, Color};

pub use crate::pawn_chunk_patterns::{FEATURES, N_FEATURES, N_PATTERNS, PATTERNS};
use crate::pawn_pattern::pawn_attacks;
use crate::pawn_pattern::{fill_presence, Pawns, Side};
use crate::psqt::Weight;
use crate::terms::{Sink, Term};
use crate::weight_cache::WeightCache;

/// The compiled patterns present on `board`: `f(feature, +1 or -1)`.
pub fn for_each_feature(board: &Board, mut f: impl FnMut(usize, i32)) {
    let white = board.pawns() & board.white();
    let black = board.pawns() & board.black();
    let p = Pawns {
        white,
        black,
        white_attacks: pawn_attacks(white, Color::White),
        black_attacks: pawn_attacks(black, Color::Black),
    };
    // On the stack: this runs at every miss of a search's cache.
    let mut present = [false; N_PATTERNS];
    fill_presence(&PATTERNS, &p, &mut present);
    for (pattern, _) in PATTERNS.iter().zip(present).filter(|(_, on)| *on) {
        let sign = match pattern.side {
            Side::White => 1,
            Side::Black => -1,
        };
        f(pattern.feature as usize, sign);
    }
}

/// The present patterns into `sink` (`Term::Chunks`, the feature its
/// column), each for the side that has it: the tune's trace of them.
pub fn add_terms<S: Sink>(board: &Board, sink: &mut S) {
    for_each_feature(board, |feature, sign| {
        sink.side(sign);
        sink.add(Term::Chunks, 0, feature);
    });
}

/// White's middlegame and endgame sum of the present patterns' weights.
pub fn white_weight(board: &Board) -> Weight {
    let weights = crate::terms::chunk_weights();
    let mut w = Weight { mg: 0, eg: 0 };
    for_each_feature(board, |feature, sign| {
        w.mg += sign * weights[feature].mg;
        w.eg += sign * weights[feature].eg;
    });
    w
}

/// No position has a white pawn on every square: marks an empty slot.
const EMPTY: (u64, u64) = (u64::MAX, 0);

/// Slots of one search thread's cache: 1 << 16.
const BITS: u32 = 16;

/// One search thread's answers by both sides' pawns (kept whole, so a hit
/// is never another structure's answer).
pub struct PawnChunkCache(WeightCache<(u64, u64)>);

impl Default for PawnChunkCache {
    fn default() -> Self {
        PawnChunkCache(WeightCache::new(BITS, EMPTY))
    }
}

impl PawnChunkCache {
    /// [`white_weight`] of `board`, from the cache when these pawns were seen.
    pub fn white_weight(&self, board: &Board) -> Weight {
        let white = (board.pawns() & board.white()).0;
        let black = (board.pawns() & board.black()).0;
        let mix = (white ^ black.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0.get_or((white, black), mix, || white_weight(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    fn board(fen: &str) -> Board {
        crate::board::from_fen(fen, false).unwrap().board().clone()
    }

    fn present(fen: &str) -> Vec<(&'static str, i32)> {
        let mut out = Vec::new();
        for_each_feature(&board(fen), |f, s| out.push((FEATURES[f], s)));
        out
    }

    #[test]
    fn a_white_passed_pawn_on_d5_and_its_black_mirror_count_for_their_sides() {
        // White: a passed d-pawn on d5 (no black pawn on c5..e7).
        let white = present("4k3/p7/8/3P4/8/8/7P/4K3 w - - 0 1");
        assert!(white.contains(&("passed_pawn_d(5)", 1)), "{white:?}");
        // The same seen from Black: a black passed e-pawn on e4 (mirrored).
        let black = present("4k3/p7/8/8/4p3/8/7P/4K3 w - - 0 1");
        assert!(black.contains(&("passed_pawn_d(5)", -1)), "{black:?}");
    }

    #[test]
    fn the_start_position_has_as_much_for_white_as_for_black() {
        let mut sum = vec![0; N_FEATURES];
        for_each_feature(Chess::default().board(), |f, s| sum[f] += s);
        assert!(sum.iter().all(|&s| s == 0), "{sum:?}");
    }

    #[test]
    fn the_cache_answers_as_the_patterns_do_for_every_position_of_a_game() {
        let cache = PawnChunkCache::default();
        let mut pos = Chess::default();
        for uci in [
            "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3",
            "e7e5", "d4b3", "c8e6", "f2f3", "f8e7", "d1d2", "e8g8", "e1c1", "b8d7", "g2g4", "b7b5",
            "g4g5", "b5b4",
        ] {
            let m = uci.parse::<shakmaty::uci::UciMove>().unwrap();
            pos.play_unchecked(m.to_move(&pos).unwrap());
            // Twice: once computed, once from the cache.
            assert_eq!(cache.white_weight(pos.board()), white_weight(pos.board()));
            assert_eq!(cache.white_weight(pos.board()), white_weight(pos.board()));
        }
        // No pawns at all is a structure too, not an empty slot.
        let bare = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(cache.white_weight(&bare), white_weight(&bare));
    }
}
