//! Building a tree file from a PGN (`mach tree build`): every position
//! reached in at least `min_games` games within their first `max_plies`
//! plies, with every move played from it, and every `held_out_every`-th
//! game of the PGN left out so that agreement can be measured on games the
//! tree has never seen. The same PGN and rules give the same bytes.

use std::io::Read;

use rustc_hash::{FxHashMap, FxHashSet};
use shakmaty::{Chess, Color, Position};

use crate::pgn::{read_games, GameResult};
use crate::polyglot;

use super::format::{put_move, Header, MoveStats, BACKED_STEPS, HEADER_BYTES};

/// Which games and positions the tree keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Plies read from the start of each game.
    pub max_plies: u32,
    /// Fewest games through a position for it to be kept.
    pub min_games: u32,
    /// Leave out game numbers `k * held_out_every` (1-based, in the PGN's
    /// order, unreadable games counted too); 0 keeps every game.
    pub held_out_every: u32,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            max_plies: 40,
            min_games: 2,
            held_out_every: 50,
        }
    }
}

/// What a build read and kept.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games in the PGN, readable or not.
    pub games_in_file: u64,
    /// Games the tree was built from.
    pub games_used: u64,
    pub held_out: u64,
    /// Games skipped as unreadable (no moves, bad start, variant...).
    pub skipped: u64,
    /// Distinct positions seen within the plies read.
    pub positions_seen: u64,
    pub positions_kept: u64,
    pub moves_kept: u64,
}

/// One ply as the build keeps it between its two passes.
struct Ply {
    key: u64,
    mv: u16,
    mover: Color,
    game: u32,
}

/// One used game's headers, as the statistics need them.
struct GameInfo {
    result: GameResult,
    white_elo: u16,
    black_elo: u16,
    year: u16,
}

/// A move's statistics while they are being summed.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    elo_sum: u64,
    rated: u32,
    last_year: u16,
}

/// Imaginary drawn games a move's own score is shrunk with (the book's
/// default `BookRules::prior`).
pub const BACKUP_PRIOR: f32 = 2.0;
/// Fewest games of a move for it to stand for its position's value (the
/// book's default `BookMinGames`): rarer moves are too noisy to maximise over.
pub const BACKUP_MIN_GAMES: u32 = 3;

impl Tally {
    /// Its games' points per game for the side that played it, shrunk
    /// toward a draw by `BACKUP_PRIOR` imaginary drawn games.
    fn shrunk(&self) -> f32 {
        let points = self.wins as f32 + 0.5 * self.draws as f32 + 0.5 * BACKUP_PRIOR;
        points / (self.games as f32 + BACKUP_PRIOR)
    }
}

/// Values backed up through the tree, as book builders do: from the start
/// position, by negamax over the kept positions,
///
///   Q(p, m) = 1 - V(p after m)   when the tree holds the position m leads to,
///           = shrunk score of m   otherwise (a leaf of the tree),
///   V(p)    = max of Q(p, m) over the moves of at least `BACKUP_MIN_GAMES`
///             games; with none, the shrunk score of all of p's games,
///
/// so a move is worth what later grandmaster practice makes of where it
/// leads. Transpositions are valued once; a position met again on its own
/// line (a repetition) counts as a leaf there. Positions the start does not
/// reach (games from a FEN) keep their own scores.
fn back_up(kept: &FxHashMap<u64, Vec<(u16, Tally)>>) -> FxHashMap<(u64, u16), f32> {
    let mut q: FxHashMap<(u64, u16), f32> = FxHashMap::default();
    let mut v: FxHashMap<u64, f32> = FxHashMap::default();
    let mut on_line: FxHashSet<u64> = FxHashSet::default();
    value(&Chess::default(), kept, &mut q, &mut v, &mut on_line);
    q
}

/// V(pos) of [`back_up`], filling `q` for its moves; `None` when `pos` is
/// not in the tree or is on the line being valued.
fn value(
    pos: &Chess,
    kept: &FxHashMap<u64, Vec<(u16, Tally)>>,
    q: &mut FxHashMap<(u64, u16), f32>,
    v: &mut FxHashMap<u64, f32>,
    on_line: &mut FxHashSet<u64>,
) -> Option<f32> {
    let key = polyglot::key(pos);
    if let Some(&known) = v.get(&key) {
        return Some(known);
    }
    let moves = kept.get(&key)?;
    if !on_line.insert(key) {
        return None;
    }
    let mut best: Option<f32> = None;
    let mut all = Tally::default();
    for (code, t) in moves {
        all.games += t.games;
        all.wins += t.wins;
        all.draws += t.draws;
        let own = t.shrunk();
        let worth = match polyglot::decode(pos, *code) {
            Some(m) => {
                let mut next = pos.clone();
                next.play_unchecked(m);
                value(&next, kept, q, v, on_line).map_or(own, |child| 1.0 - child)
            }
            None => own,
        };
        q.insert((key, *code), worth);
        if t.games >= BACKUP_MIN_GAMES {
            best = Some(best.map_or(worth, |b: f32| b.max(worth)));
        }
    }
    on_line.remove(&key);
    let value = best.unwrap_or_else(|| all.shrunk());
    v.insert(key, value);
    Some(value)
}

/// Reads every game of `pgn` and returns the tree file's bytes;
/// `progress` is called every 1,000 games with the games read so far.
pub fn build(
    pgn: impl Read,
    rules: Rules,
    mut progress: impl FnMut(u64),
) -> std::io::Result<(Vec<u8>, Summary)> {
    let mut s = Summary::default();
    let mut plies: Vec<Ply> = Vec::new();
    let mut games: Vec<GameInfo> = Vec::new();
    let mut seen: Vec<u64> = Vec::new();
    read_games(pgn, |read| {
        s.games_in_file += 1;
        if s.games_in_file % 1000 == 0 {
            progress(s.games_in_file);
        }
        if rules.held_out_every > 0 && s.games_in_file % u64::from(rules.held_out_every) == 0 {
            s.held_out += 1;
            return;
        }
        let Some(g) = read.game else {
            s.skipped += 1;
            return;
        };
        if g.moves.is_empty() {
            s.skipped += 1;
            return;
        }
        let id = games.len() as u32;
        games.push(GameInfo {
            result: g.result,
            white_elo: g.white_elo,
            black_elo: g.black_elo,
            year: g.year,
        });
        let mut pos = g.start();
        seen.clear();
        for &m in g.moves.iter().take(rules.max_plies as usize) {
            let key = polyglot::key(&pos);
            // A position met twice in one game counts once.
            if !seen.contains(&key) {
                seen.push(key);
                plies.push(Ply {
                    key,
                    mv: polyglot::encode(m),
                    mover: pos.turn(),
                    game: id,
                });
            }
            pos.play_unchecked(m);
        }
    })?;
    s.games_used = games.len() as u64;

    let mut through: FxHashMap<u64, u32> = FxHashMap::default();
    for p in &plies {
        *through.entry(p.key).or_default() += 1;
    }
    s.positions_seen = through.len() as u64;
    let mut kept: FxHashMap<u64, Vec<(u16, Tally)>> = FxHashMap::default();
    for p in &plies {
        if through[&p.key] < rules.min_games {
            continue;
        }
        let moves = kept.entry(p.key).or_default();
        let i = match moves.iter().position(|(mv, _)| *mv == p.mv) {
            Some(i) => i,
            None => {
                moves.push((p.mv, Tally::default()));
                moves.len() - 1
            }
        };
        let t = &mut moves[i].1;
        let g = &games[p.game as usize];
        t.games += 1;
        match g.result.score_for(p.mover) {
            Some(x) if x >= 1.0 => t.wins += 1,
            Some(x) if x > 0.0 => t.draws += 1,
            Some(_) => t.losses += 1,
            None => {}
        }
        let elo = if p.mover == Color::White {
            g.white_elo
        } else {
            g.black_elo
        };
        if elo > 0 {
            t.elo_sum += u64::from(elo);
            t.rated += 1;
        }
        t.last_year = t.last_year.max(g.year);
    }
    drop(through);
    drop(plies);
    let backed = back_up(&kept);

    let mut keys: Vec<u64> = kept.keys().copied().collect();
    keys.sort_unstable();
    let mut offsets: Vec<u32> = Vec::with_capacity(keys.len() + 1);
    let mut records: Vec<u8> = Vec::new();
    for k in &keys {
        offsets.push(records.len() as u32);
        let mut moves: Vec<MoveStats> = kept[k]
            .iter()
            .map(|(mv, t)| MoveStats {
                mv: *mv,
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                avg_elo: if t.rated > 0 {
                    (t.elo_sum / u64::from(t.rated)) as u16
                } else {
                    0
                },
                last_year: t.last_year,
                backed: {
                    let v = backed
                        .get(&(*k, *mv))
                        .copied()
                        .unwrap_or_else(|| t.shrunk());
                    (v.clamp(0.0, 1.0) * BACKED_STEPS).round() as u8
                },
            })
            .collect();
        moves.sort_by(|a, b| b.games.cmp(&a.games).then(a.mv.cmp(&b.mv)));
        s.moves_kept += moves.len() as u64;
        for m in &moves {
            put_move(&mut records, m);
        }
    }
    offsets.push(records.len() as u32);
    s.positions_kept = keys.len() as u64;

    let mut body = Vec::with_capacity(12 * keys.len() + 4 + records.len());
    for k in &keys {
        body.extend_from_slice(&k.to_le_bytes());
    }
    for o in &offsets {
        body.extend_from_slice(&o.to_le_bytes());
    }
    body.extend_from_slice(&records);
    let header = Header {
        positions: keys.len() as u32,
        record_bytes: records.len() as u32,
        games: s.games_used as u32,
        held_out_every: rules.held_out_every,
        max_plies: rules.max_plies,
        min_games: rules.min_games,
        crc: crc32fast::hash(&body),
    };
    let mut out = header.to_bytes();
    debug_assert_eq!(out.len(), HEADER_BYTES);
    out.extend_from_slice(&body);
    Ok((out, s))
}
