//! The engine as a library: a transposition table, per-thread history and a
//! blocking `search` that reports through a [`Reporter`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use crate::advice::RootAdvice;
use crate::control::SearchControl;
use crate::history::History;
use crate::pawn_king_cache::PawnKingCache;
use crate::pool::Pool;
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
    /// The advice door: root bonuses, plans and a trusted move, polled
    /// before the root moves are ordered and at every iteration.
    pub advice: Option<Arc<dyn RootAdvice>>,
    /// Moves known in positions inside the tree.
    pub tree: Option<Arc<dyn crate::advice::TreeAdvice>>,
    /// Limited strength (`UCI_LimitStrength`): a node budget and evaluation
    /// noise; `None`: full strength.
    pub strength: Option<crate::strength::Strength>,
    /// Add MACH's pawn chunks to the evaluation (`PawnChunks`).
    pub pawn_chunks: bool,
    /// What Mach's earlier searches found (`Experience`).
    pub experience: Option<Arc<dyn crate::advice::Experience>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            advice: None,
            tree: None,
            strength: None,
            pawn_chunks: false,
            experience: None,
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

/// The engine owns its threads: the caller's thread searches as the main
/// thread, `Threads - 1` persistent helpers search beside it (Lazy SMP).
pub struct Engine {
    tt: Arc<TranspositionTable>,
    /// The main thread's move-ordering history (helpers keep their own).
    history: History,
    /// The main thread's pawn-and-king sums (helpers keep their own).
    pawn_king: PawnKingCache,
    pool: Pool,
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Engine {
        let mut e = Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            history: History::default(),
            pawn_king: PawnKingCache::default(),
            pool: Pool::default(),
        };
        e.set_threads(threads);
        e
    }

    /// A new table of `mb` MiB (less if that much cannot be had). The old
    /// one is let go first, so the two never need memory at once; helpers
    /// finishing the last search may still hold it for a moment.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(mb));
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.pool.resize(threads.max(1) - 1);
    }

    pub fn threads(&self) -> usize {
        self.pool.len() + 1
    }

    /// Forget everything learned (new game, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.pool.clear();
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
        control: &Arc<SearchControl>,
        reporter: &dyn Reporter,
    ) -> SearchResult {
        let on_clock =
            limits.wtime.is_some() || limits.btime.is_some() || limits.movetime.is_some();
        self.tt.new_search(on_clock);
        // The table's background filling waits until this search ends.
        self.tt.searching(true);
        let _filling = Filling(self.tt.clone());
        self.history.age();
        // A limited search runs on this thread alone: only there is a node
        // budget exact, and the levels were measured single-threaded.
        let threads = if options.strength.is_some() {
            1
        } else {
            self.threads()
        };
        // Limited strength: the node budget joins the caller's limits (the
        // clock still applies); the noise is seeded by the root and the caller.
        let mut limits = limits.clone();
        if let Some(s) = options.strength {
            limits.nodes = Some(limits.nodes.map_or(s.nodes, |n| n.min(s.nodes)));
        }
        let limits = &limits;
        let shared = Arc::new(Shared {
            tt: self.tt.clone(),
            control: control.clone(),
            limits: limits.clone(),
            noise: options.strength.map_or(0, |s| s.noise),
            noise_seed: crate::board::hash(root) ^ options.strength.map_or(0, |s| s.seed),
            time: TimeManager::new(limits, root.turn(), options.move_overhead),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            helpers_stop: AtomicBool::new(false),
            root_bonus: RwLock::new(Vec::new()),
            plans: RwLock::new(None),
            trusted: RwLock::new(None),
            advice: options.advice.clone(),
            tree: options.tree.clone(),
            pawn_chunks: options.pawn_chunks,
            experience: options.experience.clone(),
        });
        // Advice already in hand orders the root moves.
        shared.poll_advice();

        let mut main = Searcher::new(
            &shared,
            0,
            &mut self.history,
            &self.pawn_king,
            root,
            game_keys,
        );
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

        if threads > 1 {
            self.pool.start(&shared, root, &Arc::from(game_keys));
        }
        // The helpers stop when this search ends, even by a panic (or they
        // would search on under `go infinite` and the pool could not be joined).
        let stop_helpers = StopOnDrop(&shared.helpers_stop);
        let outcome = main.iterate(reporter, options.multipv);
        // The helpers stop at their next check; the answer does not wait.
        drop(stop_helpers);
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

/// Sets the flag when dropped: on return and on unwinding alike.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Lets the table's background filling go on when the search that held it
/// ends, however it ends.
struct Filling(Arc<TranspositionTable>);

impl Drop for Filling {
    fn drop(&mut self) {
        self.0.searching(false);
    }
}
