//! The running score of a match: each finished game counted, alone and in its pair.

use std::collections::{BTreeMap, HashMap};

use super::stats::{Pentanomial, Sprt, Verdict, Wdl};
use super::types::{GameResult, Played};

/// Everything the workers report, from the first engine's point of view.
#[derive(Default)]
pub struct Tally {
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Pairs of earlier runs of the same SPRT (`--prior`), not played here.
    pub prior: Pentanomial,
    /// First engine's points in the first finished game of each unfinished pair.
    half_pairs: HashMap<usize, f64>,
    /// Games by how they ended ("termination (detail)").
    pub terminations: BTreeMap<String, u32>,
}

impl Tally {
    /// An empty tally whose SPRT also counts `prior`, the pairs of earlier runs.
    pub fn with_prior(prior: Pentanomial) -> Tally {
        Tally {
            prior,
            ..Tally::default()
        }
    }

    /// Counts one finished game of pair `pair` (`second`: engine 1 had White).
    pub fn record(&mut self, pair: usize, second: bool, played: &Played) {
        let first_points = match (&played.result, second) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => 1.0,
            _ => 0.0,
        };
        match first_points {
            0.5 => self.wdl.draws += 1,
            1.0 => self.wdl.wins += 1,
            _ => self.wdl.losses += 1,
        }
        *self
            .terminations
            .entry(format!("{} ({})", played.termination, played.detail))
            .or_default() += 1;
        if let Some(other) = self.half_pairs.remove(&pair) {
            self.penta.add(other, first_points);
        } else {
            self.half_pairs.insert(pair, first_points);
        }
    }

    /// The pairs the SPRT goes by: this run's and the earlier runs'.
    pub fn sprt_pairs(&self) -> Pentanomial {
        self.penta + self.prior
    }

    /// Whether the SPRT (if any) has decided.
    pub fn decided(&self, sprt: Option<Sprt>) -> bool {
        sprt.is_some_and(|s| s.verdict(&self.sprt_pairs()) != Verdict::Continue)
    }

    /// One line: "A vs B: +w =d -l  +x.y Elo".
    pub fn line(&self, names: [&str; 2]) -> String {
        let w = self.wdl;
        format!(
            "{} vs {}: +{} ={} -{}  {:+.1} Elo",
            names[0],
            names[1],
            w.wins,
            w.draws,
            w.losses,
            w.elo() + 0.0 // no "-0.0"
        )
    }
}
