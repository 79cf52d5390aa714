//! Grandmaster games from PGN, as found in the wild: Windows-1252 headers,
//! comments, variations, NAGs, `[SetUp]`/`[FEN]` starts, Chess960 and other
//! variants, truncated games, illegal moves, empty games. A bad game is
//! skipped, or cut at its first bad move, and counted by reason; nothing
//! good is lost and nothing panics.

use std::io::Read;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Color, KnownOutcome, Move, Position};

/// Result of a game from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
    #[default]
    Unknown,
}

impl GameResult {
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(c: u8) -> GameResult {
        match c {
            0 => GameResult::WhiteWins,
            1 => GameResult::Draw,
            2 => GameResult::BlackWins,
            _ => GameResult::Unknown,
        }
    }

    /// Points for `side`: 1, 0.5, 0, or `None` when unknown.
    pub fn score_for(self, side: Color) -> Option<f32> {
        match (self, side) {
            (GameResult::Draw, _) => Some(0.5),
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => {
                Some(1.0)
            }
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => {
                Some(0.0)
            }
            (GameResult::Unknown, _) => None,
        }
    }

    fn parse(s: &str) -> GameResult {
        match s.trim() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "1/2" | "½-½" => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }
}

/// One game: headers and the moves from its start position.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    pub white_elo: u16,
    pub black_elo: u16,
    pub year: u16,
    pub event: String,
    pub result: GameResult,
    /// FEN of the start position when the game has `[SetUp "1"]`/`[FEN]`.
    pub fen: Option<String>,
    pub moves: Vec<Move>,
}

impl GameRecord {
    /// The start position.
    pub fn start(&self) -> Chess {
        self.fen
            .as_deref()
            .and_then(|f| f.parse::<Fen>().ok())
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_default()
    }
}

/// Why a game was skipped or cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trouble {
    /// Skipped: a variant other than standard chess (Chess960 included).
    Variant,
    /// Skipped: a `[FEN]` tag that is not a legal standard position.
    BadFen,
    /// Skipped: no moves at all.
    Empty,
    /// Cut at an illegal or unreadable move (the moves before it are kept).
    IllegalMoveCut,
    /// Skipped: an illegal move before any legal one.
    IllegalFirstMove,
}

impl Trouble {
    pub fn describe(self) -> &'static str {
        match self {
            Trouble::Variant => "variant (not standard chess)",
            Trouble::BadFen => "bad FEN tag",
            Trouble::Empty => "no moves",
            Trouble::IllegalMoveCut => "cut at an illegal move",
            Trouble::IllegalFirstMove => "illegal first move",
        }
    }
}

/// A game as read: the record to index (if any) and what was wrong with it.
#[derive(Debug)]
pub struct ReadGame {
    pub game: Option<GameRecord>,
    pub trouble: Option<Trouble>,
}

#[derive(Default)]
pub struct Tags {
    record: GameRecord,
    variant: bool,
    bad_fen: bool,
}

pub struct Movetext {
    record: GameRecord,
    pos: Chess,
}

/// Header text: UTF-8 if it is, else Windows-1252 (what old PGN files use).
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

struct GameVisitor;

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = ReadGame;

    fn begin_tags(&mut self) -> ControlFlow<ReadGame, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<ReadGame> {
        let v = decode(value.as_bytes());
        let r = &mut tags.record;
        match name {
            b"White" => r.white = v,
            b"Black" => r.black = v,
            b"WhiteElo" => r.white_elo = v.trim().parse().unwrap_or(0),
            b"BlackElo" => r.black_elo = v.trim().parse().unwrap_or(0),
            b"Event" => r.event = v,
            b"Date" => r.year = v.get(..4).and_then(|y| y.parse().ok()).unwrap_or(0),
            b"Result" => r.result = GameResult::parse(&v),
            b"Variant" => {
                let v = v.to_ascii_lowercase();
                tags.variant = !(v.is_empty() || v == "standard" || v == "from position");
            }
            b"FEN" => {
                let ok = v
                    .parse::<Fen>()
                    .ok()
                    .and_then(|f| f.into_position::<Chess>(CastlingMode::Standard).ok())
                    .is_some();
                if ok {
                    r.fen = Some(v);
                } else {
                    tags.bad_fen = true;
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<ReadGame, Movetext> {
        let trouble = if tags.variant {
            Some(Trouble::Variant)
        } else if tags.bad_fen {
            Some(Trouble::BadFen)
        } else {
            None
        };
        if let Some(t) = trouble {
            return ControlFlow::Break(ReadGame {
                game: None,
                trouble: Some(t),
            });
        }
        let pos = tags.record.start();
        ControlFlow::Continue(Movetext {
            record: tags.record,
            pos,
        })
    }

    fn san(&mut self, mt: &mut Movetext, san_plus: SanPlus) -> ControlFlow<ReadGame> {
        match san_plus.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.pos.play_unchecked(m);
                mt.record.moves.push(m);
                ControlFlow::Continue(())
            }
            Err(_) => {
                let record = std::mem::take(&mut mt.record);
                ControlFlow::Break(if record.moves.is_empty() {
                    ReadGame {
                        game: None,
                        trouble: Some(Trouble::IllegalFirstMove),
                    }
                } else {
                    ReadGame {
                        game: Some(record),
                        trouble: Some(Trouble::IllegalMoveCut),
                    }
                })
            }
        }
    }

    fn begin_variation(&mut self, _mt: &mut Movetext) -> ControlFlow<ReadGame, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, mt: &mut Movetext, outcome: Outcome) -> ControlFlow<ReadGame> {
        if mt.record.result == GameResult::Unknown {
            mt.record.result = match outcome {
                Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::White,
                }) => GameResult::WhiteWins,
                Outcome::Known(KnownOutcome::Decisive {
                    winner: Color::Black,
                }) => GameResult::BlackWins,
                Outcome::Known(KnownOutcome::Draw) => GameResult::Draw,
                _ => GameResult::Unknown,
            };
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Movetext) -> ReadGame {
        if mt.record.moves.is_empty() {
            ReadGame {
                game: None,
                trouble: Some(Trouble::Empty),
            }
        } else {
            ReadGame {
                game: Some(mt.record),
                trouble: None,
            }
        }
    }
}

/// Reads every game of `input`, calling `each` in order. An I/O error ends
/// the reading (games read so far stay read).
pub fn read_games<R: Read>(input: R, mut each: impl FnMut(ReadGame)) -> std::io::Result<()> {
    let mut reader = Reader::new(input);
    let mut visitor = GameVisitor;
    while let Some(game) = reader.read_game(&mut visitor)? {
        each(game);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> Vec<ReadGame> {
        let mut out = Vec::new();
        read_games(text, |g| out.push(g)).unwrap();
        out
    }

    #[test]
    fn plain_game_with_comments_variations_and_nags() {
        let g = read(b"[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[Date \"2001.05.??\"]\n[WhiteElo \"2750\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5 1-0\n");
        assert_eq!(g.len(), 1);
        let r = g[0].game.as_ref().unwrap();
        assert_eq!(r.moves.len(), 5);
        assert_eq!(
            (r.white.as_str(), r.year, r.white_elo, r.result),
            ("A", 2001, 2750, GameResult::WhiteWins)
        );
        assert!(g[0].trouble.is_none());
    }

    #[test]
    fn windows_1252_names() {
        let g = read(b"[White \"Ljubojevi\xe6, Ljubomir\"]\n[Black \"B\"]\n\n1. d4 d5 *\n");
        assert_eq!(
            g[0].game.as_ref().unwrap().white,
            "Ljubojevi\u{e6}, Ljubomir"
        );
    }

    #[test]
    fn illegal_move_cuts_and_bad_games_are_skipped_with_reasons() {
        let g = read(b"[White \"A\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[White \"B\"]\n\n*\n\n[Variant \"Chess960\"]\n\n1. e4 *\n\n[SetUp \"1\"]\n[FEN \"not a fen\"]\n\n1. e4 *\n\n[White \"C\"]\n\n1. Nf6 *\n");
        let troubles: Vec<_> = g.iter().map(|x| x.trouble).collect();
        assert_eq!(
            troubles,
            vec![
                Some(Trouble::IllegalMoveCut),
                Some(Trouble::Empty),
                Some(Trouble::Variant),
                Some(Trouble::BadFen),
                Some(Trouble::IllegalFirstMove)
            ]
        );
        assert_eq!(g[0].game.as_ref().unwrap().moves.len(), 2);
    }

    #[test]
    fn setup_fen_games_start_from_their_position() {
        let g = read(b"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n");
        let r = g[0].game.as_ref().unwrap();
        assert_eq!(r.moves.len(), 2);
        assert!(r.fen.is_some());
        assert_eq!(r.start().board().occupied().count(), 3);
    }

    #[test]
    fn garbage_never_panics() {
        let mut state = 0x1234_5678_9abc_def1u64;
        let base = b"[White \"A\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 {c} (1. d4) e5 $2 2. Nf3 1-0\n".to_vec();
        for _ in 0..3000 {
            let mut b = base.clone();
            for _ in 0..4 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let at = (state as usize) % (b.len() + 1);
                if at < b.len() && state & 1 == 0 {
                    b[at] = (state >> 8) as u8;
                } else {
                    b.insert(at, (state >> 16) as u8);
                }
            }
            let _ = read_games(&b[..], |_| {});
        }
    }
}
