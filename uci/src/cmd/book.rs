//! `mach book --out gm.bin [--index DIR]`: the grandmaster memory as a
//! standard Polyglot opening book, for any GUI or engine that reads one.

use std::path::PathBuf;

use mach_advisor::polyglot::write_book;
use mach_advisor::AdvisorIndex;

use mach_files as paths;
use mach_files::outfile;

#[derive(clap::Args)]
pub struct Args {
    /// The book file to write.
    #[arg(long)]
    out: PathBuf,
    /// Index directory (default: $MACH_INDEX, else the platform's data directory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// Positions from the first N plies of each game.
    #[arg(long, default_value_t = 40)]
    max_plies: usize,
    /// Moves played at least this often in a position.
    #[arg(long, default_value_t = 2)]
    min_games: u32,
    /// Replace --out if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(a: &Args) -> Result<(), String> {
    // A book's bytes cannot tell whose it is: an existing file needs --force,
    // and what is not a regular file is never replaced.
    outfile::check(&a.out, "--out", a.force, None)?;
    let dir = a.index.clone().unwrap_or_else(paths::default_index_dir);
    let index = AdvisorIndex::open(&dir).map_err(|e| {
        format!("{e}\n(build the default index with `mach index`, or pass --index DIR)")
    })?;
    let t = std::time::Instant::now();
    // Written to a unique temporary beside the target and renamed: a failed
    // run leaves no half book and no temporary.
    let s = outfile::replace(&a.out, |f| {
        write_book(&index, f, a.max_plies, a.min_games.max(1))
            .map_err(|e| std::io::Error::other(e.to_string()))
    })?;
    println!(
        "{}: {} positions, {} moves from {} games (first {} plies, moves played at least {} times), {:.1} MB, {:.1} s",
        a.out.display(),
        s.positions,
        s.entries,
        s.games,
        a.max_plies,
        a.min_games.max(1),
        (s.entries * 16) as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
