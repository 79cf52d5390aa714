//! The summary printed when a match ends or is interrupted (finished games only).

use super::adjudicate::Adjudication;
use super::stats::{EloModel, Pentanomial, Sprt, Verdict};
use super::tally::Tally;
use super::types::Control;

/// Prints the summary: score, Elo with its interval, LOS, draws, pairs, SPRT, endings.
pub fn print(
    t: &Tally,
    names: [&str; 2],
    control: Control,
    rules: Adjudication,
    sprt: Option<Sprt>,
) {
    let w = t.wdl;
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
        t.penta.0, names[0]
    );
    if t.prior.pairs() > 0 {
        println!("prior     {}", pairs_line(&t.prior));
        println!("together  {}", pairs_line(&t.sprt_pairs()));
    }
    if let Some(s) = sprt {
        println!("sprt      {}", sprt_line(s, &t.sprt_pairs()));
    }
    for (k, n) in &t.terminations {
        println!("ended     {n} x {k}");
    }
}

/// Pair counts with their games and Elo: `[74, 257, 387, 245, 96] 2118 games
/// +5.2 +/- 11.0 Elo` (the interval from the pairs' spread).
pub fn pairs_line(p: &Pentanomial) -> String {
    format!(
        "{:?} {} games {:+.1} +/- {:.1} Elo",
        p.0,
        2 * p.pairs(),
        p.elo() + 0.0, // no "-0.0"
        p.elo_error()
    )
}

/// The SPRT's state in one line: `normalized elo0 0 elo1 20: llr -3.03
/// (-2.94, 2.94) H0 accepted` (the summary, the report page and `mach sprt`).
pub fn sprt_line(s: Sprt, penta: &Pentanomial) -> String {
    let (lo, hi) = s.bounds();
    format!(
        "{} elo0 {} elo1 {}: llr {:.2} ({lo:.2}, {hi:.2}) {}",
        match s.model {
            EloModel::Normalized => "normalized",
            EloModel::Logistic => "logistic",
        },
        s.elo0,
        s.elo1,
        s.llr(penta),
        match s.verdict(penta) {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
            Verdict::Continue => "undecided",
        }
    )
}
