//! Move ordering: the TT move first, then winning captures and queen
//! promotions by MVV-LVA and capture history, killers, the counter move,
//! quiet moves by butterfly and continuation history, and losing captures
//! last. Moves are picked one at a time (selection sort),
//! because a cutoff usually comes early and the rest never need sorting.

use shakmaty::{Chess, Move, MoveList, Position, Role};

use crate::history::{Conts, History};
use crate::moves::{encode, MoveCode};
use crate::see::{see_ge, value};

const TT_MOVE: i32 = 4_000_000;
/// A move the tree advice knows (after the TT move, before captures).
const ADVISED: i32 = 3_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER_1: i32 = 1_000_002;
const KILLER_2: i32 = 1_000_001;
const COUNTER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -2_000_000;
/// Capture history over this reorders captures of victims of about equal
/// value (MVV-LVA steps are 16 per centipawn of victim).
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// A capture, an en passant capture or a promotion.
#[inline]
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// Most valuable victim, least valuable attacker.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    let promo = m.promotion().map_or(0, value);
    victim * 16 + promo - value(m.role()) / 16
}

/// A reusable list of scored moves (one per ply, so no 4 KB array is
/// created or copied at every node).
pub type ScoredMoves = Vec<(Move, i32)>;

/// Where a node is: its ply and the moves that led to it, which the killer,
/// counter-move and continuation-history scores are keyed by.
#[derive(Clone, Copy)]
pub struct Path {
    pub ply: usize,
    /// The move just before (`None` at the root or after a null move).
    pub prev: Option<Move>,
    pub conts: Conts,
}

pub struct MovePicker {
    moves: ScoredMoves,
    next: usize,
}

/// Capture that wins at least as much as the capturing piece is worth, so
/// SEE cannot come out negative: no need to compute it.
#[inline]
fn obviously_good(m: Move) -> bool {
    let victim = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    victim >= value(m.role())
}

impl MovePicker {
    /// All `moves`, scored for the main search.
    pub fn new(
        mut buf: ScoredMoves,
        pos: &Chess,
        moves: &MoveList,
        tt_move: MoveCode,
        hist: &History,
        path: Path,
    ) -> MovePicker {
        let killers = hist.killers[path.ply];
        let counter = hist.counter(path.prev);
        let conts = path.conts;
        let side = pos.turn();
        buf.clear();
        buf.extend(moves.iter().map(|&m| {
            let code = encode(m);
            let s = if code == tt_move {
                TT_MOVE
            } else if is_tactical(m) {
                let under = m.promotion().is_some_and(|r| r != Role::Queen);
                let h = hist.capture(side, m) / CAPTURE_HISTORY_DIVISOR;
                if !under && (obviously_good(m) || see_ge(pos, m, 0)) {
                    GOOD_CAPTURE + mvv_lva(m) + h
                } else {
                    BAD_CAPTURE + mvv_lva(m) + h
                }
            } else if code == killers[0] {
                KILLER_1
            } else if code == killers[1] {
                KILLER_2
            } else if code == counter {
                COUNTER
            } else {
                hist.quiet(side, m) + hist.continuation(side, m, conts)
            };
            (m, s)
        }));
        MovePicker {
            moves: buf,
            next: 0,
        }
    }

    /// Captures and promotions only, by MVV-LVA (quiescence search).
    pub fn tactical(mut buf: ScoredMoves, moves: &MoveList, tt_move: MoveCode) -> MovePicker {
        buf.clear();
        buf.extend(moves.iter().map(|&m| {
            let s = if encode(m) == tt_move {
                TT_MOVE
            } else {
                mvv_lva(m)
            };
            (m, s)
        }));
        MovePicker {
            moves: buf,
            next: 0,
        }
    }

    /// Moves the tree advice knows go right after the TT move.
    pub fn favour(&mut self, codes: &[MoveCode]) {
        for (m, s) in &mut self.moves {
            if *s < ADVISED && codes.contains(&encode(*m)) {
                *s = ADVISED;
            }
        }
    }

    /// Gives the buffer back for reuse.
    pub fn into_buffer(self) -> ScoredMoves {
        self.moves
    }

    /// The best remaining move and its ordering score. The first few are
    /// found by selection (most cutoffs come early); then the rest is sorted
    /// once, so a node that searches every move costs n log n, not n².
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        const SELECT_FIRST: usize = 3;
        let rest = &mut self.moves[self.next..];
        if rest.is_empty() {
            return None;
        }
        if self.next == SELECT_FIRST {
            rest.sort_unstable_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        if self.next >= SELECT_FIRST {
            self.next += 1;
            return Some(rest[0]);
        }
        let mut best = 0;
        for i in 1..rest.len() {
            if rest[i].1 > rest[best].1 {
                best = i;
            }
        }
        rest.swap(0, best);
        self.next += 1;
        Some(rest[0])
    }

    /// True for the scores given to losing captures.
    pub fn is_bad_capture_score(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}
