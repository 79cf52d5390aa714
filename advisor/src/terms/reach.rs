//! Reach terms: every empty square a piece can move to, written like a piece
//! on that square (`Qf2` for a queen on f3 that can go to f2), with weight
//! w = 1 - 7d/64 where d is the Chebyshev distance from the piece (the
//! paper's formula: 0.89 at distance 1, 0.23 at distance 7).
//!
//! tantivy has no per-term payloads, so the weight becomes the term
//! frequency: each term is repeated `repetitions(w)` times and BM25's
//! saturating tf does the rest. The alternative, one field per weight
//! bucket, made queries 10-20x slower in a prototype (a query term becomes
//! one clause per field), while repetition costs only a larger tf in the
//! posting list, which is cheap to store.

use shakmaty::{attacks, Chess, Position, Role, Square};

use super::notation::piece_on;

/// Repetitions of a piece-on-square term (weight 1) in a document.
pub const ON_SQUARE_REPETITIONS: usize = 4;

/// Weight of a square `d` squares away (Chebyshev).
pub fn weight(d: u32) -> f32 {
    1.0 - 7.0 * d as f32 / 64.0
}

/// Repetitions for a reach weight: floor(4w), at least 1, so weight 1 (the
/// piece's own square, 4) ranks above any reach (3 at most).
pub fn repetitions(w: f32) -> usize {
    ((w * ON_SQUARE_REPETITIONS as f32).floor() as usize).clamp(1, ON_SQUARE_REPETITIONS - 1)
}

/// (term, weight) for every empty square each piece reaches in one move.
pub fn terms(pos: &Chess) -> Vec<(String, f32)> {
    let board = pos.board();
    let occupied = board.occupied();
    let empty = !occupied;
    let mut out = Vec::with_capacity(128);
    for (sq, piece) in board.iter() {
        let targets = match piece.role {
            Role::Pawn => pawn_pushes(sq, piece.color, occupied),
            _ => attacks::attacks(sq, piece, occupied) & empty,
        };
        for t in targets {
            out.push((piece_on(piece, t), weight(sq.distance(t))));
        }
    }
    out
}

fn pawn_pushes(
    sq: Square,
    color: shakmaty::Color,
    occupied: shakmaty::Bitboard,
) -> shakmaty::Bitboard {
    let mut out = shakmaty::Bitboard::EMPTY;
    let step = color.fold_wb(8i32, -8);
    let start_rank = color.fold_wb(shakmaty::Rank::Second, shakmaty::Rank::Seventh);
    let Some(one) = sq.offset(step) else {
        return out;
    };
    if occupied.contains(one) {
        return out;
    }
    out.add(one);
    if sq.rank() == start_rank {
        if let Some(two) = one.offset(step) {
            if !occupied.contains(two) {
                out.add(two);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testpos::*;
    use super::*;

    fn w(terms: &[(String, f32)], t: &str) -> Option<f32> {
        terms
            .iter()
            .find(|(x, _)| x == t)
            .map(|(_, w)| (w * 100.0).round() / 100.0)
    }

    #[test]
    fn the_papers_queen_weights() {
        let r = terms(&pos(KARJAKIN_NAKAMURA));
        assert_eq!(w(&r, "Qf2"), Some(0.89));
        assert_eq!(w(&r, "Qf1"), Some(0.78));
        // Blocked by its own pawn on f4; g3 is occupied; e4 is occupied.
        assert_eq!(w(&r, "Qf5"), None);
        assert_eq!(w(&r, "Qe3"), Some(0.89));
        assert_eq!(w(&r, "Qd5"), None, "e4 pawn blocks the diagonal");
        // Pawns push; they do not 'reach' their capture squares.
        assert_eq!(w(&r, "Pa3"), Some(0.89));
        assert_eq!(w(&r, "Pa4"), Some(0.78));
        assert_eq!(w(&r, "pb5"), Some(0.78));
        assert_eq!(w(&r, "Pe5"), Some(0.89), "e4 pushes to e5");
        assert_eq!(w(&r, "Pg4"), Some(0.89));
        assert_eq!(w(&r, "Ph6"), None, "h5 is blocked by the h6 pawn");
    }

    #[test]
    fn repetition_buckets_order_by_distance() {
        let reps: Vec<usize> = (1..=7).map(|d| repetitions(weight(d))).collect();
        assert_eq!(reps, vec![3, 3, 2, 2, 1, 1, 1]);
        assert!(ON_SQUARE_REPETITIONS > reps[0]);
    }
}
