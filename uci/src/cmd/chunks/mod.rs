//! `mach chunks check|list|stats|mine|pawns`: read a chunk library
//! (docs/chunk-language.md), measure it as MACH's Figure 4 does (chunks per
//! position, pieces per chunk, the memory test), or mine one from games.

mod figures;
mod mine;
pub mod pawns;

use std::path::PathBuf;

use mach_advisor::chunks::Library;

use figures::{Figures, Range};

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
    /// Mine a chunk library from games: the piece patterns that recur in the
    /// king side, queen side, centre and the opponent's king side, each
    /// written as a chunk wrt white; then the stats of that library.
    Mine(mine::Args),
    /// Compile the built-in library's chunks made only of pawns into the
    /// engine's bitboard tests (the source of engine/src/pawn_chunk_patterns.rs).
    Pawns {
        /// Write the source here (default: print it). An existing file is
        /// replaced only if it is one this command wrote.
        #[arg(long)]
        out: Option<PathBuf>,
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
            &Range {
                pgn: pgn.clone(),
                first_game: *first_game,
                games: *games,
                from_move: *from_move,
                to_move: *to_move,
            },
        ),
        What::Mine(a) => mine::run(a),
        What::Pawns { out } => pawns::run(out.as_deref()),
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

/// MACH's Figure 4 figures over the positions of `range`.
fn stats(lib: &Library, range: &Range) -> Result<(), String> {
    let mut fig = Figures::default();
    let t = std::time::Instant::now();
    let read = figures::each_position(range, |b| fig.add(lib, b))?;
    if fig.positions == 0 {
        return Err("no position in that range".into());
    }
    println!(
        "{} positions ({}), {} chunks, {} instances, {:.0} positions/s",
        fig.positions,
        range.describe(&read),
        lib.defs.len(),
        lib.instances.len(),
        fig.positions as f64 / t.elapsed().as_secs_f64()
    );
    fig.print(lib);
    Ok(())
}
