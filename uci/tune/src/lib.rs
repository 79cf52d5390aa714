//! `mach tune`: Texel tuning of every evaluation weight on quiet positions
//! of games with their results, or on positions labelled with an engine's
//! evaluation (EPD with `ce`); writes `engine/src/psqt.rs`.

mod data;
mod emit;
mod features;
mod fit;
mod labelled;
mod rng;

use std::path::{Path, PathBuf};
use std::time::Instant;

use mach_advisor::source::Source;

use mach_files as paths;

/// The first line of every evaluation source, compiled in or written by a
/// tune: the files a tune may replace without --force.
const PSQT_FIRST_LINE: &str = "//! Every evaluation number in one place.";

#[derive(clap::Args)]
pub struct Args {
    /// PGN files of games with results (paths, builtin:NAME or shared:REL),
    /// e.g. a big database of your own (see the README) or `mach match --pgnout`
    /// games; or EPD files (`.epd`) of positions labelled with `ce`, an
    /// evaluation for the side to move (`tools/label.py`). Not both kinds.
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
    /// Quiet positions to sample (training and held-out together).
    #[arg(long, default_value_t = 1_000_000)]
    positions: usize,
    /// Seed of the sampling, the held-out split and the batch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Passes of Adam over the training positions.
    #[arg(long, default_value_t = 50)]
    epochs: usize,
    /// Share of the games whose positions are held out of training.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// Where to write the tables (Rust source). An existing file is replaced
    /// only if it is an evaluation source (the engine's psqt.rs or an
    /// earlier tune's), or with --force.
    #[arg(long, default_value = "engine/src/psqt.rs")]
    out: PathBuf,
    /// Replace --out (or --write-epd) even if it is some other file.
    #[arg(long)]
    force: bool,
    /// Write the sampled quiet positions of the games to this EPD file (with
    /// each game's result as `c9`) and stop, for labelling by an engine.
    #[arg(long)]
    write_epd: Option<PathBuf>,
    /// Scale of the logistic curve of Mach's evaluation, per centipawn;
    /// fitted to the start weights when not given (labels are read at
    /// ln(10)/400, so a fitted K keeps Mach's scale where the labeller's differs).
    #[arg(long)]
    k: Option<f64>,
    /// Start from the weights compiled in today (default: plain piece values,
    /// every other weight zero).
    #[arg(long)]
    from_psqt: bool,
    /// Keep the start's scale: material values fixed, each piece's square
    /// table at its start's mean (use with --from-psqt; the search's margins
    /// assume a pawn near 100 in both phases).
    #[arg(long)]
    anchor: bool,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's first step size in centipawns (falls linearly to a tenth).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// A weight used by fewer training positions than this keeps its start
    /// value (a mobility count seen a few times would be fitted to noise).
    #[arg(long, default_value_t = 200)]
    min_positions: usize,
    /// Fit only these groups of weights, the others stay at the start's
    /// (comma-separated: material, pst, mobility, pair, king-attack, checks, king-weak, targets, pawn-push, pawn-path, king-pawns, tempo; default all),
    /// e.g. `--from-psqt --fit mobility,pair,tempo`.
    #[arg(long, value_delimiter = ',')]
    fit: Vec<String>,
    /// Each row of these groups keeps its start's mean, weighted by how
    /// often the training positions use each cell (comma-separated group
    /// names, as --fit): a table indexed by a count cannot then take up
    /// the piece's material value.
    #[arg(long, value_delimiter = ',')]
    keep_means: Vec<String>,
}

/// Refuses, before any work, an --out the tune could not write or must not
/// replace: a directory, a path in no directory, one of the games read, or
/// an existing file that is not an evaluation source (unless `force`).
fn check_out(out: &Path, inputs: &[Source], force: bool) -> Result<(), String> {
    paths::output_file(out)?;
    if !out.exists() {
        return Ok(());
    }
    let same = |p: &Path| match (out.canonicalize(), p.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if inputs
        .iter()
        .any(|s| matches!(s, Source::File(p) if same(p)))
    {
        return Err(format!(
            "--out {} is one of the games read: not overwritten",
            out.display()
        ));
    }
    let ours = std::fs::read_to_string(out)
        .map(|t| t.lines().next() == Some(PSQT_FIRST_LINE))
        .unwrap_or(false);
    if !ours && !force {
        return Err(format!(
            "--out {} exists and is not an evaluation source: not overwritten (pass --force to replace it)",
            out.display()
        ));
    }
    Ok(())
}

/// Runs the tune: read, sample, fit K, fit the weights, write the source.
pub fn run(args: &Args) -> Result<(), String> {
    if args.positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    if !(0.0..1.0).contains(&args.holdout) {
        return Err(format!("--holdout must be in [0, 1), not {}", args.holdout));
    }
    if args.batch == 0 || args.lr.is_nan() || args.lr <= 0.0 {
        return Err("--batch and --lr must be positive".into());
    }
    let mut trainable = features::trainable(&args.fit)?;
    let keep_means = features::rows_of(&args.keep_means)?;
    let clock = Instant::now();
    let sources = args
        .pgn
        .iter()
        .map(|p| paths::input(p))
        .collect::<Result<Vec<_>, _>>()?;
    let labels = sources.iter().filter(|s| labelled::is_epd(s)).count();
    if labels != 0 && labels != sources.len() {
        return Err("give PGN games or labelled EPD positions, not both".into());
    }
    if labels > 0 && args.write_epd.is_some() {
        return Err("--write-epd samples games: give PGN files".into());
    }
    if let Some(k) = args.k.filter(|k| !(k.is_finite() && *k > 0.0)) {
        return Err(format!("--k must be a positive number, not {k}"));
    }
    match &args.write_epd {
        None => check_out(&args.out, &sources, args.force)?,
        Some(path) => {
            paths::output_file(path)?;
            if path.exists() && !args.force {
                return Err(format!(
                    "--write-epd {} exists: not overwritten (pass --force to replace it)",
                    path.display()
                ));
            }
        }
    }
    let (train, held) = if labels > 0 {
        load_labelled(args, &sources, clock)?
    } else {
        match load_games(args, &sources, clock)? {
            Some(sets) => sets,
            None => return Ok(()),
        }
    };
    if train.is_empty() {
        return Err(
            "no training position: the games gave no quiet position after the opening, or the EPD no quiet labelled one".into(),
        );
    }
    let start = if args.from_psqt {
        features::compiled_weights()
    } else {
        features::material_only_weights()
    };
    let mut w: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let k = args.k.unwrap_or_else(|| fit::fit_k(&train, &w));
    let (train0, held0) = (fit::loss(&train, &w, k), fit::loss(&held, &w, k));
    println!(
        "K = {k:.6} per centipawn; loss before: train {train0:.6}, held-out {held0:.6} ({} start)",
        if args.from_psqt {
            "psqt.rs"
        } else {
            "material-only"
        }
    );
    if !args.from_psqt {
        let today: Vec<f64> = features::compiled_weights()
            .into_iter()
            .map(f64::from)
            .collect();
        println!(
            "  (today's psqt.rs at this K: train {:.6}, held-out {:.6})",
            fit::loss(&train, &today, k),
            fit::loss(&held, &today, k)
        );
    }
    let before_rare = trainable.clone();
    let rare = fit::freeze_rare(&train, &mut trainable, args.min_positions);
    let is_rare: Vec<bool> = before_rare
        .iter()
        .zip(&trainable)
        .map(|(&b, &a)| b && !a)
        .collect();
    if rare > 0 {
        println!(
            "{rare} weights used by fewer than {} training positions keep their start values",
            args.min_positions
        );
    }
    let settings = fit::Settings {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        seed: args.seed,
        anchor: args.anchor.then(|| w.clone()),
        trainable,
        keep_means,
    };
    let fit_clock = Instant::now();
    fit::adam(&train, &mut w, k, &settings, |epoch, w| {
        if epoch % 10 == 0 || epoch == args.epochs {
            log::info!(
                "epoch {epoch}: train {:.6}, held-out {:.6}",
                fit::loss(&train, w, k),
                fit::loss(&held, w, k)
            );
        }
    });
    features::fill_rare_king_cells(&mut w, &is_rare);
    let rounded: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let wr: Vec<f64> = rounded.iter().map(|&x| f64::from(x)).collect();
    let (train1, held1) = (fit::loss(&train, &wr, k), fit::loss(&held, &wr, k));
    println!(
        "loss after {} epochs ({:.1} s): train {train1:.6}, held-out {held1:.6}",
        args.epochs,
        fit_clock.elapsed().as_secs_f64()
    );
    let command = std::iter::once("mach tune".to_string())
        .chain(std::env::args().skip(2))
        .collect::<Vec<_>>()
        .join(" ");
    let lines = vec![
        format!("Command: `{command}`"),
        format!(
            "Data: {}; {} quiet positions ({} train, {} held out{}), seed {}.",
            sources.iter().map(|s| s.name()).collect::<Vec<_>>().join(", "),
            train.len() + held.len(),
            train.len(),
            held.len(),
            if labels > 0 { ", labelled by ce" } else { " by game" },
            args.seed
        ),
        format!(
            "Fit: K = {k:.6}, start {}{}{}{}, Adam {} epochs; loss train {train0:.6} -> {train1:.6}, held-out {held0:.6} -> {held1:.6}.",
            if args.from_psqt { "psqt.rs" } else { "material only" },
            if args.anchor { " (anchored: material and square-table means kept)" } else { "" },
            if args.fit.is_empty() { String::new() } else { format!(", fitted: {} (the rest kept)", args.fit.join(", ")) },
            if args.keep_means.is_empty() { String::new() } else { format!(", each row's weighted mean kept: {}", args.keep_means.join(", ")) },
            args.epochs
        ),
    ];
    // The weights a `--fit` keeps are the compiled psqt.rs's: its story stays.
    let provenance = emit::fit_provenance(
        args.from_psqt.then_some(emit::COMPILED_PSQT),
        &args.fit,
        lines,
    );
    let src = emit::psqt_source(&rounded, &provenance);
    std::fs::write(&args.out, src)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "wrote {} in {:.1} s total",
        args.out.display(),
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The labelled positions of EPD `sources`, split into training and
/// held-out sets, with a summary line of what was read.
fn load_labelled(
    args: &Args,
    sources: &[Source],
    clock: Instant,
) -> Result<(data::Dataset, data::Dataset), String> {
    let (train, held, ls) = labelled::read(sources, args.seed, args.holdout, args.positions)?;
    println!(
        "read {} labelled positions ({} train, {} held out) from {} lines: {} unreadable, {} without ce, {} beyond ±{} cp, {} not quiet; {:.1} s",
        ls.kept,
        train.len(),
        held.len(),
        ls.lines,
        ls.unreadable,
        ls.unlabelled,
        ls.decided,
        labelled::MAX_LABEL,
        ls.not_quiet,
        clock.elapsed().as_secs_f64()
    );
    Ok((train, held))
}

/// The quiet positions sampled from the games of PGN `sources`, split into
/// training and held-out sets by game; `None` when `--write-epd` wrote
/// them to a file instead (the tune stops there).
fn load_games(
    args: &Args,
    sources: &[Source],
    clock: Instant,
) -> Result<Option<(data::Dataset, data::Dataset)>, String> {
    let (games, rs) = data::read(sources)?;
    println!(
        "read {} games with a result ({} skipped) in {:.1} s",
        rs.games,
        rs.skipped,
        clock.elapsed().as_secs_f64()
    );
    let mut lines = args.write_epd.as_ref().map(|_| Vec::new());
    let (train, held, ss) = data::sample(
        &games,
        args.positions,
        args.seed,
        args.holdout,
        lines.as_mut(),
    );
    drop(games);
    println!(
        "sampled {} quiet positions ({} train, {} held out) from {} candidates: {} examined, {} not in check, {} quiet; {:.0} MB; {:.1} s",
        train.len() + held.len(),
        train.len(),
        held.len(),
        ss.candidates,
        ss.examined,
        ss.not_in_check,
        ss.quiet,
        (train.bytes() + held.bytes()) as f64 / 1e6,
        clock.elapsed().as_secs_f64()
    );
    if let (Some(path), Some(lines)) = (&args.write_epd, lines) {
        let mut text = lines.join("\n");
        text.push('\n');
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {} positions to {}", lines.len(), path.display());
        return Ok(None);
    }
    Ok(Some((train, held)))
}
