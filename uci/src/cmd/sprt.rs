//! `mach sprt`: the SPRT of played games, with the counts of earlier runs
//! added, which is how a stopped `mach match --sprt` is continued.
//!
//! A sequential test may go on after a stop as long as nothing changes: the
//! same two binaries (the same `mach bench` node count), the same time
//! control, openings file and concurrency. The new run gets another `--seed`,
//! so that it plays other openings, and this command adds its pairs to the
//! counts the stopped run printed. The statistics are `mach match`'s own
//! (`matchrun::stats`), so the two cannot disagree.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::PathBuf;

use pgn_reader::{RawTag, Reader, Visitor};

use mach_runner::stats::Pentanomial;
use mach_runner::summary::{pairs_line, sprt_line};
use mach_runner::{parse_prior, parse_sprt};

#[derive(clap::Args)]
pub struct Args {
    /// Games written by `mach match --pgnout` (its `Round "PAIR.GAME"` tags pair them).
    #[arg(value_name = "PGN")]
    pgn: Vec<PathBuf>,
    /// The engine under test, as the PGN names it (the `name=` of its `--engine`).
    #[arg(long)]
    engine: String,
    /// The pairs of earlier runs, as a stopped match printed them: five counts,
    /// pairs worth 0, 0.5, 1, 1.5 and 2 points to the engine, e.g. 74,257,387,245,96.
    #[arg(long, value_name = "COUNTS")]
    prior: Option<String>,
    /// The test, as `mach match --sprt` takes it: elo0=0 elo1=5 alpha=0.05
    /// beta=0.05 model=normalized|logistic (those not given keep these defaults).
    #[arg(long, num_args = 0..=5, value_name = "KEY=VALUE")]
    sprt: Vec<String>,
}

/// Prints the counts of the files, of the earlier runs and of both together,
/// each with its Elo, and the SPRT of the whole.
pub fn run(a: &Args) -> Result<(), String> {
    // `--sprt` takes up to five words, so files after it land among them:
    // its words have an `=`, file names (almost always) not.
    let (words, after): (Vec<String>, Vec<String>) =
        a.sprt.iter().cloned().partition(|w| w.contains('='));
    let sprt = parse_sprt(&words)?;
    let prior = a.prior.as_deref().map(parse_prior).transpose()?;
    let paths: Vec<PathBuf> = a
        .pgn
        .iter()
        .cloned()
        .chain(after.into_iter().map(PathBuf::from))
        .collect();
    if paths.is_empty() {
        return Err("give the PGN files of the run (mach match --pgnout)".into());
    }
    let mut files = Pentanomial::default();
    for path in &paths {
        let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let counts = pairs_in(BufReader::new(file), &a.engine)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        files = files + counts;
    }
    let line = |label: &str, p: &Pentanomial| println!("{label:<12} {}", pairs_line(p));
    line("these files", &files);
    let total = match prior {
        Some(prior) => {
            line("prior", &prior);
            let total = prior + files;
            line("together", &total);
            total
        }
        None => files,
    };
    println!(
        "pairs        0, 0.5, 1, 1.5, 2 points for {}",
        a.engine.trim()
    );
    println!("sprt         {}", sprt_line(sprt, &total));
    Ok(())
}

/// The tags of one game that pairing needs.
#[derive(Default)]
struct Tags {
    round: Option<String>,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
}

/// A pgn-reader visitor that keeps the four tags and skips the moves (the
/// reader's fast path): pairing needs nothing else, and the games of a
/// match may be empty or cut short (a crash, a forfeit).
struct TagsOnly;

impl Visitor for TagsOnly {
    type Tags = Tags;
    type Movetext = Tags;
    type Output = Tags;

    fn begin_tags(&mut self) -> ControlFlow<Tags, Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Tags> {
        let slot = match name {
            b"Round" => &mut tags.round,
            b"White" => &mut tags.white,
            b"Black" => &mut tags.black,
            b"Result" => &mut tags.result,
            _ => return ControlFlow::Continue(()),
        };
        *slot = Some(String::from_utf8_lossy(&value.decode()).into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Tags, Tags> {
        ControlFlow::Break(tags)
    }

    fn end_game(&mut self, tags: Tags) -> Tags {
        tags
    }
}

/// The pentanomial counts of `engine` in the games of one PGN: the two
/// games of pair P carry `Round "P.1"` and `Round "P.2"`. A pair with one
/// finished game (`*` or missing) is left out.
fn pairs_in(pgn: impl Read, engine: &str) -> Result<Pentanomial, String> {
    let mut reader = Reader::new(pgn);
    let mut pairs: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    let mut n = 0;
    while let Some(g) = reader
        .read_game(&mut TagsOnly)
        .map_err(|e| format!("after game {n}: {e}"))?
    {
        n += 1;
        let (Some(round), Some(white), Some(black), Some(result)) =
            (&g.round, &g.white, &g.black, &g.result)
        else {
            return Err(format!(
                "game {n} lacks a Round, White, Black or Result tag"
            ));
        };
        let pair = round
            .split_once('.')
            .filter(|(_, game)| *game == "1" || *game == "2")
            .and_then(|(p, _)| p.parse::<u64>().ok())
            .ok_or_else(|| {
                format!("game {n}: Round \"{round}\" is not PAIR.GAME, as `mach match` writes it")
            })?;
        let white_points = match result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue, // unfinished
        };
        let points = if white == engine {
            white_points
        } else if black == engine {
            1.0 - white_points
        } else {
            return Err(format!(
                "no engine named '{engine}' in game {n} (White '{white}', Black '{black}')"
            ));
        };
        let pair_games = pairs.entry(pair).or_default();
        if pair_games.len() == 2 {
            return Err(format!(
                "pair {pair} has more than two games: were two runs appended to one \
                 file? Give each run its own --pgnout"
            ));
        }
        pair_games.push(points);
    }
    if n == 0 {
        return Err("no games".into());
    }
    let mut counts = Pentanomial::default();
    for g in pairs.values().filter(|g| g.len() == 2) {
        counts.add(g[0], g[1]);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game as `mach match` writes it, with a move and a comment.
    fn game(round: &str, white: &str, black: &str, result: &str) -> String {
        format!(
            "[Event \"Mach match\"]\n[Site \"?\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 {{+0.31/15 0.52s}} {result}\n\n"
        )
    }

    #[test]
    fn pairs_are_counted_from_the_engines_side_whatever_its_colour() {
        let text = [
            game("1.1", "NEW", "Base", "1-0"),
            game("1.2", "Base", "NEW", "1-0"),
            game("2.2", "Base", "NEW", "0-1"),
            game("2.1", "NEW", "Base", "1-0"),
            game("3.1", "NEW", "Base", "1/2-1/2"),
            game("3.2", "Base", "NEW", "1/2-1/2"),
            game("4.1", "NEW", "Base", "0-1"),
        ]
        .concat();
        // Pair 1: 1 point; pair 2: 2; pair 3: 1; pair 4 unfinished.
        assert_eq!(pairs_in(text.as_bytes(), "NEW").unwrap().0, [0, 0, 2, 0, 1]);
        assert_eq!(
            pairs_in(text.as_bytes(), "Base").unwrap().0,
            [1, 0, 2, 0, 0]
        );
    }

    #[test]
    fn unfinished_games_and_escaped_names_are_read() {
        let text = [
            game("1.1", "A \\\"x\\\"", "B", "*"),
            game("1.2", "B", "A \\\"x\\\"", "0-1"),
        ]
        .concat();
        assert_eq!(pairs_in(text.as_bytes(), "A \"x\"").unwrap().0, [0; 5]);
    }

    #[test]
    fn tag_like_lines_inside_comments_and_variations_are_moves_not_tags() {
        let tricky = "[Round \"2.1\"]\n[White \"NEW\"]\n[Black \"Base\"]\n[Result \"1-0\"]\n\n\
                      1. e4 {a comment with a tag line:\n[Round \"9.1\"]\n} (1. d4 {\n[White \"X\"]\n}) 1-0\n\n";
        let text = [tricky, &game("2.2", "Base", "NEW", "1/2-1/2")].concat();
        assert_eq!(pairs_in(text.as_bytes(), "NEW").unwrap().0, [0, 0, 0, 1, 0]);
    }

    #[test]
    fn bad_files_get_a_clear_error() {
        let err = |text: &str, engine: &str| pairs_in(text.as_bytes(), engine).unwrap_err();
        assert!(err(&game("1.1", "A", "B", "1-0"), "C").contains("no engine named 'C'"));
        assert!(err(&game("7", "A", "B", "1-0"), "A").contains("PAIR.GAME"));
        assert!(err("1. e4 e5 *", "A").contains("lacks a Round"));
        assert!(err("", "A").contains("no games"));
        let twice = [game("1.1", "A", "B", "1-0"), game("1.2", "B", "A", "1-0")].concat();
        assert!(err(&twice.repeat(2), "A").contains("more than two games"));
    }
}
