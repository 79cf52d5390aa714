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

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use mach_engine::advice::Experience;
use mach_engine::strength::Strength;
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions};
use shakmaty::{Chess, Position};

use crate::uci::advisor_client::AdvisorClient;
use crate::uci::book::{BookPlay, Books};
use crate::uci::experience_store::{self, ExperienceStore};
use crate::uci::msg::Msg;
use crate::uci::search_thread::{self, Job};
use crate::uci::tree_analysis;

use crate::uci::options::{self, Change};
use crate::uci::output::{info_string, send};
use crate::uci::protocol::{Command, Go};

struct Running {
    handle: JoinHandle<Engine>,
    control: Arc<SearchControl>,
}

/// The answer of a `go infinite` or `go ponder` whose search thread could
/// not be started: like the search's own, it waits for `stop` (or
/// `ponderhit`), so the GUI still gets no `bestmove` before it asks.
struct Held {
    control: Arc<SearchControl>,
    best: Option<shakmaty::Move>,
    infinite: bool,
    chess960: bool,
}

/// How often a held answer looks for its `stop` (the stdin thread sets it
/// on the control and does not write to the controller's channel).
const HELD_POLL: Duration = Duration::from_millis(10);

pub struct Controller {
    tx: Sender<Msg>,
    engine: Option<Engine>,
    running: Option<Running>,
    held: Option<Held>,
    pending: VecDeque<Msg>,
    root: Chess,
    /// Zobrist keys of the positions before `root`, for repetition draws.
    keys: Vec<u64>,
    hash_mb: usize,
    threads: usize,
    move_overhead: u64,
    multipv: usize,
    chess960: bool,
    /// `UCI_LimitStrength` and `UCI_Elo`.
    limit_strength: bool,
    uci_elo: u32,
    /// `PawnChunks`: MACH's pawn chunks in the evaluation.
    pawn_chunks: bool,
    /// `BookAnalysis`: memory moves judged by Mach's analysis.
    book_analysis: bool,
    /// The `Experience*` options and the store they opened.
    experience: ExperienceOptions,
    /// The grandmaster memory: advisor options, thread and requests.
    advisor: AdvisorClient,
    own_book: bool,
    book: BookPlay,
    /// The Polyglot book of `BookFile`.
    polyglot: Option<Arc<mach_advisor::polyglot::Book>>,
    /// A random state: book picks by weight, noise seeds.
    rng: u64,
}

impl Controller {
    /// `tx` is the sending side of the controller's own channel (the search
    /// thread reports `SearchDone` on it).
    pub fn new(tx: Sender<Msg>) -> Controller {
        Controller {
            tx,
            engine: Some(Engine::new(16, 1)),
            running: None,
            held: None,
            pending: VecDeque::new(),
            root: Chess::default(),
            keys: Vec::new(),
            hash_mb: 16,
            threads: 1,
            move_overhead: 30,
            multipv: 1,
            chess960: false,
            limit_strength: false,
            uci_elo: mach_engine::strength::MIN_ELO,
            pawn_chunks: false,
            book_analysis: true,
            experience: ExperienceOptions::default(),
            advisor: AdvisorClient::new(),
            own_book: true,
            polyglot: None,
            rng: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0x9e37_79b9, |d| d.as_nanos() as u64)
                | 1,
            book: BookPlay::default(),
        }
    }

    /// Handles messages until `quit` (or the channel closes), then ends
    /// the running search.
    pub fn run(mut self, rx: Receiver<Msg>) {
        loop {
            let msg = if self.held.is_some() {
                match rx.recv_timeout(HELD_POLL) {
                    Ok(msg) => msg,
                    Err(RecvTimeoutError::Timeout) => {
                        self.answer_held(false);
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match rx.recv() {
                    Ok(msg) => msg,
                    Err(_) => break,
                }
            };
            self.answer_held(false);
            match msg {
                Msg::Quit => break,
                Msg::SearchDone => {
                    self.join();
                    self.drain();
                }
                Msg::IsReady => {
                    // Loading the advisor's index is what a GUI waits for
                    // with `isready`; mid-search, answer at once.
                    if self.running.is_none() && self.held.is_none() && self.pending.is_empty() {
                        self.advisor.ensure_open();
                        self.experience.store();
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
        self.answer_held(true);
        // The end of input ends the game: what it taught is written.
        self.experience.end_game(Some(&self.root));
    }

    /// Sends the held `bestmove` once the GUI released it (or, with
    /// `now`, because a new `go`, `ucinewgame` or `quit` ends its search).
    fn answer_held(&mut self, now: bool) {
        let released = self.held.as_ref().is_some_and(|h| {
            now || h.control.is_stopped() || (!h.infinite && !h.control.is_pondering())
        });
        if released {
            if let Some(h) = self.held.take() {
                search_thread::bestmove(h.best, None, h.chess960);
            }
        }
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
                // A `go` while an answer is held (the GUI forgot `stop`):
                // that `go` is answered first, as a running search would be.
                self.answer_held(true);
                if let Some(r) = &self.running {
                    // A `go` while searching (the GUI forgot `stop`): end that search first.
                    r.control.stop();
                    return Err(Msg::Go(go, control));
                }
                self.go(go, control);
            }
            Msg::Command(Command::Position { fen, moves }) => self.position(fen.as_deref(), &moves),
            Msg::Command(Command::UciNewGame) => {
                self.answer_held(true);
                if let Some(r) = &self.running {
                    r.control.stop();
                    return Err(Msg::Command(Command::UciNewGame));
                }
                self.experience.end_game(Some(&self.root));
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
                let needs_engine = change.waits_for_search();
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

    /// The engine, made afresh if a panicked search lost it.
    fn engine(&mut self) -> &mut Engine {
        self.engine.get_or_insert_with(|| Engine::new(16, 1))
    }

    /// Applies a checked option; the advisor's go to the memory.
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
                self.engine().set_threads(n);
                let got = self.engine().threads();
                if got < n {
                    info_string(&format!("Threads {n} cannot be started here; using {got}"));
                }
                self.threads = got;
            }
            Change::ClearHash => self.engine().clear(),
            Change::Ponder(_) => {} // We ponder whenever the GUI sends `go ponder`.
            Change::MoveOverhead(ms) => self.move_overhead = ms,
            Change::MultiPv(n) => self.multipv = n,
            Change::Chess960(on) => self.chess960 = on,
            Change::LimitStrength(on) => {
                self.limit_strength = on;
                self.say_strength();
            }
            Change::UciElo(elo) => {
                self.uci_elo = elo;
                self.say_strength();
            }
            Change::Advisor(_)
            | Change::AdvisorIndex(_)
            | Change::AdviceWeight(_)
            | Change::AdviceSimilarWeight(_)
            | Change::AdvisorTopK(_)
            | Change::AdvisorPlans(_)
            | Change::AdvisorTime(_)
            | Change::AdvisorMode(_)
            | Change::AdvisorTree(_)
            | Change::OpeningTree(_) => self.advisor.set_option(change),
            Change::OwnBook(on) => self.own_book = on,
            Change::BookFile(None) => self.polyglot = None,
            Change::BookFile(Some(path)) => {
                self.polyglot = match mach_advisor::polyglot::Book::open(&path) {
                    Ok(b) => {
                        info_string(&format!("BookFile {}: {} entries", path.display(), b.len()));
                        Some(Arc::new(b))
                    }
                    Err(e) => {
                        info_string(&format!("BookFile: {e}; playing without it"));
                        None
                    }
                }
            }
            Change::BookMinGames(n) => self.book.rules.min_games = n,
            Change::BookMinScore(p) => self.book.rules.min_score = p as f32 / 100.0,
            Change::BookBackedUp(on) => self.book.rules.backed_up = on,
            Change::PawnChunks(on) => self.pawn_chunks = on,
            Change::BookAnalysis(on) => {
                self.book_analysis = on;
                if on {
                    info_string(&format!(
                        "BookAnalysis: memory moves judged by Mach's analysis of {} tree positions",
                        tree_analysis::builtin().positions()
                    ));
                }
            }
            Change::Experience(on) => self.experience.set(|o| o.on = on, &self.root),
            Change::ExperienceFile(path) => self.experience.set(|o| o.file = path, &self.root),
            Change::ExperienceReadOnly(on) => self.experience.set(|o| o.read_only = on, &self.root),
            Change::ExperienceMinDepth(d) => self.experience.set(|o| o.min_depth = d, &self.root),
            Change::BookMargin(cp) => self.book.margin = cp,
            Change::BookVerifyNodes(n) => self.book.verify_nodes = n,
            #[cfg(feature = "spsa")]
            Change::SearchParam(name, value) => {
                if let Err(e) = mach_engine::params::set(name, value) {
                    info_string(&e);
                }
            }
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
        // A position that does not continue the game searched last starts
        // another: the last one is over.
        if !self.experience.continues_game(&keys, board::hash(&pos)) {
            let old = std::mem::replace(&mut self.root, pos.clone());
            self.experience.end_game(Some(&old));
        }
        self.root = pos;
        self.keys = keys;
    }

    /// The weakening of `UCI_LimitStrength`, if on.
    fn strength(&self) -> Option<Strength> {
        self.limit_strength.then(|| Strength::for_elo(self.uci_elo))
    }

    /// Tells the GUI what a limited strength means in search terms.
    fn say_strength(&self) {
        if let Some(s) = self.strength() {
            info_string(&format!(
                "UCI_Elo {}: at most {} nodes a move (depth 1 always completes), \
                 evaluation noise up to {} cp, one thread, no grandmaster advice",
                self.uci_elo, s.nodes, s.noise
            ));
        }
    }

    /// The search limits of `go`, telling the GUI what was ignored.
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

    /// The books this search may play from: none when analysing
    /// (infinite, ponder, searchmoves, mate, MultiPV). `memory` says whether
    /// the grandmaster memory was asked.
    fn books(&mut self, limits: &Limits, memory: bool) -> Option<Books> {
        if self.analysing(limits) {
            return None;
        }
        let draw = (self.random() >> 11) as f64 / (1u64 << 53) as f64;
        let file = self.polyglot.clone().map(|b| (b, draw));
        let mut analysis: Vec<Arc<dyn Experience>> = Vec::new();
        if self.book_analysis {
            analysis.push(tree_analysis::builtin());
            if let Some(x) = self.experience.store() {
                analysis.push(x);
            }
        }
        Some(Books {
            play: self.book,
            memory: memory && self.own_book,
            file,
            analysis,
        })
    }

    /// The next number of an xorshift64: variety between games (book
    /// picks, noise seeds), no dependency for it.
    fn random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
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

    /// Starts a search thread for `go` (which may answer from a book).
    fn go(&mut self, go: Box<Go>, control: Arc<SearchControl>) {
        let limits = self.limits(&go);
        let engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb, self.threads));
        let chess960 = self.chess960;
        let mut options = SearchOptions {
            multipv: self.multipv,
            move_overhead: Duration::from_millis(self.move_overhead),
            strength: self.strength().map(|s| Strength {
                seed: self.random(),
                ..s
            }),
            pawn_chunks: self.pawn_chunks,
            ..SearchOptions::default()
        };
        // A limited strength plays as measured: without experience.
        let experience = self
            .experience
            .store()
            .filter(|_| options.strength.is_none());
        if let Some(x) = &experience {
            x.say_known(&self.root, chess960);
            options.experience = Some(x.clone() as Arc<dyn mach_engine::advice::Experience>);
        }

        // Advice: asked for now (see `AdvisorClient::request_for` for whether
        // the search waits for it).
        self.advisor.ensure_open();
        let fixed = go.depth.is_some() || go.nodes.is_some();
        let may_book = self.own_book && !self.analysing(&limits);
        let mut wait = None;
        let mut prefetch = None;
        // A limited strength plays without the advice: its levels were
        // measured so, and the advice would make it stronger than it says.
        let asked = if options.strength.is_some() {
            None
        } else {
            self.advisor
                .request_for(&self.root, &limits, fixed, may_book, chess960)
        };
        let books = self.books(&limits, asked.is_some());
        if let Some(asked) = asked {
            wait = asked.wait;
            options.advice = asked.advice;
            options.tree = asked.tree;
            prefetch = Some(asked.prefetch);
        }
        let first_searchmove = limits.searchmoves.first().copied();
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
            weights: self.advisor.weights,
            wait,
            books,
            prefetch,
            done: self.tx.clone(),
            experience,
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
                // A legal move: one of `searchmoves` when the GUI restricted the root.
                let best = first_searchmove.or_else(|| self.root.legal_moves().first().copied());
                self.held = Some(Held {
                    control,
                    best,
                    infinite: go.infinite,
                    chess960,
                });
                // A timed search is answered at once; analysis waits.
                self.answer_held(false);
            }
        }
    }
}

/// The `Experience*` options, and the store opened from them when first
/// needed (reopened after any of them changes).
struct ExperienceOptions {
    on: bool,
    file: std::path::PathBuf,
    read_only: bool,
    min_depth: i32,
    store: Option<Arc<ExperienceStore>>,
    /// Opening was tried (a foreign file is said once, not at every `go`).
    tried: bool,
}

impl Default for ExperienceOptions {
    fn default() -> Self {
        ExperienceOptions {
            on: false,
            file: experience_store::default_file(),
            read_only: false,
            min_depth: 4,
            store: None,
            tried: false,
        }
    }
}

impl ExperienceOptions {
    /// The store, opened at the first call while `Experience` is on.
    fn store(&mut self) -> Option<Arc<ExperienceStore>> {
        if !self.on {
            return None;
        }
        if !self.tried {
            self.tried = true;
            self.store =
                ExperienceStore::open(&self.file, self.read_only, self.min_depth).map(Arc::new);
        }
        self.store.clone()
    }

    /// Changes an option: the game so far is written and the store reopened.
    fn set(&mut self, change: impl FnOnce(&mut ExperienceOptions), root: &Chess) {
        self.end_game(Some(root));
        change(self);
        self.store = None;
        self.tried = false;
    }

    fn end_game(&self, last: Option<&Chess>) {
        if let Some(x) = &self.store {
            x.end_game(last);
        }
    }

    fn continues_game(&self, history: &[u64], root_key: u64) -> bool {
        self.store
            .as_ref()
            .is_none_or(|x| x.continues_game(history, root_key))
    }
}
