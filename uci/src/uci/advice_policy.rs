//! The advice policy: what the search gets from the grandmasters' answer.
//! One function, [`deliver`], turns an [`Advice`] into the engine's
//! [`Delivered`] (root bonuses, plans, the move trusted with the time); timed
//! and fixed-depth searches and the pages all use it.

use mach_advisor::advice::Advice;
use mach_advisor::chunks::plans::PlanTerm;
use mach_engine::advice::{Delivered, Plans};
use shakmaty::Move;

use crate::uci::options;

/// Centipawns for a move every retrieved game agrees on: `exact` when the
/// games reached this very position, `similar` when they reached similar ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub exact: i32,
    pub similar: i32,
    /// The chunks' plans become evaluation terms (`AdvisorPlans`).
    pub plans: bool,
    /// Trusted advice shapes the time (`AdvisorTime`).
    pub time: bool,
}

/// Smallest share and games for advice to be trusted with the time: exact
/// advice with a share of 0.5 or more was the grandmaster's move 67% of the
/// time and never worse than Mach's own (docs/memory.md, the calibration).
pub const TRUST_SHARE: f32 = 0.5;
pub const TRUST_GAMES: u32 = 4;

/// The move strong evidence trusts, when `w.time`: exact advice whose first
/// move has at least [`TRUST_SHARE`] of it, from [`TRUST_GAMES`] games.
pub fn trusted(advice: &Advice, w: Weights) -> Option<Move> {
    let top = advice.moves.first()?;
    (w.time && advice.exact && top.weight >= TRUST_SHARE && top.games >= TRUST_GAMES)
        .then_some(top.mv)
}

/// Smallest share of the evidence that earns a bonus. Measured (Stockfish
/// depth 16 on 300 positions at 20,000 nodes): moves below 0.1 changed Mach's
/// choice in a quarter of the positions for no gain (-5 cp on average), only
/// perturbing the search; the few above it were improvements.
pub const MIN_SHARE: f32 = 0.15;

/// Root bonuses from advice: the weight for its kind times each move's share
/// of the evidence, for moves with at least [`MIN_SHARE`].
pub fn bonuses(advice: &Advice, w: Weights) -> Vec<(Move, i32)> {
    let weight = if advice.exact { w.exact } else { w.similar };
    advice
        .moves
        .iter()
        .filter(|s| s.weight >= MIN_SHARE)
        .map(|s| (s.mv, (s.weight * weight as f32).round() as i32))
        .filter(|&(_, b)| b != 0)
        .collect()
}

/// The plans of the chunks found at the root as the engine's evaluation
/// terms, when `w.plans` and they ask anything of the pieces.
pub fn plans(advice: &Advice, w: Weights) -> Option<Plans> {
    if !w.plans {
        return None;
    }
    let mut p = Plans::default();
    for t in &advice.plan_terms {
        match *t {
            PlanTerm::Good {
                side,
                roles,
                squares,
            } => roles.iter().for_each(|&r| p.add_good(side, r, squares)),
            PlanTerm::Target { side, squares } => p.add_target(side, squares),
        }
    }
    (!p.is_empty()).then_some(p)
}

impl Default for Weights {
    /// The UCI options' defaults.
    fn default() -> Weights {
        Weights {
            exact: options::ADVICE_WEIGHT,
            similar: options::ADVICE_SIMILAR_WEIGHT,
            plans: false,
            time: false,
        }
    }
}

/// The advice the search gets from `advice` under the weights `w`: root
/// bonuses, plans and the move trusted with the time.
pub fn deliver(advice: &Advice, w: Weights) -> Delivered {
    Delivered {
        bonuses: bonuses(advice, w),
        plans: plans(advice, w),
        trusted: trusted(advice, w),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use mach_engine::board;

    pub fn advice_with(uci: &str) -> Advice {
        let pos = shakmaty::Chess::default();
        let mv = board::parse_uci_move(&pos, uci).unwrap();
        Advice {
            moves: vec![mach_advisor::advice::Suggestion {
                mv,
                games: 3,
                wins: 1,
                draws: 1,
                losses: 1,
                weight: 1.0,
            }],
            hits: vec![mach_advisor::retrieval::Hit {
                game: 0,
                ply: 0,
                score: 1.0,
                exact: false,
                next: None,
            }],
            ..Advice::default()
        }
    }

    #[test]
    fn exact_and_similar_advice_get_their_own_weight() {
        let w = Weights {
            exact: 40,
            similar: 0,
            plans: false,
            time: false,
        };
        let mut a = advice_with("e2e4");
        a.moves[0].weight = 0.5;
        assert!(bonuses(&a, w).is_empty(), "similar advice at weight 0");
        a.exact = true;
        let b = bonuses(&a, w);
        assert_eq!(
            (board::uci(b[0].0, false), b[0].1),
            ("e2e4".to_string(), 20)
        );
        // A move few masters chose earns nothing, exact or not.
        a.moves[0].weight = MIN_SHARE * 0.9;
        assert!(bonuses(&a, w).is_empty());
    }

    #[test]
    fn plans_become_evaluation_terms_only_when_asked() {
        let mut a = advice_with("e2e4");
        let b = shakmaty::Board::default();
        a.plans = vec!["Outpost(white,e5)".into(), "Attack(black,c3)".into()];
        a.plan_terms = mach_advisor::chunks::plans::terms(a.plans.iter().map(|s| s.as_str()), &b);
        let mut w = Weights {
            exact: 40,
            similar: 40,
            plans: false,
            time: false,
        };
        assert!(plans(&a, w).is_none(), "AdvisorPlans off");
        w.plans = true;
        let p = plans(&a, w).unwrap();
        let e5 = shakmaty::Bitboard::from(shakmaty::Square::E5);
        assert_eq!(p.good[0][1], e5, "white knight");
        assert_eq!(p.good[0][2], e5, "white bishop");
        assert_eq!(p.targets[1], shakmaty::Bitboard::from(shakmaty::Square::C3));
        // Plans that ask nothing of the pieces give none.
        a.plan_terms = mach_advisor::chunks::plans::terms(["Trade(white,d5)"], &b);
        assert!(plans(&a, w).is_none());
    }

    #[test]
    fn only_strong_exact_advice_is_trusted_with_the_time() {
        let mut a = advice_with("e2e4");
        a.exact = true;
        a.moves[0].games = TRUST_GAMES;
        a.moves[0].weight = TRUST_SHARE;
        let mut w = Weights {
            exact: 40,
            similar: 0,
            plans: false,
            time: true,
        };
        assert_eq!(
            trusted(&a, w).map(|m| board::uci(m, false)),
            Some("e2e4".into())
        );
        w.time = false;
        assert!(trusted(&a, w).is_none(), "AdvisorTime off");
        w.time = true;
        a.moves[0].games = TRUST_GAMES - 1;
        assert!(trusted(&a, w).is_none(), "too few games");
        a.moves[0].games = TRUST_GAMES;
        a.moves[0].weight = TRUST_SHARE - 0.01;
        assert!(trusted(&a, w).is_none(), "too small a share");
        a.moves[0].weight = 1.0;
        a.exact = false;
        assert!(
            trusted(&a, w).is_none(),
            "similar positions are not trusted"
        );
    }
}
