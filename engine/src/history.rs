//! Per-thread move-ordering memory: killer moves, counter moves, the
//! butterfly history of quiet moves, continuation histories (how good a
//! quiet move was after a given move one and two plies before) and the
//! capture history.

use shakmaty::{Bitboard, Color, Move, Role};

use crate::correction::Correction;
use crate::moves::{encode, MoveCode, NO_MOVE};
use crate::score::MAX_PLY;

/// History scores saturate at this magnitude ("history gravity").
pub const HISTORY_MAX: i32 = 16_384;

/// Pieces (colour and role) times target squares: the index of a move in
/// the continuation and capture histories.
const PIECE_TO: usize = 12 * 64;

/// A move as "this piece to this square", the key of the continuation history.
pub type PieceTo = u16;

/// The piece-to index of `m` played by `side`.
#[inline]
pub fn piece_to(side: Color, m: Move) -> PieceTo {
    let piece = side as usize * 6 + m.role() as usize - 1;
    (piece * 64 + m.to() as usize) as PieceTo
}

/// The piece-to keys of the moves one and two plies before a node (`None`
/// at the root, after a null move, or beyond the start of the search).
pub type Conts = [Option<PieceTo>; 2];

pub struct History {
    /// Two quiet moves per ply that caused a beta cutoff.
    pub killers: [[MoveCode; 2]; MAX_PLY + 8],
    /// [side][threat][from][to]: how often a quiet move raised alpha or
    /// failed high, apart by whether its from and to squares were attacked
    /// (`threat_index`): leaving an attacked square and stepping onto one
    /// are different moves.
    butterfly: Box<[[[[i32; 64]; 64]; 4]; 2]>,
    /// [piece role][to] of the previous move: the quiet reply that refuted it.
    counters: [[MoveCode; 64]; 7],
    /// [earlier move's piece-to][quiet move's piece-to], flattened: how a
    /// quiet move did after that earlier move (one or two plies back).
    cont: Vec<i16>,
    /// [capturing move's piece-to][captured role]: how a capture did.
    captures: Vec<i16>,
    /// How far searches found the static eval off (`correction.rs`).
    pub corr: Correction,
}

impl Default for History {
    fn default() -> Self {
        History {
            killers: [[NO_MOVE; 2]; MAX_PLY + 8],
            butterfly: Box::new([[[[0; 64]; 64]; 4]; 2]),
            counters: [[NO_MOVE; 64]; 7],
            cont: vec![0; PIECE_TO * PIECE_TO],
            captures: vec![0; PIECE_TO * 6],
            corr: Correction::default(),
        }
    }
}

fn from_to(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

/// Which of the four butterfly tables `m` is kept in: whether `threats`
/// (the squares the opponent attacks, `board::threats`) holds its from
/// square, its to square.
#[inline]
fn threat_index(m: Move, threats: Bitboard) -> usize {
    let from = m.from().is_some_and(|s| threats.contains(s)) as usize;
    from * 2 + threats.contains(m.to()) as usize
}

/// The role a capture takes, as 0-5 (a pawn for en passant). A promotion
/// that takes nothing shares slot 0 with pawn captures: no pawn stands on
/// the last rank, so the two never meet.
fn captured(m: Move) -> usize {
    match m {
        Move::EnPassant { .. } => Role::Pawn as usize - 1,
        _ => m.capture().map_or(0, |r| r as usize - 1),
    }
}

/// Moves `h` towards `bonus`, less the closer it is to saturation.
#[inline]
fn gravity(h: &mut i32, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h += b - *h * b.abs() / HISTORY_MAX;
}

/// `gravity` for the 16-bit tables.
#[inline]
fn gravity16(h: &mut i16, bonus: i32) {
    let mut v = *h as i32;
    gravity(&mut v, bonus);
    *h = v as i16;
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Butterfly history of a quiet move where the opponent attacks `threats`.
    #[inline]
    pub fn quiet(&self, side: Color, m: Move, threats: Bitboard) -> i32 {
        let (f, t) = from_to(m);
        self.butterfly[side as usize][threat_index(m, threats)][f][t]
    }

    /// Continuation histories of a quiet move after the moves in `conts`,
    /// one and two plies back apart (0 where there is no earlier move).
    #[inline]
    pub fn continuation_parts(&self, side: Color, m: Move, conts: Conts) -> [i32; 2] {
        let pt = piece_to(side, m) as usize;
        conts.map(|c| c.map_or(0, |c| self.cont[c as usize * PIECE_TO + pt] as i32))
    }

    /// Continuation histories of a quiet move after the moves in `conts`, summed.
    #[inline]
    pub fn continuation(&self, side: Color, m: Move, conts: Conts) -> i32 {
        let [one, two] = self.continuation_parts(side, m, conts);
        one + two
    }

    /// Capture history of a capture or promotion.
    #[inline]
    pub fn capture(&self, side: Color, m: Move) -> i32 {
        self.captures[piece_to(side, m) as usize * 6 + captured(m)] as i32
    }

    pub fn counter(&self, prev: Option<Move>) -> MoveCode {
        prev.map_or(NO_MOVE, |p| {
            self.counters[p.role() as usize][p.to() as usize]
        })
    }

    /// Rewards `best` (a quiet move that failed high) and punishes the quiet
    /// moves tried before it, by `bonus` scaled towards saturation, in the
    /// butterfly and continuation histories; records killer and counter.
    #[allow(clippy::too_many_arguments)]
    pub fn update_quiet(
        &mut self,
        side: Color,
        ply: usize,
        prev: Option<Move>,
        conts: Conts,
        threats: Bitboard,
        best: Move,
        tried: &[Move],
        bonus: i32,
    ) {
        let code = encode(best);
        let k = &mut self.killers[ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        if let Some(p) = prev {
            self.counters[p.role() as usize][p.to() as usize] = code;
        }
        self.add_quiet(side, best, conts, threats, bonus);
        for &m in tried {
            if m != best {
                self.add_quiet(side, m, conts, threats, -bonus);
            }
        }
    }

    /// Rewards `best` (a capture that failed high, if it is one) and
    /// punishes the captures tried before it.
    pub fn update_captures(&mut self, side: Color, best: Option<Move>, tried: &[Move], bonus: i32) {
        if let Some(b) = best {
            self.add_capture(side, b, bonus);
        }
        for &m in tried {
            if Some(m) != best {
                self.add_capture(side, m, -bonus);
            }
        }
    }

    /// Teaches the continuation histories alone how quiet move `m` did
    /// after the moves in `conts` (a late move whose reduced search
    /// beat alpha, once its re-search has said what it is worth).
    pub fn update_continuation(&mut self, side: Color, m: Move, conts: Conts, bonus: i32) {
        let pt = piece_to(side, m) as usize;
        for &c in conts.iter().flatten() {
            gravity16(&mut self.cont[c as usize * PIECE_TO + pt], bonus);
        }
    }

    fn add_quiet(&mut self, side: Color, m: Move, conts: Conts, threats: Bitboard, bonus: i32) {
        let (f, t) = from_to(m);
        gravity(
            &mut self.butterfly[side as usize][threat_index(m, threats)][f][t],
            bonus,
        );
        self.update_continuation(side, m, conts, bonus);
    }

    fn add_capture(&mut self, side: Color, m: Move, bonus: i32) {
        let i = piece_to(side, m) as usize * 6 + captured(m);
        gravity16(&mut self.captures[i], bonus);
    }

    /// Halves every score (between moves, so old knowledge fades).
    pub fn age(&mut self) {
        self.age_butterfly();
        for h in self.cont.iter_mut().chain(self.captures.iter_mut()) {
            *h /= 2;
        }
    }

    /// Halves the butterfly history and forgets the killers, leaving the
    /// continuation and capture histories (1.2 MB) as they are: what helper
    /// threads do between moves. A full pass per helper per move, with many
    /// helpers on few cores, kept the main thread off the CPU (256 threads:
    /// `go movetime 200` answered in 679 ms).
    pub fn age_butterfly(&mut self) {
        for h in self.butterfly.iter_mut().flatten().flatten().flatten() {
            *h /= 2;
        }
        self.killers = [[NO_MOVE; 2]; MAX_PLY + 8];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position, Square};

    fn mv(pos: &Chess, from: Square, to: Square) -> Move {
        *pos.legal_moves()
            .iter()
            .find(|m| m.from() == Some(from) && m.to() == to)
            .unwrap()
    }

    /// White's e4, Nf3 and d4 from the start position.
    fn e4_nf3_d4() -> [Move; 3] {
        let pos = Chess::default();
        [
            mv(&pos, Square::E2, Square::E4),
            mv(&pos, Square::G1, Square::F3),
            mv(&pos, Square::D2, Square::D4),
        ]
    }

    /// A depth-2 cutoff by White's `good` after `conts`, `bad` tried before it.
    fn reward(h: &mut History, conts: Conts, good: Move, bad: &[Move]) {
        h.update_quiet(
            Color::White,
            2,
            None,
            conts,
            Bitboard::EMPTY,
            good,
            bad,
            400,
        );
    }

    #[test]
    fn a_quiet_move_that_refuted_a_move_scores_higher_after_that_move_only() {
        let [e4, nf3, d4] = e4_nf3_d4();
        let mut h = History::default();
        let after_e4 = [Some(piece_to(Color::Black, e4)), None];
        let after_d4 = [Some(piece_to(Color::Black, d4)), None];
        reward(&mut h, after_e4, nf3, &[d4]);
        assert!(h.continuation(Color::White, nf3, after_e4) > 0);
        assert!(h.continuation(Color::White, d4, after_e4) < 0);
        assert_eq!(h.continuation(Color::White, nf3, after_d4), 0);
    }

    #[test]
    fn continuation_parts_keep_the_one_ply_and_two_ply_histories_apart() {
        let [e4, nf3, d4] = e4_nf3_d4();
        let mut h = History::default();
        // Learned with e4 one ply back and nothing two plies back ...
        let after_e4 = [Some(piece_to(Color::Black, e4)), None];
        reward(&mut h, after_e4, nf3, &[]);
        let [one, two] = h.continuation_parts(Color::White, nf3, after_e4);
        assert!(one > 0);
        assert_eq!(two, 0);
        // ... the same entry is read as the two-ply part when e4 is two plies back.
        let e4_two_back = [
            Some(piece_to(Color::Black, d4)),
            Some(piece_to(Color::Black, e4)),
        ];
        let [one, two] = h.continuation_parts(Color::White, nf3, e4_two_back);
        assert_eq!(one, 0);
        assert!(two > 0);
        assert_eq!(h.continuation(Color::White, nf3, e4_two_back), one + two);
    }

    #[test]
    fn a_quiet_move_from_an_attacked_square_keeps_its_history_apart_from_the_same_move_in_peace() {
        // The knight on c3 is attacked by the pawn on b4 here, not in the
        // position without it.
        let attacked = crate::board::from_fen("4k3/8/8/8/1p6/2N5/8/4K3 w - - 0 1", false).unwrap();
        let calm = crate::board::from_fen("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1", false).unwrap();
        let t_attacked = crate::board::threats(&attacked);
        let t_calm = crate::board::threats(&calm);
        assert!(t_attacked.contains(Square::C3) && !t_calm.contains(Square::C3));
        let ne4 = mv(&attacked, Square::C3, Square::E4);
        let mut h = History::default();
        h.update_quiet(
            Color::White,
            3,
            None,
            [None, None],
            t_attacked,
            ne4,
            &[],
            500,
        );
        assert!(h.quiet(Color::White, ne4, t_attacked) > 0);
        assert_eq!(
            h.quiet(Color::White, mv(&calm, Square::C3, Square::E4), t_calm),
            0
        );
    }

    #[test]
    fn capture_history_rewards_the_capture_that_cut_and_punishes_the_others() {
        let pos = crate::board::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let exd5 = mv(&pos, Square::E4, Square::D5);
        let e5 = mv(&pos, Square::E4, Square::E5);
        let mut h = History::default();
        h.update_captures(Color::White, Some(exd5), &[exd5], 300);
        assert!(h.capture(Color::White, exd5) > 0);
        h.update_captures(Color::White, None, &[exd5], 600);
        assert!(h.capture(Color::White, exd5) < 0);
        assert_eq!(h.capture(Color::White, e5), 0);
    }
}
