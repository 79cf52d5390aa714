//! Search limits (`go` parameters) and the time manager: a soft limit checked
//! between iterations (stretched while the best move is unstable) and a hard
//! limit checked inside the search that is never overrun.

use std::time::Duration;

use shakmaty::{Color, Move};

#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Clocks and increments in milliseconds; negative values are clamped to 0.
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<i64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// Fraction of the remaining time the soft limit may take at most.
const MAX_SOFT_SHARE: f64 = 0.5;
/// Fraction of the remaining time the hard limit may take at most.
const MAX_HARD_SHARE: f64 = 0.8;
/// With one move to the time control: spend more, still keep a margin.
const LAST_MOVE_SHARE: f64 = 0.9;
/// Hard limit as a multiple of the soft limit.
const HARD_PER_SOFT: f64 = 4.0;
/// With moves to go: the share of the increment spent on each move.
const INCREMENT_SHARE: f64 = 0.75;
/// In sudden death the soft limit is the clock plus this many increments,
/// divided by `SUDDEN_DEATH_DIVISOR`: a budget the readings of
/// `iterative::time_scale` (about 0.36 for a settled move, up to 3.6 for a
/// contested one) then spend where it matters.
const SUDDEN_DEATH_INCREMENTS: f64 = 25.0;
const SUDDEN_DEATH_DIVISOR: f64 = 20.0;

#[derive(Clone, Copy, Debug, Default)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// `go movetime`: the user asked for this much time; use it all.
    fixed: bool,
}

impl TimeManager {
    /// Limits for the side `us`, keeping `overhead` for the GUI and the pipe.
    pub fn new(limits: &Limits, us: Color, overhead: Duration) -> TimeManager {
        let overhead_ms = overhead.as_millis() as f64;
        if let Some(mt) = limits.movetime {
            let mt = mt.max(0) as f64;
            let hard = (mt - overhead_ms).max(mt / 2.0).max(1.0);
            return TimeManager {
                soft: Some(ms(hard)),
                hard: Some(ms(hard)),
                fixed: true,
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager::default();
        };
        let time = time.max(0) as f64;
        let inc = inc.unwrap_or(0).max(0) as f64;
        let available = (time - overhead_ms).max(1.0);
        let mtg = limits.movestogo.map(|m| m.clamp(1, 50));
        let (soft_cap, hard_cap) = if mtg == Some(1) {
            (LAST_MOVE_SHARE * 0.7, LAST_MOVE_SHARE)
        } else {
            (MAX_SOFT_SHARE, MAX_HARD_SHARE)
        };
        let budget = match mtg {
            Some(mtg) => available / mtg as f64 + inc * INCREMENT_SHARE,
            None => (available + SUDDEN_DEATH_INCREMENTS * inc) / SUDDEN_DEATH_DIVISOR,
        };
        let soft = budget.min(available * soft_cap);
        let hard = (soft * HARD_PER_SOFT).min(available * hard_cap);
        TimeManager {
            soft: Some(ms(soft.max(1.0))),
            hard: Some(ms(hard.max(1.0))),
            fixed: false,
        }
    }

    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    pub fn hard(&self) -> Option<Duration> {
        self.hard
    }

    /// Past the hard limit: stop now. `elapsed` is `None` while pondering.
    #[inline]
    pub fn hard_exceeded(&self, elapsed: Option<Duration>) -> bool {
        matches!((self.hard, elapsed), (Some(h), Some(e)) if e >= h)
    }

    /// Past the soft limit scaled by `scale` (best-move instability): do not
    /// start another iteration.
    pub fn soft_exceeded(&self, elapsed: Option<Duration>, scale: f64) -> bool {
        let scale = if self.fixed { 1.0 } else { scale };
        match (self.soft, elapsed) {
            (Some(s), Some(e)) => e.as_secs_f64() >= s.as_secs_f64() * scale,
            _ => false,
        }
    }
}

fn ms(v: f64) -> Duration {
    Duration::from_micros((v * 1000.0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tm(wtime: i64, winc: i64, mtg: Option<u32>) -> TimeManager {
        let limits = Limits {
            wtime: Some(wtime),
            winc: Some(winc),
            movestogo: mtg,
            ..Limits::default()
        };
        TimeManager::new(&limits, Color::White, Duration::from_millis(30))
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        for (t, inc, mtg) in [
            (1000, 10, None),
            (60, 10, None),
            (10, 0, None),
            (10_000, 100, None),
            (5000, 0, Some(1)),
            (300_000, 0, Some(40)),
            (200, 5000, None),
        ] {
            let m = tm(t, inc, mtg);
            let hard = m.hard().unwrap().as_millis() as i64;
            let soft = m.soft().unwrap().as_millis() as i64;
            assert!(soft <= hard, "{t} {inc}");
            assert!(hard <= (t - 30).max(1), "hard {hard} for {t}+{inc}");
        }
    }

    #[test]
    fn negative_clock_is_clamped() {
        let m = tm(-500, -10, None);
        assert!(m.hard().unwrap() <= Duration::from_millis(1));
    }

    #[test]
    fn movetime_honours_overhead_and_no_limits_without_clock() {
        let limits = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        let m = TimeManager::new(&limits, Color::Black, Duration::from_millis(30));
        assert_eq!(m.hard(), Some(Duration::from_millis(970)));
        // A stable best move does not cut a movetime search short.
        assert!(!m.soft_exceeded(Some(Duration::from_millis(700)), 0.6));
        let m = TimeManager::new(&Limits::depth(5), Color::White, Duration::from_millis(30));
        assert!(m.hard().is_none() && !m.hard_exceeded(Some(Duration::from_secs(1000))));
    }
}
