//! A position as the autoencoder sees it ("Reconstructing chess positions"):
//! an 8x8x7 tensor, six piece planes holding +1 for a White piece and -1 for
//! a Black one and a seventh plane for the side to move, flattened to 448
//! inputs; and the 13 states of a square (empty, or one of 12 pieces) that a
//! reconstruction is scored on.

use shakmaty::{Board, Color, Piece, Role, Square};

/// Values per square: six piece planes and the side to move.
pub const PLANES: usize = 7;

/// The network's inputs: 64 squares of [`PLANES`] values.
pub const INPUTS: usize = 64 * PLANES;

/// What a square can hold: empty, six White pieces, six Black pieces.
pub const SQUARE_STATES: usize = 13;

/// A position reduced to what the autoencoder encodes: the state of each
/// square (0 empty, 1-6 White pawn..king, 7-12 Black pawn..king) and the
/// side to move. Castling rights, en passant and the move counters are left
/// out, as in the post.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Squares {
    pub states: [u8; 64],
    pub white_to_move: bool,
}

/// The state number of a piece (1-12).
pub fn state_of(piece: Piece) -> u8 {
    let role = piece.role as u8; // Pawn = 1 .. King = 6
    match piece.color {
        Color::White => role,
        Color::Black => role + 6,
    }
}

/// The piece of a state number, `None` for empty (0) or out of range.
pub fn piece_of(state: u8) -> Option<Piece> {
    let (color, role) = match state {
        1..=6 => (Color::White, state),
        7..=12 => (Color::Black, state - 6),
        _ => return None,
    };
    Some(Piece {
        color,
        role: Role::ALL[role as usize - 1],
    })
}

impl Squares {
    /// The squares of `board` with `turn` to move.
    pub fn of(board: &Board, turn: Color) -> Squares {
        let mut states = [0u8; 64];
        for (sq, piece) in board.iter() {
            states[sq as usize] = state_of(piece);
        }
        Squares {
            states,
            white_to_move: turn == Color::White,
        }
    }

    /// The board these squares describe (no check of legality).
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for (i, &s) in self.states.iter().enumerate() {
            if let Some(p) = piece_of(s) {
                board.set_piece_at(Square::new(i as u32), p);
            }
        }
        board
    }

    /// Pieces on the board.
    pub fn pieces(&self) -> usize {
        self.states.iter().filter(|&&s| s != 0).count()
    }

    /// The 448 inputs: square-major, for each square the six piece planes
    /// (pawn..king; +1 White, -1 Black, 0 none) then the side to move (+1
    /// White, -1 Black).
    pub fn planes(&self) -> [f32; INPUTS] {
        let mut x = [0f32; INPUTS];
        self.write_planes(&mut x);
        x
    }

    /// [`Squares::planes`] into a slice of [`INPUTS`] values.
    pub fn write_planes(&self, x: &mut [f32]) {
        let turn = if self.white_to_move { 1.0 } else { -1.0 };
        for (sq, &s) in self.states.iter().enumerate() {
            let cell = &mut x[sq * PLANES..(sq + 1) * PLANES];
            cell.fill(0.0);
            match s {
                1..=6 => cell[s as usize - 1] = 1.0,
                7..=12 => cell[s as usize - 7] = -1.0,
                _ => {}
            }
            cell[PLANES - 1] = turn;
        }
    }
}

/// Reads the states back from 448 values in the planes' layout (what the
/// post's autoencoder outputs): on each square the piece plane furthest from
/// zero names the piece and its sign the colour, unless it is below 0.5 in
/// size, which reads as an empty square.
pub fn states_from_planes(y: &[f32]) -> [u8; 64] {
    let mut states = [0u8; 64];
    for (sq, state) in states.iter_mut().enumerate() {
        let cell = &y[sq * PLANES..sq * PLANES + 6];
        let (role, v) = cell.iter().enumerate().fold((0, 0f32), |best, (i, &v)| {
            if v.abs() > best.1.abs() {
                (i, v)
            } else {
                best
            }
        });
        *state = if v.abs() < 0.5 {
            0
        } else if v > 0.0 {
            role as u8 + 1
        } else {
            role as u8 + 7
        };
    }
    states
}

/// Reads the states back from 64 x 13 scores (a softmax output): the most
/// likely state of each square.
pub fn states_from_scores(y: &[f32]) -> [u8; 64] {
    let mut states = [0u8; 64];
    for (sq, state) in states.iter_mut().enumerate() {
        let cell = &y[sq * SQUARE_STATES..(sq + 1) * SQUARE_STATES];
        let mut best = 0;
        for (i, &v) in cell.iter().enumerate() {
            if v > cell[best] {
                best = i;
            }
        }
        *state = best as u8;
    }
    states
}

/// Squares whose reconstructed state differs from the position's.
pub fn wrong_squares(truth: &[u8; 64], guess: &[u8; 64]) -> usize {
    truth.iter().zip(guess).filter(|(a, b)| a != b).count()
}

/// Pieces of the position found on their square in the reconstruction (the
/// memory test's count: MACH scores the pieces its chunks cover).
pub fn pieces_recovered(truth: &[u8; 64], guess: &[u8; 64]) -> usize {
    truth
        .iter()
        .zip(guess)
        .filter(|(a, b)| **a != 0 && a == b)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn the_start_position_has_white_pawns_at_plus_one_and_black_pawns_at_minus_one() {
        let pos = Chess::default();
        let sq = Squares::of(pos.board(), pos.turn());
        let x = sq.planes();
        let e2 = Square::E2 as usize;
        let e7 = Square::E7 as usize;
        assert_eq!(x[e2 * PLANES], 1.0);
        assert_eq!(x[e7 * PLANES], -1.0);
        assert_eq!(x[Square::E4 as usize * PLANES..][..6], [0.0; 6]);
        assert_eq!(x[Square::E4 as usize * PLANES + 6], 1.0, "White to move");
        assert_eq!(sq.pieces(), 32);
        assert_eq!(sq.board(), *pos.board());
    }

    #[test]
    fn the_planes_read_back_as_the_same_squares_and_the_scores_too() {
        let pos = Chess::default();
        let sq = Squares::of(pos.board(), pos.turn());
        assert_eq!(states_from_planes(&sq.planes()), sq.states);
        let mut scores = vec![0f32; 64 * SQUARE_STATES];
        for (i, &s) in sq.states.iter().enumerate() {
            scores[i * SQUARE_STATES + s as usize] = 3.0;
        }
        assert_eq!(states_from_scores(&scores), sq.states);
    }

    #[test]
    fn a_weak_plane_value_reads_as_an_empty_square() {
        let mut y = [0f32; INPUTS];
        y[Square::D4 as usize * PLANES + 4] = 0.49; // a faint queen
        y[Square::D5 as usize * PLANES + 4] = -0.51; // a Black queen
        let s = states_from_planes(&y);
        assert_eq!(s[Square::D4 as usize], 0);
        assert_eq!(s[Square::D5 as usize], 11);
    }

    #[test]
    fn wrong_squares_and_recovered_pieces_count_what_they_say() {
        let pos = Chess::default();
        let truth = Squares::of(pos.board(), pos.turn()).states;
        let mut guess = truth;
        guess[Square::E2 as usize] = 0; // a missing pawn
        guess[Square::E4 as usize] = 1; // a pawn that is not there
        assert_eq!(wrong_squares(&truth, &guess), 2);
        assert_eq!(pieces_recovered(&truth, &guess), 31);
    }
}
