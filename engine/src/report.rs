//! How a search tells the outside world what it found: a small trait, so the
//! engine knows nothing of UCI (the `uci` crate formats the lines).

use shakmaty::Move;

use crate::tt::Bound;

/// One principal variation after an iteration (or an aspiration fail).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based line number with MultiPV.
    pub multipv: usize,
    pub score: i32,
    /// `Lower`/`Upper` when the score is only a bound (aspiration fail).
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

pub trait Reporter: Sync {
    /// A finished PV line.
    fn info(&self, info: &Info);
}

/// Reports nothing (bench, tests, helper threads).
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _info: &Info) {}
}
