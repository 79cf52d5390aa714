//! The one door through which advice enters the search. The engine knows
//! nothing of where it comes from (the `uci` crate wires the grandmaster
//! memory to it): root-move bonuses known before the search starts
//! (`SearchOptions::root_bonus`), [`RootAdvice`] for advice that arrives
//! while the search runs, and [`TreeAdvice`] for moves known inside the tree.

use shakmaty::Move;

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

/// Where root-move bonuses may come from while a search runs. The main
/// thread polls it at the start of every iteration, so advice that arrives
/// late is used from the next iteration on.
pub trait RootAdvice: Send + Sync {
    /// New bonuses in centipawns for lines starting with these root moves,
    /// or `None` if nothing new arrived.
    fn poll(&self) -> Option<Vec<(Move, i32)>>;
}
