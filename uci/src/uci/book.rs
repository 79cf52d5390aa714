//! The book door: the one place that decides whether a `go` is answered
//! from a book, the Polyglot file of `BookFile` or the grandmaster memory
//! (`OwnBook`), and that verifies the offered move the same way whichever
//! book offered it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use mach_advisor::book::{self, BookMove, BookRules};
use mach_advisor::polyglot;
use mach_engine::time::TimeManager;
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions, Silent};
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
