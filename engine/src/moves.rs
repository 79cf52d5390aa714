//! Moves packed into 16 bits for the transposition table and history tables.

use shakmaty::{CastlingSide, Chess, Move, MoveList, Position, Square};

/// from (6 bits) | to (6 bits) | promotion role (3 bits). 0 means "no move":
/// no legal move goes from a1 to a1. Castling is king square to rook square,
/// as shakmaty represents it, so every legal move has a distinct code.
pub type MoveCode = u16;

pub const NO_MOVE: MoveCode = 0;

#[inline]
pub fn encode(m: Move) -> MoveCode {
    let from = m.from().map_or(0, |s| s as u16);
    let to = m.to() as u16;
    let promo = m.promotion().map_or(0, |r| r as u16);
    from | (to << 6) | (promo << 12)
}

/// The legal move with this code, if any.
#[inline]
pub fn find(list: &MoveList, code: MoveCode) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    list.iter().copied().find(|&m| encode(m) == code)
}

/// The legal move with this code in `pos`, found without generating every
/// move: only the moves of the piece on the code's from-square to its
/// to-square (or the castling moves). Lets the search try the TT move
/// before it generates the rest, which a cutoff often makes unnecessary.
#[inline]
pub fn legal(pos: &Chess, code: MoveCode) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    let from = Square::new((code & 63) as u32);
    let to = Square::new(((code >> 6) & 63) as u32);
    let board = pos.board();
    let us = pos.turn();
    if !board.by_color(us).contains(from) {
        return None;
    }
    let role = board.role_at(from)?;
    let candidates = if board.by_color(us).contains(to) {
        // Only castling lands on one's own piece (the king on its rook).
        let side = if to.file() > from.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        };
        pos.castling_moves(side)
    } else {
        pos.san_candidates(role, to)
    };
    candidates.iter().copied().find(|&m| encode(m) == code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn codes_are_distinct_per_position() {
        let pos: Chess = crate::board::from_fen(
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let moves = pos.legal_moves();
        let mut codes: Vec<_> = moves.iter().map(|&m| encode(m)).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), moves.len());
        for &m in &moves {
            assert_eq!(find(&moves, encode(m)), Some(m));
        }
    }

    #[test]
    fn a_code_is_a_legal_move_exactly_when_the_move_generator_has_it() {
        for (fen, chess960) in [
            (
                "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            ("4k3/8/8/8/1b6/8/3P4/R3K3 w Q - 0 1", false),
            ("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", true),
            ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1", false),
        ] {
            let pos: Chess = crate::board::from_fen(fen, chess960).unwrap();
            let moves = pos.legal_moves();
            // Every code that could be stored: each from, to and promotion.
            for code in 1..(1u16 << 15) {
                assert_eq!(legal(&pos, code), find(&moves, code), "{fen} code {code}");
            }
        }
    }
}
