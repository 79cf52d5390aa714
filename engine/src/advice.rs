//! The one door through which advice enters the search. The engine knows
//! nothing of where it comes from (the `uci` crate wires the grandmaster
//! memory to it): root-move bonuses known before the search starts
//! (`SearchOptions::root_bonus`), and this trait for advice that arrives
//! while the search runs.

use shakmaty::Move;

/// Where root-move bonuses may come from while a search runs. The main
/// thread polls it at the start of every iteration, so advice that arrives
/// late is used from the next iteration on.
pub trait RootAdvice: Send + Sync {
    /// New bonuses in centipawns for lines starting with these root moves,
    /// or `None` if nothing new arrived.
    fn poll(&self) -> Option<Vec<(Move, i32)>>;
}
