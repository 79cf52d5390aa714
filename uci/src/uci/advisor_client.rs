//! Between the advisor thread and the search: the [`Memory`] the controller
//! keeps (advisor options, the thread, requests for the position being
//! searched), answers turned into root bonuses, the `info string advisor`
//! line, and the engine's `RootAdvice` hook.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use mach_advisor::advice::Advice;
use mach_advisor::book::{self, BookMove, BookRules};
use mach_advisor::chunks::plans::PlanTerm;
use mach_advisor::search::{Mode, QueryOptions};
use mach_advisor::service::{AdvisorService, Answer, Request, Response};
use mach_engine::advice::{Delivered, Plans, RootAdvice, TreeAdvice};
use mach_engine::{board, Limits, SearchControl};
use shakmaty::{Chess, Move, Position};

use crate::uci::options::{self, Change};
use crate::uci::output::info_string;
use crate::uci::search_thread::Wait;

/// Centipawns for a move every retrieved game agrees on: `exact` when the
/// games reached this very position, `similar` when they reached similar ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub exact: i32,
    pub similar: i32,
    /// The chunks' plans become evaluation terms (`AdvisorPlans`).
    pub plans: bool,
    /// Trusted advice shapes the time (`AdvisorTime`).
    pub time: bool,
}

/// Smallest share and games for advice to be trusted with the time: exact
/// advice with a share of 0.5 or more was the grandmaster's move 67% of the
/// time and never worse than Mach's own (the README's calibration).
pub const TRUST_SHARE: f32 = 0.5;
pub const TRUST_GAMES: u32 = 4;

/// The move strong evidence trusts, when `w.time`: exact advice whose first
/// move has at least [`TRUST_SHARE`] of it, from [`TRUST_GAMES`] games.
pub fn trusted(advice: &Advice, w: Weights) -> Option<Move> {
    let top = advice.moves.first()?;
    (w.time && advice.exact && top.weight >= TRUST_SHARE && top.games >= TRUST_GAMES)
        .then_some(top.mv)
}

/// Smallest share of the evidence that earns a bonus. Measured (Stockfish
/// depth 16 on 300 positions at 20,000 nodes): moves below 0.1 changed Mach's
/// choice in a quarter of the positions for no gain (-5 cp on average), only
/// perturbing the search; the few above it were improvements.
pub const MIN_SHARE: f32 = 0.15;

/// Root bonuses from advice: the weight for its kind times each move's share
/// of the evidence, for moves with at least [`MIN_SHARE`].
pub fn bonuses(advice: &Advice, w: Weights) -> Vec<(Move, i32)> {
    let weight = if advice.exact { w.exact } else { w.similar };
    advice
        .moves
        .iter()
        .filter(|s| s.weight >= MIN_SHARE)
        .map(|s| (s.mv, (s.weight * weight as f32).round() as i32))
        .filter(|&(_, b)| b != 0)
        .collect()
}

/// The plans of the chunks found at the root as the engine's evaluation
/// terms, when `w.plans` and they ask anything of the pieces.
pub fn plans(advice: &Advice, w: Weights) -> Option<Plans> {
    if !w.plans {
        return None;
    }
    let mut p = Plans::default();
    for t in &advice.plan_terms {
        match *t {
            PlanTerm::Good {
                side,
                roles,
                squares,
            } => roles.iter().for_each(|&r| p.add_good(side, r, squares)),
            PlanTerm::Target { side, squares } => p.add_target(side, squares),
        }
    }
    (!p.is_empty()).then_some(p)
}

/// `info string advisor exact e2e4 0.60 (7 games) d2d4 0.25 (3 games); 12 games, 0 dropped, 2.1 ms`
/// (`similar` instead of `exact` when no game reached this very position;
/// `advisor: no game found ...` when none was found at all, as with exact
/// lookups only, the default, in a position the grandmasters never reached)
pub fn describe(advice: &Advice, chess960: bool) -> String {
    if advice.hits.is_empty() {
        return format!(
            "advisor: no game found for this position ({:.1} ms)",
            advice.query_ms
        );
    }
    let mut s = String::from(if advice.exact {
        "advisor exact"
    } else {
        "advisor similar"
    });
    if advice.moves.is_empty() {
        s.push_str(" no suggestion");
    }
    for m in advice.moves.iter().take(8) {
        s.push_str(&format!(
            " {} {:.2} ({} game{})",
            board::uci(m.mv, chess960),
            m.weight,
            m.games,
            if m.games == 1 { "" } else { "s" }
        ));
    }
    s.push_str(&format!(
        "; {} games, {} dropped, {:.1} ms",
        advice.hits.len(),
        advice.dropped,
        advice.query_ms
    ));
    if !advice.plans.is_empty() {
        s.push_str("; plans ");
        s.push_str(&advice.plans.join(" "));
    }
    s
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
            100.0 * b.shrunk_score(rules.prior),
            b.wins,
            b.draws,
            b.losses,
            b.avg_elo,
            b.last_year
        ));
    }
    s
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

/// Handed to the engine: polled at each iteration, it delivers the advice
/// once, when (and if) it arrives.
pub struct Poller {
    pub rx: Receiver<Response>,
    pub id: u64,
    pub weights: Weights,
    pub chess960: bool,
    pub done: Mutex<bool>,
}

impl RootAdvice for Poller {
    fn poll(&self) -> Option<Delivered> {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        if *done {
            return None;
        }
        while let Ok(r) = self.rx.try_recv() {
            if r.id != self.id {
                continue; // stale
            }
            let Answer::Advice(advice) = r.answer else {
                continue; // the book answer: the search thread's business
            };
            *done = true;
            return match advice {
                Ok(a) => {
                    info_string(&describe(&a, self.chess960));
                    Some(Delivered {
                        bonuses: bonuses(&a, self.weights),
                        plans: plans(&a, self.weights),
                        trusted: trusted(&a, self.weights),
                    })
                }
                Err(e) => {
                    info_string(&format!("advisor: {e}"));
                    None
                }
            };
        }
        None
    }
}

/// The advisor's tree table as the engine's [`TreeAdvice`]: empty until the
/// advisor thread has built it, then a hash lookup.
pub struct TreeSlot(pub Arc<std::sync::OnceLock<mach_advisor::tree::TreeTable>>);

impl TreeAdvice for TreeSlot {
    fn moves(&self, key: u64) -> &[u16] {
        self.0.get().map_or(&[], |t| t.moves(key))
    }
}

/// With `go depth`/`go nodes`, how long the search waits for advice, so
/// fixed-depth runs are reproducible (queries take milliseconds).
const FIXED_SEARCH_ADVICE_BUDGET: Duration = Duration::from_secs(5);

/// The grandmaster memory as the controller keeps it: the advisor options,
/// the advisor thread once opened, and the requests sent to it.
pub struct Memory {
    on: bool,
    index: PathBuf,
    /// The advice weights, also handed to the search thread.
    pub weights: Weights,
    topk: usize,
    mode: Mode,
    /// `AdvisorTree`, and the table the advisor thread fills for the search.
    tree_on: bool,
    tree: Option<Arc<TreeSlot>>,
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

impl Memory {
    /// The options' defaults; the index is opened later, by [`Memory::ensure_open`].
    pub fn new() -> Memory {
        Memory {
            on: options::advisor_default(),
            index: options::default_index(),
            weights: Weights {
                exact: options::ADVICE_WEIGHT,
                similar: options::ADVICE_SIMILAR_WEIGHT,
                plans: false,
                time: false,
            },
            topk: 30,
            mode: Mode::default(),
            tree_on: false,
            tree: None,
            service: None,
            failed: false,
            next_request: 1,
        }
    }

    /// Opens the advisor if it is on and not open yet. A missing, corrupt
    /// or wrong-version index disables it with an `info string`; the engine
    /// plays on.
    pub fn ensure_open(&mut self) {
        if !self.on || self.service.is_some() || self.failed {
            return;
        }
        let slot = self.tree_on.then(|| Arc::new(std::sync::OnceLock::new()));
        match AdvisorService::start_with_tree(&self.index, slot.clone()) {
            Ok(s) => {
                self.tree = slot.map(|s| Arc::new(TreeSlot(s)));
                info_string(&format!(
                    "advisor: {} games, {} positions from {}",
                    s.games,
                    s.documents,
                    self.index.display()
                ));
                self.service = Some(s);
            }
            Err(e) => {
                log::warn!("advisor disabled: {e}");
                info_string(&format!("advisor disabled: {e}"));
                self.failed = true;
            }
        }
    }

    /// Closes the advisor so the next [`Memory::ensure_open`] opens it afresh.
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
    use mach_advisor::service::{Answer, Response};

    fn advice_with(uci: &str) -> Advice {
        let pos = shakmaty::Chess::default();
        let mv = board::parse_uci_move(&pos, uci).unwrap();
        Advice {
            moves: vec![mach_advisor::advice::Suggestion {
                mv,
                games: 3,
                wins: 1,
                draws: 1,
                losses: 1,
                weight: 1.0,
            }],
            hits: vec![mach_advisor::search::Hit {
                game: 0,
                ply: 0,
                score: 1.0,
                exact: false,
                next: None,
            }],
            ..Advice::default()
        }
    }

    #[test]
    fn a_position_no_game_reached_is_said_plainly() {
        let none = Advice {
            query_ms: 0.04,
            ..Advice::default()
        };
        assert_eq!(
            describe(&none, false),
            "advisor: no game found for this position (0.0 ms)"
        );
        let mut a = advice_with("e2e4");
        a.moves.clear();
        assert!(describe(&a, false).starts_with("advisor similar no suggestion; 1 games"));
    }

    #[test]
    fn exact_and_similar_advice_get_their_own_weight() {
        let w = Weights {
            exact: 40,
            similar: 0,
            plans: false,
            time: false,
        };
        let mut a = advice_with("e2e4");
        a.moves[0].weight = 0.5;
        assert!(bonuses(&a, w).is_empty(), "similar advice at weight 0");
        assert!(describe(&a, false).starts_with("advisor similar e2e4 0.50"));
        a.exact = true;
        let b = bonuses(&a, w);
        assert_eq!(
            (board::uci(b[0].0, false), b[0].1),
            ("e2e4".to_string(), 20)
        );
        assert!(describe(&a, false).starts_with("advisor exact e2e4 0.50"));
        // A move few masters chose earns nothing, exact or not.
        a.moves[0].weight = MIN_SHARE * 0.9;
        assert!(bonuses(&a, w).is_empty());
    }

    #[test]
    fn plans_become_evaluation_terms_only_when_asked() {
        let mut a = advice_with("e2e4");
        let b = shakmaty::Board::default();
        a.plans = vec!["Outpost(white,e5)".into(), "Attack(black,c3)".into()];
        a.plan_terms = mach_advisor::chunks::plans::terms(a.plans.iter().map(|s| s.as_str()), &b);
        let mut w = Weights {
            exact: 40,
            similar: 40,
            plans: false,
            time: false,
        };
        assert!(plans(&a, w).is_none(), "AdvisorPlans off");
        w.plans = true;
        let p = plans(&a, w).unwrap();
        let e5 = shakmaty::Bitboard::from(shakmaty::Square::E5);
        assert_eq!(p.good[0][1], e5, "white knight");
        assert_eq!(p.good[0][2], e5, "white bishop");
        assert_eq!(p.targets[1], shakmaty::Bitboard::from(shakmaty::Square::C3));
        assert!(describe(&a, false).ends_with("; plans Outpost(white,e5) Attack(black,c3)"));
        // Plans that ask nothing of the pieces give none.
        a.plan_terms = mach_advisor::chunks::plans::terms(["Trade(white,d5)"], &b);
        assert!(plans(&a, w).is_none());
    }

    #[test]
    fn only_strong_exact_advice_is_trusted_with_the_time() {
        let mut a = advice_with("e2e4");
        a.exact = true;
        a.moves[0].games = TRUST_GAMES;
        a.moves[0].weight = TRUST_SHARE;
        let mut w = Weights {
            exact: 40,
            similar: 0,
            plans: false,
            time: true,
        };
        assert_eq!(
            trusted(&a, w).map(|m| board::uci(m, false)),
            Some("e2e4".into())
        );
        w.time = false;
        assert!(trusted(&a, w).is_none(), "AdvisorTime off");
        w.time = true;
        a.moves[0].games = TRUST_GAMES - 1;
        assert!(trusted(&a, w).is_none(), "too few games");
        a.moves[0].games = TRUST_GAMES;
        a.moves[0].weight = TRUST_SHARE - 0.01;
        assert!(trusted(&a, w).is_none(), "too small a share");
        a.moves[0].weight = 1.0;
        a.exact = false;
        assert!(
            trusted(&a, w).is_none(),
            "similar positions are not trusted"
        );
    }

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
        // The poller too: an answer for another search gives nothing.
        tx.send(Response {
            id: 7,
            answer: Answer::Advice(Ok(advice_with("d2d4"))),
        })
        .unwrap();
        let p = Poller {
            rx: rx.clone(),
            id: 8,
            weights: Weights {
                exact: 50,
                similar: 50,
                plans: false,
                time: false,
            },
            chess960: false,
            done: Mutex::new(false),
        };
        assert!(p.poll().is_none());
        tx.send(Response {
            id: 8,
            answer: Answer::Advice(Ok(advice_with("g1f3"))),
        })
        .unwrap();
        let b = p.poll().unwrap().bonuses;
        assert_eq!(
            (board::uci(b[0].0, false), b[0].1),
            ("g1f3".to_string(), 50)
        );
        assert!(p.poll().is_none(), "delivered once");
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
