//! `mach learn`: Mach analyses the most-played positions of the grandmaster
//! tree (the built-in opening tree, walked from the start position through
//! the moves it holds) or of games a person gives (`--pgn`: their
//! openings, Mach's own match games) at a fixed depth, and writes what it
//! found into an experience file as `learned` records. Resumable: positions
//! the file already knows at that depth or deeper are skipped, and results
//! are appended every few positions, so Ctrl-C keeps what was finished.

use std::collections::{HashMap, HashSet};
use std::io::BufReader;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use mach_advisor::pgn::read_games;
use mach_engine::{board, moves, Engine, Limits, SearchControl, SearchOptions, Silent};
use mach_experience::{minute_now, Kind, Memory, Record};
use shakmaty::{Chess, Position};

use crate::uci::advisor_client::builtin_tree;
use crate::uci::experience_store::default_file;

#[derive(clap::Args)]
pub struct Args {
    /// How many positions, the most played first.
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Depth of each analysis.
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Only positions at least this many games reached.
    #[arg(long, default_value_t = 10)]
    min_games: u32,
    /// Positions of these games instead of the opening tree's (repeatable;
    /// a path or `shared:REL`).
    #[arg(long)]
    pgn: Vec<PathBuf>,
    /// With --pgn: the first ply of each game whose position counts (0: the
    /// game's start).
    #[arg(long, default_value_t = 0)]
    from_ply: usize,
    /// With --pgn: the ply of each game after which no position counts.
    #[arg(long, default_value_t = 20)]
    to_ply: usize,
    /// The experience file to add to (default: the engine's).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Transposition table in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Results appended at once (what Ctrl-C can cost at most).
const BATCH: usize = 10;

static STOP: AtomicBool = AtomicBool::new(false);

/// The tree's positions reached in at least `min_games` games, most played
/// first (ties by key), walked from the start through the tree's moves.
pub fn most_played(min_games: u32, limit: usize) -> Result<Vec<(u32, Chess)>, String> {
    let tree = builtin_tree()?;
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    let mut stack = vec![Chess::default()];
    while let Some(pos) = stack.pop() {
        if !seen.insert(board::hash(&pos)) {
            continue;
        }
        let book = tree.book(&pos);
        let games: u32 = book.iter().map(|m| m.games).sum();
        if games < min_games {
            continue;
        }
        for m in &book {
            if m.games >= min_games {
                let mut child = pos.clone();
                child.play_unchecked(m.mv);
                stack.push(child);
            }
        }
        found.push((games, pos));
    }
    Ok(most_first(found, limit))
}

/// The positions `games` reach between plies `from` and `to` (counted from
/// each game's start, both included) in at least `min_games` games, most
/// reached first (ties by key). A position a game reaches twice counts once
/// for it.
pub fn most_reached(
    games: &[PathBuf],
    (from, to): (usize, usize),
    min_games: u32,
    limit: usize,
) -> Result<Vec<(u32, Chess)>, String> {
    let mut counts: HashMap<u64, (u32, Chess)> = HashMap::new();
    for path in games {
        let source = mach_files::input(path)?;
        let file = source
            .open()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut seen = HashSet::new();
        read_games(BufReader::new(file), |g| {
            let Some(game) = g.game else { return };
            seen.clear();
            let mut pos = game.start();
            for ply in 0..=to.min(game.moves.len()) {
                if ply >= from && seen.insert(board::hash(&pos)) {
                    counts
                        .entry(board::hash(&pos))
                        .or_insert_with(|| (0, pos.clone()))
                        .0 += 1;
                }
                match game.moves.get(ply) {
                    Some(&m) if ply < to => pos.play_unchecked(m),
                    _ => break,
                }
            }
        })
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    }
    let found = counts
        .into_values()
        .filter(|(n, p)| *n >= min_games && !p.legal_moves().is_empty())
        .collect();
    Ok(most_first(found, limit))
}

/// `found` most games first (ties by key), at most `limit`.
fn most_first(mut found: Vec<(u32, Chess)>, limit: usize) -> Vec<(u32, Chess)> {
    found.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(board::hash(&a.1).cmp(&board::hash(&b.1)))
    });
    found.truncate(limit);
    found
}

pub fn run(args: &Args) -> Result<(), String> {
    let out = args.out.clone().unwrap_or_else(default_file);
    let scan = mach_experience::read(&out).map_err(|e| e.to_string())?;
    let known = Memory::of(&scan.records);
    if args.from_ply > args.to_ply {
        return Err(format!(
            "--from-ply {} is after --to-ply {}",
            args.from_ply, args.to_ply
        ));
    }
    let (chosen, from) = if args.pgn.is_empty() {
        (
            most_played(args.min_games, args.positions)?,
            "the opening tree".to_string(),
        )
    } else {
        (
            most_reached(
                &args.pgn,
                (args.from_ply, args.to_ply),
                args.min_games,
                args.positions,
            )?,
            format!("the games (plies {}-{})", args.from_ply, args.to_ply),
        )
    };
    let todo: Vec<&(u32, Chess)> = chosen
        .iter()
        .filter(|(_, p)| {
            known
                .get(board::hash(p))
                .is_none_or(|r| u32::from(r.depth) < args.depth)
        })
        .collect();
    eprintln!(
        "{} positions of {from} reached in {}+ games; {} already analysed to depth {} in {}; {} to go",
        chosen.len(),
        args.min_games,
        chosen.len() - todo.len(),
        args.depth,
        out.display(),
        todo.len()
    );
    if let Err(e) = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("mach: interrupted; writing what is finished");
    }) {
        log::warn!("cannot catch Ctrl-C: {e}");
    }
    let bar = ProgressBar::new(todo.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, {elapsed} ({eta} left)")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut engine = Engine::new(args.hash, args.threads);
    let limits = Limits::depth(args.depth);
    let options = SearchOptions {
        move_overhead: Duration::ZERO,
        ..SearchOptions::default()
    };
    let started = Instant::now();
    let mut batch = Vec::with_capacity(BATCH);
    let mut done = 0usize;
    for (_, pos) in todo {
        if STOP.load(Ordering::SeqCst) {
            break;
        }
        let control = Arc::new(SearchControl::new(false, Instant::now()));
        let r = engine.search(pos, &[], &limits, &options, &control, &Silent);
        if let Some(best) = r.best {
            batch.push(Record {
                key: board::hash(pos),
                mv: moves::encode(best),
                score: r.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: r.depth.clamp(0, 255) as u8,
                kind: Kind::Learned,
                minute: minute_now(),
            });
        }
        done += 1;
        bar.inc(1);
        if batch.len() >= BATCH {
            mach_experience::append(&out, &batch).map_err(|e| e.to_string())?;
            batch.clear();
        }
    }
    mach_experience::append(&out, &batch).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{done} positions analysed to depth {} in {secs:.0} s ({:.0} positions an hour) into {}{}",
        args.depth,
        done as f64 * 3600.0 / secs.max(1e-3),
        out.display(),
        if STOP.load(Ordering::SeqCst) {
            " (interrupted: run it again to go on)"
        } else {
            ""
        }
    );
    Ok(())
}
