//! The controller: owns the engine, the position and the options, and runs
//! each search on a thread of its own. It receives everything the stdin
//! thread does not answer itself, in order, and never blocks on a search:
//! a command that needs the engine while a search runs waits in `pending`
//! (in order, with everything after it) until the search thread reports that
//! it is done. So `isready` is answered at once mid-search, and otherwise
//! after every earlier command took effect, as GUIs expect.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use std::path::PathBuf;

use crossbeam_channel::{Receiver, Sender};
use mach_advisor::search::QueryOptions;
use mach_advisor::service::{AdvisorService, Request};
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions};
use shakmaty::{Chess, Position};

use crate::advice_glue::{self, Poller};

use crate::options::{self, Change};
use crate::output::{info_string, send, UciReporter};
use crate::protocol::{Command, Go};

pub enum Msg {
    Command(Command),
    /// `go`, with the control the stdin thread made for it (so a `stop` read
    /// right after `go` reaches this search even before it starts).
    Go(Box<Go>, Arc<SearchControl>),
    IsReady,
    /// Sent by the search thread after its `bestmove`.
    SearchDone,
    Quit,
}

struct Running {
    handle: JoinHandle<Engine>,
    control: Arc<SearchControl>,
}

pub struct Controller {
    tx: Sender<Msg>,
    engine: Option<Engine>,
    running: Option<Running>,
    pending: VecDeque<Msg>,
    root: Chess,
    /// Zobrist keys of the positions before `root`, for repetition draws.
    keys: Vec<u64>,
    hash_mb: usize,
    threads: usize,
    move_overhead: u64,
    multipv: usize,
    chess960: bool,
    advisor_on: bool,
    advisor_index: PathBuf,
    advice_weights: advice_glue::Weights,
    advisor_topk: usize,
    advisor: Option<AdvisorService>,
    /// Opening the index at `advisor_index` failed; not retried until an
    /// advisor option changes.
    advisor_failed: bool,
    next_request: u64,
}

/// With `go depth`/`go nodes`, how long the search waits for advice, so
/// fixed-depth runs are reproducible (queries take milliseconds).
const FIXED_SEARCH_ADVICE_BUDGET: Duration = Duration::from_secs(5);

impl Controller {
    /// `tx` is the sending side of the controller's own channel (the search
    /// thread reports `SearchDone` on it).
    pub fn new(tx: Sender<Msg>) -> Controller {
        Controller {
            tx,
            engine: Some(Engine::new(16, 1)),
            running: None,
            pending: VecDeque::new(),
            root: Chess::default(),
            keys: Vec::new(),
            hash_mb: 16,
            threads: 1,
            move_overhead: 30,
            multipv: 1,
            chess960: false,
            advisor_on: options::advisor_default(),
            advisor_index: options::default_index(),
            advice_weights: advice_glue::Weights {
                exact: crate::options::ADVICE_WEIGHT,
                similar: crate::options::ADVICE_SIMILAR_WEIGHT,
            },
            advisor_topk: 30,
            advisor: None,
            advisor_failed: false,
            next_request: 1,
        }
    }

    /// Opens the advisor if it is on and not open yet. A missing, corrupt
    /// or wrong-version index disables it with an `info string`; the engine
    /// plays on.
    fn ensure_advisor(&mut self) {
        if !self.advisor_on || self.advisor.is_some() || self.advisor_failed {
            return;
        }
        match AdvisorService::start(&self.advisor_index) {
            Ok(s) => {
                info_string(&format!(
                    "advisor: {} games, {} positions from {}",
                    s.games,
                    s.documents,
                    self.advisor_index.display()
                ));
                self.advisor = Some(s);
            }
            Err(e) => {
                info_string(&format!("advisor disabled: {e}"));
                self.advisor_failed = true;
            }
        }
    }

    pub fn run(mut self, rx: Receiver<Msg>) {
        while let Ok(msg) = rx.recv() {
            match msg {
                Msg::Quit => break,
                Msg::SearchDone => {
                    self.join();
                    self.drain();
                }
                Msg::IsReady => {
                    // Loading the advisor's index is what a GUI waits for
                    // with `isready`; mid-search, answer at once.
                    if self.running.is_none() && self.pending.is_empty() {
                        self.ensure_advisor();
                    }
                    send("readyok")
                }
                msg if !self.pending.is_empty() => self.pending.push_back(msg),
                msg => {
                    if let Err(msg) = self.try_handle(msg) {
                        self.pending.push_back(msg);
                    }
                }
            }
        }
        if let Some(r) = &self.running {
            r.control.stop();
        }
        self.join();
    }

    /// Takes the engine back from a finished (or stopped) search thread.
    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            let engine = r
                .handle
                .join()
                .unwrap_or_else(|_| Engine::new(self.hash_mb, self.threads));
            self.engine = Some(engine);
        }
    }

    /// Runs deferred commands in order until one has to wait again.
    fn drain(&mut self) {
        while let Some(msg) = self.pending.pop_front() {
            if let Err(msg) = self.try_handle(msg) {
                self.pending.push_front(msg);
                break;
            }
        }
    }

    /// Handles `msg`, or gives it back if it needs the engine that a search holds.
    fn try_handle(&mut self, msg: Msg) -> Result<(), Msg> {
        let busy = self.running.is_some();
        match msg {
            Msg::Go(go, control) => {
                if let Some(r) = &self.running {
                    // A `go` while searching (the GUI forgot `stop`): end that search first.
                    r.control.stop();
                    return Err(Msg::Go(go, control));
                }
                self.go(go, control);
            }
            Msg::Command(Command::Position { fen, moves }) => self.position(fen.as_deref(), &moves),
            Msg::Command(Command::UciNewGame) => {
                if let Some(r) = &self.running {
                    r.control.stop();
                    return Err(Msg::Command(Command::UciNewGame));
                }
                self.engine().clear();
            }
            Msg::Command(Command::SetOption { name, value }) => {
                let (change, note) = match options::check(&name, value.as_deref()) {
                    Ok(c) => c,
                    Err(e) => {
                        info_string(&e);
                        return Ok(());
                    }
                };
                let needs_engine = matches!(
                    change,
                    Change::Hash(_) | Change::Threads(_) | Change::ClearHash
                );
                if busy && needs_engine {
                    return Err(Msg::Command(Command::SetOption { name, value }));
                }
                if let Some(n) = note {
                    info_string(&n);
                }
                self.apply(change);
            }
            Msg::IsReady => send("readyok"),
            // Answered by the stdin thread, or nothing to do.
            Msg::Command(_) | Msg::SearchDone | Msg::Quit => {}
        }
        Ok(())
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine.get_or_insert_with(|| Engine::new(16, 1))
    }

    fn apply(&mut self, change: Change) {
        match change {
            Change::Hash(mb) => {
                self.hash_mb = mb;
                self.engine().set_hash(mb);
            }
            Change::Threads(n) => {
                self.threads = n;
                self.engine().set_threads(n);
            }
            Change::ClearHash => self.engine().clear(),
            Change::Ponder(_) => {} // We ponder whenever the GUI sends `go ponder`.
            Change::MoveOverhead(ms) => self.move_overhead = ms,
            Change::MultiPv(n) => self.multipv = n,
            Change::Chess960(on) => self.chess960 = on,
            Change::Advisor(on) => {
                self.advisor_on = on;
                self.advisor_failed = false;
                if !on {
                    self.advisor = None;
                }
            }
            Change::AdvisorIndex(path) => {
                self.advisor_index = path;
                self.advisor = None;
                self.advisor_failed = false;
            }
            Change::AdviceWeight(w) => self.advice_weights.exact = w,
            Change::AdviceSimilarWeight(w) => self.advice_weights.similar = w,
            Change::AdvisorTopK(k) => self.advisor_topk = k,
        }
    }

    /// Sets up a position. An illegal or malformed move ends the move list:
    /// the position is kept up to the move before it, and the GUI is told.
    fn position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut pos = match fen {
            None => Chess::default(),
            Some(f) => match board::from_fen(f, self.chess960) {
                Ok(p) => p,
                Err(e) => return info_string(&format!("{e}; position unchanged")),
            },
        };
        let mut keys = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            match board::parse_uci_move(&pos, text) {
                Ok(m) => {
                    keys.push(board::hash(&pos));
                    pos.play_unchecked(m);
                }
                Err(e) => {
                    info_string(&format!(
                        "move {} of the list: {e}; position set up to the move before it",
                        i + 1
                    ));
                    break;
                }
            }
        }
        self.root = pos;
        self.keys = keys;
    }

    fn limits(&self, go: &Go) -> Limits {
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match board::parse_uci_move(&self.root, text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => info_string(&format!("searchmoves: {e}; ignored")),
            }
        }
        for t in &go.ignored {
            info_string(&format!("go: ignored '{t}'"));
        }
        Limits {
            wtime: go.wtime,
            btime: go.btime,
            winc: go.winc,
            binc: go.binc,
            movestogo: go.movestogo.filter(|&m| m > 0),
            movetime: go.movetime,
            depth: go.depth,
            nodes: go.nodes,
            mate: go.mate.filter(|&m| m > 0),
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
        }
    }

    fn go(&mut self, go: Box<Go>, control: Arc<SearchControl>) {
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb, self.threads));
        let limits = self.limits(&go);
        let root = self.root.clone();
        let keys = self.keys.clone();
        let chess960 = self.chess960;
        let (hash_mb, threads) = (self.hash_mb, self.threads);
        let mut options = SearchOptions {
            multipv: self.multipv,
            move_overhead: Duration::from_millis(self.move_overhead),
            ..SearchOptions::default()
        };

        // Advice: asked for now; a fixed-depth/nodes search waits for it,
        // any other search starts at once and takes it when it arrives.
        self.ensure_advisor();
        let query = QueryOptions {
            k: self.advisor_topk,
            ..QueryOptions::default()
        };
        let mut wait_for = None;
        let mut prefetch = None;
        if let Some(svc) = &self.advisor {
            let id = self.next_request;
            self.next_request += 1;
            let sent = svc
                .sender()
                .send(Request {
                    id,
                    pos: self.root.clone(),
                    options: query.clone(),
                    prefetch: false,
                })
                .is_ok();
            if sent {
                if go.depth.is_some() || go.nodes.is_some() {
                    wait_for = Some((svc.receiver(), id));
                } else {
                    options.advice = Some(Arc::new(Poller {
                        rx: svc.receiver(),
                        id,
                        weights: self.advice_weights,
                        chess960,
                        done: std::sync::Mutex::new(false),
                    }));
                }
                prefetch = Some(svc.sender());
            }
        }
        let weights = self.advice_weights;
        let c = control.clone();
        let tx = self.tx.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let reporter = UciReporter::new(chess960);
                if let Some((rx, id)) = wait_for {
                    match advice_glue::wait(&rx, id, FIXED_SEARCH_ADVICE_BUDGET) {
                        Some(Ok(a)) => {
                            info_string(&advice_glue::describe(&a, chess960));
                            options.root_bonus = advice_glue::bonuses(&a, weights);
                        }
                        Some(Err(e)) => info_string(&format!("advisor: {e}")),
                        None => info_string("advisor: no answer in time; searching without advice"),
                    }
                }
                let result = catch_unwind(AssertUnwindSafe(|| {
                    engine.search(&root, &keys, &limits, &options, &c, &reporter)
                }));
                let last = reporter
                    .last
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clone();
                match result {
                    Ok(result) => {
                        let mut best = result.best;
                        let mut ponder = result.ponder;
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
                        bestmove(best, ponder, chess960);
                        // While the opponent thinks, prepare advice for the reply we expect.
                        if let (Some(b), Some(p), Some(tx)) = (best, ponder, &prefetch) {
                            let mut pos = root.clone();
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
                    }
                    Err(_) => {
                        // A bug must not leave the GUI without an answer.
                        info_string("internal error in the search; playing a legal move");
                        c.wait_for_release(limits.infinite);
                        bestmove(root.legal_moves().first().copied(), None, chess960);
                        engine = Engine::new(hash_mb, threads);
                    }
                }
                let _ = tx.send(Msg::SearchDone);
                engine
            });
        match handle {
            Ok(handle) => self.running = Some(Running { handle, control }),
            Err(e) => {
                info_string(&format!("cannot start a search thread: {e}"));
                self.engine = Some(Engine::new(self.hash_mb, self.threads));
                bestmove(self.root.legal_moves().first().copied(), None, chess960);
            }
        }
    }
}

fn bestmove(best: Option<shakmaty::Move>, ponder: Option<shakmaty::Move>, chess960: bool) {
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
