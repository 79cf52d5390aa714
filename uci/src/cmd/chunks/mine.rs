//! `mach chunks mine`: a chunk library mined from games (frequent piece
//! patterns, `mach_advisor::chunks::mine`), written to a new file, read
//! back and measured on the positions it came from.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mach_advisor::chunks::mine::{self, write, Options};
use mach_advisor::chunks::Library;
use shakmaty::Board;

use super::figures::{self, Figures, Range};

#[derive(clap::Args)]
pub struct Args {
    /// Games: a path, builtin:NAME or shared:REL (default: the built-in database).
    pgn: Option<PathBuf>,
    /// Use at most N games.
    #[arg(long, default_value_t = 20000)]
    games: usize,
    /// Positions from this move on (the opening's own moves are too alike).
    #[arg(long, default_value_t = 8)]
    from_move: usize,
    /// Up to this move.
    #[arg(long, default_value_t = 30)]
    to_move: usize,
    /// Least share of the positions a pattern must be in (0.03: 3%).
    #[arg(long, default_value_t = 0.03)]
    support: f64,
    /// Largest pattern mined, in pieces (3 to 16).
    #[arg(long, default_value_t = 6)]
    max_size: usize,
    /// Chunks written: the best N by support times size.
    #[arg(long, default_value_t = 100)]
    top: usize,
    /// The chunk file to write (a new file unless --force).
    #[arg(long)]
    out: PathBuf,
    /// Replace --out when it exists.
    #[arg(long)]
    force: bool,
}

/// Reads the positions, mines, writes, then re-reads and measures the library.
pub fn run(a: &Args) -> Result<(), String> {
    let opts = Options {
        support: a.support,
        max_size: a.max_size,
        top: a.top,
        ..Options::default()
    };
    opts.check()?;
    writable(&a.out, a.force)?;
    let range = Range {
        pgn: a.pgn.clone(),
        first_game: 0,
        games: a.games,
        from_move: a.from_move,
        to_move: a.to_move,
    };
    let start = Instant::now();
    let mut boards: Vec<Board> = Vec::new();
    let read = figures::each_position(&range, |b| boards.push(b.clone()))?;
    if boards.is_empty() {
        return Err("no position in that range".into());
    }
    println!(
        "{} positions read ({}) in {:.1} s",
        boards.len(),
        range.describe(&read),
        start.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let m = mine::mine(&boards, &opts)?;
    let mined_in = t.elapsed().as_secs_f64();
    for (k, l) in m.levels.iter().enumerate() {
        println!(
            "size {:>2}: {:>6} candidates counted, {:>6} frequent itemsets",
            k + 1,
            l.candidates,
            l.frequent
        );
    }
    let by_region = |count: &dyn Fn(usize) -> usize| -> String {
        let v: Vec<String> = mine::REGIONS
            .iter()
            .enumerate()
            .map(|(r, reg)| format!("{} {}", reg.name, count(r)))
            .collect();
        v.join(", ")
    };
    println!(
        "support at least {:.1}% = {} positions; closed patterns of {}+ pieces, each once: {} ({})",
        100.0 * opts.support,
        m.min_count,
        mine::MIN_SIZE,
        m.closed.iter().sum::<usize>(),
        by_region(&|r| m.closed[r])
    );
    if m.patterns.is_empty() {
        return Err(format!(
            "no pattern of {}+ pieces is in {:.1}% of the positions: nothing written (lower --support or read more games)",
            mine::MIN_SIZE,
            100.0 * opts.support
        ));
    }
    let text = write::library(&m, &range.describe(&read));
    save(&a.out, &text, a.force)?;
    println!(
        "{} chunks written to {} ({}), mined in {:.1} s",
        m.patterns.len(),
        a.out.display(),
        by_region(&|r| m
            .patterns
            .iter()
            .filter(|p| p.region == mine::REGIONS[r])
            .count()),
        mined_in
    );
    let (first, last) = (&m.patterns[0], &m.patterns[m.patterns.len() - 1]);
    println!(
        "support: top {:.1}% ({}), bottom {:.1}% ({})",
        100.0 * m.share(first),
        write::name(first, 1),
        100.0 * m.share(last),
        write::name(last, m.patterns.len())
    );
    let lib = Library::load(&a.out)
        .map_err(|e| format!("the mined library does not read back (a bug): {e}"))?;
    let t = Instant::now();
    let mut fig = Figures::default();
    for b in &boards {
        fig.add(&lib, b);
    }
    println!(
        "the mined library, read back: {} chunks, {} instances, {} classes; on the same {} positions ({:.1} s):",
        lib.defs.len(),
        lib.instances.len(),
        lib.classes().len(),
        fig.positions,
        t.elapsed().as_secs_f64()
    );
    fig.print(&lib);
    println!("total {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Refuses, before any work, an --out that exists (unless `force`) or
/// cannot be written.
fn writable(out: &Path, force: bool) -> Result<(), String> {
    mach_files::output_file(out)?;
    if out.exists() && !force {
        return Err(format!(
            "--out {} exists: not overwritten (pass --force to replace it)",
            out.display()
        ));
    }
    Ok(())
}

/// Writes `text` to a new file (an existing one only when `force`).
fn save(out: &Path, text: &str, force: bool) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    let mut f = if force {
        std::fs::File::create(out).map_err(fail)?
    } else {
        // create_new: a file made meanwhile is still not overwritten.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(out)
            .map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    format!(
                        "--out {} exists: not overwritten (pass --force to replace it)",
                        out.display()
                    )
                } else {
                    fail(e)
                }
            })?
    };
    f.write_all(text.as_bytes()).map_err(fail)
}
