//! The life of one search thread, from `go` to `bestmove`: take the
//! grandmaster memory's answer when the search must wait for it (fixed
//! depth/nodes, or to play from the book), play a verified book move, or
//! search; always exactly one `bestmove`, even when the search panics; then
//! prefetch advice for the reply we expect.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use mach_advisor::book::{self, BookMove, BookRules};
use mach_advisor::search::QueryOptions;
use mach_advisor::service::{Request, Response};
use mach_engine::advice::{Delivered, Ready};
use mach_engine::time::TimeManager;
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions, Silent};
use shakmaty::{Chess, Move, Position};

use crate::uci::advisor_client::{self as advice_glue, Weights};
use crate::uci::controller::Msg;
use crate::uci::output::{info_string, send, UciReporter};

/// How a book move is chosen and checked (UCI `OwnBook`, `BookMinGames`,
/// `BookMinScore`, `BookMargin`, `BookVerifyNodes`).
#[derive(Clone, Copy, Debug)]
pub struct BookPlay {
    pub rules: BookRules,
    /// Rejected if its verification score is more than this below the best move's.
    pub margin: i32,
    /// Nodes of each of the two verification searches (0: no verification).
    pub verify_nodes: u64,
}

/// The advisor's answers this search waits for before it starts.
pub struct Wait {
    pub rx: Receiver<Response>,
    pub id: u64,
    /// For the book answer (when the book may play).
    pub budget: Duration,
    /// Wait for the advice too and turn it into root bonuses (fixed
    /// depth/nodes searches, which must be reproducible).
    pub bonuses: bool,
    /// For the advice, when `bonuses`.
    pub advice_budget: Duration,
}

/// Everything a search thread needs.
pub struct Job {
    pub engine: Engine,
    pub root: Chess,
    pub keys: Vec<u64>,
    pub limits: Limits,
    pub options: SearchOptions,
    pub control: Arc<SearchControl>,
    pub chess960: bool,
    pub hash_mb: usize,
    pub threads: usize,
    pub weights: Weights,
    pub wait: Option<Wait>,
    pub book: Option<BookPlay>,
    /// Where advice for the expected reply is requested after `bestmove`.
    pub prefetch: Option<(Sender<Request>, QueryOptions)>,
    /// The controller, told when the thread is done.
    pub done: Sender<Msg>,
}

/// Runs the job to its `bestmove` and gives the engine back.
pub fn run(mut job: Job) -> Engine {
    let c = job.control.clone();
    let mut book_candidate: Option<BookMove> = None;
    if let Some(w) = job.wait.take() {
        if let Some(b) = &job.book {
            // The book answer comes first: an exact lookup, microseconds.
            match advice_glue::wait_book(&w.rx, w.id, w.budget, &c) {
                Some(moves) => {
                    book_candidate = book::choose(&moves, b.rules).cloned();
                    if !moves.is_empty() {
                        info_string(&advice_glue::describe_book(&moves, b.rules, job.chess960));
                    }
                }
                None => log::warn!("advisor: no book answer within {:?}", w.budget),
            }
        }
        if w.bonuses && book_candidate.is_none() {
            match advice_glue::wait_advice(&w.rx, w.id, w.advice_budget, &c) {
                Some(Ok(a)) => {
                    info_string(&advice_glue::describe(&a, job.chess960));
                    // Delivered here, before the search: the poller would
                    // find nothing more.
                    job.options.advice = Some(Arc::new(Ready::new(Delivered {
                        bonuses: advice_glue::bonuses(&a, job.weights),
                        plans: advice_glue::plans(&a, job.weights),
                        trusted: advice_glue::trusted(&a, job.weights),
                    })));
                }
                Some(Err(e)) => {
                    log::warn!("advisor: {e}");
                    info_string(&format!("advisor: {e}"))
                }
                None if w.advice_budget.is_zero() => {}
                None => {
                    log::warn!("advisor: no answer within {:?}", w.advice_budget);
                    info_string("advisor: no answer in time; searching without it")
                }
            }
        }
    }
    let reporter = UciReporter::new(job.chess960);
    let book_move = match (book_candidate, job.book) {
        (Some(b), Some(play)) if !c.is_stopped() => verify(&mut job, &b, play, &reporter),
        _ => None,
    };
    let (best, ponder) = match book_move {
        Some(mv) => (Some(mv), None),
        None => search(&mut job, &reporter),
    };
    bestmove(best, ponder, job.chess960);
    if let (Some(b), Some(p), Some((tx, query))) = (best, ponder, &job.prefetch) {
        // While the opponent thinks, prepare advice for the reply we expect.
        let mut pos = job.root.clone();
        pos.play_unchecked(b);
        if pos.is_legal(p) {
            pos.play_unchecked(p);
            let _ = tx.send(Request {
                id: 0,
                pos,
                options: query.clone(),
                prefetch: true,
            });
        }
    }
    let _ = job.done.send(Msg::SearchDone);
    job.engine
}

/// Checks a book move with two short searches (all moves, then the book move
/// alone); it is played unless it scores more than `margin` below the best.
/// The second search's lines are reported, so the GUI sees the move's score.
fn verify(job: &mut Job, b: &BookMove, play: BookPlay, reporter: &UciReporter) -> Option<Move> {
    let text = board::uci(b.mv, job.chess960);
    if play.verify_nodes == 0 {
        info_string(&format!(
            "book {text}: played from memory (no verification)"
        ));
        return Some(b.mv);
    }
    let options = SearchOptions {
        multipv: 1,
        move_overhead: job.options.move_overhead,
        ..SearchOptions::default()
    };
    let c = job.control.clone();
    let r = catch_unwind(AssertUnwindSafe(|| {
        let all = verify_limits(job, play.verify_nodes, Vec::new());
        let best = job
            .engine
            .search(&job.root, &job.keys, &all, &options, &c, &Silent);
        let only = verify_limits(job, play.verify_nodes, vec![b.mv]);
        let mine = job
            .engine
            .search(&job.root, &job.keys, &only, &options, &c, reporter);
        (best, mine)
    }));
    let Ok((best, mine)) = r else {
        job.engine = Engine::new(job.hash_mb, job.threads);
        return None;
    };
    if mine.best != Some(b.mv) {
        return None;
    }
    let loss = best.score - mine.score;
    if loss > play.margin {
        info_string(&format!(
            "book {text}: rejected, {loss} cp below the best move (margin {})",
            play.margin
        ));
        return None;
    }
    info_string(&format!(
        "book {text}: played from memory ({loss} cp below the best move found)"
    ));
    Some(b.mv)
}

/// A verification search's limits: `nodes`, and on a clock at most a
/// quarter of the move's planned time from now, so that even the largest
/// BookVerifyNodes cannot lose on time (`go infinite`: nodes and `stop` only).
fn verify_limits(job: &Job, nodes: u64, searchmoves: Vec<Move>) -> Limits {
    let mut limits = Limits {
        searchmoves,
        ..Limits::nodes(nodes)
    };
    if job.limits.infinite {
        return limits;
    }
    let overhead = job.options.move_overhead;
    if let Some(soft) = TimeManager::new(&job.limits, job.root.turn(), overhead).soft() {
        // Measured like the search's own clock: from `go`, or from
        // `ponderhit` while pondering.
        let now = job.control.clock_elapsed().unwrap_or_default();
        limits.movetime = Some((now + soft / 4 + overhead).as_millis() as i64);
    }
    limits
}

/// The search proper; a panic still gives a legal move.
fn search(job: &mut Job, reporter: &UciReporter) -> (Option<Move>, Option<Move>) {
    let c = job.control.clone();
    let result = catch_unwind(AssertUnwindSafe(|| {
        job.engine.search(
            &job.root,
            &job.keys,
            &job.limits,
            &job.options,
            &c,
            reporter,
        )
    }));
    let last = reporter
        .last
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    match result {
        Ok(result) => {
            let (mut best, mut ponder) = (result.best, result.ponder);
            if let Some(mut info) = last {
                // The final word: totals, and the PV the best move comes from.
                let elapsed = c.elapsed();
                info.nodes = result.nodes.max(info.nodes);
                info.time_ms = elapsed.as_millis() as u64;
                info.nps = (info.nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
                send(&reporter.format(&info));
                best = info.pv.first().copied();
                ponder = info.pv.get(1).copied();
            } else if best.is_none() {
                info_string("no legal moves");
            }
            (best, ponder)
        }
        Err(_) => {
            // A bug must not leave the GUI without an answer.
            info_string("internal error in the search; playing a legal move");
            c.wait_for_release(job.limits.infinite);
            job.engine = Engine::new(job.hash_mb, job.threads);
            (job.root.legal_moves().first().copied(), None)
        }
    }
}

/// The one `bestmove` line of a `go`.
pub fn bestmove(best: Option<Move>, ponder: Option<Move>, chess960: bool) {
    match (best, ponder) {
        (Some(b), Some(p)) => send(&format!(
            "bestmove {} ponder {}",
            board::uci(b, chess960),
            board::uci(p, chess960)
        )),
        (Some(b), None) => send(&format!("bestmove {}", board::uci(b, chess960))),
        (None, _) => send("bestmove 0000"),
    }
}
