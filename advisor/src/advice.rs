//! From retrieved positions to advice: the moves the grandmasters played
//! there, mapped onto the current position and weighted.
//!
//! Mapping (MACH noted that a move played in a similar position may be
//! illegal here): the same move if it is legal; otherwise the same piece
//! type to the same target square if exactly that is legal (weight halved,
//! it is a looser analogy); otherwise the move is dropped and counted.
//!
//! Evidence of one retrieved game g for the move m it played:
//!
//!   e(g) = sim(g) * result(g) * mapping(g)
//!
//! - sim(g) = score(g) / score(best hit), in (0, 1]: more similar positions
//!   count more;
//! - result(g) = 1.0 win, 0.7 draw, 0.4 loss, 0.6 unknown, for the side
//!   that played m: a move that lost still says what masters consider, so it
//!   keeps some weight, but a move that won is better evidence;
//! - mapping(g) = 1 for the same move, 0.5 for same piece to same square.
//!
//! Weight of m: its share of all the evidence, sum of e(g) over the games
//! that played m divided by sum of sim(g) * result(g) over every retrieved
//! game (dropped moves included: they are masters choosing something else).
//! So a move in (0, 1] says how much the masters agree on it, not just that
//! it is the best of a scattered lot: one loose analogy among thirty gets
//! little, a move most similar games chose gets much. When the very position
//! was reached in some games (exact hits), only those games count: they are
//! evidence about this position, the similar ones only about others.
//! The player of the advice (Mach's `uci` crate) turns a weight into a
//! bonus: a weight in centipawns times it, above a minimum share.
use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use crate::book::BookMove;
use crate::chunks::plans::PlanTerm;
use crate::error::Error;
use crate::index::AdvisorIndex;
use crate::retrieval::{Hit, QueryOptions};
use crate::store::{decode_played, encode_move, encode_played};

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
    /// In (0, 1]: its share of the evidence (1 when every retrieved game agrees).
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
    /// The moves come from games that reached this very position (exact
    /// hits), not from similar ones.
    pub exact: bool,
    /// The advice lines of the chunks present here (`Outpost(white,e5)`),
    /// each once, and what they ask of the pieces.
    pub plans: Vec<String>,
    pub plan_terms: Vec<PlanTerm>,
}

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

/// What one retrieved game says about the current position.
#[derive(Clone, Copy, Debug)]
pub struct Evidence {
    /// Its move mapped onto this position, with the mapping factor; `None`
    /// when it has no legal analogue here (dropped).
    pub mapped: Option<(Move, f32)>,
    /// Similarity in (0, 1] (1 for exact hits).
    pub sim: f32,
    /// The game's result for the side that played the move, if known.
    pub score: Option<f32>,
    pub exact: bool,
}

/// Suggestions from the evidence of the retrieved games (the formula is at
/// the top of this file), best first, and how many moves were dropped.
pub fn combine(evidence: &[Evidence]) -> (Vec<Suggestion>, u32) {
    // Exact hits, when there are any with a move, speak alone.
    let only_exact = evidence.iter().any(|e| e.exact);
    let mut moves: Vec<(Suggestion, f32)> = Vec::new();
    let mut dropped = 0;
    let mut total = 0.0f32;
    for e in evidence.iter().filter(|e| e.exact || !only_exact) {
        let base = e.sim * result_factor(e.score);
        total += base;
        let Some((m, mapping)) = e.mapped else {
            dropped += 1;
            continue;
        };
        let i = match moves.iter().position(|(s, _)| s.mv == m) {
            Some(i) => i,
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
                moves.len() - 1
            }
        };
        let entry = &mut moves[i];
        entry.0.games += 1;
        match e.score {
            Some(s) if s >= 1.0 => entry.0.wins += 1,
            Some(s) if s >= 0.5 => entry.0.draws += 1,
            Some(_) => entry.0.losses += 1,
            None => {}
        }
        entry.1 += base * mapping;
    }
    let mut out: Vec<Suggestion> = moves
        .into_iter()
        .map(|(mut s, r)| {
            s.weight = if total > 0.0 {
                (r / total).min(1.0)
            } else {
                0.0
            };
            s
        })
        .collect();
    out.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    (out, dropped)
}

/// Exact advice from a position's book statistics (the opening tree's and
/// an index's games together): the formula above with every game exact
/// (sim = 1, mapping = 1), so each move's weight is its games' result
/// factors over all the games'. Best first.
pub fn from_book(moves: &[BookMove]) -> Vec<Suggestion> {
    let evidence = |b: &BookMove| {
        let unknown = b.games.saturating_sub(b.wins + b.draws + b.losses);
        b.wins as f32 * result_factor(Some(1.0))
            + b.draws as f32 * result_factor(Some(0.5))
            + b.losses as f32 * result_factor(Some(0.0))
            + unknown as f32 * result_factor(None)
    };
    let total: f32 = moves.iter().map(evidence).sum();
    let mut out: Vec<Suggestion> = moves
        .iter()
        .map(|b| Suggestion {
            mv: b.mv,
            games: b.games,
            wins: b.wins,
            draws: b.draws,
            losses: b.losses,
            weight: if total > 0.0 {
                (evidence(b) / total).min(1.0)
            } else {
                0.0
            },
        })
        .collect();
    out.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    out
}

impl AdvisorIndex {
    /// Advice for `pos` from the `o.k` most similar games.
    pub fn advise(&self, pos: &Chess, o: &QueryOptions) -> Result<Advice, Error> {
        let t = Instant::now();
        let exact = self.exact(pos);
        self.advise_given(pos, o, exact, t)
    }

    /// [`Self::advise`], given the exact hits already read (`exact(pos)`,
    /// started at `since`, so `query_ms` counts that read too): the advisor
    /// thread reads them once for both the book and the advice.
    pub fn advise_given(
        &self,
        pos: &Chess,
        o: &QueryOptions,
        exact: Vec<Hit>,
        since: Instant,
    ) -> Result<Advice, Error> {
        let hits = self.similar_given(pos, o, exact)?;
        let query_ms = since.elapsed().as_secs_f64() * 1e3;
        let top = hits
            .iter()
            .filter(|h| !h.exact)
            .map(|h| h.score)
            .fold(0.0f32, f32::max);
        let mut evidence = Vec::with_capacity(hits.len());
        for h in &hits {
            let (Some(game), Some(played)) = (self.games.get(h.game), h.next) else {
                continue;
            };
            // The side that played: the game's first mover, flipped every ply.
            let first = game
                .fen
                .as_ref()
                .map_or(shakmaty::Color::White, |_| game.start().turn());
            let mover = if h.ply % 2 == 0 { first } else { !first };
            evidence.push(Evidence {
                mapped: map_played(pos, played),
                sim: if h.exact || top <= 0.0 {
                    1.0
                } else {
                    h.score / top
                },
                score: game.result.score_for(mover),
                exact: h.exact,
            });
        }
        let (moves, dropped) = combine(&evidence);
        let (plans, plan_terms) = if o.exact_only {
            Default::default()
        } else {
            self.plans(pos)
        };
        Ok(Advice {
            moves,
            hits,
            dropped,
            query_ms,
            exact: evidence.iter().any(|e| e.exact),
            plans,
            plan_terms,
        })
    }

    /// The advice lines of the chunks present in `pos` (MACH's plans), each
    /// once, and their terms read on `pos`.
    pub fn plans(&self, pos: &Chess) -> (Vec<String>, Vec<PlanTerm>) {
        let mut plans: Vec<String> = self
            .chunks
            .find(pos.board())
            .iter()
            .flat_map(|f| self.chunks.instances[f.instance].advice.iter().cloned())
            .collect();
        plans.sort_unstable();
        plans.dedup();
        let terms = crate::chunks::plans::terms(plans.iter().map(String::as_str), pos.board());
        (plans, terms)
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
    fn advice_from_book_statistics_weighs_results_as_exact_hits_do() {
        let pos = Chess::default();
        let mv = |u: &str| {
            u.parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap()
        };
        let b = |m: &str, games, wins, draws, losses| BookMove {
            mv: mv(m),
            games,
            wins,
            draws,
            losses,
            avg_elo: 0,
            last_year: 0,
            backed: None,
        };
        // e4: 2 wins + 1 unknown = 2.6; d4: 1 draw + 1 loss = 1.1.
        let s = from_book(&[b("d2d4", 2, 0, 1, 1), b("e2e4", 3, 2, 0, 0)]);
        assert_eq!(s[0].mv, mv("e2e4"), "best first");
        assert!((s[0].weight - 2.6 / 3.7).abs() < 1e-6, "{}", s[0].weight);
        assert!((s[1].weight - 1.1 / 3.7).abs() < 1e-6);
        assert_eq!((s[1].games, s[1].draws, s[1].losses), (2, 1, 1));
        assert!(from_book(&[]).is_empty());
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
    fn weights_are_shares_of_the_evidence_and_exact_hits_speak_alone() {
        let p = Chess::default();
        let e4 = mv(&p, "e2e4");
        let d4 = mv(&p, "d2d4");
        let ev = |m: Option<Move>, sim: f32, exact: bool| Evidence {
            mapped: m.map(|m| (m, 1.0)),
            sim,
            score: Some(1.0),
            exact,
        };
        // Two of four similar games chose e4, one d4, one has no analogue.
        let (s, dropped) = combine(&[
            ev(Some(e4), 1.0, false),
            ev(Some(e4), 1.0, false),
            ev(Some(d4), 1.0, false),
            ev(None, 1.0, false),
        ]);
        assert_eq!(dropped, 1);
        assert_eq!((s[0].mv, s[0].games), (e4, 2));
        assert!((s[0].weight - 0.5).abs() < 1e-6, "{}", s[0].weight);
        assert!((s[1].weight - 0.25).abs() < 1e-6);
        // One loose analogy among many dissenting games gets little, where
        // dividing by the best move's support would have given it 1.
        let mut lone = vec![ev(Some(d4), 0.5, false)];
        lone.extend((0..20).map(|_| ev(None, 0.8, false)));
        let (s, _) = combine(&lone);
        assert!(s[0].weight < 0.05, "{}", s[0].weight);
        // Exact hits: only they count, so unanimous masters give weight 1.
        let (s, _) = combine(&[
            ev(Some(e4), 1.0, true),
            ev(Some(e4), 1.0, true),
            ev(Some(d4), 1.0, false),
            ev(Some(d4), 1.0, false),
        ]);
        assert_eq!(s.len(), 1);
        assert_eq!((s[0].mv, s[0].weight), (e4, 1.0));
        // Results: a won move outweighs a lost one; a half-mapped move half.
        let (s, _) = combine(&[
            Evidence {
                score: Some(0.0),
                ..ev(Some(d4), 1.0, false)
            },
            ev(Some(e4), 1.0, false),
        ]);
        assert_eq!(s[0].mv, e4);
        assert!(combine(&[]).0.is_empty());
    }

    #[test]
    fn result_factors_order_win_draw_loss() {
        assert!(result_factor(Some(1.0)) > result_factor(Some(0.5)));
        assert!(result_factor(Some(0.5)) > result_factor(Some(0.0)));
    }
}
