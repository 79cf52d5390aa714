//! From retrieved positions to advice: the moves the grandmasters played
//! there, mapped onto the current position and weighted.
//!
//! Mapping (MACH noted that a move played in a similar position may be
//! illegal here): the same move if it is legal; otherwise the same piece
//! type to the same target square if exactly that is legal (weight halved,
//! it is a looser analogy); otherwise the move is dropped and counted.
//!
//! Weight of a suggested move m:
//!
//!   raw(m) = sum over retrieved games g that played m of
//!            sim(g) * result(g) * mapping(g)
//!
//! - sim(g) = score(g) / score(best hit), in (0, 1]: more similar positions
//!   count more; an exact match counts 1.5 (it is the very position);
//! - result(g) = 1.0 win, 0.7 draw, 0.4 loss, 0.6 unknown, for the side
//!   that played m: a move that lost still says what masters consider, so it
//!   keeps some weight, but a move that won is better evidence;
//! - mapping(g) = 1 for the same move, 0.5 for same piece to same square.
//!
//! Weights are divided by the largest, so the best-supported move has
//! weight 1 and `AdviceWeight` is the bonus it gets in centipawns.

use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use crate::index::AdvisorIndex;
use crate::search::{Hit, QueryOptions};
use crate::store::{decode_played, encode_move, encode_played};
use crate::Error;

/// One suggested move.
#[derive(Clone, Debug)]
pub struct Suggestion {
    pub mv: Move,
    /// Retrieved games that played it (or its analogue).
    pub games: u32,
    /// Their results for the side that played it.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// In (0, 1]; the best-supported move has 1.
    pub weight: f32,
}

#[derive(Clone, Debug, Default)]
pub struct Advice {
    /// Best first.
    pub moves: Vec<Suggestion>,
    pub hits: Vec<Hit>,
    /// Moves of retrieved games with no legal analogue here.
    pub dropped: u32,
    pub query_ms: f64,
}

const EXACT_SIMILARITY: f32 = 1.5;
const SAME_PIECE_SAME_SQUARE: f32 = 0.5;

fn result_factor(score: Option<f32>) -> f32 {
    match score {
        Some(s) if s >= 1.0 => 1.0,
        Some(s) if s >= 0.5 => 0.7,
        Some(_) => 0.4,
        None => 0.6,
    }
}

/// Maps a move played elsewhere onto `pos`.
pub fn map_move(pos: &Chess, played: Move) -> Option<(Move, f32)> {
    map_played(pos, encode_played(played))
}

/// Maps a move packed by `encode_played` onto `pos` (a role of 0 means
/// unknown: only the same move can match).
pub fn map_played(pos: &Chess, played: u64) -> Option<(Move, f32)> {
    let legal = pos.legal_moves();
    let code = played as u16;
    if let Some(&m) = legal.iter().find(|&&m| encode_move(m) == code) {
        return Some((m, 1.0));
    }
    let (_, to, promotion, role) = decode_played(played)?;
    let mut same = legal
        .iter()
        .copied()
        .filter(|m| m.role() == role && m.to() == to && m.promotion() == promotion);
    match (same.next(), same.next()) {
        (Some(m), None) => Some((m, SAME_PIECE_SAME_SQUARE)),
        _ => None,
    }
}

impl AdvisorIndex {
    /// Advice for `pos` from the `o.k` most similar games.
    pub fn advise(&self, pos: &Chess, o: &QueryOptions) -> Result<Advice, Error> {
        let t = Instant::now();
        let hits = self.similar_with(pos, o)?;
        let query_ms = t.elapsed().as_secs_f64() * 1e3;
        let top = hits
            .iter()
            .filter(|h| !h.exact)
            .map(|h| h.score)
            .fold(0.0f32, f32::max);
        let mut moves: Vec<(Suggestion, f32)> = Vec::new();
        let mut dropped = 0;
        for h in &hits {
            let Some(game) = self.games.get(h.game) else {
                continue;
            };
            let Some(played) = h.next else {
                continue;
            };
            // The side that played: the game's first mover, flipped every ply.
            let first = game
                .fen
                .as_ref()
                .map_or(shakmaty::Color::White, |_| game.start().turn());
            let mover = if h.ply % 2 == 0 { first } else { !first };
            let Some((m, mapping)) = map_played(pos, played) else {
                dropped += 1;
                continue;
            };
            let sim = if h.exact {
                EXACT_SIMILARITY
            } else if top > 0.0 {
                h.score / top
            } else {
                1.0
            };
            let score = game.result.score_for(mover);
            let raw = sim * result_factor(score) * mapping;
            let entry = match moves.iter_mut().find(|(s, _)| s.mv == m) {
                Some(e) => e,
                None => {
                    moves.push((
                        Suggestion {
                            mv: m,
                            games: 0,
                            wins: 0,
                            draws: 0,
                            losses: 0,
                            weight: 0.0,
                        },
                        0.0,
                    ));
                    moves.last_mut().unwrap()
                }
            };
            entry.0.games += 1;
            match score {
                Some(s) if s >= 1.0 => entry.0.wins += 1,
                Some(s) if s >= 0.5 => entry.0.draws += 1,
                Some(_) => entry.0.losses += 1,
                None => {}
            }
            entry.1 += raw;
        }
        let max = moves.iter().map(|(_, r)| *r).fold(0.0f32, f32::max);
        let mut out: Vec<Suggestion> = moves
            .into_iter()
            .map(|(mut s, r)| {
                s.weight = if max > 0.0 { r / max } else { 0.0 };
                s
            })
            .collect();
        out.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        Ok(Advice {
            moves: out,
            hits,
            dropped,
            query_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{fen::Fen, CastlingMode};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn mv(p: &Chess, uci: &str) -> Move {
        uci.parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(p)
            .unwrap()
    }

    #[test]
    fn mapping_same_move_then_same_piece_to_same_square_then_dropped() {
        // Here: knights on c3 and g1.
        let here = pos("4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1");
        // There, Ng1-f3 was played: legal here too, so the same move.
        let there = pos("4k3/8/8/8/8/8/8/4KNN1 w - - 0 1");
        assert_eq!(
            map_move(&here, mv(&there, "g1f3")),
            Some((mv(&here, "g1f3"), 1.0))
        );
        // There, Nf1-e3: no knight here reaches e3: dropped.
        assert_eq!(map_move(&here, mv(&there, "f1e3")), None);
        // There, Nd2-e4: here only Nc3 reaches e4: same piece, same square.
        let there = pos("4k3/8/8/8/8/8/3N4/4K1N1 w - - 0 1");
        assert_eq!(
            map_move(&here, mv(&there, "d2e4")),
            Some((mv(&here, "c3e4"), SAME_PIECE_SAME_SQUARE))
        );
        // Two knights could go to the target square: ambiguous, dropped.
        let here = pos("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1");
        assert_eq!(
            map_move(&here, mv(&there, "d2e4")),
            None,
            "Nc3-e4 or Ng3-e4?"
        );
    }

    #[test]
    fn result_factors_order_win_draw_loss() {
        assert!(result_factor(Some(1.0)) > result_factor(Some(0.5)));
        assert!(result_factor(Some(0.5)) > result_factor(Some(0.0)));
    }
}
