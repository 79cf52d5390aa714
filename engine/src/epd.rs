//! EPD test positions (`<fen 4 fields> bm Qg6; am Kh1; id "WAC.001";`) as
//! found in the wild: SAN with or without `+`/`#`, stray spaces (`bm Qd1 +`),
//! missing move counters.

use shakmaty::{san::San, Chess, Move};

use crate::board::from_fen;

#[derive(Clone, Debug)]
pub struct EpdPosition {
    pub pos: Chess,
    pub fen: String,
    pub id: String,
    /// Best moves (any of them solves the position).
    pub best: Vec<Move>,
    /// Moves to avoid.
    pub avoid: Vec<Move>,
    /// Every `op value` pair, for callers that need more (perft counts, STS scores).
    pub ops: Vec<(String, String)>,
}

impl EpdPosition {
    /// Does `m` solve this position?
    pub fn solved_by(&self, m: Move) -> bool {
        (self.best.is_empty() || self.best.contains(&m)) && !self.avoid.contains(&m)
    }

    /// STS points of `m`: the `c8` points at its place among the `c9` moves
    /// (UCI), 0 for a move not listed; `None` without `c8`/`c9`. A move
    /// listed twice (seven positions of sts1-15-v3 do that) gets its best.
    pub fn points(&self, m: Move) -> Option<u32> {
        let op = |name: &str| {
            self.ops
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.trim_matches('"'))
        };
        let (points, moves) = (op("c8")?, op("c9")?);
        let uci = crate::board::uci(m, false);
        let best = moves
            .split_whitespace()
            .zip(points.split_whitespace())
            .filter(|(u, _)| *u == uci)
            .filter_map(|(_, p)| p.parse().ok())
            .max();
        Some(best.unwrap_or(0))
    }
}

/// Parses one EPD line; the error says what is wrong with it.
pub fn parse_line(line: &str) -> Result<EpdPosition, String> {
    let line = line.trim();
    let fields: Vec<&str> = line.splitn(5, ' ').collect();
    if fields.len() < 4 {
        return Err(format!("not an EPD line: '{line}'"));
    }
    let mut fen = fields[..4].join(" ");
    let mut rest = fields.get(4).copied().unwrap_or("").trim();
    // Some files carry the move counters (`... - - 0 1 bm e4;`).
    let mut words = rest.split_whitespace();
    if let (Some(a), Some(b)) = (words.next(), words.next()) {
        if a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok() {
            fen = format!("{fen} {a} {b}");
            rest = rest.trim_start()[a.len()..].trim_start()[b.len()..].trim();
        }
    }
    let pos = from_fen(&fen, false)?;
    let mut out = EpdPosition {
        pos,
        fen,
        id: String::new(),
        best: Vec::new(),
        avoid: Vec::new(),
        ops: Vec::new(),
    };
    for op in rest.split(';') {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (name, value) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let value = value.trim();
        match name {
            "bm" => out.best = moves(&out.pos, value)?,
            "am" => out.avoid = moves(&out.pos, value)?,
            "id" => out.id = value.trim_matches('"').to_string(),
            _ => {}
        }
        out.ops.push((name.to_string(), value.to_string()));
    }
    Ok(out)
}

/// SAN moves separated by spaces; a lone `+`/`#` belongs to the move before.
fn moves(pos: &Chess, text: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .map(|t| t.trim_end_matches(['+', '#', '!', '?']))
        .filter(|t| !t.is_empty())
        .map(|t| {
            let san: San = t.parse().map_err(|_| format!("bad SAN '{t}'"))?;
            san.to_move(pos).map_err(|_| format!("illegal move '{t}'"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_suite_lines_as_found() {
        let p = parse_line(
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#,
        )
        .unwrap();
        assert_eq!(p.id, "WAC.001");
        assert_eq!(p.best.len(), 1);
        let p =
            parse_line("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - ; bm Qd1 + ; id BK.01")
                .unwrap();
        assert_eq!(p.id, "BK.01");
        assert_eq!(crate::board::uci(p.best[0], false), "d6d1");
        let p = parse_line("4k3/8/8/8/8/8/8/4K2R w K - 1 1 ;D1 15 ;D2 66").unwrap();
        assert_eq!(p.ops[0], ("D1".to_string(), "15".to_string()));
        assert_eq!(p.ops[1], ("D2".to_string(), "66".to_string()));
        assert!(parse_line("garbage").is_err());
        let sts = parse_line(r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS(v1.0) Undermine.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2"; c7 "f5 Be5+ Bf2 Bg4"; c8 "10 2 3 2"; c9 "f4f5 d4e5 d4f2 f3g4";"#).unwrap();
        let mv = |u: &str| crate::board::parse_uci_move(&sts.pos, u).unwrap();
        assert_eq!(sts.points(mv("f4f5")), Some(10));
        assert_eq!(sts.points(mv("d4f2")), Some(3));
        assert_eq!(sts.points(mv("g1h1")), Some(0));
        let twice = parse_line(r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; c8 "10 2 3 7"; c9 "f4f5 d4e5 d4f2 d4f2";"#).unwrap();
        assert_eq!(
            twice.points(mv("d4f2")),
            Some(7),
            "a move listed twice: its best"
        );
        assert_eq!(p.points(mv("f4f5")), None, "no c8/c9: no points");
        assert!(parse_line("8/8/8/8/8/8/8/8 w - - bm e4;").is_err());
    }
}

#[cfg(test)]
mod fuzz {
    use super::parse_line;
    use crate::board::{from_fen, parse_uci_move};

    /// Deterministic mutation fuzzing of the FEN, UCI-move and EPD parsers:
    /// whatever the input, an `Err`, never a panic.
    #[test]
    fn parsers_never_panic_on_mutated_input() {
        let seeds = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - ; bm Qd1 + ; id BK.01",
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66",
        ];
        let alphabet = b"pnbrqkPNBRQK12345678/ -wbKQkqe3;bmamid\"0x";
        let mut state = 0x5851_f42d_4c95_7f2du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..20_000 {
            let seed = seeds[i % seeds.len()];
            let mut b = seed.as_bytes().to_vec();
            for _ in 0..(1 + next() % 4) {
                let at = (next() % (b.len() as u64 + 1)) as usize;
                let c = alphabet[(next() % alphabet.len() as u64) as usize];
                match next() % 3 {
                    0 if at < b.len() => b[at] = c,
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    _ => b.insert(at, c),
                }
            }
            let text = String::from_utf8_lossy(&b);
            let _ = parse_line(&text);
            if let Ok(pos) = from_fen(&text, i % 2 == 0) {
                for mv in ["e2e4", "e1g1", "e7e8q", "a1a1", "zz", "e1h1"] {
                    let _ = parse_uci_move(&pos, mv);
                }
            }
        }
    }
}
