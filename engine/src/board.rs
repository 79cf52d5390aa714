//! What the search needs on top of shakmaty's `Chess`: Zobrist keys kept up to
//! date move by move, null moves, and FEN/UCI helpers.

use shakmaty::{
    fen::Fen, uci::UciMove, zobrist::Zobrist64, CastlingMode, Chess, EnPassantMode, Move, Position,
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

/// Parses a FEN, accepting FENs without move counters and both standard and
/// Chess960 (Shredder/X-FEN) castling rights.
pub fn from_fen(fen: &str, chess960: bool) -> Result<Chess, String> {
    let parsed: Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("invalid FEN '{fen}': {e}"))?;
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    match parsed.clone().into_position(mode) {
        Ok(pos) => Ok(pos),
        // Castling rights that only make sense in Chess960 (rooks not in the
        // corners): accept them rather than refuse the position.
        Err(_) if !chess960 => parsed
            .into_position(CastlingMode::Chess960)
            .map_err(|e| format!("illegal position '{fen}': {e}")),
        Err(e) => Err(format!("illegal position '{fen}': {e}")),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incremental_keys_match_full_keys_along_a_game() {
        let mut pos = Chess::default();
        let mut key = hash(&pos);
        for text in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8b6", "c6b7", "e8d8",
            "b7a8q", "b8c6", "g1f3", "c8g4", "e1g1", "e7e5", "d2d4", "e5e4", "c2c4", "e4d3",
        ] {
            let m = parse_uci_move(&pos, text).unwrap();
            let (child, k) = play(&pos, key, m);
            assert_eq!(k, hash(&child), "after {text}");
            pos = child;
            key = k;
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
        assert!(parse_uci_move(&c960, "g1h1").is_ok() || parse_uci_move(&c960, "g1f1").is_ok());
        assert!(from_fen("not a fen", false).is_err());
        assert!(from_fen("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err());
    }
}
