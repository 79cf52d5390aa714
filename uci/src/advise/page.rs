//! The advice page: the query board with the advice's arrows, the advice table, and every retrieved game.

use std::fmt::Write as _;

use shakmaty::{Color, Move, Position};

use crate::advise::view::{GameRow, MoveRow, View};
use mach_pages::board::{self, Arrow, Diagram};
use mach_pages::game_view::{self, Stepper};
use mach_pages::{esc, words};

/// Colour of the advice arrows on the query board.
const ADVICE_COLOR: &str = "#1565c0";
/// Colour of the grandmaster's move on a retrieved game's board.
const PLAYED_COLOR: &str = "#c62828";

/// Matching terms shown per family before the rest is folded away.
const TERMS_SHOWN: usize = 10;

/// What `mach explore` adds: its form (and any message) above the page, and a
/// link for each suggested move.
pub struct Served<'a> {
    pub header: String,
    pub link: &'a dyn Fn(Move) -> String,
}

/// The whole page for `v` (`served` when `mach explore` serves it).
pub fn page(v: &View, served: Option<&Served>) -> String {
    mach_pages::page(
        &format!("Mach advice: {}", v.fen),
        &body(v, served),
        game_view::SCRIPT,
    )
}

/// A W/D/L bar with its percentages, for the side that played the move.
pub fn wdl_bar(w: u32, d: u32, l: u32) -> String {
    let n = (w + d + l).max(1) as f32;
    let pct = |x: u32| 100.0 * x as f32 / n;
    format!(
        "<div class=\"wdl\" title=\"+{w} ={d} -{l}\"><span class=\"w\" style=\"width:{:.1}%\"></span>\
         <span class=\"d\" style=\"width:{:.1}%\"></span><span class=\"l\" style=\"width:{:.1}%\"></span></div>\
         <small>{:.0}% / {:.0}% / {:.0}%</small>",
        pct(w),
        pct(d),
        pct(l),
        pct(w),
        pct(d),
        pct(l)
    )
}

/// "white" or "black".
fn side(c: Color) -> &'static str {
    if c == Color::White {
        "white"
    } else {
        "black"
    }
}

/// The page's body: header, query board and advice, then the games.
pub fn body(v: &View, served: Option<&Served>) -> String {
    let pos = v.line.pos();
    let mut out = String::from("<h1>Mach: what the grandmasters played here</h1>\n");
    if let Some(s) = served {
        out.push_str(&s.header);
    }
    let arrows = v
        .moves
        .iter()
        .map(|m| {
            let (from, to) = board::move_squares(m.mv);
            Arrow {
                from,
                to,
                color: ADVICE_COLOR,
                opacity: 0.25 + 0.75 * m.share,
            }
        })
        .collect();
    let svg = board::svg(&Diagram {
        board: pos.board(),
        highlight: shakmaty::Bitboard::EMPTY,
        arrows,
        px: 320,
        id: "query".into(),
    });
    let opening = v
        .opening
        .as_ref()
        .map_or("no named opening".to_string(), |n| {
            format!("{} {}", esc(&n.eco), esc(&n.name))
        });
    let _ = write!(
        out,
        "<div class=\"game\" id=\"position\">{svg}<div class=\"info\">\
         <p><b>{} to move</b>, move {}</p><p class=\"opening\">{opening}</p>\
         <p class=\"muted\"><code>{}</code></p>\
         <p class=\"muted\">{} games retrieved in {:.1} ms from {}{}; {}</p>",
        side(pos.turn()),
        pos.fullmoves(),
        esc(&v.fen),
        v.games.len(),
        v.query_ms,
        esc(&v.index_dir),
        if v.tree_games > 0 {
            format!(
                ", and {} games of the opening tree reached this position",
                v.tree_games
            )
        } else {
            String::new()
        },
        if v.exact {
            "the advice comes from games that reached this very position"
        } else {
            "no game reached this very position: the advice comes from similar ones"
        }
    );
    out.push_str(&advice_table(v, served));
    out.push_str(&chunks(v));
    out.push_str("</div></div>\n<h2>The games</h2>\n");
    for (i, g) in v.games.iter().enumerate() {
        out.push_str(&game(i, g));
    }
    out.push_str(&alike_by_shape(v));
    out
}

/// The games alike by shape: nearest by vector, after those alike by terms.
fn alike_by_shape(v: &View) -> String {
    if v.shape.is_empty() && v.shape_note.is_none() {
        return String::new();
    }
    let mut out = String::from("<h2 id=\"shape\">Alike by shape</h2>\n");
    match &v.shape_note {
        Some(why) => {
            let _ = writeln!(out, "<p class=\"muted\">None shown: {}.</p>", esc(why));
        }
        None => out.push_str(
            "<p class=\"muted\">The positions nearest this one by their vectors: numbers a network \
             learnt to rebuild boards from, so the pieces' places decide, not the terms above. \
             Similarity 100% is the same vector.</p>\n",
        ),
    }
    for (i, g) in v.shape.iter().enumerate() {
        out.push_str(&game(v.games.len() + i, g));
    }
    out
}

/// The advice as a table, one row per suggested move.
fn advice_table(v: &View, served: Option<&Served>) -> String {
    if v.moves.is_empty() {
        return "<p id=\"advice\" class=\"muted\">No advice: no retrieved game has a move that is legal here.</p>".into();
    }
    let mut out = String::from(
        "<table id=\"advice\"><tr><th>move</th><th class=\"num\">games</th><th>win / draw / loss</th>\
         <th class=\"num\">avg rating</th><th class=\"num\">share</th><th>from</th><th class=\"num\">bonus</th></tr>",
    );
    for m in &v.moves {
        out.push_str(&advice_row(m, v.exact, served));
    }
    let _ = write!(
        out,
        "</table><p class=\"muted\">Win/draw/loss for the side that played the move. Bonus: centipawns \
         the search adds to the move ({} x share, from a share of {:.0}%). {} moves of retrieved games \
         had no legal analogue here.</p>",
        if v.exact {
            "AdviceWeight"
        } else {
            "AdviceSimilarWeight"
        },
        100.0 * crate::uci::advice_policy::MIN_SHARE,
        v.dropped
    );
    out
}

/// One advice row.
fn advice_row(m: &MoveRow, exact: bool, served: Option<&Served>) -> String {
    let san = match served {
        Some(s) => format!(
            "<a class=\"go\" href=\"{}\" title=\"one move deeper\">{}</a>",
            esc(&(s.link)(m.mv)),
            esc(&m.san)
        ),
        None => esc(&m.san),
    };
    format!(
        "<tr><td><b>{san}</b> <small class=\"muted\">{}</small></td><td class=\"num\">{}</td><td>{}</td>\
         <td class=\"num\">{}</td><td class=\"num\">{:.0}%</td><td>{}</td><td class=\"num\">{}</td></tr>",
        m.uci,
        m.games,
        wdl_bar(m.wins, m.draws, m.losses),
        m.avg_elo.map_or("-".into(), |e| e.to_string()),
        100.0 * m.share,
        if exact { "exact" } else { "similar" },
        if m.bonus > 0 {
            format!("+{} cp", m.bonus)
        } else {
            "-".into()
        }
    )
}

/// The MACH chunks found in the query position.
fn chunks(v: &View) -> String {
    if v.chunks.is_empty() {
        return String::new();
    }
    let list: Vec<String> = v
        .chunks
        .iter()
        .map(|(name, class, n, _)| format!("{} ({}, {n} pieces)", esc(name), esc(class)))
        .collect();
    format!("<p class=\"muted\">Chunks here: {}</p>", list.join(", "))
}

/// One retrieved game: stepper board, players, and why it is alike.
fn game(i: usize, g: &GameRow) -> String {
    let arrows = g
        .played
        .map(|m| {
            let (from, to) = board::move_squares(m);
            vec![Arrow {
                from,
                to,
                color: PLAYED_COLOR,
                opacity: 0.9,
            }]
        })
        .unwrap_or_default();
    let id = format!("g{}", i + 1);
    let svg = board::svg(&Diagram {
        board: g.there.board(),
        highlight: g.shared,
        arrows,
        px: 280,
        id: format!("{id}b"),
    });
    let start_white = (g.there.turn() == Color::White) == g.ply.is_multiple_of(2);
    let first_move = g.there.fullmoves().get() as usize - (g.ply + usize::from(!start_white)) / 2;
    let stepper = game_view::html(&Stepper {
        id: &id,
        svg,
        start_board: &g.start_board,
        plies: &g.plies,
        at: g.ply,
        first_move: first_move.max(1) as u32,
        white_first: start_white,
        pgn: &g.pgn,
        pgn_name: &format!("mach-game-{}.pgn", i + 1),
    });
    let elo = |e: u16| {
        if e > 0 {
            format!(" ({e})")
        } else {
            String::new()
        }
    };
    let mut terms = String::from("<ul class=\"terms\">");
    for (family, list) in words::grouped(&g.matched) {
        let (shown, rest) = list.split_at(list.len().min(TERMS_SHOWN));
        let more = if rest.is_empty() {
            String::new()
        } else {
            format!(
                " <details><summary>and {} more</summary>{}</details>",
                rest.len(),
                esc(&rest.join(", "))
            )
        };
        let _ = write!(
            terms,
            "<li><b>{family}</b> ({}): {}{more}</li>",
            list.len(),
            esc(&shown.join(", "))
        );
    }
    terms.push_str("</ul>");
    let (kind, score) = if g.by_shape {
        (
            "alike by shape",
            format!(
                "<small class=\"muted\">similarity {:.0}%</small>",
                100.0 * g.score
            ),
        )
    } else if g.exact {
        ("same position", String::new())
    } else {
        (
            "similar position",
            format!("<small class=\"muted\">BM25 {:.1}</small>", g.score),
        )
    };
    format!(
        "<div class=\"game retrieved{}\">{stepper}<div class=\"info\"><p><b>{}. {}</b> {}</p>\
         <p><b>{}{}</b> - <b>{}{}</b>, {} {}, <b>{}</b></p>\
         <p>move {}, {} to move, played <b>{}</b></p>\
         <p class=\"muted\">{} squares hold the same piece as in your position (green). Why it is alike:</p>{terms}</div></div>\n",
        if g.by_shape { " shape" } else { "" },
        i + 1,
        kind,
        score,
        esc(&g.white),
        elo(g.white_elo),
        esc(&g.black),
        elo(g.black_elo),
        esc(&g.event),
        if g.year > 0 { g.year.to_string() } else { String::new() },
        g.result,
        g.there.fullmoves(),
        side(g.there.turn()),
        g.played_san.as_deref().map_or("-".to_string(), esc),
        g.shared.count(),
    )
}
