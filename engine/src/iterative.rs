//! Iterative deepening at the root: aspiration windows, MultiPV, best-move
//! stability for time management, and the root move loop.

use shakmaty::{Move, Position};

use crate::board;
use crate::history::piece_to;
use crate::moves::NO_MOVE;
use crate::ordering::{is_tactical, MovePicker, Path};
use crate::params::*;
use crate::report::{Info, Reporter};
use crate::score::{from_tt, is_mate, DisplayScore, INFINITE, MATE_BOUND, MAX_PLY};
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
        let key = *self.keys.last().unwrap();
        let tt_move = match self.shared.tt.probe(key).map_or(0, |e| e.mv) {
            // Nothing in the table: the move an earlier game's search found.
            0 => self
                .shared
                .experience
                .as_ref()
                .and_then(|x| x.probe(key))
                .map_or(0, |k| k.mv),
            mv => mv,
        };
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
        let threats = crate::board::Threats::new(&root);
        while let Some((m, _)) = picker.pick(self.hist, &threats) {
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
                    nodes: 0,
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
        // Ply 1 starts without killers, as every node's children do (`search.rs`).
        self.hist.killers[1] = [NO_MOVE; 2];
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
            self.stack[1].double_exts = 0;
            self.stack[0].mv = Some(m);
            self.stack[0].cont = Some(piece_to(root.turn(), m));
            self.keys.push(child_key);
            self.seldepth = 0;
            let nodes_before = self.nodes;
            let mut score;
            if searched == 1 {
                score = -self.search(&child, child_key, new_depth, 1, -b, -a, false);
            } else {
                let r = if depth >= LMR_MIN_DEPTH()
                    && !is_tactical(m)
                    && !gives_check
                    && searched > 3
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
            self.root_moves[i].nodes += self.nodes - nodes_before;
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
        // The best line's score after each completed iteration.
        let mut scores: Vec<i32> = Vec::new();
        let nodes_at_start = self.nodes;

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
                let mut delta = ASPIRATION_DELTA();
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_MIN_DEPTH() && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                // Each fail high searches the next window one ply shallower
                // (the move that failed high is likely good: confirm it
                // cheaply); a fail low goes back to the iteration's depth.
                let mut search_depth = depth;
                loop {
                    let score = self.root_search(search_depth, alpha, beta, pv_idx);
                    if self.stopped {
                        break;
                    }
                    // Stable sort: best first, moves that only failed low keep their order.
                    self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if score <= alpha && alpha > -INFINITE {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        search_depth = depth;
                    } else if score >= beta && beta < INFINITE {
                        beta = (score + delta).min(INFINITE);
                        if score.abs() < MATE_BOUND {
                            search_depth =
                                (search_depth - 1).max(depth - ASPIRATION_FAIL_HIGH_MAX());
                        }
                    } else {
                        // Inside the window, or the window cannot widen further.
                        break;
                    }
                    delta += delta * ASPIRATION_GROWTH() / 100;
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
            scores.push(outcome.score);
            let trusted = self.shared.trusted.read().ok().and_then(|t| *t);
            let searched = (self.nodes - nodes_at_start).max(1);
            let progress = Progress {
                stable_iterations,
                depth,
                score_drop: score_drop(&scores),
                best_share: self.root_moves[0].nodes as f64 / searched as f64,
            };
            let scale = time_scale(&progress, trusted, best);
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
        if self.is_main() && outcome.depth == 0 {
            self.first_iteration_cut_off(reporter, &mut outcome);
        }
        if self.is_main() && lines == 1 {
            self.deeper_experience(reporter, &mut outcome);
        }
        self.publish_nodes();
        outcome
    }

    /// The experience knows the root from a search at least
    /// `EXPERIENCE_ROOT_MARGIN` plies deeper than this one reached (an
    /// analysis by `mach learn`, a longer game's search): its move and score
    /// are the answer, reported as one more line at the record's depth. Not
    /// when analysing (`go infinite`, `go mate`, `searchmoves`: the caller
    /// asked for this search's own answer), and only for a legal move.
    fn deeper_experience(&self, reporter: &dyn Reporter, outcome: &mut Outcome) {
        let limits = &self.shared.limits;
        if limits.infinite || limits.mate.is_some() || !limits.searchmoves.is_empty() {
            return;
        }
        let Some(known) = self
            .shared
            .experience
            .as_ref()
            .and_then(|x| x.probe(*self.keys.last().unwrap()))
        else {
            return;
        };
        if known.depth < outcome.depth + EXPERIENCE_ROOT_MARGIN {
            return;
        }
        let Some(rm) = self
            .root_moves
            .iter()
            .find(|rm| crate::moves::encode(rm.mv) == known.mv)
        else {
            return;
        };
        *outcome = Outcome {
            depth: known.depth,
            pv: vec![rm.mv],
            score: from_tt(known.score, 0),
        };
        reporter.info(&self.info(
            known.depth,
            known.depth.max(1) as usize,
            (1, outcome.score, Bound::Exact),
            outcome.pv.clone(),
        ));
    }

    /// The first iteration was stopped before its first line was complete
    /// (a position whose captures explode, under a clock or `stop`): the
    /// answer is the best root move scored so far, reported with its score
    /// as a lower bound (the moves not yet searched may be better). With
    /// none scored, `outcome` keeps the first root move in search order.
    fn first_iteration_cut_off(&self, reporter: &dyn Reporter, outcome: &mut Outcome) {
        let rm = &self.root_moves[0];
        // A searched move's score; unsearched moves keep -INFINITE.
        if rm.score > -INFINITE {
            *outcome = Outcome {
                depth: 0,
                pv: rm.pv.clone(),
                score: rm.score,
            };
            self.report_line(reporter, 1, 0, Bound::Lower);
        }
    }

    fn report_line(&self, reporter: &dyn Reporter, depth: i32, pv_idx: usize, bound: Bound) {
        self.publish_nodes();
        let rm = &self.root_moves[pv_idx];
        reporter.info(&self.info(
            depth,
            rm.seldepth.max(1),
            (pv_idx + 1, rm.score, bound),
            rm.pv.clone(),
        ));
    }

    /// A line to report: its depth, selective depth, (MultiPV number, score,
    /// bound) and PV, with the nodes, time and table use so far.
    fn info(
        &self,
        depth: i32,
        seldepth: usize,
        (multipv, score, bound): (usize, i32, Bound),
        pv: Vec<Move>,
    ) -> Info {
        let elapsed = self.shared.control.elapsed();
        let nodes = self.shared.total_nodes();
        Info {
            depth,
            seldepth,
            multipv,
            score,
            bound,
            nodes,
            time_ms: elapsed.as_millis() as u64,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
            hashfull: self.shared.tt.hashfull(),
            pv,
        }
    }
}

/// What the last iteration tells the time manager.
struct Progress {
    /// Iterations the best move has held (0: it just changed).
    stable_iterations: u32,
    depth: i32,
    /// How far the best line's score fell over the last
    /// `SCORE_DROP_ITERATIONS` iterations, in centipawns (negative: it rose).
    score_drop: i32,
    /// The share of this search's nodes spent below the best move.
    best_share: f64,
}

/// The best score's fall over the last `SCORE_DROP_ITERATIONS` iterations.
fn score_drop(scores: &[i32]) -> i32 {
    match scores.len().checked_sub(SCORE_DROP_ITERATIONS + 1) {
        Some(i) => scores[i].saturating_sub(*scores.last().unwrap()),
        None => 0,
    }
}

/// How much of the soft time limit the search may use before another
/// iteration, the product of three readings (Ethereal's idea): the best
/// move's stability (more while it changes, less the longer it holds), the
/// score's trend (more when it falls, less when it holds or rises) and the
/// share of the nodes the best move took (less when it took nearly all,
/// more when other moves needed a long look to be refuted). Then less again
/// where the advice trusts the same move as the search's `best`, more where
/// it trusts another. Before `TIME_READINGS_MIN_DEPTH` the readings are too
/// young to count.
fn time_scale(p: &Progress, trusted: Option<Move>, best: Move) -> f64 {
    let readings = if p.depth < TIME_READINGS_MIN_DEPTH {
        1.0
    } else {
        let held = p.stable_iterations.min(STABILITY_MAX_ITERATIONS) as f64;
        let stability = STABILITY_SCALE_START - STABILITY_SCALE_STEP * held;
        let trend = (SCORE_DROP_SCALE_PER_CP * p.score_drop as f64)
            .clamp(SCORE_DROP_SCALE_MIN, SCORE_DROP_SCALE_MAX);
        let share = (NODE_SHARE_SCALE_BASE + NODE_SHARE_SCALE_PER_OTHER * (1.0 - p.best_share))
            .max(NODE_SHARE_SCALE_MIN);
        stability * trend * share
    };
    readings
        * match trusted {
            Some(t) if t == best => TRUSTED_AGREE_TIME_SCALE,
            Some(_) => TRUSTED_DISAGREE_TIME_SCALE,
            None => 1.0,
        }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::channel;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use shakmaty::Position;

    use super::Progress;
    use crate::board::from_fen;
    use crate::report::{Info, Reporter};
    use crate::thread::FIRST_ITERATION_NODES;
    use crate::tt::Bound;
    use crate::{Engine, Limits, SearchControl, SearchOptions, SearchResult};

    /// Fifteen queens a side: the captures after any first move explode, so
    /// depth 1 does not end in millions of nodes (issue #55, item 3).
    const QUEENS: &str = "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ b - - 0 1";
    /// Depth 1 takes 119,422 nodes here: `FIRST_ITERATION_NODES` cuts it
    /// off after some root moves are scored.
    const QUEENS_LIGHT: &str = "3qk3/qqqqqqqq/8/8/8/8/QQQQQQQQ/4K3 w - - 0 1";

    #[derive(Default)]
    struct Record(Mutex<Vec<Info>>);

    impl Reporter for Record {
        fn info(&self, info: &Info) {
            self.0.lock().unwrap().push(info.clone());
        }
    }

    /// Searches `fen` on a thread of its own, stopping the control after
    /// `stop_after` if given; fails instead of hanging after 60 s.
    fn search(
        fen: &str,
        limits: Limits,
        stop_after: Option<Duration>,
    ) -> (SearchResult, Vec<Info>) {
        let pos = from_fen(fen, false).unwrap();
        let control = Arc::new(SearchControl::new(false, Instant::now()));
        let (tx, rx) = channel();
        let c = control.clone();
        std::thread::spawn(move || {
            let record = Record::default();
            let mut engine = Engine::new(16, 1);
            let r = engine.search(&pos, &[], &limits, &SearchOptions::default(), &c, &record);
            let _ = tx.send((r, record.0.into_inner().unwrap()));
        });
        if let Some(d) = stop_after {
            if let Ok(done) = rx.recv_timeout(d) {
                return done;
            }
            control.stop();
        }
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the search did not stop")
    }

    fn is_legal(fen: &str, r: &SearchResult) -> bool {
        let pos = from_fen(fen, false).unwrap();
        r.best.is_some_and(|m| pos.is_legal(m))
    }

    fn progress(stable_iterations: u32, depth: i32, score_drop: i32, best_share: f64) -> Progress {
        Progress {
            stable_iterations,
            depth,
            score_drop,
            best_share,
        }
    }

    #[test]
    fn a_trusted_move_the_search_agrees_with_shortens_the_think_and_one_it_rejects_lengthens_it() {
        let pos = from_fen("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", false).unwrap();
        let moves = pos.legal_moves();
        let (best, other) = (moves[0], moves[1]);
        for p in [
            progress(0, 1, 0, 1.0),
            progress(0, 9, 40, 0.3),
            progress(2, 9, 0, 0.8),
            progress(12, 9, -30, 0.99),
        ] {
            let plain = super::time_scale(&p, None, best);
            let agree = super::time_scale(&p, Some(best), best);
            let reject = super::time_scale(&p, Some(other), best);
            assert!(agree < plain && plain < reject, "{agree} {plain} {reject}");
        }
    }

    #[test]
    fn a_contested_falling_new_best_move_gets_more_time_than_a_settled_one() {
        let best = from_fen("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", false)
            .unwrap()
            .legal_moves()[0];
        let scale = |p: Progress| super::time_scale(&p, None, best);
        // Each reading alone moves the scale the right way.
        assert!(scale(progress(0, 9, 0, 0.9)) > scale(progress(10, 9, 0, 0.9)));
        assert!(scale(progress(5, 9, 30, 0.9)) > scale(progress(5, 9, -30, 0.9)));
        assert!(scale(progress(5, 9, 0, 0.4)) > scale(progress(5, 9, 0, 0.95)));
        // Together: from 0.36 for a settled move to 3.6 for a contested one.
        let settled = scale(progress(10, 9, 0, 0.9));
        let contested = scale(progress(0, 9, 100, 0.0));
        assert!((settled - 0.36).abs() < 1e-9, "{settled}");
        assert!((contested - 3.6).abs() < 1e-9, "{contested}");
        // Before depth 4 nothing is read yet.
        assert_eq!(scale(progress(0, 3, 100, 0.0)), 1.0);
    }

    #[test]
    fn the_score_drop_is_read_three_iterations_back() {
        assert_eq!(super::score_drop(&[10, 20, 30]), 0);
        assert_eq!(super::score_drop(&[50, 40, 30, 20]), 30);
        assert_eq!(super::score_drop(&[0, 50, 40, 30, -20]), 70);
        assert_eq!(super::score_drop(&[-20, 0, 0, 10]), -30);
    }

    #[test]
    fn a_node_budget_stops_depth_one_of_fifteen_queens_a_side_with_a_legal_move() {
        let (r, _) = search(QUEENS, Limits::nodes(1_000), None);
        assert!(is_legal(QUEENS, &r), "{r:?}");
        assert_eq!(r.depth, 0);
        assert_eq!(r.nodes, FIRST_ITERATION_NODES);
        // Reproducible: the same move after the same nodes.
        let (again, _) = search(QUEENS, Limits::nodes(1_000), None);
        assert_eq!((again.best, again.nodes), (r.best, r.nodes));
    }

    #[test]
    fn the_clock_and_stop_end_depth_one_of_fifteen_queens_a_side() {
        let timed = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let t = Instant::now();
        let (r, _) = search(QUEENS, timed, None);
        assert!(is_legal(QUEENS, &r), "{r:?}");
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let (r, _) = search(QUEENS, infinite, Some(Duration::from_millis(50)));
        assert!(is_legal(QUEENS, &r), "{r:?}");
    }

    #[test]
    fn a_cut_off_depth_one_answers_the_best_move_scored_so_far_as_a_lower_bound() {
        let (r, infos) = search(QUEENS_LIGHT, Limits::nodes(1), None);
        assert!(is_legal(QUEENS_LIGHT, &r), "{r:?}");
        assert_eq!(r.nodes, FIRST_ITERATION_NODES);
        let [info] = &infos[..] else {
            panic!("one line expected: {infos:?}")
        };
        assert_eq!((info.depth, info.bound), (1, Bound::Lower));
        assert_eq!(info.pv.first().copied(), r.best);
        assert_eq!(info.score, r.score);
    }

    #[test]
    fn a_small_node_budget_still_completes_depth_one_of_a_real_position() {
        // The bench position whose depth 1 takes the most nodes (543).
        let fen = "r4kr1/ppp5/4bq1b/7B/2PR1Q1p/2N3P1/PP3P1P/2K1R3 w - - 0 1";
        let (r, infos) = search(fen, Limits::nodes(1), None);
        assert!(is_legal(fen, &r), "{r:?}");
        assert_eq!(r.depth, 1);
        assert!(r.nodes > 500, "{}", r.nodes);
        assert_eq!(infos.last().map(|i| i.bound), Some(Bound::Exact));
    }
}
