//! `mach epd FILE [--nodes N | --depth D | --movetime MS] [--jobs J]`:
//! solve a best-move test suite (WAC, ECM, Bratko-Kopec, Arasan, STS).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mach_engine::epd::{parse_line, EpdPosition};
use mach_engine::{board, Engine, Limits, SearchControl, SearchOptions, Silent};

#[derive(clap::Args)]
pub struct Args {
    /// EPD file with `bm`/`am` operations (a path or shared:REL, e.g. tests/data/wac.epd of the checkout).
    file: std::path::PathBuf,
    /// Nodes per position (the default limit).
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Depth per position instead of nodes.
    #[arg(long)]
    depth: Option<u32>,
    /// Milliseconds per position instead of nodes.
    #[arg(long)]
    movetime: Option<i64>,
    /// Positions searched at once (one thread each).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Hash per job in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Print only the failures and the summary.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    if !(1..=256).contains(&args.jobs) {
        return Err(format!("--jobs must be 1..256, not {}", args.jobs));
    }
    let bytes = mach_files::input(&args.file)?
        .read_all()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(p) if !p.best.is_empty() || !p.avoid.is_empty() => positions.push(p),
            Ok(_) => eprintln!("line {}: no bm/am, skipped", n + 1),
            Err(e) => eprintln!("line {}: {e}, skipped", n + 1),
        }
    }
    if let Some(l) = args.limit {
        positions.truncate(l);
    }
    let limits = Limits {
        nodes: if args.depth.is_none() && args.movetime.is_none() {
            Some(args.nodes)
        } else {
            None
        },
        depth: args.depth,
        movetime: args.movetime,
        ..Limits::default()
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Solved>>> = Mutex::new(vec![None; positions.len()]);
    let start = Instant::now();
    std::thread::scope(|s| {
        // No more threads than positions: each one holds a hash table.
        for _ in 0..args.jobs.clamp(1, positions.len().max(1)) {
            s.spawn(|| {
                let mut engine = Engine::new(args.hash, 1);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = positions.get(i) else { break };
                    let ok = solve(&mut engine, p, &limits, args.quiet);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(ok);
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let solved = results.iter().flatten().filter(|r| r.ok).count();
    println!(
        "solved {solved}/{} in {:.1} s ({})",
        positions.len(),
        start.elapsed().as_secs_f64(),
        args.file.display()
    );
    // STS: each position's points (c8/c9), 10 for the best move.
    let scored: Vec<u32> = results.iter().flatten().filter_map(|r| r.points).collect();
    if !scored.is_empty() {
        let got: u32 = scored.iter().sum();
        let max = 10 * scored.len() as u32;
        println!(
            "points {got}/{max} ({:.1}%) over {} positions with c8/c9 points",
            100.0 * got as f64 / max as f64,
            scored.len()
        );
    }
    Ok(())
}

/// One position's outcome.
#[derive(Clone, Copy)]
struct Solved {
    ok: bool,
    /// STS points of the move played, if the position has them.
    points: Option<u32>,
}

/// Searches one position and says whether the move played solves it.
fn solve(engine: &mut Engine, p: &EpdPosition, limits: &Limits, quiet: bool) -> Solved {
    engine.clear();
    let control = std::sync::Arc::new(SearchControl::new(false, Instant::now()));
    let options = SearchOptions {
        move_overhead: Duration::ZERO,
        ..SearchOptions::default()
    };
    let r = engine.search(&p.pos, &[], limits, &options, &control, &Silent);
    let ok = r.best.is_some_and(|m| p.solved_by(m));
    if !ok || !quiet {
        let want: Vec<String> = p.best.iter().map(|&m| board::uci(m, false)).collect();
        println!(
            "{} {:<12} played {:<6} want {:<12} depth {:>2} score {:>6}",
            if ok { "ok  " } else { "FAIL" },
            p.id,
            r.best.map_or("none".into(), |m| board::uci(m, false)),
            want.join(","),
            r.depth,
            r.score
        );
    }
    Solved {
        ok,
        points: r.best.and_then(|m| p.points(m)),
    }
}
