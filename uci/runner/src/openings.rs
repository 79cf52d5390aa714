//! The openings a match starts its games from.
//!
//! EPD (one position per line), PGN (the moves of each game) or the
//! named-openings TSV of `books/openings/eco/` (eco, name, moves),
//! from a file or built into the binary.

use std::path::Path;

use mach_advisor::source::Source;

use shakmaty::{san::San, Chess, Move, Position};

use super::types::{position_from_fen, Opening};

/// The openings file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Epd,
    Pgn,
    Tsv,
}

impl Format {
    /// The format a file name's extension says, if it says one.
    pub fn guess(name: &str) -> Option<Format> {
        match Path::new(name).extension()?.to_str()? {
            "epd" => Some(Format::Epd),
            "pgn" => Some(Format::Pgn),
            "tsv" => Some(Format::Tsv),
            _ => None,
        }
    }
}

/// SAN moves from a movetext like "1. e4 e5 2. Nf3" (move numbers skipped).
fn san_moves(start: &Chess, text: &str) -> Option<Vec<Move>> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for tok in text.split_whitespace() {
        let t = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if t.is_empty() || matches!(t, "*" | "1-0" | "0-1" | "1/2-1/2") {
            continue;
        }
        let m = t.parse::<San>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        out.push(m);
    }
    Some(out)
}

/// The openings cut to their first `plies` moves (like cutechess-cli's
/// `plies=N`), each distinct line kept once, in first-seen order: the short
/// starts of a long suite, where games can still follow known paths. A line
/// that was cut is named by its length; the others keep their names.
pub fn cut(openings: Vec<Opening>, plies: usize) -> Vec<Opening> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for mut o in openings {
        if o.moves.len() > plies {
            o.moves.truncate(plies);
            o.name = format!("{plies} plies");
        }
        if seen.insert((o.fen.clone(), o.moves.clone())) {
            out.push(o);
        }
    }
    out
}

/// Every usable opening in `source`; an error if there is none.
pub fn load(source: &Source, format: Format) -> Result<Vec<Opening>, String> {
    let text = source.read_all().map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    match format {
        Format::Epd => {
            for line in String::from_utf8_lossy(&text).lines() {
                let fields: Vec<&str> = line.split_whitespace().take(4).collect();
                if fields.len() < 4 {
                    continue;
                }
                let fen = format!("{} 0 1", fields.join(" "));
                if let Some(start) = position_from_fen(&fen) {
                    out.push(Opening {
                        name: fen.clone(),
                        start,
                        fen: Some(fen),
                        moves: Vec::new(),
                    });
                }
            }
        }
        Format::Tsv => {
            for line in String::from_utf8_lossy(&text).lines().skip(1) {
                let cols: Vec<&str> = line.split('\t').collect();
                if cols.len() < 3 {
                    continue;
                }
                if let Some(moves) = san_moves(&Chess::default(), cols[2]) {
                    out.push(Opening {
                        name: format!("{} {}", cols[0], cols[1]),
                        start: Chess::default(),
                        fen: None,
                        moves,
                    });
                }
            }
        }
        Format::Pgn => {
            mach_advisor::pgn::read_games(&text[..], |g| {
                if let Some(game) = g.game {
                    let start = game.start();
                    out.push(Opening {
                        name: format!("{} moves", game.moves.len()),
                        fen: game.fen.clone(),
                        start,
                        moves: game.moves,
                    });
                }
            })
            .map_err(|e| e.to_string())?;
        }
    }
    if out.is_empty() {
        return Err(format!("no usable opening in {}", source.name()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Opening {
        Opening {
            name: text.into(),
            start: Chess::default(),
            fen: None,
            moves: san_moves(&Chess::default(), text).unwrap(),
        }
    }

    #[test]
    fn cutting_openings_keeps_each_short_line_once_in_order() {
        let book = vec![
            line("1. e4 e5 2. Nf3 Nc6"),
            line("1. d4 d5 2. c4"),
            line("1. e4 e5 2. Bc4"),
            line("1. e4"),
        ];
        let cut2 = cut(book.clone(), 2);
        assert_eq!(cut2.len(), 3);
        assert_eq!(cut2[0].moves, line("1. e4 e5").moves);
        assert_eq!(cut2[1].moves, line("1. d4 d5").moves);
        assert_eq!(cut2[2].moves, line("1. e4").moves);
        assert_eq!(cut2[0].name, "2 plies");
        assert_eq!(cut2[2].name, "1. e4", "a line not cut keeps its name");
        assert_eq!(cut(book.clone(), 0).len(), 1);
        assert_eq!(cut(book, 99).len(), 4);
    }
}
