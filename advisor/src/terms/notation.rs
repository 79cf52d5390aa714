//! How a piece on a square is written as a term: `Nc3` (white upper
//! case), `bg7` (black lower case).

use shakmaty::{Color, Piece, Role, Square};

/// A piece's letter: upper case for white, lower case for black.
pub fn piece_char(piece: Piece) -> char {
    let c = piece.role.char();
    match piece.color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c,
    }
}

/// `Nc3`, `bg7`.
pub fn piece_on(piece: Piece, sq: Square) -> String {
    let mut s = String::with_capacity(3);
    s.push(piece_char(piece));
    s.push_str(&sq.to_string());
    s
}

/// Role letter for the side, e.g. `P`/`p`.
pub fn pawn_char(color: Color) -> char {
    piece_char(Role::Pawn.of(color))
}
