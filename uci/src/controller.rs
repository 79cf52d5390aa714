//! The controller: owns the engine, the position and the options, and runs
//! each search on a thread of its own. It receives everything the stdin
//! thread does not answer itself, in order.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::Receiver;
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions};
use shakmaty::{Chess, Position};

use crate::options::{self, Change};
use crate::output::{info_string, send, UciReporter};
use crate::protocol::{Command, Go};

pub enum Msg {
    Command(Command),
    /// `go`, with the control the stdin thread made for it (so a `stop` read
    /// right after `go` reaches this search even before it starts).
    Go(Go, Arc<SearchControl>),
    Quit,
}

struct Running {
    handle: JoinHandle<Engine>,
    control: Arc<SearchControl>,
}

pub struct Controller {
    engine: Option<Engine>,
    running: Option<Running>,
    root: Chess,
    /// Zobrist keys of the positions before `root`, for repetition draws.
    keys: Vec<u64>,
    hash_mb: usize,
    threads: usize,
    move_overhead: u64,
    multipv: usize,
    chess960: bool,
}

impl Default for Controller {
    fn default() -> Self {
        Controller {
            engine: Some(Engine::new(16, 1)),
            running: None,
            root: Chess::default(),
            keys: Vec::new(),
            hash_mb: 16,
            threads: 1,
            move_overhead: 30,
            multipv: 1,
            chess960: false,
        }
    }
}

impl Controller {
    pub fn run(mut self, rx: Receiver<Msg>) {
        while let Ok(msg) = rx.recv() {
            match msg {
                Msg::Quit => break,
                Msg::Go(go, control) => self.go(go, control),
                Msg::Command(c) => self.command(c),
            }
        }
        self.finish(true);
    }

    /// Waits for a running search (stopping it first if `stop`) and takes the engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.control.stop();
            }
            let engine = r
                .handle
                .join()
                .unwrap_or_else(|_| Engine::new(self.hash_mb, self.threads));
            self.engine = Some(engine);
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.finish(false);
        self.engine.get_or_insert_with(|| Engine::new(16, 1))
    }

    fn command(&mut self, c: Command) {
        match c {
            Command::Position { fen, moves } => self.position(fen.as_deref(), &moves),
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UciNewGame => {
                self.finish(true);
                self.engine().clear();
            }
            // Answered by the stdin thread, or nothing to do.
            _ => {}
        }
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        let (change, note) = match options::check(name, value) {
            Ok(c) => c,
            Err(e) => return info_string(&e),
        };
        if let Some(n) = note {
            info_string(&n);
        }
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

    fn go(&mut self, go: Go, control: Arc<SearchControl>) {
        // A `go` while searching (the GUI forgot `stop`): end that search first.
        self.finish(true);
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb, self.threads));
        let limits = self.limits(&go);
        let root = self.root.clone();
        let keys = self.keys.clone();
        let chess960 = self.chess960;
        let (hash_mb, threads) = (self.hash_mb, self.threads);
        let options = SearchOptions {
            multipv: self.multipv,
            move_overhead: Duration::from_millis(self.move_overhead),
            root_bonus: Vec::new(),
        };
        let c = control.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let reporter = UciReporter::new(chess960);
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
                    }
                    Err(_) => {
                        // A bug must not leave the GUI without an answer.
                        info_string("internal error in the search; playing a legal move");
                        c.wait_for_release(limits.infinite);
                        bestmove(root.legal_moves().first().copied(), None, chess960);
                        engine = Engine::new(hash_mb, threads);
                    }
                }
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
