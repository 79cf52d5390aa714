//! Grandmaster games from PGN, as found in the wild: Windows-1252 headers,
//! comments, variations, NAGs, `[SetUp]`/`[FEN]` starts, Chess960 and other
//! variants, truncated games, illegal moves, empty games, files that end in
//! the middle of a tag or comment, tag lines too long to read. A bad game is
//! skipped, or cut at its first bad move, and counted by reason; nothing
//! good is lost and nothing panics.

use std::io::{self, Read};
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
    /// Skipped: the file ends inside one of its tags or comments.
    Truncated,
    /// Skipped: one of its tag lines is longer than [`MAX_TAG_LINE`].
    TagTooLong,
}

impl Trouble {
    pub fn describe(self) -> &'static str {
        match self {
            Trouble::Variant => "variant (not standard chess)",
            Trouble::BadFen => "bad FEN tag",
            Trouble::Empty => "no moves",
            Trouble::IllegalMoveCut => "cut at an illegal move",
            Trouble::IllegalFirstMove => "illegal first move",
            Trouble::Truncated => "truncated (the file ends inside a tag or comment)",
            Trouble::TagTooLong => "a tag line over 64 KiB",
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
    /// A tag longer than [`MAX_TAG_LINE`] (one pgn-reader happened to hold).
    too_long: bool,
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
        if name.len() + value.as_bytes().len() > MAX_TAG_LINE {
            tags.too_long = true;
            return ControlFlow::Continue(());
        }
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
        let trouble = if tags.too_long {
            Some(Trouble::TagTooLong)
        } else if tags.variant {
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

/// The longest tag read, in bytes (name and value; the PGN standard asks
/// for 255). pgn-reader reads at least this much ahead before each tag, so
/// any tag up to it is read whatever the input; a game with a longer one is
/// skipped as [`Trouble::TagTooLong`].
pub const MAX_TAG_LINE: usize = 64 * 1024;

/// The two errors pgn-reader 0.29 gives for the text itself (everything
/// else it returns comes from the underlying reader): a tag line it could
/// not hold or that the file cut, and a comment the file cut.
fn parse_error(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::InvalidData
        && matches!(
            e.to_string().as_str(),
            "unterminated tag" | "unterminated comment"
        )
}

/// Reads every game of `input`, calling `each` in order. A game whose tag
/// line is too long, or that the end of the file cuts inside a tag or a
/// comment, is passed on as skipped ([`Trouble::TagTooLong`],
/// [`Trouble::Truncated`]) and the reading goes on with the next game. An
/// I/O error ends the reading (games read so far stay read).
pub fn read_games<R: Read>(input: R, mut each: impl FnMut(ReadGame)) -> io::Result<()> {
    read_games_while(input, |g| {
        each(g);
        ControlFlow::Continue(())
    })
}

/// [`read_games`] that stops reading when `each` says so (a reader that
/// needs only the first games of a large file).
pub fn read_games_while<R: Read>(
    input: R,
    mut each: impl FnMut(ReadGame) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut reader = Reader::build(input)
        .set_supported_tag_line_length(MAX_TAG_LINE)
        .finish();
    let mut visitor = GameVisitor;
    loop {
        let e = match reader.read_game(&mut visitor) {
            Ok(Some(game)) => {
                if each(game).is_break() {
                    return Ok(());
                }
                continue;
            }
            Ok(None) => return Ok(()),
            Err(e) if parse_error(&e) => e,
            Err(e) => return Err(e),
        };
        // pgn-reader has skipped the rest of the bad line (or reached the
        // end of the file): nothing more of this game is read.
        let at_end = !reader.has_more()?;
        log::debug!("PGN: {e}{}", if at_end { " at the end" } else { "" });
        let skipped = ReadGame {
            game: None,
            trouble: Some(if at_end {
                Trouble::Truncated
            } else {
                Trouble::TagTooLong
            }),
        };
        if each(skipped).is_break() {
            return Ok(());
        }
        // Skip what is left of the game (its other tags and its moves), so
        // they are not read as a game of their own. Each error consumed at
        // least the '[' of a tag line, so this ends.
        loop {
            match reader.skip_game() {
                Ok(_) => break,
                Err(e) if parse_error(&e) => continue,
                Err(e) => return Err(e),
            }
        }
    }
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

    fn troubles(g: &[ReadGame]) -> Vec<Option<Trouble>> {
        g.iter().map(|x| x.trouble).collect()
    }

    /// Hands its bytes out a few at a time, as a pipe or the end of a
    /// buffer in front of the reader may.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.0.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// Three games, the second with a tag of `len` bytes and more tags after it.
    fn long_tag_between_two_games(len: usize) -> Vec<u8> {
        let mut t = b"[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n".to_vec();
        t.extend_from_slice(b"[White \"B\"]\n[Annotator \"");
        t.extend(std::iter::repeat_n(b'x', len));
        t.extend_from_slice(b"\"]\n[Black \"Z\"]\n\n1. d4 d5 2. c4 *\n\n");
        t.extend_from_slice(b"[White \"C\"]\n\n1. c4 e5 2. Nc3 Nf6 0-1\n");
        t
    }

    #[test]
    fn a_file_ending_inside_a_comment_keeps_the_games_before_it() {
        // The file: it used to fail whole ("unterminated comment").
        let g = read(b"[Event \"a\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n[Event \"b\"]\n\n1. d4 {cut");
        assert_eq!(troubles(&g), vec![None, Some(Trouble::Truncated)]);
        let r = g[0].game.as_ref().unwrap();
        assert_eq!((r.moves.len(), r.result), (2, GameResult::Draw));
        assert!(g[1].game.is_none());
    }

    #[test]
    fn a_file_ending_inside_a_tag_keeps_the_games_before_it() {
        for cut in [&b"[Event \"b"[..], b"[Event \"b\"]\n[Wh", b"[Event"] {
            let mut t = b"[Event \"a\"]\n\n1. e4 e5 *\n\n".to_vec();
            t.extend_from_slice(cut);
            let g = read(&t);
            assert_eq!(g[0].game.as_ref().unwrap().moves.len(), 2, "{cut:?}");
            assert!(g[1..].iter().all(|x| x.game.is_none()), "{cut:?}");
        }
        let g = read(b"[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b");
        assert_eq!(troubles(&g), vec![None, Some(Trouble::Truncated)]);
    }

    #[test]
    fn a_forty_kilobyte_tag_is_read_with_its_game() {
        let g = read(&long_tag_between_two_games(40 * 1024));
        assert_eq!(troubles(&g), vec![None, None, None]);
        let names: Vec<_> = g
            .iter()
            .map(|x| x.game.as_ref().unwrap())
            .map(|r| (r.white.as_str(), r.black.as_str(), r.moves.len()))
            .collect();
        assert_eq!(names, vec![("A", "", 2), ("B", "Z", 3), ("C", "", 4)]);
    }

    #[test]
    fn a_tag_over_the_limit_skips_only_its_own_game() {
        let g = read(&long_tag_between_two_games(MAX_TAG_LINE + 1000));
        assert_eq!(troubles(&g), vec![None, Some(Trouble::TagTooLong), None]);
        assert_eq!(g[0].game.as_ref().unwrap().white, "A");
        assert!(g[1].game.is_none());
        let c = g[2].game.as_ref().unwrap();
        assert_eq!((c.white.as_str(), c.moves.len()), ("C", 4));
        // Two long tags in one game, and one just before the end of the file.
        let mut t = long_tag_between_two_games(MAX_TAG_LINE * 2);
        let at = t.windows(3).position(|w| w == b"[Bl").unwrap();
        let long = vec![b'y'; MAX_TAG_LINE * 2];
        t.splice(at..at, [b"[Site \"".as_slice(), &long, b"\"]\n"].concat());
        t.extend_from_slice(b"\n[Event \"");
        t.extend(std::iter::repeat_n(b'z', MAX_TAG_LINE * 2));
        let g = read(&t);
        assert_eq!(
            troubles(&g),
            vec![
                None,
                Some(Trouble::TagTooLong),
                None,
                Some(Trouble::Truncated)
            ]
        );
        assert_eq!(g[2].game.as_ref().unwrap().white, "C");
    }

    #[test]
    fn a_long_tag_is_read_however_the_input_is_split() {
        // pgn-reader only guarantees the tag line length it was built for;
        // past that it depended on how many bytes each read happened to give.
        let text = long_tag_between_two_games(1000);
        let mut g = Vec::new();
        read_games(Trickle(&text), |x| g.push(x)).unwrap();
        assert_eq!(troubles(&g), vec![None, None, None]);
        assert_eq!(g[1].game.as_ref().unwrap().black, "Z");
    }

    #[test]
    fn an_io_error_is_still_an_error() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::InvalidData, "disk on fire"))
            }
        }
        let e = read_games(Broken, |_| {}).unwrap_err();
        assert_eq!(e.to_string(), "disk on fire");
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
