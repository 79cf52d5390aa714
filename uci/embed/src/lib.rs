//! `mach embed`: positions as vectors ("Reconstructing chess positions").
//! `train` fits the post's dense autoencoder (or the same network with a
//! softmax per square) on the positions of real games, or on the post's
//! random positions, with candle on the CPU; `test` measures how well a
//! network rebuilds held-out real positions and random ones, beside MACH's
//! memory test on the same positions; `index` writes the vector of every
//! position of an advisor index beside it (`mach advise --mode embed`).

pub mod amsgrad;
pub mod dataset;
pub mod measure;
pub mod model;
pub mod train;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mach_advisor::chunks::Library;
use mach_advisor::vectors::{Net, Output, Squares};

use dataset::{random_positions, real_positions, Split};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Data {
    /// Positions of the games of --pgn (every tenth game held out).
    Real,
    /// The post's random positions.
    Random,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Loss {
    /// The post's: the 448 planes again, mean squared error.
    Planes,
    /// A softmax over the 13 states of each square, cross-entropy.
    Squares,
}

impl From<Loss> for Output {
    fn from(l: Loss) -> Output {
        match l {
            Loss::Planes => Output::Planes,
            Loss::Squares => Output::Squares,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Graph {
    /// From a million positions on (below, the exact scan takes milliseconds).
    Auto,
    Yes,
    No,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Train an autoencoder and write it to --out after every epoch.
    Train {
        /// The network file to write (an existing one is replaced only if
        /// Mach wrote it, or with --force).
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        force: bool,
        /// Games to learn from (a path, builtin:NAME or shared:REL; default:
        /// the built-in database).
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// Real positions of games, or the post's random ones.
        #[arg(long, value_enum, default_value_t = Data::Real)]
        data: Data,
        /// Training positions.
        #[arg(long, default_value_t = 200_000)]
        positions: usize,
        /// Held-out positions measured after each epoch.
        #[arg(long, default_value_t = 10_000)]
        held_out: usize,
        /// The code's size: the position's vector has this many numbers.
        #[arg(long, default_value_t = 42)]
        code: usize,
        /// What the decoder is trained to give back.
        #[arg(long, value_enum, default_value_t = Loss::Squares)]
        loss: Loss,
        #[arg(long, default_value_t = 10)]
        epochs: usize,
        #[arg(long, default_value_t = 128)]
        batch: usize,
        #[arg(long, default_value_t = 0.001)]
        lr: f64,
        /// Seed of the initial weights, the order of the batches and the
        /// random positions: the same seed gives the same network.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Write the vector of every position of an advisor index beside it,
    /// for `mach advise --mode embed` and `--mode fused`.
    Index {
        /// The index (default: the default index).
        #[arg(long)]
        index: Option<PathBuf>,
        /// The network file (default: the built-in one).
        #[arg(long)]
        weights: Option<PathBuf>,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Link the vectors into a graph (`vectors.ann`) that finds the
        /// nearest without reading them all: auto does for an index of a
        /// million positions or more.
        #[arg(long, value_enum, default_value_t = Graph::Auto)]
        graph: Graph,
    },
    /// How well a network rebuilds held-out real positions and random ones.
    Test {
        /// The network file (a path or builtin:NAME; default: the built-in
        /// one, builtin:position-vectors.vec).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Games whose held-out positions are rebuilt (every tenth game;
        /// default: the built-in database).
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// Real held-out positions.
        #[arg(long, default_value_t = 10_000)]
        positions: usize,
        /// Random positions.
        #[arg(long, default_value_t = 10_000)]
        random: usize,
        /// Seed of the random positions (training used --seed; another
        /// seed gives positions it never saw).
        #[arg(long, default_value_t = 1_000_003)]
        seed: u64,
    },
}

/// Writes the vectors of an index's positions, and the graph over them.
fn index_vectors(
    index: &Option<PathBuf>,
    weights: &Option<PathBuf>,
    threads: usize,
    graph: Graph,
) -> Result<(), String> {
    use mach_advisor::vectors::ann;
    let dir = index.clone().unwrap_or_else(mach_files::default_index_dir);
    let (name, net) = load(weights)?;
    let started = Instant::now();
    let ix = mach_advisor::AdvisorIndex::open(&dir).map_err(|e| e.to_string())?;
    let games = ix.games.len();
    let bar = |len: usize, what: &str| {
        let bar = indicatif::ProgressBar::new(len as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} ({{eta}} left)"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    };
    let encoding = bar(games, "games");
    let mut store = mach_advisor::vectors::VectorStore::build(
        net,
        &ix.games,
        2 * ix.meta.skip_moves as usize,
        threads,
        &|done| encoding.set_position(done as u64),
    );
    encoding.finish_and_clear();
    let written = store.write(&dir).map_err(|e| e.to_string())?;
    println!(
        "{} positions of {games} games encoded with {name} (code {}) in {:.1} s: {} bytes written to {}",
        store.len(),
        store.net.code_size(),
        started.elapsed().as_secs_f64(),
        written.bytes,
        dir.display()
    );
    let wanted = match graph {
        Graph::Auto => store.len() >= ann::AUTO_FROM,
        Graph::Yes => true,
        Graph::No => false,
    };
    if !wanted || store.is_empty() {
        return Ok(());
    }
    if let Err(e) = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("mach: interrupted; the vectors are written, the graph is not");
    }) {
        log::warn!("cannot catch Ctrl-C: {e}");
    }
    let started = Instant::now();
    let linking = bar(store.len(), "positions linked");
    let built = store
        .build_graph(threads, &STOP, &|done| linking.set_position(done as u64))
        .map_err(|e| e.to_string())?;
    linking.finish_and_clear();
    if !built {
        return Err("interrupted: the vectors are written, the graph is not \
             (the nearest positions are found by a scan); run `mach embed index` again for it"
            .into());
    }
    let bytes = store
        .write_graph(&dir, written.codes_crc)
        .map_err(|e| e.to_string())?;
    println!(
        "{} positions linked into {} in {:.1} s: {bytes} bytes",
        store.len(),
        ann::ANN_FILE,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

static STOP: AtomicBool = AtomicBool::new(false);

/// Is `path` a network file Mach wrote (so `--out` may replace it)?
fn ours(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == b"MACHVEC1"
}

fn source(pgn: &Option<PathBuf>) -> Result<mach_advisor::source::Source, String> {
    match pgn {
        None => Ok(mach_files::default_database()),
        Some(p) => mach_files::input(p),
    }
}

/// Reads a network file: a path, `builtin:NAME`, or by default the
/// built-in network.
pub fn load(weights: &Option<PathBuf>) -> Result<(String, Net), String> {
    let src = match weights {
        Some(p) => mach_files::input(p)?,
        None => mach_files::input(Path::new(&format!(
            "builtin:{}",
            mach_files::builtin::POSITION_VECTORS_NAME
        )))?,
    };
    let bytes = src.read_all().map_err(|e| format!("{}: {e}", src.name()))?;
    let net = Net::from_bytes(&bytes).map_err(|e| format!("{}: {e}", src.name()))?;
    Ok((src.name(), net))
}

pub fn run(args: &Args) -> Result<(), String> {
    match &args.command {
        Command::Train {
            out,
            force,
            pgn,
            data,
            positions,
            held_out,
            code,
            loss,
            epochs,
            batch,
            lr,
            seed,
        } => {
            if *code == 0 || *code > 1024 {
                return Err(format!("--code {code}: from 1 to 1024"));
            }
            if *batch == 0 || *epochs == 0 || *positions == 0 {
                return Err("--batch, --epochs and --positions must be above zero".into());
            }
            if !(lr.is_finite() && *lr > 0.0) {
                return Err(format!("--lr {lr}: a positive number"));
            }
            mach_files::outfile::check(out, "--out", *force, Some(ours))?;
            let started = Instant::now();
            let (train_set, held_set, what) = match data {
                Data::Real => {
                    let src = source(pgn)?;
                    let t = real_positions(&src, Split::Train, *positions, 1, usize::MAX)?;
                    let h = real_positions(&src, Split::HeldOut, *held_out, 1, usize::MAX)?;
                    let what = format!(
                        "{} positions of {} games of {} ({} held-out positions of {} other games)",
                        t.positions.len(),
                        t.games,
                        src.name(),
                        h.positions.len(),
                        h.games
                    );
                    (t.positions, h.positions, what)
                }
                Data::Random => {
                    let t = random_positions(*positions, *seed);
                    let h = random_positions(*held_out, seed.wrapping_add(1 << 32));
                    let what = format!("{positions} random positions (seed {seed})");
                    (t, h, what)
                }
            };
            if train_set.is_empty() {
                return Err("no positions to train on".into());
            }
            let output = Output::from(*loss);
            let note = format!(
                "mach embed train: {what}; code {code}, loss {}, {epochs} epochs, batch {batch}, lr {lr}, seed {seed}",
                output.name()
            );
            eprintln!("{note}");
            eprintln!(
                "read in {:.1} s; the network is written to {} after each epoch",
                started.elapsed().as_secs_f64(),
                out.display()
            );
            if let Err(e) = ctrlc::set_handler(|| {
                if STOP.swap(true, Ordering::SeqCst) {
                    std::process::exit(130);
                }
                eprintln!("mach: interrupted; the last whole epoch is kept");
            }) {
                log::warn!("cannot catch Ctrl-C: {e}");
            }
            let plan = train::Plan {
                code: *code,
                output,
                epochs: *epochs,
                batch: *batch,
                learning_rate: *lr,
                seed: *seed,
            };
            let t = train::train(&plan, &train_set, &held_set, &note, &STOP, |net| {
                train::save_to(out, net)
            })?;
            match (t.interrupted, t.curve.last()) {
                (_, None) => Err("interrupted before the first epoch ended: nothing written".into()),
                (true, Some(last)) => Err(format!(
                    "interrupted in epoch {}: {} holds epoch {} (held-out wrong squares {:.2} per position)",
                    last.epoch + 1,
                    out.display(),
                    last.epoch,
                    last.held_out.wrong_per_position()
                )),
                (false, Some(last)) => {
                    println!(
                        "trained after {} epochs in {:.0} s: {} ({} parameters), held-out wrong squares {:.2} per position",
                        last.epoch,
                        started.elapsed().as_secs_f64(),
                        out.display(),
                        t.net.parameters(),
                        last.held_out.wrong_per_position()
                    );
                    Ok(())
                }
            }
        }
        Command::Index {
            index,
            weights,
            threads,
            graph,
        } => index_vectors(index, weights, *threads, *graph),
        Command::Test {
            weights,
            pgn,
            positions,
            random,
            seed,
        } => {
            let (name, net) = load(weights)?;
            println!(
                "{name}: code {}, output {}, {} parameters ({})",
                net.code_size(),
                net.output.name(),
                net.parameters(),
                net.note
            );
            let src = source(pgn)?;
            let real = real_positions(&src, Split::HeldOut, *positions, 1, usize::MAX)?;
            let r = measure::reconstruction(&net, &real.positions);
            let chunks = measure::chunk_memory_percent(&Library::builtin(), &real.positions);
            println!(
                "real positions ({} of {} held-out games of {}): {:.2} wrong squares per position, {:.1}% of pieces recovered, {:.1}% rebuilt whole; MACH's memory test (the built-in chunks) on the same positions: {:.1}% of pieces covered",
                r.positions,
                real.games,
                src.name(),
                r.wrong_per_position(),
                r.recovered_percent(),
                r.perfect_percent(),
                chunks
            );
            let rnd: Vec<Squares> = random_positions(*random, *seed);
            let q = measure::reconstruction(&net, &rnd);
            println!(
                "random positions ({}, seed {seed}): {:.2} wrong squares per position, {:.1}% of pieces recovered, {:.1}% rebuilt whole",
                q.positions,
                q.wrong_per_position(),
                q.recovered_percent(),
                q.perfect_percent()
            );
            Ok(())
        }
    }
}
