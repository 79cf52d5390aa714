//! Limited strength (`UCI_LimitStrength`/`UCI_Elo`): a person picks an Elo,
//! the search gets a node budget per move and noise on its evaluation.
//! Both are interpolated between points measured against Stockfish's own
//! limited levels (docs/measurements.md, the strength scale), so the scale is
//! Stockfish 15.1's `UCI_Elo` (measured at 5+0.05; both sides' play there
//! hardly depends on the clock). A limited search runs on one thread, so
//! its budget is exact whatever `Threads` says.

/// How a limited search is weakened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Nodes per move at most, except that depth 1 completes (unless it
    /// takes more than `FIRST_ITERATION_NODES`, 100,000, which only a
    /// position whose captures explode does; the clock still applies).
    pub nodes: u64,
    /// Each static evaluation is off by up to this many centipawns, drawn
    /// from the position and `seed`.
    pub noise: i32,
    /// Mixed into the noise: a new value for each search varies the play
    /// between games; a fixed one repeats it.
    pub seed: u64,
}

/// `(Elo, nodes per move, evaluation noise)`, strongest last, on the scale
/// of Stockfish 15.1's `UCI_Elo` (docs/measurements.md, the strength scale).
/// From 73 to 195,000 nodes: the weighted least-squares line through eight
/// node budgets (64 to 262,144) played against Stockfish's levels, 70 Elo
/// per doubling. Below: 32 nodes with up to 300 cp of noise scored -275 ±
/// 61 Elo against 96 nodes (1,378 on the line) in 100 games: 1,100.
const POINTS: &[(u32, u64, i32)] = &[(1100, 32, 300), (1350, 73, 0), (2150, 195_000, 0)];

/// Weakest Elo offered.
pub const MIN_ELO: u32 = POINTS[0].0;
/// Strongest Elo offered.
pub const MAX_ELO: u32 = POINTS[POINTS.len() - 1].0;

impl Strength {
    /// The weakening for `elo` (clamped to `MIN_ELO..=MAX_ELO`): nodes
    /// interpolated on a log scale, noise linearly, between measured points.
    pub fn for_elo(elo: u32) -> Strength {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let i = POINTS
            .windows(2)
            .position(|w| elo <= w[1].0)
            .unwrap_or(POINTS.len() - 2);
        let ((e0, n0, z0), (e1, n1, z1)) = (POINTS[i], POINTS[i + 1]);
        let t = (elo - e0) as f64 / (e1 - e0) as f64;
        let nodes = ((n0 as f64).ln() + t * ((n1 as f64).ln() - (n0 as f64).ln())).exp();
        let noise = z0 as f64 + t * (z1 - z0) as f64;
        Strength {
            nodes: nodes.round() as u64,
            noise: noise.round() as i32,
            seed: 0,
        }
    }
}

/// The evaluation noise for a position with Zobrist key `key` (mixed with a
/// per-search seed by the caller): uniform in `-amplitude..=amplitude`, the
/// same for the same key, so the search stays consistent with its table.
pub fn noise(key: u64, amplitude: i32) -> i32 {
    if amplitude <= 0 {
        return 0;
    }
    let span = 2 * amplitude as u64 + 1;
    (splitmix64(key) % span) as i32 - amplitude
}

/// SplitMix64's step: 64 well-mixed bits from `x` (neighbouring inputs give
/// unrelated outputs). Also the step of `mach tune`'s seeded generator.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_measured_points_are_met_exactly_and_the_ends_are_clamped() {
        for &(elo, nodes, noise) in POINTS {
            let seed = 0;
            assert_eq!(Strength::for_elo(elo), Strength { nodes, noise, seed });
        }
        assert_eq!(Strength::for_elo(0), Strength::for_elo(MIN_ELO));
        assert_eq!(Strength::for_elo(9999), Strength::for_elo(MAX_ELO));
    }

    #[test]
    fn a_higher_elo_never_gets_fewer_nodes_or_more_noise() {
        let mut last = Strength::for_elo(MIN_ELO);
        for elo in MIN_ELO..=MAX_ELO {
            let s = Strength::for_elo(elo);
            assert!(
                s.nodes >= last.nodes && s.noise <= last.noise,
                "{elo}: {s:?}"
            );
            last = s;
        }
        assert!(Strength::for_elo(MIN_ELO).nodes < Strength::for_elo(MAX_ELO).nodes);
    }

    #[test]
    fn noise_stays_in_its_range_is_repeatable_and_spreads() {
        let values: Vec<i32> = (0..10_000u64).map(|k| noise(k, 50)).collect();
        assert!(values.iter().all(|v| (-50..=50).contains(v)));
        assert_eq!(
            values,
            (0..10_000u64).map(|k| noise(k, 50)).collect::<Vec<_>>()
        );
        let mean = values.iter().map(|&v| v as f64).sum::<f64>() / values.len() as f64;
        assert!(mean.abs() < 3.0, "{mean}");
        assert!(values.iter().any(|&v| v > 45) && values.iter().any(|&v| v < -45));
        assert_eq!(noise(12345, 0), 0);
    }

    fn search_with(strength: Option<Strength>, limits: &crate::Limits) -> crate::SearchResult {
        search_threads(strength, limits, 1)
    }

    fn search_threads(
        strength: Option<Strength>,
        limits: &crate::Limits,
        threads: usize,
    ) -> crate::SearchResult {
        let mut engine = crate::Engine::new(8, threads);
        let control =
            std::sync::Arc::new(crate::SearchControl::new(false, std::time::Instant::now()));
        let options = crate::SearchOptions {
            strength,
            ..crate::SearchOptions::default()
        };
        let root = shakmaty::Chess::default();
        engine.search(&root, &[], limits, &options, &control, &crate::Silent)
    }

    #[test]
    fn a_limited_search_keeps_to_its_node_budget_on_a_long_clock() {
        let clock = crate::Limits {
            wtime: Some(600_000),
            btime: Some(600_000),
            ..crate::Limits::default()
        };
        let weak = Strength::for_elo(MIN_ELO);
        let r = search_with(Some(weak), &clock);
        assert!(r.best.is_some());
        assert!(
            r.nodes <= weak.nodes.max(100),
            "{} > {}",
            r.nodes,
            weak.nodes
        );
        let budget = Strength {
            nodes: 3_000,
            noise: 0,
            seed: 0,
        };
        let r = search_with(Some(budget), &clock);
        assert!(r.nodes > 1_000 && r.nodes <= 3_000, "{}", r.nodes);
        // A `go nodes` below the budget wins.
        let r = search_with(Some(budget), &crate::Limits::nodes(500));
        assert!(r.nodes <= 500, "{}", r.nodes);
        // More threads do not stretch it: a limited search runs on one.
        let r = search_threads(Some(budget), &clock, 4);
        assert!(r.nodes > 1_000 && r.nodes <= 3_000, "{}", r.nodes);
    }

    #[test]
    fn evaluation_noise_changes_the_search_and_is_repeatable() {
        let depth = crate::Limits::depth(4);
        let exact = search_with(
            Some(Strength {
                nodes: u64::MAX,
                noise: 0,
                seed: 0,
            }),
            &depth,
        );
        let plain = search_with(None, &depth);
        assert_eq!((exact.score, exact.nodes), (plain.score, plain.nodes));
        let noisy = Strength {
            nodes: u64::MAX,
            noise: 200,
            seed: 7,
        };
        let a = search_with(Some(noisy), &depth);
        let b = search_with(Some(noisy), &depth);
        assert_eq!((a.score, a.nodes, a.best), (b.score, b.nodes, b.best));
        assert_ne!((a.score, a.nodes), (plain.score, plain.nodes));
        // Another seed, other noise: games at a limited strength vary.
        let other = search_with(Some(Strength { seed: 8, ..noisy }), &depth);
        assert_ne!((a.score, a.nodes), (other.score, other.nodes));
    }
}
