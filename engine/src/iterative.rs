//! Iterative deepening at the root: aspiration windows, MultiPV, best-move
//! stability for time management, and the root move loop.

use shakmaty::{Move, Position};

use crate::board;
use crate::history::piece_to;
use crate::ordering::{is_tactical, MovePicker, Path};
use crate::params::*;
use crate::report::{Info, Reporter};
use crate::score::{is_mate, DisplayScore, INFINITE, MATE_BOUND, MAX_PLY};
use crate::thread::{lmr, RootMove, Searcher};
use crate::tt::Bound;

/// What the main thread found when its iterations ended.
pub(crate) struct Outcome {
    pub depth: i32,
    /// The last PV reported (its first move is the best move).
    pub pv: Vec<Move>,
    pub score: i32,
}

impl Searcher<'_> {
    /// Orders the root moves for the first iteration and applies `searchmoves`.
    pub(crate) fn init_root_moves(&mut self) {
        let root = self.root.clone();
        let legal = root.legal_moves();
        let tt_move = self
            .shared
            .tt
            .probe(*self.keys.last().unwrap())
            .map_or(0, |e| e.mv);
        let mut picker = MovePicker::new(
            Vec::with_capacity(256),
            &root,
            &legal,
            tt_move,
            self.hist,
            Path {
                ply: 0,
                prev: None,
                conts: [None, None],
            },
        );
        let only = &self.shared.limits.searchmoves;
        // Advice known up front goes first (best-supported first), then the usual order.
        let mut advised: Vec<(Move, i32)> = self
            .shared
            .root_bonus
            .read()
            .map(|b| b.clone())
            .unwrap_or_default();
        advised.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        let mut order: Vec<Move> = advised
            .into_iter()
            .map(|(m, _)| m)
            .filter(|m| legal.contains(m))
            .collect();
        while let Some((m, _)) = picker.pick(self.hist) {
            order.push(m);
        }
        self.root_moves.clear();
        for m in order {
            let wanted = only.is_empty() || only.contains(&m);
            if wanted && !self.root_moves.iter().any(|r| r.mv == m) {
                self.root_moves.push(RootMove {
                    mv: m,
                    score: -INFINITE,
                    prev_score: -INFINITE,
                    seldepth: 0,
                    pv: vec![m],
                });
            }
        }
    }

    fn bonus(&self, m: Move) -> i32 {
        self.root_bonus
            .iter()
            .find(|(b, _)| *b == m)
            .map_or(0, |&(_, w)| w)
    }

    /// Searches root moves `pv_idx..` in the window (alpha, beta); moves
    /// before `pv_idx` are lines already chosen this iteration (MultiPV).
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let root = self.root.clone();
        let root_key = *self.keys.last().unwrap();
        let mut best = -INFINITE;
        self.stack[0].in_check = root.is_check();
        self.stack[0].eval = self.hist.corr.corrected(&root, self.eval(&root));
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let searched = i - pv_idx + 1;
            // Advice: every leaf below this move is worth `bonus` more, which is
            // the same as searching it in a window shifted down by `bonus`.
            // The TT only ever sees unshifted scores.
            let bonus = self.bonus(m);
            let (a, b) = (alpha - bonus, beta - bonus);
            let (child, child_key) = board::play(&root, root_key, m);
            let gives_check = child.is_check();
            let new_depth = depth - 1 + gives_check as i32;
            self.stack[0].mv = Some(m);
            self.stack[0].cont = Some(piece_to(root.turn(), m));
            self.keys.push(child_key);
            self.seldepth = 0;
            let mut score;
            if searched == 1 {
                score = -self.search(&child, child_key, new_depth, 1, -b, -a, false);
            } else {
                let r = if depth >= LMR_MIN_DEPTH && !is_tactical(m) && !gives_check && searched > 3
                {
                    (lmr(depth, searched) - 1).clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                score = -self.search(&child, child_key, new_depth - r, 1, -a - 1, -a, true);
                if score > a && r > 0 {
                    score = -self.search(&child, child_key, new_depth, 1, -a - 1, -a, false);
                }
                if score > a && score < b {
                    score = -self.search(&child, child_key, new_depth, 1, -b, -a, false);
                }
            }
            // A forced mate is a fact: advice does not change it. Other scores
            // with their bonus stay inside the mate bounds, so a root score
            // never reaches INFINITE (the aspiration loop relies on that).
            if !is_mate(score) {
                score = (score + bonus).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
            }
            self.keys.pop();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if searched == 1 || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(self.pv.line(1));
            } else {
                // Only an upper bound: sorts after the moves that raised alpha.
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                // Move the new best to the front of the remaining moves.
                self.root_moves[pv_idx..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Iterative deepening. The main thread reports and manages time; helpers
    /// only fill the shared transposition table (Lazy SMP).
    pub(crate) fn iterate(&mut self, reporter: &dyn Reporter, multipv: usize) -> Outcome {
        let limits = &self.shared.limits;
        let max_depth = limits.depth.map_or(MAX_PLY as i32 - 4, |d| {
            // Any u32: a depth past i32::MAX must not wrap to a negative one.
            d.clamp(1, MAX_PLY as u32 - 4) as i32
        });
        let lines = multipv.clamp(1, self.root_moves.len().max(1));
        let mut outcome = Outcome {
            depth: 0,
            pv: vec![self.root_moves[0].mv],
            score: 0,
        };
        let mut stable_iterations = 0;
        let mut last_best: Option<Move> = None;

        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            self.root_depth = depth;
            if self.is_main() {
                self.shared.poll_advice();
            }
            if let Ok(b) = self.shared.root_bonus.read() {
                self.root_bonus.clone_from(&b);
            }
            if let Ok(p) = self.shared.plans.read() {
                self.plans.clone_from(&p);
            }
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..lines {
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = ASPIRATION_DELTA;
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let score = self.root_search(depth, alpha, beta, pv_idx);
                    if self.stopped {
                        break;
                    }
                    // Stable sort: best first, moves that only failed low keep their order.
                    self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if score <= alpha && alpha > -INFINITE {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                    } else if score >= beta && beta < INFINITE {
                        beta = (score + delta).min(INFINITE);
                    } else {
                        // Inside the window, or the window cannot widen further.
                        break;
                    }
                    delta += delta;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.stopped {
                    break;
                }
                if self.is_main() {
                    self.report_line(reporter, depth, pv_idx, Bound::Exact);
                    if pv_idx == 0 {
                        outcome = Outcome {
                            depth,
                            pv: self.root_moves[0].pv.clone(),
                            score: self.root_moves[0].score,
                        };
                    }
                }
            }
            if self.stopped {
                break;
            }
            if !self.is_main() {
                depth += 1;
                continue;
            }

            let best = self.root_moves[0].mv;
            if last_best == Some(best) {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            last_best = Some(best);

            if let Some(n) = limits.mate {
                if let DisplayScore::Mate(m) = DisplayScore::from_score(outcome.score) {
                    if m > 0 && m as u32 <= n {
                        break;
                    }
                }
            }
            let scale = if stable_iterations >= STABLE_ITERATIONS {
                STABLE_TIME_SCALE
            } else if stable_iterations == 0 && depth > 1 {
                UNSTABLE_TIME_SCALE
            } else {
                1.0
            } * match self.shared.trusted.read().map(|t| *t) {
                Ok(Some(t)) if t == best => TRUSTED_AGREE_TIME_SCALE,
                Ok(Some(_)) => TRUSTED_DISAGREE_TIME_SCALE,
                _ => 1.0,
            };
            if self
                .shared
                .time
                .soft_exceeded(self.shared.control.clock_elapsed(), scale)
            {
                break;
            }
            // A single legal move needs no deep thought when the clock runs.
            if self.root_moves.len() == 1 && self.shared.time.soft().is_some() && depth >= 4 {
                break;
            }
            depth += 1;
        }
        self.publish_nodes();
        outcome
    }

    fn report_line(&self, reporter: &dyn Reporter, depth: i32, pv_idx: usize, bound: Bound) {
        self.publish_nodes();
        let rm = &self.root_moves[pv_idx];
        let elapsed = self.shared.control.elapsed();
        let nodes = self.shared.total_nodes();
        let ms = elapsed.as_millis() as u64;
        reporter.info(&Info {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: pv_idx + 1,
            score: rm.score,
            bound,
            nodes,
            time_ms: ms,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        });
    }
}
