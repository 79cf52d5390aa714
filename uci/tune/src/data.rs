//! Training positions: games read from PGN, quiet positions sampled from
//! them with the game's result, stored compactly (u16 term + i8 count) so a
//! few million fit in memory.

use mach_advisor::pgn::{read_games, GameResult};
use mach_advisor::source::Source;
use mach_engine::eval::evaluate;
use mach_engine::see::value;
use shakmaty::{Chess, Color, Move, MoveList, Position, Role};

use super::features::{extract, Features};
use super::rng::Rng;

/// Plies skipped at the start of every game (book moves say little).
pub const SKIP_PLIES: usize = 8;

/// A game kept for sampling: its start, moves and White's score.
pub struct Game {
    start: Chess,
    moves: Vec<Move>,
    /// 0 (Black won), 1 (draw) or 2 (White won): twice White's score.
    result: u8,
}

/// What reading the inputs gave.
#[derive(Default, Debug)]
pub struct ReadStats {
    pub games: usize,
    /// Games skipped: no result, or unreadable (variant, bad FEN, no moves).
    pub skipped: usize,
}

/// Reads every game with a result from `sources`.
pub fn read(sources: &[Source]) -> Result<(Vec<Game>, ReadStats), String> {
    let mut games = Vec::new();
    let mut stats = ReadStats::default();
    for source in sources {
        let input = source.open().map_err(|e| e.to_string())?;
        let before = games.len();
        read_games(std::io::BufReader::new(input), |g| {
            let result = g.game.as_ref().map_or(GameResult::Unknown, |r| r.result);
            let Some(rec) = g.game.filter(|_| result != GameResult::Unknown) else {
                stats.skipped += 1;
                return;
            };
            let result = match result {
                GameResult::WhiteWins => 2,
                GameResult::Draw => 1,
                _ => 0,
            };
            games.push(Game {
                start: rec.start(),
                moves: rec.moves,
                result,
            });
        })
        .map_err(|e| format!("cannot read {}: {e}", source.name()))?;
        log::info!("{}: {} games", source.name(), games.len() - before);
    }
    stats.games = games.len();
    Ok((games, stats))
}

/// Positions with their coefficients and targets, packed: for position i,
/// terms `start[i]..start[i + 1]` of `term`/`count`.
#[derive(Default, Clone, Debug, PartialEq)]
pub struct Dataset {
    pub term: Vec<u16>,
    pub count: Vec<i8>,
    pub start: Vec<u32>,
    pub phase: Vec<u8>,
    pub white_to_move: Vec<bool>,
    /// White's expected score, 0 to 1: the game's result (0, 0.5, 1) or a
    /// labelled evaluation through the logistic curve (`labelled.rs`).
    pub target: Vec<f32>,
}

impl Dataset {
    /// An empty set.
    pub fn new() -> Dataset {
        Dataset {
            start: vec![0],
            ..Dataset::default()
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// True when it holds no position.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Appends a position; a coefficient beyond i8 is split over repeated
    /// entries of the same term (exact, and almost never needed).
    pub fn push(&mut self, f: &Features, target: f32) {
        for &(t, c) in &f.terms {
            let mut c = c;
            while c != 0 {
                let part = c.clamp(i8::MIN as i32, i8::MAX as i32);
                self.term.push(t);
                self.count.push(part as i8);
                c -= part;
            }
        }
        self.start.push(self.term.len() as u32);
        self.phase.push(f.phase as u8);
        self.white_to_move.push(f.white_to_move);
        self.target.push(target);
    }

    /// Bytes held (for the summary).
    pub fn bytes(&self) -> usize {
        self.term.len() * 3 + self.start.len() * 4 + self.len() * 6
    }
}

/// What sampling gave.
#[derive(Default, Debug)]
pub struct SampleStats {
    /// Positions after the skipped plies.
    pub candidates: usize,
    /// Candidates looked at (in the seeded order) until enough were quiet.
    pub examined: usize,
    /// Of those, the ones not in check.
    pub not_in_check: usize,
    /// Of those, the quiet ones.
    pub quiet: usize,
}

/// Samples up to `n` quiet positions (seeded), split by game into a training
/// and a held-out set (a `holdout` share of the games). With `epd`, each
/// position is also written there as an EPD line with its game's result
/// (`c9`), held-out ones included, for labelling (`tools/label.py`).
pub fn sample(
    games: &[Game],
    n: usize,
    seed: u64,
    holdout: f64,
    mut epd: Option<&mut Vec<String>>,
) -> (Dataset, Dataset, SampleStats) {
    let mut stats = SampleStats::default();
    // Every candidate (game, ply), in a seeded random order.
    let mut cands: Vec<u64> = Vec::new();
    for (g, game) in games.iter().enumerate() {
        for ply in SKIP_PLIES..game.moves.len() {
            cands.push(((g as u64) << 16) | ply.min(0xffff) as u64);
        }
    }
    stats.candidates = cands.len();
    let mut rng = Rng::new(seed);
    rng.shuffle(&mut cands);
    // Examine blocks in that order until n quiet positions are found.
    let mut kept: Vec<(usize, u64)> = Vec::new();
    let mut next = 0;
    while kept.len() < n && next < cands.len() {
        let want = (n - kept.len()) * 3 / 2 + 1024;
        let end = (next + want).min(cands.len());
        let mut block: Vec<(u64, usize)> = (next..end).map(|i| (cands[i], i)).collect();
        block.sort_unstable();
        visit(games, block.iter().map(|b| b.0), |pos, _| {
            stats.examined += 1;
            if pos.is_check() {
                return false;
            }
            stats.not_in_check += 1;
            is_quiet(pos)
        })
        .into_iter()
        .zip(&block)
        .filter(|(ok, _)| *ok)
        .for_each(|(_, &(c, rank))| kept.push((rank, c)));
        next = end;
    }
    stats.quiet = kept.len();
    kept.sort_unstable();
    kept.truncate(n);
    let mut chosen: Vec<u64> = kept.into_iter().map(|k| k.1).collect();
    chosen.sort_unstable();
    let (mut train, mut held) = (Dataset::new(), Dataset::new());
    visit(games, chosen.iter().copied(), |pos, g| {
        let f = extract(pos);
        let r = games[g].result;
        if let Some(lines) = epd.as_deref_mut() {
            lines.push(epd_line(pos, r));
        }
        if is_held_out(seed, g, holdout) {
            held.push(&f, f32::from(r) / 2.0);
        } else {
            train.push(&f, f32::from(r) / 2.0);
        }
        true
    });
    (train, held, stats)
}

/// `pos` as an EPD line (the FEN's first four fields) with the result of its
/// game as `c9`, the opcode EPD suites use for a game result.
fn epd_line(pos: &Chess, result: u8) -> String {
    let fen = shakmaty::fen::Epd::from_position(pos, shakmaty::EnPassantMode::Legal);
    let r = ["0-1", "1/2-1/2", "1-0"][usize::from(result.min(2))];
    format!("{fen} c9 \"{r}\";")
}

/// Whether game `g` belongs to the held-out set (by a seeded hash, so the
/// split is by game: no position of a held-out game is trained on).
fn is_held_out(seed: u64, g: usize, share: f64) -> bool {
    Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15 ^ (g as u64).wrapping_mul(0xff51_afd7_ed55_8ccd))
        .chance(share)
}

/// Replays the games to the sorted (game << 16 | ply) candidates, calling `f`
/// with each position and its game; returns `f`'s answers in order.
fn visit(
    games: &[Game],
    cands: impl Iterator<Item = u64>,
    mut f: impl FnMut(&Chess, usize) -> bool,
) -> Vec<bool> {
    let mut out = Vec::new();
    let (mut cur_game, mut ply, mut pos) = (usize::MAX, 0, Chess::default());
    for c in cands {
        let (g, target) = ((c >> 16) as usize, (c & 0xffff) as usize);
        if g != cur_game {
            (cur_game, ply, pos) = (g, 0, games[g].start.clone());
        }
        while ply < target {
            pos.play_unchecked(games[g].moves[ply]);
            ply += 1;
        }
        out.push(f(&pos, g));
    }
    out
}

/// Quiet: no capture or queen promotion sequence raises the side to move's
/// score above its static evaluation (a null-window quiescence search).
pub fn is_quiet(pos: &Chess) -> bool {
    let eval = evaluate(pos);
    qsearch(pos, eval, eval + 1, 0) <= eval
}

/// Fail-hard quiescence search on captures and queen promotions, MVV-LVA
/// ordered, with stand pat; `depth` bounds the capture sequence.
fn qsearch(pos: &Chess, mut alpha: i32, beta: i32, depth: u32) -> i32 {
    let stand = evaluate(pos);
    if stand >= beta {
        return beta;
    }
    alpha = alpha.max(stand);
    if depth >= 12 {
        return alpha;
    }
    let mut moves: MoveList = pos.capture_moves();
    moves.retain(|m| m.promotion().is_none_or(|r| r == Role::Queen));
    let promo_rank = match pos.turn() {
        Color::White => shakmaty::Bitboard::from_rank(shakmaty::Rank::Seventh),
        Color::Black => shakmaty::Bitboard::from_rank(shakmaty::Rank::Second),
    };
    if (pos.our(Role::Pawn) & promo_rank).any() {
        for m in pos.promotion_moves() {
            if !m.is_capture() && m.promotion() == Some(Role::Queen) {
                moves.push(m);
            }
        }
    }
    moves.sort_by_key(|m| {
        let victim = m.capture().map_or(0, value) + m.promotion().map_or(0, value);
        -(victim * 8 - value(m.role()) / 100)
    });
    for m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let s = -qsearch(&child, -beta, -alpha, depth + 1);
        if s >= beta {
            return beta;
        }
        alpha = alpha.max(s);
    }
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;
    use mach_engine::board::from_fen;

    #[test]
    fn a_hanging_queen_is_not_quiet_and_a_calm_position_is() {
        let hanging = from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        assert!(!is_quiet(&hanging));
        assert!(is_quiet(&Chess::default()));
    }

    #[test]
    fn a_large_coefficient_is_split_exactly_over_i8_entries() {
        let mut d = Dataset::new();
        let f = Features {
            phase: 3,
            white_to_move: false,
            terms: vec![(7, 300), (9, -129)],
        };
        d.push(&f, 0.5);
        let total = |t| {
            (0..d.term.len())
                .filter(|&i| d.term[i] == t)
                .map(|i| d.count[i] as i32)
                .sum::<i32>()
        };
        assert_eq!((total(7), total(9), d.len()), (300, -129, 1));
    }
}
