//! Between the advisor thread and the search: requests for the position
//! being searched, answers turned into root bonuses, the `info string
//! advisor` line, and the engine's `RootAdvice` hook.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam_channel::Receiver;
use mach_advisor::advice::Advice;
use mach_advisor::book::{self, BookMove, BookRules};
use mach_advisor::chunks::plans::PlanTerm;
use mach_advisor::service::{Answer, Response};
use mach_engine::advice::{Delivered, Plans, RootAdvice};
use mach_engine::board;
use shakmaty::Move;

use crate::output::info_string;

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
/// time and never worse than Mach's own (the README's calibration).
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

/// `info string advisor exact e2e4 0.60 (7 games) d2d4 0.25 (3 games); 12 games, 0 dropped, 2.1 ms`
/// (`similar` instead of `exact` when no game reached this very position)
pub fn describe(advice: &Advice, chess960: bool) -> String {
    let mut s = String::from(if advice.exact {
        "advisor exact"
    } else {
        "advisor similar"
    });
    if advice.moves.is_empty() {
        s.push_str(" no suggestion;");
    }
    for m in advice.moves.iter().take(8) {
        s.push_str(&format!(
            " {} {:.2} ({} game{})",
            board::uci(m.mv, chess960),
            m.weight,
            m.games,
            if m.games == 1 { "" } else { "s" }
        ));
    }
    s.push_str(&format!(
        "; {} games, {} dropped, {:.1} ms",
        advice.hits.len(),
        advice.dropped,
        advice.query_ms
    ));
    if !advice.plans.is_empty() {
        s.push_str("; plans ");
        s.push_str(&advice.plans.join(" "));
    }
    s
}

/// `info string book e2e4 12 games 58% (avg 2712, 2019) d2d4 ...`: what was played
/// from exactly this position, the moves the book rules allow marked `*`.
pub fn describe_book(moves: &[BookMove], rules: BookRules, chess960: bool) -> String {
    let chosen = book::choose(moves, rules).map(|b| b.mv);
    let mut s = String::from("book");
    for b in moves.iter().take(6) {
        s.push_str(&format!(
            " {}{} {} game{} {:.0}% (+{} ={} -{}, avg {}, {})",
            board::uci(b.mv, chess960),
            if Some(b.mv) == chosen { "*" } else { "" },
            b.games,
            if b.games == 1 { "" } else { "s" },
            100.0 * b.shrunk_score(rules.prior),
            b.wins,
            b.draws,
            b.losses,
            b.avg_elo,
            b.last_year
        ));
    }
    s
}

/// Waits at most `budget` for this request's book answer (which comes first).
pub fn wait_book(rx: &Receiver<Response>, id: u64, budget: Duration) -> Option<Vec<BookMove>> {
    match wait(rx, id, budget, |a| matches!(a, Answer::Book(_)))? {
        Answer::Book(b) => Some(b),
        Answer::Advice(_) => None,
    }
}

/// Waits at most `budget` for this request's advice (after its book answer).
pub fn wait_advice(
    rx: &Receiver<Response>,
    id: u64,
    budget: Duration,
) -> Option<Result<Advice, String>> {
    match wait(rx, id, budget, |a| matches!(a, Answer::Advice(_)))? {
        Answer::Advice(a) => Some(a),
        Answer::Book(_) => None,
    }
}

/// Waits for an answer with this id that `wanted` accepts, dropping stale
/// answers (to earlier requests) and this request's earlier answers.
fn wait(
    rx: &Receiver<Response>,
    id: u64,
    budget: Duration,
    wanted: impl Fn(&Answer) -> bool,
) -> Option<Answer> {
    let deadline = std::time::Instant::now() + budget;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(r) if r.id == id && wanted(&r.answer) => return Some(r.answer),
            Ok(_) => continue, // stale: an answer to an earlier search
            Err(_) => return None,
        }
    }
}

/// Handed to the engine: polled at each iteration, it delivers the advice
/// once, when (and if) it arrives.
pub struct Poller {
    pub rx: Receiver<Response>,
    pub id: u64,
    pub weights: Weights,
    pub chess960: bool,
    pub done: Mutex<bool>,
}

impl RootAdvice for Poller {
    fn poll(&self) -> Option<Delivered> {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        if *done {
            return None;
        }
        while let Ok(r) = self.rx.try_recv() {
            if r.id != self.id {
                continue; // stale
            }
            let Answer::Advice(advice) = r.answer else {
                continue; // the book answer: the search thread's business
            };
            *done = true;
            return match advice {
                Ok(a) => {
                    info_string(&describe(&a, self.chess960));
                    Some(Delivered {
                        bonuses: bonuses(&a, self.weights),
                        plans: plans(&a, self.weights),
                        trusted: trusted(&a, self.weights),
                    })
                }
                Err(e) => {
                    info_string(&format!("advisor: {e}"));
                    None
                }
            };
        }
        None
    }
}

/// The advisor's tree table as the engine's [`TreeAdvice`]: empty until the
/// advisor thread has built it, then a hash lookup.
pub struct TreeSlot(pub Arc<std::sync::OnceLock<mach_advisor::tree::TreeTable>>);

impl mach_engine::advice::TreeAdvice for TreeSlot {
    fn moves(&self, key: u64) -> &[u16] {
        self.0.get().map_or(&[], |t| t.moves(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mach_advisor::service::{Answer, Response};

    fn advice_with(uci: &str) -> Advice {
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
        assert!(describe(&a, false).starts_with("advisor similar e2e4 0.50"));
        a.exact = true;
        let b = bonuses(&a, w);
        assert_eq!(
            (board::uci(b[0].0, false), b[0].1),
            ("e2e4".to_string(), 20)
        );
        assert!(describe(&a, false).starts_with("advisor exact e2e4 0.50"));
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
        assert!(describe(&a, false).ends_with("; plans Outpost(white,e5) Attack(black,c3)"));
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

    #[test]
    fn stale_answers_are_ignored() {
        let (tx, rx) = crossbeam_channel::unbounded();
        tx.send(Response {
            id: 1,
            answer: Answer::Advice(Ok(advice_with("d2d4"))),
        })
        .unwrap();
        tx.send(Response {
            id: 2,
            answer: Answer::Advice(Ok(advice_with("e2e4"))),
        })
        .unwrap();
        let got = wait_advice(&rx, 2, Duration::from_millis(100))
            .unwrap()
            .unwrap();
        assert_eq!(board::uci(got.moves[0].mv, false), "e2e4");
        // The poller too: an answer for another search gives nothing.
        tx.send(Response {
            id: 7,
            answer: Answer::Advice(Ok(advice_with("d2d4"))),
        })
        .unwrap();
        let p = Poller {
            rx: rx.clone(),
            id: 8,
            weights: Weights {
                exact: 50,
                similar: 50,
                plans: false,
                time: false,
            },
            chess960: false,
            done: Mutex::new(false),
        };
        assert!(p.poll().is_none());
        tx.send(Response {
            id: 8,
            answer: Answer::Advice(Ok(advice_with("g1f3"))),
        })
        .unwrap();
        let b = p.poll().unwrap().bonuses;
        assert_eq!(
            (board::uci(b[0].0, false), b[0].1),
            ("g1f3".to_string(), 50)
        );
        assert!(p.poll().is_none(), "delivered once");
        assert!(wait_advice(&rx, 9, Duration::from_millis(10)).is_none());
    }
}
