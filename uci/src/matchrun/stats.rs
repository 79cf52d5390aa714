//! Match statistics: Elo difference with a 95% interval, likelihood of
//! superiority, pentanomial counts over game pairs, and the sequential
//! probability ratio test (normal approximation, as fishtest does).

/// Expected score of a player `elo` points stronger.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score in (0, 1).
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// Half-width of the 95% interval of the Elo difference (trinomial).
    pub fn elo_error(&self) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 {
            return f64::INFINITY;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let dev = 1.959_964 * (var / n).sqrt();
        (elo_of_score(s + dev) - elo_of_score(s - dev)) / 2.0
    }

    /// Likelihood of superiority: P(the first player is stronger).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if self.wins == self.losses {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }
}

/// Game pairs (same opening, colours reversed) by the first player's total
/// score in the pair: 0, 0.5, 1, 1.5, 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair from the first player's points in its two games.
    pub fn add(&mut self, a: f64, b: f64) {
        let i = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// Mean and variance of the pair score scaled to [0, 1].
    pub fn mean_var(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = self
            .0
            .iter()
            .zip(xs)
            .map(|(&c, x)| c as f64 * x)
            .sum::<f64>()
            / n;
        let var = self
            .0
            .iter()
            .zip(xs)
            .map(|(&c, x)| c as f64 * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }
}

/// SPRT of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    H0,
    H1,
    Continue,
}

impl Sprt {
    /// (lower bound, upper bound) of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio from pentanomial counts (normal approximation).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let (mean, var) = p.mean_var();
        if var <= 0.0 || p.pairs() == 0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        p.pairs() as f64 * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, p: &Pentanomial) -> Verdict {
        let llr = self.llr(p);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert!((elo_of_score(0.6) - 70.437).abs() < 0.01);
        assert!((elo_of_score(0.5)).abs() < 1e-9);
        assert!((score_of_elo(70.437) - 0.6).abs() < 1e-4);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 1e-6);
        let w = Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        assert!((w.elo() - 70.437).abs() < 0.01);
        // LOS of 60-40 without draws: Phi(20 / sqrt(100)) = Phi(2) = 0.97725.
        assert!((w.los() - 0.977_25).abs() < 1e-4);
        // Even score: 0 Elo, 50% LOS.
        let even = Wdl {
            wins: 10,
            draws: 20,
            losses: 10,
        };
        assert_eq!(even.elo(), 0.0);
        assert_eq!(even.los(), 0.5);
        assert!((even.draw_ratio() - 0.5).abs() < 1e-12);
        // 95% interval: s = 0.6, var per game = 0.24, n = 100 -> sd 0.049.
        let e = w.elo_error();
        let expect =
            (elo_of_score(0.6 + 1.959_964 * 0.049) - elo_of_score(0.6 - 1.959_964 * 0.049)) / 2.0;
        assert!((e - expect).abs() < 0.5, "{e} vs {expect}");
    }

    #[test]
    fn pentanomial_variance_and_sprt() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0); // 2 points
        p.add(0.5, 0.5); // 1
        p.add(1.0, 0.0); // 1
        p.add(0.0, 0.5); // 0.5
        assert_eq!(p.0, [0, 1, 2, 0, 1]);
        let (mean, var) = p.mean_var();
        // Pair scores 1, 0.5, 0.5, 0.25 -> mean 0.5625, variance 0.0742.
        assert!((mean - 0.5625).abs() < 1e-12);
        assert!((var - 0.074_218_75).abs() < 1e-12);
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
        // A big, clear edge accepts H1; a clear deficit accepts H0.
        let strong = Pentanomial([10, 50, 300, 500, 140]);
        assert_eq!(sprt.verdict(&strong), Verdict::H1);
        let weak = Pentanomial([140, 500, 300, 50, 10]);
        assert_eq!(sprt.verdict(&weak), Verdict::H0);
        assert_eq!(
            sprt.verdict(&Pentanomial([0, 1, 1, 1, 0])),
            Verdict::Continue
        );
    }
}
