//! Alpha-beta search below the root: principal variation search with a
//! transposition table, null move, reverse futility, late move reductions and
//! pruning, singular and check extensions, and mate-distance pruning.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, MoveList, Position, Role};

use crate::board;
use crate::history::{piece_to, Conts};
use crate::moves::{self, encode, MoveCode, NO_MOVE};
use crate::ordering::{is_tactical, MovePicker, Path};
use crate::params::*;
use crate::score::{from_tt, mate_in, mated_in, to_tt, DRAW, INFINITE, MATE_BOUND, MAX_PLY};
use crate::see::see_ge;
use crate::thread::{lmr, Searcher};
use crate::tt::{Bound, Entry};

/// The history bonus (and malus) a search of `depth` plies earns:
/// linear in depth, capped, never negative.
fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_PLY() * depth - HISTORY_BONUS_OFFSET()).clamp(0, HISTORY_BONUS_MAX())
}

/// Has the side to move a piece other than pawns and king? Without one,
/// passing could be better than any move (zugzwang), so no null move.
fn has_non_pawn_material(pos: &Chess) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours & !(b.pawns() | b.kings())).any()
}

impl Searcher<'_> {
    /// The move picker of the node at `path.ply`, on that ply's reusable
    /// buffer, with the grandmasters' moves (`advised`) right after the TT move.
    fn picker(
        &mut self,
        pos: &Chess,
        moves: &MoveList,
        tt_move: MoveCode,
        path: Path,
        advised: &[MoveCode],
    ) -> MovePicker {
        let buf = std::mem::take(&mut self.move_bufs[path.ply]);
        let mut p = MovePicker::new(buf, pos, moves, tt_move, self.hist, path);
        p.favour(advised);
        p
    }

    /// Negamax score of `pos` searched `depth` plies deep in the window
    /// (alpha, beta). `cut_node`: expected to fail high.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search(
        &mut self,
        pos: &Chess,
        key: u64,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, key, ply, alpha, beta);
        }
        let pv_node = beta - alpha > 1;
        self.pv.clear(ply);
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.is_check();

        if self.is_draw(pos) {
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.eval(pos) };
        }

        // Mate-distance pruning: no line from here can beat a shorter mate found already.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Set while a singular-extension search asks how the other moves do.
        let excluded = self.stack[ply].excluded;
        let tt = self.shared.tt.probe(key);
        let mut tt_move = tt.map_or(NO_MOVE, |e| e.mv);
        if let Some(e) = tt {
            if !pv_node && excluded.is_none() && e.depth >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // What an earlier game's search found here: its move first when the
        // table has none; its score (taken as exact: it was the result of a
        // whole search of this position) only when that search was at least
        // as deep as this iteration. A shallower record would replace this
        // search's own look with another game's (backed-up, blended) score.
        if let Some(x) = self
            .shared
            .experience
            .as_ref()
            .filter(|_| ply <= EXPERIENCE_MAX_PLY)
        {
            if let Some(k) = x.probe(key) {
                if tt_move == NO_MOVE {
                    tt_move = k.mv;
                }
                if !pv_node && excluded.is_none() && k.depth >= depth.max(self.root_depth) {
                    return from_tt(k.score, ply);
                }
            }
        }

        // The TT keeps the raw static eval; what the search goes by is
        // corrected by what earlier searches found (`correction.rs`).
        let (raw_eval, eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else {
            let raw = tt.map_or_else(|| self.eval(pos), |e| e.eval);
            (raw, self.hist.corr.corrected(pos, raw))
        };
        self.stack[ply].eval = eval;
        self.stack[ply].in_check = in_check;
        self.stack[ply].mv = None;
        self.stack[ply].cont = None;
        // The children's killers are those of this node's siblings' subtrees:
        // forget them, so that the moves below start from this position's own.
        if excluded.is_none() {
            self.hist.killers[ply + 1] = [NO_MOVE; 2];
        }
        // Is the static eval better than two plies ago? Prune less when it is.
        let improving = !in_check
            && ply >= 2
            && (self.stack[ply - 2].in_check || eval > self.stack[ply - 2].eval);
        // What pruning goes by: the TT score where its bound says it is a
        // better guess than the static eval (the static eval stays what is
        // stored and compared across plies).
        // Not in a singular-extension search: this entry's score counts the
        // excluded move.
        let est = match tt {
            Some(e)
                if !in_check && excluded.is_none() && from_tt(e.score, ply).abs() < MATE_BOUND =>
            {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Lower if s > eval => s,
                    Bound::Upper if s < eval => s,
                    Bound::Exact => s,
                    _ => eval,
                }
            }
            _ => eval,
        };

        if !pv_node && !in_check && excluded.is_none() {
            // Razoring: so far below alpha that only captures could help.
            if depth <= RAZOR_MAX_DEPTH()
                && alpha.abs() < MATE_BOUND
                && est + RAZOR_BASE() + RAZOR_PER_DEPTH2() * depth * depth <= alpha
            {
                let s = self.qsearch(pos, key, ply, alpha, alpha + 1);
                if self.stopped {
                    return 0;
                }
                if s <= alpha {
                    return s;
                }
            }

            // Reverse futility: so far above beta that a shallow search will not fall below it.
            if depth <= RFP_MAX_DEPTH()
                && beta.abs() < MATE_BOUND
                && est - RFP_MARGIN() * (depth - improving as i32) >= beta
            {
                return est;
            }

            // Null move: if passing still fails high, a real move will too.
            let last_was_null = ply > 0 && self.stack[ply - 1].mv.is_none();
            if depth >= NMP_MIN_DEPTH()
                && est >= beta
                && !last_was_null
                && ply >= self.nmp_min_ply
                && beta > -MATE_BOUND
                && has_non_pawn_material(pos)
            {
                let r = NMP_BASE_REDUCTION()
                    + depth / NMP_DEPTH_DIVISOR()
                    + ((est - beta) / NMP_EVAL_DIVISOR()).min(3);
                if let Some((child, child_key)) = board::null_move(pos) {
                    self.stack[ply + 1].double_exts = self.stack[ply].double_exts;
                    self.keys.push(child_key);
                    let s = -self.search(
                        &child,
                        child_key,
                        depth - r,
                        ply + 1,
                        -beta,
                        -beta + 1,
                        !cut_node,
                    );
                    self.keys.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        let s = if s >= MATE_BOUND { beta } else { s };
                        if depth < NMP_VERIFY_DEPTH() {
                            return s;
                        }
                        // Deep: verify with a reduced search without null moves nearby.
                        self.nmp_min_ply = ply + (3 * (depth - r) / 4) as usize;
                        let v = self.search(pos, key, depth - r, ply, beta - 1, beta, false);
                        self.nmp_min_ply = 0;
                        if self.stopped {
                            return 0;
                        }
                        if v >= beta {
                            return s;
                        }
                    }
                }
            }
        }

        // Internal iterative reduction: no TT move here means a poorly known node.
        if depth >= IIR_MIN_DEPTH() && tt_move == NO_MOVE && (pv_node || cut_node) {
            depth -= 1;
        }

        let prev = if ply > 0 {
            self.stack[ply - 1].mv
        } else {
            None
        };
        let conts: Conts = [
            ply.checked_sub(1).and_then(|p| self.stack[p].cont),
            ply.checked_sub(2).and_then(|p| self.stack[p].cont),
        ];
        // The TT move is tried before the other moves are generated: when
        // it cuts, they never are.
        // Moves the grandmasters played here: first, never reduced or pruned.
        let shared = self.shared;
        let advised: &[MoveCode] = match &shared.tree {
            Some(t) if ply <= TREE_ADVICE_MAX_PLY => t.moves(key),
            _ => &[],
        };
        let threats = board::Threats::new(pos);
        let path = Path { ply, prev, conts };
        let mut tt_first = moves::legal(pos, tt_move);
        let mut picker: Option<MovePicker> = None;
        if tt_first.is_none() {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return if in_check { mated_in(ply) } else { DRAW };
            }
            picker = Some(self.picker(pos, &moves, tt_move, path, advised));
        }
        let killers = self.hist.killers[ply];
        let counter = self.hist.counter(prev);
        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures: ArrayVec<Move, 32> = ArrayVec::new();
        let mut move_count = 0usize;
        let lmp_limit = (LMP_BASE() + depth * depth) / if improving { 1 } else { 2 };

        loop {
            let (m, order) = if let Some(m) = tt_first.take() {
                (m, MovePicker::TT_MOVE_SCORE)
            } else {
                let p = match picker.as_mut() {
                    Some(p) => p,
                    // The TT move was legal, so the list is not empty.
                    None => {
                        picker.insert(self.picker(pos, &pos.legal_moves(), tt_move, path, advised))
                    }
                };
                match p.pick(self.hist, &threats) {
                    // Searched already, first.
                    Some((m, _)) if encode(m) == tt_move => continue,
                    Some(picked) => picked,
                    None => break,
                }
            };
            if Some(m) == excluded {
                continue;
            }
            let quiet = !is_tactical(m);
            let under_promotion = m.promotion().is_some_and(|r| r != Role::Queen);

            let gives_check = board::gives_check(pos, m);
            let is_advised = !advised.is_empty() && advised.contains(&encode(m));
            // One and two plies back.
            let [cont_one, cont_two] = if quiet {
                self.hist.continuation_parts(pos.turn(), m, conts)
            } else {
                [0, 0]
            };
            let cont_history = cont_one + cont_two;

            // Shallow pruning, never before a move has kept us out of a mate
            // score, never of checks; evasions too (Ethereal's), but not by
            // futility, which needs a static eval.
            if best_score > -MATE_BOUND && !gives_check && !is_advised {
                if quiet {
                    // Late-move pruning and futility hold for every later
                    // quiet move too: the picker drops them (checks as well).
                    if depth <= LMP_MAX_DEPTH() && move_count as i32 >= lmp_limit {
                        if let Some(p) = picker.as_mut() {
                            p.skip_quiets();
                        }
                        continue;
                    }
                    // A quiet move that has done badly after the last move, or
                    // after the one before it; less readily while improving.
                    let (max_depth, one_limit, two_limit) = if improving {
                        (
                            CONT_PRUNE_MAX_DEPTH() - 1,
                            CONT_ONE_LIMIT_IMPROVING(),
                            CONT_TWO_LIMIT_IMPROVING(),
                        )
                    } else {
                        (CONT_PRUNE_MAX_DEPTH(), CONT_ONE_LIMIT(), CONT_TWO_LIMIT())
                    };
                    if depth <= max_depth && (cont_one < one_limit || cont_two < two_limit) {
                        continue;
                    }
                    // Futility: a quiet move that cannot lift a low static eval to alpha.
                    if !in_check
                        && depth <= FUTILITY_MAX_DEPTH()
                        && est + FUTILITY_BASE() + FUTILITY_PER_PLY() * depth <= alpha
                    {
                        if let Some(p) = picker.as_mut() {
                            p.skip_quiets();
                        }
                        continue;
                    }
                    if depth <= SEE_PRUNE_MAX_DEPTH()
                        && !see_ge(pos, m, -SEE_QUIET_MARGIN() * depth)
                    {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_MAX_DEPTH()
                    && (under_promotion || !see_ge(pos, m, -SEE_CAPTURE_MARGIN() * depth * depth))
                {
                    continue;
                }
            }

            let (child, child_key) = board::play(pos, key, m);
            self.shared.tt.prefetch(child_key);

            move_count += 1;
            // Check extension: look one ply further at checks (bounded near the root depth).
            let near_root = ply < 2 * self.root_depth as usize;
            let mut extension = (gives_check && near_root) as i32;
            // Singular extension: if every other move fails well below the TT
            // move's score, the TT move is forced here: look one ply further.
            if let Some(e) = tt.filter(|e| {
                depth >= SE_MIN_DEPTH()
                    && near_root
                    && excluded.is_none()
                    && e.mv == encode(m)
                    && e.depth >= depth - SE_TT_DEPTH_MARGIN()
                    && e.bound != Bound::Upper
                    && from_tt(e.score, ply).abs() < MATE_BOUND
            }) {
                let tt_score = from_tt(e.score, ply);
                let singular_beta = tt_score - SE_BETA_MARGIN() * depth;
                self.stack[ply].excluded = Some(m);
                let s = self.search(
                    pos,
                    key,
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    cut_node,
                );
                self.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                if s < singular_beta {
                    // Far below: the TT move is the only move; look two
                    // plies further, a bounded number of times on a path.
                    extension = if !pv_node
                        && s < singular_beta - DOUBLE_EXT_MARGIN()
                        && self.stack[ply].double_exts < DOUBLE_EXT_MAX()
                    {
                        2
                    } else {
                        1
                    };
                } else if singular_beta >= beta {
                    // Multi-cut: another move beats beta too.
                    if let Some(p) = picker {
                        self.move_bufs[ply] = p.into_buffer();
                    }
                    return singular_beta;
                } else if tt_score >= beta {
                    // The TT move is not the only good move: look less far.
                    extension -= 1;
                }
            }
            let mut new_depth = depth - 1 + extension;
            self.stack[ply + 1].double_exts = self.stack[ply].double_exts + (extension >= 2) as i32;
            self.stack[ply].mv = Some(m);
            self.stack[ply].cont = Some(piece_to(pos.turn(), m));
            self.keys.push(child_key);

            let score = if move_count == 1 {
                -self.search(&child, child_key, new_depth, ply + 1, -beta, -alpha, false)
            } else {
                // Late move reduction for quiet and losing moves late in the list.
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH()
                    && !is_advised
                    && move_count > 1 + pv_node as usize
                    && (quiet || MovePicker::is_bad_capture_score(order))
                {
                    r = lmr(depth, move_count);
                    r += !pv_node as i32;
                    r += cut_node as i32;
                    r -= improving as i32;
                    r -= (in_check || gives_check) as i32;
                    let code = encode(m);
                    // The killers and the counter move: reduced one ply less.
                    if code == killers[0] || code == killers[1] || code == counter {
                        r -= 1;
                    }
                    if quiet {
                        r -= (self.hist.quiet(pos.turn(), m, threats.get()) + cont_history)
                            / LMR_HISTORY_DIVISOR();
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let new_depth_reduced = new_depth - r;
                let mut s = -self.search(
                    &child,
                    child_key,
                    new_depth_reduced,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if s > alpha && r > 0 {
                    // The reduced search beat alpha: search again at full
                    // depth, one ply more if it beat the best score by far,
                    // one less if it barely reached it (Stockfish's).
                    new_depth += (s > best_score + DEEPER_MARGIN() + 2 * new_depth) as i32
                        - (s < best_score + SHALLOWER_MARGIN()) as i32;
                    if new_depth > new_depth_reduced {
                        s = -self.search(
                            &child,
                            child_key,
                            new_depth,
                            ply + 1,
                            -alpha - 1,
                            -alpha,
                            !cut_node,
                        );
                    }
                    // What the full search found teaches the continuation
                    // histories of this quiet move.
                    if quiet {
                        let bonus = history_bonus(new_depth);
                        let bonus = if s <= alpha {
                            -bonus
                        } else if s >= beta {
                            bonus
                        } else {
                            0
                        };
                        self.hist.update_continuation(pos.turn(), m, conts, bonus);
                    }
                }
                if s > alpha && s < beta {
                    s = -self.search(&child, child_key, new_depth, ply + 1, -beta, -alpha, false);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.pv.update(ply, m);
                    }
                    if score >= beta {
                        let bonus = history_bonus(depth);
                        let side = pos.turn();
                        if quiet {
                            self.hist.update_quiet(
                                side,
                                ply,
                                prev,
                                conts,
                                threats.get(),
                                m,
                                &quiets,
                                bonus,
                            );
                            self.hist.update_captures(side, None, &captures, bonus);
                        } else {
                            self.hist.update_captures(side, Some(m), &captures, bonus);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && !quiets.is_full() {
                quiets.push(m);
            } else if !quiet && !captures.is_full() {
                captures.push(m);
            }
        }

        if let Some(p) = picker {
            self.move_bufs[ply] = p.into_buffer();
        }
        if excluded.is_some() {
            // A singular-extension search: no other move reached alpha (or
            // none was tried). Its result does not go to the TT: it is not
            // this position's value.
            return if move_count == 0 { alpha } else { best_score };
        }
        if move_count == 0 {
            // Every move was pruned: the static eval stands (not in check here).
            return eval;
        }

        // Teach the correction history what this search found, where the
        // score is the position's value as far as it goes: not a capture's
        // gain, not a bound on the wrong side of the eval, not a mate.
        if !in_check
            && best_move.is_none_or(|m| !is_tactical(m))
            && best_score.abs() < MATE_BOUND
            && ((best_score < eval && best_score < beta)
                || (best_score > eval && best_move.is_some()))
        {
            self.hist.corr.update(pos, depth, best_score - eval);
        }

        let bound = Bound::of(best_score, original_alpha, beta);
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move.map_or(NO_MOVE, encode),
                score: to_tt(best_score, ply),
                eval: if in_check { 0 } else { raw_eval },
                depth,
                bound,
            },
        );
        best_score
    }
}
