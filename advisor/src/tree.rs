//! The grandmaster moves of every position the grandmasters reached often,
//! in a hash table the search reads in nanoseconds (issue #11, "advice that
//! shapes the search"): the search tries these moves first and does not
//! reduce or prune them.

use std::collections::HashMap;

use shakmaty::{zobrist::Zobrist64, EnPassantMode, Position};

use crate::index::AdvisorIndex;
use crate::store::{decode_move, encode_move};

/// Grandmaster moves by position key (shakmaty `Zobrist64`, legal en passant:
/// the engine's key), as move codes (`store::encode_move`, the engine's code).
#[derive(Default)]
pub struct TreeTable {
    map: HashMap<u64, Box<[u16]>>,
}

/// Which positions and moves the table keeps.
#[derive(Clone, Copy, Debug)]
pub struct TreeRules {
    /// Positions from the first this many plies of each game.
    pub max_plies: usize,
    /// Positions reached in at least this many games.
    pub min_games: u32,
    /// Moves played in at least this share of them.
    pub min_share: f32,
}

impl Default for TreeRules {
    fn default() -> Self {
        TreeRules {
            max_plies: 40,
            min_games: 3,
            min_share: 0.15,
        }
    }
}

impl TreeTable {
    /// Replays the index's games (about 7 M plies a few seconds for the
    /// full database; run on the advisor thread, never the search's).
    pub fn build(index: &AdvisorIndex, rules: TreeRules) -> TreeTable {
        let mut counts: HashMap<u64, Vec<(u16, u32)>> = HashMap::new();
        for id in 0..index.games.len() as u32 {
            let Some(g) = index.games.get(id) else {
                continue;
            };
            let mut pos = g.start();
            for &code in g.moves.iter().take(rules.max_plies) {
                let Some(m) = decode_move(&pos, code) else {
                    break;
                };
                let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
                let c = encode_move(m);
                let v = counts.entry(key).or_default();
                match v.iter_mut().find(|(x, _)| *x == c) {
                    Some(e) => e.1 += 1,
                    None => v.push((c, 1)),
                }
                pos.play_unchecked(m);
            }
        }
        let mut map = HashMap::new();
        for (key, mut moves) in counts {
            let total: u32 = moves.iter().map(|m| m.1).sum();
            if total < rules.min_games {
                continue;
            }
            moves.retain(|m| m.1 as f32 >= rules.min_share * total as f32 && m.1 >= 2);
            if moves.is_empty() {
                continue;
            }
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
            map.insert(key, moves.iter().map(|m| m.0).collect());
        }
        TreeTable { map }
    }

    /// The grandmaster moves of the position with this key, most played first.
    #[inline]
    pub fn moves(&self, key: u64) -> &[u16] {
        self.map.get(&key).map_or(&[], |m| m)
    }

    /// Positions in the table.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}
