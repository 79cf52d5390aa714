//! Patterns of pawns as data, and their test: the form in which MACH's
//! pawn chunks reach the engine (`pawn_chunk_patterns.rs` holds them,
//! `pawn_chunks.rs` weighs them). A pattern is a list of tests that must all
//! hold, each a postfix list of [`Op`]s over the two sides' pawns.

use shakmaty::{Bitboard, Color};

/// Which side's pawns a test reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

/// How a count of pawns is compared with a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn holds(self, a: u32, b: u32) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// Whether a pawn's square must be attacked by White's or Black's pawns
/// (`Some(true)`), must not be (`Some(false)`), or either (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub by_white: Option<bool>,
    pub by_black: Option<bool>,
}

impl Guard {
    /// No condition.
    pub const ANY: Guard = Guard {
        by_white: None,
        by_black: None,
    };
}

/// One step of a pattern's test in postfix order; each leaves one truth
/// value on the stack (the operators take theirs off first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Some pawn of `side` stands on `squares` and meets `guard`.
    Pawn {
        side: Side,
        squares: u64,
        guard: Guard,
    },
    /// No pawn of `side` stands on `squares`.
    NoPawn { side: Side, squares: u64 },
    /// The number of `side`'s pawns on `squares`, compared with `n`.
    Count {
        side: Side,
        squares: u64,
        cmp: Cmp,
        n: u8,
    },
    /// An earlier pattern (its index in the list tested) is present.
    Chunk(u16),
    /// Not the value on top.
    Not,
    /// Whether all of the top `n` values hold.
    And(u8),
    /// Whether any of the top `n` values holds.
    Or(u8),
}

/// Most values a pattern's test holds at once (`mach chunks pawns` refuses
/// deeper ones).
pub const MAX_STACK: usize = 32;

/// One chunk instance (one side, one wing, one set of parameter values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The instance's name in the library, e.g. `passed_pawn_a(5).w.m`.
    pub name: &'static str,
    /// Index into [`FEATURES`]: both sides and both wings of one chunk with
    /// one set of parameter values share a feature.
    pub feature: u16,
    /// The side that has the pattern: its presence counts for that side.
    pub side: Side,
    /// Tests that must all hold, each a postfix list of [`Op`]s leaving one
    /// value; the cheapest first, so most patterns fail at their first.
    pub parts: &'static [&'static [Op]],
}

/// The pawns of each side and the squares each side's pawns attack.
pub(crate) struct Pawns {
    pub(crate) white: Bitboard,
    pub(crate) black: Bitboard,
    pub(crate) white_attacks: Bitboard,
    pub(crate) black_attacks: Bitboard,
}

impl Pawns {
    fn of(side: Side, p: &Pawns) -> Bitboard {
        match side {
            Side::White => p.white,
            Side::Black => p.black,
        }
    }
}

fn guarded(squares: Bitboard, attacked: Bitboard, must: Option<bool>) -> Bitboard {
    match must {
        None => squares,
        Some(true) => squares & attacked,
        Some(false) => squares & !attacked,
    }
}

/// Whether a test holds; `present` answers for earlier patterns.
fn holds(ops: &[Op], p: &Pawns, present: &[bool]) -> bool {
    if let [op] = ops {
        return one(op, p, present);
    }
    let mut stack = [false; MAX_STACK];
    let mut top = 0usize;
    for op in ops {
        let value = match *op {
            Op::Not => {
                let Some(t) = top.checked_sub(1) else {
                    return false;
                };
                top = t;
                !stack[t]
            }
            Op::And(n) | Op::Or(n) => {
                let Some(from) = top.checked_sub(n as usize) else {
                    return false;
                };
                let values = &stack[from..top];
                top = from;
                if matches!(op, Op::And(_)) {
                    values.iter().all(|&v| v)
                } else {
                    values.iter().any(|&v| v)
                }
            }
            _ => one(op, p, present),
        };
        let Some(slot) = stack.get_mut(top) else {
            return false;
        };
        *slot = value;
        top += 1;
    }
    top == 1 && stack[0]
}

/// The value of a test that takes nothing off the stack (`Not`, `And` and
/// `Or` alone hold nothing).
#[inline]
fn one(op: &Op, p: &Pawns, present: &[bool]) -> bool {
    match *op {
        Op::Pawn {
            side,
            squares,
            guard,
        } => {
            let on = Pawns::of(side, p) & Bitboard(squares);
            let on = guarded(on, p.white_attacks, guard.by_white);
            guarded(on, p.black_attacks, guard.by_black).any()
        }
        Op::NoPawn { side, squares } => (Pawns::of(side, p) & Bitboard(squares)).is_empty(),
        Op::Count {
            side,
            squares,
            cmp,
            n,
        } => cmp.holds(
            (Pawns::of(side, p) & Bitboard(squares)).count() as u32,
            n as u32,
        ),
        Op::Chunk(k) => present.get(k as usize).copied().unwrap_or(false),
        Op::Not | Op::And(_) | Op::Or(_) => false,
    }
}

/// Which of `patterns` are present with these pawns, in their order.
pub fn presence(patterns: &[Pattern], white: Bitboard, black: Bitboard) -> Vec<bool> {
    let p = Pawns {
        white,
        black,
        white_attacks: pawn_attacks(white, Color::White),
        black_attacks: pawn_attacks(black, Color::Black),
    };
    let mut present = vec![false; patterns.len()];
    fill_presence(patterns, &p, &mut present);
    present
}

pub(crate) fn fill_presence(patterns: &[Pattern], p: &Pawns, present: &mut [bool]) {
    for (k, pattern) in patterns.iter().enumerate() {
        present[k] = pattern.parts.iter().all(|ops| holds(ops, p, &present[..k]));
    }
}

/// Calls `f(feature, +1 or -1)` for each pattern of `patterns` present with
/// these pawns (+1 when White has it), in the patterns' order.
pub fn for_each_in(
    patterns: &[Pattern],
    white: Bitboard,
    black: Bitboard,
    mut f: impl FnMut(usize, i32),
) {
    let present = presence(patterns, white, black);
    for (pattern, _) in patterns.iter().zip(present).filter(|(_, on)| *on) {
        let sign = match pattern.side {
            Side::White => 1,
            Side::Black => -1,
        };
        f(pattern.feature as usize, sign);
    }
}

/// Squares attacked by the pawns of `color`.
#[inline]
pub fn pawn_attacks(pawns: Bitboard, color: Color) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p << 7) & NOT_H) | ((p << 9) & NOT_A),
        Color::Black => ((p >> 9) & NOT_H) | ((p >> 7) & NOT_A),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn a_test_that_reads_past_its_stack_holds_nothing_and_does_not_panic() {
        let p = Pawns {
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            white_attacks: Bitboard::EMPTY,
            black_attacks: Bitboard::EMPTY,
        };
        assert!(!holds(&[Op::Not], &p, &[]));
        assert!(!holds(&[Op::And(3)], &p, &[]));
        assert!(!holds(&[Op::Chunk(7)], &p, &[]));
        assert!(holds(&[Op::And(0), Op::And(0), Op::And(2)], &p, &[]));
        let deep = [Op::And(0); MAX_STACK + 1];
        assert!(!holds(&deep, &p, &[]));
    }

    #[test]
    fn a_guard_keeps_only_pawns_defended_as_asked() {
        let white = Bitboard::from(Square::D5) | Bitboard::from(Square::C4);
        let p = Pawns {
            white,
            black: Bitboard::EMPTY,
            white_attacks: pawn_attacks(white, Color::White),
            black_attacks: Bitboard::EMPTY,
        };
        let on_d5 = |must| Op::Pawn {
            side: Side::White,
            squares: Bitboard::from(Square::D5).0,
            guard: Guard {
                by_white: Some(must),
                by_black: None,
            },
        };
        assert!(holds(&[on_d5(true)], &p, &[]));
        assert!(!holds(&[on_d5(false)], &p, &[]));
    }
}
