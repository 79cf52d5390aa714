//! `mach match`: engine matches in the style of cutechess-cli and fastchess.
//!
//! Every opening is played twice with colours reversed; the runner keeps
//! the clocks; games end by rule, by failure, or (when asked) by resign and
//! draw adjudication; results go to a live progress bar, a summary with Elo,
//! LOS, pentanomial counts and SPRT, and a PGN file.

mod adjudicate;
mod engine_proc;
mod game;
mod interrupt;
mod openings;
pub mod pairs;
mod pgn;
mod preset;
mod reaper;
mod report;
pub mod stats;
pub mod summary;
mod tally;
mod types;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Color;

pub use adjudicate::Adjudication;
use engine_proc::EngineProc;
pub use engine_proc::EngineSpec;
use openings::Format;
use stats::{EloModel, Pentanomial, Sprt};
use tally::Tally;
pub use types::{Control, Opening};
use types::{GameResult, Played};

use mach_files as paths;

#[derive(clap::Args)]
pub struct Args {
    /// An engine: cmd=PATH [name=NAME] [arg=ARG ...] [option.NAME=VALUE ...]. Give it twice;
    /// each engine starts with its cmd=.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// Openings: a file, builtin:NAME or shared:REL, e.g. builtin:eco/b.tsv or an EPD/PGN suite of your own
    /// (default: startpos; with --advice-vs-none the built-in named openings builtin:eco/b.tsv).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Openings format (default: from the file name).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Play the openings in file order instead of a seeded random order.
    #[arg(long)]
    sequential: bool,
    /// Cut every opening to its first N plies (like cutechess-cli's plies=N), keeping
    /// each resulting line once; e.g. 6 keeps 3,633 of 8moves_v3's 34,700 lines.
    #[arg(long, value_name = "N")]
    plies: Option<usize>,
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
    /// Write a report page here (score, Elo and its interval, LOS, pairs, the Elo game by game,
    /// the games with their PGN), rewritten as each game finishes.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Replace an --html FILE that Mach did not write (a page Mach wrote is always replaced).
    #[arg(long, requires = "html")]
    force: bool,
    /// SPRT on pentanomial pairs, stopping when decided: any of elo0=0 elo1=5
    /// alpha=0.05 beta=0.05 model=normalized|logistic (those not given keep these defaults).
    #[arg(long, num_args = 0..=5, value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// With --sprt: the pairs of an earlier, stopped run of the same test, as its summary
    /// printed them (five counts, e.g. 74,257,387,245,96), added to this run's; the match
    /// stops when the two together decide.
    #[arg(long, requires = "sprt", value_name = "COUNTS")]
    prior: Option<String>,
    /// End decided games early. Alone: resign at 600 cp for 3 moves each, draw within
    /// 10 cp for 8 moves each from move 40. Or: resign, draw, resign_moves=N,
    /// resign_score=CP, draw_from=N, draw_moves=N, draw_score=CP.
    #[arg(long, num_args = 0.., value_name = "RULE")]
    adjudicate: Option<Vec<String>>,
    /// Seed for the opening order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Record every engine's input, output and stderr here, with timestamps.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Mach with the advisor against Mach without it, on the default database.
    #[arg(long)]
    advice_vs_none: bool,
}

/// One `--engine` group (`cmd=... name=... arg=... option.X=...`) as a spec.
pub fn parse_engine(words: &[String]) -> Result<EngineSpec, String> {
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

/// The time control from `--nodes`, `--depth`, `--movetime` or `--tc` (10+0.1 by default).
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
    parse_tc(a.tc.as_deref().unwrap_or("10+0.1"))
}

/// A `--tc` BASE+INC in seconds (`10+0.1`, or `60` for no increment) as a clock.
pub fn parse_tc(tc: &str) -> Result<Control, String> {
    let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
    let secs = |s: &str| {
        s.trim()
            .parse::<f64>()
            .map_err(|_| format!("bad --tc '{tc}': use BASE+INC in seconds"))
    };
    let (base, inc) = (secs(base)?, secs(inc)?);
    // Written so that NaN fails too.
    if !(base > 0.0 && base < 1e7 && (0.0..1e7).contains(&inc)) {
        return Err(format!(
            "bad --tc '{tc}': BASE must be above 0 and INC at least 0 seconds"
        ));
    }
    Ok(Control::Clock {
        base_ms: (base * 1000.0) as u64,
        inc_ms: (inc * 1000.0) as u64,
    })
}

/// The `--sprt` words over the defaults (elo0=0 elo1=5 alpha=beta=0.05, normalized).
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--sprt takes KEY=VALUE, not '{w}'"))?;
        if k == "model" {
            s.model = match v {
                "normalized" => EloModel::Normalized,
                "logistic" => EloModel::Logistic,
                _ => return Err(format!("--sprt model={v}: use normalized or logistic")),
            };
            continue;
        }
        let v: f64 = v.parse().map_err(|_| format!("--sprt {k}: not a number"))?;
        match k {
            "elo0" => s.elo0 = v,
            "elo1" => s.elo1 = v,
            "alpha" => s.alpha = v,
            "beta" => s.beta = v,
            _ => return Err(format!("unknown --sprt key '{k}'")),
        }
    }
    if s.elo0.partial_cmp(&s.elo1) != Some(std::cmp::Ordering::Less) {
        return Err("--sprt: elo0 must be below elo1".into());
    }
    if !(s.alpha > 0.0 && s.beta > 0.0 && s.alpha + s.beta < 1.0) {
        return Err("--sprt: alpha and beta must be above 0, and below 1 together".into());
    }
    Ok(s)
}

/// `--prior`: five pair counts separated by commas.
pub fn parse_prior(s: &str) -> Result<Pentanomial, String> {
    s.split(',')
        .map(|x| x.trim().parse().ok())
        .collect::<Option<Vec<u32>>>()
        .and_then(|counts| counts.try_into().ok())
        .map(Pentanomial)
        .ok_or_else(|| format!("--prior '{s}': five counts, e.g. 74,257,387,245,96"))
}

/// A seeded Fisher-Yates shuffle: the same order for the same `--seed`.
fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for i in (1..v.len()).rev() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.swap(i, (s % (i as u64 + 1)) as usize);
    }
}

/// A match ready to play: its engines, limits and openings, all checked.
struct Plan {
    specs: Vec<EngineSpec>,
    control: Control,
    sprt: Option<Sprt>,
    /// Pairs of earlier runs of the same SPRT, counted with this run's.
    prior: Pentanomial,
    rules: Adjudication,
    book: Vec<Opening>,
    /// Game pairs to play.
    pairs: usize,
}

/// Checks every argument and loads the openings, so that a mistake is
/// reported before anything slow (an index build) or visible happens.
fn plan(a: &Args) -> Result<Plan, String> {
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
    let prior = a.prior.as_deref().map(parse_prior).transpose()?;
    if let (Some(s), Some(p)) = (sprt, prior) {
        if s.verdict(&p) != stats::Verdict::Continue {
            return Err(format!(
                "--prior: those pairs have decided the SPRT already ({}): nothing to continue",
                summary::sprt_line(s, &p)
            ));
        }
    }
    let rules = Adjudication::from_arg(a.adjudicate.as_deref())?;
    let mut openings_path = a.openings.clone();
    if a.advice_vs_none {
        specs = preset::advice_vs_none_engines()?;
        if openings_path.is_none() {
            openings_path = Some(PathBuf::from(preset::ADVICE_VS_NONE_OPENINGS));
        }
    }
    if specs.len() != 2 {
        return Err("give two engines (--engine cmd=... twice), or --advice-vs-none".into());
    }
    let book = book(
        openings_path.as_deref(),
        a.format,
        a.plies,
        a.sequential,
        a.seed,
    )?;
    if a.advice_vs_none {
        // After every argument was checked: a typo must not cost an index build.
        preset::ensure_default_index()?;
    }
    let pairs = match (a.games, a.rounds) {
        (Some(g), _) => g.div_ceil(2) as usize,
        (None, Some(r)) => r as usize,
        (None, None) => 10,
    };
    Ok(Plan {
        specs,
        control,
        sprt,
        prior: prior.unwrap_or_default(),
        rules,
        book,
        pairs,
    })
}

/// The openings of a file argument (`None`: the start position), cut to
/// `plies` if given, in file order or shuffled by `seed`.
fn book(
    path: Option<&Path>,
    format: Option<Format>,
    plies: Option<usize>,
    sequential: bool,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    let mut book: Vec<Opening> = match path {
        Some(p) => {
            let source = paths::input(p)?;
            let f = format
                .or_else(|| Format::guess(&source.name()))
                .ok_or("give --format epd|pgn|tsv")?;
            openings::load(&source, f)?
        }
        None => vec![Opening {
            name: "start position".into(),
            start: Default::default(),
            fen: None,
            moves: Vec::new(),
        }],
    };
    if let Some(n) = plies {
        book = openings::cut(book, n);
    }
    if !sequential {
        shuffle(&mut book, seed);
    }
    Ok(book)
}

/// The openings as `mach match --openings PATH --plies N --seed S` plays
/// them (format from the file name), for other drivers (`mach spsa`).
pub fn load_openings(
    path: Option<&Path>,
    plies: Option<usize>,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    book(path, None, plies, false, seed)
}

/// Runs `mach match`: plays the games on `--concurrency` workers, prints the
/// summary, then reports a failed PGN file or an interruption as the error.
pub fn run(a: &Args) -> Result<(), String> {
    outputs(a)?;
    let plan = plan(a)?;
    if let Some(path) = &a.log {
        engine_proc::open_log(path)?;
    }
    // Before any engine starts: what they detach is the runner's to end.
    engine_proc::adopt_orphans();
    // Both engines must start at all; later failures only lose games.
    for s in &plan.specs {
        EngineProc::start(s).map_err(|e| format!("{}: {e}", s.name))?;
    }

    let pgn_out = a.pgnout.as_deref().map(pgn::PgnFile::open).transpose()?;
    let names = [plan.specs[0].name.as_str(), plan.specs[1].name.as_str()];
    let html = a
        .html
        .clone()
        .map(|p| report::HtmlReport::create(p, names, plan.control.tag(), 2 * plan.pairs, a.force))
        .transpose()?;

    interrupt::install();

    let live = Live {
        plan: &plan,
        names,
        pgn_out: pgn_out.as_ref(),
        html: html.as_ref(),
        bar: progress_bar(2 * plan.pairs as u64),
        tally: Mutex::new(Tally::with_prior(plan.prior)),
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        pgn_error: Mutex::new(None),
    };
    std::thread::scope(|s| {
        for _ in 0..a.concurrency.max(1) {
            s.spawn(|| live.work());
        }
    });
    live.bar.finish_and_clear();
    // Every engine has ended: what they detached and left running ends too.
    engine_proc::kill_orphans();

    let t = live.tally.into_inner().unwrap_or_else(|e| e.into_inner());
    summary::print(&t, live.names, plan.control, plan.rules, plan.sprt);
    if let (Some(h), Some(path)) = (&html, &a.html) {
        h.write(&t, plan.sprt, true)?;
        println!("report    {}", path.display());
    }
    if let Some(e) = live
        .pgn_error
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        return Err(e);
    }
    if interrupt::requested() {
        return Err(format!(
            "interrupted: the {} finished games are counted above{}",
            t.wdl.games(),
            match &a.pgnout {
                Some(p) => format!(" and kept in {}", p.display()),
                None => String::new(),
            }
        ));
    }
    Ok(())
}

/// Refuses, before anything is played or built, two files on one path
/// (the games, the page, the log and the openings they could spoil) and an
/// --html FILE that is not Mach's own page without --force.
fn outputs(a: &Args) -> Result<(), String> {
    let openings = a.openings.as_deref().filter(|p| {
        let s = p.to_string_lossy();
        !s.starts_with("builtin:") && !s.starts_with("shared:")
    });
    mach_files::outfile::distinct(&[
        ("--pgnout", a.pgnout.as_deref()),
        ("--html", a.html.as_deref()),
        ("--log", a.log.as_deref()),
        ("--openings", openings),
    ])?;
    if let Some(path) = &a.html {
        mach_pages::check_page(path, a.force)?;
    }
    Ok(())
}

/// The live progress bar of `games` games (hidden when stderr is not a terminal).
fn progress_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Which engine has White and which Black: engine 0 has White in the first
/// game of a pair, engine 1 in the second.
fn seats(second: bool) -> (usize, usize) {
    if second {
        (1, 0)
    } else {
        (0, 1)
    }
}

/// What the workers share while the match runs.
struct Live<'a> {
    plan: &'a Plan,
    names: [&'a str; 2],
    pgn_out: Option<&'a pgn::PgnFile>,
    html: Option<&'a report::HtmlReport>,
    bar: ProgressBar,
    tally: Mutex<Tally>,
    /// The next game to play: job `2 * pair + (0 or 1)`.
    next: AtomicUsize,
    /// Set when the SPRT decided or the PGN file failed: no new game starts.
    stop: AtomicBool,
    pgn_error: Mutex<Option<String>>,
}

impl Live<'_> {
    /// One worker: plays the next game with its own two engines until every
    /// game is taken, the match is stopped or the user interrupts it.
    fn work(&self) {
        let mut procs: [Option<EngineProc>; 2] = [None, None];
        loop {
            let job = self.next.fetch_add(1, Ordering::SeqCst);
            if job >= 2 * self.plan.pairs
                || self.stop.load(Ordering::SeqCst)
                || interrupt::requested()
            {
                break;
            }
            let (pair, second) = (job / 2, job % 2 == 1);
            let opening = &self.plan.book[pair % self.plan.book.len()];
            let played = play_one(
                &mut procs,
                &self.plan.specs,
                opening,
                second,
                self.plan.control,
                self.plan.rules,
            );
            if interrupt::requested() {
                // Cut short by Ctrl-C/SIGTERM (its engines were killed): not a game.
                break;
            }
            let text = self.pgn_text(job, opening, &played);
            self.save(&text);
            self.count(job, &played, text);
        }
    }

    /// Game `job` as PGN text.
    fn pgn_text(&self, job: usize, opening: &Opening, played: &Played) -> String {
        let (pair, second) = (job / 2, job % 2 == 1);
        let (wi, bi) = seats(second);
        pgn::game(
            played,
            self.names[wi],
            self.names[bi],
            &format!("{}.{}", pair + 1, job % 2 + 1),
            &opening.name,
            &self.plan.control.tag(),
        )
    }

    /// Appends a game to the PGN file, if any; a write that fails stops
    /// the match, because the games must be kept, not played on unrecorded.
    fn save(&self, text: &str) {
        let Some(out) = self.pgn_out else {
            return;
        };
        if let Err(e) = out.append(text) {
            self.pgn_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Counts game `job` in the tally, stops the match once the SPRT has
    /// decided, updates the report page, and shows the running score.
    fn count(&self, job: usize, played: &Played, pgn: String) {
        let (pair, second) = (job / 2, job % 2 == 1);
        let mut t = self.tally.lock().unwrap_or_else(|e| e.into_inner());
        t.record(pair, second, played);
        if let Some(h) = self.html {
            let (wi, bi) = seats(second);
            h.add(
                &t,
                self.plan.sprt,
                played,
                [self.names[wi], self.names[bi]],
                pgn,
            );
        }
        if t.decided(self.plan.sprt) {
            self.stop.store(true, Ordering::SeqCst);
        }
        let score = t.line(self.names);
        let games = t.wdl.games();
        drop(t);
        if self.bar.is_hidden() {
            // Not a terminal (a log file): one line per game instead.
            let (wi, bi) = seats(second);
            eprintln!(
                "game {games} of {}: {} - {} {} ({}); {score}",
                2 * self.plan.pairs,
                self.names[wi],
                self.names[bi],
                played.result.pgn(),
                played.detail
            );
        }
        self.bar.inc(1);
        self.bar.set_message(score);
    }
}

/// Plays one game of a pair with the worker's engines (started or restarted
/// as needed); an engine that will not start forfeits.
fn play_one(
    procs: &mut [Option<EngineProc>; 2],
    specs: &[EngineSpec],
    opening: &Opening,
    second: bool,
    control: Control,
    rules: Adjudication,
) -> Played {
    for (i, p) in procs.iter_mut().enumerate() {
        if p.is_none() {
            *p = EngineProc::start(&specs[i]).ok();
        }
    }
    let (wi, bi) = seats(second);
    let (played, failed_idx) = match procs {
        [Some(ref mut e0), Some(ref mut e1)] => {
            let (w, b) = if second { (e1, e0) } else { (e0, e1) };
            let p = game::play(w, b, opening, control, rules);
            let f = p.failed.map(|c| if c == Color::White { wi } else { bi });
            (p, f)
        }
        _ => {
            let dead = if procs[0].is_none() { 0 } else { 1 };
            let loser = if dead == wi {
                Color::White
            } else {
                Color::Black
            };
            let p = Played {
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
                comments: vec![None; opening.moves.len()],
                failed: Some(loser),
            };
            (p, Some(dead))
        }
    };
    if let Some(i) = failed_idx {
        procs[i] = None; // restarted for the next game
    }
    played
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prior_counts_need_five_numbers() {
        assert_eq!(parse_prior("1, 2,3,4,5").unwrap().0, [1, 2, 3, 4, 5]);
        for bad in ["1,2", "1,2,3,4,5,6", "a,b,c,d,e", "-1,0,0,0,0", ""] {
            assert!(
                parse_prior(bad).unwrap_err().contains("five counts"),
                "{bad}"
            );
        }
    }
}
