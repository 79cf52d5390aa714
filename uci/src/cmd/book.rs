//! `mach book --out gm.bin [--index DIR]`: the grandmaster memory as a
//! standard Polyglot opening book, for any GUI or engine that reads one.

use std::path::PathBuf;

use mach_advisor::polyglot::write_book;
use mach_advisor::AdvisorIndex;

use mach_inputs as paths;

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
    if a.out.exists() && !a.force {
        return Err(format!(
            "{} exists; pass --force to replace it",
            a.out.display()
        ));
    }
    let dir = a.index.clone().unwrap_or_else(paths::default_index_dir);
    let index = AdvisorIndex::open(&dir).map_err(|e| {
        format!("{e}\n(build the default index with `mach index`, or pass --index DIR)")
    })?;
    let t = std::time::Instant::now();
    // Written beside the target and renamed: a failed run leaves no half book.
    let tmp = a.out.with_extension(format!("tmp-{}", std::process::id()));
    let s = write_book(&index, &tmp, a.max_plies, a.min_games.max(1));
    let s = match s {
        Ok(s) => s,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            return Err(e.to_string());
        }
    };
    std::fs::rename(&tmp, &a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
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
