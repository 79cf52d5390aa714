//! `mach`: a UCI chess engine with a grandmaster's memory.
//!
//! Without a subcommand it speaks UCI on stdin/stdout, which is what GUIs
//! expect. The subcommands are for people and scripts.

mod advise;
mod cmd;
mod printable;
mod uci;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "mach",
    version,
    about = "Mach: a UCI chess engine with a grandmaster's memory"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    /// The shared data directory, for file arguments written shared:REL
    /// (default: $MACH_SHARED, else ../shared).
    #[arg(long, global = true, value_name = "DIR")]
    shared: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Speak UCI on stdin/stdout (the default without a subcommand).
    Uci,
    /// Count the leaf nodes of the legal move tree.
    Perft(cmd::perft::Args),
    /// Search the bench positions to a fixed depth; ends with "<nodes> nodes <nps> nps".
    Bench(cmd::bench::Args),
    /// Solve a best-move test suite (EPD with bm/am), e.g. tests/data/wac.epd of the checkout.
    Epd(cmd::epd::Args),
    /// The grandmaster positions most like a position, and what was played there.
    Advise(cmd::advise::Args),
    /// Serve the advice page on 127.0.0.1: enter a FEN or moves, click a move to go deeper.
    Explore(cmd::explore::Args),
    /// Play a match between two UCI engines (or --advice-vs-none).
    Match(mach_runner::Args),
    /// The SPRT of `mach match --pgnout` files with earlier runs' pairs added (continues a stopped SPRT).
    Sprt(cmd::sprt::Args),
    /// Index grandmaster games for the advisor (default: the default database).
    Index(cmd::index::Args),
    /// Write the grandmaster memory as a Polyglot opening book.
    Book(cmd::book::Args),
    /// The grandmaster opening tree: build one from a PGN, show a position's moves.
    Tree(cmd::tree::Args),
    /// MACH's chunks: check a chunk library, list it, measure it on games.
    Chunks(cmd::chunks::Args),
    /// Mach's experience file: its statistics, merging files, its records as text.
    Experience(cmd::experience::Args),
    /// Analyse the opening tree's most-played positions into an experience file (resumable).
    Learn(cmd::learn::Args),
    /// Positions as vectors: train the autoencoder of "Reconstructing chess positions", test it.
    Embed(mach_embed::Args),
    /// Fit every evaluation weight to game results (Texel tuning); writes psqt.rs.
    Tune(mach_tune::Args),
    /// Tune the search parameters by SPSA in games against itself (resumable); writes params.rs.
    Spsa(cmd::spsa::Args),
}

fn main() {
    // Diagnostics go to stderr (stdout is the UCI channel); RUST_LOG=debug shows more.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    mach_files::set_shared_flag(cli.shared.clone());
    if matches!(
        cli.command,
        Some(Cmd::Perft(_) | Cmd::Bench(_) | Cmd::Epd(_) | Cmd::Advise(_) | Cmd::Sprt(_))
    ) {
        end_quietly_on_broken_pipe();
    }
    let result = match cli.command {
        None | Some(Cmd::Uci) => {
            uci::stdin_loop::run();
            Ok(())
        }
        Some(Cmd::Perft(args)) => cmd::perft::run(&args),
        Some(Cmd::Bench(args)) => cmd::bench::run(&args),
        Some(Cmd::Epd(args)) => cmd::epd::run(&args),
        Some(Cmd::Index(args)) => cmd::index::run(&args),
        Some(Cmd::Chunks(args)) => cmd::chunks::run(&args),
        Some(Cmd::Book(args)) => cmd::book::run(&args),
        Some(Cmd::Tree(args)) => cmd::tree::run(&args),
        Some(Cmd::Experience(args)) => cmd::experience::run(&args),
        Some(Cmd::Learn(args)) => cmd::learn::run(&args),
        Some(Cmd::Advise(args)) => cmd::advise::run(&args),
        Some(Cmd::Explore(args)) => cmd::explore::run(&args),
        Some(Cmd::Match(args)) => mach_runner::run(&args),
        Some(Cmd::Sprt(args)) => cmd::sprt::run(&args),
        Some(Cmd::Embed(args)) => mach_embed::run(&args),
        Some(Cmd::Tune(args)) => mach_tune::run(&args),
        Some(Cmd::Spsa(args)) => cmd::spsa::run(&args),
    };
    if let Err(e) = result {
        // Errors may quote a file's text (a PGN tag): no control characters.
        eprintln!("mach: {}", printable::text(&e));
        std::process::exit(1);
    }
}

/// The report subcommands print for people and pipes: when the reader goes
/// away (`mach perft 6 --divide | head -3`), Mach ends quietly, as Unix tools
/// do, instead of panicking on the next line. Not for UCI, `match` or
/// `explore`, which write to GUIs, engines and sockets that may close while
/// Mach must carry on, nor for the commands that write files.
fn end_quietly_on_broken_pipe() {
    // SAFETY: sets SIGPIPE back to its default disposition at start-up,
    // before any thread exists; no handler of Mach's is replaced.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
