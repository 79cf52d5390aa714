//! The evaluation terms of [`Plans`]: a bonus for each piece on a square its
//! side's plan names, and for each attack on a square its plan targets.
//! Added to the static evaluation only while a search has plans.

use shakmaty::{Bitboard, Chess, Color, Position, Role};

use crate::advice::{side, Plans};
use crate::eval::pawn_attacks;
use crate::params::{PLAN_SQUARE, PLAN_TARGET};

/// The plans' score of `pos` in centipawns for the side to move.
pub fn score(pos: &Chess, plans: &Plans) -> i32 {
    let board = pos.board();
    let mut white = 0;
    for color in [Color::White, Color::Black] {
        let s = side(color);
        let ours = board.by_color(color);
        let mut v = 0;
        for role in Role::ALL {
            let on = board.by_role(role) & ours & plans.good[s][role as usize - 1];
            v += on.count() as i32 * PLAN_SQUARE;
        }
        let targets = plans.targets[s];
        if targets.any() {
            let pawns = board.pawns() & ours;
            let mut hits = (pawn_attacks(pawns, color) & targets).count();
            let pieces = ours & !(board.pawns() | board.kings());
            for sq in pieces {
                hits += (board.attacks_from(sq) & targets).count();
            }
            v += hits as i32 * PLAN_TARGET;
        }
        white += if color == Color::White { v } else { -v };
    }
    if pos.turn() == Color::White {
        white
    } else {
        -white
    }
}

/// Squares of one file (`0` = a).
pub fn file_squares(file: u32) -> Bitboard {
    Bitboard(0x0101_0101_0101_0101u64 << file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    fn pos(fen: &str) -> Chess {
        crate::board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn a_knight_on_its_outpost_earns_the_square_bonus_for_its_side_only() {
        let mut plans = Plans::default();
        plans.add_good(Color::White, Role::Knight, Bitboard::from(Square::E5));
        let here = pos("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1");
        assert_eq!(score(&here, &plans), PLAN_SQUARE);
        // Black to move: the same bonus, from Black's side.
        let black = pos("4k3/8/8/4N3/8/8/8/4K3 b - - 0 1");
        assert_eq!(score(&black, &plans), -PLAN_SQUARE);
        // A black knight there earns White's plan nothing.
        let theirs = pos("4k3/8/8/4n3/8/8/8/4K3 w - - 0 1");
        assert_eq!(score(&theirs, &plans), 0);
        assert!(!plans.is_empty());
        assert!(Plans::default().is_empty());
    }

    #[test]
    fn each_attack_on_a_target_counts_pawns_and_pieces_alike() {
        let mut plans = Plans::default();
        plans.add_target(Color::Black, Bitboard::from(Square::D4));
        // Black: pawn e5 and knight f5 hit d4; the rook on d8 is blocked on d6.
        let here = pos("3rk3/8/3P4/4pn2/8/8/8/4K3 b - - 0 1");
        let expect = 2 * PLAN_TARGET;
        assert_eq!(score(&here, &plans), expect);
        assert_eq!(file_squares(2).count(), 8);
        assert!(file_squares(2).contains(Square::C5));
    }
}
