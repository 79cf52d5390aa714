//! A position as terms, after Ganguly, Leveling & Jones (SIGIR 2014) and
//! Plut (2018). One module per term family:
//!
//! - [`pieces`]: piece on square, `Nc3` (white upper case) and `bg7` (black lower case);
//! - [`reach`]: every empty square a piece can move to, in the same notation
//!   as the piece terms (`Qf2` for a queen on f3), weighted by distance;
//! - [`relations`]: attack `b>Nc3`, defence `Q<Pe4` and x-ray `r=Qf3`;
//! - [`pawns`]: pawn structure (isolated, doubled, passed, protected passed,
//!   backward, chains, islands);
//! - [`notation`]: how a piece on a square is written (`Nc3`, `bg7`);
//! - [`meta`]: side to move, and the material signature and game phase that
//!   retrieval uses to pre-filter.
//!
//! A document (an indexed position) has every family; a query has every
//! family but reach: the document's reach terms are what let a query piece
//! `Qf2` find a queen on f3.

pub mod chunks;
pub mod meta;
pub mod notation;
pub mod pawns;
pub mod pieces;
pub mod reach;
pub mod relations;

use shakmaty::Chess;

/// The text indexed for a position: whitespace-separated terms, reach terms
/// repeated by weight bucket (see [`reach::repetitions`]).
pub fn document_text(pos: &Chess) -> String {
    let mut out = String::with_capacity(2048);
    write_document(pos, &mut out);
    out
}

/// Appends the document text of `pos` to `out` (reusing its allocation).
pub fn write_document(pos: &Chess, out: &mut String) {
    for t in pieces::terms(pos) {
        for _ in 0..reach::ON_SQUARE_REPETITIONS {
            push(out, &t);
        }
    }
    for (t, w) in reach::terms(pos) {
        for _ in 0..reach::repetitions(w) {
            push(out, &t);
        }
    }
    for t in relations::terms(pos) {
        push(out, &t);
    }
    for t in pawns::terms(pos) {
        push(out, &t);
    }
    push(out, &meta::side_term(pos));
    push(out, &meta::material_term(pos));
    push(out, &meta::full_material_term(pos));
    push(out, &meta::pawn_structure_term(pos));
}

/// The terms of a query for `pos`: everything but reach, once each.
pub fn query_terms(pos: &Chess) -> Vec<String> {
    let mut q = pieces::terms(pos);
    q.extend(relations::terms(pos));
    q.extend(pawns::terms(pos));
    q.push(meta::side_term(pos));
    q
}

fn push(out: &mut String, term: &str) {
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(term);
}

#[cfg(test)]
pub(crate) mod testpos {
    use shakmaty::{fen::Fen, CastlingMode, Chess};

    pub fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// Karjakin-Nakamura after 20 moves, black to move: the paper's example,
    /// rebuilt from its piece terms (rc8 qd8 rf8 kg8 pb7 nd7 pf7 bg7 pa6 pd6
    /// pe6 pg6 ph6 Ph5 Pe4 Pf4 Nb3 Nc3 Qf3 Pg3 Pa2 Pb2 Pc2 Kc1 Rd1 Re1).
    pub const KARJAKIN_NAKAMURA: &str =
        "2rq1rk1/1p1n1pb1/p2pp1pp/7P/4PP2/1NN2QP1/PPP5/2KRR3 b - - 0 20";
}

#[cfg(test)]
mod tests {
    use super::testpos::*;
    use super::*;

    #[test]
    fn query_has_no_reach_and_document_has_it_repeated() {
        let p = pos(KARJAKIN_NAKAMURA);
        let q = query_terms(&p);
        assert!(q.contains(&"Qf3".to_string()));
        assert!(
            !q.contains(&"Qf2".to_string()),
            "reach terms are not in queries"
        );
        let doc = document_text(&p);
        let count = |t: &str| doc.split(' ').filter(|x| *x == t).count();
        assert_eq!(count("Qf3"), reach::ON_SQUARE_REPETITIONS);
        assert!(count("Rd2") > count("Rd5"), "nearer squares weigh more");
        assert!(count("Rd5") >= 1);
        assert!(count("Qf2") >= count("Qf1") && count("Qf1") >= 1);
        assert_eq!(count("b>Nc3"), 1);
        // Case matters: a white bishop term is not a black one.
        assert_eq!(count("bg7"), reach::ON_SQUARE_REPETITIONS);
        assert_eq!(count("Bg7"), 0);
    }
}
