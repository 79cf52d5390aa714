//! `mach index [PGN...] [--out DIR] [--skip-moves 12] [--threads N] [--append]`
//! and `mach index --stats DIR`.

use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use mach_advisor::build::{build, BuildOptions, Progress};
use mach_advisor::index::{size_on_disk, Meta};
use mach_advisor::AdvisorIndex;

use mach_files as paths;

#[derive(clap::Args)]
pub struct Args {
    /// PGN files to index: paths, builtin:NAME or shared:REL (default: the built-in default database).
    pgn: Vec<PathBuf>,
    /// Index directory (default: $MACH_INDEX, else the platform's data directory, e.g.
    /// ~/.local/share/mach/gm2700-classical-4000).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Similarity documents start after this many moves (exact lookups cover every ply).
    #[arg(long, default_value_t = 12)]
    skip_moves: u32,
    /// Encoding and indexing threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Add the games to an existing index.
    #[arg(long)]
    append: bool,
    /// Indexing memory in MiB (tantivy's arenas; the whole build peaks near 2 GB on the full database).
    #[arg(long, default_value_t = 300)]
    heap: usize,
    /// Index only the first N games (hold the rest out, e.g. for `mach advise --eval`).
    #[arg(long, value_name = "N")]
    max_games: Option<u64>,
    /// The chunk library: a `.chunk` file or a directory of them (default: the built-in
    /// library, books/chunks). Kept in the index; --append uses the index's own.
    #[arg(long, value_name = "PATH")]
    chunks: Option<PathBuf>,
    /// Print the figures of an existing index instead of building one.
    #[arg(long, value_name = "DIR")]
    stats: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<(), String> {
    if let Some(dir) = &args.stats {
        return stats(dir);
    }
    let inputs = if args.pgn.is_empty() {
        vec![paths::default_database()]
    } else {
        args.pgn
            .iter()
            .map(|p| paths::input(p))
            .collect::<Result<_, _>>()?
    };
    let out = args.out.clone().unwrap_or_else(paths::default_index_dir);
    let opts = BuildOptions {
        inputs,
        out: out.clone(),
        skip_moves: args.skip_moves,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        append: args.append,
        heap_mb: args.heap,
        max_games: args.max_games,
        chunks: match &args.chunks {
            None => None,
            Some(p) => Some(mach_advisor::chunks::Library::load(p).map_err(|e| e.to_string())?),
        },
    };
    let progress = Progress::default();
    let done = std::sync::atomic::AtomicBool::new(false);
    let summary = std::thread::scope(|s| {
        let p = &progress;
        let done = &done;
        let bar_thread = s.spawn(move || {
            let bar = ProgressBar::new(1);
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta} {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            while !done.load(Relaxed) {
                bar.set_length(p.bytes_total.load(Relaxed).max(1));
                bar.set_position(p.bytes_read.load(Relaxed));
                let secs = bar.elapsed().as_secs_f64().max(1e-3);
                let games = p.games.load(Relaxed);
                let positions = p.positions.load(Relaxed);
                bar.set_message(format!(
                    "{games} games ({:.0}/s), {positions} positions ({:.0}/s)",
                    games as f64 / secs,
                    positions as f64 / secs
                ));
                std::thread::sleep(Duration::from_millis(200));
            }
            bar.finish_and_clear();
        });
        // A panic in the build must still stop the progress thread, or the
        // scope would wait for it forever.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| build(&opts, p)))
            .unwrap_or_else(|_| {
                Err(mach_advisor::Error::Input(
                    "internal error while indexing; nothing was replaced".into(),
                ))
            });
        done.store(true, Relaxed);
        let _ = bar_thread.join();
        r
    })
    .map_err(|e| e.to_string())?;

    println!("index      {}", out.display());
    println!(
        "games      {} read, {} indexed",
        summary.games_read, summary.games_indexed
    );
    for (reason, n) in &summary.troubles {
        println!("           {n} {reason}");
    }
    println!(
        "positions  {} (exact lookups, every ply)",
        summary.positions
    );
    println!(
        "documents  {} (similarity, from move {})",
        summary.documents,
        args.skip_moves + 1
    );
    println!(
        "terms      {} ({:.0} per document)",
        summary.terms,
        summary.terms as f64 / summary.documents.max(1) as f64
    );
    println!(
        "size       {:.1} MB, {:.0} bytes per position",
        summary.bytes_on_disk as f64 / 1e6,
        summary.bytes_on_disk as f64 / summary.total.positions.max(1) as f64
    );
    println!("elapsed    {:.1} s", summary.elapsed.as_secs_f64());
    Ok(())
}

fn stats(dir: &std::path::Path) -> Result<(), String> {
    let meta = Meta::read(dir).map_err(|e| e.to_string())?;
    let index = AdvisorIndex::open(dir).map_err(|e| e.to_string())?;
    let total = size_on_disk(dir);
    let tantivy = size_on_disk(&dir.join("tantivy"));
    let file = |n: &str| std::fs::metadata(dir.join(n)).map_or(0, |m| m.len());
    println!("index      {} (format {})", dir.display(), meta.format);
    println!("games      {}", meta.games);
    for (reason, n) in &meta.troubles {
        println!("           {n} {reason}");
    }
    println!("positions  {}", meta.positions);
    println!(
        "documents  {} (from move {})",
        index.documents(),
        meta.skip_moves + 1
    );
    println!("terms      {}", meta.terms);
    let per = |b: u64| b as f64 / meta.positions.max(1) as f64;
    println!(
        "size       {:.1} MB, {:.0} bytes per position",
        total as f64 / 1e6,
        per(total)
    );
    println!(
        "  tantivy  {:.1} MB ({:.0} B/position)",
        tantivy as f64 / 1e6,
        per(tantivy)
    );
    println!(
        "  games    {:.1} MB",
        (file("games.bin") + file("games.idx")) as f64 / 1e6
    );
    println!(
        "  keys     {:.1} MB ({:.0} B/position)",
        file("keys.bin") as f64 / 1e6,
        per(file("keys.bin"))
    );
    for s in &meta.sources {
        println!("source     {s}");
    }
    Ok(())
}
