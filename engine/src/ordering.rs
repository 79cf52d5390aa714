//! Move ordering: the TT move first, then winning captures and queen
//! promotions by MVV-LVA and capture history, killers, the counter move,
//! quiet moves by butterfly and continuation history, and losing captures
//! last. Moves are picked one at a time (selection sort),
//! because a cutoff usually comes early and the rest never need sorting.

use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use crate::board::Threats;
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
/// A quiet move not scored yet. Real quiet scores (butterfly plus two
/// continuation histories, each within ±16,384) lie between BAD_CAPTURE
/// and COUNTER, as this does, so the moves ordered before the quiets are
/// the same whether or not the quiets are scored.
const QUIET_PENDING: i32 = 0;
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
    /// Side and continuation keys for scoring the quiet moves, until they
    /// are scored: only when every move ordered before them has been tried
    /// (most cutoffs come from the TT move, a capture or a killer, and then
    /// the history tables are never read for the other moves).
    pending: Option<(Color, Conts)>,
}

/// Capture that wins at least as much as the capturing piece is worth, so
/// SEE cannot come out negative: no need to compute it.
#[inline]
pub(crate) fn obviously_good(m: Move) -> bool {
    let victim = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    victim >= value(m.role())
}

impl MovePicker {
    /// The ordering score of the TT move (the search tries it before the
    /// picker exists).
    pub const TT_MOVE_SCORE: i32 = TT_MOVE;

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
                QUIET_PENDING
            };
            (m, s)
        }));
        MovePicker {
            moves: buf,
            next: 0,
            pending: Some((side, conts)),
        }
    }

    /// Scores the quiet moves left unscored by `new`.
    fn score_quiets(&mut self, hist: &History, threats: &Threats) {
        if let Some((side, conts)) = self.pending.take() {
            let threats = threats.get();
            for (m, s) in &mut self.moves[self.next..] {
                if *s == QUIET_PENDING && !is_tactical(*m) {
                    *s = hist.quiet(side, *m, threats) + hist.continuation(side, *m, conts);
                }
            }
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
            pending: None,
        }
    }

    /// Moves the tree advice knows go right after the TT move.
    pub fn favour(&mut self, codes: &[MoveCode]) {
        if codes.is_empty() {
            return;
        }
        for (m, s) in &mut self.moves {
            if *s < ADVISED && codes.contains(&encode(*m)) {
                *s = ADVISED;
            }
        }
    }

    /// Drops the quiet moves not yet picked (the search prunes every later
    /// quiet move once late-move or futility pruning starts at a node), so
    /// they are neither scored, sorted nor tested for check.
    pub fn skip_quiets(&mut self) {
        self.pending = None;
        let mut kept = self.next;
        for i in self.next..self.moves.len() {
            if is_tactical(self.moves[i].0) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
    }

    /// Gives the buffer back for reuse.
    pub fn into_buffer(self) -> ScoredMoves {
        self.moves
    }

    /// The best remaining move and its ordering score. The first few are
    /// found by selection (most cutoffs come early); then the rest is sorted
    /// once, so a node that searches every move costs n log n, not n².
    /// `threats` are read only when the quiet moves are scored.
    #[inline]
    pub fn pick(&mut self, hist: &History, threats: &Threats) -> Option<(Move, i32)> {
        const SELECT_FIRST: usize = 3;
        if self.next >= self.moves.len() {
            return None;
        }
        if self.next == SELECT_FIRST {
            self.score_quiets(hist, threats);
            self.moves[self.next..].sort_unstable_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        if self.next >= SELECT_FIRST {
            self.next += 1;
            return Some(self.moves[self.next - 1]);
        }
        let mut best = self.select();
        if self.pending.is_some() && self.moves[self.next + best].1 < COUNTER {
            // Only quiet moves and losing captures are left: score the quiets.
            self.score_quiets(hist, threats);
            best = self.select();
        }
        let rest = &mut self.moves[self.next..];
        rest.swap(0, best);
        self.next += 1;
        Some(rest[0])
    }

    /// The index (in the moves not yet picked) of the first best-scored one.
    fn select(&self) -> usize {
        let rest = &self.moves[self.next..];
        let mut best = 0;
        for i in 1..rest.len() {
            if rest[i].1 > rest[best].1 {
                best = i;
            }
        }
        best
    }

    /// True for the scores given to losing captures.
    pub fn is_bad_capture_score(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::NO_MOVE;

    #[test]
    fn quiet_moves_are_ordered_by_the_history_as_it_stands_when_they_are_reached() {
        let pos = crate::board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let moves = pos.legal_moves();
        let mut hist = History::default();
        let path = Path {
            ply: 0,
            prev: None,
            conts: [None, None],
        };
        let threats = Threats::new(&pos);
        let mut picker = MovePicker::new(Vec::new(), &pos, &moves, NO_MOVE, &hist, path);
        let (first, _) = picker.pick(&hist, &threats).unwrap();
        assert!(first.is_capture(), "{first}");
        // After the picker was made, a quiet move earns history (as the
        // subtree of the first move would give it, at another ply).
        let quiet = *moves
            .iter()
            .find(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string() == "a2a3")
            .unwrap();
        hist.update_quiet(
            pos.turn(),
            1,
            None,
            [None, None],
            threats.get(),
            quiet,
            &[],
            2000,
        );

        let mut order = vec![first];
        let mut scores = Vec::new();
        while let Some((m, s)) = picker.pick(&hist, &threats) {
            order.push(m);
            scores.push(s);
        }
        assert_eq!(order.len(), moves.len(), "every move exactly once");
        let first_quiet = order.iter().position(|m| !is_tactical(*m)).unwrap();
        assert_eq!(order[first_quiet], quiet, "{order:?}");
        // Captures that win or trade come before every quiet move, losing
        // ones after; the scores never rise along the list.
        assert!(order[..first_quiet].iter().all(|m| is_tactical(*m)));
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        let last = *order.last().unwrap();
        assert!(last.is_capture() && !see_ge(&pos, last, 0), "{last}");
    }
}
