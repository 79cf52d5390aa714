//! The evaluation's terms in one table of groups, and the sink the
//! evaluation sends them to: the score in play, a trace of coefficients in
//! a tune (as Ethereal's `EvalTrace`). A group is one table of `psqt.rs`:
//! its name there, its `mach tune --fit` name, its shape (taken from the
//! table itself), how the tune's writer lays it out, and from the table's
//! order its place among the tune's coefficients.

use crate::pawn_chunk_patterns::{FEATURES, N_FEATURES};
use std::sync::OnceLock;

use crate::psqt::{
    Weight, BISHOP_PAIR, BISHOP_PAWNS, EG_PST, KING_ATTACK, KING_PAWNS, KING_WEAK, MATERIAL,
    MG_PST, MOBILITY, PASSER_KINGS, PAWN_CHUNKS, PAWN_PATH, PAWN_PUSH, PAWN_STRUCTURE, SAFE_CHECKS,
    TARGETS,
};

/// A group of weights, in the order of [`GROUPS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// `MATERIAL[role]` (column 0).
    Material,
    /// `MG_PST` and `EG_PST` `[role][sq]`, listed rank 8 first (White
    /// reads `sq ^ 56`, Black `sq`).
    Pst,
    /// `MOBILITY[piece][n]`.
    Mobility,
    /// `BISHOP_PAIR` (row 0, column 0).
    Pair,
    /// `KING_ATTACK[attackers][squares]`.
    KingAttack,
    /// `SAFE_CHECKS[piece][n]`.
    Checks,
    /// `KING_WEAK[n]` (row 0).
    Weak,
    /// `TARGETS[piece][2 v + g]`.
    Targets,
    /// `PAWN_PUSH[row][s]`.
    Push,
    /// `PAWN_PATH[row][n]`.
    Path,
    /// `KING_PAWNS[2 bucket + theirs][sq]`.
    KingPawns,
    /// `PASSER_KINGS[row][whose]`, counted once a king move.
    PasserKings,
    /// `BISHOP_PAWNS[0][n]` and `[1][r]`, once for each bishop.
    BishopPawns,
    /// `PAWN_STRUCTURE[kind][row]`, once for each pawn of that kind.
    Structure,
    /// `PAWN_CHUNKS` by feature (row 0, column the feature).
    Chunks,
}

/// How `psqt.rs` writes a group's table (`mach tune`'s writer follows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One weight a line (one column).
    Column,
    /// A row of the table a line.
    Rows,
    /// Every weight on the declaration's line (one row).
    Line,
    /// One weight, no array.
    Single,
    /// One (name, weight) a line, the names these (one row).
    Named(&'static [&'static str]),
    /// Two tables of plain integers, `MG_` and `EG_` before the name,
    /// eight to a line, a row a block headed by these names.
    Squares(&'static [&'static str]),
}

/// One group of weights: see [`GROUPS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub term: Term,
    /// Its name for `mach tune --fit`.
    pub fit: &'static str,
    /// Its table's name in `psqt.rs` (`Squares`: after `MG_` and `EG_`).
    pub name: &'static str,
    /// Its table's type as `psqt.rs` declares it.
    pub ty: &'static str,
    pub rows: usize,
    pub cols: usize,
    pub layout: Layout,
}

/// Names of the piece-square tables' rows.
const ROLE_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// Every group of weights, in the order of [`Term`] and of the tune's
/// coefficients; shapes are read from the tables themselves.
pub const GROUPS: [Group; 15] = [
    Group {
        term: Term::Material,
        fit: "material",
        name: "MATERIAL",
        ty: "[Weight; 6]",
        rows: MATERIAL.len(),
        cols: 1,
        layout: Layout::Column,
    },
    Group {
        term: Term::Pst,
        fit: "pst",
        name: "PST",
        ty: "[[i32; 64]; 6]",
        rows: MG_PST.len(),
        cols: MG_PST[0].len(),
        layout: Layout::Squares(&ROLE_NAMES),
    },
    Group {
        term: Term::Mobility,
        fit: "mobility",
        name: "MOBILITY",
        ty: "[[Weight; 28]; 4]",
        rows: MOBILITY.len(),
        cols: MOBILITY[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Pair,
        fit: "pair",
        name: "BISHOP_PAIR",
        ty: "Weight",
        rows: 1,
        cols: 1,
        layout: Layout::Single,
    },
    Group {
        term: Term::KingAttack,
        fit: "king-attack",
        name: "KING_ATTACK",
        ty: "[[Weight; KING_HITS_N]; KING_ATTACK_ROWS]",
        rows: KING_ATTACK.len(),
        cols: KING_ATTACK[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Checks,
        fit: "checks",
        name: "SAFE_CHECKS",
        ty: "[[Weight; SAFE_CHECKS_N]; 4]",
        rows: SAFE_CHECKS.len(),
        cols: SAFE_CHECKS[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Weak,
        fit: "king-weak",
        name: "KING_WEAK",
        ty: "[Weight; KING_WEAK_N]",
        rows: 1,
        cols: KING_WEAK.len(),
        layout: Layout::Line,
    },
    Group {
        term: Term::Targets,
        fit: "targets",
        name: "TARGETS",
        ty: "[[Weight; 10]; 6]",
        rows: TARGETS.len(),
        cols: TARGETS[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Push,
        fit: "pawn-push",
        name: "PAWN_PUSH",
        ty: "[[Weight; 4]; 6]",
        rows: PAWN_PUSH.len(),
        cols: PAWN_PUSH[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Path,
        fit: "pawn-path",
        name: "PAWN_PATH",
        ty: "[[Weight; 7]; 6]",
        rows: PAWN_PATH.len(),
        cols: PAWN_PATH[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::KingPawns,
        fit: "king-pawns",
        name: "KING_PAWNS",
        ty: "[[Weight; 48]; 8]",
        rows: KING_PAWNS.len(),
        cols: KING_PAWNS[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::PasserKings,
        fit: "passer-kings",
        name: "PASSER_KINGS",
        ty: "[[Weight; 2]; 6]",
        rows: PASSER_KINGS.len(),
        cols: PASSER_KINGS[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::BishopPawns,
        fit: "bishop-pawns",
        name: "BISHOP_PAWNS",
        ty: "[[Weight; 9]; 2]",
        rows: BISHOP_PAWNS.len(),
        cols: BISHOP_PAWNS[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Structure,
        fit: "pawn-structure",
        name: "PAWN_STRUCTURE",
        ty: "[[Weight; 6]; 6]",
        rows: PAWN_STRUCTURE.len(),
        cols: PAWN_STRUCTURE[0].len(),
        layout: Layout::Rows,
    },
    Group {
        term: Term::Chunks,
        fit: "chunks",
        name: "PAWN_CHUNKS",
        ty: "&[(&str, Weight)]",
        rows: 1,
        cols: N_FEATURES,
        layout: Layout::Named(&FEATURES),
    },
];

/// The first coefficient of each group, then the number of coefficients.
const AT: [usize; GROUPS.len() + 1] = {
    let mut at = [0; GROUPS.len() + 1];
    let mut i = 0;
    while i < GROUPS.len() {
        assert!(
            GROUPS[i].term as usize == i,
            "GROUPS lists the terms in order"
        );
        at[i + 1] = at[i] + GROUPS[i].rows * GROUPS[i].cols;
        i += 1;
    }
    at
};

/// Number of tapered coefficients, every group's cells; each has a
/// middlegame and an endgame weight.
pub const N_TERMS: usize = AT[GROUPS.len()];

impl Term {
    /// Its group.
    #[inline(always)]
    pub const fn group(self) -> Group {
        GROUPS[self as usize]
    }

    /// Its first coefficient.
    #[inline(always)]
    pub const fn at(self) -> usize {
        AT[self as usize]
    }

    /// How many coefficients it has (rows x columns).
    #[inline(always)]
    pub const fn size(self) -> usize {
        AT[self as usize + 1] - AT[self as usize]
    }

    /// The coefficient of cell (`row`, `col`); panics outside the table.
    #[inline]
    pub fn index(self, row: usize, col: usize) -> usize {
        let g = self.group();
        assert!(row < g.rows && col < g.cols, "{self:?} [{row}][{col}]");
        self.at() + row * g.cols + col
    }

    /// The weight of cell (`row`, `col`) compiled in (`psqt.rs`); folds to
    /// one table read where `self` is known.
    #[inline(always)]
    pub fn weight(self, row: usize, col: usize) -> Weight {
        match self {
            Term::Material => MATERIAL[row],
            Term::Pst => Weight {
                mg: MG_PST[row][col],
                eg: EG_PST[row][col],
            },
            Term::Mobility => MOBILITY[row][col],
            Term::Pair => BISHOP_PAIR,
            Term::KingAttack => KING_ATTACK[row][col],
            Term::Checks => SAFE_CHECKS[row][col],
            Term::Weak => KING_WEAK[col],
            Term::Targets => TARGETS[row][col],
            Term::Push => PAWN_PUSH[row][col],
            Term::Path => PAWN_PATH[row][col],
            Term::KingPawns => KING_PAWNS[row][col],
            Term::PasserKings => PASSER_KINGS[row][col],
            Term::BishopPawns => BISHOP_PAWNS[row][col],
            Term::Structure => PAWN_STRUCTURE[row][col],
            Term::Chunks => chunk_weights()[col],
        }
    }
}

/// Where the evaluation sends its terms (`eval::add_terms`): the score in
/// play, a trace of coefficients in a tune. The terms come side by side:
/// [`Sink::side`] says whose those that follow are.
pub trait Sink {
    /// The terms that follow count for White (`sign` 1) or Black (-1).
    fn side(&mut self, sign: i32);

    /// Cell (`row`, `col`) of `term`'s table, once for the side.
    fn add(&mut self, term: Term, row: usize, col: usize);

    /// A piece of the side (`color` 0 White, 1 Black) of role `role`
    /// (pawn 0 to king 5) on `sq` (a1 = 0): its material and its square,
    /// the tables listed rank 8 first so that White reads `sq ^ 56`.
    #[inline]
    fn piece(&mut self, color: usize, role: usize, sq: usize) {
        self.add(Term::Material, role, 0);
        self.add(Term::Pst, role, if color == 0 { sq ^ 56 } else { sq });
    }
}

/// Each feature's weights, found by name in `psqt::PAWN_CHUNKS` (zero for a
/// feature the fit has not seen), so a changed library never breaks the build.
pub fn chunk_weights() -> &'static [Weight] {
    static WEIGHTS: OnceLock<Vec<Weight>> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        FEATURES
            .iter()
            .map(|f| {
                PAWN_CHUNKS
                    .iter()
                    .find(|(name, _)| name == f)
                    .map_or(Weight { mg: 0, eg: 0 }, |(_, w)| *w)
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_group_has_its_own_names_and_the_groups_tile_the_coefficients() {
        for (i, g) in GROUPS.iter().enumerate() {
            assert_eq!(g.term as usize, i);
            assert_eq!(g.term.group(), *g);
            assert_eq!(g.term.size(), g.rows * g.cols, "{:?}", g.term);
            assert_eq!(g.term.index(0, 0), g.term.at());
            assert_eq!(
                g.term.index(g.rows - 1, g.cols - 1) + 1,
                g.term.at() + g.term.size()
            );
            for h in &GROUPS[..i] {
                assert!(h.fit != g.fit && h.name != g.name, "{:?}", g.term);
            }
        }
        assert_eq!(GROUPS[GROUPS.len() - 1].term.at() + N_FEATURES, N_TERMS);
    }

    #[test]
    fn every_cell_of_every_group_has_its_compiled_weight() {
        for g in GROUPS {
            for row in 0..g.rows {
                for col in 0..g.cols {
                    // Reading it is the test: a shape too large panics.
                    let _ = g.term.weight(row, col);
                }
            }
        }
        assert_eq!(Term::Pair.weight(0, 0), BISHOP_PAIR);
        assert_eq!(Term::Mobility.weight(3, 27), MOBILITY[3][27]);
        assert_eq!(Term::Weak.weight(0, 2), KING_WEAK[2]);
    }
}
