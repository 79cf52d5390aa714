//! How well a network rebuilds positions from their codes, counted the way
//! the post does (wrong squares per position) and the way MACH's memory
//! test does (the share of the pieces found again on their square), by the
//! network file Mach runs, so the figures are those of what ships.

use mach_advisor::chunks::{covered, Library};
use mach_advisor::vectors::planes::{pieces_recovered, wrong_squares};
use mach_advisor::vectors::{Net, Squares};

/// Counts over a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reconstruction {
    pub positions: u64,
    pub wrong: u64,
    pub pieces: u64,
    pub recovered: u64,
    /// Positions rebuilt without a wrong square.
    pub perfect: u64,
}

impl Reconstruction {
    /// Mean wrong squares per position (the post's figure).
    pub fn wrong_per_position(&self) -> f64 {
        self.wrong as f64 / self.positions.max(1) as f64
    }

    /// Share of the pieces found on their square, in percent.
    pub fn recovered_percent(&self) -> f64 {
        100.0 * self.recovered as f64 / self.pieces.max(1) as f64
    }

    /// Share of positions rebuilt whole, in percent.
    pub fn perfect_percent(&self) -> f64 {
        100.0 * self.perfect as f64 / self.positions.max(1) as f64
    }
}

/// Encodes and rebuilds every position with `net`.
pub fn reconstruction(net: &Net, positions: &[Squares]) -> Reconstruction {
    let mut r = Reconstruction::default();
    for p in positions {
        let guess = net.reconstruct(&net.encode(p));
        let wrong = wrong_squares(&p.states, &guess) as u64;
        r.positions += 1;
        r.wrong += wrong;
        r.perfect += u64::from(wrong == 0);
        r.pieces += p.pieces() as u64;
        r.recovered += pieces_recovered(&p.states, &guess) as u64;
    }
    r
}

/// MACH's memory test on the same positions: the share of their pieces
/// that a chunk of `library` covers, in percent.
pub fn chunk_memory_percent(library: &Library, positions: &[Squares]) -> f64 {
    let (mut pieces, mut covered_pieces) = (0u64, 0u64);
    for p in positions {
        let board = p.board();
        pieces += board.occupied().count() as u64;
        covered_pieces += covered(&library.find(&board)).count() as u64;
    }
    100.0 * covered_pieces as f64 / pieces.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use mach_advisor::vectors::planes::INPUTS;
    use mach_advisor::vectors::{Layer, Output};
    use shakmaty::{Chess, Position};

    /// A network that rebuilds every position as the empty board: it
    /// answers "empty" with full confidence on every square.
    fn empty_board_net() -> Net {
        let layer = |inputs: usize, outputs: usize, bias: Vec<f32>| Layer {
            inputs,
            outputs,
            weights: vec![0.0; inputs * outputs],
            bias,
        };
        let mut last_bias = vec![0.0; 64 * 13];
        for sq in 0..64 {
            last_bias[sq * 13] = 5.0;
        }
        Net {
            output: Output::Squares,
            layers: vec![layer(INPUTS, 4, vec![0.0; 4]), layer(4, 64 * 13, last_bias)],
            code_layer: 0,
            note: String::new(),
        }
    }

    #[test]
    fn a_network_that_forgets_every_piece_gets_every_occupied_square_wrong() {
        let pos = Chess::default();
        let start = Squares::of(pos.board(), pos.turn());
        let r = reconstruction(&empty_board_net(), &[start, start]);
        assert_eq!(r.wrong_per_position(), 32.0);
        assert_eq!(r.recovered_percent(), 0.0);
        assert_eq!(r.perfect, 0);
    }
}
