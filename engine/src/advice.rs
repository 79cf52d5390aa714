//! The one door through which advice enters the search. The engine knows
//! nothing of where it comes from (the `uci` crate wires the grandmaster
//! memory to it): [`RootAdvice`], polled before the root moves are ordered
//! and at every iteration, delivers root-move bonuses, [`Plans`] (evaluation
//! terms for the rest of one search: MACH's chunk advice, such as a knight
//! outpost on e5) and a trusted move for the clock; [`Ready`] is advice
//! known before the search starts (a fixed depth or node search waits for
//! it, so it stays reproducible); [`TreeAdvice`] gives moves known inside
//! the tree; [`Experience`] gives what Mach's own earlier searches found of
//! positions (the experience file).

use shakmaty::{Bitboard, Color, Move, Role};

use crate::moves::MoveCode;

/// Moves known good in positions inside the search tree (the grandmasters'
/// moves where they reached the position), by Zobrist key. Asked at the
/// shallow plies of every node, so it must answer in nanoseconds; those
/// moves are tried first and neither reduced nor pruned.
pub trait TreeAdvice: Send + Sync {
    /// Codes (`moves::encode`) of the moves for the position with this key
    /// (`board::hash`); empty when it knows none.
    fn moves(&self, key: u64) -> &[MoveCode];
}

/// What Mach's own earlier searches (other games, other processes) found of
/// a position, by Zobrist key (`board::hash`). Asked at the root and at
/// plies up to `params::EXPERIENCE_MAX_PLY`, so it must answer in
/// nanoseconds. Its move is tried first where the table has none; a result
/// at least as deep as the iteration under way (not merely as deep as the
/// node needs) is used like a table hit at nodes off the principal
/// variation.
pub trait Experience: Send + Sync {
    fn probe(&self, key: u64) -> Option<Known>;
}

/// One position's experience.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// `moves::encode` of the best move found (`NO_MOVE`: none).
    pub mv: MoveCode,
    /// Centipawns for the side to move; a mate counted in plies from this
    /// position (as the transposition table stores it).
    pub score: i32,
    /// Depth of the search that found it.
    pub depth: i32,
}

/// Where root-move bonuses may come from while a search runs. The main
/// thread polls it at the start of every iteration, so advice that arrives
/// late is used from the next iteration on.
pub trait RootAdvice: Send + Sync {
    /// New advice (root bonuses and plans), or `None` if nothing new arrived.
    fn poll(&self) -> Option<Delivered>;
}

/// Advice already in hand, delivered at the first poll.
pub struct Ready(std::sync::Mutex<Option<Delivered>>);

impl Ready {
    /// Advice to deliver once.
    pub fn new(d: Delivered) -> Ready {
        Ready(std::sync::Mutex::new(Some(d)))
    }
}

impl RootAdvice for Ready {
    fn poll(&self) -> Option<Delivered> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// What one poll of [`RootAdvice`] delivers.
#[derive(Clone, Debug, Default)]
pub struct Delivered {
    /// Centipawns for lines starting with these root moves.
    pub bonuses: Vec<(Move, i32)>,
    /// Evaluation terms for the rest of the search; `None`: none.
    pub plans: Option<Plans>,
    /// A move strong evidence trusts: the search may stop sooner when it
    /// agrees and think longer when it does not (`params::TRUSTED_*`).
    pub trusted: Option<Move>,
}

/// Squares a plan says are good for each side's pieces, and squares each
/// side should attack, worth `params::PLAN_SQUARE` per piece standing on one
/// and `params::PLAN_TARGET` per attack on one (see `plan_eval`). Indexed
/// by side (white 0, black 1), then role (pawn 0 .. king 5).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plans {
    pub good: [[Bitboard; 6]; 2],
    pub targets: [Bitboard; 2],
}

impl Plans {
    /// True when the plans add nothing to any position.
    pub fn is_empty(&self) -> bool {
        self.good.iter().flatten().all(|b| b.is_empty())
            && self.targets.iter().all(|b| b.is_empty())
    }

    /// Marks `squares` good for `color`'s pieces of `role`.
    pub fn add_good(&mut self, color: Color, role: Role, squares: Bitboard) {
        self.good[side(color)][role as usize - 1] |= squares;
    }

    /// Marks `squares` as targets for `color`.
    pub fn add_target(&mut self, color: Color, squares: Bitboard) {
        self.targets[side(color)] |= squares;
    }
}

/// Index of a side in [`Plans`]: white 0, black 1.
pub fn side(color: Color) -> usize {
    usize::from(color == Color::Black)
}
