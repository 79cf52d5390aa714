//! Calibration of the advice (`mach advise --eval PGN --calibrate FILE`):
//! on positions of games not in the index, how often the advisor's first
//! move is the grandmaster's, by bucket of what the advisor knew (exact or
//! similar, its share of the evidence, how many games played it, how alike
//! the best similar position is). The rows go to a TSV file that
//! `tools/calibrate.py` hands to Stockfish for the second opinion.

use std::io::Write;

use mach_advisor::advice::Advice;
use mach_advisor::index::AdvisorIndex;
use mach_advisor::retrieval::QueryOptions;
use shakmaty::{fen::Fen, Chess, EnPassantMode, Move};

/// One position's advice, reduced to what calibration buckets by.
#[derive(Clone, Debug)]
pub struct Row {
    pub fen: String,
    pub played: String,
    pub advised: String,
    pub exact: bool,
    pub share: f32,
    pub games: u32,
    pub similarity: f32,
}

impl Row {
    /// The row for `advice` at `pos`, where `played` was the game's move;
    /// `None` when the advisor suggested nothing.
    pub fn new(
        index: &AdvisorIndex,
        o: &QueryOptions,
        pos: &Chess,
        played: Move,
        advice: &Advice,
    ) -> Option<Row> {
        let top = advice.moves.first()?;
        let best = advice
            .hits
            .iter()
            .filter(|h| !h.exact)
            .map(|h| h.score)
            .fold(0.0f32, f32::max);
        let similarity = if advice.exact {
            1.0
        } else {
            index.similarity(pos, o, best).unwrap_or(0.0)
        };
        let uci = |m: Move| m.to_uci(shakmaty::CastlingMode::Standard).to_string();
        Some(Row {
            fen: Fen::from_position(pos, EnPassantMode::Legal).to_string(),
            played: uci(played),
            advised: uci(top.mv),
            exact: advice.exact,
            share: top.weight,
            games: top.games,
            similarity,
        })
    }

    /// The row's bucket names: kind, share, games, similarity.
    pub fn buckets(&self) -> [&'static str; 4] {
        [
            if self.exact { "exact" } else { "similar" },
            bucket(self.share, &SHARES),
            match self.games {
                0..=1 => "1 game",
                2..=3 => "2-3 games",
                _ => "4+ games",
            },
            if self.exact {
                "exact"
            } else {
                bucket(self.similarity, &SIMILARITY)
            },
        ]
    }
}

const SHARES: [(f32, &str); 4] = [
    (0.15, "share < 0.15"),
    (0.3, "share 0.15-0.3"),
    (0.5, "share 0.3-0.5"),
    (f32::INFINITY, "share >= 0.5"),
];

const SIMILARITY: [(f32, &str); 4] = [
    (0.3, "sim < 0.3"),
    (0.4, "sim 0.3-0.4"),
    (0.5, "sim 0.4-0.5"),
    (f32::INFINITY, "sim >= 0.5"),
];

fn bucket(x: f32, bounds: &[(f32, &'static str)]) -> &'static str {
    bounds
        .iter()
        .find(|(b, _)| x < *b)
        .map_or(bounds[bounds.len() - 1].1, |(_, n)| n)
}

/// Writes the rows as TSV (with a header line).
pub fn write(path: &std::path::Path, rows: &[Row]) -> Result<(), String> {
    let mut f = std::fs::File::create(path)
        .map(std::io::BufWriter::new)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = String::from("fen\tplayed\tadvised\texact\tshare\tgames\tsimilarity\n");
    for r in rows {
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{:.3}\t{}\t{:.3}\n",
            r.fen, r.played, r.advised, r.exact as u8, r.share, r.games, r.similarity
        ));
    }
    f.write_all(out.as_bytes())
        .and_then(|_| f.flush())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The table: for each family of buckets, positions and agreement with the
/// grandmaster's move.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    for (i, family) in ["kind", "share", "games", "similarity"].iter().enumerate() {
        out.push_str(&format!("by {family}:\n"));
        let mut names: Vec<&str> = rows.iter().map(|r| r.buckets()[i]).collect();
        names.sort_unstable();
        names.dedup();
        for n in names {
            let inside: Vec<&Row> = rows.iter().filter(|r| r.buckets()[i] == n).collect();
            let agree = inside.iter().filter(|r| r.played == r.advised).count();
            out.push_str(&format!(
                "  {n:<16} {:>5} positions  top-1 = played {:>5.1}%\n",
                inside.len(),
                100.0 * agree as f64 / inside.len().max(1) as f64
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(exact: bool, share: f32, games: u32, similarity: f32, agree: bool) -> Row {
        Row {
            fen: "x".into(),
            played: "e2e4".into(),
            advised: if agree { "e2e4" } else { "d2d4" }.into(),
            exact,
            share,
            games,
            similarity,
        }
    }

    #[test]
    fn rows_fall_in_the_bucket_their_numbers_name() {
        assert_eq!(
            row(false, 0.31, 2, 0.45, true).buckets(),
            ["similar", "share 0.3-0.5", "2-3 games", "sim 0.4-0.5"]
        );
        assert_eq!(
            row(true, 0.9, 12, 1.0, true).buckets(),
            ["exact", "share >= 0.5", "4+ games", "exact"]
        );
        assert_eq!(row(false, 0.1, 1, 0.1, false).buckets()[1], "share < 0.15");
    }

    #[test]
    fn the_table_counts_agreement_per_bucket() {
        let rows = vec![
            row(true, 0.9, 5, 1.0, true),
            row(true, 0.9, 5, 1.0, false),
            row(false, 0.2, 1, 0.2, false),
        ];
        let t = table(&rows);
        assert!(
            t.contains("exact                2 positions  top-1 = played  50.0%"),
            "{t}"
        );
        assert!(
            t.contains("similar              1 positions  top-1 = played   0.0%"),
            "{t}"
        );
    }
}
