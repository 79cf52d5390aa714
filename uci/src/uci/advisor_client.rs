//! The advisor client the controller keeps: the advisor options, the
//! advisor thread once its index is open, the requests sent for each search,
//! and the waits for their answers (book first, then advice).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use mach_advisor::advice::Advice;
use mach_advisor::book::BookMove;
use mach_advisor::opening_tree::OpeningTree;
use mach_advisor::retrieval::{Mode, QueryOptions};
use mach_advisor::service::{AdvisorService, Answer, Memory, Request, Response};
use mach_advisor::AdvisorIndex;
use mach_engine::advice::{RootAdvice, TreeAdvice};
use mach_engine::{Limits, SearchControl};
use shakmaty::{Chess, Position};

use crate::uci::advice_delivery::{Poller, TreeSlot};
use crate::uci::advice_policy::Weights;
use crate::uci::options::{self, Change};
use crate::uci::output::info_string;

/// The advisor's answers a search waits for before it starts.
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

/// Waits at most `budget` (or until `control` stops) for this request's
/// book answer (which comes first).
pub fn wait_book(
    rx: &Receiver<Response>,
    id: u64,
    budget: Duration,
    control: &SearchControl,
) -> Option<Vec<BookMove>> {
    match wait(rx, id, budget, control, |a| matches!(a, Answer::Book(_)))? {
        Answer::Book(b) => Some(b),
        Answer::Advice(_) => None,
    }
}

/// Waits at most `budget` (or until `control` stops) for this request's
/// advice (after its book answer).
pub fn wait_advice(
    rx: &Receiver<Response>,
    id: u64,
    budget: Duration,
    control: &SearchControl,
) -> Option<Result<Advice, String>> {
    match wait(rx, id, budget, control, |a| matches!(a, Answer::Advice(_)))? {
        Answer::Advice(a) => Some(a),
        Answer::Book(_) => None,
    }
}

/// How often a wait for the advisor looks at `stop`.
const STOP_CHECK: Duration = Duration::from_millis(10);

/// Waits for an answer with this id that `wanted` accepts, dropping stale
/// answers (to earlier requests) and this request's earlier answers; gives
/// up at the budget or within `STOP_CHECK` of a `stop`.
fn wait(
    rx: &Receiver<Response>,
    id: u64,
    budget: Duration,
    control: &SearchControl,
    wanted: impl Fn(&Answer) -> bool,
) -> Option<Answer> {
    let deadline = std::time::Instant::now() + budget;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left.min(STOP_CHECK)) {
            Ok(r) if r.id == id && wanted(&r.answer) => return Some(r.answer),
            Ok(_) => continue, // stale: an answer to an earlier search
            Err(RecvTimeoutError::Timeout) if !left.is_zero() && !control.is_stopped() => {}
            Err(_) => return None,
        }
    }
}

/// With `go depth`/`go nodes`, how long the search waits for advice, so
/// fixed-depth runs are reproducible (queries take milliseconds).
const FIXED_SEARCH_ADVICE_BUDGET: Duration = Duration::from_secs(5);

/// The grandmaster memory as the controller keeps it: the advisor options,
/// the advisor thread once opened, and the requests sent to it.
pub struct AdvisorClient {
    on: bool,
    index: PathBuf,
    /// The advice weights, also handed to the search thread.
    pub weights: Weights,
    topk: usize,
    mode: Mode,
    /// `AdvisorTree`, and the table the advisor thread fills for the search.
    tree_on: bool,
    tree: Option<Arc<TreeSlot>>,
    /// `OpeningTree`: the built-in opening tree in the memory.
    opening_tree: bool,
    service: Option<AdvisorService>,
    /// Opening the index at `index` failed; not retried until an advisor
    /// option changes.
    failed: bool,
    next_request: u64,
}

/// What one search gets from the memory once its request is sent.
pub struct ForSearch {
    /// The answers it waits for before it starts, if it must.
    pub wait: Option<Wait>,
    /// The advice polled during the search (when it does not wait for it).
    pub advice: Option<Arc<dyn RootAdvice>>,
    /// The advisor's tree table, with `AdvisorTree`.
    pub tree: Option<Arc<dyn TreeAdvice>>,
    /// Where advice for the expected reply is requested after `bestmove`.
    pub prefetch: (Sender<Request>, QueryOptions),
}

impl AdvisorClient {
    /// The options' defaults; the index is opened later, by [`AdvisorClient::ensure_open`].
    pub fn new() -> AdvisorClient {
        AdvisorClient {
            on: true,
            index: options::default_index(),
            weights: Weights::default(),
            topk: 30,
            mode: Mode::default(),
            tree_on: false,
            tree: None,
            opening_tree: true,
            service: None,
            failed: false,
            next_request: 1,
        }
    }

    /// Opens the advisor if it is on and not open yet: the built-in
    /// opening tree always, and the index when there is one. A missing
    /// index is said once; a corrupt or wrong-version one is said in an
    /// `info string` and left out, the tree plays on.
    pub fn ensure_open(&mut self) {
        if !self.on || self.service.is_some() || self.failed {
            return;
        }
        let (memory, said) = open_memory(&self.index, self.opening_tree);
        info_string(&said);
        if memory.tree.is_none() && memory.index.is_none() {
            self.failed = true;
            return;
        }
        let slot =
            (self.tree_on && memory.index.is_some()).then(|| Arc::new(std::sync::OnceLock::new()));
        match AdvisorService::start_memory(memory, slot.clone()) {
            Ok(s) => {
                self.tree = slot.map(|s| Arc::new(TreeSlot(s)));
                self.service = Some(s);
            }
            Err(e) => {
                log::warn!("advisor disabled: {e}");
                info_string(&format!("advisor disabled: {e}"));
                self.failed = true;
            }
        }
    }

    /// Closes the advisor so the next [`AdvisorClient::ensure_open`] opens it afresh.
    fn reset(&mut self) {
        self.service = None;
        self.tree = None;
        self.failed = false;
    }

    /// Applies an advisor option; the other options are not its business.
    pub fn set_option(&mut self, change: Change) {
        match change {
            Change::Advisor(on) => {
                self.on = on;
                self.failed = false;
                if !on {
                    self.service = None;
                    self.tree = None;
                }
            }
            Change::AdvisorIndex(path) => {
                self.index = path;
                self.reset();
            }
            Change::AdviceWeight(w) => self.weights.exact = w,
            Change::AdviceSimilarWeight(w) => self.weights.similar = w,
            Change::AdvisorTopK(k) => self.topk = k,
            Change::AdvisorPlans(on) => self.weights.plans = on,
            Change::AdvisorTime(on) => self.weights.time = on,
            Change::AdvisorMode(m) => self.mode = m,
            Change::OpeningTree(on) if on != self.opening_tree => {
                self.opening_tree = on;
                self.reset();
            }
            Change::AdvisorTree(on) if on != self.tree_on => {
                // Restarted with or without the table at the next `go`.
                self.tree_on = on;
                self.reset();
            }
            // An unchanged `AdvisorTree`, or not an advisor option.
            _ => {}
        }
    }

    /// Asks about `root` for a search. A fixed-depth/nodes search (`fixed`)
    /// waits for the advice, so it is reproducible, and so does one that may
    /// play from the book (`book`; briefly, the answer takes milliseconds);
    /// any other search polls for it. `None` when the memory is closed or
    /// its thread is gone.
    pub fn request_for(
        &mut self,
        root: &Chess,
        limits: &Limits,
        fixed: bool,
        book: bool,
        chess960: bool,
    ) -> Option<ForSearch> {
        let svc = self.service.as_ref()?;
        let query = QueryOptions {
            k: self.topk,
            mode: self.mode,
            // Similar positions only when something uses them: their
            // retrieval takes milliseconds of the advisor thread each move.
            exact_only: self.weights.similar == 0 && !self.weights.plans,
            ..QueryOptions::default()
        };
        let id = self.next_request;
        self.next_request += 1;
        let request = Request {
            id,
            pos: root.clone(),
            options: query.clone(),
            prefetch: false,
        };
        svc.sender().send(request).ok()?;
        let wait = (fixed || book).then(|| Wait {
            rx: svc.receiver(),
            id,
            budget: if fixed {
                FIXED_SEARCH_ADVICE_BUDGET
            } else {
                book_wait(limits, root.turn())
            },
            bonuses: fixed,
            advice_budget: FIXED_SEARCH_ADVICE_BUDGET,
        });
        // Also polled during the search, in case the wait above runs out.
        let advice = (!fixed).then(|| {
            Arc::new(Poller {
                rx: svc.receiver(),
                id,
                weights: self.weights,
                chess960,
                done: Mutex::new(false),
            }) as Arc<dyn RootAdvice>
        });
        Some(ForSearch {
            wait,
            advice,
            tree: self.tree.clone().map(|t| t as Arc<dyn TreeAdvice>),
            prefetch: (svc.sender(), query),
        })
    }
}

/// The opening tree built into the binary (`books/gm-tree.bin`).
pub fn builtin_tree() -> Result<OpeningTree<'static>, String> {
    OpeningTree::from_bytes(mach_files::builtin::OPENING_TREE)
}

/// The built-in tree unless `off` (`--no-tree`): for `mach advise` and `mach explore`.
pub fn tree_unless(off: bool) -> Result<Option<OpeningTree<'static>>, String> {
    if off {
        return Ok(None);
    }
    builtin_tree().map(Some)
}

/// Whether an index's games are added to the tree's ([`Memory::merge`]).
pub fn merges(index: Option<&AdvisorIndex>) -> bool {
    index.is_some_and(|i| !holds_only_tree_games(&i.meta.sources))
}

/// The built-in opening tree (with `use_tree`) and the index at `dir`
/// (when there is one), and what to tell the GUI about them.
pub fn open_memory(dir: &Path, use_tree: bool) -> (Memory, String) {
    let mut said = Vec::new();
    let tree = match builtin_tree() {
        _ if !use_tree => {
            said.push("advisor: opening tree off".to_string());
            None
        }
        Ok(t) => {
            said.push(format!(
                "advisor: opening tree of {} games, {} positions",
                t.header.games,
                t.len()
            ));
            Some(t)
        }
        Err(e) => {
            said.push(format!("advisor: opening tree not used: {e}"));
            None
        }
    };
    let index = if dir.exists() {
        match Memory::index(dir) {
            Ok(m) => m.index,
            Err(e) => {
                log::warn!("advisor index not used: {e}");
                said.push(format!("index not used: {e}"));
                None
            }
        }
    } else {
        said.push(format!(
            "no index at {} (mach index builds one)",
            dir.display()
        ));
        None
    };
    let merge = merges(index.as_ref());
    if let Some(i) = &index {
        said.push(format!(
            "index: {} games, {} positions from {}{}",
            i.meta.games,
            i.documents(),
            dir.display(),
            if merge || tree.is_none() {
                ""
            } else {
                " (games the tree holds: read where the tree has nothing)"
            }
        ));
    }
    (Memory { tree, index, merge }, said.join("; "))
}

/// Whether an index holds only games of the database the tree was built
/// from (the built-in default database is a sample of it): its book would
/// count them twice.
fn holds_only_tree_games(sources: &[String]) -> bool {
    const TREE_DATABASES: [&str; 2] = ["gm2700-classical-4000.pgn", "gm2400-classical-173k.pgn"];
    !sources.is_empty()
        && sources.iter().all(|s| {
            let name = s.rsplit(['/', '\\', ':']).next().unwrap_or(s);
            TREE_DATABASES.contains(&name)
        })
}

/// How long a timed search waits for the memory's answer before it may play
/// from the book: 50 ms, but never more than a 40th of the clock left.
fn book_wait(limits: &Limits, side: shakmaty::Color) -> Duration {
    let clock = match side {
        shakmaty::Color::White => limits.wtime,
        shakmaty::Color::Black => limits.btime,
    };
    let cap = clock
        .or(limits.movetime)
        .map_or(50, |ms| (ms.max(0) / 40).min(50));
    Duration::from_millis(cap as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::advice_policy::tests::advice_with;
    use mach_engine::board;

    #[test]
    fn stale_answers_are_ignored() {
        let (tx, rx) = crossbeam_channel::unbounded();
        tx.send(Response {
            id: 1,
            answer: Answer::Advice(Ok(advice_with("d2d4"))),
        })
        .unwrap();
        tx.send(Response {
            id: 2,
            answer: Answer::Advice(Ok(advice_with("e2e4"))),
        })
        .unwrap();
        let go = SearchControl::new(false, std::time::Instant::now());
        let got = wait_advice(&rx, 2, Duration::from_millis(100), &go)
            .unwrap()
            .unwrap();
        assert_eq!(board::uci(got.moves[0].mv, false), "e2e4");
        assert!(wait_advice(&rx, 9, Duration::from_millis(10), &go).is_none());
    }

    #[test]
    fn a_stop_ends_the_wait_for_advice_at_once() {
        let (_tx, rx) = crossbeam_channel::unbounded::<Response>();
        let go = SearchControl::new(false, std::time::Instant::now());
        go.stop();
        let t = std::time::Instant::now();
        assert!(wait_advice(&rx, 1, Duration::from_secs(60), &go).is_none());
        assert!(wait_book(&rx, 1, Duration::from_secs(60), &go).is_none());
        assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    }
}
