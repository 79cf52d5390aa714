//! How the advisor's answer reaches a running search: the `info string
//! advisor` line, [`receive`] (the answer told to the GUI and delivered by
//! the policy), the [`Poller`] the engine polls at each iteration, and the
//! grandmaster tree as the engine's [`TreeAdvice`].

use std::sync::{Arc, Mutex};

use crossbeam_channel::Receiver;
use mach_advisor::advice::Advice;
use mach_advisor::service::{Answer, Response};
use mach_engine::advice::{Delivered, RootAdvice, TreeAdvice};
use mach_engine::board;

use crate::uci::advice_policy::{deliver, Weights};
use crate::uci::output::info_string;

/// `info string advisor exact e2e4 0.60 (7 games) d2d4 0.25 (3 games); 12 games, 0 dropped, 2.1 ms`
/// (`similar` instead of `exact` when no game reached this very position;
/// `advisor: no game found ...` when none was found at all, as with exact
/// lookups only, the default, in a position the grandmasters never reached)
pub fn describe(advice: &Advice, chess960: bool) -> String {
    if advice.hits.is_empty() && advice.moves.is_empty() {
        return format!(
            "advisor: no game found for this position ({:.1} ms)",
            advice.query_ms
        );
    }
    let mut s = String::from(if advice.exact {
        "advisor exact"
    } else {
        "advisor similar"
    });
    if advice.moves.is_empty() {
        s.push_str(" no suggestion");
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
    // Exact advice from the opening tree has statistics, not hits.
    let games = if advice.hits.is_empty() {
        advice.moves.iter().map(|m| m.games as usize).sum()
    } else {
        advice.hits.len()
    };
    s.push_str(&format!(
        "; {} games, {} dropped, {:.1} ms",
        games, advice.dropped, advice.query_ms
    ));
    if !advice.plans.is_empty() {
        s.push_str("; plans ");
        s.push_str(&advice.plans.join(" "));
    }
    s
}

/// The advisor's answer told to the GUI and, when it is advice, delivered
/// by the policy.
pub fn receive(answer: Result<Advice, String>, w: Weights, chess960: bool) -> Option<Delivered> {
    match answer {
        Ok(a) => {
            info_string(&describe(&a, chess960));
            Some(deliver(&a, w))
        }
        Err(e) => {
            log::warn!("advisor: {e}");
            info_string(&format!("advisor: {e}"));
            None
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
            return receive(advice, self.weights, self.chess960);
        }
        None
    }
}

/// The advisor's tree table as the engine's [`TreeAdvice`]: empty until the
/// advisor thread has built it, then a hash lookup.
pub struct TreeSlot(pub Arc<std::sync::OnceLock<mach_advisor::tree::TreeTable>>);

impl TreeAdvice for TreeSlot {
    fn moves(&self, key: u64) -> &[u16] {
        self.0.get().map_or(&[], |t| t.moves(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::advice_policy::tests::advice_with;
    use crate::uci::advice_policy::MIN_SHARE;

    #[test]
    fn a_position_no_game_reached_is_said_plainly() {
        let none = Advice {
            query_ms: 0.04,
            ..Advice::default()
        };
        assert_eq!(
            describe(&none, false),
            "advisor: no game found for this position (0.0 ms)"
        );
        let mut a = advice_with("e2e4");
        a.moves.clear();
        assert!(describe(&a, false).starts_with("advisor similar no suggestion; 1 games"));
    }

    #[test]
    fn the_advisor_line_names_the_kind_of_advice_its_moves_and_plans() {
        let mut a = advice_with("e2e4");
        a.moves[0].weight = 0.5;
        assert!(describe(&a, false).starts_with("advisor similar e2e4 0.50"));
        a.exact = true;
        assert!(describe(&a, false).starts_with("advisor exact e2e4 0.50"));
        a.moves[0].weight = MIN_SHARE * 0.9;
        a.plans = vec!["Outpost(white,e5)".into(), "Attack(black,c3)".into()];
        assert!(describe(&a, false).ends_with("; plans Outpost(white,e5) Attack(black,c3)"));
    }

    #[test]
    fn the_poller_ignores_answers_for_other_searches_and_delivers_once() {
        let (tx, rx) = crossbeam_channel::unbounded();
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
    }
}
