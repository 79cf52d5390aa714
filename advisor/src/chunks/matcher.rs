//! Which chunks a position has, and which of its pieces each one covers.

use shakmaty::{Bitboard, Board};

use super::compile::{CExpr, Instance, Sel};

/// A chunk present in a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    /// Index into the library's instances.
    pub instance: usize,
    /// The squares of the pieces it covers (required and optional).
    pub covered: Bitboard,
    /// Those its require statements cover (MACH's "required pieces only").
    pub required: Bitboard,
}

/// The chunks of `board`, in library order.
pub fn find(instances: &[Instance], board: &Board) -> Vec<Found> {
    let mut memo: Vec<Option<Bitboard>> = Vec::with_capacity(instances.len());
    let mut out = Vec::new();
    for (k, inst) in instances.iter().enumerate() {
        let mut covered = Bitboard::EMPTY;
        let mut present = true;
        for e in &inst.require {
            match eval(e, board, &memo) {
                Some(c) => covered |= c,
                None => {
                    present = false;
                    break;
                }
            }
        }
        if present {
            let required = covered & board.occupied();
            for e in &inst.optional {
                if let Some(c) = eval(e, board, &memo) {
                    covered |= c;
                }
            }
            covered &= board.occupied();
            out.push(Found {
                instance: k,
                covered,
                required,
            });
            memo.push(Some(covered));
        } else {
            memo.push(None);
        }
    }
    out
}

fn pieces(board: &Board, s: Sel) -> Bitboard {
    let own = board.by_color(s.color);
    match s.role {
        Some(r) => own & board.by_role(r),
        None => own & !board.kings() & !board.pawns(),
    }
}

/// Squares of `by`'s pieces that attack `sq` (x-rays excluded).
fn attackers(board: &Board, sq: shakmaty::Square, by: Sel) -> Bitboard {
    board.attacks_to(sq, by.color, board.occupied()) & pieces(board, by)
}

/// `Some(covered squares)` when `e` holds.
fn eval(e: &CExpr, board: &Board, memo: &[Option<Bitboard>]) -> Option<Bitboard> {
    match e {
        CExpr::And(v) => {
            let mut c = Bitboard::EMPTY;
            for e in v {
                c |= eval(e, board, memo)?;
            }
            Some(c)
        }
        CExpr::Or(v) => {
            let mut any = None;
            for e in v {
                if let Some(c) = eval(e, board, memo) {
                    any = Some(any.unwrap_or(Bitboard::EMPTY) | c);
                }
            }
            any
        }
        CExpr::Not(e) => match eval(e, board, memo) {
            Some(_) => None,
            None => Some(Bitboard::EMPTY),
        },
        CExpr::On {
            sel,
            groups,
            none,
            relations,
        } => {
            let mine = pieces(board, *sel);
            if *none {
                let all = groups.iter().fold(Bitboard::EMPTY, |a, g| a | *g);
                return (mine & all).is_empty().then_some(Bitboard::EMPTY);
            }
            let mut covered = Bitboard::EMPTY;
            for g in groups {
                let ok: Bitboard = (mine & *g)
                    .into_iter()
                    .filter(|sq| {
                        relations
                            .iter()
                            .all(|(by, holds)| attackers(board, *sq, *by).any() == *holds)
                    })
                    .collect();
                if ok.is_empty() {
                    return None;
                }
                covered |= ok;
            }
            Some(covered)
        }
        CExpr::Empty(set) => (board.occupied() & *set)
            .is_empty()
            .then_some(Bitboard::EMPTY),
        CExpr::Near { a, b, within } => {
            let (pa, pb) = (pieces(board, *a), pieces(board, *b));
            let mut covered = Bitboard::EMPTY;
            for sa in pa {
                let near: Bitboard = pb
                    .into_iter()
                    .filter(|sb| sa.distance(*sb) <= *within as u32)
                    .collect();
                if near.any() {
                    covered |= near;
                    covered.add(sa);
                }
            }
            covered.any().then_some(covered)
        }
        CExpr::Attacks { a, b } => {
            let mut covered = Bitboard::EMPTY;
            for sb in pieces(board, *b) {
                let by = attackers(board, sb, *a);
                if by.any() {
                    covered |= by;
                    covered.add(sb);
                }
            }
            covered.any().then_some(covered)
        }
        CExpr::Count { sel, on, cmp, n } => {
            let mine = pieces(board, *sel) & *on;
            // A count over squares covers the pieces it counted.
            let covered = if *on == Bitboard::FULL {
                Bitboard::EMPTY
            } else {
                mine
            };
            cmp.holds(mine.count() as u32, *n).then_some(covered)
        }
        CExpr::Ref(ks) => {
            let mut any = None;
            for k in ks {
                if let Some(c) = memo[*k] {
                    any = Some(any.unwrap_or(Bitboard::EMPTY) | c);
                }
            }
            any
        }
    }
}
