//! Side to move, and what retrieval pre-filters on: a material signature and
//! the game phase.

use shakmaty::{Chess, Color, Position, Role};

/// `stm:w` or `stm:b`.
pub fn side_term(pos: &Chess) -> String {
    match pos.turn() {
        Color::White => "stm:w".into(),
        Color::Black => "stm:b".into(),
    }
}

/// Piece counts packed 4 bits each: white P N B R Q, then black P N B R Q.
/// Equal signatures mean equal material.
pub fn material_signature(pos: &Chess) -> u64 {
    let board = pos.board();
    let mut sig = 0u64;
    for color in Color::ALL {
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let n = (board.by_role(role) & board.by_color(color))
                .count()
                .min(15) as u64;
            sig = (sig << 4) | n;
        }
    }
    sig
}

/// Non-pawn material (N B R Q per side) as a term, `mat:<hex>`: retrieval
/// requires it (positions with other pieces on the board are rarely alike),
/// which makes the candidate set small and queries fast.
pub fn material_term(pos: &Chess) -> String {
    format!("mat:{:x}", material_signature(pos) & NON_PAWN_MASK)
}

/// The whole material signature (pawns included) as a term, `matp:<hex>`:
/// the stricter filter tried first.
pub fn full_material_term(pos: &Chess) -> String {
    format!("matp:{:x}", material_signature(pos))
}

/// The exact pawn skeleton (every pawn of both sides on its square) as a
/// term, `pawns:<hex>`: positions with the same pawns are strategically the
/// closest relatives, and the term is selective, so retrieval tries it
/// first.
pub fn pawn_structure_term(pos: &Chess) -> String {
    let b = pos.board();
    let white = (b.pawns() & b.white()).0;
    let black = (b.pawns() & b.black()).0;
    // Mix the two bitboards into one 64-bit key (collisions are harmless:
    // the term only narrows the candidates that BM25 then ranks).
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    format!("pawns:{h:x}")
}

/// Mask of the non-pawn counts in [`material_signature`].
const NON_PAWN_MASK: u64 = 0x0ffff_0ffff;

/// 24 with all pieces on the board, 0 with kings and pawns only.
pub fn phase(pos: &Chess) -> u64 {
    let b = pos.board();
    let p =
        b.knights().count() + b.bishops().count() + 2 * b.rooks().count() + 4 * b.queens().count();
    p.min(24) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let p = Chess::default();
        assert_eq!(phase(&p), 24);
        // White P N B R Q = 8 2 2 2 1, then black the same.
        assert_eq!(material_signature(&p), 0x82221_82221);
        assert_eq!(side_term(&p), "stm:w");
        assert_eq!(material_term(&p), "mat:222102221");
    }
}
