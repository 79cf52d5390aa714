//! The moves the quiescence search tries: legal captures (en passant
//! included) and queen promotions, generated directly.
//!
//! Why not shakmaty's `capture_moves`: for `Chess` it generates every legal
//! move and throws the quiet ones away, at every quiescence node, which are
//! most of the nodes. This generator produces the same moves in the same
//! order (so the search tree is unchanged), from the capture targets alone.

use shakmaty::{attacks, Bitboard, Chess, Color, Move, MoveList, Position, Role, Square};

/// Captures and queen promotions of the side to move, which is not in
/// check (in check the quiescence search tries every evasion). Under-
/// promotions are left out: they are almost never better.
pub fn tactical_moves(pos: &Chess) -> MoveList {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        return MoveList::new();
    };
    if pos.is_check() {
        // Not used by the search (it tries every evasion); kept right and in
        // the same order: captures, then quiet queen promotions.
        let all = pos.legal_moves();
        let captures = all
            .iter()
            .filter(|m| m.is_capture() && m.promotion().is_none_or(|r| r == Role::Queen));
        let promotions = all
            .iter()
            .filter(|m| !m.is_capture() && m.promotion() == Some(Role::Queen));
        return captures.chain(promotions).copied().collect();
    }
    let ours = board.by_color(us);
    let them = board.by_color(!us);
    let occupied = board.occupied();
    let pinned = pinned(pos, king);
    // A pinned piece may only move along the line through its king.
    let legal =
        |from: Square, to: Square| !pinned.contains(from) || attacks::aligned(from, to, king);
    let push = |moves: &mut MoveList, role: Role, from: Square, to: Square, promotion| {
        if legal(from, to) {
            moves.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            });
        }
    };

    // En passant first, as shakmaty orders them (it checks their legality).
    let mut moves = if pos.maybe_ep_square().is_some() {
        pos.en_passant_moves()
    } else {
        MoveList::new()
    };

    // Pawn captures toward the a-file, then toward the h-file.
    let pawns = board.pawns() & ours;
    for (shift, skip_file) in pawn_capture_shifts(us) {
        let targets = shifted(pawns & !skip_file, shift) & them;
        for to in targets & !Bitboard::BACKRANKS {
            push(&mut moves, Role::Pawn, from_of(to, shift), to, None);
        }
        for to in targets & Bitboard::BACKRANKS {
            push(
                &mut moves,
                Role::Pawn,
                from_of(to, shift),
                to,
                Some(Role::Queen),
            );
        }
    }
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & ours {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            };
            for to in reach & them {
                push(&mut moves, role, from, to, None);
            }
        }
    }
    // The king takes only what no enemy piece defends (not in check, so no
    // slider's line runs through the king's square).
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
    // Queen promotions by a step forward.
    let forward = if us == Color::White { 8 } else { -8 };
    for to in shifted(pawns, forward) & !occupied & Bitboard::BACKRANKS {
        push(
            &mut moves,
            Role::Pawn,
            from_of(to, forward),
            to,
            Some(Role::Queen),
        );
    }
    moves
}

/// Our pieces that stand alone between our king and an enemy slider.
fn pinned(pos: &Chess, king: Square) -> Bitboard {
    let board = pos.board();
    let them = board.by_color(!pos.turn());
    let snipers = ((attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens()))
        & them;
    let mut pinned = Bitboard(0);
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    pinned & board.by_color(pos.turn())
}

/// The two pawn-capture directions of `side` as square-index shifts, each
/// with the file its pawns cannot capture from.
fn pawn_capture_shifts(side: Color) -> [(i32, Bitboard); 2] {
    let a = Bitboard::from_file(shakmaty::File::A);
    let h = Bitboard::from_file(shakmaty::File::H);
    match side {
        Color::White => [(7, a), (9, h)],
        Color::Black => [(-9, a), (-7, h)],
    }
}

/// `b` moved by `shift` squares (positive: toward the 8th rank).
fn shifted(b: Bitboard, shift: i32) -> Bitboard {
    if shift >= 0 {
        Bitboard(b.0 << shift)
    } else {
        Bitboard(b.0 >> -shift)
    }
}

/// The square a pawn came from to reach `to` by `shift`.
fn from_of(to: Square, shift: i32) -> Square {
    Square::new((to as i32 - shift) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_fen;

    /// What the quiescence search generated before: every legal move,
    /// filtered, then the quiet queen promotions.
    fn reference(pos: &Chess) -> MoveList {
        let mut moves = pos.capture_moves();
        moves.retain(|m| m.promotion().is_none_or(|r| r == Role::Queen));
        for m in pos.promotion_moves() {
            if !m.is_capture() && m.promotion() == Some(Role::Queen) {
                moves.push(m);
            }
        }
        moves
    }

    /// Every position within `depth` plies of `pos`.
    fn walk(pos: &Chess, depth: u32, out: &mut Vec<Chess>) {
        out.push(pos.clone());
        if depth == 0 {
            return;
        }
        for &m in &pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            walk(&child, depth - 1, out);
        }
    }

    #[test]
    fn the_generator_gives_the_same_moves_in_the_same_order_as_filtering_every_legal_move() {
        let mut positions = Vec::new();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            walk(&from_fen(fen, false).unwrap(), 3, &mut positions);
        }
        assert!(positions.len() > 100_000, "{}", positions.len());
        let mut quiet = 0;
        for pos in &positions {
            quiet += !pos.is_check() as usize;
            let ours: Vec<Move> = tactical_moves(pos).into_iter().collect();
            let theirs: Vec<Move> = reference(pos).into_iter().collect();
            assert_eq!(
                ours,
                theirs,
                "{}",
                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
        }
        assert!(quiet > 50_000);
    }
}
