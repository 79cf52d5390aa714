//! `mach tree build --pgn PGN --out FILE` (the grandmaster opening tree from
//! a PGN, byte for byte the same for the same PGN and rules) and
//! `mach tree show [--fen FEN | --moves "e4 e5"] [--tree FILE]` (what the tree
//! holds for a position).

use std::io::Read;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use mach_advisor::book::{BookMove, BookRules};
use mach_advisor::opening_tree::build::{build, Rules};
use mach_advisor::opening_tree::format::MAGIC;
use mach_advisor::opening_tree::OpeningTree;
use mach_engine::board;
use mach_files as paths;
use mach_files::outfile;

use crate::advise::position_input;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Build a tree file from a PGN (the shipped one: books/README.md).
    Build(BuildArgs),
    /// Print what the tree holds for a position (default: the built-in tree).
    Show(ShowArgs),
}

#[derive(clap::Args)]
struct BuildArgs {
    /// The games: a path, builtin:NAME or shared:REL.
    #[arg(long)]
    pgn: PathBuf,
    /// The tree file to write (a tree file Mach wrote is replaced; any other file needs --force).
    #[arg(long)]
    out: PathBuf,
    /// Plies read from the start of each game.
    #[arg(long, default_value_t = Rules::default().max_plies)]
    max_plies: u32,
    /// Fewest games through a position for it to be kept.
    #[arg(long, default_value_t = Rules::default().min_games)]
    min_games: u32,
    /// Leave out game numbers N, 2N, 3N... of the PGN (held out for measuring; 0: none).
    #[arg(long, value_name = "N", default_value_t = Rules::default().held_out_every)]
    hold_out_every: u32,
    /// Replace --out even if Mach did not write it.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args)]
struct ShowArgs {
    /// The position as FEN.
    #[arg(long)]
    fen: Option<String>,
    /// Moves from the start, in SAN or UCI, e.g. "d4 Nf6 c4 e5 dxe5 Ng4" (default: none).
    #[arg(long)]
    moves: Option<String>,
    /// A tree file (default: the one built into Mach).
    #[arg(long)]
    tree: Option<PathBuf>,
}

pub fn run(a: &Args) -> Result<(), String> {
    match &a.cmd {
        Sub::Build(b) => build_tree(b),
        Sub::Show(s) => show(s),
    }
}

/// Whether `path` starts as a tree file does (Mach wrote it).
fn is_tree_file(path: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|_| &head == MAGIC)
}

fn build_tree(a: &BuildArgs) -> Result<(), String> {
    outfile::check(&a.out, "--out", a.force, Some(is_tree_file))?;
    let source = paths::input(&a.pgn)?;
    let rules = Rules {
        max_plies: a.max_plies.max(1),
        min_games: a.min_games.max(1),
        held_out_every: a.hold_out_every,
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} games read, {elapsed}")
            .expect("a valid template"),
    );
    let t = std::time::Instant::now();
    let input = source.open().map_err(|e| e.to_string())?;
    let (bytes, s) = build(input, rules, |n| bar.set_message(n.to_string()))
        .map_err(|e| format!("{}: {e}", source.name()))?;
    bar.finish_and_clear();
    outfile::replace(&a.out, |f| std::io::Write::write_all(f, &bytes))?;
    println!(
        "{}: {} positions, {} moves, {:.2} MB, from {} of {} games ({} held out{}; {} unreadable), first {} plies, positions of at least {} games ({} distinct positions seen), {:.1} s",
        a.out.display(),
        s.positions_kept,
        s.moves_kept,
        bytes.len() as f64 / 1e6,
        s.games_used,
        s.games_in_file,
        s.held_out,
        match rules.held_out_every {
            0 => String::new(),
            n => format!(": game numbers {n}, {}, ...", 2 * n),
        },
        s.skipped,
        rules.max_plies,
        rules.min_games,
        s.positions_seen,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn show(a: &ShowArgs) -> Result<(), String> {
    let owned;
    let bytes: &[u8] = match &a.tree {
        Some(p) => {
            owned = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
            &owned
        }
        None => paths::builtin::OPENING_TREE,
    };
    let tree = OpeningTree::from_bytes(bytes).map_err(|e| match &a.tree {
        Some(p) => format!("{}: {e}", p.display()),
        None => e,
    })?;
    let line = match (&a.fen, &a.moves) {
        (Some(f), None) => position_input::from_fen(f)?,
        (None, m) => position_input::from_moves(m.as_deref().unwrap_or(""))?,
        (Some(_), Some(_)) => return Err("give --fen or --moves, not both".into()),
    };
    let pos = line.pos();
    let t = std::time::Instant::now();
    let moves = tree.book(pos);
    let took = t.elapsed();
    let games: u32 = moves.iter().map(|m| m.games).sum();
    println!(
        "{games} games through this position (tree of {} games, {} positions; lookup {:.1} us)",
        tree.header.games,
        tree.len(),
        took.as_secs_f64() * 1e6
    );
    print_moves(&moves);
    Ok(())
}

fn print_moves(moves: &[BookMove]) {
    let prior = BookRules::default().prior;
    for m in moves {
        println!(
            "{:6} {:6} games  {:5.1}%  backed up {:5.1}%  +{} ={} -{}  avg {}  last {}",
            board::uci(m.mv, false),
            m.games,
            100.0 * m.shrunk_score(prior),
            100.0 * m.backed.unwrap_or(f32::NAN),
            m.wins,
            m.draws,
            m.losses,
            m.avg_elo,
            m.last_year
        );
    }
}
