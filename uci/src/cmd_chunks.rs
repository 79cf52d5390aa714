//! `mach chunks check|list|stats`: read a chunk library (docs/chunk-language.md)
//! and measure it as MACH's Figure 4 does (chunks per position, pieces per
//! chunk, the memory test).

use std::collections::BTreeMap;
use std::path::PathBuf;

use mach_advisor::chunks::{covered, Library};
use mach_advisor::pgn::read_games;
use shakmaty::Position;

use crate::paths;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(clap::Subcommand)]
enum What {
    /// Parse chunk files (default: the built-in library) and report the first error of each.
    Check {
        /// `.chunk` files or directories of them.
        files: Vec<PathBuf>,
    },
    /// List the chunks and classes of a library.
    List {
        /// A `.chunk` file or a directory (default: the built-in library).
        #[arg(long)]
        chunks: Option<PathBuf>,
    },
    /// Chunks per position, pieces per chunk, positions with no chunk and
    /// MACH's memory test on the positions of a PGN.
    Stats {
        /// Games: a path, builtin:NAME or shared:REL (default: the built-in database).
        pgn: Option<PathBuf>,
        /// A `.chunk` file or a directory (default: the built-in library).
        #[arg(long)]
        chunks: Option<PathBuf>,
        /// Skip the first N games (e.g. those in an index built with --max-games N).
        #[arg(long, default_value_t = 0)]
        first_game: usize,
        /// Use at most N games.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Positions from this move on (MACH's test positions were moves 7 to 15).
        #[arg(long, default_value_t = 7)]
        from_move: usize,
        /// Up to this move.
        #[arg(long, default_value_t = 40)]
        to_move: usize,
    },
}

fn library(path: &Option<PathBuf>) -> Result<Library, String> {
    match path {
        None => Ok(Library::builtin()),
        Some(p) => Library::load(p).map_err(|e| e.to_string()),
    }
}

pub fn run(args: &Args) -> Result<(), String> {
    match &args.what {
        What::Check { files } => check(files),
        What::List { chunks } => list(&library(chunks)?),
        What::Stats {
            pgn,
            chunks,
            first_game,
            games,
            from_move,
            to_move,
        } => stats(
            &library(chunks)?,
            pgn,
            *first_game,
            *games,
            (*from_move, *to_move),
        ),
    }
}

/// Parses each file on its own, then all together (references across files).
fn check(files: &[PathBuf]) -> Result<(), String> {
    if files.is_empty() {
        let lib = Library::builtin();
        println!(
            "built-in library: {} chunks, {} instances, {} classes",
            lib.defs.len(),
            lib.instances.len(),
            lib.classes().len()
        );
        return Ok(());
    }
    let mut failed = 0;
    for f in files {
        match Library::load(f) {
            Ok(lib) => println!(
                "{}: {} chunks, {} instances, {} classes",
                f.display(),
                lib.defs.len(),
                lib.instances.len(),
                lib.classes().len()
            ),
            Err(e) => {
                failed += 1;
                println!("{e}");
            }
        }
    }
    if failed > 0 {
        return Err(format!("{failed} of {} failed", files.len()));
    }
    Ok(())
}

fn list(lib: &Library) -> Result<(), String> {
    for d in &lib.defs {
        let params: Vec<String> = d.params.iter().map(|p| format!("${}", p.name)).collect();
        println!(
            "{:<28} {:<28} importance {:<3} {}{}",
            if params.is_empty() {
                d.name.clone()
            } else {
                format!("{}({})", d.name, params.join(","))
            },
            d.class,
            d.importance,
            d.origin,
            if d.mirror_files { "  (both wings)" } else { "" }
        );
    }
    println!(
        "{} chunks, {} instances, {} classes",
        lib.defs.len(),
        lib.instances.len(),
        lib.classes().len()
    );
    Ok(())
}

/// MACH's Figure 4 figures over the positions of `games` games.
fn stats(
    lib: &Library,
    pgn: &Option<PathBuf>,
    first_game: usize,
    games: usize,
    (from_move, to_move): (usize, usize),
) -> Result<(), String> {
    let source = match pgn {
        None => paths::default_database(),
        Some(p) => paths::input(p)?,
    };
    let input = std::io::BufReader::new(source.open().map_err(|e| e.to_string())?);
    let (mut positions, mut chunks, mut none, mut pieces_in_chunks, mut required_in_chunks) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut pieces_total, mut pieces_covered) = (0u64, 0u64);
    let mut by_chunk: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_class: BTreeMap<String, u64> = BTreeMap::new();
    let mut n = 0usize;
    let t = std::time::Instant::now();
    read_games(input, |g| {
        n += 1;
        if n <= first_game || n > first_game + games {
            return;
        }
        let Some(rec) = g.game else { return };
        let mut pos = rec.start();
        for (ply, m) in rec.moves.iter().enumerate() {
            let mv = ply / 2 + 1;
            if mv > to_move {
                break;
            }
            if mv >= from_move {
                let found = lib.find(pos.board());
                positions += 1;
                chunks += found.len() as u64;
                if found.is_empty() {
                    none += 1;
                }
                let mut classes: Vec<&str> = Vec::new();
                for f in &found {
                    pieces_in_chunks += f.covered.count() as u64;
                    required_in_chunks += f.required.count() as u64;
                    let inst = &lib.instances[f.instance];
                    *by_chunk.entry(inst.chunk.clone()).or_default() += 1;
                    classes.push(&inst.class);
                }
                classes.sort_unstable();
                classes.dedup();
                for c in classes {
                    *by_class.entry(c.to_string()).or_default() += 1;
                }
                pieces_total += pos.board().occupied().count() as u64;
                pieces_covered += covered(&found).count() as u64;
            }
            pos.play_unchecked(*m);
        }
    })
    .map_err(|e| e.to_string())?;
    if positions == 0 {
        return Err("no position in that range".into());
    }
    let per = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    println!(
        "{} positions (moves {from_move}-{to_move} of games {}..{}) of {}, {} chunks, {} instances, {:.0} positions/s",
        positions,
        first_game + 1,
        (first_game + games).min(n),
        source.name(),
        lib.defs.len(),
        lib.instances.len(),
        positions as f64 / t.elapsed().as_secs_f64()
    );
    println!(
        "chunks per position       {:.1}   (MACH: 6.1)",
        per(chunks, positions)
    );
    println!(
        "pieces per chunk          {:.1}   (MACH: 6.7); required pieces only {:.1} (MACH: 3.4)",
        per(pieces_in_chunks, chunks),
        per(required_in_chunks, chunks)
    );
    println!(
        "positions with no chunk   {:.1}%  (MACH: 35.6% of its game tree)",
        100.0 * per(none, positions)
    );
    println!(
        "memory test               {:.1}%  of the pieces covered by a chunk (MACH: 80%)",
        100.0 * per(pieces_covered, pieces_total)
    );
    let mut top: Vec<(&String, &u64)> = by_chunk.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    println!("most frequent chunks (share of positions):");
    for (name, k) in top.iter().take(15) {
        println!("  {:<30} {:5.1}%", name, 100.0 * per(**k, positions));
    }
    let never: Vec<&str> = lib
        .defs
        .iter()
        .filter(|d| !by_chunk.contains_key(&d.name))
        .map(|d| d.name.as_str())
        .collect();
    println!("never found ({}): {}", never.len(), never.join(" "));
    println!("classes (share of positions, per side):");
    for (c, k) in &by_class {
        println!("  {:<36} {:5.1}%", c, 100.0 * per(*k, positions));
    }
    Ok(())
}
