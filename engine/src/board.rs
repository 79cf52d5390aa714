//! What the search needs on top of shakmaty's `Chess`: Zobrist keys kept up to
//! date move by move, null moves, and FEN/UCI helpers.

use shakmaty::{
    attacks, fen::Fen, uci::UciMove, zobrist::Zobrist64, Bitboard, CastlingMode, Chess,
    EnPassantMode, Move, Position,
};

/// Zobrist key of a position (en passant square only when a capture is legal,
/// so that transpositions with and without a useless double step agree).
pub fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Plays `m` on a copy of `pos` and returns the child with its key, updated
/// incrementally where shakmaty can (most quiet moves and captures).
#[inline]
pub fn play(pos: &Chess, key: u64, m: Move) -> (Chess, u64) {
    let incremental = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal);
    let mut child = pos.clone();
    child.play_unchecked(m);
    let key = match incremental {
        Some(z) => z.0,
        None => hash(&child),
    };
    (child, key)
}

/// The position with the other side to move, or `None` where that is not a
/// legal position (the side to move is in check).
pub fn null_move(pos: &Chess) -> Option<(Chess, u64)> {
    let child = pos.clone().swap_turn().ok()?;
    let key = hash(&child);
    Some((child, key))
}

/// The squares the side not to move attacks: where a quiet move's piece
/// stands or goes under threat (the history tables are split by both).
#[inline]
pub fn threats(pos: &Chess) -> Bitboard {
    let board = pos.board();
    let them = !pos.turn();
    let occupied = board.occupied();
    let mut attacked =
        crate::pawn_pattern::pawn_attacks(board.pawns() & board.by_color(them), them);
    for sq in board.by_color(them) & !board.pawns() {
        if let Some(piece) = board.piece_at(sq) {
            attacked |= attacks::attacks(sq, piece, occupied);
        }
    }
    attacked
}

/// `threats(pos)`, computed the first time it is asked for: most nodes are
/// cut by the TT move or a capture before any quiet move's history is read,
/// and never need it.
pub struct Threats<'a> {
    pos: &'a Chess,
    squares: std::cell::OnceCell<Bitboard>,
}

impl<'a> Threats<'a> {
    pub fn new(pos: &'a Chess) -> Threats<'a> {
        Threats {
            pos,
            squares: std::cell::OnceCell::new(),
        }
    }

    /// The squares the side not to move attacks.
    #[inline]
    pub fn get(&self) -> Bitboard {
        *self.squares.get_or_init(|| threats(self.pos))
    }
}

/// Does `m` (legal in `pos`) give check? Direct checks and discovered
/// checks by sliders from bitboards; castling and en passant are rare enough
/// to be played out.
#[inline]
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
            let piece = promotion.unwrap_or(role).of(us);
            if attacks::attacks(to, piece, occupied).contains(king) {
                return true;
            }
            let ours = board.by_color(us) & !Bitboard::from(from);
            (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens() & ours).any()
                || (attacks::rook_attacks(king, occupied) & board.rooks_and_queens() & ours).any()
        }
        _ => {
            let mut child = pos.clone();
            child.play_unchecked(m);
            child.is_check()
        }
    }
}

/// Parses a FEN, accepting FENs without move counters and both standard and
/// Chess960 (Shredder/X-FEN) castling rights. Positions that cannot arise in
/// a game but can be played from (a double check no move could give, more
/// than the original material) are accepted; castling rights or an en passant
/// square that do not fit the board are dropped. Positions that cannot be
/// played (no king, the side not to move in check) are refused.
// shakmaty's own error type is large; parsing is far from any hot path.
#[allow(clippy::result_large_err)]
pub fn from_fen(fen: &str, chess960: bool) -> Result<Chess, String> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
    let lenient = |mode: CastlingMode| {
        parsed
            .clone()
            .into_position::<Chess>(mode)
            .or_else(|e| e.ignore_impossible_check())
            .or_else(|e| e.ignore_too_much_material())
    };
    let first = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    lenient(first)
        // Castling rights that only make sense in Chess960 (rooks not in the corners).
        .or_else(|_| lenient(CastlingMode::Chess960))
        .or_else(|e| e.ignore_invalid_castling_rights())
        .or_else(|e| e.ignore_invalid_ep_square())
        .or_else(|e| e.ignore_impossible_check())
        .or_else(|e| e.ignore_too_much_material())
        .map_err(|e| format!("illegal position '{fen}': {e}"))
}

/// Parses a move in UCI notation (`e2e4`, `e7e8q`, `e1g1` or `e1h1`) and
/// checks that it is legal in `pos`.
pub fn parse_uci_move(pos: &Chess, text: &str) -> Result<Move, String> {
    let uci: UciMove = text
        .parse()
        .map_err(|_| format!("'{text}' is not a move in UCI notation"))?;
    uci.to_move(pos)
        .map_err(|_| format!("'{text}' is not legal in this position"))
}

/// A move in UCI notation; castling as king-to-rook in Chess960.
pub fn uci(m: Move, chess960: bool) -> String {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    m.to_uci(mode).to_string()
}

/// Positions of a pseudo-random game walk from the start position, up to
/// `plies` deep (seeded, so a test that reads them is reproducible),
/// captures preferred now and then so the walk reaches endgames: for tests
/// that compare two ways of reading the same positions.
pub fn random_walk(seed: u64, plies: usize) -> Vec<Chess> {
    // A small xorshift: no dependency for a test's dice.
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut pos = Chess::default();
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let caps: Vec<&shakmaty::Move> = moves.iter().filter(|m| m.is_capture()).collect();
        let m = if !caps.is_empty() && next().is_multiple_of(3) {
            *caps[(next() % caps.len() as u64) as usize]
        } else {
            moves[(next() % moves.len() as u64) as usize]
        };
        pos.play_unchecked(m);
        out.push(pos.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_keys_match_full_keys_along_a_game() {
        let mut pos = Chess::default();
        let mut key = hash(&pos);
        for text in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8b6", "c6b7", "e8d8",
            "b7a8q", "b8c6", "g1f3", "e7e5", "e1g1", "e5e4", "d2d4", "e4d3", "c2c4", "d3d2",
        ] {
            let m = parse_uci_move(&pos, text).unwrap();
            let (child, k) = play(&pos, key, m);
            assert_eq!(k, hash(&child), "after {text}");
            pos = child;
            key = k;
        }
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
            "4k3/8/8/8/1b6/8/3P4/R3K3 w Q - 0 1",
            "8/8/8/3k4/8/8/4PB2/4K2R w K - 0 1",
        ] {
            let pos = from_fen(fen, false).unwrap();
            for &m in &pos.legal_moves() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                assert_eq!(gives_check(&pos, m), child.is_check(), "{fen} {m}");
            }
        }
    }

    #[test]
    fn fens_without_counters_and_chess960_castling_are_accepted() {
        assert!(from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            false
        )
        .is_ok());
        let c960 = from_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            false,
        )
        .unwrap();
        assert_eq!(c960.castles().castling_rights().count(), 4);
        // Chess960 castling in UCI is king-takes-rook.
        let c960 = from_fen("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", true).unwrap();
        let m = parse_uci_move(&c960, "e1g1").unwrap();
        assert!(m.is_castle());
        assert_eq!(uci(m, true), "e1g1");
        let m = parse_uci_move(&c960, "e1b1").unwrap();
        assert!(m.is_castle());
        assert!(from_fen("not a fen", false).is_err());
        assert!(from_fen("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err());
        // Double check along one diagonal: impossible in a game, fine for perft.
        assert!(from_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", false).is_ok());
        // Castling rights without the rook: dropped.
        let p = from_fen("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", false).unwrap();
        assert!(p.castles().is_empty());
        // The side not to move in check: refused.
        assert!(from_fen("4k3/8/8/8/8/8/8/4K2r b - - 0 1", false).is_err());
    }
}
