//! The running score of a match, and the summary printed at its end (or when
//! it is interrupted: the finished games count, the unfinished do not).

use std::collections::{BTreeMap, HashMap};

use super::adjudicate::Adjudication;
use super::stats::{Pentanomial, Sprt, Verdict, Wdl};
use super::types::{Control, GameResult, Played};

/// Everything the workers report, from the first engine's point of view.
#[derive(Default)]
pub struct Tally {
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// First engine's points in the first finished game of each unfinished pair.
    half_pairs: HashMap<usize, f64>,
    terminations: BTreeMap<String, u32>,
}

impl Tally {
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

    /// Whether the SPRT (if any) has decided.
    pub fn decided(&self, sprt: Option<Sprt>) -> bool {
        sprt.is_some_and(|s| s.verdict(&self.penta) != Verdict::Continue)
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

    /// The summary: score, Elo with its interval, LOS, draws, pairs, SPRT, endings.
    pub fn print_summary(
        &self,
        names: [&str; 2],
        control: Control,
        rules: Adjudication,
        sprt: Option<Sprt>,
    ) {
        let w = self.wdl;
        println!(
            "{} vs {} ({}, {} games)",
            names[0],
            names[1],
            control.tag(),
            w.games()
        );
        println!(
            "score     +{} ={} -{}  {:.1}%",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score()
        );
        println!(
            "elo       {:+.1} +/- {:.1} (95%)",
            w.elo() + 0.0,
            w.elo_error()
        );
        println!("los       {:.1}%", 100.0 * w.los());
        if rules != Adjudication::default() {
            println!("adjudged  {}", rules.describe());
        }
        println!("draws     {:.1}%", 100.0 * w.draw_ratio());
        println!(
            "pairs     {:?} (0, 0.5, 1, 1.5, 2 points for {})",
            self.penta.0, names[0]
        );
        if let Some(s) = sprt {
            let (lo, hi) = s.bounds();
            let verdict = match s.verdict(&self.penta) {
                Verdict::H0 => "H0 accepted",
                Verdict::H1 => "H1 accepted",
                Verdict::Continue => "undecided",
            };
            println!(
                "sprt      {} elo0 {} elo1 {}: llr {:.2} ({:.2}, {:.2}) {verdict}",
                match s.model {
                    super::stats::EloModel::Normalized => "normalized",
                    super::stats::EloModel::Logistic => "logistic",
                },
                s.elo0,
                s.elo1,
                s.llr(&self.penta),
                lo,
                hi
            );
        }
        for (k, n) in &self.terminations {
            println!("ended     {n} x {k}");
        }
    }
}
