//! Score conventions: centipawns from the side to move's point of view, with
//! mate scores counted in plies from the root.

/// Larger than any score: the initial alpha-beta window.
pub const INFINITE: i32 = 32_001;
/// Score of delivering mate at the root (mate in 0 plies).
pub const MATE: i32 = 32_000;
/// Deepest ply the search may reach; also bounds the PV and the stacks.
pub const MAX_PLY: usize = 128;
/// Any score at least this large is a mate score.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Draw score.
pub const DRAW: i32 = 0;

/// Score of the side to move being mated `ply` plies from the root.
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score of the side to move mating `ply` plies from the root.
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mate scores are stored in the transposition table relative to the node,
/// not to the root, so they stay right when found again at another ply.
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Inverse of [`to_tt`].
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when we are mated. Never 0.
    Mate(i32),
}

impl DisplayScore {
    pub fn from_score(score: i32) -> DisplayScore {
        if score >= MATE_BOUND {
            DisplayScore::Mate(((MATE - score + 1) / 2).max(1))
        } else if score <= -MATE_BOUND {
            DisplayScore::Mate(-((MATE + score) / 2).max(1))
        } else {
            DisplayScore::Cp(score)
        }
    }
}

impl std::fmt::Display for DisplayScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DisplayScore::Cp(cp) => write!(f, "cp {cp}"),
            DisplayScore::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves_with_sign_and_never_zero() {
        assert_eq!(DisplayScore::from_score(mate_in(1)), DisplayScore::Mate(1));
        assert_eq!(DisplayScore::from_score(mate_in(3)), DisplayScore::Mate(2));
        assert_eq!(DisplayScore::from_score(mate_in(5)), DisplayScore::Mate(3));
        assert_eq!(
            DisplayScore::from_score(mated_in(2)),
            DisplayScore::Mate(-1)
        );
        assert_eq!(
            DisplayScore::from_score(mated_in(4)),
            DisplayScore::Mate(-2)
        );
        assert_eq!(
            DisplayScore::from_score(mated_in(0)),
            DisplayScore::Mate(-1)
        );
        assert_eq!(DisplayScore::from_score(37), DisplayScore::Cp(37));
        assert_eq!(
            DisplayScore::from_score(-MATE_BOUND + 1),
            DisplayScore::Cp(-MATE_BOUND + 1)
        );
    }

    #[test]
    fn tt_mate_adjustment_round_trips() {
        for ply in 0..MAX_PLY {
            for s in [mate_in(ply + 3), mated_in(ply + 2), 0, 150, -2000] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
    }
}
