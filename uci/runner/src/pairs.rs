//! Game pairs for drivers other than `mach match` (`mach spsa`): a worker's
//! two engines kept across pairs, their options set again before each pair,
//! and each opening played twice with colours reversed, by `mach match`'s
//! own game loop, clock, rules and adjudication.

use super::adjudicate::Adjudication;
use super::engine_proc::{self, EngineProc, EngineSpec};
use super::types::{Control, GameResult, Opening};
use super::{interrupt, play_one};

/// Catches Ctrl-C and SIGTERM (they kill the engines, as in `mach match`)
/// and makes the runner the reaper of what the engines leave behind. Call
/// once, before the first engine starts.
pub fn begin() {
    interrupt::install();
    engine_proc::adopt_orphans();
}

/// Whether Ctrl-C or SIGTERM arrived: a pair under way then is lost.
pub fn interrupted() -> bool {
    interrupt::requested()
}

/// Ends what the engines left running; call after the last player is dropped.
pub fn end() {
    engine_proc::kill_orphans();
}

/// The names in `names` that the engine of `spec` does not declare as
/// options (it is started once for this, with the options of `spec`).
pub fn undeclared(spec: &EngineSpec, names: &[&str]) -> Result<Vec<String>, String> {
    let e = EngineProc::start(spec).map_err(|e| format!("{}: {e}", spec.name))?;
    Ok(names
        .iter()
        .filter(|n| !e.declares(n))
        .map(|n| n.to_string())
        .collect())
}

/// One worker's two engines, started on first use and kept across pairs
/// (an engine that failed is started again for the next game).
#[derive(Default)]
pub struct PairPlayer {
    procs: [Option<EngineProc>; 2],
}

impl PairPlayer {
    /// Sets every option of `specs[i]` on engine `i` (an engine started
    /// now gets them at its start), then plays `opening` twice: engine 0
    /// has White in the first game, Black in the second. Returns engine 0's
    /// wins less its losses over the two games (-2 to 2), or `None` when
    /// the pair was cut short by Ctrl-C/SIGTERM.
    pub fn play(
        &mut self,
        specs: &[EngineSpec; 2],
        opening: &Opening,
        control: Control,
        rules: Adjudication,
    ) -> Option<i32> {
        for (p, spec) in self.procs.iter_mut().zip(specs.iter()) {
            let ok = match p.as_mut() {
                Some(e) => spec
                    .options
                    .iter()
                    .try_for_each(|(name, value)| {
                        e.send(&format!("setoption name {name} value {value}"))
                    })
                    .and_then(|_| e.ready())
                    .is_ok(),
                None => true,
            };
            if !ok {
                *p = None;
            }
        }
        let mut sum = 0;
        for second in [false, true] {
            let played = play_one(&mut self.procs, specs, opening, second, control, rules);
            if interrupt::requested() {
                return None;
            }
            sum += match (played.result, second) {
                (GameResult::Draw, _) => 0,
                (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => 1,
                _ => -1,
            };
        }
        Some(sum)
    }
}
