//! The evaluation as a linear function of psqt.rs's weights: each position
//! becomes sparse coefficients (one per weight it uses), so a model built on
//! them gives exactly `eval::evaluate`, and its gradient is exact.

use mach_engine::eval::{
    all_reach, for_each_king_pawn, for_each_pawn_path, for_each_pawn_push, for_each_target,
    king_zone, pawn_attacks, phase, piece_reach, safe_checks, union, weak_zone_squares,
};
use mach_engine::pawn_chunks;
use mach_engine::psqt::{
    Weight, BISHOP_PAIR, EG_PST, KING_ATTACK, KING_ATTACKERS_N, KING_ATTACK_ROWS, KING_HITS_N,
    KING_PAWNS, KING_WEAK, KING_WEAK_N, MATERIAL, MG_PST, MOBILITY, PAWN_PATH, PAWN_PUSH,
    SAFE_CHECKS, SAFE_CHECKS_N, TARGETS, TEMPO,
};
use shakmaty::{Bitboard, Chess, Color, Position, Role};

/// First tapered term of each kind: material (6), PST (6 x 64, in the
/// published orientation, index 0 = a8), mobility (4 pieces x `MOBILITY_N`
/// counts), bishop pair (1), king attack (`KING_ATTACK_ROWS` x `KING_HITS_N`), safe checks (4 pieces x
/// `SAFE_CHECKS_N` counts), weak king-zone squares (`KING_WEAK_N` counts),
/// targets (6 pieces x 5 victims x guarded or not), pawn pushes (6 ranks x 4
/// states of the square ahead), pawn paths (6 ranks x 0-6 squares), pawns
/// as each king sees them (4 king files x own or enemy x 48 squares).
pub const MATERIAL_AT: usize = 0;
pub const PST_AT: usize = 6;
pub const MOBILITY_AT: usize = PST_AT + 6 * 64;
/// Mobility counts a piece has a term for (0 to 27 squares).
pub const MOBILITY_N: usize = 28;
pub const PAIR_AT: usize = MOBILITY_AT + 4 * MOBILITY_N;
pub const KING_ATTACK_AT: usize = PAIR_AT + 1;
pub const CHECKS_AT: usize = KING_ATTACK_AT + KING_ATTACK_ROWS * KING_HITS_N;
pub const WEAK_AT: usize = CHECKS_AT + 4 * SAFE_CHECKS_N;
pub const TARGETS_AT: usize = WEAK_AT + KING_WEAK_N;
pub const PUSH_AT: usize = TARGETS_AT + 6 * 10;
pub const PATH_AT: usize = PUSH_AT + 6 * 4;
pub const KING_PAWNS_AT: usize = PATH_AT + 6 * 7;
/// MACH's pawn chunks, one term per feature (`pawn_chunks::FEATURES`).
pub const CHUNKS_AT: usize = KING_PAWNS_AT + 8 * 48;
/// Number of tapered terms; each has a middlegame and an endgame weight.
pub const N_TERMS: usize = CHUNKS_AT + pawn_chunks::N_FEATURES;
/// Parameters: term t's mg weight at 2t, eg weight at 2t + 1, then tempo.
pub const TEMPO_AT: usize = 2 * N_TERMS;
pub const N_PARAMS: usize = TEMPO_AT + 1;

/// A position's coefficients: White's count minus Black's for each term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// `eval::phase`, `PHASE_MAX` with all pieces on.
    pub phase: i32,
    pub white_to_move: bool,
    /// (term, coefficient), terms in increasing order, no zero coefficient.
    pub terms: Vec<(u16, i32)>,
}

/// The coefficients of `pos`, read the way `eval::evaluate` reads the board.
pub fn extract(pos: &Chess) -> Features {
    let board = pos.board();
    let mut coef = [0i32; N_TERMS];
    let mut reach_by = [[Bitboard::EMPTY; 4]; 2];
    let mut attacked = [Bitboard::EMPTY; 2];
    // The same per piece kind, pawns and king included (`all_reach`).
    let mut all = [[Bitboard::EMPTY; 6]; 2];
    let pawn_att =
        [Color::White, Color::Black].map(|c| pawn_attacks(board.pawns() & board.by_color(c), c));
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        let ours = board.by_color(color);
        let mobility_area = !(ours | pawn_att[1 - ci]);
        let zone = king_zone(board, !color);
        let (mut attackers, mut hits) = (0usize, 0usize);
        for (r, role) in Role::ALL.into_iter().enumerate() {
            for sq in board.by_role(role) & ours {
                let s = sq as usize;
                let table_sq = if ci == 0 { s ^ 56 } else { s };
                coef[MATERIAL_AT + r] += sign;
                coef[PST_AT + r * 64 + table_sq] += sign;
                let Some(reach) = piece_reach(board, ours, role, sq) else {
                    continue;
                };
                let n = (reach & mobility_area).count();
                coef[MOBILITY_AT + (r - 1) * MOBILITY_N + n] += sign;
                let h = (reach & zone).count();
                attackers += (h > 0) as usize;
                hits += h;
                reach_by[ci][r - 1] |= reach;
            }
        }
        all[ci] = all_reach(board, color, pawn_att[ci], &reach_by[ci]);
        attacked[ci] = union(&all[ci]);
        let row = attackers.min(KING_ATTACKERS_N - 1)
            + KING_ATTACKERS_N * (board.queens() & ours).any() as usize;
        coef[KING_ATTACK_AT + row * KING_HITS_N + hits.min(KING_HITS_N - 1)] += sign;
        if (board.bishops() & ours).more_than_one() {
            coef[PAIR_AT] += sign;
        }
    }
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let sign = if ci == 0 { 1 } else { -1 };
        let checks = safe_checks(board, color, &reach_by[ci], attacked[1 - ci]);
        for (r, &n) in checks.iter().enumerate() {
            coef[CHECKS_AT + r * SAFE_CHECKS_N + n.min(SAFE_CHECKS_N - 1)] += sign;
        }
        let weak = weak_zone_squares(
            board,
            color,
            attacked[ci],
            pawn_att[1 - ci],
            &reach_by[1 - ci],
        );
        coef[WEAK_AT + weak.min(KING_WEAK_N - 1)] += sign;
        for_each_target(board, color, &all[ci], attacked[1 - ci], |r, c| {
            coef[TARGETS_AT + r * 10 + c] += sign
        });
        for_each_pawn_push(
            board,
            color,
            pawn_att[1 - ci],
            attacked[1 - ci],
            |row, push| coef[PUSH_AT + row * 4 + push] += sign,
        );
        for_each_pawn_path(board, color, pawn_att[1 - ci], |row, n| {
            coef[PATH_AT + row * 7 + n] += sign
        });
        for_each_king_pawn(board, color, |bucket, theirs, sq| {
            coef[KING_PAWNS_AT + (2 * bucket + theirs) * 48 + sq] += sign
        });
    }
    pawn_chunks::for_each_feature(board, |f, sign| coef[CHUNKS_AT + f] += sign);
    let terms = coef
        .iter()
        .enumerate()
        .filter(|(_, &c)| c != 0)
        .map(|(t, &c)| (t as u16, c))
        .collect();
    Features {
        phase: phase(pos),
        white_to_move: pos.turn() == Color::White,
        terms,
    }
}

/// Which parameters a fit may change: those of the named groups (all when
/// `groups` is empty); an unknown name is an error that lists the names.
pub fn trainable(groups: &[String]) -> Result<Vec<bool>, String> {
    if groups.is_empty() {
        return Ok(vec![true; N_PARAMS]);
    }
    let mut mask = vec![false; N_PARAMS];
    for g in groups {
        let terms = match g.trim() {
            "material" => MATERIAL_AT..PST_AT,
            "pst" => PST_AT..MOBILITY_AT,
            "mobility" => MOBILITY_AT..PAIR_AT,
            "pair" => PAIR_AT..PAIR_AT + 1,
            "king-attack" => KING_ATTACK_AT..CHECKS_AT,
            "checks" => CHECKS_AT..WEAK_AT,
            "king-weak" => WEAK_AT..TARGETS_AT,
            "targets" => TARGETS_AT..PUSH_AT,
            "pawn-push" => PUSH_AT..PATH_AT,
            "pawn-path" => PATH_AT..KING_PAWNS_AT,
            "king-pawns" => KING_PAWNS_AT..CHUNKS_AT,
            "chunks" => CHUNKS_AT..N_TERMS,
            "tempo" => {
                mask[TEMPO_AT] = true;
                continue;
            }
            other => {
                return Err(format!(
                    "--fit: unknown group {other:?} (material, pst, mobility, pair, king-attack, checks, king-weak, targets, pawn-push, pawn-path, king-pawns, chunks, tempo)"
                ))
            }
        };
        for t in terms {
            mask[2 * t] = true;
            mask[2 * t + 1] = true;
        }
    }
    Ok(mask)
}

/// A king-attack, safe-check or weak-square cell too rare to fit (`rare`) takes the value
/// of the cell with one square fewer (for as many attackers), so that
/// reaching one more square never falls back to the start value.
pub fn fill_rare_king_cells(w: &mut [f64], rare: &[bool]) {
    let mut fill = |t: usize| {
        for half in 0..2 {
            if rare[2 * t + half] {
                w[2 * t + half] = w[2 * (t - 1) + half];
            }
        }
    };
    for row in 0..KING_ATTACK_ROWS {
        // `a` pieces reach at least `a` squares: fewer is not a position.
        let a = row % KING_ATTACKERS_N;
        if a == 0 {
            continue;
        }
        for h in a + 1..KING_HITS_N {
            fill(KING_ATTACK_AT + row * KING_HITS_N + h);
        }
    }
    for r in 0..4 {
        for n in 1..SAFE_CHECKS_N {
            fill(CHECKS_AT + r * SAFE_CHECKS_N + n);
        }
    }
    for n in 1..KING_WEAK_N {
        fill(WEAK_AT + n);
    }
}

/// The weights compiled into the engine today (psqt.rs), as parameters.
pub fn compiled_weights() -> Vec<i32> {
    let mut w = vec![0; N_PARAMS];
    for r in 0..6 {
        w[2 * (MATERIAL_AT + r)] = MATERIAL[r].mg;
        w[2 * (MATERIAL_AT + r) + 1] = MATERIAL[r].eg;
        for sq in 0..64 {
            w[2 * (PST_AT + r * 64 + sq)] = MG_PST[r][sq];
            w[2 * (PST_AT + r * 64 + sq) + 1] = EG_PST[r][sq];
        }
    }
    put_table(&mut w, MOBILITY_AT, &MOBILITY);
    put_table(&mut w, PAIR_AT, &[[BISHOP_PAIR]]);
    put_table(&mut w, KING_ATTACK_AT, &KING_ATTACK);
    put_table(&mut w, CHECKS_AT, &SAFE_CHECKS);
    put_table(&mut w, WEAK_AT, &[KING_WEAK]);
    put_table(&mut w, TARGETS_AT, &TARGETS);
    put_table(&mut w, PUSH_AT, &PAWN_PUSH);
    put_table(&mut w, PATH_AT, &PAWN_PATH);
    put_table(&mut w, KING_PAWNS_AT, &KING_PAWNS);
    put_table(&mut w, CHUNKS_AT, &[pawn_chunks::weights()]);
    w[TEMPO_AT] = TEMPO;
    w
}

/// Writes a table of tapered weights into the parameters from term `at`,
/// row after row.
fn put_table<R: AsRef<[Weight]>>(w: &mut [i32], at: usize, table: &[R]) {
    for (t, v) in table.iter().flat_map(|r| r.as_ref()).enumerate() {
        w[2 * (at + t)] = v.mg;
        w[2 * (at + t) + 1] = v.eg;
    }
}

/// A start without PeSTO: plain piece values, every other weight zero (the
/// default of `mach tune`, so the fit owes nothing to earlier tables).
pub fn material_only_weights() -> Vec<i32> {
    let mut w = vec![0; N_PARAMS];
    for (r, v) in [100, 300, 300, 500, 900, 0].into_iter().enumerate() {
        w[2 * (MATERIAL_AT + r)] = v;
        w[2 * (MATERIAL_AT + r) + 1] = v;
    }
    w
}

/// Integer evaluation for the side to move from the coefficients, with the
/// engine's own rounding: what `eval::evaluate` returns with weights `w`.
#[cfg(test)]
pub fn evaluate_int(f: &Features, w: &[i32]) -> i32 {
    use mach_engine::psqt::PHASE_MAX;
    let (mut mg, mut eg) = (0, 0);
    for &(t, c) in &f.terms {
        mg += c * w[2 * t as usize];
        eg += c * w[2 * t as usize + 1];
    }
    let white = (mg * f.phase + eg * (PHASE_MAX - f.phase)) / PHASE_MAX;
    let stm = if f.white_to_move { white } else { -white };
    stm + w[TEMPO_AT]
}

#[cfg(test)]
mod tests {
    use super::*;
    use mach_engine::eval::evaluate_plus;
    use shakmaty::{Move, Position};

    /// Positions of a pseudo-random game walk from `fen`, up to `plies` deep.
    fn walk(seed: u64, plies: usize) -> Vec<Chess> {
        let mut rng = super::super::rng::Rng::new(seed);
        let mut pos = Chess::default();
        let mut out = vec![pos.clone()];
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions now and then, to reach endgames.
            let caps: Vec<&Move> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                *caps[rng.below(caps.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            pos.play_unchecked(m);
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn features_with_the_compiled_weights_give_exactly_the_engine_evaluation() {
        let w = compiled_weights();
        let mut checked = 0;
        for seed in 0..200 {
            for pos in walk(seed, 160) {
                assert_eq!(
                    evaluate_int(&extract(&pos), &w),
                    evaluate_plus(&pos, pawn_chunks::white_weight(pos.board())),
                    "{}",
                    shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn a_queen_and_a_rook_on_the_kings_zone_are_two_attackers_with_their_squares() {
        // Black's king g8: its zone is f7, g7, h7, f8, g8, h8. The rook g2
        // reaches g7 and g8, the queen h1 h7 and h8 (its diagonal is blocked
        // by the rook), the knight a1 none: two attackers, four squares,
        // for a side with a queen (the second half of the table).
        // Black has no piece to attack with: no attacker, no square. (Black
        // is to move: the rook gives check.)
        let pos: Chess = "6k1/8/8/8/8/8/6R1/N3K2Q b - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let f = extract(&pos);
        let coef = |a: usize, h: usize| {
            f.terms
                .iter()
                .find(|&&(t, _)| t as usize == KING_ATTACK_AT + a * KING_HITS_N + h)
                .map_or(0, |&(_, c)| c)
        };
        assert_eq!(coef(2 + KING_ATTACKERS_N, 4), 1, "{:?}", f.terms);
        assert_eq!(coef(2, 4), 0, "{:?}", f.terms);
        assert_eq!(coef(0, 0), -1, "{:?}", f.terms);
    }

    #[test]
    fn a_rare_king_attack_cell_takes_the_value_of_one_square_fewer() {
        let mut w = vec![0.0; N_PARAMS];
        let cell = |a: usize, h: usize| 2 * (KING_ATTACK_AT + a * KING_HITS_N + h);
        w[cell(2, 5)] = 120.0;
        w[cell(2, 5) + 1] = -40.0;
        let mut rare = vec![false; N_PARAMS];
        for h in 6..KING_HITS_N {
            rare[cell(2, h)] = true;
            rare[cell(2, h) + 1] = true;
        }
        // An impossible cell (two pieces, one square) is left alone.
        w[cell(2, 1)] = 7.0;
        rare[cell(2, 1)] = true;
        fill_rare_king_cells(&mut w, &rare);
        for h in 6..KING_HITS_N {
            assert_eq!((w[cell(2, h)], w[cell(2, h) + 1]), (120.0, -40.0), "{h}");
        }
        assert_eq!(w[cell(2, 1)], 7.0);
        assert_eq!(w[cell(2, 4)], 0.0, "a fitted cell keeps its value");
    }

    #[test]
    fn features_of_the_start_position_cancel_out() {
        let f = extract(&Chess::default());
        assert_eq!(f.phase, mach_engine::psqt::PHASE_MAX);
        assert!(f.white_to_move);
        // Material and mobility cancel; only PST entries of asymmetric pieces
        // could remain, and the start position is symmetric.
        assert!(f.terms.is_empty(), "{:?}", f.terms);
    }
}
