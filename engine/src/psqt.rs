//! Every evaluation number in one place.
//!
//! Written by `mach tune` (Texel tuning, `uci/src/tune`): every weight
//! below except the phase increments and mobility maxima was fitted by
//! logistic regression of the evaluation on game results or on labelled
//! evaluations (see the Data line; with `--anchor`
//! the material values and each table's mean stay the start's; with
//! `--fit` only the groups it names were fitted: see the Fit line). Re-run the tune rather than editing by hand. Tables are listed rank 8 first, so index 0
//! is a8. White reads `TABLE[sq ^ 56]`, black reads `TABLE[sq]` (sq with
//! a1 = 0).
//!
//! This file's history: material and piece-square tables are PeSTO's, by
//! Ronald Friederich (Rofchade), Texel-tuned on quiet positions of engine
//! games and published on the Chess Programming Wiki ("PeSTO's Evaluation
//! Function"). Mobility, bishop pair and tempo were provisional values of the
//! usual order (mobility the linear weights written out per count) until they
//! were fitted last (below). The king-attack table was fitted first, with
//! every other weight kept (`mach tune self-sf5k.epd p300k-sf5k.epd
//! --from-psqt --fit king-attack --batch 4096 --epochs 100 --positions 600000
//! --seed 41`), then the safe-check table, with every other weight kept (the
//! same with `--fit checks`). The first file is the quiet positions of 4,308
//! of Mach's own games (`mach match --nodes 5000`), the second 300,000 of the
//! 173k grandmaster games, each labelled by a 5,000-node search of Stockfish
//! 15.1 (`tools/label.py`; README, "Re-fitting the evaluation"). Then the
//! king-attack table was split by whether the attacking side has its queen
//! (rows 4-7 for a side with one) and fitted again alone, from the table
//! before (the same with `--fit king-attack`, held-out loss 0.016147 ->
//! 0.016142). Then the weak squares of the enemy king's zone (KING_WEAK) were
//! added and fitted alone, every other weight kept (`--fit king-weak`,
//! held-out 0.016170 -> 0.016168). Then mobility onto enemy pieces (TARGETS)
//! was added and fitted alone, every other weight kept (`--fit targets`,
//! held-out 0.016290 -> 0.015930). Then TARGETS got rows for the pawns' and
//! the king's attacks and was fitted again alone, from the table before
//! (held-out 0.015702 -> 0.015511). Then pawn mobility (PAWN_PUSH: what
//! stands on the square ahead of each pawn, by rank) was added and fitted
//! alone, every other weight kept (`--fit pawn-push`, held-out 0.015422 ->
//! 0.014644). Then the bishops' and rooks' reach became x-rays (a bishop sees
//! through its side's queens, a rook through its side's rooks and queens),
//! and mobility, bishop pair, king attack, safe checks, weak king-zone
//! squares, targets, pawn mobility and tempo were fitted together from the
//! tables before, material and piece-square tables kept (the same with `--fit
//! mobility,pair,king-attack,checks,king-weak,targets,pawn-push,tempo`,
//! held-out 0.014756 -> 0.014414). Then pawn mobility by count (PAWN_PATH:
//! how far up its file each pawn could walk, through pieces, to the first
//! pawn or square an enemy pawn attacks) was added, and the same groups with
//! it were fitted together again, on the two files and a third: 200,000 quiet
//! positions of 4,776 games of the last two sessions' SPRTs (`mach match` at
//! 20,000 nodes and at 1+0.01, Mach against Mach), labelled the same way, by
//! the command below.
//!
//! Command: `mach tune /tmp/self-sf5k.epd /tmp/p300k-sf5k.epd /tmp/new200k-sf5k.epd --from-psqt --fit mobility,pair,king-attack,checks,king-weak,targets,pawn-push,pawn-path,tempo --batch 4096 --epochs 100 --positions 900000 --seed 41 --out /tmp/pp-joint.rs`
//! Data: /tmp/self-sf5k.epd, /tmp/p300k-sf5k.epd, /tmp/new200k-sf5k.epd; 670596 quiet positions (603683 train, 66913 held out, labelled by ce), seed 41.
//! Fit: K = 0.004813, start psqt.rs, fitted: mobility, pair, king-attack, checks, king-weak, targets, pawn-push, pawn-path, tempo (the rest kept), Adam 100 epochs; loss train 0.014971 -> 0.014662, held-out 0.015000 -> 0.014739.

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
    [w(13, -62), w(23, 19), w(28, 41), w(32, 48), w(37, 57), w(40, 60), w(42, 61), w(50, 50), w(63, 22), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(4, -42), w(1, -6), w(13, 0), w(17, 13), w(23, 22), w(27, 35), w(32, 35), w(32, 43), w(31, 44), w(27, 50), w(43, 39), w(37, 35), w(45, 24), w(-111, 20), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(20, 8), w(22, 57), w(23, 47), w(24, 54), w(25, 63), w(29, 62), w(35, 64), w(41, 70), w(50, 72), w(54, 77), w(58, 82), w(63, 84), w(65, 90), w(83, 74), w(131, 49), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-17, 157), w(14, -35), w(11, -30), w(9, -28), w(10, -9), w(8, 12), w(7, 42), w(11, 40), w(14, 45), w(15, 57), w(18, 63), w(20, 58), w(19, 67), w(21, 64), w(17, 76), w(23, 65), w(26, 71), w(30, 63), w(39, 44), w(45, 37), w(55, 33), w(92, 15), w(171, -56), w(214, -81), w(330, -131), w(473, -211), w(14, 28), w(357, -182)],
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
    [w(-139, -13), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-150, -10), w(-177, -8), w(-229, 21), w(-272, 33), w(-272, 33), w(-272, 33), w(-272, 33), w(-272, 33)],
    [w(0, 0), w(0, 0), w(-136, -5), w(-135, -17), w(-95, -44), w(16, -99), w(14, -69), w(-346, 79), w(-346, 79)],
    [w(0, 0), w(0, 0), w(0, 0), w(-152, 45), w(-132, 23), w(-187, 46), w(-77, -16), w(-130, 18), w(-120, 25)],
    [w(-10, -26), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-10, -14), w(-5, -7), w(-15, -10), w(54, -60), w(94, -73), w(94, -73), w(94, -73), w(94, -73)],
    [w(0, 0), w(0, 0), w(-2, 13), w(29, -9), w(52, -16), w(119, -33), w(178, -83), w(339, -166), w(225, -97)],
    [w(0, 0), w(0, 0), w(0, 0), w(35, 20), w(50, 76), w(103, 38), w(159, -55), w(133, 149), w(177, 72)],
];
/// Safe checks: `SAFE_CHECKS[piece][n]` is the value of a side whose
/// knights, bishops, rooks or queens reach `n` squares (at most 3 counted)
/// from which they would check the enemy king, squares neither occupied by
/// that side nor attacked by the enemy.
pub const SAFE_CHECKS_N: usize = 4;
#[rustfmt::skip]
pub const SAFE_CHECKS: [[Weight; SAFE_CHECKS_N]; 4] = [
    [w(-53, 6), w(31, -8), w(49, -17), w(49, -17)],
    [w(-3, -11), w(-1, 12), w(45, -7), w(45, -7)],
    [w(-69, 12), w(32, -4), w(88, -9), w(220, -38)],
    [w(-22, -26), w(-9, 39), w(26, 27), w(116, -11)],
];
/// Weak squares of the enemy king's zone: `KING_WEAK[n]` is the value of a
/// side that attacks `n` squares of the zone (at most 7 counted) that the
/// enemy guards with no pawn, knight, bishop or rook.
pub const KING_WEAK_N: usize = 8;
#[rustfmt::skip]
pub const KING_WEAK: [Weight; KING_WEAK_N] = [w(-26, 15), w(-12, 2), w(7, 0), w(30, -4), w(58, -11), w(65, -5), w(42, 4), w(349, -97)];
/// Mobility onto enemy pieces: `TARGETS[piece][2 v + g]` is the value, for
/// each enemy pawn, knight, bishop, rook or queen (`v` 0-4) that a side's
/// pawns, knights, bishops, rooks, queens or king attack, of one the enemy
/// does not guard (`g` 0) or guards (`g` 1).
#[rustfmt::skip]
pub const TARGETS: [[Weight; 10]; 6] = [
    [w(10, -14), w(19, -19), w(54, 29), w(50, 54), w(30, 56), w(53, 78), w(69, 27), w(41, 42), w(49, -15), w(63, -11)],
    [w(3, 46), w(-11, 7), w(14, 2), w(6, 7), w(47, 11), w(35, 31), w(42, 18), w(50, 39), w(42, -3), w(34, 61)],
    [w(7, 45), w(-5, 14), w(34, 26), w(14, 36), w(-31, 9), w(-50, 10), w(54, 21), w(35, 66), w(49, 98), w(32, 153)],
    [w(12, 52), w(2, 17), w(36, 51), w(11, 29), w(44, 36), w(23, 21), w(12, -1), w(6, -60), w(73, 15), w(62, 63)],
    [w(23, 1), w(1, -1), w(25, 47), w(0, 5), w(30, 31), w(-1, 24), w(30, -14), w(-3, -1), w(21, 6), w(-21, -6)],
    [w(102, 56), w(31, 37), w(6, 44), w(-13, 18), w(67, 25), w(-46, 27), w(15, 39), w(-37, 11), w(0, 0), w(0, 0)],
];
/// Pawn mobility: `PAWN_PUSH[row][s]` is the value of a pawn on its side's
/// second to seventh rank (`row` 0-5) whose square ahead holds a piece
/// (`s` 0), is attacked by an enemy pawn (1), by another enemy piece (2) or
/// by none (3).
#[rustfmt::skip]
pub const PAWN_PUSH: [[Weight; 4]; 6] = [
    [w(-5, 14), w(15, 56), w(12, 18), w(3, 28)],
    [w(-13, 23), w(2, 47), w(-8, 18), w(-7, 31)],
    [w(-15, 29), w(0, 55), w(3, 23), w(2, 40)],
    [w(-9, 32), w(19, 70), w(15, 22), w(-3, 76)],
    [w(25, 8), w(0, 0), w(44, 7), w(18, 110)],
    [w(8, 21), w(0, 0), w(143, -1), w(-97, 178)],
];
/// Pawn mobility by count: `PAWN_PATH[row][n]` is the value of a pawn on its
/// side's second to seventh rank (`row` 0-5) that could walk `n` squares up
/// its file, each holding no pawn and attacked by no enemy pawn (pieces
/// looked through); `n` = 6 - `row` is a pawn no enemy pawn can stop.
#[rustfmt::skip]
pub const PAWN_PATH: [[Weight; 7]; 6] = [
    [w(0, -34), w(5, 1), w(8, 1), w(15, 1), w(17, 6), w(0, 0), w(2, 10)],
    [w(-1, -22), w(14, -2), w(15, 2), w(18, 8), w(0, 0), w(-4, 14), w(0, 0)],
    [w(3, -29), w(9, -8), w(15, 1), w(0, 0), w(-3, 30), w(0, 0), w(0, 0)],
    [w(-3, -42), w(14, -24), w(0, 0), w(12, 38), w(0, 0), w(0, 0), w(0, 0)],
    [w(-21, -82), w(0, 0), w(25, 26), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(22, -1), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
];
/// Two bishops against fewer.
pub const BISHOP_PAIR: Weight = w(21, 71);
/// Side to move bonus.
pub const TEMPO: i32 = 18;

#[rustfmt::skip]
pub const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
         98, 134,  61,  95,  68, 126,  34, -11,
         -6,   7,  26,  31,  65,  56,  25, -20,
        -14,  13,   6,  21,  23,  12,  17, -23,
        -27,  -2,  -5,  12,  17,   6,  10, -25,
        -26,  -4,  -4, -10,   3,   3,  33, -12,
        -35,  -1, -20, -23, -15,  24,  38, -22,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -167,  -89,  -34,  -49,   61,  -97,  -15, -107,
         -73,  -41,   72,   36,   23,   62,    7,  -17,
         -47,   60,   37,   65,   84,  129,   73,   44,
          -9,   17,   19,   53,   37,   69,   18,   22,
         -13,    4,   16,   13,   28,   19,   21,   -8,
         -23,   -9,   12,   10,   19,   17,   25,  -16,
         -29,  -53,  -12,   -3,   -1,   18,  -14,  -19,
        -105,  -21,  -58,  -33,  -17,  -28,  -19,  -23,
    ],
    [ // bishop
        -29,   4, -82, -37, -25, -42,   7,  -8,
        -26,  16, -18, -13,  30,  59,  18, -47,
        -16,  37,  43,  40,  35,  50,  37,  -2,
         -4,   5,  19,  50,  37,  37,   7,  -2,
         -6,  13,  13,  26,  34,  12,  10,   4,
          0,  15,  15,  15,  14,  27,  18,  10,
          4,  15,  16,   0,   7,  21,  33,   1,
        -33,  -3, -14, -21, -13, -12, -39, -21,
    ],
    [ // rook
         32,  42,  32,  51,  63,   9,  31,  43,
         27,  32,  58,  62,  80,  67,  26,  44,
         -5,  19,  26,  36,  17,  45,  61,  16,
        -24, -11,   7,  26,  24,  35,  -8, -20,
        -36, -26, -12,  -1,   9,  -7,   6, -23,
        -45, -25, -16, -17,   3,   0,  -5, -33,
        -44, -16, -20,  -9,  -1,  11,  -6, -71,
        -19, -13,   1,  17,  16,   7, -37, -26,
    ],
    [ // queen
        -28,   0,  29,  12,  59,  44,  43,  45,
        -24, -39,  -5,   1, -16,  57,  28,  54,
        -13, -17,   7,   8,  29,  56,  47,  57,
        -27, -27, -16, -16,  -1,  17,  -2,   1,
         -9, -26,  -9, -10,  -2,  -4,   3,  -3,
        -14,   2, -11,  -2,  -5,   2,  14,   5,
        -35,  -8,  11,   2,   8,  15,  -3,   1,
         -1, -18,  -9,  10, -15, -25, -31, -50,
    ],
    [ // king
        -65,  23,  16, -15, -56, -34,   2,  13,
         29,  -1, -20,  -7,  -8,  -4, -38, -29,
         -9,  24,   2, -16, -20,   6,  22, -22,
        -17, -20, -12, -27, -30, -25, -14, -36,
        -49,  -1, -27, -39, -46, -44, -33, -51,
        -14, -14, -22, -46, -44, -30, -15, -27,
          1,   7,  -8, -64, -43, -16,   9,   8,
        -15,  36,  12, -54,   8, -28,  24,  14,
    ],
];

#[rustfmt::skip]
pub const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        178, 173, 158, 134, 147, 132, 165, 187,
         94, 100,  85,  67,  56,  53,  82,  84,
         32,  24,  13,   5,  -2,   4,  17,  17,
         13,   9,  -3,  -7,  -7,  -8,   3,  -1,
          4,   7,  -6,   1,   0,  -5,  -1,  -8,
         13,   8,   8,  10,  13,   0,   2,  -7,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -58, -38, -13, -28, -31, -27, -63, -99,
        -25,  -8, -25,  -2,  -9, -25, -24, -52,
        -24, -20,  10,   9,  -1,  -9, -19, -41,
        -17,   3,  22,  22,  22,  11,   8, -18,
        -18,  -6,  16,  25,  16,  17,   4, -18,
        -23,  -3,  -1,  15,  10,  -3, -20, -22,
        -42, -20, -10,  -5,  -2, -20, -23, -44,
        -29, -51, -23, -15, -22, -18, -50, -64,
    ],
    [ // bishop
        -14, -21, -11,  -8,  -7,  -9, -17, -24,
         -8,  -4,   7, -12,  -3, -13,  -4, -14,
          2,  -8,   0,  -1,  -2,   6,   0,   4,
         -3,   9,  12,   9,  14,  10,   3,   2,
         -6,   3,  13,  19,   7,  10,  -3,  -9,
        -12,  -3,   8,  10,  13,   3,  -7, -15,
        -14, -18,  -7,  -1,   4,  -9, -15, -27,
        -23,  -9, -23,  -5,  -9, -16,  -5, -17,
    ],
    [ // rook
         13,  10,  18,  15,  12,  12,   8,   5,
         11,  13,  13,  11,  -3,   3,   8,   3,
          7,   7,   7,   5,   4,  -3,  -5,  -3,
          4,   3,  13,   1,   2,   1,  -1,   2,
          3,   5,   8,   4,  -5,  -6,  -8, -11,
         -4,   0,  -5,  -1,  -7, -12,  -8, -16,
         -6,  -6,   0,   2,  -9,  -9, -11,  -3,
         -9,   2,   3,  -1,  -5, -13,   4, -20,
    ],
    [ // queen
         -9,  22,  22,  27,  27,  19,  10,  20,
        -17,  20,  32,  41,  58,  25,  30,   0,
        -20,   6,   9,  49,  47,  35,  19,   9,
          3,  22,  24,  45,  57,  40,  57,  36,
        -18,  28,  19,  47,  31,  34,  39,  23,
        -16, -27,  15,   6,   9,  17,  10,   5,
        -22, -23, -30, -16, -16, -23, -36, -32,
        -33, -28, -22, -43,  -5, -32, -20, -41,
    ],
    [ // king
        -74, -35, -18, -18, -11,  15,   4, -17,
        -12,  17,  14,  17,  17,  38,  23,  11,
         10,  17,  23,  15,  20,  45,  44,  13,
         -8,  22,  24,  27,  26,  33,  26,   3,
        -18,  -4,  21,  24,  27,  23,   9, -11,
        -19,  -3,  11,  21,  23,  16,   7,  -9,
        -27, -11,   4,  13,  14,   4,  -5, -17,
        -53, -34, -21, -11, -28, -14, -24, -43,
    ],
];
