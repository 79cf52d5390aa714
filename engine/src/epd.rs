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
        assert!(parse_line("8/8/8/8/8/8/8/8 w - - bm e4;").is_err());
    }
}
