//! A position from what a person types: a FEN, or moves from the start in UCI or SAN (PGN movetext).

use mach_engine::board;
use shakmaty::{san::San, Chess, Move, Position};

/// Characters of a bad move quoted in an error (a pasted novel is not echoed back).
const MAX_SHOWN: usize = 20;

/// A position and how it was reached.
#[derive(Clone, Debug)]
pub struct Line {
    /// Every position from the start to the current one (just the current one for a FEN).
    pub positions: Vec<Chess>,
    /// The moves from the start, in UCI notation (empty for a FEN).
    pub moves: Vec<String>,
    /// The FEN given, if the position was given as one.
    pub fen: Option<String>,
}

impl Line {
    /// The current position.
    pub fn pos(&self) -> &Chess {
        self.positions
            .last()
            .expect("a line has at least one position")
    }

    /// Plays `m` at the end of the line, in place: replaying a game is
    /// linear in its length (a copy of the line per move made it quadratic).
    pub fn play(&mut self, m: Move) {
        let mut pos = self.pos().clone();
        self.moves.push(board::uci(m, false));
        pos.play_unchecked(m);
        if self.fen.is_some() {
            self.positions.clear();
        }
        self.positions.push(pos);
    }
}

/// The position of a FEN.
pub fn from_fen(fen: &str) -> Result<Line, String> {
    let pos = board::from_fen(fen.trim(), false)?;
    Ok(Line {
        positions: vec![pos],
        moves: Vec::new(),
        fen: Some(fen.trim().to_string()),
    })
}

/// The position after `text`: moves from the start, each in UCI (`e2e4`) or
/// SAN (`Nf3`), with PGN move numbers, tags, comments and results ignored.
pub fn from_moves(text: &str) -> Result<Line, String> {
    extend(start(), text)
}

/// The start position, no moves yet.
fn start() -> Line {
    Line {
        positions: vec![Chess::default()],
        moves: Vec::new(),
        fen: None,
    }
}

/// `line` with the moves of `text` (UCI or SAN, as [`from_moves`] reads them) played on.
pub fn extend(line: Line, text: &str) -> Result<Line, String> {
    extend_at_most(line, text, usize::MAX)
}

/// [`extend`], refusing a line that would be longer than `max_plies` moves
/// (counted from the start, or from the FEN) before replaying the rest.
pub fn extend_at_most(mut line: Line, text: &str, max_plies: usize) -> Result<Line, String> {
    let body: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut depth = 0;
    for raw in body.split_whitespace() {
        if raw.starts_with('{') || depth > 0 {
            depth += raw.matches('{').count();
            depth -= raw.matches('}').count().min(depth);
            continue;
        }
        let t = raw.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if t.is_empty() || matches!(raw, "*" | "1-0" | "0-1" | "1/2-1/2") || t.starts_with('$') {
            continue;
        }
        let n = line.moves.len() + 1;
        if n > max_plies {
            return Err(format!(
                "the line is longer than {max_plies} plies (half-moves), the most read here"
            ));
        }
        let pos = line.pos();
        let m = board::parse_uci_move(pos, t)
            .or_else(|_| {
                t.parse::<San>()
                    .map_err(|e| e.to_string())
                    .and_then(|s| s.to_move(pos).map_err(|e| e.to_string()))
            })
            .map_err(|_| {
                let shown: String = t.chars().take(MAX_SHOWN).collect();
                let cut = if shown.len() < t.len() { "..." } else { "" };
                format!("move {n} '{shown}{cut}' is neither a legal UCI nor a legal SAN move here")
            })?;
        line.play(m);
    }
    Ok(line)
}

/// A FEN when `text` looks like one (its first word has the seven `/` of a
/// board), else moves (a PGN's `[Date "2020/01/01"]` or `1/2-1/2` are moves),
/// refusing more than `max_plies` of them before replaying the rest.
pub fn parse(text: &str, max_plies: usize) -> Result<Line, String> {
    let first = text.split_whitespace().next().unwrap_or("");
    if first.matches('/').count() == 7 {
        from_fen(text)
    } else {
        extend_at_most(start(), text, max_plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_san_and_pgn_movetext_reach_the_same_position() {
        let a = from_moves("e2e4 c7c5 g1f3").unwrap();
        let b = from_moves("1. e4 c5 2. Nf3 {a comment} *").unwrap();
        let c = from_moves("[Event \"x\"]\n\n1.e4 c5 2.Nf3").unwrap();
        assert_eq!(a.pos().board(), b.pos().board());
        assert_eq!(a.pos().board(), c.pos().board());
        assert_eq!(b.moves, ["e2e4", "c7c5", "g1f3"]);
    }

    #[test]
    fn an_illegal_move_is_named_in_the_error() {
        let e = from_moves("e2e4 e2e4").unwrap_err();
        assert!(e.contains("move 2 'e2e4'"), "{e}");
        assert!(parse("a/b/c/d/e/f/g/h w - - 0 1", 10).is_err());
        assert!(parse("[Date \"2020/01/01\"]\n\n1. e4 e5 1/2-1/2", 10).is_ok());
    }

    /// A legal game of `plies` half-moves: the knights out and back, over and over.
    fn knight_shuffle(plies: usize) -> String {
        ["g1f3", "g8f6", "f3g1", "f6g8"]
            .iter()
            .cycle()
            .take(plies)
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_hundred_thousand_plies_replay_in_linear_time() {
        // Copying the line at every move took 13 s for 16,000 plies and
        // never finished 100,000; in place it is a fraction of a second.
        let text = knight_shuffle(100_000);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(from_moves(&text).map(|l| (l.moves.len(), l.positions.len())));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("100,000 plies replayed within 20 s");
        assert_eq!(got, Ok((100_000, 100_001)));
    }

    #[test]
    fn a_line_over_the_limit_is_refused_with_the_limit_named() {
        assert_eq!(
            parse(&knight_shuffle(2000), 2000).unwrap().moves.len(),
            2000
        );
        let e = parse(&knight_shuffle(2001), 2000).unwrap_err();
        assert!(e.contains("longer than 2000 plies"), "{e}");
        let fen = from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap();
        let e = extend_at_most(fen, "a1a2 c1c2 a2a1", 2).unwrap_err();
        assert!(e.contains("longer than 2 plies"), "{e}");
        let fen = from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap();
        let two = extend_at_most(fen, "a1a2 c1c2", 2).unwrap();
        assert_eq!((two.moves.len(), two.positions.len()), (2, 1));
    }
}
