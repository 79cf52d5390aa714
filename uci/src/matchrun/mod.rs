//! `mach match`: engine matches in the style of cutechess-cli and fastchess.
//! Every opening is played twice with colours reversed; the runner keeps
//! the clocks; games end by rule, by failure, or (when asked) by resign and
//! draw adjudication; results go to a live progress bar, a summary with Elo,
//! LOS, pentanomial counts and SPRT, and a PGN file.

mod adjudicate;
mod engine_proc;
mod game;
mod openings;
mod pgn;
pub mod stats;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Color;

use adjudicate::Adjudication;
use engine_proc::{EngineProc, EngineSpec};
use game::{Control, GameResult};
use openings::{Format, Opening};
use stats::{Pentanomial, Sprt, Verdict, Wdl};

use crate::paths;

#[derive(clap::Args)]
pub struct Args {
    /// An engine: cmd=PATH [name=NAME] [arg=ARG ...] [option.NAME=VALUE ...]. Give it twice;
    /// each engine starts with its cmd=.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// Openings file (default: startpos; with --advice-vs-none the named ECO openings).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Openings format (default: from the file name).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Play the openings in file order instead of a seeded random order.
    #[arg(long)]
    sequential: bool,
    /// Games in all (rounded up to pairs).
    #[arg(long, conflicts_with = "rounds")]
    games: Option<u32>,
    /// Game pairs in all.
    #[arg(long)]
    rounds: Option<u32>,
    /// Time control BASE+INC in seconds, e.g. 10+0.1 (the default).
    #[arg(long, conflicts_with_all = ["nodes", "depth", "movetime"])]
    tc: Option<String>,
    /// Nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds per move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Write the games here.
    #[arg(long)]
    pgnout: Option<PathBuf>,
    /// SPRT: elo0=0 elo1=5 alpha=0.05 beta=0.05 (stops when decided).
    #[arg(long, num_args = 4, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// End decided games early. Alone: resign at 600 cp for 3 moves each, draw within
    /// 10 cp for 8 moves each from move 40. Or: resign, draw, resign_moves=N,
    /// resign_score=CP, draw_from=N, draw_moves=N, draw_score=CP.
    #[arg(long, num_args = 0.., value_name = "RULE")]
    adjudicate: Option<Vec<String>>,
    /// Seed for the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mach with the advisor against Mach without it, on the default database.
    #[arg(long)]
    advice_vs_none: bool,
    /// Shared data directory (default: $MACH_SHARED, else ../shared).
    #[arg(long)]
    shared: Option<PathBuf>,
}

fn parse_engine(words: &[String]) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec {
        cmd: String::new(),
        args: Vec::new(),
        name: String::new(),
        options: Vec::new(),
    };
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--engine takes KEY=VALUE, not '{w}'"))?;
        match k {
            "cmd" => spec.cmd = v.to_string(),
            "name" => spec.name = v.to_string(),
            "arg" => spec.args.push(v.to_string()),
            k if k.starts_with("option.") => spec
                .options
                .push((k["option.".len()..].to_string(), v.to_string())),
            _ => {
                return Err(format!(
                    "unknown --engine key '{k}' (cmd, name, arg, option.NAME)"
                ))
            }
        }
    }
    if spec.cmd.is_empty() {
        return Err("--engine needs cmd=PATH".into());
    }
    if spec.name.is_empty() {
        spec.name = spec.cmd.rsplit('/').next().unwrap_or(&spec.cmd).to_string();
    }
    Ok(spec)
}

fn control(a: &Args) -> Result<Control, String> {
    if let Some(n) = a.nodes {
        return Ok(Control::Nodes(n));
    }
    if let Some(d) = a.depth {
        return Ok(Control::Depth(d));
    }
    if let Some(ms) = a.movetime {
        return Ok(Control::MoveTime(ms));
    }
    let tc = a.tc.as_deref().unwrap_or("10+0.1");
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let secs = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("bad --tc '{tc}': use BASE+INC in seconds"))
    };
    let (base, inc) = (secs(base)?, secs(inc)?);
    if base <= 0.0 || inc < 0.0 {
        return Err(format!("bad --tc '{tc}'"));
    }
    Ok(Control::Clock {
        base_ms: (base * 1000.0) as u64,
        inc_ms: (inc * 1000.0) as u64,
    })
}

fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--sprt takes KEY=VALUE, not '{w}'"))?;
        let v: f64 = v.parse().map_err(|_| format!("--sprt {k}: not a number"))?;
        match k {
            "elo0" => s.elo0 = v,
            "elo1" => s.elo1 = v,
            "alpha" => s.alpha = v,
            "beta" => s.beta = v,
            _ => return Err(format!("unknown --sprt key '{k}'")),
        }
    }
    Ok(s)
}

fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..v.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.swap(i, (s % (i as u64 + 1)) as usize);
    }
}

/// Everything the workers report.
#[derive(Default)]
struct Tally {
    /// From the first engine's point of view.
    wdl: Wdl,
    penta: Pentanomial,
    /// First engine's points in the first game of each unfinished pair.
    half_pairs: std::collections::HashMap<usize, f64>,
    terminations: std::collections::BTreeMap<String, u32>,
    pgn: Vec<(usize, String)>,
}

pub fn run(a: &Args) -> Result<(), String> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for w in &a.engine {
        if w.starts_with("cmd=") || groups.is_empty() {
            groups.push(Vec::new());
        }
        groups.last_mut().expect("pushed").push(w.clone());
    }
    let mut specs: Vec<EngineSpec> = groups
        .iter()
        .map(|w| parse_engine(w))
        .collect::<Result<_, _>>()?;
    let control = control(a)?;
    let sprt = a.sprt.as_deref().map(parse_sprt).transpose()?;
    let rules = a
        .adjudicate
        .as_deref()
        .map(Adjudication::parse)
        .transpose()?
        .unwrap_or_default();
    let mut openings_path = a.openings.clone();
    if a.advice_vs_none {
        let shared = paths::shared_dir(a.shared.as_deref())?;
        let index = paths::default_index_dir();
        // Missing, from an older Mach, or damaged: (re)build it.
        if let Err(e) = mach_advisor::AdvisorIndex::open(&index) {
            eprintln!("building the default index at {} ({e})...", index.display());
            let opts = mach_advisor::build::BuildOptions {
                inputs: vec![shared.join(paths::DEFAULT_DATABASE)],
                out: index.clone(),
                ..Default::default()
            };
            mach_advisor::build::build(&opts, &Default::default()).map_err(|e| e.to_string())?;
        }
        let exe = std::env::current_exe()
            .map_err(|e| e.to_string())?
            .display()
            .to_string();
        specs = vec![
            EngineSpec {
                cmd: exe.clone(),
                args: Vec::new(),
                name: "Mach+advice".into(),
                options: vec![
                    ("Advisor".into(), "true".into()),
                    ("AdvisorIndex".into(), index.display().to_string()),
                ],
            },
            EngineSpec {
                cmd: exe,
                args: Vec::new(),
                name: "Mach".into(),
                options: vec![("Advisor".into(), "false".into())],
            },
        ];
        if openings_path.is_none() {
            openings_path = Some(shared.join("openings/eco/b.tsv"));
        }
    }
    if specs.len() != 2 {
        return Err("give two engines (--engine cmd=... twice), or --advice-vs-none".into());
    }
    let mut book: Vec<Opening> = match &openings_path {
        Some(p) => {
            let f = a
                .format
                .or_else(|| Format::guess(p))
                .ok_or("give --format epd|pgn|tsv")?;
            openings::load(p, f)?
        }
        None => vec![Opening {
            name: "start position".into(),
            start: Default::default(),
            fen: None,
            moves: Vec::new(),
        }],
    };
    if !a.sequential {
        shuffle(&mut book, a.seed);
    }
    let pairs = match (a.games, a.rounds) {
        (Some(g), _) => g.div_ceil(2) as usize,
        (None, Some(r)) => r as usize,
        (None, None) => 10,
    };
    // Both engines must start at all; later failures only lose games.
    for s in &specs {
        EngineProc::start(s).map_err(|e| format!("{}: {e}", s.name))?;
    }

    let bar = ProgressBar::new(2 * pairs as u64);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let tally = Mutex::new(Tally::default());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..a.concurrency.max(1) {
            s.spawn(|| {
                let mut procs: [Option<EngineProc>; 2] = [None, None];
                loop {
                    let job = next.fetch_add(1, Ordering::SeqCst);
                    if job >= 2 * pairs || stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let (pair, second) = (job / 2, job % 2 == 1);
                    let opening = &book[pair % book.len()];
                    for (i, p) in procs.iter_mut().enumerate() {
                        if p.is_none() {
                            *p = EngineProc::start(&specs[i]).ok();
                        }
                    }
                    // Game 1 of a pair: engine 0 white; game 2: engine 1 white.
                    let (wi, bi) = if second { (1, 0) } else { (0, 1) };
                    let (played, failed_idx) = match procs {
                        [Some(ref mut e0), Some(ref mut e1)] => {
                            let (w, b) = if second { (e1, e0) } else { (e0, e1) };
                            let p = game::play(w, b, opening, control, rules);
                            let f = p.failed.map(|c| if c == Color::White { wi } else { bi });
                            (p, f)
                        }
                        _ => {
                            // An engine would not restart: it forfeits.
                            let dead = if procs[0].is_none() { 0 } else { 1 };
                            let loser = if dead == wi {
                                Color::White
                            } else {
                                Color::Black
                            };
                            let p = game::Played {
                                result: if loser == Color::White {
                                    GameResult::BlackWins
                                } else {
                                    GameResult::WhiteWins
                                },
                                termination: "abandoned".into(),
                                detail: "engine would not start".into(),
                                start: opening.start.clone(),
                                start_fen: opening.fen.clone(),
                                moves: opening.moves.clone(),
                                failed: Some(loser),
                            };
                            (p, Some(dead))
                        }
                    };
                    if let Some(i) = failed_idx {
                        procs[i] = None; // restarted for the next game
                    }
                    let first_points = match (&played.result, second) {
                        (GameResult::Draw, _) => 0.5,
                        (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => 1.0,
                        _ => 0.0,
                    };
                    let text = pgn::game(
                        &played,
                        &specs[wi].name,
                        &specs[bi].name,
                        &format!("{}.{}", pair + 1, job % 2 + 1),
                        &opening.name,
                        &control.tag(),
                    );
                    let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
                    match (&played.result, second) {
                        (GameResult::Draw, _) => t.wdl.draws += 1,
                        (GameResult::WhiteWins, false) | (GameResult::BlackWins, true) => {
                            t.wdl.wins += 1
                        }
                        _ => t.wdl.losses += 1,
                    }
                    *t.terminations
                        .entry(format!("{} ({})", played.termination, played.detail))
                        .or_default() += 1;
                    t.pgn.push((job, text));
                    if let Some(other) = t.half_pairs.remove(&pair) {
                        t.penta.add(other, first_points);
                        if let Some(s) = sprt {
                            if s.verdict(&t.penta) != Verdict::Continue {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    } else {
                        t.half_pairs.insert(pair, first_points);
                    }
                    let w = t.wdl;
                    drop(t);
                    let score = format!(
                        "{} vs {}: +{} ={} -{}  {:+.1} Elo",
                        specs[0].name,
                        specs[1].name,
                        w.wins,
                        w.draws,
                        w.losses,
                        w.elo()
                    );
                    if bar.is_hidden() {
                        // Not a terminal (a log file): one line per game instead.
                        eprintln!(
                            "game {} of {}: {} - {} {} ({}); {score}",
                            w.games(),
                            2 * pairs,
                            specs[wi].name,
                            specs[bi].name,
                            played.result.pgn(),
                            played.detail
                        );
                    }
                    bar.inc(1);
                    bar.set_message(score);
                }
            });
        }
    });
    bar.finish_and_clear();

    let mut t = tally.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = &a.pgnout {
        t.pgn.sort_by_key(|(job, _)| *job);
        let all: String = t
            .pgn
            .iter()
            .map(|(_, g)| g.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(path, all).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let w = t.wdl;
    println!(
        "{} vs {} ({}, {} games)",
        specs[0].name,
        specs[1].name,
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
        t.penta.0, specs[0].name
    );
    if let Some(s) = sprt {
        let (lo, hi) = s.bounds();
        let verdict = match s.verdict(&t.penta) {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
            Verdict::Continue => "undecided",
        };
        println!(
            "sprt      elo0 {} elo1 {}: llr {:.2} ({:.2}, {:.2}) {verdict}",
            s.elo0,
            s.elo1,
            s.llr(&t.penta),
            lo,
            hi
        );
    }
    for (k, n) in &t.terminations {
        println!("ended     {n} x {k}");
    }
    Ok(())
}
