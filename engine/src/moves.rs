//! Moves packed into 16 bits for the transposition table and history tables.

use shakmaty::{Move, MoveList};

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
}
