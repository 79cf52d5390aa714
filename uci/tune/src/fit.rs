//! The fit: mean squared error between sigmoid(K * eval) and the target (the
//! game result, or a labelled evaluation as an expected score), the scaling
//! constant K found first (1-D search), then Adam on every weight with exact
//! gradients from the linear model.

use super::data::Dataset;
use super::features::{N_PARAMS, TEMPO_AT};
use super::rng::Rng;
use mach_engine::psqt::PHASE_MAX;
use mach_engine::terms::Term;

/// Evaluation of position `i` from White's side with weights `w` (the
/// engine's formula without its integer rounding, so it is differentiable).
#[inline]
fn eval(d: &Dataset, i: usize, w: &[f64]) -> f64 {
    let (a, b) = (d.start[i] as usize, d.start[i + 1] as usize);
    let (mut mg, mut eg) = (0.0, 0.0);
    for j in a..b {
        let t = 2 * d.term[j] as usize;
        let c = d.count[j] as f64;
        mg += c * w[t];
        eg += c * w[t + 1];
    }
    let p = d.phase[i] as f64 / PHASE_MAX as f64;
    let tempo = if d.white_to_move[i] {
        w[TEMPO_AT]
    } else {
        -w[TEMPO_AT]
    };
    mg * p + eg * (1.0 - p) + tempo
}

/// The logistic expected score of an evaluation.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `evals` against the results, at scale `k`.
fn mse(d: &Dataset, evals: &[f64], k: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(&d.target)
        .map(|(&e, &t)| (sigmoid(k * e) - f64::from(t)).powi(2))
        .sum();
    sum / evals.len() as f64
}

/// Every position's evaluation with weights `w`.
fn evals(d: &Dataset, w: &[f64]) -> Vec<f64> {
    (0..d.len()).map(|i| eval(d, i, w)).collect()
}

/// The loss of weights `w` on `d` at scale `k`.
pub fn loss(d: &Dataset, w: &[f64], k: f64) -> f64 {
    mse(d, &evals(d, w), k)
}

/// The K minimising the loss of weights `w` on `d` (golden-section search
/// on [0.0001, 0.05] per centipawn; the loss is unimodal in K).
pub fn fit_k(d: &Dataset, w: &[f64]) -> f64 {
    let e = evals(d, w);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0001f64, 0.05f64);
    let mut x1 = hi - g * (hi - lo);
    let mut x2 = lo + g * (hi - lo);
    let (mut f1, mut f2) = (mse(d, &e, x1), mse(d, &e, x2));
    for _ in 0..60 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - g * (hi - lo);
            f1 = mse(d, &e, x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + g * (hi - lo);
            f2 = mse(d, &e, x2);
        }
    }
    (lo + hi) / 2.0
}

/// Marks untrainable every weight whose term appears in fewer than `min`
/// positions of `d` (both of its phases); returns how many weights that
/// froze that were trainable.
pub fn freeze_rare(d: &Dataset, trainable: &mut [bool], min: usize) -> usize {
    let mut seen = vec![0usize; N_PARAMS / 2];
    for i in 0..d.len() {
        let (a, b) = (d.start[i] as usize, d.start[i + 1] as usize);
        let mut last = usize::MAX;
        for &t in &d.term[a..b] {
            // A term split over repeated entries counts once per position.
            if t as usize != last {
                seen[t as usize] += 1;
                last = t as usize;
            }
        }
    }
    let mut frozen = 0;
    for (t, &n) in seen.iter().enumerate() {
        for p in [2 * t, 2 * t + 1] {
            if n < min && trainable[p] {
                trainable[p] = false;
                frozen += 1;
            }
        }
    }
    frozen
}

/// How Adam runs.
#[derive(Clone, Debug)]
pub struct Settings {
    pub epochs: usize,
    pub batch: usize,
    /// Step size in centipawns at the start; it falls linearly to a tenth.
    pub lr: f64,
    pub seed: u64,
    /// Keep the scale of these (start) weights: see `anchor`.
    pub anchor: Option<Vec<f64>>,
    /// Parameters Adam may change (`features::trainable`); the rest stay.
    pub trainable: Vec<bool>,
    /// Rows of coefficients (`features::rows_of`) whose means, weighted by
    /// `usage`, stay the start's: see `keep_means`.
    pub keep_means: Vec<Vec<usize>>,
}

/// How much the positions of `d` use each parameter: the sum over them of
/// the coefficient's size, times the phase for a middlegame weight and one
/// minus it for an endgame weight (the tempo's is 0).
pub fn usage(d: &Dataset) -> Vec<f64> {
    let mut u = vec![0.0; N_PARAMS];
    for i in 0..d.len() {
        let p = d.phase[i] as f64 / PHASE_MAX as f64;
        for j in d.start[i] as usize..d.start[i + 1] as usize {
            let t = 2 * d.term[j] as usize;
            let c = (d.count[j] as f64).abs();
            u[t] += c * p;
            u[t + 1] += c * (1.0 - p);
        }
    }
    u
}

/// Puts back each row's mean of `start` into `w`, middlegame and endgame
/// apart, the mean weighted by `usage`: the rows' trainable weights move
/// together by what the row drifted. A table indexed by a count (how closed
/// the position is, how many pawns a bishop has on its colour) gives every
/// piece one cell, so its mean is a change of the piece's material value;
/// kept, the table can only say how the piece's worth varies, not take up
/// the material.
pub fn keep_means(
    w: &mut [f64],
    start: &[f64],
    rows: &[Vec<usize>],
    usage: &[f64],
    trainable: &[bool],
) {
    for row in rows {
        for ph in 0..2 {
            let at = |t: usize| 2 * t + ph;
            let movable: f64 = row
                .iter()
                .filter(|&&t| trainable[at(t)])
                .map(|&t| usage[at(t)])
                .sum();
            if movable <= 0.0 {
                continue;
            }
            let drift: f64 = row
                .iter()
                .map(|&t| usage[at(t)] * (w[at(t)] - start[at(t)]))
                .sum::<f64>()
                / movable;
            for &t in row.iter().filter(|&&t| trainable[at(t)]) {
                w[at(t)] -= drift;
            }
        }
    }
}

/// Puts back the scale of `start` into `w`: the material values are the
/// start's, and each piece's square table (middlegame and endgame apart)
/// keeps the start's mean, so no piece gains or loses value on average.
/// The search's margins are centipawns that assume a pawn near 100 in both
/// phases; a free fit on grandmaster games drifts from that scale (the
/// middlegame shrinks, the endgame grows) and loses games for it.
pub fn anchor(w: &mut [f64], start: &[f64]) {
    for r in 0..6 {
        for ph in 0..2 {
            let m = 2 * Term::Material.index(r, 0) + ph;
            w[m] = start[m];
            // Pawns stand on ranks 2-7 only (table index 8..56).
            let squares = if r == 0 { 8..56 } else { 0..64 };
            let n = squares.len() as f64;
            let at = |sq: usize| 2 * Term::Pst.index(r, sq) + ph;
            let drift: f64 = squares
                .clone()
                .map(|sq| w[at(sq)] - start[at(sq)])
                .sum::<f64>()
                / n;
            for sq in squares {
                w[at(sq)] -= drift;
            }
        }
    }
}

/// Adam on the trainable weights (the rest stay), mini-batches in a seeded
/// order; `report` is called after each epoch with its number and weights.
pub fn adam(
    d: &Dataset,
    w: &mut [f64],
    k: f64,
    s: &Settings,
    mut report: impl FnMut(usize, &[f64]),
) {
    let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; N_PARAMS];
    let mut v = vec![0.0; N_PARAMS];
    let mut grad = vec![0.0; N_PARAMS];
    let mut order: Vec<u32> = (0..d.len() as u32).collect();
    let mut rng = Rng::new(s.seed ^ 0x5eed_ada0);
    let mut step = 0i32;
    let (start, use_of) = if s.keep_means.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        (w.to_vec(), usage(d))
    };
    for epoch in 0..s.epochs {
        rng.shuffle(&mut order);
        let lr = s.lr * (1.0 - 0.9 * epoch as f64 / s.epochs.max(1) as f64);
        for batch in order.chunks(s.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let scale = 2.0 * k / batch.len() as f64;
            for &i in batch {
                let i = i as usize;
                let sg = sigmoid(k * eval(d, i, w));
                let g = scale * (sg - f64::from(d.target[i])) * sg * (1.0 - sg);
                let p = d.phase[i] as f64 / PHASE_MAX as f64;
                let (gm, ge) = (g * p, g * (1.0 - p));
                for j in d.start[i] as usize..d.start[i + 1] as usize {
                    let t = 2 * d.term[j] as usize;
                    let c = d.count[j] as f64;
                    grad[t] += c * gm;
                    grad[t + 1] += c * ge;
                }
                grad[TEMPO_AT] += if d.white_to_move[i] { g } else { -g };
            }
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            for p in (0..N_PARAMS).filter(|&p| s.trainable[p]) {
                m[p] = b1 * m[p] + (1.0 - b1) * grad[p];
                v[p] = b2 * v[p] + (1.0 - b2) * grad[p] * grad[p];
                w[p] -= lr * (m[p] / c1) / ((v[p] / c2).sqrt() + eps);
            }
            if let Some(start) = &s.anchor {
                anchor(w, start);
            }
            if !s.keep_means.is_empty() {
                keep_means(w, &start, &s.keep_means, &use_of, &s.trainable);
            }
        }
        report(epoch + 1, w);
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::{extract, material_only_weights};
    use super::*;
    use mach_engine::board::from_fen;

    /// A small synthetic set: White wins when White has the extra knight,
    /// loses when Black has it, draws the symmetric positions.
    fn synthetic() -> Dataset {
        let mut d = Dataset::new();
        let fens = [
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 2),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0),
            ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 1),
            ("4k3/1ppp4/8/8/8/8/PPPP4/1N2K3 b - - 0 1", 2),
            ("1n2k3/pppp4/8/8/8/8/1PPP4/4K3 b - - 0 1", 0),
            ("4k3/ppp5/8/8/8/8/PPP5/4K3 b - - 0 1", 1),
            ("4k3/pppp4/8/8/8/8/PPPP4/2N1K3 w - - 0 1", 1),
            ("2n1k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 1),
        ];
        for _ in 0..50 {
            for (fen, r) in fens {
                d.push(&extract(&from_fen(fen, false).unwrap()), r as f32 / 2.0);
            }
        }
        d
    }

    fn start() -> Vec<f64> {
        material_only_weights().into_iter().map(f64::from).collect()
    }

    #[test]
    fn adam_lowers_the_loss_on_a_small_synthetic_set() {
        let d = synthetic();
        let mut w = start();
        let k = fit_k(&d, &w);
        let before = loss(&d, &w, k);
        let s = Settings {
            epochs: 200,
            batch: 64,
            lr: 2.0,
            seed: 3,
            anchor: None,
            trainable: vec![true; N_PARAMS],
            keep_means: Vec::new(),
        };
        adam(&d, &mut w, k, &s, |_, _| {});
        let after = loss(&d, &w, k);
        assert!(after < before * 0.9, "{before} -> {after}");
    }

    #[test]
    fn the_fit_is_the_same_for_the_same_seed_and_differs_for_another() {
        let d = synthetic();
        let run = |seed| {
            let mut w = start();
            let s = Settings {
                epochs: 20,
                batch: 16,
                lr: 1.0,
                seed,
                anchor: None,
                trainable: vec![true; N_PARAMS],
                keep_means: Vec::new(),
            };
            adam(&d, &mut w, 0.01, &s, |_, _| {});
            w
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn a_weight_seen_in_too_few_positions_is_frozen_and_the_rest_stay_trainable() {
        let d = synthetic();
        let mut t = vec![true; N_PARAMS];
        // Every term of the synthetic set appears in 50 or more positions.
        assert_eq!(
            freeze_rare(&d, &mut t, 50),
            2 * (N_PARAMS / 2) - 2 * used(&d)
        );
        let mut t2 = vec![true; N_PARAMS];
        assert_eq!(freeze_rare(&d, &mut t2, 0), 0);
        let knight = 2 * Term::Material.index(1, 0);
        assert!(
            t[knight] && t[knight + 1],
            "the knight's value is trainable"
        );
        assert!(
            !t[2 * Term::Material.index(4, 0)],
            "no queen in the set: frozen"
        );
        assert!(t[TEMPO_AT], "tempo is not a term and stays trainable");
    }

    /// Number of distinct terms used by `d`.
    fn used(d: &Dataset) -> usize {
        let mut u = d.term.clone();
        u.sort_unstable();
        u.dedup();
        u.len()
    }

    #[test]
    fn k_is_found_where_the_loss_is_lowest() {
        let d = synthetic();
        let w = start();
        let k = fit_k(&d, &w);
        let l = loss(&d, &w, k);
        assert!(
            loss(&d, &w, k * 1.2) >= l && loss(&d, &w, k / 1.2) >= l,
            "{k}"
        );
    }

    #[test]
    fn an_anchored_fit_keeps_every_material_value_and_square_table_mean() {
        let d = synthetic();
        let start: Vec<f64> = super::super::features::compiled_weights()
            .into_iter()
            .map(f64::from)
            .collect();
        let mut w = start.clone();
        let s = Settings {
            epochs: 50,
            batch: 64,
            lr: 5.0,
            seed: 3,
            anchor: Some(start.clone()),
            trainable: vec![true; N_PARAMS],
            keep_means: Vec::new(),
        };
        let k = fit_k(&d, &w);
        let before = loss(&d, &w, k);
        adam(&d, &mut w, k, &s, |_, _| {});
        assert!(loss(&d, &w, k) < before, "the anchored fit still learns");
        let mean = |w: &[f64], r: usize, ph: usize| {
            let sq = if r == 0 { 8..56 } else { 0..64 };
            let n = sq.len() as f64;
            sq.map(|q| w[2 * Term::Pst.index(r, q) + ph]).sum::<f64>() / n
        };
        for r in 0..6 {
            for ph in 0..2 {
                let m = 2 * Term::Material.index(r, 0) + ph;
                assert_eq!(w[m], start[m]);
                assert!((mean(&w, r, ph) - mean(&start, r, ph)).abs() < 1e-6);
            }
        }
        let tables = 2 * Term::Pst.at()..2 * (Term::Pst.at() + Term::Pst.size());
        let moved: f64 = tables.map(|p| (w[p] - start[p]).abs()).sum();
        assert!(moved > 1.0, "the square tables were fitted");
    }

    /// Fifty epochs of 64 positions at step 5, seed 3, no anchor.
    fn fifty_epochs(trainable: Vec<bool>, keep_means: Vec<Vec<usize>>) -> Settings {
        Settings {
            epochs: 50,
            batch: 64,
            lr: 5.0,
            seed: 3,
            anchor: None,
            trainable,
            keep_means,
        }
    }

    #[test]
    fn a_fit_of_some_groups_leaves_every_other_weight_as_it_started() {
        let d = synthetic();
        let mut w = start();
        let trainable = super::super::features::trainable(&["pst".into()]).unwrap();
        let s = fifty_epochs(trainable.clone(), Vec::new());
        let k = fit_k(&d, &w);
        let before = loss(&d, &w, k);
        adam(&d, &mut w, k, &s, |_, _| {});
        assert!(loss(&d, &w, k) < before, "the square tables still learn");
        let start = start();
        for p in 0..N_PARAMS {
            if !trainable[p] {
                assert_eq!(w[p], start[p], "parameter {p} moved");
            }
        }
        assert!(super::super::features::trainable(&["king".into()]).is_err());
    }

    #[test]
    fn a_fit_keeping_the_means_moves_cells_apart_but_not_a_rows_weighted_mean() {
        let d = synthetic();
        let mut w = start();
        let groups = ["pst".to_string()];
        let trainable = super::super::features::trainable(&groups).unwrap();
        let rows = super::super::features::rows_of(&groups).unwrap();
        let s = fifty_epochs(trainable, rows.clone());
        let k = fit_k(&d, &w);
        let before = loss(&d, &w, k);
        adam(&d, &mut w, k, &s, |_, _| {});
        assert!(loss(&d, &w, k) < before, "the square tables still learn");
        let start = start();
        let u = usage(&d);
        let knights = 2 * Term::Pst.index(1, 0)..2 * Term::Pst.index(2, 0);
        let moved: f64 = knights.map(|p| (w[p] - start[p]).abs()).sum();
        assert!(moved > 1.0, "the knights' squares were fitted");
        for row in &rows {
            for ph in 0..2 {
                let drift: f64 = row
                    .iter()
                    .map(|&t| u[2 * t + ph] * (w[2 * t + ph] - start[2 * t + ph]))
                    .sum();
                assert!(drift.abs() < 1e-6, "a row's weighted mean moved by {drift}");
            }
        }
        assert!(super::super::features::rows_of(&["queens".into()]).is_err());
    }
}
