//! Labelled positions: EPD lines whose `ce` opcode is an evaluation of the
//! position in centipawns for the side to move, by a search of some engine
//! (`tools/label.py` labels the positions `mach tune --write-epd` samples).
//! A position's target is that evaluation through the logistic curve at
//! `LABEL_K`: an expected score, as a game result is, but one exact number
//! for this very position where a result says only who won, much later.
//! Mach's evaluation gets its own K, fitted as for results, so a labeller
//! whose centipawns are smaller or larger than Mach's does not change the
//! scale that the search's margins assume.

use std::io::{BufRead, BufReader};

use mach_advisor::source::Source;
use mach_engine::epd::parse_line;
use shakmaty::{Color, Position};

use super::data::{is_quiet, Dataset};
use super::features::extract;
use super::fit::sigmoid;
use super::rng::Rng;

/// Labels beyond this are mate scores or lost positions: they say nothing
/// a centipawn evaluation can match, so such lines are skipped.
pub const MAX_LABEL: i32 = 2000;

/// The scale labels are read at: ln(10)/400 per centipawn, the Elo curve
/// (a label of +400 is an expected score of 10/11).
pub const LABEL_K: f64 = std::f64::consts::LN_10 / 400.0;

/// What reading the labelled files gave.
#[derive(Default, Debug)]
pub struct LabelStats {
    /// Lines that were not blank.
    pub lines: usize,
    /// Positions kept (training and held out).
    pub kept: usize,
    /// Lines that are no EPD position.
    pub unreadable: usize,
    /// Positions without an integer `ce` (the labeller found a mate).
    pub unlabelled: usize,
    /// Positions with a label beyond ±`MAX_LABEL`.
    pub decided: usize,
    /// Positions in check or not quiet by Mach's own quiescence.
    pub not_quiet: usize,
}

/// True when `source` is read as labelled positions, not as games.
pub fn is_epd(source: &Source) -> bool {
    source.name().to_ascii_lowercase().ends_with(".epd")
}

/// White's expected score for a label of `ce` centipawns for the side to
/// move.
pub fn target(ce: i32, white_to_move: bool) -> f32 {
    let white = if white_to_move { ce } else { -ce };
    sigmoid(LABEL_K * f64::from(white)) as f32
}

/// Reads up to `limit` labelled positions from `sources`, split into a
/// training and a held-out set (a seeded `holdout` share of the lines).
/// Unreadable lines are counted and the first few logged, not fatal.
pub fn read(
    sources: &[Source],
    seed: u64,
    holdout: f64,
    limit: usize,
) -> Result<(Dataset, Dataset, LabelStats), String> {
    let (mut train, mut held) = (Dataset::new(), Dataset::new());
    let mut stats = LabelStats::default();
    let mut rng = Rng::new(seed ^ 0x1abe_11ed);
    'files: for source in sources {
        let input = source.open().map_err(|e| e.to_string())?;
        for (n, line) in BufReader::new(input).lines().enumerate() {
            let line = line.map_err(|e| format!("cannot read {}: {e}", source.name()))?;
            if line.trim().is_empty() {
                continue;
            }
            stats.lines += 1;
            let Ok(epd) = parse_line(&line) else {
                stats.unreadable += 1;
                if stats.unreadable <= 5 {
                    log::warn!("{} line {}: not an EPD position", source.name(), n + 1);
                }
                continue;
            };
            let Some(ce) = label(&epd.ops) else {
                stats.unlabelled += 1;
                continue;
            };
            let pos = epd.pos;
            if ce.abs() > MAX_LABEL {
                stats.decided += 1;
                continue;
            }
            if pos.is_check() || !is_quiet(&pos) {
                stats.not_quiet += 1;
                continue;
            }
            let t = target(ce, pos.turn() == Color::White);
            let set = if rng.chance(holdout) {
                &mut held
            } else {
                &mut train
            };
            set.push(&extract(&pos), t);
            stats.kept += 1;
            if stats.kept >= limit {
                break 'files;
            }
        }
    }
    Ok((train, held, stats))
}

/// The integer `ce` label among an EPD line's operations, if it has one.
fn label(ops: &[(String, String)]) -> Option<i32> {
    ops.iter()
        .find(|(op, _)| op == "ce")
        .and_then(|(_, v)| v.trim().trim_matches('"').parse::<i32>().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source::Bytes {
            name: "labels.epd".into(),
            data: text.to_string().leak().as_bytes(),
        }
    }

    #[test]
    fn a_label_for_black_to_move_is_turned_into_whites_expected_score() {
        assert_eq!(target(0, true), 0.5);
        let w = target(400, true);
        assert!((w - 10.0 / 11.0).abs() < 1e-6, "{w}");
        assert!((target(400, false) - (1.0 - w)).abs() < 1e-6);
    }

    #[test]
    fn labelled_lines_are_kept_and_bad_decided_or_unquiet_ones_counted() {
        let text = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce 35; c9 \"1-0\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 \"1-0\";
not a position at all
4k3/8/8/8/8/8/8/3QK3 w - - ce 30000;
4k3/8/8/3q4/4P3/8/8/4K3 w - - ce 900;

4k3/8/8/8/8/8/8/3QK3 b - - ce -950;
";
        let (train, held, s) = read(&[source(text)], 1, 0.0, 100).unwrap();
        assert_eq!((s.lines, s.kept, s.unreadable, s.unlabelled), (6, 2, 1, 1));
        assert_eq!((s.decided, s.not_quiet), (1, 1));
        assert_eq!((train.len(), held.len()), (2, 0));
        // Black to move, +35 for Black: White expects a little less than half.
        assert!(train.target[0] < 0.5 && train.target[0] > 0.4);
        // Black to move, -950 for Black: White is winning.
        assert!(train.target[1] > 0.99);
    }

    #[test]
    fn the_limit_and_the_held_out_share_are_honoured() {
        let line = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce 35;\n";
        let text = line.repeat(1000);
        let (train, held, s) = read(&[source(&text)], 7, 0.2, 600).unwrap();
        assert_eq!(s.kept, 600);
        assert_eq!(train.len() + held.len(), 600);
        assert!((80..160).contains(&held.len()), "{}", held.len());
    }

    #[test]
    fn only_files_named_epd_are_read_as_labels() {
        assert!(is_epd(&source("")));
        assert!(is_epd(&Source::File("x/LABELS.EPD".into())));
        assert!(!is_epd(&Source::File("games.pgn".into())));
    }
}
