//! The evaluation as a linear function of psqt.rs's weights: each position
//! becomes sparse coefficients (one per weight it uses), traced from the
//! engine's own evaluation (`eval::add_terms` into a `Trace`), so a model
//! built on them gives exactly `eval::evaluate`, and its gradient is exact.

use mach_engine::eval::{self, phase};
use mach_engine::pawn_chunks;
use mach_engine::psqt::{
    KING_ATTACKERS_N, KING_ATTACK_ROWS, KING_HITS_N, KING_WEAK_N, SAFE_CHECKS_N, TEMPO,
};
use mach_engine::terms::{Group, Sink, Term, GROUPS, N_TERMS};
use shakmaty::{Chess, Color, Position};

/// Parameters: term t's mg weight at 2t, eg weight at 2t + 1 (terms as
/// `terms::GROUPS` lays them out), then tempo.
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

/// The tune's sink: each term's count, White's minus Black's.
struct Trace {
    coef: [i32; N_TERMS],
    /// The side whose terms come: 1 White, -1 Black.
    sign: i32,
}

impl Sink for Trace {
    fn side(&mut self, sign: i32) {
        self.sign = sign;
    }

    fn add(&mut self, term: Term, row: usize, col: usize) {
        self.coef[term.index(row, col)] += self.sign;
    }
}

/// The coefficients of `pos`: the evaluation's terms, the pawn chunks'
/// included, as `eval::evaluate_plus` reads them.
pub fn extract(pos: &Chess) -> Features {
    let mut trace = Trace {
        coef: [0; N_TERMS],
        sign: 0,
    };
    eval::add_terms(pos, &mut trace);
    pawn_chunks::add_terms(pos.board(), &mut trace);
    let terms = trace
        .coef
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

/// The group `name` of `terms::GROUPS`; an unknown name is an error of
/// `flag` that lists the groups' names and the `extra` ones the flag takes.
fn group_named(name: &str, flag: &str, extra: &[&str]) -> Result<&'static Group, String> {
    GROUPS.iter().find(|x| x.fit == name).ok_or_else(|| {
        let names: Vec<&str> = GROUPS
            .iter()
            .map(|x| x.fit)
            .chain(extra.iter().copied())
            .collect();
        format!("{flag}: unknown group {name:?} ({})", names.join(", "))
    })
}

/// Which parameters a fit may change: those of the named groups (all when
/// `groups` is empty); an unknown name is an error that lists the names.
pub fn trainable(groups: &[String]) -> Result<Vec<bool>, String> {
    if groups.is_empty() {
        return Ok(vec![true; N_PARAMS]);
    }
    let mut mask = vec![false; N_PARAMS];
    for g in groups {
        let name = g.trim();
        if name == "tempo" {
            mask[TEMPO_AT] = true;
            continue;
        }
        let term = group_named(name, "--fit", &["tempo"])?.term;
        for t in term.at()..term.at() + term.size() {
            mask[2 * t] = true;
            mask[2 * t + 1] = true;
        }
    }
    Ok(mask)
}

/// The rows of the named groups whose weighted means a fit keeps
/// (`--keep-means`), each a list of coefficients; an unknown name is an
/// error that lists the names.
pub fn rows_of(groups: &[String]) -> Result<Vec<Vec<usize>>, String> {
    let mut rows = Vec::new();
    for g in groups {
        let group = group_named(g.trim(), "--keep-means", &[])?;
        for r in 0..group.rows {
            rows.push((0..group.cols).map(|c| group.term.index(r, c)).collect());
        }
    }
    Ok(rows)
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
            fill(Term::KingAttack.index(row, h));
        }
    }
    for r in 0..4 {
        for n in 1..SAFE_CHECKS_N {
            fill(Term::Checks.index(r, n));
        }
    }
    for n in 1..KING_WEAK_N {
        fill(Term::Weak.index(0, n));
    }
}

/// The weights compiled into the engine today (psqt.rs), as parameters.
pub fn compiled_weights() -> Vec<i32> {
    let mut w = vec![0; N_PARAMS];
    for g in GROUPS {
        for row in 0..g.rows {
            for col in 0..g.cols {
                let t = g.term.index(row, col);
                let v = g.term.weight(row, col);
                w[2 * t] = v.mg;
                w[2 * t + 1] = v.eg;
            }
        }
    }
    w[TEMPO_AT] = TEMPO;
    w
}

/// A start without PeSTO: plain piece values, every other weight zero (the
/// default of `mach tune`, so the fit owes nothing to earlier tables).
pub fn material_only_weights() -> Vec<i32> {
    let mut w = vec![0; N_PARAMS];
    for (r, v) in [100, 300, 300, 500, 900, 0].into_iter().enumerate() {
        let t = Term::Material.index(r, 0);
        w[2 * t] = v;
        w[2 * t + 1] = v;
    }
    w
}

/// Integer evaluation for the side to move from the coefficients, with the
/// engine's own rounding: what `eval::evaluate` returns with weights `w`.
#[cfg(test)]
pub fn evaluate_int(f: &Features, w: &[i32]) -> i32 {
    let (mut mg, mut eg) = (0, 0);
    for &(t, c) in &f.terms {
        mg += c * w[2 * t as usize];
        eg += c * w[2 * t as usize + 1];
    }
    eval::taper(mg, eg, f.phase, f.white_to_move) + w[TEMPO_AT]
}

#[cfg(test)]
mod tests {
    use super::*;
    use mach_engine::eval::evaluate_plus;
    use shakmaty::Position;

    #[test]
    fn features_with_the_compiled_weights_give_exactly_the_engine_evaluation() {
        let w = compiled_weights();
        let mut checked = 0;
        for seed in 0..200 {
            for pos in mach_engine::board::random_walk(seed, 160) {
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
    fn the_trace_with_the_compiled_weights_and_weightless_chunks_gives_exactly_evaluate() {
        let mut w = compiled_weights();
        let chunks = Term::Chunks;
        for t in chunks.at()..chunks.at() + chunks.size() {
            w[2 * t] = 0;
            w[2 * t + 1] = 0;
        }
        let mut checked = 0;
        for seed in 200..300 {
            for pos in mach_engine::board::random_walk(seed, 200) {
                assert_eq!(
                    evaluate_int(&extract(&pos), &w),
                    eval::evaluate(&pos),
                    "{}",
                    shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal)
                );
                checked += 1;
            }
        }
        assert!(checked > 5_000, "{checked}");
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
                .find(|&&(t, _)| t as usize == Term::KingAttack.index(a, h))
                .map_or(0, |&(_, c)| c)
        };
        assert_eq!(coef(2 + KING_ATTACKERS_N, 4), 1, "{:?}", f.terms);
        assert_eq!(coef(2, 4), 0, "{:?}", f.terms);
        assert_eq!(coef(0, 0), -1, "{:?}", f.terms);
    }

    #[test]
    fn a_rare_king_attack_cell_takes_the_value_of_one_square_fewer() {
        let mut w = vec![0.0; N_PARAMS];
        let cell = |a: usize, h: usize| 2 * Term::KingAttack.index(a, h);
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
