//! The life of one search thread, from `go` to `bestmove`: take the
//! grandmaster memory's answer when the search must wait for it (fixed
//! depth/nodes, or to play from the book), play a book move judged by
//! Mach's analysis or verified by short searches (the book door,
//! `book.rs`), or search; always exactly one `bestmove`, even
//! when the search panics; then prefetch advice for the reply we expect.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crossbeam_channel::Sender;
use mach_advisor::retrieval::QueryOptions;
use mach_advisor::service::Request;
use mach_engine::advice::Ready;
use mach_engine::report::{Info, Reporter};
use mach_engine::tt::Bound;
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions};
use shakmaty::{Chess, Move, Position};

use crate::uci::advice_delivery::receive;
use crate::uci::advice_policy::Weights;
use crate::uci::advisor_client::{wait_advice, wait_book, Wait};
use crate::uci::book::{self, Books, Offered, Verify};
use crate::uci::experience_store::ExperienceStore;
use crate::uci::msg::Msg;
use crate::uci::output::{info_string, send, UciReporter};

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
    /// The books this search may play from (none when analysing).
    pub books: Option<Books>,
    /// Where advice for the expected reply is requested after `bestmove`.
    pub prefetch: Option<(Sender<Request>, QueryOptions)>,
    /// The controller, told when the thread is done.
    pub done: Sender<Msg>,
    /// Where the search's result is kept (`Experience`), after `bestmove`.
    pub experience: Option<Arc<ExperienceStore>>,
}

/// Runs the job to its `bestmove` and gives the engine back.
pub fn run(mut job: Job) -> Engine {
    let c = job.control.clone();
    let chess960 = job.chess960;
    let mut offered = job.books.as_ref().and_then(|b| {
        let (file, r) = b.file.as_ref()?;
        book::from_file(file, *r, &job.root, chess960).map(|m| (m, Offered::File))
    });
    if let Some(w) = job.wait.take() {
        if let Some(b) = job.books.as_ref().filter(|b| b.memory && offered.is_none()) {
            // The book answer comes first: an exact lookup, microseconds.
            match wait_book(&w.rx, w.id, w.budget, &c) {
                Some(moves) => {
                    offered = book::from_memory(&moves, b.play.rules, chess960)
                        .map(|m| (m, Offered::Memory));
                }
                None => log::warn!("advisor: no book answer within {:?}", w.budget),
            }
        }
        if w.bonuses && offered.is_none() {
            match wait_advice(&w.rx, w.id, w.advice_budget, &c) {
                Some(answer) => {
                    // Delivered here, before the search: the poller would
                    // find nothing more.
                    if let Some(d) = receive(answer, job.weights, chess960) {
                        job.options.advice = Some(Arc::new(Ready::new(d)));
                    }
                }
                None if w.advice_budget.is_zero() => {}
                None => {
                    log::warn!("advisor: no answer within {:?}", w.advice_budget);
                    info_string("advisor: no answer in time; searching without it")
                }
            }
        }
    }
    let reporter = UciReporter::new(chess960);
    let book_move = match (offered, &job.books) {
        (Some((mv, from)), Some(b)) if !c.is_stopped() => {
            let play = b.play;
            let v = Verify {
                root: &job.root,
                keys: &job.keys,
                limits: &job.limits,
                move_overhead: job.options.move_overhead,
                control: &c,
                chess960,
            };
            let verdict = match from {
                Offered::Memory => book::judge(&b.analysis, &job.root, mv, play.margin, chess960),
                Offered::File => book::Verdict::Unknown,
            };
            let text = board::uci(mv, chess960);
            match verdict {
                book::Verdict::Agrees { why, depth, score } => {
                    info_string(&format!("book {text}: played from memory ({why})"));
                    // The move's line in Mach's analysis: what the GUI shows
                    // as the score of a move played without a search.
                    reporter.info(&Info {
                        depth,
                        seldepth: depth.max(0) as usize,
                        multipv: 1,
                        score,
                        bound: Bound::Exact,
                        nodes: 0,
                        time_ms: 0,
                        nps: 0,
                        hashfull: 0,
                        pv: vec![mv],
                    });
                    Some(mv)
                }
                book::Verdict::Disagrees(why) => {
                    info_string(&format!("book {text}: rejected, {why}"));
                    None
                }
                book::Verdict::Unknown => {
                    match book::verify(&mut job.engine, &v, mv, from, play, &reporter) {
                        Ok(m) => m,
                        Err(()) => {
                            job.engine = Engine::new(job.hash_mb, job.threads);
                            None
                        }
                    }
                }
            }
        }
        _ => None,
    };
    let (best, ponder, found) = match book_move {
        Some(mv) => (Some(mv), None, None),
        None => search(&mut job, &reporter),
    };
    // Kept before `bestmove`: a GUI may send `ucinewgame` the moment it
    // reads it, and this search belongs to the game that is ending.
    if let (Some(x), Some((score, depth))) = (&job.experience, found) {
        // Restricted roots (`searchmoves`) found the best of some moves only.
        if job.limits.searchmoves.is_empty() {
            x.searched(&job.root, &job.keys, best, score, depth);
        }
    }
    bestmove(best, ponder, chess960);
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

/// The search proper, with its score and depth; a panic still gives a legal move.
fn search(
    job: &mut Job,
    reporter: &UciReporter,
) -> (Option<Move>, Option<Move>, Option<(i32, i32)>) {
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
            (best, ponder, Some((result.score, result.depth)))
        }
        Err(_) => {
            // A bug must not leave the GUI without an answer.
            info_string("internal error in the search; playing a legal move");
            c.wait_for_release(job.limits.infinite);
            job.engine = Engine::new(job.hash_mb, job.threads);
            (job.root.legal_moves().first().copied(), None, None)
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
