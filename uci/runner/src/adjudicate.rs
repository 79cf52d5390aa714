//! Ends a game early once both engines agree on its outcome (resign and draw adjudication).
//!
//! As in cutechess-cli and fastchess; it saves most of the time of a match
//! without changing its result.
//!
//! - Resign: for the last `moves` moves of *each* engine, both reported a
//!   score of at least `score` centipawns for the same side.
//! - Draw: from move `from_move` on, for the last `moves` moves of each
//!   engine, every score was within `score` of zero, and no capture or pawn
//!   move reset the count.
//!
//! A move without a score (an engine that reports none, a book move) breaks
//! both counts, so an engine that says nothing is never adjudicated.

use shakmaty::Color;

use super::types::GameResult;

/// The resign rule: `moves` moves per engine at `score` centipawns or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    pub moves: usize,
    pub score: i32,
}

/// The draw rule: from move `from_move`, `moves` moves per engine within `score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub from_move: u32,
    pub moves: usize,
    pub score: i32,
}

/// Which rules are on; both off by default (every game is played out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<Resign>,
    pub draw: Option<Draw>,
}

/// Defaults close to fishtest's: resign at 6 pawns for 3 moves each,
/// draw within 0.1 pawn for 8 moves each from move 40.
pub const RESIGN: Resign = Resign {
    moves: 3,
    score: 600,
};
pub const DRAW: Draw = Draw {
    from_move: 40,
    moves: 8,
    score: 10,
};

impl Adjudication {
    /// The rules of an `--adjudicate` argument: none when it is absent.
    pub fn from_arg(words: Option<&[String]>) -> Result<Adjudication, String> {
        Ok(words
            .map(Adjudication::parse)
            .transpose()?
            .unwrap_or_default())
    }

    /// `--adjudicate` words: none turns both rules on with their defaults;
    /// `resign` or `draw` turns one on; `resign_moves=N resign_score=CP
    /// draw_from=N draw_moves=N draw_score=CP` set (and turn on) a rule.
    pub fn parse(words: &[String]) -> Result<Adjudication, String> {
        if words.is_empty() {
            return Ok(Adjudication {
                resign: Some(RESIGN),
                draw: Some(DRAW),
            });
        }
        let mut a = Adjudication::default();
        for w in words {
            let (k, v) = match w.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (w.as_str(), None),
            };
            let num = |v: Option<&str>| -> Result<u32, String> {
                v.ok_or_else(|| format!("--adjudicate {k} needs =N"))?
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("--adjudicate {k}: a whole number above 0"))
            };
            match k {
                "resign" if v.is_none() => a.resign = Some(a.resign.unwrap_or(RESIGN)),
                "draw" if v.is_none() => a.draw = Some(a.draw.unwrap_or(DRAW)),
                "resign_moves" => a.resign.get_or_insert(RESIGN).moves = num(v)? as usize,
                "resign_score" => a.resign.get_or_insert(RESIGN).score = num(v)? as i32,
                "draw_from" => a.draw.get_or_insert(DRAW).from_move = num(v)?,
                "draw_moves" => a.draw.get_or_insert(DRAW).moves = num(v)? as usize,
                "draw_score" => a.draw.get_or_insert(DRAW).score = num(v)? as i32,
                _ => {
                    return Err(format!(
                        "unknown --adjudicate word '{w}' (resign, draw, resign_moves=N, \
                         resign_score=CP, draw_from=N, draw_moves=N, draw_score=CP)"
                    ))
                }
            }
        }
        Ok(a)
    }

    /// One line for the match summary.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(r) = self.resign {
            parts.push(format!(
                "resign at {} cp for {} moves each",
                r.score, r.moves
            ));
        }
        if let Some(d) = self.draw {
            parts.push(format!(
                "draw within {} cp for {} moves each from move {}",
                d.score, d.moves, d.from_move
            ));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join("; ")
        }
    }
}

/// Watches one game's scores and says when a rule ends it.
pub struct Judge {
    rules: Adjudication,
    /// One entry per engine move: its score from White's point of view.
    white_pov: Vec<Option<i32>>,
    /// Plies in a row that satisfy the draw rule.
    quiet_plies: usize,
}

impl Judge {
    /// A judge for one game, with nothing recorded yet.
    pub fn new(rules: Adjudication) -> Judge {
        Judge {
            rules,
            white_pov: Vec::new(),
            quiet_plies: 0,
        }
    }

    /// Records a move: the mover's reported score (from its own side),
    /// the full-move number it was played at, and whether it was a capture
    /// or pawn move. Returns the adjudicated result and why, if any.
    pub fn record(
        &mut self,
        mover: Color,
        score: Option<i32>,
        fullmove: u32,
        zeroing: bool,
    ) -> Option<(GameResult, String)> {
        let white = score.map(|s| if mover == Color::White { s } else { -s });
        self.white_pov.push(white);
        if let Some(r) = self.rules.resign {
            let n = 2 * r.moves;
            if self.white_pov.len() >= n {
                let last = &self.white_pov[self.white_pov.len() - n..];
                for (side, sign) in [(Color::White, 1), (Color::Black, -1)] {
                    if last.iter().all(|s| s.is_some_and(|s| sign * s >= r.score)) {
                        let result = if side == Color::White {
                            GameResult::WhiteWins
                        } else {
                            GameResult::BlackWins
                        };
                        let why = format!(
                            "resign: both engines scored {side:?} at {} cp or more for {} moves",
                            r.score, r.moves
                        );
                        return Some((result, why));
                    }
                }
            }
        }
        if let Some(d) = self.rules.draw {
            let quiet = white.is_some_and(|s| s.abs() <= d.score) && !zeroing;
            self.quiet_plies = if quiet { self.quiet_plies + 1 } else { 0 };
            if fullmove >= d.from_move && self.quiet_plies >= 2 * d.moves {
                let why = format!(
                    "draw: both engines within {} cp for {} moves",
                    d.score, d.moves
                );
                return Some((GameResult::Draw, why));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_words() {
        let both = Adjudication::parse(&[]).unwrap();
        assert_eq!(both.resign, Some(RESIGN));
        assert_eq!(both.draw, Some(DRAW));
        let r = Adjudication::parse(&words("resign_score=400")).unwrap();
        assert_eq!(
            r.resign,
            Some(Resign {
                moves: 3,
                score: 400
            })
        );
        assert_eq!(r.draw, None);
        let d = Adjudication::parse(&words("draw draw_from=30")).unwrap();
        assert_eq!(d.draw.map(|d| d.from_move), Some(30));
        assert_eq!(d.resign, None);
        for bad in [
            "resign=3",
            "resign_moves=0",
            "draw_score=-5",
            "draw_from=x",
            "tb",
        ] {
            assert!(Adjudication::parse(&words(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn resigns_only_when_both_engines_agree_long_enough() {
        let rules = Adjudication::parse(&words("resign_moves=2 resign_score=500")).unwrap();
        let mut j = Judge::new(rules);
        // White thinks it is winning, Black does not yet.
        assert!(j.record(Color::White, Some(700), 20, false).is_none());
        assert!(j.record(Color::Black, Some(-100), 20, false).is_none());
        assert!(j.record(Color::White, Some(800), 21, false).is_none());
        assert!(j.record(Color::Black, Some(-600), 21, false).is_none());
        assert!(j.record(Color::White, Some(900), 22, false).is_none());
        let (res, why) = j.record(Color::Black, Some(-650), 22, false).unwrap();
        assert_eq!(res, GameResult::WhiteWins);
        assert!(why.contains("White"), "{why}");
        // A missing score breaks the run.
        let mut j = Judge::new(rules);
        for (i, s) in [Some(-900), Some(900), None, Some(900), Some(-900)]
            .into_iter()
            .enumerate()
        {
            let mover = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert!(j.record(mover, s, 30, false).is_none());
        }
        assert!(j.record(Color::Black, Some(950), 31, false).is_none());
        let (res, _) = j.record(Color::White, Some(-950), 32, false).unwrap();
        assert_eq!(res, GameResult::BlackWins);
    }

    #[test]
    fn draws_only_late_quiet_and_without_captures() {
        let rules = Adjudication::parse(&words("draw_from=10 draw_moves=2 draw_score=15")).unwrap();
        let mut j = Judge::new(rules);
        // Quiet but too early.
        for n in 5..9 {
            assert!(j.record(Color::White, Some(5), n, false).is_none());
            assert!(j.record(Color::Black, Some(-5), n, false).is_none());
        }
        // A capture resets the count at move 10.
        assert!(j.record(Color::White, Some(0), 10, true).is_none());
        assert!(j.record(Color::Black, Some(0), 10, false).is_none());
        assert!(j.record(Color::White, Some(0), 11, false).is_none());
        assert!(j.record(Color::Black, Some(20), 11, false).is_none()); // too big
        assert!(j.record(Color::White, Some(3), 12, false).is_none());
        assert!(j.record(Color::Black, Some(3), 12, false).is_none());
        assert!(j.record(Color::White, Some(-3), 13, false).is_none());
        let (res, _) = j.record(Color::Black, Some(0), 13, false).unwrap();
        assert_eq!(res, GameResult::Draw);
    }

    #[test]
    fn off_by_default() {
        let mut j = Judge::new(Adjudication::default());
        for n in 1..200 {
            assert!(j.record(Color::White, Some(5000), n, false).is_none());
            assert!(j.record(Color::Black, Some(-5000), n, false).is_none());
        }
    }
}
