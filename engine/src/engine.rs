//! The engine as a library: a transposition table, per-thread history and a
//! blocking `search` that reports through a [`Reporter`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use crate::advice::RootAdvice;
use crate::control::SearchControl;
use crate::history::History;
use crate::report::Reporter;
use crate::thread::{Searcher, Shared};
use crate::time::{Limits, TimeManager};
use crate::tt::TranspositionTable;

/// Options that shape a search but are not `go` limits.
#[derive(Clone)]
pub struct SearchOptions {
    /// Number of principal variations to report (MultiPV).
    pub multipv: usize,
    /// Time kept back for the GUI and the pipe.
    pub move_overhead: Duration,
    /// Centipawns added to lines starting with these root moves (advice
    /// known before the search starts; also ordered first at the root).
    pub root_bonus: Vec<(Move, i32)>,
    /// Advice that may arrive during the search.
    pub advice: Option<Arc<dyn RootAdvice>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            root_bonus: Vec::new(),
            advice: None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// Expected reply (second move of the PV).
    pub ponder: Option<Move>,
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

pub struct Engine {
    tt: TranspositionTable,
    histories: Vec<History>,
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        let mut e = Engine {
            tt: TranspositionTable::new(hash_mb),
            histories: Vec::new(),
        };
        e.set_threads(threads);
        e
    }

    pub fn set_hash(&mut self, mb: usize) {
        self.tt = TranspositionTable::new(mb);
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.histories.resize_with(threads.max(1), History::default);
    }

    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Forget everything learned (new game, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Searches `root` (reached through positions with Zobrist keys
    /// `game_keys`, oldest first, root excluded) until a limit is reached or
    /// `control` is stopped. Under `go infinite` / `go ponder` it returns
    /// only after `stop` / `ponderhit`, even if the search ended before.
    pub fn search(
        &mut self,
        root: &Chess,
        game_keys: &[u64],
        limits: &Limits,
        options: &SearchOptions,
        control: &SearchControl,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        self.tt.new_search();
        for h in &mut self.histories {
            h.age();
        }
        let threads = self.histories.len();
        let shared = Shared {
            tt: &self.tt,
            control,
            limits,
            time: TimeManager::new(limits, root.turn(), options.move_overhead),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            helpers_stop: AtomicBool::new(false),
            root_bonus: RwLock::new(options.root_bonus.clone()),
            advice: options.advice.clone(),
        };
        let (main_hist, helper_hists) = self.histories.split_first_mut().expect("one thread");

        let mut main = Searcher::new(&shared, 0, main_hist, root, game_keys);
        main.init_root_moves();
        if main.root_moves.is_empty() {
            control.wait_for_release(limits.infinite);
            return SearchResult {
                best: None,
                ponder: None,
                score: if root.is_check() {
                    -crate::score::MATE
                } else {
                    0
                },
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }

        let outcome = std::thread::scope(|scope| {
            for (i, hist) in helper_hists.iter_mut().enumerate() {
                let shared = &shared;
                scope.spawn(move || {
                    let mut helper = Searcher::new(shared, i + 1, hist, root, game_keys);
                    helper.init_root_moves();
                    helper.iterate(&crate::report::Silent, 1);
                });
            }
            let outcome = main.iterate(reporter, options.multipv);
            shared.helpers_stop.store(true, Ordering::SeqCst);
            outcome
        });
        control.wait_for_release(limits.infinite);

        SearchResult {
            best: outcome.pv.first().copied(),
            ponder: outcome.pv.get(1).copied(),
            score: outcome.score,
            depth: outcome.depth,
            nodes: shared.total_nodes(),
            pv: outcome.pv,
        }
    }
}
