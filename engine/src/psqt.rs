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
//! tables before, material and piece-square tables kept, by the command
//! below.
//!
//! Command: `mach tune /tmp/self-sf5k.epd /tmp/p300k-sf5k.epd --from-psqt --fit mobility,pair,king-attack,checks,king-weak,targets,pawn-push,tempo --batch 4096 --epochs 100 --positions 600000 --seed 41 --out /tmp/xr-nopst.rs`
//! Data: /tmp/self-sf5k.epd, /tmp/p300k-sf5k.epd; 477408 quiet positions (429800 train, 47608 held out, labelled by ce), seed 41.
//! Fit: K = 0.005042, start psqt.rs, fitted: mobility, pair, king-attack, checks, king-weak, targets, pawn-push, tempo (the rest kept), Adam 100 epochs; loss train 0.014587 -> 0.014245, held-out 0.014756 -> 0.014414.

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
    [w(-20, -30), w(-9, 30), w(-4, 51), w(-1, 57), w(2, 64), w(6, 66), w(7, 67), w(15, 57), w(24, 45), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-31, -22), w(-33, 10), w(-20, 12), w(-15, 25), w(-11, 34), w(-8, 48), w(-3, 47), w(-4, 53), w(-4, 56), w(-8, 58), w(5, 48), w(1, 46), w(-14, 47), w(-92, 20), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-19, 24), w(-17, 66), w(-16, 52), w(-15, 59), w(-15, 67), w(-10, 69), w(-7, 73), w(-2, 76), w(6, 79), w(9, 84), w(12, 87), w(22, 86), w(22, 90), w(41, 75), w(77, 53), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-29, 300), w(-1, 16), w(-2, -2), w(-4, -11), w(-2, 7), w(-4, 16), w(-5, 42), w(-2, 47), w(1, 47), w(1, 52), w(4, 60), w(7, 57), w(6, 66), w(7, 66), w(4, 77), w(14, 59), w(19, 62), w(20, 59), w(26, 44), w(19, 49), w(36, 47), w(78, 12), w(147, -43), w(147, -41), w(170, -40), w(212, -72), w(14, 28), w(172, -67)],
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
    [w(-70, -17), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-81, -18), w(-97, -19), w(-152, 8), w(-210, 27), w(-210, 27), w(-210, 27), w(-210, 27), w(-210, 27)],
    [w(0, 0), w(0, 0), w(-65, -14), w(-68, -26), w(-30, -47), w(12, -70), w(23, -49), w(-145, -10), w(-145, -10)],
    [w(0, 0), w(0, 0), w(0, 0), w(-101, 25), w(-103, 34), w(-101, 17), w(6, -40), w(-38, -15), w(-54, 15)],
    [w(-32, -3), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-31, 8), w(-27, 11), w(-38, 14), w(26, -30), w(38, -21), w(38, -21), w(38, -21), w(38, -21)],
    [w(0, 0), w(0, 0), w(-23, 29), w(-2, 16), w(25, -3), w(76, 10), w(153, -69), w(240, -55), w(240, -55)],
    [w(0, 0), w(0, 0), w(0, 0), w(27, -12), w(24, 71), w(65, 68), w(136, -47), w(119, 103), w(119, 103)],
];
/// Safe checks: `SAFE_CHECKS[piece][n]` is the value of a side whose
/// knights, bishops, rooks or queens reach `n` squares (at most 3 counted)
/// from which they would check the enemy king, squares neither occupied by
/// that side nor attacked by the enemy.
pub const SAFE_CHECKS_N: usize = 4;
#[rustfmt::skip]
pub const SAFE_CHECKS: [[Weight; SAFE_CHECKS_N]; 4] = [
    [w(-55, 4), w(24, -6), w(75, -26), w(75, -26)],
    [w(-1, -9), w(-2, 12), w(40, -16), w(40, -16)],
    [w(-61, 11), w(33, -4), w(80, -6), w(152, -17)],
    [w(-16, -35), w(-8, 36), w(18, 34), w(102, -1)],
];
/// Weak squares of the enemy king's zone: `KING_WEAK[n]` is the value of a
/// side that attacks `n` squares of the zone (at most 7 counted) that the
/// enemy guards with no pawn, knight, bishop or rook.
pub const KING_WEAK_N: usize = 8;
#[rustfmt::skip]
pub const KING_WEAK: [Weight; KING_WEAK_N] = [w(-21, 8), w(-11, 0), w(8, -3), w(22, -2), w(50, -7), w(45, 2), w(-3, 32), w(407, -100)];
/// Mobility onto enemy pieces: `TARGETS[piece][2 v + g]` is the value, for
/// each enemy pawn, knight, bishop, rook or queen (`v` 0-4) that a side's
/// pawns, knights, bishops, rooks, queens or king attack, of one the enemy
/// does not guard (`g` 0) or guards (`g` 1).
#[rustfmt::skip]
pub const TARGETS: [[Weight; 10]; 6] = [
    [w(3, -6), w(14, -20), w(50, 41), w(48, 49), w(29, 58), w(48, 77), w(76, 10), w(39, 34), w(55, -36), w(57, -24)],
    [w(2, 41), w(-10, 7), w(23, 4), w(17, 20), w(44, 14), w(31, 31), w(41, 19), w(46, 38), w(38, -5), w(32, 53)],
    [w(5, 44), w(-5, 11), w(37, 18), w(13, 32), w(-26, 3), w(-47, 31), w(42, 31), w(32, 65), w(45, 106), w(30, 150)],
    [w(7, 48), w(1, 14), w(34, 49), w(10, 23), w(29, 49), w(21, 19), w(21, 32), w(12, -27), w(62, 25), w(54, 84)],
    [w(22, -4), w(3, -3), w(26, 45), w(0, 7), w(29, 33), w(2, 19), w(32, -30), w(-3, 3), w(17, 19), w(-17, -19)],
    [w(71, 60), w(19, 29), w(-9, 50), w(-34, 27), w(97, 11), w(-27, 24), w(0, 46), w(-43, 19), w(0, 0), w(0, 0)],
];
/// Pawn mobility: `PAWN_PUSH[row][s]` is the value of a pawn on its side's
/// second to seventh rank (`row` 0-5) whose square ahead holds a piece
/// (`s` 0), is attacked by an enemy pawn (1), by another enemy piece (2) or
/// by none (3).
#[rustfmt::skip]
pub const PAWN_PUSH: [[Weight; 4]; 6] = [
    [w(-14, 22), w(2, 43), w(2, 31), w(-6, 39)],
    [w(-19, 30), w(-13, 41), w(-9, 28), w(-9, 40)],
    [w(-22, 29), w(-7, 40), w(-2, 35), w(-3, 48)],
    [w(-13, 28), w(8, 38), w(8, 57), w(-8, 100)],
    [w(5, -10), w(0, 0), w(39, 44), w(37, 130)],
    [w(1, 12), w(0, 0), w(105, 22), w(-78, 167)],
];
/// Two bishops against fewer.
pub const BISHOP_PAIR: Weight = w(19, 63);
/// Side to move bonus.
pub const TEMPO: i32 = 17;

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
