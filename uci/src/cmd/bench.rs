//! `mach bench [depth] [--hash MB]`: the OpenBench-style signature run.

use mach_engine::bench;

#[derive(clap::Args)]
pub struct Args {
    /// Search depth for every position.
    #[arg(default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

pub fn run(args: &Args) -> Result<(), String> {
    if args.depth == 0 || args.depth > 64 {
        return Err(format!("bench depth must be 1..64, not {}", args.depth));
    }
    let (nodes, time) = bench::run(args.depth, args.hash, |i, line| {
        println!(
            "{:>2} {:>10} nodes {:>7} ms  bestmove {:<6} {}",
            i + 1,
            line.nodes,
            line.time.as_millis(),
            line.best,
            line.fen
        );
    });
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    println!("{nodes} nodes {nps} nps");
    Ok(())
}
