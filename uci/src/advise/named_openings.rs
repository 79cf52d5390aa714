//! Opening names (ECO code and name) from the named openings built into `mach` (`books/openings/eco/`).

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::{san::San, zobrist::Zobrist64, Chess, EnPassantMode, Position};

use mach_files::builtin as data;

/// A named opening: ECO code and name, e.g. ("B90", "Sicilian Defense: Najdorf Variation").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub eco: String,
    pub name: String,
}

/// The position key the table is built on.
fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Every named position of the built-in TSV files, by key (the first name given wins).
fn table() -> &'static HashMap<u64, Named> {
    static TABLE: OnceLock<HashMap<u64, Named>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut map = HashMap::new();
        for file in [
            "eco/a.tsv",
            "eco/b.tsv",
            "eco/c.tsv",
            "eco/d.tsv",
            "eco/e.tsv",
        ] {
            let Some(bytes) = data::builtin(file) else {
                continue;
            };
            for line in String::from_utf8_lossy(bytes).lines().skip(1) {
                let cols: Vec<&str> = line.split('\t').collect();
                if cols.len() < 3 {
                    continue;
                }
                let Some(pos) = replay(cols[2]) else {
                    log::debug!("named openings: cannot replay {line}");
                    continue;
                };
                map.entry(key(&pos)).or_insert_with(|| Named {
                    eco: cols[0].to_string(),
                    name: cols[1].to_string(),
                });
            }
        }
        map
    })
}

/// The position after a SAN movetext like "1. e4 c5 2. Nf3".
fn replay(text: &str) -> Option<Chess> {
    let mut pos = Chess::default();
    for tok in text.split_whitespace() {
        let t = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if t.is_empty() {
            continue;
        }
        let m = t.parse::<San>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
    }
    Some(pos)
}

/// The name of this very position, if it has one.
pub fn of_position(pos: &Chess) -> Option<Named> {
    table().get(&key(pos)).cloned()
}

/// The name of the deepest named position along `positions` (the start
/// first, the current position last): a game keeps its opening's name after
/// it leaves the book.
pub fn of_line(positions: &[Chess]) -> Option<Named> {
    positions.iter().rev().find_map(of_position)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn after(moves: &str) -> Vec<Chess> {
        let mut pos = Chess::default();
        let mut out = vec![pos.clone()];
        for m in moves.split_whitespace() {
            let mv = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn the_najdorf_is_named_and_keeps_its_name_one_move_later() {
        let line = after("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6");
        let n = of_line(&line).unwrap();
        assert_eq!(n.eco, "B90");
        assert!(n.name.contains("Najdorf"), "{n:?}");
        let later = after("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 a2a3 h7h6");
        assert_eq!(of_line(&later).unwrap().eco, "B90");
    }

    #[test]
    fn the_start_position_has_no_name() {
        assert_eq!(of_position(&Chess::default()), None);
    }
}
