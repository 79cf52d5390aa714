//! `mach advise` for terminals: the position and its opening, the advice with W/D/L percentages
//! and average ratings, then each retrieved game with shakmaty's board diagram and why it is alike.
//! What comes from the games' PGN (players, events) is printed without control characters.

use shakmaty::{Color, Position};

use crate::advise::view::View;
use crate::printable::field;
use mach_pages::words;

/// Matching terms listed per family on a terminal (the HTML page lists them all).
const TERMS_SHOWN: usize = 8;

/// "white" or "black".
fn side(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// A board diagram (shakmaty's), indented.
fn diagram(board: &shakmaty::Board, indent: &str) -> String {
    format!("{board:?}")
        .lines()
        .map(|l| format!("{indent}{l}\n"))
        .collect()
}

/// Percent of `x` in `n`.
fn pct(x: u32, n: u32) -> f32 {
    100.0 * x as f32 / n.max(1) as f32
}

/// Prints the view as text.
pub fn print(v: &View) {
    let pos = v.line.pos();
    println!("position  {}", v.fen);
    println!(
        "opening   {}",
        v.opening
            .as_ref()
            .map_or("no named opening".to_string(), |n| format!(
                "{} {}",
                n.eco, n.name
            ))
    );
    println!("to move   {}, move {}", side(pos.turn()), pos.fullmoves());
    print!("{}", diagram(pos.board(), "          "));
    println!(
        "retrieved {} games in {:.1} ms from {}",
        v.games.len(),
        v.query_ms,
        field(&v.index_dir)
    );
    if v.tree_games > 0 {
        println!(
            "tree      {} games of the opening tree reached this position",
            v.tree_games
        );
    }
    println!("chunks    {} found here:", v.chunks.len());
    for (name, class, n, advice) in &v.chunks {
        println!(
            "  {name:<32} {class:<28} {n} pieces{}{}",
            if advice.is_empty() { "" } else { "  advice " },
            advice.join(", ")
        );
    }
    println!();
    println!(
        "advice ({}; {} moves dropped: no legal analogue here)",
        if v.exact && v.tree_games > 0 && v.indexed {
            "games that reached this very position, the opening tree's and the index's"
        } else if v.exact && v.tree_games > 0 {
            "games of the opening tree that reached this very position"
        } else if v.exact {
            "games that reached this very position"
        } else {
            "similar positions"
        },
        v.dropped
    );
    println!("  move     games   win  draw  loss  avg elo  share  bonus");
    for m in &v.moves {
        println!(
            "  {:<7} {:>6}  {:>3.0}%  {:>3.0}%  {:>3.0}%  {:>7}  {:>4.0}%  {:>5}",
            m.san,
            m.games,
            pct(m.wins, m.games),
            pct(m.draws, m.games),
            pct(m.losses, m.games),
            m.avg_elo.map_or("-".into(), |e| e.to_string()),
            100.0 * m.share,
            if m.bonus > 0 {
                format!("+{}", m.bonus)
            } else {
                "-".into()
            }
        );
    }
    for (i, g) in v.games.iter().enumerate() {
        println!();
        println!(
            "{:>2}. {} score {:.2}  {} ({}) - {} ({}), {} {}, move {} ({} to move), {}; played {}",
            i + 1,
            if g.exact { "EXACT  " } else { "similar" },
            g.score,
            field(&g.white),
            g.white_elo,
            field(&g.black),
            g.black_elo,
            field(&g.event),
            g.year,
            g.there.fullmoves(),
            side(g.there.turn()),
            g.result,
            g.played_san.as_deref().unwrap_or("-"),
        );
        print!("{}", diagram(g.there.board(), "      "));
        let shared: Vec<&str> = g
            .matched
            .iter()
            .filter_map(|t| t.strip_prefix("ck:"))
            .collect();
        println!(
            "    shares {} of the chunks: {}",
            shared.len(),
            shared.join(" ")
        );
        let plain: Vec<String> = g
            .matched
            .iter()
            .filter(|t| !t.starts_with("ck:") && !t.starts_with("cc:"))
            .cloned()
            .collect();
        for (family, list) in words::grouped(&plain) {
            let more = list.len().saturating_sub(TERMS_SHOWN);
            let shown = list[..list.len().min(TERMS_SHOWN)].join(", ");
            if more > 0 {
                println!("    {family} ({}): {shown} and {more} more", list.len());
            } else {
                println!("    {family} ({}): {shown}", list.len());
            }
        }
    }
}
