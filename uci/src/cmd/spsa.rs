//! `mach spsa`: tunes the search parameters of engine/src/params.rs by SPSA
//! (simultaneous perturbation stochastic approximation), as OpenBench and
//! fishtest do: each iteration moves every parameter a step `c_k` up or
//! down at random (plus) and the other way (minus), plays game pairs
//! between the two with `mach match`'s game loop, and moves the parameters
//! towards the side that won. Resumable: the state file is replaced after
//! every iteration, and the same command continues a stopped run.
//!
//! The gains are fishtest's and OpenBench's, with N iterations, k = 1..=N
//! the iteration under way, A = 0.1 N, alpha = 0.602, gamma = 0.101, and
//! each parameter's c_end (its `step` in params.rs) and r_end (`--r-end`):
//!
//! ```text
//! c   = c_end * N^gamma                  a   = r_end * c_end^2 * (A + N)^alpha
//! c_k = max(c / k^gamma, 0.5)            a_k = a / (A + k)^alpha
//! plus = round(theta + c_k * flip), minus = round(theta - c_k * flip), flip = +-1
//! theta += a_k * (W - L) * flip / c_k    (W - L: plus's wins less losses; clamped to min..=max)
//! ```
//!
//! so c_k falls to c_end and a_k / c_k^2 to r_end at the last iteration.
//! The flips of iteration k come from `--seed` and k alone, so a resumed
//! iteration perturbs as the lost one did.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use mach_engine::params::{self, Tunable};
use mach_runner::pairs::{self, PairPlayer};
use mach_runner::{Adjudication, Control, EngineSpec, Opening};

/// The learning rate decays as (A + k)^-ALPHA.
const ALPHA: f64 = 0.602;
/// The perturbation decays as k^-GAMMA.
const GAMMA: f64 = 0.101;
/// A as a share of the iterations.
const A_RATIO: f64 = 0.1;
/// The smallest perturbation of a whole-number parameter (OpenBench's).
const MIN_C: f64 = 0.5;
/// The first line of a state file.
const FORMAT: &str = "mach spsa 1";

#[derive(clap::Args)]
pub struct Args {
    /// The engine: cmd=PATH [name=NAME] [arg=ARG ...] [option.NAME=VALUE ...], built with
    /// `--features spsa` (default: this very binary). Both sides of every pair run it.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// The parameters to tune, NAME,NAME,... (default: every row of params.rs's table).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    params: Vec<String>,
    /// Iterations in all (default 1000).
    #[arg(long)]
    iterations: Option<u32>,
    /// Game pairs per iteration (default 8).
    #[arg(long, value_name = "N")]
    pairs_per_iteration: Option<u32>,
    /// The learning rate a_k / c_k^2 at the last iteration, for every parameter (default 0.002).
    #[arg(long, value_name = "R")]
    r_end: Option<f64>,
    /// Time control BASE+INC in seconds.
    #[arg(long, default_value = "8+0.08", conflicts_with = "nodes")]
    tc: String,
    /// Nodes per move instead of a clock.
    #[arg(long)]
    nodes: Option<u64>,
    /// Openings: a file, builtin:NAME or shared:REL (default: the start position).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Cut every opening to its first N plies.
    #[arg(long, value_name = "N")]
    plies: Option<usize>,
    /// Game pairs played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// End decided games early, as `mach match --adjudicate` (alone: both rules).
    #[arg(long, num_args = 0.., value_name = "RULE")]
    adjudicate: Option<Vec<String>>,
    /// Seed of the perturbations and of the opening order (default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// The run's state (JSON), replaced after every iteration; an existing one is continued.
    #[arg(long, default_value = "spsa.json", value_name = "FILE")]
    state: PathBuf,
    /// The tuned parameters as params.rs source, replaced after every iteration.
    #[arg(long, default_value = "params-spsa.rs", value_name = "FILE")]
    out: PathBuf,
    /// Replace --out even if it is not a params.rs.
    #[arg(long)]
    force: bool,
}

/// One parameter under tuning: its row and where the run has it.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    /// theta: the value the run has it at.
    pub value: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
}

/// A run: its parameters, its length and how far it got.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    pub params: Vec<Param>,
    /// N: iterations in all.
    pub iterations: u32,
    /// Iterations done; the next is `done + 1`.
    pub done: u32,
    pub pairs_per_iteration: u32,
    pub seed: u64,
    /// Wins less losses of the plus side over the iterations done.
    pub score: i64,
}

impl Spsa {
    /// A new run of `tunables` from their defaults.
    pub fn new(
        tunables: &[&Tunable],
        iterations: u32,
        pairs_per_iteration: u32,
        r_end: f64,
        seed: u64,
    ) -> Spsa {
        let params = tunables
            .iter()
            .map(|t| Param {
                name: t.name.to_string(),
                start: t.default as f64,
                value: t.default as f64,
                min: t.min as f64,
                max: t.max as f64,
                c_end: t.step,
                r_end,
            })
            .collect();
        Spsa {
            params,
            iterations,
            done: 0,
            pairs_per_iteration,
            seed,
            score: 0,
        }
    }

    /// (c_k, a_k) of `p` in the next iteration (k = done + 1).
    pub fn gains(&self, p: &Param) -> (f64, f64) {
        let n = self.iterations as f64;
        let k = (self.done + 1) as f64;
        let big_a = A_RATIO * n;
        let c = p.c_end * n.powf(GAMMA);
        let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA);
        ((c / k.powf(GAMMA)).max(MIN_C), a / (big_a + k).powf(ALPHA))
    }

    /// The flips (+1 or -1, one per parameter) of the next iteration: from
    /// the seed and the iteration's number alone.
    pub fn flips(&self) -> Vec<f64> {
        let mut s = self.seed ^ u64::from(self.done + 1).wrapping_mul(0xA076_1D64_78BD_642F);
        self.params
            .iter()
            .map(|_| {
                s = splitmix64(s);
                if s >> 63 == 1 {
                    1.0
                } else {
                    -1.0
                }
            })
            .collect()
    }

    /// The values of the plus and the minus side of the next iteration.
    pub fn sides(&self) -> [Vec<i32>; 2] {
        let flips = self.flips();
        let side = |sign: f64| -> Vec<i32> {
            self.params
                .iter()
                .zip(&flips)
                .map(|(p, f)| {
                    let (c_k, _) = self.gains(p);
                    (p.value + sign * c_k * f).round().clamp(p.min, p.max) as i32
                })
                .collect()
        };
        [side(1.0), side(-1.0)]
    }

    /// Takes the result of the next iteration (plus's wins less losses)
    /// into the parameters: the SPSA step.
    pub fn step(&mut self, result: i32) {
        let flips = self.flips();
        let gains: Vec<(f64, f64)> = self.params.iter().map(|p| self.gains(p)).collect();
        for ((p, f), (c_k, a_k)) in self.params.iter_mut().zip(&flips).zip(gains) {
            p.value = (p.value + a_k * result as f64 * f / c_k).clamp(p.min, p.max);
        }
        self.done += 1;
        self.score += i64::from(result);
    }

    /// The parameters at the run's values, rounded: what params.rs gets.
    pub fn values(&self) -> Vec<(&str, i32)> {
        self.params
            .iter()
            .map(|p| (p.name.as_str(), p.value.round() as i32))
            .collect()
    }

    /// The state as JSON.
    pub fn to_json(&self) -> Value {
        let params: Vec<Value> = self
            .params
            .iter()
            .map(|p| {
                json!({
                    "name": p.name,
                    "start": p.start,
                    "value": p.value,
                    "min": p.min,
                    "max": p.max,
                    "c_end": p.c_end,
                    "r_end": p.r_end,
                })
            })
            .collect();
        json!({
            "format": FORMAT,
            "iterations": self.iterations,
            "done": self.done,
            "pairs_per_iteration": self.pairs_per_iteration,
            "seed": self.seed,
            "score": self.score,
            "params": params,
        })
    }

    /// A state from its JSON.
    pub fn from_json(v: &Value) -> Result<Spsa, String> {
        if v["format"].as_str() != Some(FORMAT) {
            return Err(format!(
                "not a state of `mach spsa` (no \"format\": \"{FORMAT}\")"
            ));
        }
        let whole = |v: &Value, key: &str| -> Result<u64, String> {
            v[key]
                .as_u64()
                .ok_or_else(|| format!("\"{key}\" is not a whole number"))
        };
        let small = |v: &Value, key: &str| -> Result<u32, String> {
            u32::try_from(whole(v, key)?).map_err(|_| format!("\"{key}\" is too large"))
        };
        let number = |v: &Value, key: &str| -> Result<f64, String> {
            v[key]
                .as_f64()
                .ok_or_else(|| format!("\"{key}\" is not a number"))
        };
        let params = v["params"]
            .as_array()
            .ok_or("\"params\" is not a list")?
            .iter()
            .map(|p| -> Result<Param, String> {
                Ok(Param {
                    name: p["name"]
                        .as_str()
                        .ok_or("a parameter has no \"name\"")?
                        .to_string(),
                    start: number(p, "start")?,
                    value: number(p, "value")?,
                    min: number(p, "min")?,
                    max: number(p, "max")?,
                    c_end: number(p, "c_end")?,
                    r_end: number(p, "r_end")?,
                })
            })
            .collect::<Result<Vec<Param>, String>>()?;
        let s = Spsa {
            params,
            iterations: small(v, "iterations")?,
            done: small(v, "done")?,
            pairs_per_iteration: small(v, "pairs_per_iteration")?,
            seed: whole(v, "seed")?,
            score: v["score"]
                .as_i64()
                .ok_or("\"score\" is not a whole number")?,
        };
        // Written so that NaN fails too.
        let sane = |p: &Param| p.min <= p.max && p.c_end > 0.0 && p.r_end > 0.0;
        if s.iterations == 0
            || s.done > s.iterations
            || s.params.is_empty()
            || !s.params.iter().all(sane)
        {
            return Err("its iterations, or its parameters, make no run".into());
        }
        Ok(s)
    }

    /// Replaces the state file (through a temporary beside it, renamed).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(&self.to_json()).map_err(|e| e.to_string())?;
        mach_files::outfile::replace(path, |f| {
            f.write_all(text.as_bytes())?;
            f.write_all(b"\n")
        })
    }

    /// The state in a file; `None` if there is no such file.
    pub fn load(path: &Path) -> Result<Option<Spsa>, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| format!("--state {}: {e}: not replaced", path.display()))?;
        Spsa::from_json(&v)
            .map(Some)
            .map_err(|e| format!("--state {}: {e}: not replaced", path.display()))
    }
}

/// SplitMix64: one step of a small, well-mixed generator.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Whether a file is a params.rs (ours to replace without --force).
fn is_params_source(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|t| t.starts_with("//! Every search parameter"))
}

/// The tunables named by `--params` (all of them when none is named).
fn chosen(names: &[String]) -> Result<Vec<&'static Tunable>, String> {
    if names.is_empty() {
        return Ok(params::TUNABLES.iter().collect());
    }
    let mut out: Vec<&'static Tunable> = Vec::new();
    for n in names {
        let t = params::tunable(n)
            .ok_or_else(|| format!("--params: no search parameter '{n}' in params.rs's table"))?;
        if !out.iter().any(|o| o.name == t.name) {
            out.push(t);
        }
    }
    Ok(out)
}

/// The run to play: the state file's if there is one (and the arguments
/// agree with it), else a new one.
fn the_run(a: &Args) -> Result<Spsa, String> {
    let tunables = chosen(&a.params)?;
    let Some(s) = Spsa::load(&a.state)? else {
        let iterations = a.iterations.unwrap_or(1000);
        let pairs = a.pairs_per_iteration.unwrap_or(8);
        let r_end = a.r_end.unwrap_or(0.002);
        if iterations == 0 || pairs == 0 || r_end.is_nan() || r_end <= 0.0 {
            return Err("--iterations, --pairs-per-iteration and --r-end must be above 0".into());
        }
        return Ok(Spsa::new(
            &tunables,
            iterations,
            pairs,
            r_end,
            a.seed.unwrap_or(1),
        ));
    };
    let differs = |what: &str| {
        format!(
            "--state {} is a run with other {what}: give its own, or another --state",
            a.state.display()
        )
    };
    if !a.params.is_empty()
        && (tunables.len() != s.params.len()
            || tunables
                .iter()
                .zip(&s.params)
                .any(|(t, p)| t.name != p.name))
    {
        return Err(differs("--params"));
    }
    if a.iterations.is_some_and(|n| n != s.iterations) {
        return Err(differs("--iterations"));
    }
    if a.pairs_per_iteration
        .is_some_and(|n| n != s.pairs_per_iteration)
    {
        return Err(differs("--pairs-per-iteration"));
    }
    if a.r_end
        .is_some_and(|r| s.params.iter().any(|p| p.r_end != r))
    {
        return Err(differs("--r-end"));
    }
    if a.seed.is_some_and(|seed| seed != s.seed) {
        return Err(differs("--seed"));
    }
    Ok(s)
}

/// The engine of one side: the base engine with the side's values set.
fn side(base: &EngineSpec, name: &str, s: &Spsa, values: &[i32]) -> EngineSpec {
    let mut spec = base.clone();
    spec.name = name.to_string();
    spec.options.extend(
        s.params
            .iter()
            .zip(values)
            .map(|(p, v)| (p.name.clone(), v.to_string())),
    );
    spec
}

/// Plays the pairs of iteration `iteration` (0-based) on the workers;
/// plus's wins less losses, or `None` when Ctrl-C/SIGTERM cut it short.
fn play_iteration(
    players: &mut [PairPlayer],
    specs: &[EngineSpec; 2],
    book: &[Opening],
    iteration: u32,
    pair_count: u32,
    control: Control,
    rules: Adjudication,
) -> Option<i32> {
    let next = AtomicUsize::new(0);
    let total = AtomicI32::new(0);
    let cut = AtomicBool::new(false);
    let (next, total, cut) = (&next, &total, &cut);
    std::thread::scope(|scope| {
        for player in players.iter_mut() {
            scope.spawn(move || loop {
                let j = next.fetch_add(1, Ordering::SeqCst);
                if j >= pair_count as usize || cut.load(Ordering::SeqCst) || pairs::interrupted() {
                    break;
                }
                let opening = &book[(iteration as usize * pair_count as usize + j) % book.len()];
                match player.play(specs, opening, control, rules) {
                    Some(r) => {
                        total.fetch_add(r, Ordering::SeqCst);
                    }
                    None => {
                        cut.store(true, Ordering::SeqCst);
                        break;
                    }
                }
            });
        }
    });
    if cut.load(Ordering::SeqCst) || pairs::interrupted() {
        return None;
    }
    Some(total.load(Ordering::SeqCst))
}

/// A duration as 1h02m03s.
fn hms(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// Writes the tuned params.rs.
fn write_out(s: &Spsa, out: &Path) -> Result<(), String> {
    let text = params::source(&s.values());
    mach_files::outfile::replace(out, |f| f.write_all(text.as_bytes()))
}

/// Prints every parameter's start and value.
fn print_values(s: &Spsa) {
    println!("{:<24} {:>8} {:>10}", "parameter", "start", "value");
    for p in &s.params {
        println!("{:<24} {:>8} {:>10.2}", p.name, p.start, p.value);
    }
}

/// Runs `mach spsa`: checks everything, then plays iteration after
/// iteration, saving the state and the params.rs after each.
pub fn run(a: &Args) -> Result<(), String> {
    mach_files::outfile::distinct(&[
        ("--state", Some(a.state.as_path())),
        ("--out", Some(a.out.as_path())),
    ])?;
    mach_files::outfile::check(&a.out, "--out", a.force, Some(is_params_source))?;
    // Any file there is read as a state below, and refused if it is none.
    mach_files::outfile::check(&a.state, "--state", true, None)?;
    let mut s = the_run(a)?;
    if s.done >= s.iterations {
        write_out(&s, &a.out)?;
        print_values(&s);
        println!(
            "the run in {} is done ({} iterations); params.rs in {}",
            a.state.display(),
            s.iterations,
            a.out.display()
        );
        return Ok(());
    }
    let control = match a.nodes {
        Some(n) => Control::Nodes(n),
        None => mach_runner::parse_tc(&a.tc)?,
    };
    let rules = Adjudication::from_arg(a.adjudicate.as_deref())?;
    let book = mach_runner::load_openings(a.openings.as_deref(), a.plies, s.seed)?;
    if book.is_empty() {
        return Err("--openings: no opening in the file".into());
    }
    let base = if a.engine.is_empty() {
        let exe = std::env::current_exe()
            .map_err(|e| format!("cannot find the mach binary itself: {e}"))?;
        EngineSpec {
            cmd: exe.display().to_string(),
            args: Vec::new(),
            name: "mach".into(),
            options: Vec::new(),
        }
    } else {
        mach_runner::parse_engine(&a.engine)?
    };

    pairs::begin();
    let names: Vec<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
    let missing = pairs::undeclared(&base, &names)?;
    if !missing.is_empty() {
        return Err(format!(
            "{} has no option {}: build it with `cargo build --release -p mach-uci --features spsa`",
            base.cmd,
            missing.join(", ")
        ));
    }
    eprintln!(
        "spsa: {} parameters, iteration {} of {}, {} pairs each, {} ({})",
        s.params.len(),
        s.done + 1,
        s.iterations,
        s.pairs_per_iteration,
        control.tag(),
        a.state.display()
    );

    let mut players: Vec<PairPlayer> = (0..a.concurrency.max(1))
        .map(|_| PairPlayer::default())
        .collect();
    let started = Instant::now();
    let first = s.done;
    let mut failed = None;
    while s.done < s.iterations {
        let [plus, minus] = s.sides();
        let specs = [
            side(&base, "plus", &s, &plus),
            side(&base, "minus", &s, &minus),
        ];
        let Some(result) = play_iteration(
            &mut players,
            &specs,
            &book,
            s.done,
            s.pairs_per_iteration,
            control,
            rules,
        ) else {
            break;
        };
        s.step(result);
        if let Err(e) = s.save(&a.state).and_then(|_| write_out(&s, &a.out)) {
            failed = Some(e);
            break;
        }
        let this = s.done - first;
        let per = started.elapsed() / this;
        eprintln!(
            "iteration {}/{}: {:+} (W-L of plus in {} pairs), total {:+}; {} so far, about {} left",
            s.done,
            s.iterations,
            result,
            s.pairs_per_iteration,
            s.score,
            hms(started.elapsed()),
            hms(per * (s.iterations - s.done))
        );
    }
    drop(players);
    pairs::end();
    if let Some(e) = failed {
        return Err(e);
    }
    print_values(&s);
    if pairs::interrupted() {
        return Err(format!(
            "interrupted: {} of {} iterations done and kept in {}; the same command continues the run",
            s.done,
            s.iterations,
            a.state.display()
        ));
    }
    println!(
        "done: {} iterations; the state in {}, params.rs in {}",
        s.iterations,
        a.state.display(),
        a.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run of one parameter, 10 in 0..=100, step 4, over 200 iterations of 8 pairs.
    fn one_parameter() -> Spsa {
        let t = Tunable {
            name: "X",
            default: 10,
            min: 0,
            max: 100,
            step: 4.0,
        };
        Spsa::new(&[&t], 200, 8, 0.002, 7)
    }

    /// The pairs' outcome if the side nearer `best` wins every game.
    fn nearer_wins(s: &Spsa, best: i32) -> i32 {
        let [plus, minus] = s.sides();
        let (p, m) = ((plus[0] - best).abs(), (minus[0] - best).abs());
        2 * s.pairs_per_iteration as i32 * (m - p).signum()
    }

    #[test]
    fn spsa_steps_toward_the_better_side_of_a_known_objective() {
        let mut s = one_parameter();
        // One step, whichever way the flip goes: towards 30.
        let before = s.params[0].value;
        let r = nearer_wins(&s, 30);
        s.step(r);
        assert!(s.params[0].value > before, "{} {r}", s.params[0].value);
        // The whole run ends near 30.
        while s.done < s.iterations {
            let r = nearer_wins(&s, 30);
            s.step(r);
        }
        let x = s.params[0].value;
        assert!((x - 30.0).abs() < 2.0, "{x}");
        assert_eq!(s.values(), [("X", x.round() as i32)]);
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end() {
        let mut s = one_parameter();
        s.done = s.iterations - 1;
        let (c_k, a_k) = s.gains(&s.params[0]);
        assert!((c_k - 4.0).abs() < 1e-9, "{c_k}");
        assert!((a_k / (c_k * c_k) - 0.002).abs() < 1e-9, "{a_k}");
        // Larger at the start.
        s.done = 0;
        let (c_1, a_1) = s.gains(&s.params[0]);
        assert!(c_1 > c_k && a_1 > a_k);
    }

    #[test]
    fn the_plus_and_minus_sides_stay_in_range() {
        let mut s = one_parameter();
        s.params[0].value = 0.0;
        let [plus, minus] = s.sides();
        assert!(plus[0] >= 0 && minus[0] >= 0);
        assert_ne!(plus, minus);
        s.step(-16);
        assert!(s.params[0].value >= 0.0);
    }

    #[test]
    fn the_state_file_round_trips_and_a_resumed_run_continues_at_its_iteration() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spsa.json");
        let tunables: Vec<&Tunable> = params::TUNABLES.iter().take(5).collect();
        let mut run = Spsa::new(&tunables, 100, 4, 0.002, 3);
        for r in [3, -2, 5] {
            run.step(r);
        }
        run.save(&path).unwrap();
        let resumed = Spsa::load(&path).unwrap().unwrap();
        assert_eq!(resumed.done, 3);
        assert_eq!(resumed.iterations, 100);
        assert_eq!(resumed.score, 6);
        assert_eq!(resumed.seed, 3);
        assert_eq!(resumed.params.len(), 5);
        for (a, b) in run.params.iter().zip(&resumed.params) {
            assert_eq!(a.name, b.name);
            assert!((a.value - b.value).abs() < 1e-9, "{} {}", a.value, b.value);
        }
        // The fourth iteration perturbs and steps as the first run's would.
        assert_eq!(resumed.flips(), run.flips());
        assert_eq!(resumed.sides(), run.sides());
        let (mut run, mut resumed) = (run, resumed);
        run.step(4);
        resumed.step(4);
        assert_eq!(resumed.done, 4);
        for (a, b) in run.params.iter().zip(&resumed.params) {
            assert!((a.value - b.value).abs() < 1e-9);
        }
        // No file: a new run; another file: refused, not replaced.
        assert_eq!(Spsa::load(&dir.path().join("none.json")).unwrap(), None);
        let other = dir.path().join("other.json");
        std::fs::write(&other, "{\"games\": 3}").unwrap();
        assert!(Spsa::load(&other).unwrap_err().contains("not a state"));
    }

    #[test]
    fn the_flips_differ_from_iteration_to_iteration() {
        let tunables: Vec<&Tunable> = params::TUNABLES.iter().collect();
        let mut s = Spsa::new(&tunables, 100, 4, 0.002, 1);
        let first = s.flips();
        assert!(first.iter().all(|f| *f == 1.0 || *f == -1.0));
        assert!(first.contains(&1.0) && first.contains(&-1.0));
        s.step(0);
        assert_ne!(s.flips(), first);
    }
}
