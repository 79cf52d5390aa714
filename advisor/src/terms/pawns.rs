//! Pawn structure terms (Plut 2018), per side, pawn letter giving the side:
//!
//! - `iso:Pd4` isolated (no own pawn on a neighbouring file);
//! - `dbl:Pc` doubled (two or more own pawns on the file);
//! - `pas:Pd5` passed (no enemy pawn ahead on its own or a neighbouring file);
//! - `ppas:Pd5` protected passed (passed and defended by an own pawn);
//! - `bak:Pe3` backward (no own pawn beside or behind on a neighbouring file,
//!   and the square ahead is attacked by an enemy pawn);
//! - `chn:Pb2-d4` a chain of pawns defending each other, base to head;
//! - `isl:P2` the number of pawn islands.

use shakmaty::{attacks, Bitboard, Chess, Color, File, Position, Rank, Square};

use super::notation::pawn_char;

fn file_bb(f: File) -> Bitboard {
    Bitboard::from_file(f)
}

fn neighbour_files(f: File) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    if let Some(l) = f.offset(-1) {
        b |= file_bb(l);
    }
    if let Some(r) = f.offset(1) {
        b |= file_bb(r);
    }
    b
}

/// Squares strictly ahead of `sq` for `color`, on all files.
fn ahead(sq: Square, color: Color) -> Bitboard {
    let r = sq.rank() as u32;
    let mut b = Bitboard::EMPTY;
    for rank in 0..8u32 {
        let is_ahead = match color {
            Color::White => rank > r,
            Color::Black => rank < r,
        };
        if is_ahead {
            b |= Bitboard::from_rank(Rank::new(rank));
        }
    }
    b
}

pub fn terms(pos: &Chess) -> Vec<String> {
    let board = pos.board();
    let mut out = Vec::new();
    for color in Color::ALL {
        let p = pawn_char(color);
        let ours = board.pawns() & board.by_color(color);
        let theirs = board.pawns() & board.by_color(!color);
        for sq in ours {
            let f = sq.file();
            let beside = neighbour_files(f);
            if (ours & beside).is_empty() {
                out.push(format!("iso:{p}{sq}"));
            }
            let front = ahead(sq, color);
            let passed = (theirs & front & (file_bb(f) | beside)).is_empty();
            if passed {
                out.push(format!("pas:{p}{sq}"));
                if (attacks::pawn_attacks(!color, sq) & ours).any() {
                    out.push(format!("ppas:{p}{sq}"));
                }
            }
            // Backward: no own pawn on a neighbouring file level or behind,
            // and the stop square is attacked by an enemy pawn.
            let level_or_behind = !front;
            let supportable = (ours & beside & level_or_behind).any();
            if !supportable && (ours & beside).any() {
                if let Some(stop) = sq.offset(color.fold_wb(8, -8)) {
                    if (attacks::pawn_attacks(color, stop) & theirs).any() {
                        out.push(format!("bak:{p}{sq}"));
                    }
                }
            }
        }
        for f in File::ALL {
            if (ours & file_bb(f)).more_than_one() {
                out.push(format!("dbl:{p}{}", f.char()));
            }
        }
        out.extend(chains(ours, color, p));
        let mut islands = 0;
        let mut inside = false;
        for f in File::ALL {
            let has = (ours & file_bb(f)).any();
            if has && !inside {
                islands += 1;
            }
            inside = has;
        }
        out.push(format!("isl:{p}{islands}"));
    }
    out
}

/// Groups of own pawns connected by "defends" (diagonally adjacent, one
/// behind the other), two or more pawns, as `chn:<base>-<head>` where the
/// base is the rearmost pawn and the head the most advanced.
fn chains(ours: Bitboard, color: Color, p: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = Bitboard::EMPTY;
    for start in ours {
        if seen.contains(start) {
            continue;
        }
        let mut group = Bitboard::from(start);
        let mut frontier = group;
        while frontier.any() {
            let mut next = Bitboard::EMPTY;
            for s in frontier {
                // Defenders and defended pawns of s.
                let linked =
                    (attacks::pawn_attacks(color, s) | attacks::pawn_attacks(!color, s)) & ours;
                next |= linked & !group;
            }
            group |= next;
            frontier = next;
        }
        seen |= group;
        if group.more_than_one() {
            let (base, head) = match color {
                Color::White => (group.first().unwrap(), group.last().unwrap()),
                Color::Black => (group.last().unwrap(), group.first().unwrap()),
            };
            out.push(format!("chn:{p}{base}-{head}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::testpos::pos;
    use super::*;

    fn has(fen: &str, term: &str) -> bool {
        terms(&pos(fen)).contains(&term.to_string())
    }

    #[test]
    fn isolated_doubled_islands() {
        // White: a2, c2, c3, e4. Black: f7, g7, h7.
        let fen = "4k3/5ppp/8/8/4P3/2P5/P1P5/4K3 w - - 0 1";
        assert!(has(fen, "iso:Pa2"));
        assert!(has(fen, "iso:Pe4"));
        assert!(has(fen, "iso:Pc2") && has(fen, "iso:Pc3"));
        assert!(has(fen, "dbl:Pc"));
        assert!(has(fen, "isl:P3"));
        assert!(has(fen, "isl:p1"));
        assert!(!has(fen, "iso:pg7"));
    }

    #[test]
    fn passed_and_protected_passed() {
        // White d5 passed and protected by e4; black a7 passed; black h7 not (white g... none): passed too.
        let fen = "4k3/p6p/8/3P4/4P3/8/6P1/4K3 w - - 0 1";
        assert!(has(fen, "pas:Pd5"));
        assert!(has(fen, "ppas:Pd5"));
        assert!(has(fen, "pas:Pe4"), "no enemy pawn ahead on d, e or f");
        assert!(!has(fen, "ppas:Pe4"));
        assert!(has(fen, "pas:pa7"));
        assert!(
            !has(fen, "pas:ph7"),
            "g2 is beside h7 and ahead of it for black"
        );
        assert!(!has(fen, "pas:Pg2"), "h7 is ahead on a neighbouring file");
    }

    #[test]
    fn backward() {
        // White d3 backward: c4 and e4 are ahead; d4 attacked by black e5.
        let fen = "4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1";
        assert!(has(fen, "bak:Pd3"), "{:?}", terms(&pos(fen)));
        assert!(!has(fen, "bak:Pc4"));
    }

    #[test]
    fn chains_base_to_head() {
        // b2-c3-d4-e5 chain; black f7-e6 chain (base f7, head e6)... e6 is defended by f7.
        let fen = "4k3/5p2/4p3/4P3/3P4/2P5/1P6/4K3 w - - 0 1";
        assert!(has(fen, "chn:Pb2-e5"), "{:?}", terms(&pos(fen)));
        assert!(has(fen, "chn:pf7-e6"), "{:?}", terms(&pos(fen)));
    }
}
