//! Every evaluation number in one place.
//!
//! Written by `mach tune` by the command below (docs/tuning.md: how, and how
//! these numbers came to be); re-run it rather than editing by hand. Tables
//! are listed rank 8 first: White reads `TABLE[sq ^ 56]`, black `TABLE[sq]` (a1 = 0).
//!
//! Command: `mach tune /tmp/self-sf5k.epd /tmp/p300k-sf5k.epd /tmp/new200k-sf5k.epd /tmp/n3-sf5k.epd --from-psqt --anchor --fit pst,mobility,pair,king-attack,checks,king-weak,targets,pawn-push,pawn-path,tempo,king-pawns --batch 4096 --epochs 100 --positions 1200000 --seed 41 --out /tmp/kp4.rs`
//! Data: /tmp/self-sf5k.epd, /tmp/p300k-sf5k.epd, /tmp/new200k-sf5k.epd, /tmp/n3-sf5k.epd; 856409 quiet positions (770882 train, 85527 held out, labelled by ce), seed 41.
//! Fit: K = 0.004805, start psqt.rs (anchored: material and square-table means kept), fitted: pst, mobility, pair, king-attack, checks, king-weak, targets, pawn-push, pawn-path, tempo, king-pawns (the rest kept), Adam 100 epochs; loss train 0.014646 -> 0.013949, held-out 0.014465 -> 0.013861.
//! Then MACH's pawn chunks alone (the rest kept):
//! Command: `mach tune shared:books/gm2400-classical-173k.pgn --from-psqt --fit chunks --positions 2000000 --seed 51 --out /tmp/chunks-psqt.rs`
//! Data: ../shared/books/gm2400-classical-173k.pgn; 2000000 quiet positions (1797933 train, 202067 held out by game), seed 51.
//! Fit: K = 0.005972, start psqt.rs, fitted: chunks (the rest kept), Adam 50 epochs; loss train 0.110604 -> 0.109997, held-out 0.110654 -> 0.110133.
//! Then the kings' distances to the passed pawns alone (the rest kept; the table started at zero):
//! Command: `mach tune all-sf5k.epd --from-psqt --fit passer-kings --batch 4096 --epochs 100 --positions 300000 --seed 41 --k 0.005033 --out /tmp/passer-lin.rs`
//! Data: all-sf5k.epd; 271595 quiet positions (244333 train, 27262 held out, labelled by ce), seed 41.
//! Fit: K = 0.005033, start psqt.rs, fitted: passer-kings (the rest kept), Adam 100 epochs; loss train 0.014393 -> 0.014290, held-out 0.014155 -> 0.014098.
//! Then the bishops' own pawns alone, each row's weighted mean kept (the rest kept; the table started at zero):
//! Command: `mach tune all-sf5k.epd --from-psqt --fit bishop-pawns --keep-means bishop-pawns --batch 4096 --epochs 100 --positions 300000 --seed 41 --k 0.005033`
//! Data: all-sf5k.epd; 270826 quiet positions (243645 train, 27181 held out, labelled by ce), seed 41.
//! Fit: K = 0.005033, start psqt.rs, fitted: bishop-pawns (the rest kept), each row's weighted mean kept: bishop-pawns, Adam 100 epochs; loss train 0.014234 -> 0.014198, held-out 0.014458 -> 0.014420.
//! Then the pawns' structure alone (the rest kept; the table started at zero):
//! Command: `mach tune all-sf5k.epd --from-psqt --fit pawn-structure --batch 4096 --epochs 100 --positions 300000 --seed 41 --k 0.005033 --out pstruct.rs`
//! Data: all-sf5k.epd; 270202 quiet positions (243086 train, 27116 held out, labelled by ce), seed 41.
//! Fit: K = 0.005033, start psqt.rs, fitted: pawn-structure (the rest kept), Adam 100 epochs; loss train 0.014206 -> 0.014017, held-out 0.014414 -> 0.014250.

/// A middlegame/endgame pair of weights, tapered by game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weight {
    pub mg: i32,
    pub eg: i32,
}

const fn w(mg: i32, eg: i32) -> Weight {
    Weight { mg, eg }
}

/// Piece values, indexed pawn, knight, bishop, rook, queen, king.
pub const MATERIAL: [Weight; 6] = [
    w(82, 94),
    w(337, 281),
    w(365, 297),
    w(477, 512),
    w(1025, 936),
    w(0, 0),
];

/// Game-phase contribution of each piece (24 = all pieces on the board).
pub const PHASE_INC: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Phase of the starting position.
pub const PHASE_MAX: i32 = 24;

/// Most squares a knight, bishop, rook and queen can reach.
pub const MOBILITY_MAX: [usize; 4] = [8, 13, 14, 27];
/// Mobility by count: `MOBILITY[piece][n]` is the value of a knight, bishop,
/// rook or queen that reaches `n` squares (not own-occupied, not attacked by
/// enemy pawns). Entries past `MOBILITY_MAX` are unused.
#[rustfmt::skip]
pub const MOBILITY: [[Weight; 28]; 4] = [
    [w(49, -85), w(59, 0), w(66, 23), w(74, 33), w(81, 45), w(86, 52), w(90, 51), w(97, 44), w(106, 26), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(29, -51), w(31, -24), w(46, -14), w(51, 2), w(57, 13), w(62, 24), w(69, 27), w(73, 30), w(77, 32), w(76, 37), w(90, 27), w(87, 25), w(127, -9), w(-8, -3), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(66, -26), w(73, 18), w(78, 21), w(84, 34), w(86, 39), w(92, 43), w(100, 44), w(107, 50), w(117, 52), w(123, 57), w(127, 62), w(134, 65), w(142, 66), w(156, 55), w(224, 20), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-7, 140), w(11, -18), w(12, -30), w(12, -28), w(15, -13), w(14, 6), w(16, 32), w(20, 30), w(24, 39), w(25, 46), w(29, 50), w(32, 49), w(30, 58), w(35, 52), w(32, 64), w(39, 54), w(44, 49), w(47, 38), w(57, 21), w(65, 16), w(78, 8), w(110, -24), w(164, -61), w(247, -105), w(343, -171), w(496, -245), w(88, -88), w(558, -258)],
];
/// Pieces and squares the king-attack table counts: `KING_ATTACK[a][h]` is
/// the value of `a` knights, bishops, rooks and queens (at most 3 counted)
/// reaching `h` squares of the enemy king's zone in all (its square and the
/// squares next to it; a square reached by two pieces counts twice; at most
/// 8 counted); rows `KING_ATTACKERS_N` and on are the same counts for a side
/// that has a queen.
pub const KING_ATTACKERS_N: usize = 4;
pub const KING_HITS_N: usize = 9;
pub const KING_ATTACK_ROWS: usize = 2 * KING_ATTACKERS_N;
#[rustfmt::skip]
pub const KING_ATTACK: [[Weight; KING_HITS_N]; KING_ATTACK_ROWS] = [
    [w(-200, -3), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-207, -2), w(-234, 2), w(-270, 20), w(-354, 36), w(-354, 36), w(-354, 36), w(-354, 36), w(-354, 36)],
    [w(0, 0), w(0, 0), w(-187, 0), w(-194, -9), w(-165, -30), w(-41, -91), w(-34, -72), w(-366, 46), w(-366, 46)],
    [w(0, 0), w(0, 0), w(0, 0), w(-200, 55), w(-201, 37), w(-191, 21), w(-171, 13), w(-178, 14), w(-134, -9)],
    [w(11, -46), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(13, -37), w(10, -23), w(16, -40), w(87, -75), w(134, -87), w(134, -87), w(134, -87), w(134, -87)],
    [w(0, 0), w(0, 0), w(24, -7), w(46, -18), w(69, -29), w(142, -61), w(214, -115), w(338, -192), w(215, -92)],
    [w(0, 0), w(0, 0), w(0, 0), w(66, 15), w(92, 25), w(124, 38), w(172, -16), w(153, 173), w(232, 22)],
];
/// Safe checks: `SAFE_CHECKS[piece][n]` is the value of a side whose
/// knights, bishops, rooks or queens reach `n` squares (at most 3 counted)
/// from which they would check the enemy king, squares neither occupied by
/// that side nor attacked by the enemy.
pub const SAFE_CHECKS_N: usize = 4;
#[rustfmt::skip]
pub const SAFE_CHECKS: [[Weight; SAFE_CHECKS_N]; 4] = [
    [w(-50, 14), w(28, 3), w(60, -9), w(60, -9)],
    [w(-7, -10), w(5, 9), w(24, 7), w(24, 7)],
    [w(-56, 13), w(27, -2), w(85, -16), w(166, -33)],
    [w(-24, -22), w(-5, 33), w(20, 28), w(117, -13)],
];
/// Weak squares of the enemy king's zone: `KING_WEAK[n]` is the value of a
/// side that attacks `n` squares of the zone (at most 7 counted) that the
/// enemy guards with no pawn, knight, bishop or rook.
pub const KING_WEAK_N: usize = 8;
#[rustfmt::skip]
pub const KING_WEAK: [Weight; KING_WEAK_N] = [w(-22, 9), w(-11, 1), w(9, 1), w(25, 0), w(56, -9), w(83, -11), w(42, 7), w(205, -44)];
/// Mobility onto enemy pieces: `TARGETS[piece][2 v + g]` is the value, for
/// each enemy pawn, knight, bishop, rook or queen (`v` 0-4) that a side's
/// pawns, knights, bishops, rooks, queens or king attack, of one the enemy
/// does not guard (`g` 0) or guards (`g` 1).
#[rustfmt::skip]
pub const TARGETS: [[Weight; 10]; 6] = [
    [w(16, -21), w(19, -23), w(64, 19), w(51, 54), w(32, 53), w(49, 87), w(78, 38), w(56, 42), w(51, -13), w(55, 4)],
    [w(0, 44), w(-12, 9), w(9, -21), w(2, -23), w(39, 16), w(32, 31), w(64, 10), w(55, 28), w(31, 25), w(28, 59)],
    [w(7, 47), w(-4, 16), w(48, 24), w(19, 35), w(-21, -24), w(-40, -19), w(62, 18), w(39, 67), w(52, 87), w(35, 156)],
    [w(4, 51), w(-5, 15), w(40, 47), w(10, 26), w(34, 42), w(18, 20), w(30, -58), w(16, -107), w(71, 12), w(59, 59)],
    [w(18, 3), w(-2, 4), w(30, 43), w(-2, 14), w(30, 30), w(-1, 23), w(35, -9), w(2, -6), w(14, 8), w(-14, -8)],
    [w(108, 41), w(42, 28), w(-13, 55), w(-35, 19), w(64, 27), w(-25, 18), w(66, 20), w(-6, 1), w(0, 0), w(0, 0)],
];
/// Pawn mobility: `PAWN_PUSH[row][s]` is the value of a pawn on its side's
/// second to seventh rank (`row` 0-5) whose square ahead holds a piece
/// (`s` 0), is attacked by an enemy pawn (1), by another enemy piece (2) or
/// by none (3).
#[rustfmt::skip]
pub const PAWN_PUSH: [[Weight; 4]; 6] = [
    [w(-9, 14), w(19, 55), w(14, 16), w(4, 26)],
    [w(-10, 20), w(0, 47), w(-4, 14), w(-5, 29)],
    [w(-14, 25), w(2, 51), w(2, 19), w(-1, 37)],
    [w(-6, 24), w(20, 66), w(19, 20), w(-4, 78)],
    [w(18, 8), w(0, 0), w(48, 7), w(31, 106)],
    [w(20, -1), w(0, 0), w(155, -6), w(-96, 173)],
];
/// Pawn mobility by count: `PAWN_PATH[row][n]` is the value of a pawn on its
/// side's second to seventh rank (`row` 0-5) that could walk `n` squares up
/// its file, each holding no pawn and attacked by no enemy pawn (pieces
/// looked through); `n` = 6 - `row` is a pawn no enemy pawn can stop.
#[rustfmt::skip]
pub const PAWN_PATH: [[Weight; 7]; 6] = [
    [w(-3, -34), w(5, 0), w(9, -1), w(14, 1), w(21, 2), w(0, 0), w(0, 15)],
    [w(4, -27), w(16, -6), w(17, 1), w(23, 6), w(0, 0), w(-2, 18), w(0, 0)],
    [w(3, -34), w(8, -11), w(13, -3), w(0, 0), w(4, 27), w(0, 0), w(0, 0)],
    [w(-2, -42), w(15, -35), w(0, 0), w(19, 33), w(0, 0), w(0, 0), w(0, 0)],
    [w(-35, -76), w(0, 0), w(40, 21), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(43, -19), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
];
/// Pawns as each king sees them: `KING_PAWNS[2 bucket + theirs][sq]` is the
/// value, for a side whose king stands on file e, f, g or h (`bucket` 0-3;
/// files a-d are mirrored onto h-e), of its own (`theirs` 0) or an enemy
/// (`theirs` 1) pawn on `sq` = 8 x (rank - 2) + file, seen from the side's
/// end of the board with the same mirror.
#[rustfmt::skip]
pub const KING_PAWNS: [[Weight; 48]; 8] = [
    [w(-28, 17), w(-42, 18), w(-30, 9), w(-33, 31), w(22, -5), w(5, -4), w(0, 5), w(-15, 18), w(-27, 14), w(-35, 7), w(-16, 8), w(-3, -1), w(11, 5), w(2, -2), w(-6, 5), w(-20, 10), w(-22, 10), w(-18, 4), w(-9, 2), w(-6, 7), w(1, 9), w(-6, 9), w(-6, 12), w(-21, 15), w(-16, -2), w(-16, 6), w(-20, 10), w(-9, 8), w(-7, 13), w(-13, 16), w(-12, 9), w(-14, 10), w(-28, 0), w(-52, -1), w(-64, 15), w(-46, 10), w(-43, 38), w(-35, 30), w(31, -20), w(-23, 9), w(111, -62), w(-36, -18), w(-70, -21), w(-70, 33), w(-15, 81), w(-105, 21), w(-2, -3), w(33, -23)],
    [w(-39, -58), w(-28, -9), w(41, -6), w(-26, 38), w(5, 29), w(-210, 101), w(24, 28), w(52, -18), w(47, -19), w(32, -2), w(-23, 19), w(41, -16), w(-8, 26), w(-43, 25), w(-62, 42), w(5, 16), w(21, -8), w(31, 3), w(14, -3), w(20, -9), w(22, -22), w(-1, 3), w(-1, 15), w(16, 8), w(20, -5), w(26, -9), w(17, -1), w(15, -9), w(26, -7), w(18, -8), w(15, -2), w(10, 4), w(23, -6), w(13, -1), w(20, -5), w(13, -5), w(34, -11), w(19, -6), w(18, -6), w(14, -2), w(14, -4), w(11, -1), w(8, 6), w(-18, 18), w(33, -9), w(22, -7), w(20, -7), w(13, -8)],
    [w(-36, 15), w(-49, 20), w(-30, 7), w(-30, 24), w(20, 1), w(47, -2), w(50, -16), w(13, -4), w(-44, 14), w(-45, 13), w(-2, -4), w(4, 0), w(0, -3), w(28, 0), w(36, -7), w(15, -1), w(-25, 5), w(-9, -9), w(0, -2), w(3, 1), w(1, 1), w(18, 8), w(31, 6), w(10, 7), w(-20, -6), w(-16, -6), w(-9, -8), w(-10, 8), w(7, 8), w(27, 15), w(8, 10), w(21, 9), w(-8, -15), w(15, -37), w(-7, -22), w(20, -20), w(-33, 43), w(22, 26), w(-21, 35), w(31, 17), w(71, -56), w(117, -66), w(55, -60), w(-56, -3), w(29, 24), w(152, 26), w(-41, 72), w(31, 18)],
    [w(21, -80), w(-28, -12), w(-41, -24), w(49, -25), w(-156, 92), w(-34, 61), w(7, 21), w(184, -9), w(37, -49), w(57, -54), w(27, -23), w(-31, 17), w(-20, 24), w(-48, 38), w(-78, 43), w(-50, 71), w(27, -23), w(19, -12), w(10, -1), w(4, -2), w(-20, -2), w(-6, 13), w(-14, 11), w(-24, 33), w(13, -13), w(15, -7), w(16, -11), w(-5, 0), w(-11, -4), w(12, 4), w(-2, 2), w(-5, 14), w(-1, -1), w(0, -2), w(-3, 3), w(-11, 9), w(-4, -2), w(8, 3), w(16, -6), w(9, 1), w(2, -2), w(2, 4), w(-8, 4), w(-4, 11), w(4, -4), w(4, 2), w(10, -9), w(10, -3)],
    [w(-22, 5), w(-47, 13), w(-30, -5), w(-11, -6), w(13, -7), w(29, -5), w(69, -21), w(40, -19), w(-25, 2), w(-38, 5), w(-3, -2), w(3, -1), w(-1, 0), w(13, -3), w(54, -12), w(48, -17), w(-11, -4), w(-8, -11), w(2, -12), w(-1, -4), w(-2, 0), w(6, -4), w(27, 4), w(30, -6), w(-7, -15), w(5, -24), w(3, -22), w(6, -10), w(3, -9), w(14, 9), w(10, 20), w(19, 17), w(-8, -17), w(-3, -41), w(26, -44), w(20, -46), w(2, 5), w(-15, 26), w(4, 51), w(28, 22), w(38, -58), w(-70, -37), w(-9, -35), w(-16, -63), w(24, -8), w(-40, 80), w(15, 73), w(-66, 55)],
    [w(100, -116), w(-41, -35), w(45, -86), w(60, -68), w(-18, 48), w(-39, 111), w(79, 52), w(-838, 222), w(16, -55), w(13, -54), w(44, -51), w(12, -21), w(-23, 24), w(-41, 33), w(-20, 39), w(-50, 58), w(-7, -29), w(3, -21), w(5, -19), w(3, 4), w(-19, 18), w(-30, 24), w(-15, 17), w(-11, 28), w(-14, -10), w(-8, -6), w(-9, -3), w(-9, -3), w(-13, 6), w(-17, 12), w(-8, 16), w(-7, 13), w(-16, 1), w(-26, 7), w(-7, 1), w(-12, 10), w(-9, 0), w(-13, 3), w(5, 5), w(-4, 6), w(-20, 3), w(-26, 13), w(-15, 4), w(-23, 11), w(0, 1), w(-11, 0), w(3, -2), w(-5, 6)],
    [w(-23, -7), w(-56, 4), w(-23, -11), w(-39, -45), w(2, 10), w(10, 7), w(59, -15), w(56, -23), w(-34, -8), w(-43, -8), w(-14, 2), w(1, -13), w(-13, -1), w(8, 0), w(22, -8), w(51, -12), w(-14, -25), w(-13, -17), w(-2, -11), w(0, -6), w(19, -22), w(6, 4), w(8, 8), w(42, -13), w(-15, -26), w(5, -29), w(-4, -39), w(5, -20), w(11, -7), w(7, 12), w(10, 6), w(35, -3), w(-15, -30), w(15, -60), w(45, -64), w(38, -50), w(18, 11), w(31, -18), w(46, 36), w(15, 7), w(12, -41), w(8, -59), w(13, -82), w(-8, -24), w(114, -60), w(63, 25), w(44, 18), w(-53, 67)],
    [w(-39, -69), w(-58, -35), w(24, -80), w(43, -82), w(-67, -16), w(58, -41), w(97, 45), w(31, 223), w(52, -74), w(29, -43), w(61, -59), w(15, -60), w(-9, -5), w(-29, 20), w(-25, 69), w(-8, 85), w(6, -26), w(16, -26), w(24, -35), w(-5, -2), w(-27, 19), w(-20, 28), w(-43, 23), w(7, 16), w(0, -10), w(11, -13), w(-1, -5), w(-5, 6), w(-15, 16), w(-7, 11), w(-36, 16), w(6, 10), w(-4, -5), w(-8, 2), w(-4, 3), w(-11, 6), w(-14, 5), w(-6, 1), w(-8, -1), w(13, -2), w(-8, 3), w(1, 7), w(-18, 10), w(-9, -26), w(13, -13), w(-3, -7), w(-10, -4), w(6, 6)],
];
/// Passed pawns and the kings: `PASSER_KINGS[row][whose]` is the value, for a
/// passed pawn on its side's second to seventh rank (`row` 0-5), of each king
/// move between its own (`whose` 0) or the enemy (`whose` 1) king and the
/// square ahead of it.
#[rustfmt::skip]
pub const PASSER_KINGS: [[Weight; 2]; 6] = [
    [w(-10, 5), w(5, -4)],
    [w(-6, -4), w(9, 0)],
    [w(0, -10), w(1, 7)],
    [w(5, -11), w(-3, 10)],
    [w(-16, -1), w(19, 2)],
    [w(-1, -5), w(-1, 12)],
];
/// A bishop's own pawns: `BISHOP_PAWNS[0][n]` is the value of a bishop with
/// `n` pawns of its side on squares of its colour, `BISHOP_PAWNS[1][r]` with
/// `r` of those blocked by an enemy pawn on the square ahead.
#[rustfmt::skip]
pub const BISHOP_PAWNS: [[Weight; 9]; 2] = [
    [w(14, -2), w(6, 6), w(4, 0), w(0, -3), w(-3, -2), w(-5, -7), w(-9, 22), w(-10, 26), w(0, 0)],
    [w(3, 0), w(-1, 1), w(-6, -9), w(-31, 0), w(-75, 28), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
];
/// The pawns' structure: `PAWN_STRUCTURE[kind][row]` is the value of a pawn
/// on its side's second to seventh rank (`row` 0-5) that is isolated (`kind`
/// 0), has a pawn of its side in front of it on its file (1), is backward
/// with an enemy pawn on its file (2) or without one (3), stands beside a pawn
/// of its side (4) or is defended by one (5).
#[rustfmt::skip]
pub const PAWN_STRUCTURE: [[Weight; 6]; 6] = [
    [w(4, 17), w(-7, 11), w(2, 6), w(5, 3), w(3, 16), w(-17, 23)],
    [w(0, -12), w(-6, -10), w(7, -22), w(78, -60), w(0, 0), w(0, 0)],
    [w(-1, 1), w(-8, 8), w(-24, 3), w(-81, 133), w(0, 0), w(0, 0)],
    [w(-14, -18), w(-15, -11), w(-34, 7), w(14, 15), w(0, 0), w(0, 0)],
    [w(2, 1), w(2, 2), w(6, 6), w(24, 18), w(135, 50), w(0, 0)],
    [w(0, 0), w(6, 8), w(5, 1), w(15, 6), w(71, -30), w(341, -55)],
];
/// Two bishops against fewer.
pub const BISHOP_PAIR: Weight = w(19, 68);
/// Side to move bonus.
pub const TEMPO: i32 = 19;
/// MACH's pawn chunks (pawn_chunks.rs): each feature's weights by name,
/// counted for the side that has the pattern; a feature not listed weighs
/// nothing. Used only with the `PawnChunks` option.
#[rustfmt::skip]
pub const PAWN_CHUNKS: &[(&str, Weight)] = &[
    ("passed_pawn_a(2)", w(4, -12)),
    ("passed_pawn_a(3)", w(-8, -8)),
    ("passed_pawn_a(4)", w(31, -1)),
    ("passed_pawn_a(5)", w(21, 4)),
    ("passed_pawn_a(6)", w(35, 50)),
    ("passed_pawn_a(7)", w(-49, 72)),
    ("passed_pawn_b(2)", w(0, 7)),
    ("passed_pawn_b(3)", w(-2, 8)),
    ("passed_pawn_b(4)", w(-6, 16)),
    ("passed_pawn_b(5)", w(9, 16)),
    ("passed_pawn_b(6)", w(27, 62)),
    ("passed_pawn_b(7)", w(-8, 65)),
    ("passed_pawn_c(2)", w(4, 6)),
    ("passed_pawn_c(3)", w(-1, 18)),
    ("passed_pawn_c(4)", w(8, 9)),
    ("passed_pawn_c(5)", w(-12, 16)),
    ("passed_pawn_c(6)", w(16, 45)),
    ("passed_pawn_c(7)", w(83, 39)),
    ("passed_pawn_d(2)", w(24, 7)),
    ("passed_pawn_d(3)", w(-17, 23)),
    ("passed_pawn_d(4)", w(1, 3)),
    ("passed_pawn_d(5)", w(-21, 11)),
    ("passed_pawn_d(6)", w(43, 54)),
    ("passed_pawn_d(7)", w(47, 42)),
    ("advanced_passed_pawn", w(-30, -39)),
    ("protected_passed_pawn(3)", w(5, 8)),
    ("protected_passed_pawn(4)", w(-13, 7)),
    ("protected_passed_pawn(5)", w(33, 0)),
    ("protected_passed_pawn(6)", w(127, -16)),
    ("protected_passed_pawn(7)", w(88, 44)),
    ("doubled_pawns(a)", w(-43, -11)),
    ("doubled_pawns(b)", w(-12, -8)),
    ("doubled_pawns(c)", w(-8, -9)),
    ("doubled_pawns(d)", w(-20, -6)),
    ("doubled_pawns(e)", w(-26, -4)),
    ("doubled_pawns(f)", w(-11, -8)),
    ("doubled_pawns(g)", w(0, -14)),
    ("doubled_pawns(h)", w(-2, -45)),
    ("isolated_pawn_b", w(-4, -17)),
    ("isolated_pawn_c", w(-22, -19)),
    ("isolated_pawn_d", w(-18, -26)),
    ("queenside_majority", w(-9, 5)),
    ("central_majority", w(2, 2)),
    ("queenside_pawn_island", w(-12, 7)),
    ("centre_pawn_d4", w(-4, 10)),
    ("qgdcenter", w(1, 68)),
    ("carlsbad", w(17, -26)),
    ("minority_attack", w(-32, 87)),
    ("iqp", w(-12, -16)),
    ("hanging_pawns", w(-10, 13)),
    ("slav_triangle", w(5, -41)),
    ("kings_indian_chain", w(-4, 60)),
    ("kid_kingside_storm", w(-30, -44)),
    ("kid_queenside_break", w(12, -37)),
    ("modern_benoni", w(23, -22)),
    ("czech_benoni", w(12, -52)),
    ("benko", w(-8, 27)),
    ("nimzo_doubled_c_pawns", w(-7, 34)),
    ("open_sicilian", w(-1, 25)),
    ("scheveningen", w(13, -13)),
    ("najdorf", w(3, -49)),
    ("sicilian_d5_hole", w(-21, -45)),
    ("sicilian_kan_taimanov", w(-6, 20)),
    ("maroczy_bind", w(29, 11)),
    ("hedgehog", w(18, 20)),
    ("closed_ruy_centre", w(-2, 41)),
    ("e5_strongpoint", w(3, -10)),
    ("open_d_file_e4_e5", w(0, 0)),
    ("exchange_ruy", w(-70, 4)),
    ("open_centre", w(0, 0)),
    ("french_chain", w(20, 4)),
    ("french_advance", w(-4, -35)),
    ("french_f4_chain", w(12, -13)),
    ("french_winawer", w(-9, 48)),
    ("small_centre_d4_e6", w(-10, -4)),
    ("caro_kann_classical", w(22, -7)),
    ("french_exchange", w(0, 0)),
    ("stonewall", w(-15, 10)),
];

#[rustfmt::skip]
pub const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        129, 132,  57, 146,  -3,  45, -11, 147,
         15,  21,  55,  18,  12,  47,  26, -23,
         -9,  10,  10,  16,  19,   8,  -4, -22,
        -14,   0,   0,   5,   5,   8,  -3, -29,
         -6,  16,  -2, -18,   1,   6,  14, -24,
        -16,  20,   5, -19, -10,  10,   8, -32,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -163,  -33,  -52,  -12,    8, -178,   84, -231,
         -25,  -14,   23,   60,   27,   48,   43,   -4,
         -21,    2,   48,   53,   87,   54,   38,  -24,
           8,   13,   36,   54,   32,   53,   16,   32,
          -1,    1,   19,   11,   25,   28,   35,    3,
         -15,   -1,    0,   10,   21,   15,   18,   -1,
         -30,  -15,  -12,   -2,   -2,   -9,   -9,  -24,
         -51,  -16,  -21,  -10,   -4,  -10,  -20,  -55,
    ],
    [ // bishop
        -52, -47, -12, -65, -55, -56, -18, -55,
        -34, -11,   7,  11,  15, -12,  -7, -47,
         -9,   6,  10,  31,  50,  82,  41,  -2,
        -14,   2,  13,  38,  15,  32,  -3,  -2,
         22,  -1,   8,  19,  21,   6,   6,  10,
          7,  35,  12,  19,  18,  23,  33,  24,
         15,   7,  26,   4,  13,  20,  27,  21,
          7,  33,   6,   5,  13,   3,  15,  10,
    ],
    [ // rook
          0, -11, -22,  37,  11,  73,  71,  37,
         -5,  -4,  15,  54,  43,  80,  27,  41,
        -13,  20,  21,  41,  89,  86,  61,   2,
        -15,  -1,   7,  28,   8,  25,  23,   8,
        -26, -18, -12, -10,  -4, -18,  19, -18,
        -28, -16, -17,  -4,  -3, -14,  19,  -6,
        -37, -27,  -2,   3,  -9,  -5,  -3, -34,
        -21,  -7,  -4,   0,   2,  -9, -12, -12,
    ],
    [ // queen
         33,  -1, -13, -44, -29, 103,  62,  71,
        -38, -44, -39, -29, -38,  59,  64,  65,
        -22, -40, -25,  -6, -10,  19,  44,  -6,
        -25,  -7, -22, -17, -14,  -4,   8,   6,
         -7, -27,  -4, -21,  -6,  -1,  16,  15,
          2,   3,  -9,  -8,   0,  14,  36,  31,
         -8,  -2,   8,  12,   9,  19,   9,  15,
         12,  -8,   1,   1,  10,  -5,   0, -15,
    ],
    [ // king
        -404,  -60,  -69, -117,   61,  205,  265, -115,
         -47,  103,  119,   64,  151,   10,   43,  168,
        -168,   -5,  -32,  -46,   29, -237,  -17,  -10,
           6,   38, -103,  -75, -160,  -41,  -35,  -35,
         -47,    1,  -29,  -72,  -99,  -65,   -6,  -49,
           1,   61,  -18,  -42,  -51,  -49,   30,  -22,
          20,   44,   -5,  -52,  -55,  -47,   43,   30,
           8,   63,   -5,  -53,  -35,  -62,   57,   18,
    ],
];

#[rustfmt::skip]
pub const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        135, 166, 186, 143, 174, 188, 212, 103,
         79,  91,  63,  65,  51,  76,  80,  79,
         27,  26,  12, -11,   2,   8,  31,  17,
          9,  17,  -2,  -9,  -3,   2,   8,   2,
          0,   1, -12,   1,   0,   0,   3,  -9,
          4,   3,   3,   8,   6,   4,   3,  -6,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -35, -17,  -3, -24, -16,  12, -44,  14,
        -23,  -2, -11,  -9,   2, -38, -38, -18,
        -24, -14,  -6,  12, -16,  -9, -23,  -4,
        -10,  -9,   6,  17,  17,  -2, -18, -17,
        -18,  -6,   8,  14,  13,  -5, -20, -22,
        -29, -25, -10,   6,  -5, -20, -34, -27,
        -65, -22, -33, -18, -16, -19, -17, -27,
        -55, -39, -28,  -8, -24, -43, -28, -43,
    ],
    [ // bishop
          6,  12,   2,  22,  14,  25,  -6,  30,
         19,   5,   3,   3,   0,   0, -13,  -5,
          5,  18,  10,  -1, -11, -13,  -9,   3,
          2,  10,   6,  12,  15,  -6,  -1,   0,
        -24,   8,  10,  16,   0,   0,  -5, -13,
         -7,  -4,   5, -11,   0,  -5, -10,  -5,
         -9, -20, -26,  -6, -12, -25, -23, -26,
        -33, -39, -11, -11, -10, -15, -34, -80,
    ],
    [ // rook
         25,  31,  33,  26,  33,   0,   9,  14,
         25,  31,  27,   6,  15,  -5,  17,  10,
         29,   8,  11,   2, -18, -10,   0,  15,
         17,  11,  12,   1,   4,   4,   2,   4,
          8,   6,   5,   7,  -2,   8, -16,  -9,
         -5,  -6,  -4, -10,  -8,  -1, -20, -16,
         -9,  -7, -16, -13, -13, -17, -22, -16,
        -13, -27, -15, -15, -23, -12, -20, -36,
    ],
    [ // queen
         -8,  20,  38,  52,  40, -16, -12, -22,
         47,  57,  66,  70,  71,  21,  -5,   2,
         27,  56,  61,  69,  79,  37,  -9,  21,
         35,  29,  55,  60,  55,  56,  31,  21,
          2,  48,  20,  65,  19,  24,   1, -11,
        -12,  -7,  18,  13,  11,  14, -38, -36,
        -19, -12, -29, -29, -11, -56, -77, -70,
        -61, -25, -30, -13, -58, -67, -93, -21,
    ],
    [ // king
         13,   1, -13,  -2, -20,  -8, -14,   2,
         38,  -9, -11, -11,  -4,  28,   4,  -8,
         65,  40,  21,  39,  19,  53,  27,  35,
         28,  21,  39,  19,  39,  23,  14,  29,
          4,  13,  17,  20,  28,  19,   1,   1,
        -13, -12,  -1,   0,   8,   9,  -6,  -1,
        -15, -20, -13,  -7,  -5,   1, -18, -20,
        -63, -40, -29, -33, -46, -23, -43, -36,
    ],
];
