//! From a chunk's advice line to what it asks of the pieces: MACH's plans
//! (`Outpost(white,e5)`, `PutRooks(black,c8,d8)`, `Attack(black,c3)` ...)
//! read as squares where a side's pieces of some kinds belong and squares a
//! side should attack. The engine turns these into small evaluation terms;
//! plans with no square meaning here (`Trade`, `Fortress` ...) give nothing.

use shakmaty::{attacks, Bitboard, Board, Color, Rank, Role, Square};

/// What one plan asks of one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlanTerm {
    /// `side`'s pieces of these roles belong on `squares`.
    Good {
        side: Color,
        roles: &'static [Role],
        squares: Bitboard,
    },
    /// `side` should attack `squares`.
    Target { side: Color, squares: Bitboard },
}

const MINORS: &[Role] = &[Role::Knight, Role::Bishop];
const ROOK: &[Role] = &[Role::Rook];
const QUEEN: &[Role] = &[Role::Queen];
const KING: &[Role] = &[Role::King];
const PAWN: &[Role] = &[Role::Pawn];

/// The terms of every plan in `plans` (advice lines as the compiler writes
/// them), read on `board`, the position the plans were found in.
pub fn terms<'a>(plans: impl IntoIterator<Item = &'a str>, board: &Board) -> Vec<PlanTerm> {
    let mut out = Vec::new();
    for p in plans {
        out.extend(plan_terms(p, board));
    }
    out
}

/// The terms of one plan such as `Outpost(white,e5)`; empty when it has no
/// side or no square meaning.
pub fn plan_terms(plan: &str, board: &Board) -> Vec<PlanTerm> {
    let Some((name, rest)) = plan.split_once('(') else {
        return Vec::new();
    };
    let args: Vec<&str> = rest
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .collect();
    let side = match args.first() {
        Some(&"white") => Color::White,
        Some(&"black") => Color::Black,
        _ => return Vec::new(),
    };
    let args = &args[1..];
    let squares = squares_of(args, board, side);
    let good = |roles: &'static [Role], squares: Bitboard| {
        (squares.any())
            .then_some(PlanTerm::Good {
                side,
                roles,
                squares,
            })
            .into_iter()
            .collect()
    };
    let target = |squares: Bitboard| {
        (squares.any())
            .then_some(PlanTerm::Target { side, squares })
            .into_iter()
            .collect()
    };
    let ring = |c: Color| {
        board.king_of(c).map_or(Bitboard::EMPTY, |k| {
            attacks::king_attacks(k) | Bitboard::from(k)
        })
    };
    let their_king = ring(!side);
    match name {
        "Outpost" | "Blockade" | "Occupy" => good(MINORS, squares),
        "PutRooks" | "RookTo" | "RookBehind" | "Double" | "OpenFile" | "Contest" => {
            good(ROOK, squares)
        }
        "Invade" if args.is_empty() => {
            good(ROOK, Bitboard::from(side.relative_rank(Rank::Seventh)))
        }
        "Invade" => good(ROOK, squares),
        "QueenTo" => good(QUEEN, squares),
        "KingTo" => good(KING, squares),
        "Castle" => {
            let file_sq = if args.contains(&"queenside") {
                Square::C1
            } else {
                Square::G1
            };
            let sq = if side == Color::White {
                file_sq
            } else {
                file_sq.flip_vertical()
            };
            good(KING, Bitboard::from(sq))
        }
        "ActivateKing" => good(KING, CENTRE),
        "Centralise" => good(
            MINORS,
            CENTRE & !Bitboard::from(side.relative_rank(Rank::First)),
        ),
        "Reroute" => reroute(args, board, side),
        "Keep" | "KeepPawns" | "Luft" | "Advance" | "Push" | "Break" | "PawnStorm"
        | "MinorityAttack" => good(PAWN, squares),
        // Defending "king" is one's own king; every other verb aims at theirs.
        "Defend" | "Hold" | "Guard" if args.contains(&"king") => target(ring(side)),
        "Attack" | "Pressure" | "Target" | "Defend" | "Restrict" | "Bind" | "Capture"
        | "Regain" | "Hold" | "Chase" | "Check" => {
            if args.contains(&"king") {
                target(their_king)
            } else {
                target(squares)
            }
        }
        "KingsideAttack" | "Mate" | "Perpetual" => target(their_king),
        "Diagonal" => match (square(args.first()), square(args.get(1))) {
            (Some(a), Some(b)) => target(attacks::between(a, b) | a | b),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// c3-f6: where a king goes in an endgame and minor pieces centralise.
const CENTRE: Bitboard = Bitboard(0x0000_3c3c_3c3c_0000);

fn square(arg: Option<&&str>) -> Option<Square> {
    arg.and_then(|a| a.parse::<Square>().ok())
}

/// The squares a plan's arguments name: squares as written, a file letter
/// for its whole file, `isolated_pawn` for the enemy's isolated pawns.
fn squares_of(args: &[&str], board: &Board, side: Color) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for a in args {
        if let Ok(sq) = a.parse::<Square>() {
            b |= sq;
        } else if a.len() == 1 && (b'a'..=b'h').contains(&a.as_bytes()[0]) {
            b |= Bitboard(0x0101_0101_0101_0101u64 << (a.as_bytes()[0] - b'a'));
        } else if *a == "isolated_pawn" {
            b |= isolated(board.pawns() & board.by_color(!side));
        }
    }
    b
}

/// Pawns among `pawns` with no pawn of theirs on a neighbouring file.
fn isolated(pawns: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for sq in pawns {
        let f = u32::from(sq.file());
        let mut near = Bitboard::EMPTY;
        if f > 0 {
            near |= Bitboard(0x0101_0101_0101_0101u64 << (f - 1));
        }
        if f < 7 {
            near |= Bitboard(0x0101_0101_0101_0101u64 << (f + 1));
        }
        if (pawns & near).is_empty() {
            out |= sq;
        }
    }
    out
}

/// `Reroute(white,d2,f1,g3)`: the piece of `side` on the first square
/// belongs on the later ones.
fn reroute(args: &[&str], board: &Board, side: Color) -> Vec<PlanTerm> {
    let Some(from) = square(args.first()) else {
        return Vec::new();
    };
    let Some(piece) = board.piece_at(from).filter(|p| p.color == side) else {
        return Vec::new();
    };
    let roles: &'static [Role] = match piece.role {
        Role::Knight => &[Role::Knight],
        Role::Bishop => &[Role::Bishop],
        Role::Rook => ROOK,
        Role::Queen => QUEEN,
        _ => return Vec::new(),
    };
    let to = args[1..]
        .iter()
        .filter_map(|a| a.parse::<Square>().ok())
        .fold(Bitboard::EMPTY, |b, s| b | s);
    if to.is_empty() {
        return Vec::new();
    }
    vec![PlanTerm::Good {
        side,
        roles,
        squares: to,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().as_setup().board.clone()
    }

    #[test]
    fn the_papers_plans_name_rooks_and_outposts() {
        let b = Board::default();
        assert_eq!(
            plan_terms("PutRooks(white,c1,d1)", &b),
            vec![PlanTerm::Good {
                side: Color::White,
                roles: ROOK,
                squares: Bitboard::from(Square::C1) | Square::D1
            }]
        );
        assert_eq!(
            plan_terms("Outpost(black,e4)", &b),
            vec![PlanTerm::Good {
                side: Color::Black,
                roles: MINORS,
                squares: Bitboard::from(Square::E4)
            }]
        );
    }

    #[test]
    fn king_attacks_target_the_enemy_kings_ring_where_it_stands() {
        let b = board("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1");
        let t = plan_terms("KingsideAttack(white)", &b);
        let PlanTerm::Target { side, squares } = &t[0] else {
            panic!("{t:?}")
        };
        assert_eq!(*side, Color::White);
        assert!(squares.contains(Square::G8) && squares.contains(Square::G7));
        assert_eq!(squares.count(), 6);
        // Defending the king is one's own.
        let d = plan_terms("Defend(white,king)", &b);
        let PlanTerm::Target { squares, .. } = &d[0] else {
            panic!("{d:?}")
        };
        assert!(squares.contains(Square::G1) && squares.contains(Square::H2));
    }

    #[test]
    fn targets_on_a_file_and_isolated_pawns_are_the_enemys_pawns() {
        // Black's isolated d5 pawn; black pawns a7 and b7 are not isolated.
        let b = board("4k3/pp6/8/3p4/8/8/8/4K3 w - - 0 1");
        let t = plan_terms("Target(white,isolated_pawn)", &b);
        assert_eq!(
            t,
            vec![PlanTerm::Target {
                side: Color::White,
                squares: Bitboard::from(Square::D5)
            }]
        );
        // A rook plan on a file covers the file.
        let PlanTerm::Good { squares, .. } = &plan_terms("Double(white,c)", &b)[0] else {
            panic!()
        };
        assert_eq!(squares.count(), 8);
    }

    #[test]
    fn reroute_moves_the_piece_that_stands_on_the_first_square() {
        let b = board("4k3/8/8/8/8/8/3N4/4K3 w - - 0 1");
        assert_eq!(
            plan_terms("Reroute(white,d2,f1,g3)", &b),
            vec![PlanTerm::Good {
                side: Color::White,
                roles: &[Role::Knight],
                squares: Bitboard::from(Square::F1) | Square::G3
            }]
        );
        // Nobody of White's on d2: nothing to reroute.
        assert!(plan_terms("Reroute(white,e2,f1)", &b).is_empty());
    }

    #[test]
    fn plans_without_a_side_or_a_square_meaning_give_nothing() {
        let b = Board::default();
        for p in [
            "Trade(black,c5)",
            "Fortress(black)",
            "Zugzwang",
            "Outpost(grey,e5)",
            "Outpost(white)",
            "",
            "(",
            "Attack(white,zz9)",
        ] {
            assert!(plan_terms(p, &b).is_empty(), "{p}");
        }
    }
}
