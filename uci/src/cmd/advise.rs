//! `mach advise --fen FEN | --moves "e2e4 e7e5 ..." [--index DIR] [--top K] [--json]`:
//! the grandmaster positions most like this one, why, and what was played.
//!
//! Also `--bench N` (query latency percentiles) and `--eval PGN --first-game N`
//! (how often the top suggestion is the move the grandmaster played, on games
//! not in the index).

use std::path::PathBuf;
use std::time::Instant;

use mach_advisor::advice::Advice;
use mach_advisor::opening_tree::OpeningTree;
use mach_advisor::pgn::read_games;
use mach_advisor::retrieval::QueryOptions;
use mach_advisor::AdvisorIndex;
use mach_engine::board;
use serde_json::json;
use shakmaty::{fen::Fen, Chess, Color, EnPassantMode, Position};

use crate::advise::page as advise_page;
use crate::advise::position_input::{self, Line};
use crate::advise::{text as advise_text, view as advise_view};
use crate::uci::advisor_client;
use mach_files as paths;
use mach_pages as html;

#[derive(clap::Args)]
pub struct Args {
    /// Position as FEN.
    #[arg(long, conflicts_with = "moves")]
    fen: Option<String>,
    /// Position as moves from the start, in UCI or SAN notation, space-separated.
    #[arg(long)]
    moves: Option<String>,
    /// Index directory (default: $MACH_INDEX, else the platform's data directory, e.g.
    /// ~/.local/share/mach/gm2700-classical-4000).
    #[arg(long)]
    index: Option<PathBuf>,
    /// Leave the built-in opening tree out (the index's games alone).
    #[arg(long)]
    no_tree: bool,
    /// Games to retrieve.
    #[arg(long, default_value_t = 30)]
    top: usize,
    /// BM25 hits fetched before keeping the best per game.
    #[arg(long, default_value_t = 1000)]
    fetch: usize,
    /// Only games where both players are rated at least this.
    #[arg(long)]
    min_elo: Option<u16>,
    /// Only games of these years, e.g. 1990-2010.
    #[arg(long)]
    years: Option<String>,
    /// Keep every query term, and do not require the same material (the papers' plain query).
    #[arg(long)]
    plain: bool,
    /// Drop query terms found in more than this share of the documents.
    #[arg(long, default_value_t = 0.01)]
    max_df: f32,
    /// Do not narrow the candidates by pawn structure and material.
    #[arg(long)]
    no_filter: bool,
    /// How similar positions are found: bm25 (terms, chunks included), mach
    /// (MACH's class, chunk and king filters), both (MACH's filters, BM25's
    /// ranking), embed (nearest vectors; `mach embed index` first) or fused
    /// (BM25's and the vectors' rankings fused).
    #[arg(long, default_value = "bm25")]
    mode: mach_advisor::retrieval::Mode,
    /// Leave the chunk and class terms out of the BM25 query.
    #[arg(long)]
    no_chunk_terms: bool,
    /// MACH's R: classes and chunks a similar position may lack.
    #[arg(long, default_value_t = 1)]
    mach_r: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write the advice as a self-contained HTML page (boards, arrows, statistics, the games) to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    html: Option<PathBuf>,
    /// Replace an --html FILE that Mach did not write (a page Mach wrote is always
    /// replaced), or an existing --calibrate FILE.
    #[arg(long)]
    force: bool,
    /// Measure query latency over N positions taken from the index's own games.
    #[arg(long, value_name = "N")]
    bench: Option<usize>,
    /// Measure advice against the moves played in this PGN's games (not in the index);
    /// a path, builtin:NAME or shared:REL.
    #[arg(long, value_name = "PGN")]
    eval: Option<PathBuf>,
    /// With --eval: the first game of the PGN to use (earlier ones are in the index).
    #[arg(long, default_value_t = 0)]
    first_game: usize,
    /// With --eval: at most this many positions.
    #[arg(long, default_value_t = 2000)]
    limit: usize,
    /// With --eval: print agreement by bucket and write each position's advice
    /// as TSV to FILE (for `tools/calibrate.py`).
    #[arg(long, value_name = "FILE")]
    calibrate: Option<PathBuf>,
}

fn query_options(a: &Args) -> Result<QueryOptions, String> {
    let years = match &a.years {
        None => None,
        Some(y) => {
            let (from, to) = y
                .split_once('-')
                .ok_or("--years takes FROM-TO, e.g. 1990-2010")?;
            let p = |s: &str| {
                s.trim()
                    .parse::<u16>()
                    .map_err(|_| format!("bad year '{s}'"))
            };
            Some((p(from)?, p(to)?))
        }
    };
    let mut o = QueryOptions {
        fetch: a.fetch,
        k: a.top,
        min_elo: a.min_elo,
        years,
        max_df: a.max_df,
        material_filter: !a.no_filter,
        mode: a.mode,
        mach_r: a.mach_r,
        chunk_terms: !a.no_chunk_terms,
        exact_only: false,
    };
    if a.plain {
        o.max_df = 1.0;
        o.material_filter = false;
    }
    Ok(o)
}

pub fn run(a: &Args) -> Result<(), String> {
    // Before the index is opened: an output must not cost a user's file.
    if let Some(path) = &a.html {
        html::check_page(path, a.force)?;
    }
    if let Some(path) = &a.calibrate {
        mach_files::outfile::check(path, "--calibrate", a.force, None)?;
    }
    let dir = a.index.clone().unwrap_or_else(paths::default_index_dir);
    let tree = advisor_client::tree_unless(a.no_tree)?;
    // The position's view needs no index when the tree is there: without
    // one it shows the tree's statistics alone.
    let plain_view = a.bench.is_none() && a.eval.is_none() && !a.json;
    if plain_view && tree.is_some() && a.index.is_none() && !dir.exists() {
        eprintln!(
            "mach advise: no index at {} (`mach index` builds one): the opening tree alone",
            dir.display()
        );
        return show(a, None, tree.as_ref());
    }
    let index = AdvisorIndex::open(&dir).map_err(|e| {
        format!("{e}\n(build the default index with `mach index`, or pass --index DIR)")
    })?;
    let o = query_options(a)?;
    if let Some(n) = a.bench {
        return bench(&index, &o, n);
    }
    if let Some(pgn) = &a.eval {
        return eval(&index, &o, pgn, a, a.calibrate.as_deref());
    }
    if a.json {
        let line = position(a)?;
        let pos = line.pos();
        let advice = index.advise(pos, &o).map_err(|e| e.to_string())?;
        println!(
            "{}",
            serde_json::to_string_pretty(&to_json(&index, pos, &advice)).unwrap_or_default()
        );
        return Ok(());
    }
    show(a, Some(&index), tree.as_ref())
}

/// The position's advice, on the terminal or as a page.
fn show(a: &Args, index: Option<&AdvisorIndex>, tree: Option<&OpeningTree>) -> Result<(), String> {
    let o = query_options(a)?;
    let line = position(a)?;
    let memory = advise_view::Memory {
        index,
        tree,
        merge: advisor_client::merges(index),
        shapes: a.html.is_some(),
    };
    let view = advise_view::gather(
        &memory,
        line,
        &o,
        crate::uci::advice_policy::Weights::default(),
    )?;
    match &a.html {
        Some(path) => {
            let page = advise_page::page(&view, None);
            html::write_page(path, &page, a.force)?;
            println!(
                "wrote {} ({} bytes): {} games, {} suggested moves",
                path.display(),
                page.len(),
                view.games.len(),
                view.moves.len()
            );
        }
        None => advise_text::print(&view),
    }
    Ok(())
}

/// The position of `--fen` or `--moves` (UCI or SAN).
fn position(a: &Args) -> Result<Line, String> {
    match (&a.fen, &a.moves) {
        (Some(f), None) => position_input::from_fen(f),
        (None, Some(m)) => position_input::from_moves(m),
        (None, None) => Err("give a position with --fen FEN or --moves \"e2e4 e7e5 ...\"".into()),
        (Some(_), Some(_)) => Err("give --fen or --moves, not both".into()),
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn to_json(index: &AdvisorIndex, pos: &Chess, advice: &Advice) -> serde_json::Value {
    let hits: Vec<serde_json::Value> = advice
        .hits
        .iter()
        .filter_map(|h| {
            let g = index.games.get(h.game)?;
            let (there, next) = g.position_at(h.ply as usize)?;
            Some(json!({
                "game": h.game,
                "ply": h.ply,
                "move_number": there.fullmoves().get(),
                "side_to_move": side(there.turn()),
                "exact": h.exact,
                "score": h.score,
                "white": g.white, "white_elo": g.white_elo,
                "black": g.black, "black_elo": g.black_elo,
                "event": g.event, "year": g.year,
                "fen": Fen::from_position(&there, EnPassantMode::Legal).to_string(),
                "played": next.map(|m| board::uci(m, false)),
                "matched_terms": index.matched_terms(pos, h),
            }))
        })
        .collect();
    let moves: Vec<serde_json::Value> = advice
        .moves
        .iter()
        .map(|s| {
            json!({
                "move": board::uci(s.mv, false),
                "weight": s.weight,
                "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            })
        })
        .collect();
    let chunks: Vec<serde_json::Value> = index
        .chunks
        .find(pos.board())
        .iter()
        .map(|f| {
            let inst = &index.chunks.instances[f.instance];
            json!({"chunk": inst.name, "class": inst.class, "pieces": f.covered.count(), "advice": inst.advice})
        })
        .collect();
    json!({
        "fen": Fen::from_position(pos, EnPassantMode::Legal).to_string(),
        "chunks": chunks,
        "query_ms": advice.query_ms,
        "dropped": advice.dropped,
        "similar": hits,
        "advice": moves,
    })
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Query latency over `n` positions spread over the index's games (ply 24
/// on, the middlegames the advisor is for).
fn bench(index: &AdvisorIndex, o: &QueryOptions, n: usize) -> Result<(), String> {
    let games = index.games.len().max(1);
    let mut times = Vec::with_capacity(n);
    let mut positions = Vec::new();
    let mut g = 0usize;
    while positions.len() < n && g < games * 4 {
        if let Some(game) = index.games.get((g * 7919 % games) as u32) {
            let ply = 24 + (g * 13) % 40;
            if ply < game.moves.len() {
                if let Some((p, _)) = game.position_at(ply) {
                    positions.push(p);
                }
            }
        }
        g += 1;
    }
    // Warm the caches once, as a running engine would be: the index's files
    // in the page cache (read once, as the engine's read-ahead does), then
    // tantivy's own caches.
    let t = Instant::now();
    let bytes = mach_advisor::page_cache::read_all(&index.dir);
    println!(
        "index read into the page cache: {:.0} MB in {:.1} s",
        bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    for p in positions.iter().take(20) {
        let _ = index.advise(p, o);
    }
    for p in &positions {
        let t = Instant::now();
        index.advise(p, o).map_err(|e| e.to_string())?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    graph_recall(index, o, &positions);
    println!(
        "{} queries on {} documents: p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        index.documents(),
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(0.0)
    );
    Ok(())
}

/// With the vectors' graph (`vectors.ann`) and a mode that reads it, how
/// many of the exact scan's nearest positions the graph finds.
fn graph_recall(index: &AdvisorIndex, o: &QueryOptions, positions: &[shakmaty::Chess]) {
    use mach_advisor::retrieval::Mode;
    let Some(v) = index.vectors.as_ref().filter(|v| v.has_graph()) else {
        return;
    };
    if !matches!(o.mode, Mode::Embed | Mode::Fused) {
        return;
    }
    for k in [10, o.fetch.max(1)] {
        let (mut found, mut asked) = (0, 0);
        for p in positions {
            let code = mach_advisor::vectors::store::quantize(
                &v.net
                    .encode(&mach_advisor::vectors::Squares::of(p.board(), p.turn())),
            );
            if let Some(n) = v.graph_recall(&code, k) {
                found += n;
                asked += k;
            }
        }
        println!(
            "the graph found {found} of the exact scan's {asked} nearest positions ({} nearest a query): recall {:.3}",
            k,
            found as f64 / asked.max(1) as f64
        );
    }
}

/// Top-1 and top-3 agreement of the advice with the moves played in games
/// `first_game..` of `pgn` (from ply 24, every other ply).
fn eval(
    index: &AdvisorIndex,
    o: &QueryOptions,
    pgn: &std::path::Path,
    a: &Args,
    calibrate: Option<&std::path::Path>,
) -> Result<(), String> {
    let (first_game, limit) = (a.first_game, a.limit);
    let mut rows = Vec::new();
    let source = paths::input(pgn)?;
    let file = source.open().map_err(|e| e.to_string())?;
    let mut positions = Vec::new();
    let mut n = 0usize;
    read_games(std::io::BufReader::new(file), |g| {
        n += 1;
        if n <= first_game || positions.len() >= limit {
            return;
        }
        let Some(game) = g.game else { return };
        let mut pos = game.start();
        for (ply, &m) in game.moves.iter().enumerate() {
            if ply >= 24 && ply % 2 == 0 && positions.len() < limit {
                positions.push((pos.clone(), m));
            }
            pos.play_unchecked(m);
        }
    })
    .map_err(|e| e.to_string())?;
    let (mut top1, mut top3, mut advised, mut exact) = (0, 0, 0, 0);
    let mut times = Vec::new();
    for (pos, played) in &positions {
        let a = index.advise(pos, o).map_err(|e| e.to_string())?;
        times.push(a.query_ms);
        if calibrate.is_some() {
            rows.extend(crate::advise::calibrate::Row::new(
                index, o, pos, *played, &a,
            ));
        }
        if a.hits.iter().any(|h| h.exact) {
            exact += 1;
        }
        if a.moves.is_empty() {
            continue;
        }
        advised += 1;
        if a.moves[0].mv == *played {
            top1 += 1;
        }
        if a.moves.iter().take(3).any(|s| s.mv == *played) {
            top3 += 1;
        }
    }
    times.sort_by(f64::total_cmp);
    let total = positions.len().max(1) as f64;
    println!(
        "{} positions from games {}.. of {} (not in the index; ply >= 24, every other ply)",
        positions.len(),
        first_game + 1,
        source.name()
    );
    println!(
        "advice given   {advised} ({:.1}%), exact matches {exact}",
        100.0 * advised as f64 / total
    );
    println!(
        "top-1 = played {top1} ({:.1}%)",
        100.0 * top1 as f64 / total
    );
    println!(
        "top-3 has it   {top3} ({:.1}%)",
        100.0 * top3 as f64 / total
    );
    println!(
        "latency        p50 {:.2} ms, p99 {:.2} ms",
        percentile(&times, 0.5),
        percentile(&times, 0.99)
    );
    if let Some(path) = calibrate {
        print!("{}", crate::advise::calibrate::table(&rows));
        crate::advise::calibrate::write(path, &rows)?;
        println!("{} rows written to {}", rows.len(), path.display());
    }
    Ok(())
}
