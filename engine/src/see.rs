//! Static exchange evaluation: does a capture sequence on one square win at
//! least `threshold` centipawns? Swap algorithm with x-rays through sliders.

use shakmaty::{attacks, Bitboard, Chess, Color, Move, Position, Role};

/// Piece values for exchanges (simpler than the evaluation's on purpose).
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUE[role as usize]
}

/// True if playing `m` wins at least `threshold` after the best sequence of
/// recaptures on the target square (pins ignored).
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to, captured, moving) = match m {
        Move::Normal {
            from,
            to,
            capture,
            role,
            promotion,
        } => (
            from,
            to,
            // A promotion gains the new piece over the pawn, which then
            // stands on the square as the piece at risk.
            capture.map_or(0, value) + promotion.map_or(0, |p| value(p) - value(Role::Pawn)),
            promotion.map_or(value(role), value),
        ),
        Move::EnPassant { .. } => return value(Role::Pawn) >= threshold,
        Move::Castle { .. } | Move::Put { .. } => return 0 >= threshold,
    };
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    swap = moving - swap;
    if swap <= 0 {
        return true;
    }
    let board = pos.board();
    let mut occupied = board.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    let mut stm = pos.turn();
    let mut attackers = attackers_to(pos, to, occupied);
    let bishops = board.bishops_and_queens();
    let rooks = board.rooks_and_queens();
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & board.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        let Some((role, sq)) = least_valuable(pos, ours) else {
            break;
        };
        if role == Role::King {
            // The king may only take last: if the other side still attacks, it cannot.
            return if (attackers & board.by_color(!stm)).any() {
                !res
            } else {
                res
            };
        }
        swap = value(role) - swap;
        if swap < res as i32 {
            break;
        }
        occupied ^= Bitboard::from(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop_attacks(to, occupied) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook_attacks(to, occupied) & rooks;
        }
    }
    res
}

fn attackers_to(pos: &Chess, sq: shakmaty::Square, occupied: Bitboard) -> Bitboard {
    let b = pos.board();
    b.attacks_to(sq, Color::White, occupied) | b.attacks_to(sq, Color::Black, occupied)
}

fn least_valuable(pos: &Chess, set: Bitboard) -> Option<(Role, shakmaty::Square)> {
    let b = pos.board();
    for role in Role::ALL {
        if let Some(sq) = (set & b.by_role(role)).first() {
            return Some((role, sq));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{from_fen, parse_uci_move};

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = from_fen(fen, false).unwrap();
        let m = parse_uci_move(&pos, mv).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn: +100.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        // Knight takes a pawn defended by a pawn... here by bishop and queen x-ray: loses.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        // Pawn takes a defended knight: wins a knight for a pawn.
        let fen = "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1";
        assert!(see(fen, "d4e5", 200));
        // Queen takes a pawn defended by a pawn: loses the queen.
        let fen = "4k3/8/3p4/4p3/8/8/8/4KQ2 w - - 0 1";
        assert!(!see("4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5", 0));
        let _ = fen;
    }

    #[test]
    fn a_promotion_counts_the_new_piece_it_gains() {
        // b8=Q Rxb8 Rxb8: the pawn and the queen for a rook, +400 in all.
        let fen = "7r/1P5k/8/8/8/8/8/1R2K3 w - - 0 1";
        assert!(see(fen, "b7b8q", 400));
        assert!(!see(fen, "b7b8q", 401));
        // Without the rook behind it the new queen is lost for nothing: the pawn.
        let fen = "7r/1P5k/8/8/8/8/8/4K3 w - - 0 1";
        assert!(see(fen, "b7b8q", -100));
        assert!(!see(fen, "b7b8q", -99));
        // On a free square it wins the new queen over the pawn.
        let fen = "8/1P5k/8/8/8/8/8/4K3 w - - 0 1";
        assert!(see(fen, "b7b8q", 850));
        assert!(!see(fen, "b7b8q", 851));
    }
}
