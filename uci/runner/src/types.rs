//! The types every match module shares, kept here so that no two modules import each other.

use shakmaty::{fen::Fen, CastlingMode, Chess, Color, Move};

/// How each move is limited.
#[derive(Clone, Copy, Debug)]
pub enum Control {
    /// Base time and increment, in milliseconds.
    Clock {
        base_ms: u64,
        inc_ms: u64,
    },
    Nodes(u64),
    Depth(u32),
    MoveTime(u64),
}

impl Control {
    /// The PGN `TimeControl` tag value.
    pub fn tag(&self) -> String {
        match self {
            Control::Clock { base_ms, inc_ms } => {
                format!("{}+{}", *base_ms as f64 / 1000.0, *inc_ms as f64 / 1000.0)
            }
            Control::Nodes(n) => format!("nodes={n}"),
            Control::Depth(d) => format!("depth={d}"),
            Control::MoveTime(ms) => format!("{}/move", *ms as f64 / 1000.0),
        }
    }
}

/// A game's result.
#[derive(Clone, Debug, PartialEq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`).
    pub fn pgn(&self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result when `side` loses (mated, forfeited, failed).
    pub fn loss_for(side: Color) -> GameResult {
        match side {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }
    }
}

/// A finished game: its moves, result, ending and what the engines said.
pub struct Played {
    pub result: GameResult,
    /// Why the game ended, as in PGN `Termination` ("normal", "time forfeit", ...),
    /// with a detail for people.
    pub termination: String,
    pub detail: String,
    pub start: Chess,
    pub start_fen: Option<String>,
    pub moves: Vec<Move>,
    /// One per move: what the engine said of it, as cutechess and fastchess
    /// write it (`+0.31/15 0.52s`: score from the mover's view, depth, time);
    /// `None` for the opening's moves.
    pub comments: Vec<Option<String>>,
    /// The engine (white or black) that failed, if one did: it must be restarted.
    pub failed: Option<Color>,
}

/// Where a game starts: a position and the opening moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    pub name: String,
    pub start: Chess,
    /// FEN of the start position, if not the standard one.
    pub fen: Option<String>,
    pub moves: Vec<Move>,
}

/// The start position of a FEN (standard castling), for openings.
pub fn position_from_fen(fen: &str) -> Option<Chess> {
    fen.parse::<Fen>()
        .ok()?
        .into_position(CastlingMode::Standard)
        .ok()
}
