//! One search thread's state and what all threads of a search share.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use crate::control::SearchControl;
use crate::history::History;
use crate::params::{LMR_BASE, LMR_DIVISOR};
use crate::score::MAX_PLY;
use crate::time::{Limits, TimeManager};
use crate::tt::TranspositionTable;

/// The node budget of the main thread's first iteration is at least this
/// many nodes. Depth 1 takes at most a few hundred nodes in the bench
/// positions (543), so with any budget it completes and the answer is the
/// best move at depth 1; only a position whose captures explode (fifteen
/// queens a side) is cut off here, and answers the best root move scored
/// so far, or the first in the search's order.
pub(crate) const FIRST_ITERATION_NODES: u64 = 100_000;

/// Shared by all threads of one search. Owned (behind an `Arc`) so that the
/// engine's persistent helper threads can hold it.
pub(crate) struct Shared {
    pub tt: Arc<TranspositionTable>,
    pub control: Arc<SearchControl>,
    pub limits: Limits,
    pub time: TimeManager,
    /// Limited strength: each static evaluation is off by up to this many
    /// centipawns (0: exact), drawn from the position's key and `noise_seed`.
    pub noise: i32,
    pub noise_seed: u64,
    /// Nodes searched per thread, published every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    /// Set when the search is over (by the main thread, or by any thread
    /// that finds the time or node budget spent), to stop the helpers.
    pub helpers_stop: AtomicBool,
    /// Bonus (cp) for lines through these root moves (advice); empty: none.
    /// Written by the main thread when advice arrives, read by every thread
    /// at the start of each iteration.
    pub root_bonus: RwLock<Vec<(Move, i32)>>,
    /// Evaluation terms from plans (advice), written and read like
    /// `root_bonus`; `None`: none.
    pub plans: RwLock<Option<Arc<crate::advice::Plans>>>,
    /// The move strong evidence trusts (advice), read by the main thread's
    /// time decisions; `None`: none.
    pub trusted: RwLock<Option<Move>>,
    /// Polled by the main thread for advice that arrives during the search.
    pub advice: Option<Arc<dyn crate::advice::RootAdvice>>,
    /// Moves known inside the tree (read at plies up to `TREE_ADVICE_MAX_PLY`).
    pub tree: Option<Arc<dyn crate::advice::TreeAdvice>>,
    /// Whether the evaluation adds MACH's pawn chunks (`PawnChunks`).
    pub pawn_chunks: bool,
    /// What earlier searches found (read at plies up to `EXPERIENCE_MAX_PLY`).
    pub experience: Option<Arc<dyn crate::advice::Experience>>,
}

impl Shared {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }

    /// Polls the advice door (main thread only) and keeps what arrived for
    /// every thread to read at its next iteration.
    pub fn poll_advice(&self) {
        let Some(new) = self.advice.as_ref().and_then(|a| a.poll()) else {
            return;
        };
        if let Ok(mut b) = self.root_bonus.write() {
            *b = new.bonuses;
        }
        if let (Some(p), Ok(mut plans)) = (new.plans, self.plans.write()) {
            *plans = (!p.is_empty()).then(|| Arc::new(p));
        }
        if let (Some(t), Ok(mut trusted)) = (new.trusted, self.trusted.write()) {
            *trusted = Some(t);
        }
    }
}

/// Triangular principal-variation table.
pub(crate) struct PvTable {
    lines: Vec<ArrayVec<Move, MAX_PLY>>,
}

impl PvTable {
    fn new() -> PvTable {
        PvTable {
            lines: vec![ArrayVec::new(); MAX_PLY + 1],
        }
    }

    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.lines[ply].clear();
    }

    /// The line at `ply` becomes `m` followed by the line at `ply + 1`.
    #[inline]
    pub fn update(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        let rest = &tail[0];
        let room = MAX_PLY - 1;
        line.extend(rest.iter().copied().take(room));
    }

    pub fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply]
    }
}

#[derive(Clone, Copy, Default)]
pub(crate) struct StackEntry {
    /// Static evaluation at this ply (meaningless when in check).
    pub eval: i32,
    pub in_check: bool,
    /// Move played from this ply (`None`: not yet, or a null move).
    pub mv: Option<Move>,
    /// `mv` as a continuation-history key.
    pub cont: Option<crate::history::PieceTo>,
    /// The move a singular-extension search leaves out at this ply.
    pub excluded: Option<Move>,
    /// Double extensions on the path from the root to this ply.
    pub double_exts: i32,
}

/// A root move with what the last search of it found.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes searched below this move in this search, every iteration.
    pub nodes: u64,
}

pub(crate) struct Searcher<'a> {
    pub shared: &'a Shared,
    pub id: usize,
    pub hist: &'a mut History,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// Keys of the game's positions, then of the current search path.
    pub keys: Vec<u64>,
    /// Where the root's key is in `keys`: those before it are the game's.
    pub root_index: usize,
    pub stack: Vec<StackEntry>,
    pub pv: PvTable,
    pub root: Chess,
    pub root_moves: Vec<RootMove>,
    pub root_depth: i32,
    /// Null move is not tried below this ply (set by a verification search).
    pub nmp_min_ply: usize,
    /// One move buffer per ply, reused by the move pickers.
    pub move_bufs: Vec<crate::ordering::ScoredMoves>,
    /// This iteration's copy of the shared root bonuses.
    pub root_bonus: Vec<(Move, i32)>,
    /// This iteration's plans (evaluation terms from advice).
    pub plans: Option<Arc<crate::advice::Plans>>,
    /// The pawn chunks' weights by pawns, when the search adds them.
    pub pawn_chunks: Option<crate::pawn_chunks::PawnChunkCache>,
    /// The evaluation's pawn-and-king terms by pawns and kings: the
    /// thread's, kept from search to search (an answer never goes stale).
    pub pawn_king: &'a crate::pawn_king_cache::PawnKingCache,
    single_thread: bool,
}

/// The late move reductions of every depth and move number below 64, in
/// plies, from `LMR_BASE` and `LMR_DIVISOR` (hundredths: 75 / 100.0 is
/// exactly 0.75, so the table is the one the constants 0.75 and 2.25 gave).
fn lmr_table() -> Vec<[i32; 64]> {
    let base = LMR_BASE() as f64 / 100.0;
    let divisor = LMR_DIVISOR() as f64 / 100.0;
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                if d > 0 {
                    *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
                }
            }
            row
        })
        .collect()
}

/// Late move reductions in plies, by depth and move number.
#[cfg(not(feature = "spsa"))]
pub(crate) fn lmr(depth: i32, moves: usize) -> i32 {
    static TABLE: std::sync::OnceLock<Vec<[i32; 64]>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(lmr_table);
    t[(depth.max(0) as usize).min(63)][moves.min(63)]
}

/// Late move reductions in plies, by depth and move number; with the
/// feature `spsa` each thread builds its table again after a `params::set`.
#[cfg(feature = "spsa")]
pub(crate) fn lmr(depth: i32, moves: usize) -> i32 {
    use std::cell::RefCell;
    thread_local! {
        static TABLE: RefCell<(u64, Vec<[i32; 64]>)> =
            const { RefCell::new((u64::MAX, Vec::new())) };
    }
    let generation = crate::params::generation();
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        if t.0 != generation || t.1.is_empty() {
            *t = (generation, lmr_table());
        }
        t.1[(depth.max(0) as usize).min(63)][moves.min(63)]
    })
}

impl<'a> Searcher<'a> {
    pub fn new(
        shared: &'a Shared,
        id: usize,
        hist: &'a mut History,
        pawn_king: &'a crate::pawn_king_cache::PawnKingCache,
        root: &Chess,
        game_keys: &[u64],
    ) -> Searcher<'a> {
        let mut keys = Vec::with_capacity(game_keys.len() + MAX_PLY + 2);
        keys.extend_from_slice(game_keys);
        keys.push(crate::board::hash(root));
        Searcher {
            single_thread: shared.nodes.len() == 1,
            shared,
            id,
            hist,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys,
            root_index: game_keys.len(),
            stack: vec![StackEntry::default(); MAX_PLY + 8],
            pv: PvTable::new(),
            root: root.clone(),
            root_moves: Vec::new(),
            root_depth: 0,
            nmp_min_ply: 0,
            move_bufs: (0..MAX_PLY + 8).map(|_| Vec::with_capacity(256)).collect(),
            root_bonus: Vec::new(),
            plans: None,
            pawn_chunks: shared
                .pawn_chunks
                .then(crate::pawn_chunks::PawnChunkCache::default),
            pawn_king,
        }
    }

    /// Static evaluation for the side to move, with this search's plans
    /// and, at limited strength, its noise.
    #[inline]
    pub fn eval(&self, pos: &Chess) -> i32 {
        let chunks = match &self.pawn_chunks {
            Some(cache) => cache.white_weight(pos.board()),
            None => crate::psqt::Weight { mg: 0, eg: 0 },
        };
        let pawn_king = self.pawn_king.white_weight(pos.board());
        let mut e = crate::eval::evaluate_with_pawn_king(pos, chunks, pawn_king);
        if let Some(p) = &self.plans {
            e += crate::plan_eval::score(pos, p);
        }
        if self.shared.noise > 0 {
            let key = crate::board::hash(pos) ^ self.shared.noise_seed;
            e += crate::strength::noise(key, self.shared.noise);
        }
        e
    }

    pub fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Publishes this thread's node count for `info nodes` and node limits.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
    }

    /// Counts a node and says whether the search must unwind now.
    #[inline]
    pub fn count_node_and_check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        if self.root_depth <= 1 && self.is_main() {
            return self.first_iteration_must_stop();
        }
        if let (true, Some(limit)) = (self.single_thread, self.shared.limits.nodes) {
            // Checked at every node: with one thread, `go nodes` is exact and reproducible.
            if self.nodes >= limit {
                self.stopped = true;
                return true;
            }
        }
        // The shared flag is one relaxed load: read it often, so that with
        // more threads than cores a helper given the CPU after the search is
        // over gives it back within microseconds.
        if self.nodes & 63 == 0 && self.shared.helpers_stop.load(Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            let s = self.shared;
            // Every thread reads the clock: with more threads than cores the
            // main thread may be off the CPU when time runs out, and the
            // first thread to run then stops them all.
            let out_of_time = s.time.hard_exceeded(s.control.clock_elapsed());
            if out_of_time {
                s.helpers_stop.store(true, Relaxed);
            }
            let out_of_nodes = s.limits.nodes.is_some_and(|n| s.total_nodes() >= n);
            if out_of_nodes {
                s.helpers_stop.store(true, Relaxed);
            }
            let stop = s.control.is_stopped()
                || out_of_time
                || out_of_nodes
                || s.helpers_stop.load(Relaxed);
            if stop {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The main thread's first iteration: it stops for `stop`, `quit` and
    /// the clock like any other, but its node budget is at least
    /// [`FIRST_ITERATION_NODES`], and it ignores the helpers' stop flag
    /// (it reads the clock itself), so that depth 1 completes whenever it
    /// can and the answer is a searched move, not merely the first legal one.
    /// Out of the hot path: depth 1 is a few hundred nodes in real games.
    #[inline(never)]
    fn first_iteration_must_stop(&mut self) -> bool {
        let s = self.shared;
        if let Some(limit) = s.limits.nodes {
            // Counted on this thread alone: exact and reproducible.
            if self.nodes >= limit.max(FIRST_ITERATION_NODES) {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            let out_of_time = s.time.hard_exceeded(s.control.clock_elapsed());
            if out_of_time {
                s.helpers_stop.store(true, Relaxed);
            }
            if out_of_time || s.control.is_stopped() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Draw by the fifty-move rule (a checkmate on the hundredth half-move
    /// excepted: it still counts as a mate), insufficient
    /// material or repetition. A position repeated inside the search counts
    /// as a draw at once: both sides chose the line there, and whichever it
    /// suits can repeat again. One the game reached before the root (the
    /// root included) counts only when it is there twice, a threefold
    /// repetition: the opponent's moves that came back to it were played,
    /// not chosen by this search, and need not be played again (Stockfish's
    /// rule). Counting it at once made a lost position look drawn: the
    /// search stepped back into a position of the game and scored 0 there.
    pub fn is_draw(&self, pos: &Chess) -> bool {
        let halfmoves = pos.halfmoves() as usize;
        if halfmoves >= 100 {
            return !(pos.is_check() && pos.legal_moves().is_empty());
        }
        if pos.is_insufficient_material() {
            return true;
        }
        let n = self.keys.len();
        let current = self.keys[n - 1];
        let back = halfmoves.min(n - 1);
        let mut seen_in_game = false;
        let mut i = 4;
        while i <= back {
            let earlier = n - 1 - i;
            if self.keys[earlier] == current {
                if earlier > self.root_index || seen_in_game {
                    return true;
                }
                seen_in_game = true;
            }
            i += 2;
        }
        false
    }
}
