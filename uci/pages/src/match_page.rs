//! The match report page: score, Elo with its interval drawn, LOS, pentanomial pairs, the Elo game
//! by game as a line chart, and every game with its PGN.

use std::fmt::Write as _;

use super::{esc, pgn_data_url};

/// One finished game as the report lists it.
#[derive(Clone, Debug)]
pub struct GameLine {
    pub white: String,
    pub black: String,
    pub result: &'static str,
    pub termination: String,
    pub detail: String,
    pub plies: usize,
    pub pgn: String,
    /// The first engine's Elo and its 95% half-width after this game.
    pub elo: f64,
    pub error: f64,
}

/// Everything the report shows.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub names: [String; 2],
    pub control: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub elo: f64,
    pub error: f64,
    pub los: f64,
    pub penta: [u32; 5],
    /// The SPRT line, when there is one.
    pub sprt: Option<String>,
    pub games: Vec<GameLine>,
    /// Whether the match is over (else the page says it is still running).
    pub finished: bool,
    pub planned: usize,
}

/// Elo shown on the charts is clamped to this (a perfect score is infinite Elo).
const CLAMP: f64 = 600.0;

/// An Elo figure for people: "+12.3", or "+inf" for a perfect score.
fn elo_text(e: f64) -> String {
    if e.is_finite() {
        format!("{:+.1}", e + 0.0)
    } else if e > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// The whole page.
pub fn page(r: &Report) -> String {
    let n = r.wins + r.draws + r.losses;
    let score = if n == 0 {
        0.0
    } else {
        100.0 * (r.wins as f64 + 0.5 * r.draws as f64) / n as f64
    };
    let mut out = format!(
        "<h1>{} vs {}</h1><p class=\"muted\">{}, {} of {} games{}</p>",
        esc(&r.names[0]),
        esc(&r.names[1]),
        esc(&r.control),
        n,
        r.planned,
        if r.finished {
            ""
        } else {
            " (running: reload for more)"
        }
    );
    let elo_cell = match (n, r.error.is_finite()) {
        (0, _) => "no game yet".to_string(),
        (_, true) => format!("{} &plusmn; {:.1} (95%)", elo_text(r.elo), r.error),
        (_, false) => format!("{} &plusmn; inf (95%)", elo_text(r.elo)),
    };
    let _ = write!(
        out,
        "<table id=\"figures\"><tr><th>score</th><td>+{} ={} -{} ({score:.1}%)</td></tr>\
         <tr><th>Elo</th><td>{}</td></tr><tr><th>LOS</th><td>{:.1}%</td></tr>\
         <tr><th>pairs</th><td>{}</td></tr>{}</table>",
        r.wins,
        r.draws,
        r.losses,
        elo_cell,
        100.0 * r.los,
        penta_table(&r.penta, &r.names[0]),
        r.sprt.as_ref().map_or(String::new(), |s| format!(
            "<tr><th>SPRT</th><td>{}</td></tr>",
            esc(s)
        )),
    );
    if n > 0 {
        out.push_str(&interval(r.elo, r.error));
    }
    out.push_str("<h2>Elo game by game</h2>");
    out.push_str(&chart(&r.games));
    out.push_str("<h2>Games</h2>");
    out.push_str(&games(&r.games));
    super::page(&format!("{} vs {}", r.names[0], r.names[1]), &out, "")
}

/// The pentanomial counts as a small inline table.
fn penta_table(p: &[u32; 5], first: &str) -> String {
    let mut s = String::from("<table id=\"penta\"><tr>");
    for h in ["0", "0.5", "1", "1.5", "2"] {
        let _ = write!(s, "<th class=\"num\">{h}</th>");
    }
    s.push_str("</tr><tr>");
    for c in p {
        let _ = write!(s, "<td class=\"num\">{c}</td>");
    }
    let _ = write!(
        s,
        "</tr></table><small class=\"muted\">points of {} in each pair of games</small>",
        esc(first)
    );
    s
}

/// The Elo and its 95% interval on an axis from -CLAMP to +CLAMP.
fn interval(elo: f64, error: f64) -> String {
    let (w, h) = (600.0, 60.0);
    let x = |e: f64| w / 2.0 + e.clamp(-CLAMP, CLAMP) / CLAMP * (w / 2.0 - 20.0);
    let mut s = format!(
        "<svg id=\"interval\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\
         <line x1=\"20\" y1=\"30\" x2=\"{}\" y2=\"30\" stroke=\"#999\"/>",
        w - 20.0
    );
    for tick in [-CLAMP, -CLAMP / 2.0, 0.0, CLAMP / 2.0, CLAMP] {
        let _ = write!(
            s,
            "<line x1=\"{0}\" y1=\"25\" x2=\"{0}\" y2=\"35\" stroke=\"#999\"/><text x=\"{0}\" y=\"52\" font-size=\"11\" text-anchor=\"middle\">{1:+}</text>",
            x(tick),
            tick
        );
    }
    let (lo, hi) = if error.is_finite() && elo.is_finite() {
        (elo - error, elo + error)
    } else {
        (-CLAMP, CLAMP)
    };
    let _ = write!(
        s,
        "<rect class=\"ci\" x=\"{:.1}\" y=\"22\" width=\"{:.1}\" height=\"16\" fill=\"#90caf9\"/>\
         <circle class=\"elo\" cx=\"{:.1}\" cy=\"30\" r=\"5\" fill=\"#0d47a1\"/></svg>",
        x(lo),
        (x(hi) - x(lo)).max(1.0),
        x(if elo.is_nan() { 0.0 } else { elo })
    );
    s
}

/// The Elo after each game as a line, its 95% band shaded.
fn chart(games: &[GameLine]) -> String {
    let (w, h, m) = (700.0, 260.0, 40.0);
    let n = games.len().max(2) as f64 - 1.0;
    let x = |i: usize| m + i as f64 / n * (w - 2.0 * m);
    let y = |e: f64| h / 2.0 - e.clamp(-CLAMP, CLAMP) / CLAMP * (h / 2.0 - 20.0);
    let finite = |e: f64, d: f64| if e.is_finite() { e } else { d };
    let mut s = format!(
        "<svg id=\"chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\" stroke=\"#ccc\"/>"
    );
    for tick in [-CLAMP, -CLAMP / 2.0, 0.0, CLAMP / 2.0, CLAMP] {
        let _ = write!(
            s,
            "<line x1=\"{m}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#eee\"/><text x=\"4\" y=\"{2:.1}\" font-size=\"11\">{3:+}</text>",
            y(tick),
            w - m,
            y(tick) + 4.0,
            tick
        );
    }
    if !games.is_empty() {
        let band: Vec<String> = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let e = finite(g.elo, g.elo.signum() * CLAMP);
                format!("{:.1},{:.1}", x(i), y(e + finite(g.error, CLAMP)))
            })
            .chain(games.iter().enumerate().rev().map(|(i, g)| {
                let e = finite(g.elo, g.elo.signum() * CLAMP);
                format!("{:.1},{:.1}", x(i), y(e - finite(g.error, CLAMP)))
            }))
            .collect();
        let line: Vec<String> = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                format!(
                    "{:.1},{:.1}",
                    x(i),
                    y(finite(g.elo, g.elo.signum() * CLAMP))
                )
            })
            .collect();
        let _ = write!(
            s,
            "<polygon class=\"band\" points=\"{}\" fill=\"#bbdefb\" fill-opacity=\"0.6\"/>\
             <polyline class=\"elo-line\" points=\"{}\" fill=\"none\" stroke=\"#0d47a1\" stroke-width=\"2\"/>",
            band.join(" "),
            line.join(" ")
        );
        for (i, g) in games.iter().enumerate() {
            let _ = write!(
                s,
                "<circle class=\"pt\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#0d47a1\"><title>game {}: {}</title></circle>",
                x(i),
                y(finite(g.elo, g.elo.signum() * CLAMP)),
                i + 1,
                elo_text(g.elo)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The games as a table with their PGN.
fn games(games: &[GameLine]) -> String {
    let mut s = String::from(
        "<table id=\"games\"><tr><th>#</th><th>white</th><th>black</th><th>result</th><th>termination</th>\
         <th class=\"num\">plies</th><th>PGN</th></tr>",
    );
    for (i, g) in games.iter().enumerate() {
        let _ = write!(
            s,
            "<tr class=\"gm\"><td>{}</td><td>{}</td><td>{}</td><td><b>{}</b></td><td>{} <small class=\"muted\">{}</small></td>\
             <td class=\"num\">{}</td><td><a download=\"game-{}.pgn\" href=\"{}\">PGN</a> \
             <details><summary>moves</summary><pre>{}</pre></details></td></tr>",
            i + 1,
            esc(&g.white),
            esc(&g.black),
            g.result,
            esc(&g.termination),
            esc(&g.detail),
            g.plies,
            i + 1,
            pgn_data_url(&g.pgn),
            esc(&g.pgn)
        );
    }
    s.push_str("</table>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(elo: f64) -> GameLine {
        GameLine {
            white: "A".into(),
            black: "B".into(),
            result: "1-0",
            termination: "normal".into(),
            detail: "mate".into(),
            plies: 40,
            pgn: "1. e4 *".into(),
            elo,
            error: f64::INFINITY,
        }
    }

    #[test]
    fn a_perfect_score_still_draws_a_chart_and_a_row_per_game() {
        let r = Report {
            names: ["A".into(), "B".into()],
            wins: 2,
            elo: f64::INFINITY,
            error: f64::INFINITY,
            games: vec![line(f64::INFINITY), line(f64::INFINITY)],
            finished: true,
            planned: 2,
            ..Report::default()
        };
        let p = page(&r);
        assert_eq!(p.matches("class=\"gm\"").count(), 2);
        assert_eq!(p.matches("class=\"pt\"").count(), 2);
        assert!(p.contains("+inf") && !p.contains("NaN"));
    }
}
