//! The positions the autoencoder learns and is tested on: every position
//! of real games, split by game (every tenth game is held out, so no game
//! is seen in both), and the post's random positions.

use std::io::BufReader;
use std::ops::ControlFlow;

use mach_advisor::pgn::read_games_while;
use mach_advisor::source::Source;
use mach_advisor::vectors::Squares;
use rand::rngs::StdRng;
use rand::Rng;
use shakmaty::Position;

/// Game `n` (counted from 1 in the file) is held out when `n % HELD_OUT_EVERY == 0`.
pub const HELD_OUT_EVERY: usize = 10;

/// Which games' positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    Train,
    HeldOut,
}

impl Split {
    fn takes(self, game: usize) -> bool {
        game.is_multiple_of(HELD_OUT_EVERY) == (self == Split::HeldOut)
    }
}

/// What [`real_positions`] read.
pub struct RealPositions {
    pub positions: Vec<Squares>,
    /// Games of the split whose positions were taken.
    pub games: usize,
}

/// Every position (the start and after each move) of the split's games
/// of `source`, in file order, until `limit` positions; moves
/// `from_move..=to_move` of each game only (moves counted from 1).
pub fn real_positions(
    source: &Source,
    split: Split,
    limit: usize,
    from_move: usize,
    to_move: usize,
) -> Result<RealPositions, String> {
    let input = BufReader::new(
        source
            .open()
            .map_err(|e| format!("{}: {e}", source.name()))?,
    );
    let mut positions = Vec::with_capacity(limit.min(1 << 22));
    let mut n = 0usize;
    let mut games = 0usize;
    read_games_while(input, |g| {
        n += 1;
        if !split.takes(n) {
            return ControlFlow::Continue(());
        }
        let Some(rec) = g.game else {
            return ControlFlow::Continue(());
        };
        games += 1;
        let mut pos = rec.start();
        for ply in 0..=rec.moves.len() {
            let mv = ply / 2 + 1;
            if mv > to_move || positions.len() >= limit {
                break;
            }
            if mv >= from_move {
                positions.push(Squares::of(pos.board(), pos.turn()));
            }
            if let Some(m) = rec.moves.get(ply) {
                pos.play_unchecked(*m);
            }
        }
        if positions.len() >= limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .map_err(|e| format!("{}: {e}", source.name()))?;
    Ok(RealPositions { positions, games })
}

/// A random position by the post's rules: one king of each colour on
/// squares that do not touch, no pawn on the first or last rank, and up to
/// 32 pieces with the kings. Here the number of pieces is drawn evenly
/// from 2 to 32, each other piece evenly from the ten kinds (pawn to queen,
/// either colour) on an empty square it may stand on, and the side to move
/// evenly (the post does not say how its script drew them).
pub fn random_position(rng: &mut StdRng) -> Squares {
    let mut states = [0u8; 64];
    let wk = rng.random_range(0..64usize);
    let bk = loop {
        let s = rng.random_range(0..64usize);
        let (df, dr) = ((s % 8).abs_diff(wk % 8), (s / 8).abs_diff(wk / 8));
        if df > 1 || dr > 1 {
            break s;
        }
    };
    states[wk] = 6;
    states[bk] = 12;
    let pieces = rng.random_range(2..=32usize);
    for _ in 2..pieces {
        // Pawn..queen of White (1-5) or Black (7-11).
        let kind = rng.random_range(0..10u8);
        let state = if kind < 5 { kind + 1 } else { kind + 2 };
        let pawn = state == 1 || state == 7;
        let free: Vec<usize> = (0..64)
            .filter(|&s| states[s] == 0 && (!pawn || (8..56).contains(&s)))
            .collect();
        let s = free[rng.random_range(0..free.len())];
        states[s] = state;
    }
    Squares {
        states,
        white_to_move: rng.random_bool(0.5),
    }
}

/// `count` random positions from `seed`.
pub fn random_positions(count: usize, seed: u64) -> Vec<Squares> {
    use rand::SeedableRng;
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count).map(|_| random_position(&mut rng)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_positions_keep_the_posts_rules() {
        for sq in random_positions(2000, 7) {
            let s = sq.states;
            let wk: Vec<usize> = (0..64).filter(|&i| s[i] == 6).collect();
            let bk: Vec<usize> = (0..64).filter(|&i| s[i] == 12).collect();
            assert_eq!((wk.len(), bk.len()), (1, 1), "one king each");
            let (w, b) = (wk[0], bk[0]);
            assert!(
                (w % 8).abs_diff(b % 8) > 1 || (w / 8).abs_diff(b / 8) > 1,
                "kings apart"
            );
            for i in (0..8).chain(56..64) {
                assert!(s[i] != 1 && s[i] != 7, "no pawn on a back rank");
            }
            assert!((2..=32).contains(&sq.pieces()));
        }
    }

    #[test]
    fn the_same_seed_draws_the_same_positions_and_another_seed_others() {
        assert_eq!(random_positions(50, 3), random_positions(50, 3));
        assert_ne!(random_positions(50, 3), random_positions(50, 4));
    }

    #[test]
    fn no_game_gives_positions_to_both_splits() {
        let both: Vec<usize> = (1..=100)
            .filter(|&g| Split::Train.takes(g) && Split::HeldOut.takes(g))
            .collect();
        assert!(both.is_empty());
        assert_eq!((1..=100).filter(|&g| Split::HeldOut.takes(g)).count(), 10);
    }
}
