//! Per-thread move-ordering memory: killer moves, counter moves and the
//! butterfly history of quiet moves.

use shakmaty::{Color, Move};

use crate::moves::{encode, MoveCode, NO_MOVE};
use crate::score::MAX_PLY;

/// History scores saturate at this magnitude ("history gravity").
pub const HISTORY_MAX: i32 = 16_384;

pub struct History {
    /// Two quiet moves per ply that caused a beta cutoff.
    pub killers: [[MoveCode; 2]; MAX_PLY + 8],
    /// [side][from][to]: how often a quiet move raised alpha or failed high.
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// [piece role][to] of the previous move: the quiet reply that refuted it.
    counters: [[MoveCode; 64]; 7],
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[NO_MOVE; 2]; MAX_PLY + 8],
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            counters: [[NO_MOVE; 64]; 7],
        }
    }
}

fn from_to(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    #[inline]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        let (f, t) = from_to(m);
        self.butterfly[side as usize][f][t]
    }

    pub fn counter(&self, prev: Option<Move>) -> MoveCode {
        prev.map_or(NO_MOVE, |p| {
            self.counters[p.role() as usize][p.to() as usize]
        })
    }

    /// Rewards `best` (a quiet move that failed high) and punishes the quiet
    /// moves tried before it, by `bonus` scaled towards saturation.
    pub fn update_quiet(
        &mut self,
        side: Color,
        ply: usize,
        prev: Option<Move>,
        best: Move,
        tried: &[Move],
        bonus: i32,
    ) {
        let code = encode(best);
        let k = &mut self.killers[ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        if let Some(p) = prev {
            self.counters[p.role() as usize][p.to() as usize] = code;
        }
        self.add(side, best, bonus);
        for &m in tried {
            if m != best {
                self.add(side, m, -bonus);
            }
        }
    }

    fn add(&mut self, side: Color, m: Move, bonus: i32) {
        let (f, t) = from_to(m);
        let h = &mut self.butterfly[side as usize][f][t];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *h += b - *h * b.abs() / HISTORY_MAX;
    }

    /// Halves every score (between moves, so old knowledge fades).
    pub fn age(&mut self) {
        for side in self.butterfly.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
        self.killers = [[NO_MOVE; 2]; MAX_PLY + 8];
    }
}
