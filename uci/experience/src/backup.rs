//! What a finished game teaches: each position where Mach moved gets a score
//! backed up from the positions after it and the result.
//!
//! Rule: Mach's positions in the game, p1 .. pk, each with its search score
//! s (centipawns for Mach, who is to move there) and depth. When Mach saw
//! the game end (checkmate, stalemate, a draw by rule in the last position it
//! was sent) the result is r = +[`RESULT_CP`] for a win, 0 for a draw,
//! -[`RESULT_CP`] for a loss, and b(k) = (s(k) + r) / 2; otherwise (a GUI
//! does not tell an engine how a game ended) b(k) = s(k). Backwards from
//! there: b(i) = (s(i) + b(i+1)) / 2, halfway between what the search said
//! and what was found later in the game, closer to its end. A mate
//! score is kept as it is (it is proven, not estimated), and counts as r to
//! the positions before it. Each b is written as
//! a [`Kind::Backed`] record of the same position, move and depth, so it
//! replaces the search's record (same depth, newer) and a deeper search later
//! replaces it in turn.

use crate::record::{Kind, Record};

/// What a won (lost) game is worth at its end, in centipawns.
pub const RESULT_CP: i32 = 200;

/// Scores at least this far from zero are mates (the engine's `MATE_BOUND`).
pub const MATE_BOUND: i32 = 31_000;

/// One position where Mach moved, and what its search said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub key: u64,
    pub mv: u16,
    pub score: i16,
    pub depth: u8,
}

/// How the game ended for Mach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// The backed-up records of a finished game (`played` in game order).
pub fn back_up(played: &[Played], outcome: Option<Outcome>, minute: u32) -> Vec<Record> {
    let mut next = match outcome {
        Some(Outcome::Win) => RESULT_CP,
        Some(Outcome::Draw) => 0,
        Some(Outcome::Loss) => -RESULT_CP,
        None => played.last().map_or(0, |p| p.score as i32),
    };
    let mut out: Vec<Record> = played
        .iter()
        .rev()
        .map(|p| {
            let s = p.score as i32;
            let b = if s.abs() >= MATE_BOUND {
                s
            } else {
                (s + next).div_euclid(2)
            };
            // A mate is worth a won (lost) game to the positions before it.
            next = if b.abs() >= MATE_BOUND {
                b.signum() * RESULT_CP
            } else {
                b
            };
            Record {
                key: p.key,
                mv: p.mv,
                score: b.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: p.depth,
                kind: Kind::Backed,
                minute,
            }
        })
        .collect();
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(key: u64, score: i16) -> Played {
        Played {
            key,
            mv: 9,
            score,
            depth: 12,
        }
    }

    #[test]
    fn a_won_game_pulls_each_score_halfway_toward_what_came_after() {
        let b = back_up(&[at(1, 0), at(2, 40), at(3, 120)], Some(Outcome::Win), 5);
        // b3 = (120 + 200) / 2 = 160; b2 = (40 + 160) / 2 = 100; b1 = 50.
        let scores: Vec<i16> = b.iter().map(|r| r.score).collect();
        assert_eq!(scores, vec![50, 100, 160]);
        assert!(b
            .iter()
            .all(|r| r.kind == Kind::Backed && r.depth == 12 && r.minute == 5));
        assert_eq!(b.iter().map(|r| r.key).collect::<Vec<_>>(), vec![1, 2, 3]);
    }

    #[test]
    fn a_draw_pulls_toward_zero_a_loss_below_and_a_mate_stays_a_mate() {
        let d = back_up(&[at(1, 80)], Some(Outcome::Draw), 0);
        assert_eq!(d[0].score, 40);
        let l = back_up(&[at(1, 0), at(2, -31_990)], Some(Outcome::Loss), 0);
        assert_eq!(l[1].score, -31_990);
        // Before a mate, the mate counts as a lost game: (0 - 200) / 2.
        assert_eq!(l[0].score, -100);
        assert!(back_up(&[], Some(Outcome::Win), 0).is_empty());
    }

    #[test]
    fn with_no_known_result_the_last_score_stands_and_pulls_the_others() {
        let b = back_up(&[at(1, 0), at(2, 100)], None, 0);
        assert_eq!(b.iter().map(|r| r.score).collect::<Vec<_>>(), vec![50, 100]);
    }
}
