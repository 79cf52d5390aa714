//! The book door: the one place that decides whether a `go` is answered
//! from a book, the Polyglot file of `BookFile` or the grandmaster memory
//! (`OwnBook`), and that verifies the offered move the same way whichever
//! book offered it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use mach_advisor::book::{self, BookMove, BookRules};
use mach_advisor::polyglot;
use mach_engine::advice::{Experience, Known};
use mach_engine::time::TimeManager;
use mach_engine::{board, moves, Engine, Limits, SearchControl, SearchOptions, Silent};
use shakmaty::{Chess, Move, Position};

use crate::uci::output::{info_string, UciReporter};

/// How a book move is chosen and checked (UCI `BookMinGames`,
/// `BookMinScore`, `BookBackedUp`, `BookMargin`, `BookVerifyNodes`).
#[derive(Clone, Copy, Debug)]
pub struct BookPlay {
    pub rules: BookRules,
    /// Rejected if its verification score is more than this below the best move's.
    pub margin: i32,
    /// Nodes of each of the two verification searches (0: no verification).
    pub verify_nodes: u64,
}

impl Default for BookPlay {
    fn default() -> BookPlay {
        BookPlay {
            rules: BookRules::default(),
            margin: 50,
            verify_nodes: 8_000,
        }
    }
}

/// The books one search may play from (none at all when analysing:
/// `infinite`, `ponder`, `searchmoves`, `mate`, MultiPV).
#[derive(Clone)]
pub struct Books {
    pub play: BookPlay,
    /// `OwnBook` with the memory asked: its book answer is waited for.
    pub memory: bool,
    /// `BookFile`, with this search's random draw in [0, 1) to pick by weight.
    pub file: Option<(Arc<polyglot::Book>, f64)>,
    /// Mach's own analysis that judges a memory move before it is played
    /// (`BookAnalysis`: the built-in tree analysis, and the experience
    /// when it is on); empty: the verification searches alone.
    pub analysis: Vec<Arc<dyn Experience>>,
}

/// Analyses shallower than this do not judge a grandmaster move.
pub const JUDGE_MIN_DEPTH: i32 = 10;

/// What Mach's analysis says of a book move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Its best move, or within the margin of it: why (for the GUI), and
    /// the move's own line in the analysis (depth, score for the side to
    /// move), reported as the `info` line of the move played.
    Agrees { why: String, depth: i32, score: i32 },
    /// Worse than its best by more than the margin; why.
    Disagrees(String),
    /// It does not know the position (or the move's) deep enough.
    Unknown,
}

/// The deepest of the analyses' records of `key`.
fn deepest(analysis: &[Arc<dyn Experience>], key: u64) -> Option<Known> {
    analysis
        .iter()
        .filter_map(|a| a.probe(key))
        .max_by_key(|k| k.depth)
}

/// Judges the book move `mv` of `root` by Mach's analysis: it agrees when
/// `mv` is the move its search found best, or when the position after `mv`
/// is known and scores at most `margin` below the best; it disagrees when
/// that position scores worse; otherwise it does not know (the
/// verification searches decide). Mate scores are compared as they are.
pub fn judge(
    analysis: &[Arc<dyn Experience>],
    root: &Chess,
    mv: Move,
    margin: i32,
    chess960: bool,
) -> Verdict {
    let Some(here) = deepest(analysis, board::hash(root)).filter(|k| k.depth >= JUDGE_MIN_DEPTH)
    else {
        return Verdict::Unknown;
    };
    let best = moves::legal(root, here.mv);
    if best == Some(mv) {
        return Verdict::Agrees {
            why: format!(
                "Mach's analysis plays it too: depth {}, {} cp",
                here.depth, here.score
            ),
            depth: here.depth,
            score: here.score,
        };
    }
    let mut after = root.clone();
    after.play_unchecked(mv);
    let Some(there) =
        deepest(analysis, board::hash(&after)).filter(|k| k.depth >= JUDGE_MIN_DEPTH - 1)
    else {
        return Verdict::Unknown;
    };
    let loss = here.score - (-there.score);
    let best = best.map_or_else(|| "another move".to_string(), |b| board::uci(b, chess960));
    let (cp, side) = if loss < 0 {
        (-loss, "above")
    } else {
        (loss, "below")
    };
    let why = format!(
        "{cp} cp {side} {best} in Mach's analysis: depth {}, margin {margin}",
        here.depth
    );
    if loss > margin {
        Verdict::Disagrees(why)
    } else {
        Verdict::Agrees {
            why,
            depth: there.depth + 1,
            score: -there.score,
        }
    }
}

/// Which book offered a move, for what the GUI is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offered {
    File,
    Memory,
}

/// The `BookFile` move for this position, picked by weight (as Polyglot
/// does); `info string BookFile: e2e4 (e2e4 75%, d2d4 25%)`.
pub fn from_file(book: &polyglot::Book, r: f64, root: &Chess, chess960: bool) -> Option<Move> {
    let moves = book.moves(root);
    let m = polyglot::pick_from(&moves, r)?;
    let total: u32 = moves.iter().map(|(_, w)| *w as u32).sum();
    let list: Vec<String> = moves
        .iter()
        .map(|(m, w)| {
            let share = 100.0 * *w as f64 / total.max(1) as f64;
            format!("{} {share:.0}%", board::uci(*m, chess960))
        })
        .collect();
    info_string(&format!(
        "BookFile: {} ({})",
        board::uci(m, chess960),
        list.join(", ")
    ));
    Some(m)
}

/// The grandmaster memory's move for this position under the book rules;
/// its statistics go to the GUI (`info string book ...`).
pub fn from_memory(moves: &[BookMove], rules: BookRules, chess960: bool) -> Option<Move> {
    if !moves.is_empty() {
        info_string(&describe_book(moves, rules, chess960));
    }
    book::choose(moves, rules).map(|b| b.mv)
}

/// `info string book e2e4 12 games 58% (avg 2712, 2019) d2d4 ...`: what was played
/// from exactly this position, the moves the book rules allow marked `*`.
pub fn describe_book(moves: &[BookMove], rules: BookRules, chess960: bool) -> String {
    let chosen = book::choose(moves, rules).map(|b| b.mv);
    let mut s = String::from("book");
    for b in moves.iter().take(6) {
        s.push_str(&format!(
            " {}{} {} game{} {:.0}% (+{} ={} -{}, avg {}, {})",
            board::uci(b.mv, chess960),
            if Some(b.mv) == chosen { "*" } else { "" },
            b.games,
            if b.games == 1 { "" } else { "s" },
            100.0 * b.worth(rules),
            b.wins,
            b.draws,
            b.losses,
            b.avg_elo,
            b.last_year
        ));
    }
    s
}

/// What a verification search needs of the search it stands in for.
pub struct Verify<'a> {
    pub root: &'a Chess,
    pub keys: &'a [u64],
    /// The `go`'s limits: the clock bounds the verification.
    pub limits: &'a Limits,
    pub move_overhead: Duration,
    pub control: &'a Arc<SearchControl>,
    pub chess960: bool,
}

/// Checks an offered book move with two short searches (all moves, then
/// the book move alone); it is played unless it scores more than the
/// margin below the best. The second search's lines are reported, so the
/// GUI sees the move's score. `Err` when a search panicked (the engine must
/// then be made afresh).
pub fn verify(
    engine: &mut Engine,
    v: &Verify,
    mv: Move,
    offered: Offered,
    play: BookPlay,
    reporter: &UciReporter,
) -> Result<Option<Move>, ()> {
    let (label, from) = match offered {
        Offered::File => ("BookFile", "the book file"),
        Offered::Memory => ("book", "memory"),
    };
    let text = board::uci(mv, v.chess960);
    if play.verify_nodes == 0 {
        info_string(&format!(
            "{label} {text}: played from {from} (no verification)"
        ));
        return Ok(Some(mv));
    }
    let options = SearchOptions {
        multipv: 1,
        move_overhead: v.move_overhead,
        ..SearchOptions::default()
    };
    let r = catch_unwind(AssertUnwindSafe(|| {
        let all = verify_limits(v, play.verify_nodes, Vec::new());
        let best = engine.search(v.root, v.keys, &all, &options, v.control, &Silent);
        let only = verify_limits(v, play.verify_nodes, vec![mv]);
        let mine = engine.search(v.root, v.keys, &only, &options, v.control, reporter);
        (best, mine)
    }));
    let Ok((best, mine)) = r else {
        return Err(());
    };
    if mine.best != Some(mv) {
        return Ok(None);
    }
    let loss = best.score - mine.score;
    if loss > play.margin {
        info_string(&format!(
            "{label} {text}: rejected, {loss} cp below the best move (margin {})",
            play.margin
        ));
        return Ok(None);
    }
    info_string(&format!(
        "{label} {text}: played from {from} ({loss} cp below the best move found)"
    ));
    Ok(Some(mv))
}

/// A verification search's limits: `nodes`, and on a clock at most a
/// quarter of the move's planned time from now, so that even the largest
/// BookVerifyNodes cannot lose on time (`go infinite`: nodes and `stop` only).
fn verify_limits(v: &Verify, nodes: u64, searchmoves: Vec<Move>) -> Limits {
    let mut limits = Limits {
        searchmoves,
        ..Limits::nodes(nodes)
    };
    if v.limits.infinite {
        return limits;
    }
    if let Some(soft) = TimeManager::new(v.limits, v.root.turn(), v.move_overhead).soft() {
        // Measured like the search's own clock: from `go`, or from
        // `ponderhit` while pondering.
        let now = v.control.clock_elapsed().unwrap_or_default();
        limits.movetime = Some((now + soft / 4 + v.move_overhead).as_millis() as i64);
    }
    limits
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// An analysis made of a few positions' records.
    struct Analysis(HashMap<u64, Known>);

    impl Experience for Analysis {
        fn probe(&self, key: u64) -> Option<Known> {
            self.0.get(&key).copied()
        }
    }

    fn mv(pos: &Chess, uci: &str) -> Move {
        board::parse_uci_move(pos, uci).unwrap()
    }

    /// The start position known best as `best` (depth `depth`, +30), and
    /// the position after 1.e4 known at depth 11 with `after_e4` for Black.
    fn analysis(best: &str, depth: i32, after_e4: Option<i32>) -> Vec<Arc<dyn Experience>> {
        let root = Chess::default();
        let mut known = HashMap::new();
        known.insert(
            board::hash(&root),
            Known {
                mv: moves::encode(mv(&root, best)),
                score: 30,
                depth,
            },
        );
        if let Some(score) = after_e4 {
            let mut after = root.clone();
            after.play_unchecked(mv(&root, "e2e4"));
            known.insert(
                board::hash(&after),
                Known {
                    mv: moves::NO_MOVE,
                    score,
                    depth: 11,
                },
            );
        }
        vec![Arc::new(Analysis(known))]
    }

    fn verdict(a: &[Arc<dyn Experience>]) -> Verdict {
        let root = Chess::default();
        judge(a, &root, mv(&root, "e2e4"), 50, false)
    }

    #[test]
    fn the_analysis_agrees_with_its_own_move_and_with_one_within_the_margin() {
        assert!(matches!(
            verdict(&analysis("e2e4", 12, None)),
            Verdict::Agrees { depth: 12, .. }
        ));
        // 1.e4 worth +10 against the best's +30: 20 cp below, within 50.
        let v = verdict(&analysis("d2d4", 12, Some(-10)));
        assert_eq!(
            v,
            Verdict::Agrees {
                why: "20 cp below d2d4 in Mach's analysis: depth 12, margin 50".to_string(),
                depth: 12,
                score: 10,
            }
        );
    }

    #[test]
    fn a_move_the_analysis_finds_better_than_its_own_is_said_above_it() {
        let v = verdict(&analysis("d2d4", 12, Some(-45)));
        assert_eq!(
            v,
            Verdict::Agrees {
                why: "15 cp above d2d4 in Mach's analysis: depth 12, margin 50".to_string(),
                depth: 12,
                score: 45,
            }
        );
    }

    #[test]
    fn the_analysis_disagrees_with_a_move_worse_than_the_margin() {
        // 1.e4 worth -40: 70 cp below the best.
        let v = verdict(&analysis("d2d4", 12, Some(40)));
        assert!(
            matches!(&v, Verdict::Disagrees(why) if why.starts_with("70 cp below d2d4")),
            "{v:?}"
        );
    }

    #[test]
    fn a_shallow_or_missing_analysis_does_not_judge() {
        assert_eq!(verdict(&analysis("d2d4", 9, Some(40))), Verdict::Unknown);
        assert_eq!(verdict(&analysis("d2d4", 12, None)), Verdict::Unknown);
        assert_eq!(verdict(&[]), Verdict::Unknown);
    }
}
