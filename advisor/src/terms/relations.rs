//! Relations between pieces, written as the paper writes them: the acting
//! piece without its square, the target with its square.
//!
//! - attack `b>Nc3`: the black bishop attacks the white knight on c3;
//! - defence `Q<Pe4`: the white queen defends the white pawn on e4;
//! - x-ray `r=Qf3`: the black rook attacks the white queen on f3 through
//!   other pieces (any number of them on the line, as in the paper's
//!   `R=qd8` through d6 and d7). Only enemy targets.

use shakmaty::{attacks, Bitboard, Chess, Position, Role};

use super::notation::{piece_char, piece_on};

pub fn terms(pos: &Chess) -> Vec<String> {
    let board = pos.board();
    let occupied = board.occupied();
    let mut out = Vec::with_capacity(64);
    for (sq, piece) in board.iter() {
        let a = piece_char(piece);
        let seen = match piece.role {
            Role::Pawn => attacks::pawn_attacks(piece.color, sq),
            _ => attacks::attacks(sq, piece, occupied),
        };
        for t in seen & occupied {
            let target = board.piece_at(t).expect("occupied");
            let rel = if target.color == piece.color {
                '<'
            } else {
                '>'
            };
            out.push(format!("{a}{rel}{}", piece_on(target, t)));
        }
        if matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
            // Peel the blockers off one layer at a time.
            let mut hit = seen & occupied;
            let mut occ = occupied;
            loop {
                occ &= !hit;
                let beyond = attacks::attacks(sq, piece, occ) & occ & !hit;
                if beyond.is_empty() {
                    break;
                }
                for t in beyond & board.by_color(!piece.color) {
                    let target = board.piece_at(t).expect("occupied");
                    out.push(format!("{a}={}", piece_on(target, t)));
                }
                hit = beyond;
            }
        }
    }
    out
}

/// Squares attacked by pieces of both colours (for tests and callers).
pub fn all_attacks(pos: &Chess) -> Bitboard {
    let b = pos.board();
    b.iter()
        .map(|(sq, p)| attacks::attacks(sq, p, b.occupied()))
        .fold(Bitboard::EMPTY, |a, x| a | x)
}

#[cfg(test)]
mod tests {
    use super::super::testpos::*;
    use super::*;

    #[test]
    fn the_papers_examples() {
        let t = terms(&pos(KARJAKIN_NAKAMURA));
        for want in ["b>Nc3", "Q<Pe4", "Q<Rd1", "R=qd8", "r=Qf3"] {
            assert!(t.contains(&want.to_string()), "missing {want} in {t:?}");
        }
        // A pawn attacks diagonally only; a knight defends.
        assert!(t.contains(&"P>pg6".to_string()), "h5xg6");
        assert!(t.contains(&"N<Kc1".to_string()), "Nb3 defends the king");
        assert!(t.contains(&"N<Pe4".to_string()), "Nc3 defends e4");
        // No x-ray of one's own pieces, no direct attack through a blocker.
        assert!(!t.contains(&"R>qd8".to_string()));
        assert!(!t
            .iter()
            .any(|x| x.starts_with("R=R") || x.starts_with("r=r")));
    }

    #[test]
    fn hand_checked_small_position() {
        // White: Ra1, Nc3, Pb2. Black: qa8, ke8, pa5.
        let t = terms(&pos("q3k3/8/8/p7/8/2N5/1P6/R3K3 w - - 0 1"));
        assert!(t.contains(&"R>pa5".to_string()));
        assert!(t.contains(&"R=qa8".to_string()));
        assert!(!t.contains(&"q>pa5".to_string()), "own pawn: defence");
        assert!(t.contains(&"q<pa5".to_string()));
        assert!(t.contains(&"q=Ra1".to_string()));
        assert!(t.contains(&"P<Nc3".to_string()));
        assert!(t.contains(&"R<Ke1".to_string()));
        assert!(
            !t.contains(&"K<Ra1".to_string()),
            "the king is not next to a1"
        );
    }
}
