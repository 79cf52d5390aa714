//! Static evaluation: material + piece-square tables + mobility (a value per
//! number of squares reached; into the enemy king's zone, onto enemy pieces,
//! the pawns' square ahead and how far up its file each pawn could walk) +
//! bishop pair + the pawns' squares as each king sees them + the pawns'
//! structure (isolated, stacked, backward, side by side, defended),
//! tapered between middlegame and endgame by game phase, in centipawns from
//! the side to move's point of view. The numbers live in `psqt.rs`; the
//! terms are read once, into a sink (`terms.rs`): the score here, a trace of
//! coefficients in `mach tune`. Those that read only the pawns and the kings
//! are written apart (`add_pawn_king_terms`), so that a search can keep
//! their sum by pawns and kings (`pawn_king_cache.rs`).

use shakmaty::{attacks, Bitboard, Chess, Color, File, Position, Role, Square};

use crate::psqt::{
    Weight, EG_PST, KING_ATTACKERS_N, KING_HITS_N, KING_WEAK_N, MATERIAL, MG_PST, PHASE_INC,
    PHASE_MAX, SAFE_CHECKS_N, TEMPO,
};
use crate::terms::{Sink, Term};

/// Material plus piece-square value of each piece on each square, per colour,
/// folded at compile time so evaluation is one table read per piece.
struct Tables {
    mg: [[[i32; 64]; 6]; 2],
    eg: [[[i32; 64]; 6]; 2],
}

const TABLES: Tables = {
    let mut mg = [[[0; 64]; 6]; 2];
    let mut eg = [[[0; 64]; 6]; 2];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            // White reads the published table upside down (index 0 is a8).
            mg[0][r][sq] = MATERIAL[r].mg + MG_PST[r][sq ^ 56];
            eg[0][r][sq] = MATERIAL[r].eg + EG_PST[r][sq ^ 56];
            mg[1][r][sq] = MATERIAL[r].mg + MG_PST[r][sq];
            eg[1][r][sq] = MATERIAL[r].eg + EG_PST[r][sq];
            sq += 1;
        }
        r += 1;
    }
    Tables { mg, eg }
};

pub use crate::pawn_pattern::pawn_attacks;

/// What a knight, bishop, rook or queen on `sq` of the side whose pieces
/// are `ours` reaches (`None` for a pawn or a king), with x-rays: a bishop
/// sees through its side's queens, a rook through its side's rooks and
/// queens, so a piece backing another on a line (a battery) counts the
/// squares beyond it. Mobility, king attack, safe checks and targets all
/// read this reach.
#[inline]
pub fn piece_reach(
    board: &shakmaty::Board,
    ours: Bitboard,
    role: Role,
    sq: Square,
) -> Option<Bitboard> {
    let occupied = board.occupied();
    Some(match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied ^ (board.queens() & ours)),
        Role::Rook => {
            attacks::rook_attacks(sq, occupied ^ ((board.queens() | board.rooks()) & ours))
        }
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::Pawn | Role::King => return None,
    })
}

/// The zone of `color`'s king: its square and the squares next to it
/// (empty without a king).
#[inline]
pub fn king_zone(board: &shakmaty::Board, color: Color) -> Bitboard {
    board.king_of(color).map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from_square(k)
    })
}

/// Every square `color` attacks: its pawns' (`pawns`), its king's, and
/// `reach` (what its knights, bishops, rooks and queens reach).
#[inline]
pub fn attacked_by(
    board: &shakmaty::Board,
    color: Color,
    pawns: Bitboard,
    reach: &[Bitboard; 4],
) -> Bitboard {
    union(&all_reach(board, color, pawns, reach))
}

/// Every square in any of `all` (`all_reach`'s attacks by piece kind).
#[inline]
pub fn union(all: &[Bitboard; 6]) -> Bitboard {
    all.iter().fold(Bitboard::EMPTY, |a, &b| a | b)
}

/// How many safe checking squares `color`'s knights, bishops, rooks and
/// queens reach (`reach[r]`: every square the pieces of role r reach): the
/// squares from which such a piece would check the enemy king, not occupied
/// by `color` and not attacked by the enemy (`defended`). Zero without an
/// enemy king.
#[inline]
pub fn safe_checks(
    board: &shakmaty::Board,
    color: Color,
    reach: &[Bitboard; 4],
    defended: Bitboard,
) -> [usize; 4] {
    let Some(k) = board.king_of(!color) else {
        return [0; 4];
    };
    let occupied = board.occupied();
    let safe = !(board.by_color(color) | defended);
    let diagonal = attacks::bishop_attacks(k, occupied) & safe;
    let straight = attacks::rook_attacks(k, occupied) & safe;
    [
        (reach[0] & attacks::knight_attacks(k) & safe).count(),
        (reach[1] & diagonal).count(),
        (reach[2] & straight).count(),
        (reach[3] & (diagonal | straight)).count(),
    ]
}

/// How many squares of the enemy king's zone `color` attacks (`attacks`)
/// that the enemy guards with no pawn, knight, bishop or rook, at most with
/// its king or queen (`guard_pawns`, `guard_reach`: the enemy's pawn attacks
/// and what its pieces reach): the zone's weak squares.
#[inline]
pub fn weak_zone_squares(
    board: &shakmaty::Board,
    color: Color,
    attacks: Bitboard,
    guard_pawns: Bitboard,
    guard_reach: &[Bitboard; 4],
) -> usize {
    let guarded = guard_pawns | guard_reach[0] | guard_reach[1] | guard_reach[2];
    (king_zone(board, !color) & attacks & !guarded).count()
}

/// What `color`'s pawns (`pawns`, their attacks), knights, bishops, rooks,
/// queens (`reach`) and king attack, in the order of `targets`.
#[inline]
pub fn all_reach(
    board: &shakmaty::Board,
    color: Color,
    pawns: Bitboard,
    reach: &[Bitboard; 4],
) -> [Bitboard; 6] {
    let king = board
        .king_of(color)
        .map_or(Bitboard::EMPTY, attacks::king_attacks);
    [pawns, reach[0], reach[1], reach[2], reach[3], king]
}

/// Mobility onto enemy pieces: calls `f(r, 2 v + g)` once for each enemy
/// pawn, knight, bishop, rook or queen (`v` 0-4) that `color`'s pawns,
/// knights, bishops, rooks, queens or king (`r` 0-5, attacking `reach[r]`)
/// reach, with `g` 1 when the enemy guards it (in `guarded`, every square
/// the enemy attacks), 0 when not.
#[inline]
pub fn for_each_target(
    board: &shakmaty::Board,
    color: Color,
    reach: &[Bitboard; 6],
    guarded: Bitboard,
    mut f: impl FnMut(usize, usize),
) {
    let theirs = board.by_color(!color) & !board.kings();
    for (r, &reached) in reach.iter().enumerate() {
        for sq in reached & theirs {
            let v = match board.role_at(sq) {
                Some(Role::Knight) => 1,
                Some(Role::Bishop) => 2,
                Some(Role::Rook) => 3,
                Some(Role::Queen) => 4,
                _ => 0,
            };
            f(r, 2 * v + guarded.contains(sq) as usize);
        }
    }
}

/// Pawn mobility: calls `f(row, push)` once for each pawn of `color`,
/// `row` its rank counted from its side (0 on the second rank, 5 on the
/// seventh); `push` what stands on the square it would advance to: 0 a
/// piece, 1 an enemy pawn's attack (`their_pawns`), 2 the attack of another
/// enemy piece (`their_attacks`, every square the enemy attacks), 3 none of
/// these.
#[inline]
pub fn for_each_pawn_push(
    board: &shakmaty::Board,
    color: Color,
    their_pawns: Bitboard,
    their_attacks: Bitboard,
    mut f: impl FnMut(usize, usize),
) {
    let occupied = board.occupied();
    for sq in board.pawns() & board.by_color(color) {
        // No pawn stands on either back rank in a legal position.
        let Some(row) = (color.relative_rank(sq.rank()) as usize).checked_sub(1) else {
            continue;
        };
        let Some(ahead) = sq.offset(color.fold_wb(8, -8)) else {
            continue;
        };
        let push = if occupied.contains(ahead) {
            0
        } else if their_pawns.contains(ahead) {
            1
        } else if their_attacks.contains(ahead) {
            2
        } else {
            3
        };
        f(row, push);
    }
}

/// Pawn mobility by count: for each pawn of `color` on its second to
/// seventh rank (`row` 0-5), how many squares `n` it could walk up its file
/// one after another, each holding no pawn and attacked by no enemy pawn
/// (`their_pawn_attacks`); pieces are looked through, as a bishop looks
/// through its queen. A pawn that can walk to the last rank (`n` = 6 - `row`)
/// is one no enemy pawn can stop.
pub fn for_each_pawn_path(
    board: &shakmaty::Board,
    color: Color,
    their_pawn_attacks: Bitboard,
    mut f: impl FnMut(usize, usize),
) {
    let stops = board.pawns() | their_pawn_attacks;
    for sq in board.pawns() & board.by_color(color) {
        let Some(row) = (color.relative_rank(sq.rank()) as usize).checked_sub(1) else {
            continue;
        };
        // The squares ahead on the file, and the nearest of them that stops it.
        let file = Bitboard::from_file(sq.file()).0;
        let stop = match color {
            Color::White => (stops & Bitboard(file & (u64::MAX << (sq as u32 + 8)))).first(),
            Color::Black => (stops & Bitboard(file & ((1u64 << sq as u32) - 1))).last(),
        };
        // Without a stop it walks to the last rank, 6 - `row` squares away.
        let n = stop.map_or(6 - row, |s| sq.distance(s) as usize - 1);
        f(row, n);
    }
}

/// The passed pawns of `color`: its pawns that no enemy pawn stands in
/// front of, on their file or the files beside it.
#[inline]
pub fn passers(board: &shakmaty::Board, color: Color) -> Bitboard {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let theirs = (board.pawns() & board.by_color(!color)).0;
    // Every square behind an enemy pawn on its file, seen from `color`.
    let behind = match color {
        Color::White => {
            let mut x = theirs >> 8;
            x |= x >> 8;
            x |= x >> 16;
            x | x >> 32
        }
        Color::Black => {
            let mut x = theirs << 8;
            x |= x << 8;
            x |= x << 16;
            x | x << 32
        }
    };
    let span = behind | ((behind << 1) & !FILE_A) | ((behind >> 1) & !FILE_H);
    Bitboard((board.pawns() & board.by_color(color)).0 & !span)
}

/// Passed pawns and the kings: for each passed pawn of `color`
/// ([`passers`]) on its second to seventh rank (`row` 0-5), the distance in
/// king moves (0-7) from its own king (`whose` 0) and from the enemy king
/// (1) to the square ahead of it, the square it must cross first.
pub fn for_each_passer_king(
    board: &shakmaty::Board,
    color: Color,
    mut f: impl FnMut(usize, usize, usize),
) {
    let kings = [board.king_of(color), board.king_of(!color)];
    for sq in passers(board, color) {
        let Some(row) = (color.relative_rank(sq.rank()) as usize).checked_sub(1) else {
            continue;
        };
        let Some(stop) = sq.offset(color.fold_wb(8, -8)) else {
            continue;
        };
        for (whose, king) in kings.into_iter().enumerate() {
            if let Some(k) = king {
                f(row, whose, k.distance(stop) as usize);
            }
        }
    }
}

/// The pawns' structure: for each pawn of `color` on its second to seventh
/// rank (`row` 0-5), `f(kind, row)` once for each of these it is: isolated,
/// no pawn of its side on the files beside it (`kind` 0); stacked, a pawn of
/// its side in front of it on its file (1); backward, not isolated but with
/// no pawn of its side beside or behind it on the files beside it to defend
/// it when it advances, the square ahead attacked by an enemy pawn, with an
/// enemy pawn on its file (2) or none, so the enemy's rooks can reach it (3);
/// in a phalanx, a pawn of its side beside it on its rank (4); defended by a
/// pawn of its side (5).
pub fn for_each_pawn_structure(
    board: &shakmaty::Board,
    color: Color,
    mut f: impl FnMut(usize, usize),
) {
    let ours = board.pawns() & board.by_color(color);
    let theirs = board.pawns() & board.by_color(!color);
    let defended = pawn_attacks(ours, color);
    let their_attacks = pawn_attacks(theirs, !color);
    for sq in ours {
        let Some(row) = (color.relative_rank(sq.rank()) as usize).checked_sub(1) else {
            continue;
        };
        let file = Bitboard::from_file(sq.file());
        let beside = [-1, 1]
            .into_iter()
            .filter_map(|d| sq.file().offset(d))
            .fold(Bitboard::EMPTY, |b, f| b | Bitboard::from_file(f));
        // Squares of the ranks in front of the pawn, and of its rank and those
        // behind it, seen from `color`.
        let rank = sq.rank() as u32;
        let (ahead, not_ahead) = match color {
            Color::White => {
                let ahead = u64::MAX.checked_shl(8 * (rank + 1)).unwrap_or(0);
                (Bitboard(ahead), Bitboard(!ahead))
            }
            Color::Black => {
                let not_ahead = u64::MAX << (8 * rank);
                (Bitboard(!not_ahead), Bitboard(not_ahead))
            }
        };
        let isolated = (ours & beside).is_empty();
        if isolated {
            f(0, row);
        }
        if !(ours & file & ahead).is_empty() {
            f(1, row);
        }
        let stop = sq.offset(color.fold_wb(8, -8));
        if !isolated
            && (ours & beside & not_ahead).is_empty()
            && stop.is_some_and(|s| their_attacks.contains(s))
        {
            f(if (theirs & file).is_empty() { 3 } else { 2 }, row);
        }
        if !(ours & beside & Bitboard::from_rank(sq.rank())).is_empty() {
            f(4, row);
        }
        if defended.contains(sq) {
            f(5, row);
        }
    }
}

/// Piece-square tables of the pawns as a king sees them: for the king of
/// `color`, each pawn on the board (its own, `theirs` 0, and the enemy's, 1)
/// by its square seen from `color`'s side (`sq` = 8 x (rank - 2) + file,
/// ranks counted from `color`'s first), files mirrored when the king stands
/// on files a-d, so the king is always on files e-h (`bucket` 0-3). The
/// table so prices the pawns that shelter a king and those that storm it,
/// by where the king stands.
pub fn for_each_king_pawn(
    board: &shakmaty::Board,
    color: Color,
    mut f: impl FnMut(usize, usize, usize),
) {
    let Some(king) = board.king_of(color) else {
        return;
    };
    let mirror = if king.file() <= File::D { 7 } else { 0 };
    let bucket = (king.file() as usize ^ mirror) - 4;
    for (theirs, side) in [color, !color].into_iter().enumerate() {
        for sq in board.pawns() & board.by_color(side) {
            // Pawns stand on ranks 2-7 only, from either side's view.
            let rank = color.relative_rank(sq.rank()) as usize - 1;
            f(bucket, theirs, 8 * rank + (sq.file() as usize ^ mirror));
        }
    }
}

/// A bishop's own pawns: calls `f(0, n)` and `f(1, r)` for each bishop of
/// `color`, `n` the pawns of its side on squares of its colour (0-8) and
/// `r` how many of those an enemy pawn blocks from the square ahead (0-8):
/// pawns a bishop cannot attack past and that hem it in.
#[inline]
pub fn for_each_bishop_pawns(
    board: &shakmaty::Board,
    color: Color,
    mut f: impl FnMut(usize, usize),
) {
    let ours = board.pawns() & board.by_color(color);
    let theirs = (board.pawns() & board.by_color(!color)).0;
    let blocked = ours
        & Bitboard(match color {
            Color::White => theirs >> 8,
            Color::Black => theirs << 8,
        });
    for sq in board.bishops() & board.by_color(color) {
        let shade = if sq.is_light() {
            Bitboard::LIGHT_SQUARES
        } else {
            Bitboard::DARK_SQUARES
        };
        f(0, (ours & shade).count().min(8));
        f(1, (blocked & shade).count().min(8));
    }
}

/// Game phase, `PHASE_MAX` with all pieces on the board, 0 with pawns only.
pub fn phase(pos: &Chess) -> i32 {
    let b = pos.board();
    let p = b.knights().count() as i32 * PHASE_INC[1]
        + b.bishops().count() as i32 * PHASE_INC[2]
        + b.rooks().count() as i32 * PHASE_INC[3]
        + b.queens().count() as i32 * PHASE_INC[4];
    p.min(PHASE_MAX)
}

/// Evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    evaluate_plus(pos, Weight { mg: 0, eg: 0 })
}

/// [`evaluate`] with `extra` (White's middlegame and endgame points, e.g.
/// the pawn chunks') added before the phase blends the two.
pub fn evaluate_plus(pos: &Chess, extra: Weight) -> i32 {
    let mut score = Score::new(extra);
    add_terms(pos, &mut score);
    let (mg, eg) = score.total();
    taper(mg, eg, phase(pos), pos.turn() == Color::White) + TEMPO
}

/// [`evaluate_plus`] with the pawn-and-king terms given rather than read:
/// `pawn_king` is [`pawn_king_weight`] of `pos`'s board (a search's
/// `PawnKingCache` keeps it). The same number as `evaluate_plus`, since
/// every term is an integer summed before the phase blends the two.
pub fn evaluate_with_pawn_king(pos: &Chess, extra: Weight, pawn_king: Weight) -> i32 {
    let mut score = Score::new(Weight {
        mg: extra.mg + pawn_king.mg,
        eg: extra.eg + pawn_king.eg,
    });
    add_piece_terms(pos, &mut score);
    let (mg, eg) = score.total();
    taper(mg, eg, phase(pos), pos.turn() == Color::White) + TEMPO
}

/// White's middlegame and endgame sum of the terms that read only the
/// pawns and the kings ([`add_pawn_king_terms`]), before the phase blends
/// them.
pub fn pawn_king_weight(board: &shakmaty::Board) -> Weight {
    let mut score = Score::new(Weight { mg: 0, eg: 0 });
    add_pawn_king_terms(board, &mut score);
    let (mg, eg) = score.total();
    Weight { mg, eg }
}

/// White's middlegame and endgame points `mg` and `eg` blended by `phase`
/// (`PHASE_MAX` all middlegame), for the side to move (White when
/// `white_to_move`), before the tempo.
#[inline]
pub fn taper(mg: i32, eg: i32, phase: i32, white_to_move: bool) -> i32 {
    let white = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    if white_to_move {
        white
    } else {
        -white
    }
}

/// The sink of play: White's middlegame and endgame points from the
/// weights compiled in, each side's summed before it is signed.
struct Score {
    mg: i32,
    eg: i32,
    /// The side being summed: 1 White, -1 Black (0 before the first).
    sign: i32,
    /// Its points so far.
    points: Weight,
}

impl Score {
    #[inline(always)]
    fn new(extra: Weight) -> Score {
        Score {
            mg: extra.mg,
            eg: extra.eg,
            sign: 0,
            points: Weight { mg: 0, eg: 0 },
        }
    }

    /// White's middlegame and endgame points, the last side's included.
    #[inline(always)]
    fn total(mut self) -> (i32, i32) {
        self.side(0);
        (self.mg, self.eg)
    }
}

impl Sink for Score {
    #[inline(always)]
    fn side(&mut self, sign: i32) {
        self.mg += self.sign * self.points.mg;
        self.eg += self.sign * self.points.eg;
        self.points = Weight { mg: 0, eg: 0 };
        self.sign = sign;
    }

    #[inline(always)]
    fn add(&mut self, term: Term, row: usize, col: usize) {
        let v = term.weight(row, col);
        self.points.mg += v.mg;
        self.points.eg += v.eg;
    }

    /// Material and square in one read of the folded tables.
    #[inline(always)]
    fn piece(&mut self, color: usize, role: usize, sq: usize) {
        self.points.mg += TABLES.mg[color][role][sq];
        self.points.eg += TABLES.eg[color][role][sq];
    }
}

/// Every term of `pos` into `sink`: those that read the other pieces
/// ([`add_piece_terms`]), then those that read only the pawns and the kings
/// ([`add_pawn_king_terms`]); the pawn chunks apart:
/// `pawn_chunks::add_terms`. The one reading of the board that the score
/// and the tune's coefficients share; inlined, so the score's sums stay in
/// registers as one function's would.
#[inline(always)]
pub fn add_terms<S: Sink>(pos: &Chess, sink: &mut S) {
    add_piece_terms(pos, sink);
    add_pawn_king_terms(pos.board(), sink);
}

/// The terms that read only the two sides' pawns and the kings' squares,
/// into `sink`, White's then Black's: the pawns' and the kings' material
/// and squares, how far up its file each pawn could walk
/// ([`for_each_pawn_path`]), the pawns as each king sees them
/// ([`for_each_king_pawn`]), the kings' distances to the passed pawns
/// ([`for_each_passer_king`]) and the pawns' structure
/// ([`for_each_pawn_structure`]). A search keeps their sum by pawns and kings
/// (`pawn_king_cache.rs`), so nothing else may be read here.
#[inline(always)]
pub fn add_pawn_king_terms<S: Sink>(board: &shakmaty::Board, sink: &mut S) {
    let pawns = [Color::White, Color::Black].map(|c| board.pawns() & board.by_color(c));
    let pawn_att = [
        pawn_attacks(pawns[0], Color::White),
        pawn_attacks(pawns[1], Color::Black),
    ];
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        sink.side(if ci == 0 { 1 } else { -1 });
        for sq in pawns[ci] {
            sink.piece(ci, 0, sq as usize);
        }
        for sq in board.kings() & board.by_color(color) {
            sink.piece(ci, 5, sq as usize);
        }
        for_each_pawn_path(board, color, pawn_att[1 - ci], |row, n| {
            sink.add(Term::Path, row, n)
        });
        for_each_king_pawn(board, color, |bucket, theirs, sq| {
            sink.add(Term::KingPawns, 2 * bucket + theirs, sq)
        });
        for_each_passer_king(board, color, |row, whose, d| {
            for _ in 0..d {
                sink.add(Term::PasserKings, row, whose)
            }
        });
        for_each_pawn_structure(board, color, |kind, row| {
            sink.add(Term::Structure, kind, row)
        });
    }
}

/// Every term of `pos` that reads more than the pawns and the kings, into
/// `sink`, side by side (White's, Black's, then White's and Black's again):
/// the knights', bishops', rooks' and queens' material and squares,
/// the bishops' own pawns
/// ([`for_each_bishop_pawns`]), mobility, king attack, bishop pair,
/// safe checks, targets, weak squares and the pawns' pushes (the square
/// ahead reads every piece).
#[inline(always)]
pub fn add_piece_terms<S: Sink>(pos: &Chess, sink: &mut S) {
    let board = pos.board();

    // What each side's knights, bishops, rooks and queens reach, and every
    // square each side attacks: the safe checks below need both sides'.
    let mut reach_by = [[Bitboard::EMPTY; 4]; 2];
    let mut attacked = [Bitboard::EMPTY; 2];
    // The same per piece kind, pawns and king included (`all_reach`).
    let mut all = [[Bitboard::EMPTY; 6]; 2];
    let pawn_att =
        [Color::White, Color::Black].map(|c| pawn_attacks(board.pawns() & board.by_color(c), c));
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        sink.side(if ci == 0 { 1 } else { -1 });
        let ours = board.by_color(color);
        let mobility_area = !(ours | pawn_att[1 - ci]);
        let zone = king_zone(board, !color);
        let (mut attackers, mut hits) = (0usize, 0usize);

        // Pawns and kings (no reach) are `add_pawn_king_terms`'.
        for (r, role) in Role::ALL.into_iter().enumerate().take(5).skip(1) {
            for sq in board.by_role(role) & ours {
                sink.piece(ci, r, sq as usize);
                let Some(reach) = piece_reach(board, ours, role, sq) else {
                    continue;
                };
                sink.add(Term::Mobility, r - 1, (reach & mobility_area).count());
                let h = (reach & zone).count();
                attackers += (h > 0) as usize;
                hits += h;
                reach_by[ci][r - 1] |= reach;
            }
        }
        all[ci] = all_reach(board, color, pawn_att[ci], &reach_by[ci]);
        attacked[ci] = union(&all[ci]);
        let row = attackers.min(KING_ATTACKERS_N - 1)
            + KING_ATTACKERS_N * (board.queens() & ours).any() as usize;
        sink.add(Term::KingAttack, row, hits.min(KING_HITS_N - 1));
        if (board.bishops() & ours).more_than_one() {
            sink.add(Term::Pair, 0, 0);
        }
        for_each_bishop_pawns(board, color, |row, n| sink.add(Term::BishopPawns, row, n));
    }
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        sink.side(if ci == 0 { 1 } else { -1 });
        let checks = safe_checks(board, color, &reach_by[ci], attacked[1 - ci]);
        for (r, &n) in checks.iter().enumerate() {
            sink.add(Term::Checks, r, n.min(SAFE_CHECKS_N - 1));
        }
        for_each_target(board, color, &all[ci], attacked[1 - ci], |r, c| {
            sink.add(Term::Targets, r, c)
        });
        let weak = weak_zone_squares(
            board,
            color,
            attacked[ci],
            pawn_att[1 - ci],
            &reach_by[1 - ci],
        );
        sink.add(Term::Weak, 0, weak.min(KING_WEAK_N - 1));
        for_each_pawn_push(
            board,
            color,
            pawn_att[1 - ci],
            attacked[1 - ci],
            |row, push| sink.add(Term::Push, row, push),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::from_fen;

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        assert_eq!(evaluate(&Chess::default()), TEMPO);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50",
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ] {
            let pos = from_fen(fen, false).unwrap();
            let mirrored = from_fen(&mirror_fen(fen), false).unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
        }
    }

    #[test]
    fn safe_checks_count_the_checking_squares_the_enemy_king_does_not_guard() {
        // Black's king g8. The knight g4 reaches f6 and h6, both knight
        // checks. The rook a7 reaches a8 (a check along the eighth rank) and
        // g7 (a check down the g-file, but next to the king: not safe).
        let pos = from_fen("6k1/R7/8/8/6N1/8/8/4K3 w - - 0 1", false).unwrap();
        let board = pos.board();
        let occupied = board.occupied();
        let mut reach = [Bitboard::EMPTY; 4];
        reach[0] = attacks::knight_attacks(shakmaty::Square::G4);
        reach[2] = attacks::rook_attacks(shakmaty::Square::A7, occupied);
        let guarded = attacks::king_attacks(shakmaty::Square::G8);
        assert_eq!(
            safe_checks(board, Color::White, &reach, guarded),
            [2, 0, 1, 0]
        );
        // Black has no piece to check with.
        let none = [Bitboard::EMPTY; 4];
        assert_eq!(
            safe_checks(board, Color::Black, &none, Bitboard::EMPTY),
            [0; 4]
        );
    }

    #[test]
    fn weak_zone_squares_are_those_attacked_and_guarded_by_no_pawn_or_minor_or_rook() {
        // Black's king g8, its zone f7, g7, h7, f8, g8, h8. White's queen h5
        // attacks f7 (through g6) and h7; Black's pawns guard neither, its
        // king does, which does not count: two weak squares.
        for (fen, weak) in [
            ("6k1/5ppp/8/7Q/8/8/8/4K3 w - - 0 1", 2),
            // A knight f8 guards h7: f7 alone is weak.
            ("5nk1/5ppp/8/7Q/8/8/8/4K3 w - - 0 1", 1),
        ] {
            let pos = from_fen(fen, false).unwrap();
            let board = pos.board();
            let occupied = board.occupied();
            let mut white = [Bitboard::EMPTY; 4];
            white[3] = attacks::queen_attacks(shakmaty::Square::H5, occupied);
            let attacked = attacked_by(board, Color::White, Bitboard::EMPTY, &white);
            let mut black = [Bitboard::EMPTY; 4];
            for sq in board.knights() & board.black() {
                black[0] |= attacks::knight_attacks(sq);
            }
            let black_pawns = pawn_attacks(board.pawns() & board.black(), Color::Black);
            assert_eq!(
                weak_zone_squares(board, Color::White, attacked, black_pawns, &black),
                weak,
                "{fen}"
            );
        }
    }

    #[test]
    fn targets_count_the_enemy_pieces_reached_apart_by_whether_they_are_guarded() {
        // The knight e4 reaches the rook d6 (victim 3) and the pawn f6
        // (victim 0); Black's king e8 guards neither. With a pawn c7 the
        // rook is guarded (column 2 x 3 + 1).
        for (fen, rook_col) in [
            ("4k3/8/3r1p2/8/4N3/8/8/4K3 w - - 0 1", 6),
            ("4k3/2p5/3r1p2/8/4N3/8/8/4K3 w - - 0 1", 7),
        ] {
            let pos = from_fen(fen, false).unwrap();
            let board = pos.board();
            let mut white = [Bitboard::EMPTY; 6];
            white[1] = attacks::knight_attacks(shakmaty::Square::E4);
            let black = [Bitboard::EMPTY; 4];
            let black_pawns = pawn_attacks(board.pawns() & board.black(), Color::Black);
            let guarded = attacked_by(board, Color::Black, black_pawns, &black);
            let mut n = [[0; 10]; 6];
            for_each_target(board, Color::White, &white, guarded, |r, c| n[r][c] += 1);
            let mut want = [[0; 10]; 6];
            want[1][rook_col] = 1;
            want[1][0] = 1;
            assert_eq!(n, want, "{fen}");
        }
    }

    #[test]
    fn pawn_mobility_reads_what_stands_on_the_square_ahead() {
        // White: a2 behind its own knight (0), c4 under the pawn b6 (1),
        // e6 under the rook e8 (2), g5 free (3). Black: b6 under the pawn c4.
        let pos = from_fen("4r2k/8/1p2P3/6P1/2P5/N7/P7/4K3 w - - 0 1", false).unwrap();
        let board = pos.board();
        let occupied = board.occupied();
        let mut white = [Bitboard::EMPTY; 4];
        white[0] = attacks::knight_attacks(shakmaty::Square::A3);
        let mut black = [Bitboard::EMPTY; 4];
        black[2] = attacks::rook_attacks(shakmaty::Square::E8, occupied);
        let pawns = [Color::White, Color::Black]
            .map(|c| pawn_attacks(board.pawns() & board.by_color(c), c));
        let attacked = [
            attacked_by(board, Color::White, pawns[0], &white),
            attacked_by(board, Color::Black, pawns[1], &black),
        ];
        let mut seen = Vec::new();
        for_each_pawn_push(board, Color::White, pawns[1], attacked[1], |row, push| {
            seen.push((row, push))
        });
        seen.sort();
        assert_eq!(seen, [(0, 0), (2, 1), (3, 3), (4, 2)]);
        let mut seen = Vec::new();
        for_each_pawn_push(board, Color::Black, pawns[0], attacked[0], |row, push| {
            seen.push((row, push))
        });
        assert_eq!(seen, [(1, 1)]);
    }

    #[test]
    fn a_pawns_path_runs_up_its_file_to_the_first_pawn_or_enemy_pawn_attack() {
        // White: a5 walks a6, a7, a8, through the black knight a6 (3: the
        // whole way); c4 stops at once, the pawn d6 attacks c5 (0); e2 walks
        // e3, e4 and stops before its own pawn e5 (2); e5 walks e6, e7, e8
        // (3). Black: d6 stops at once, the pawn c4 attacks d5 (0).
        let pos = from_fen("4k3/8/n2p4/P3P3/2P5/8/4P3/4K3 w - - 0 1", false).unwrap();
        let board = pos.board();
        let pawns = [Color::White, Color::Black]
            .map(|c| pawn_attacks(board.pawns() & board.by_color(c), c));
        let mut seen = Vec::new();
        for_each_pawn_path(board, Color::White, pawns[1], |row, n| seen.push((row, n)));
        seen.sort();
        // e2 (row 0) 2, c4 (row 2) 0, a5 and e5 (row 3) 3 each.
        assert_eq!(seen, [(0, 2), (2, 0), (3, 3), (3, 3)]);
        let mut seen = Vec::new();
        for_each_pawn_path(board, Color::Black, pawns[0], |row, n| seen.push((row, n)));
        // d6 is on Black's third rank (row 1).
        assert_eq!(seen, [(1, 0)]);
    }

    #[test]
    fn each_pawn_counts_as_isolated_stacked_backward_in_a_phalanx_or_defended() {
        fn seen(fen: &str, color: Color) -> Vec<(usize, usize)> {
            let pos = from_fen(fen, false).unwrap();
            let mut v = Vec::new();
            for_each_pawn_structure(pos.board(), color, |kind, row| v.push((kind, row)));
            v
        }
        // White a2 and a3: isolated, a2 with a3 in front of it. c3: d4 beside
        // it stands ahead, so nothing would defend it on c4, which b5
        // attacks, and c6 stands on its file: backward (2). d4 and e4 stand
        // side by side, and c3 defends d4. Black b5 is defended by c6; c6 has
        // b5 only in front of it, and d4 attacks c5: backward, c3 on its file.
        let fen = "4k3/8/2p5/1p6/3PP3/P1P5/P7/4K3 w - - 0 1";
        assert_eq!(
            seen(fen, Color::White),
            [(0, 0), (1, 0), (0, 1), (2, 1), (4, 2), (5, 2), (4, 2)]
        );
        assert_eq!(seen(fen, Color::Black), [(5, 2), (2, 1)]);
        // f2 is backward (g3 stands ahead of it, e4 attacks f3) with no enemy
        // pawn on its file (3); f2 defends g3. Black's e4 is isolated on
        // Black's fifth rank (row 3).
        let fen = "4k3/8/8/8/4p3/6P1/5P2/4K3 w - - 0 1";
        assert_eq!(seen(fen, Color::White), [(3, 0), (5, 1)]);
        assert_eq!(seen(fen, Color::Black), [(0, 3)]);
    }

    #[test]
    fn a_passed_pawn_counts_both_kings_distances_to_the_square_ahead_of_it() {
        // White: a5 is passed (no black pawn on files a-b ahead of it); its
        // square ahead a6 is 5 king moves from e1 (5 ranks, 4 files) and 4
        // from Black's king e8 (4 files, 2 ranks). e4 is not passed: the
        // black pawn d6 stands ahead of it on a file beside it, as e4 does
        // of d6. Black: h4 is passed; its square ahead h3 is 5 moves from
        // its own king e8 and 3 from White's e1; it stands on Black's fifth
        // rank (row 3).
        let pos = from_fen("4k3/8/3p4/P7/4P2p/8/8/4K3 w - - 0 1", false).unwrap();
        let board = pos.board();
        let mut seen = Vec::new();
        for_each_passer_king(board, Color::White, |row, whose, d| {
            seen.push((row, whose, d))
        });
        assert_eq!(seen, [(3, 0, 5), (3, 1, 4)]);
        let mut seen = Vec::new();
        for_each_passer_king(board, Color::Black, |row, whose, d| {
            seen.push((row, whose, d))
        });
        assert_eq!(seen, [(3, 0, 5), (3, 1, 3)]);
    }

    #[test]
    fn a_bishop_counts_its_pawns_on_its_colour_and_those_blocked() {
        // White's bishop e2 stands on a light square: of White's pawns,
        // c4, d5, e4 and f3 stand on light squares (b2 on a dark one), and
        // d5 and e4 are blocked by Black's d6 and e5. Black's bishop c5 is
        // dark-squared: a7, d6 and e5 are on dark squares (h5 on a light
        // one), d6 and e5 blocked by White's d5 and e4.
        let pos = from_fen("4k3/p7/3p4/2bPp2p/2P1P3/5P2/1P2B3/4K3 w - - 0 1", false).unwrap();
        let board = pos.board();
        let mut seen = Vec::new();
        for_each_bishop_pawns(board, Color::White, |row, n| seen.push((row, n)));
        assert_eq!(seen, [(0, 4), (1, 2)]);
        let mut seen = Vec::new();
        for_each_bishop_pawns(board, Color::Black, |row, n| seen.push((row, n)));
        assert_eq!(seen, [(0, 3), (1, 2)]);
    }

    #[test]
    fn each_king_sees_the_pawns_from_its_side_with_its_wing_mirrored_to_e_h() {
        // White's king g1 (bucket 2): its pawns f2, g2, h3 and Black's a7, b7,
        // c7 on its seventh rank. Black's king c8 is mirrored to f8 (bucket 1):
        // a7, b7, c7 become h, g, f on its second rank (row 0); f2, g2 (its
        // seventh rank, row 5) become c, b; h3 (its sixth, row 4) becomes a.
        let pos = from_fen("2k5/ppp5/8/8/8/7P/5PP1/6K1 w - - 0 1", false).unwrap();
        // (bucket, theirs, sq) for White, then for Black.
        #[rustfmt::skip]
        let want = [
            [(2, 0, 5), (2, 0, 6), (2, 0, 15), (2, 1, 40), (2, 1, 41), (2, 1, 42)],
            [(1, 0, 5), (1, 0, 6), (1, 0, 7), (1, 1, 32), (1, 1, 41), (1, 1, 42)],
        ];
        for (color, want) in [Color::White, Color::Black].into_iter().zip(want) {
            let mut seen = Vec::new();
            for_each_king_pawn(pos.board(), color, |b, t, sq| seen.push((b, t, sq)));
            seen.sort();
            assert_eq!(seen, want, "{color:?}");
        }
    }

    #[test]
    fn bishops_and_rooks_see_through_their_own_batteries_only() {
        // White: bishop b1 behind its queen c2, rook a1 behind its rook a3,
        // rook h1 behind the black rook h5, queen c2 behind its knight c4.
        let pos = from_fen("3qk3/8/8/7r/2N5/R7/2Q5/RB2K2R w - - 0 1", false).unwrap();
        let board = pos.board();
        let white = board.white();
        let reach = |role, sq| piece_reach(board, white, role, sq).unwrap();
        use shakmaty::Square::*;
        // Through its own queen to the d3..h7 diagonal.
        assert!(reach(Role::Bishop, B1).contains(H7));
        // Through its own rook on a3 up to a8.
        assert!(reach(Role::Rook, A1).contains(A8));
        // Not through an enemy piece: the h1 rook stops at h5.
        let h = reach(Role::Rook, H1);
        assert!(h.contains(H5) && !h.contains(H6));
        // The queen sees through nothing: it stops at its knight.
        let q = reach(Role::Queen, C2);
        assert!(q.contains(C4) && !q.contains(C5));
        assert_eq!(piece_reach(board, white, Role::King, E1), None);
    }

    #[test]
    fn extra_queen_is_winning() {
        let pos = from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false).unwrap();
        assert!(evaluate(&pos) > 800);
        let pos = from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", false).unwrap();
        assert!(evaluate(&pos) < -800);
    }

    /// Colour-flipped FEN (ranks reversed, case swapped, side to move swapped).
    fn mirror_fen(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| r.chars().map(swap_case).collect())
            .collect();
        let stm = if parts[1] == "w" { "b" } else { "w" };
        let castle: String = if parts[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = parts[2].chars().map(swap_case).collect();
            c.sort_by_key(|c| (c.is_lowercase(), *c));
            c.into_iter().collect()
        };
        let ep = if parts[3] == "-" {
            "-".to_string()
        } else {
            let b = parts[3].as_bytes();
            format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
        };
        format!("{} {} {} {} 0 1", board.join("/"), stm, castle, ep)
    }

    fn swap_case(c: char) -> char {
        if c.is_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    }
}
