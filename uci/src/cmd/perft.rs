//! `mach perft <depth> [--fen FEN] [--divide] [--threads N] [--compare]`

use std::time::Instant;

use mach_engine::{board, perft};

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies.
    depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Threads to split the root moves over (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Also time shakmaty::perft on the same position, for comparison.
    #[arg(long)]
    compare: bool,
}

/// Deeper than this, perft would run for ages and its recursion could
/// outgrow the thread's stack.
const MAX_DEPTH: u32 = 64;

pub fn run(args: &Args) -> Result<(), String> {
    if args.depth > MAX_DEPTH {
        return Err(format!(
            "perft depth must be 0..{MAX_DEPTH}, not {}",
            args.depth
        ));
    }
    let pos = match &args.fen {
        Some(f) => board::from_fen(f, false)?,
        None => shakmaty::Chess::default(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let start = Instant::now();
    let nodes = if args.divide {
        let lines = perft::divide(&pos, args.depth, threads);
        for (m, n) in &lines {
            println!("{}: {n}", board::uci(*m, false));
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft_threads(&pos, args.depth, threads)
    };
    let t = start.elapsed().as_secs_f64();
    println!(
        "nodes {nodes} time {:.3} s nps {:.0}",
        t,
        nodes as f64 / t.max(1e-9)
    );
    if args.compare {
        let start = Instant::now();
        let reference = shakmaty::perft(&pos, args.depth);
        let r = start.elapsed().as_secs_f64();
        println!(
            "shakmaty::perft nodes {reference} time {r:.3} s; mach/shakmaty time ratio {:.2}",
            t / r.max(1e-9)
        );
        if reference != nodes {
            return Err(format!(
                "count mismatch: mach {nodes}, shakmaty {reference}"
            ));
        }
    }
    Ok(())
}
