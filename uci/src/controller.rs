//! The controller: owns the engine, the position and the options, and runs
//! each search on a thread of its own. It receives everything the stdin
//! thread does not answer itself, in order, and never blocks on a search:
//! a command that needs the engine while a search runs waits in `pending`
//! (in order, with everything after it) until the search thread reports that
//! it is done. So `isready` is answered at once mid-search, and otherwise
//! after every earlier command took effect, as GUIs expect.

use std::collections::VecDeque;
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
use crate::search_thread::{self, BookPlay, Job, Wait};

use crate::options::{self, Change};
use crate::output::{info_string, send};
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
    advisor_mode: mach_advisor::search::Mode,
    /// `AdvisorTree`, and the table the advisor thread fills for the search.
    advisor_tree: bool,
    tree: Option<Arc<crate::advice_glue::TreeSlot>>,
    advisor: Option<AdvisorService>,
    /// Opening the index at `advisor_index` failed; not retried until an
    /// advisor option changes.
    advisor_failed: bool,
    next_request: u64,
    own_book: bool,
    book: BookPlay,
    /// The Polyglot book of `BookFile`, and a random state to pick by weight.
    polyglot: Option<mach_advisor::polyglot::Book>,
    rng: u64,
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
                plans: false,
                time: false,
            },
            advisor_topk: 30,
            advisor_mode: Default::default(),
            advisor_tree: false,
            tree: None,
            advisor: None,
            advisor_failed: false,
            next_request: 1,
            own_book: false,
            polyglot: None,
            rng: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9e37_79b9, |d| d.as_nanos() as u64)
                | 1,
            book: BookPlay {
                rules: mach_advisor::book::BookRules::default(),
                margin: 50,
                verify_nodes: 8_000,
            },
        }
    }

    /// Opens the advisor if it is on and not open yet. A missing, corrupt
    /// or wrong-version index disables it with an `info string`; the engine
    /// plays on.
    fn ensure_advisor(&mut self) {
        if !self.advisor_on || self.advisor.is_some() || self.advisor_failed {
            return;
        }
        let slot = self
            .advisor_tree
            .then(|| Arc::new(std::sync::OnceLock::new()));
        match AdvisorService::start_with_tree(&self.advisor_index, slot.clone()) {
            Ok(s) => {
                self.tree = slot.map(|s| Arc::new(crate::advice_glue::TreeSlot(s)));
                info_string(&format!(
                    "advisor: {} games, {} positions from {}",
                    s.games,
                    s.documents,
                    self.advisor_index.display()
                ));
                self.advisor = Some(s);
            }
            Err(e) => {
                log::warn!("advisor disabled: {e}");
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
                msg if !self.pending.is_empty() => {
                    // A new `go` (or `ucinewgame`) ends the running search even
                    // while earlier commands wait behind it: otherwise a `go
                    // infinite` would never end and its `go` never be answered.
                    if matches!(msg, Msg::Go(..) | Msg::Command(Command::UciNewGame)) {
                        if let Some(r) = &self.running {
                            r.control.stop();
                        }
                    }
                    self.pending.push_back(msg)
                }
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
            // A `go` with a newer `go` (or `ucinewgame`) already queued behind
            // it was superseded before it began: it still answers, at once.
            if let Msg::Go(_, control) = &msg {
                let superseded = self
                    .pending
                    .iter()
                    .any(|m| matches!(m, Msg::Go(..) | Msg::Command(Command::UciNewGame)));
                if superseded {
                    control.stop();
                }
            }
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
                self.engine().set_hash(mb);
                let got = self.engine().hash_mb();
                if got < mb {
                    info_string(&format!(
                        "Hash {mb} MiB cannot be allocated here; using {got} MiB"
                    ));
                }
                self.hash_mb = got;
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
                    self.tree = None;
                }
            }
            Change::AdvisorIndex(path) => {
                self.advisor_index = path;
                self.advisor = None;
                self.tree = None;
                self.advisor_failed = false;
            }
            Change::AdviceWeight(w) => self.advice_weights.exact = w,
            Change::AdviceSimilarWeight(w) => self.advice_weights.similar = w,
            Change::AdvisorTopK(k) => self.advisor_topk = k,
            Change::AdvisorPlans(on) => self.advice_weights.plans = on,
            Change::AdvisorTime(on) => self.advice_weights.time = on,
            Change::AdvisorMode(m) => self.advisor_mode = m,
            Change::AdvisorTree(on) => {
                if on != self.advisor_tree {
                    // Restarted with or without the table at the next `go`.
                    self.advisor_tree = on;
                    self.advisor = None;
                    self.tree = None;
                    self.advisor_failed = false;
                }
            }
            Change::OwnBook(on) => self.own_book = on,
            Change::BookFile(None) => self.polyglot = None,
            Change::BookFile(Some(path)) => {
                self.polyglot = match mach_advisor::polyglot::Book::open(&path) {
                    Ok(b) => {
                        info_string(&format!("BookFile {}: {} entries", path.display(), b.len()));
                        Some(b)
                    }
                    Err(e) => {
                        info_string(&format!("BookFile: {e}; playing without it"));
                        None
                    }
                }
            }
            Change::BookMinGames(n) => self.book.rules.min_games = n,
            Change::BookMinScore(p) => self.book.rules.min_score = p as f32 / 100.0,
            Change::BookMargin(cp) => self.book.margin = cp,
            Change::BookVerifyNodes(n) => self.book.verify_nodes = n,
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

    /// The book, if this search may play from it: not when analysing
    /// (infinite, ponder, searchmoves, mate, MultiPV).
    fn book_for(&self, limits: &Limits) -> Option<BookPlay> {
        (self.own_book && !self.analysing(limits)).then_some(self.book)
    }

    /// A move of the `BookFile` book for this search, picked by weight;
    /// never when analysing.
    fn polyglot_move(&mut self, limits: &Limits) -> Option<shakmaty::Move> {
        if self.polyglot.is_none() || self.analysing(limits) {
            return None;
        }
        // xorshift64: variety between games, no dependency for it.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        let r = (self.rng >> 11) as f64 / (1u64 << 53) as f64;
        let moves = self.polyglot.as_ref()?.moves(&self.root);
        let m = mach_advisor::polyglot::pick_from(&moves, r)?;
        let total: u32 = moves.iter().map(|(_, w)| *w as u32).sum();
        let list: Vec<String> = moves
            .iter()
            .map(|(m, w)| {
                let share = 100.0 * *w as f64 / total as f64;
                format!("{} {share:.0}%", board::uci(*m, self.chess960))
            })
            .collect();
        info_string(&format!(
            "BookFile: {} ({})",
            board::uci(m, self.chess960),
            list.join(", ")
        ));
        Some(m)
    }

    /// Analysis, where no book may answer: infinite, ponder, searchmoves,
    /// mate, MultiPV.
    fn analysing(&self, limits: &Limits) -> bool {
        limits.infinite
            || limits.ponder
            || !limits.searchmoves.is_empty()
            || limits.mate.is_some()
            || self.multipv > 1
    }

    fn go(&mut self, go: Box<Go>, control: Arc<SearchControl>) {
        let limits = self.limits(&go);
        if let Some(m) = self.polyglot_move(&limits) {
            // Played from the Polyglot book: no search, one bestmove.
            search_thread::bestmove(Some(m), None, self.chess960);
            return;
        }
        let engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb, self.threads));
        let chess960 = self.chess960;
        let mut options = SearchOptions {
            multipv: self.multipv,
            move_overhead: Duration::from_millis(self.move_overhead),
            ..SearchOptions::default()
        };

        // Advice: asked for now. A fixed-depth/nodes search waits for it (so
        // it is reproducible), and so does a search that may play from the
        // book (briefly: the answer takes milliseconds); any other search
        // starts at once and takes it when it arrives.
        self.ensure_advisor();
        let query = QueryOptions {
            k: self.advisor_topk,
            mode: self.advisor_mode,
            ..QueryOptions::default()
        };
        let mut wait = None;
        let mut prefetch = None;
        let mut book = None;
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
                book = self.book_for(&limits);
                let fixed = go.depth.is_some() || go.nodes.is_some();
                if fixed || book.is_some() {
                    wait = Some(Wait {
                        rx: svc.receiver(),
                        id,
                        budget: if fixed {
                            FIXED_SEARCH_ADVICE_BUDGET
                        } else {
                            book_wait(&limits, self.root.turn())
                        },
                        bonuses: fixed,
                        advice_budget: FIXED_SEARCH_ADVICE_BUDGET,
                    });
                }
                if !fixed {
                    // Also polled during the search, in case the wait above runs out.
                    options.advice = Some(Arc::new(Poller {
                        rx: svc.receiver(),
                        id,
                        weights: self.advice_weights,
                        chess960,
                        done: std::sync::Mutex::new(false),
                    }));
                }
                prefetch = Some((svc.sender(), query.clone()));
                if let Some(t) = &self.tree {
                    options.tree = Some(t.clone() as Arc<dyn mach_engine::advice::TreeAdvice>);
                }
            }
        }
        let job = Job {
            engine,
            root: self.root.clone(),
            keys: self.keys.clone(),
            limits,
            options,
            control: control.clone(),
            chess960,
            hash_mb: self.hash_mb,
            threads: self.threads,
            weights: self.advice_weights,
            wait,
            book,
            prefetch,
            done: self.tx.clone(),
        };
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || search_thread::run(job));
        match handle {
            Ok(handle) => self.running = Some(Running { handle, control }),
            Err(e) => {
                info_string(&format!("cannot start a search thread: {e}"));
                self.engine = Some(Engine::new(self.hash_mb, self.threads));
                search_thread::bestmove(self.root.legal_moves().first().copied(), None, chess960);
            }
        }
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
