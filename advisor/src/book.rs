//! The exact memory as an opening book: every position the grandmasters
//! reached, by any move order (positions are found by Zobrist key), with
//! per-move statistics, and the rule that says when the evidence is strong
//! enough to play a move from memory.
//!
//! Thin evidence is shrunk: a move's score for the side that played it is
//! (wins + draws/2 + prior/2) / (games + prior), so one won game is not a
//! book line, and a move needs both enough games and a fair score.

use shakmaty::{Chess, Color, Move, Position};

use crate::index::AdvisorIndex;
use crate::retrieval::Hit;
use crate::store::decode_move;

/// What the grandmasters played in one exact position.
#[derive(Clone, Debug, PartialEq)]
pub struct BookMove {
    pub mv: Move,
    /// Games that played it here.
    pub games: u32,
    /// Their results for the side that played it.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Average rating of the players who played it (0 when unknown).
    pub avg_elo: u16,
    /// The last year it was played (0 when unknown).
    pub last_year: u16,
    /// Its value backed up through the opening tree, for the side that
    /// played it, in [0, 1] (`opening_tree::build::back_up`); `None` for a
    /// move only an index knows.
    pub backed: Option<f32>,
}

impl BookMove {
    /// Points per game for the side that played it, shrunk toward 1/2 by
    /// `prior` imaginary drawn games.
    pub fn shrunk_score(&self, prior: f32) -> f32 {
        let points = self.wins as f32 + 0.5 * self.draws as f32 + 0.5 * prior;
        points / (self.games as f32 + prior).max(1e-6)
    }

    /// Its worth under `rules`: the backed-up value when the rules ask for
    /// it and the tree has one, else the shrunk score of its own games.
    pub fn worth(&self, rules: BookRules) -> f32 {
        match self.backed {
            Some(v) if rules.backed_up => v,
            _ => self.shrunk_score(rules.prior),
        }
    }
}

/// When a book move is played. The defaults are the UCI options' defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BookRules {
    /// Fewest games that played the move here.
    pub min_games: u32,
    /// Lowest shrunk score for the side that played it.
    pub min_score: f32,
    /// Smallest share of the games that reached this position.
    pub min_share: f32,
    /// Imaginary drawn games the score is shrunk with.
    pub prior: f32,
    /// Judge a move by its value backed up through the opening tree (what
    /// later grandmaster practice says of where it leads) instead of its
    /// own games' score, and play the best of those that pass (UCI
    /// `BookBackedUp`; off until an SPRT says otherwise).
    pub backed_up: bool,
}

impl Default for BookRules {
    fn default() -> Self {
        BookRules {
            min_games: 3,
            min_score: 0.40,
            min_share: 0.15,
            prior: 2.0,
            backed_up: false,
        }
    }
}

/// The move to play from memory, if any: among the moves that pass the
/// rules, the one most games chose (grandmaster consensus), ties broken by
/// the better score; with `backed_up`, the one of the best backed-up value.
pub fn choose(moves: &[BookMove], rules: BookRules) -> Option<&BookMove> {
    let total: u32 = moves.iter().map(|m| m.games).sum();
    let passing = moves.iter().filter(|m| {
        m.games >= rules.min_games
            && m.worth(rules) >= rules.min_score
            && m.games as f32 >= rules.min_share * total as f32
    });
    if rules.backed_up {
        return passing.max_by(|a, b| {
            a.worth(rules)
                .total_cmp(&b.worth(rules))
                .then(a.games.cmp(&b.games))
        });
    }
    passing.max_by(|a, b| {
        a.games
            .cmp(&b.games)
            .then(a.worth(rules).total_cmp(&b.worth(rules)))
    })
}

/// Two books of one position as one (the opening tree's and an index's):
/// a move's games and results are added, its average rating weighted by
/// games, its last year the later one. Most played first.
pub fn merge_books(mut a: Vec<BookMove>, b: Vec<BookMove>) -> Vec<BookMove> {
    for m in b {
        match a.iter_mut().find(|x| x.mv == m.mv) {
            Some(x) => {
                let rated = |y: &BookMove| if y.avg_elo > 0 { y.games } else { 0 };
                let (ra, rb) = (rated(x), rated(&m));
                if ra + rb > 0 {
                    let sum =
                        u64::from(x.avg_elo) * u64::from(ra) + u64::from(m.avg_elo) * u64::from(rb);
                    x.avg_elo = (sum / u64::from(ra + rb)) as u16;
                }
                x.games += m.games;
                x.wins += m.wins;
                x.draws += m.draws;
                x.losses += m.losses;
                x.last_year = x.last_year.max(m.last_year);
                x.backed = x.backed.or(m.backed);
            }
            None => a.push(m),
        }
    }
    a.sort_by_key(|m| std::cmp::Reverse(m.games));
    a
}

impl AdvisorIndex {
    /// Every move played from exactly this position, most played first.
    pub fn book(&self, pos: &Chess) -> Vec<BookMove> {
        self.book_given(pos, &self.exact(pos))
    }

    /// [`Self::book`], given the exact hits already read (`exact(pos)`):
    /// the advisor thread reads them once for both the book and the advice.
    pub fn book_given(&self, pos: &Chess, exact: &[Hit]) -> Vec<BookMove> {
        let mover = pos.turn();
        let mut out: Vec<(BookMove, u64, u32)> = Vec::new(); // (move, elo sum, rated games)
        for h in exact {
            let (Some(game), Some(code)) = (self.games.head(h.game), h.next) else {
                continue;
            };
            let Ok(code) = u16::try_from(code) else {
                continue;
            };
            let Some(mv) = decode_move(pos, code) else {
                continue;
            };
            let i = match out.iter().position(|(b, _, _)| b.mv == mv) {
                Some(i) => i,
                None => {
                    out.push((
                        BookMove {
                            mv,
                            games: 0,
                            wins: 0,
                            draws: 0,
                            losses: 0,
                            avg_elo: 0,
                            last_year: 0,
                            backed: None,
                        },
                        0,
                        0,
                    ));
                    out.len() - 1
                }
            };
            let (b, elo_sum, rated) = &mut out[i];
            b.games += 1;
            match game.result.score_for(mover) {
                Some(s) if s >= 1.0 => b.wins += 1,
                Some(s) if s >= 0.5 => b.draws += 1,
                Some(_) => b.losses += 1,
                None => {}
            }
            let elo = if mover == Color::White {
                game.white_elo
            } else {
                game.black_elo
            };
            if elo > 0 {
                *elo_sum += elo as u64;
                *rated += 1;
            }
            b.last_year = b.last_year.max(game.year);
        }
        let mut moves: Vec<BookMove> = out
            .into_iter()
            .map(|(mut b, sum, rated)| {
                if rated > 0 {
                    b.avg_elo = (sum / rated as u64) as u16;
                }
                b
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.games));
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bm(uci: &str, games: u32, wins: u32, draws: u32) -> BookMove {
        let pos = Chess::default();
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        BookMove {
            mv,
            games,
            wins,
            draws,
            losses: games - wins - draws,
            avg_elo: 2700,
            last_year: 2020,
            backed: None,
        }
    }

    #[test]
    fn merged_books_add_games_and_results_and_weigh_ratings_by_games() {
        let mut a = bm("e2e4", 10, 4, 4);
        a.avg_elo = 2600;
        a.last_year = 2010;
        let mut b = bm("e2e4", 30, 10, 10);
        b.avg_elo = 2400;
        b.last_year = 2021;
        let c = bm("d2d4", 25, 5, 5);
        let m = merge_books(vec![a, c.clone()], vec![b]);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].games, 40, "most played first");
        assert_eq!((m[0].wins, m[0].draws, m[0].losses), (14, 14, 12));
        assert_eq!(m[0].avg_elo, 2450);
        assert_eq!(m[0].last_year, 2021);
        assert_eq!(m[1], c);
        assert_eq!(merge_books(Vec::new(), vec![c.clone()]), vec![c]);
    }

    #[test]
    fn with_backed_up_values_the_best_backed_move_that_passes_is_chosen() {
        let plain = BookRules::default();
        let backed = BookRules {
            backed_up: true,
            ..plain
        };
        let mut d4 = bm("d2d4", 20, 8, 8);
        d4.backed = Some(0.45);
        let mut e4 = bm("e2e4", 10, 4, 4);
        e4.backed = Some(0.62);
        let mut c4 = bm("c2c4", 2, 2, 0);
        c4.backed = Some(0.9);
        let moves = [d4.clone(), e4.clone(), c4];
        assert_eq!(choose(&moves, plain).unwrap().mv, d4.mv, "the consensus");
        assert_eq!(
            choose(&moves, backed).unwrap().mv,
            e4.mv,
            "c4: too few games"
        );
        // A backed-up value under BookMinScore rules the move out.
        let mut bad = bm("e2e4", 30, 20, 5);
        bad.backed = Some(0.2);
        assert!(choose(&[bad.clone()], backed).is_none());
        assert!(choose(&[bad], plain).is_some());
        // A move only the index knows is judged by its own games.
        assert_eq!(choose(&[bm("g1f3", 5, 3, 2)], backed).unwrap().games, 5);
    }

    #[test]
    fn thin_evidence_is_shrunk_toward_a_draw() {
        let one_win = bm("e2e4", 1, 1, 0);
        assert!((one_win.shrunk_score(2.0) - 2.0 / 3.0).abs() < 1e-6);
        let many = bm("e2e4", 100, 60, 20);
        assert!((many.shrunk_score(2.0) - 71.0 / 102.0).abs() < 1e-6);
        assert!((bm("e2e4", 0, 0, 0).shrunk_score(2.0) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn the_most_played_move_that_passes_every_rule_is_chosen() {
        let r = BookRules::default();
        // d4 most played but scores badly; e4 passes; c4 too rare.
        let moves = [
            bm("d2d4", 20, 2, 4),
            bm("e2e4", 10, 4, 4),
            bm("c2c4", 2, 2, 0),
        ];
        assert_eq!(choose(&moves, r).unwrap().mv, moves[1].mv);
        // A single game is never a book line.
        assert!(choose(&[bm("e2e4", 1, 1, 0)], r).is_none());
        // A move few of the games chose is not played, however well it scored.
        let moves = [bm("e2e4", 40, 10, 20), bm("g1f3", 4, 4, 0)];
        let strict = BookRules {
            min_share: 0.2,
            ..r
        };
        assert_eq!(choose(&moves, strict).unwrap().mv, moves[0].mv);
        let only_rare = [bm("e2e4", 40, 2, 4), bm("g1f3", 4, 4, 0)];
        assert!(choose(&only_rare, strict).is_none());
        assert!(choose(&[], r).is_none());
    }
}
