//! Quiescence search: at the horizon, only captures and queen promotions
//! (all evasions when in check) until the position is quiet, so the static
//! evaluation is never taken in the middle of an exchange.

use shakmaty::{Chess, Position, Role};

use crate::board;
use crate::moves::{encode, NO_MOVE};
use crate::ordering::{obviously_good, MovePicker};
use crate::params::DELTA_MARGIN;
use crate::score::{from_tt, mated_in, to_tt, DRAW, INFINITE, MAX_PLY};
use crate::see::{see_ge, value};
use crate::tactical::tactical_moves;
use crate::thread::Searcher;
use crate::tt::{Bound, Entry};

impl Searcher<'_> {
    pub(crate) fn qsearch(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.pv.clear(ply);
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.eval(pos);
        }
        // Repetitions and the fifty-move rule reach the horizon too: a quiet
        // move at depth 1 that repeats a position is a draw, not its static
        // eval (the main search hands depth 0 to this function before its
        // own draw check).
        if self.is_draw(pos) {
            return DRAW;
        }

        let tt = self.shared.tt.probe(key);
        if let Some(e) = tt {
            let s = from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let tt_move = tt.map_or(NO_MOVE, |e| e.mv);

        let in_check = pos.is_check();
        // The TT keeps the raw static eval; the stand-pat score is corrected.
        let mut raw_eval = 0;
        let (moves, stand_pat) = if in_check {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return mated_in(ply);
            }
            (moves, -INFINITE)
        } else {
            raw_eval = tt.map_or_else(|| self.eval(pos), |e| e.eval);
            let eval = self.hist.corr.corrected(pos, raw_eval);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            (tactical_moves(pos), eval)
        };

        let original_alpha = alpha;
        let mut best = stand_pat;
        let mut best_move = NO_MOVE;
        let buf = std::mem::take(&mut self.move_bufs[ply]);
        let mut picker = MovePicker::tactical(buf, &moves, tt_move);
        // Captures only: the picker never reads the threats.
        let threats = crate::board::Threats::new(pos);
        while let Some((m, _)) = picker.pick(self.hist, &threats) {
            if !in_check {
                let gain = m.capture().map_or(value(Role::Pawn), value)
                    + m.promotion().map_or(0, |r| value(r) - value(Role::Pawn));
                if stand_pat + gain + DELTA_MARGIN() <= alpha {
                    continue;
                }
                // Losing captures are skipped, unless they check (a sacrifice that mates).
                // SEE is not needed where the victim is worth the capturer (a
                // promotion's SEE counts the new piece, so it is computed).
                let sure = m.promotion().is_none() && obviously_good(m);
                if !sure && !see_ge(pos, m, 0) && !board::gives_check(pos, m) {
                    continue;
                }
            }
            let (child, child_key) = board::play(pos, key, m);
            self.shared.tt.prefetch(child_key);
            self.keys.push(child_key);
            let score = -self.qsearch(&child, child_key, ply + 1, -beta, -alpha);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = encode(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        self.move_bufs[ply] = picker.into_buffer();
        let bound = Bound::of(best, original_alpha, beta);
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: to_tt(best, ply),
                eval: raw_eval,
                depth: 0,
                bound,
            },
        );
        best
    }
}
