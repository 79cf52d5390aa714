//! Piece-on-square terms: `Nc3`, `bg7`.

use shakmaty::{Chess, Position};

use super::notation::piece_on;

pub fn terms(pos: &Chess) -> Vec<String> {
    pos.board()
        .iter()
        .map(|(sq, piece)| piece_on(piece, sq))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testpos::*;
    use super::*;

    #[test]
    fn the_papers_example_position() {
        let mut got = terms(&pos(KARJAKIN_NAKAMURA));
        let mut want: Vec<String> = "rc8 qd8 rf8 kg8 pb7 nd7 pf7 bg7 pa6 pd6 pe6 pg6 ph6 Ph5 Pe4 Pf4 Nb3 Nc3 Qf3 Pg3 Pa2 Pb2 Pc2 Kc1 Rd1 Re1"
            .split(' ')
            .map(String::from)
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want);
    }
}
