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
//! held-out 0.014756 -> 0.014414). Then the piece-square tables joined them:
//! every group but the material fitted together again, each piece-square
//! table keeping its mean (`--anchor`), on the two files and a third: 200,000
//! quiet positions of 4,776 games of the last two sessions' SPRTs (`mach
//! match` at 20,000 nodes and at 1+0.01, Mach against Mach), labelled the
//! same way, by the command below.
//!
//! Command: `mach tune /tmp/self-sf5k.epd /tmp/p300k-sf5k.epd /tmp/new200k-sf5k.epd --from-psqt --fit pst,mobility,pair,king-attack,checks,king-weak,targets,pawn-push,tempo --anchor --batch 4096 --epochs 100 --positions 900000 --seed 41 --out /tmp/pstj.rs`
//! Data: /tmp/self-sf5k.epd, /tmp/p300k-sf5k.epd, /tmp/new200k-sf5k.epd; 670596 quiet positions (603683 train, 66913 held out, labelled by ce), seed 41.
//! Fit: K = 0.004813, start psqt.rs (anchored: material and square-table means kept), fitted: pst, mobility, pair, king-attack, checks, king-weak, targets, pawn-push, tempo (the rest kept), Adam 100 epochs; loss train 0.014971 -> 0.014294, held-out 0.015000 -> 0.014420.

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
    [w(10, -63), w(20, 16), w(28, 37), w(35, 46), w(42, 58), w(45, 65), w(48, 65), w(54, 55), w(63, 30), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-9, -44), w(-5, -13), w(7, -3), w(13, 12), w(19, 20), w(24, 32), w(30, 33), w(33, 39), w(34, 42), w(32, 47), w(45, 37), w(39, 35), w(67, 10), w(-98, 16), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(3, 13), w(12, 44), w(19, 41), w(24, 50), w(27, 59), w(32, 60), w(39, 63), w(46, 67), w(57, 70), w(61, 74), w(66, 78), w(72, 80), w(75, 85), w(93, 69), w(146, 42), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-20, 83), w(-1, -7), w(-1, -4), w(0, -7), w(3, 4), w(3, 23), w(4, 44), w(7, 44), w(10, 49), w(11, 60), w(15, 66), w(19, 57), w(18, 68), w(20, 63), w(17, 72), w(25, 62), w(29, 63), w(34, 52), w(40, 37), w(47, 27), w(57, 24), w(88, 8), w(159, -61), w(206, -86), w(297, -123), w(460, -221), w(14, 28), w(320, -175)],
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
    [w(-131, -10), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-140, -6), w(-161, -7), w(-203, 18), w(-264, 33), w(-264, 33), w(-264, 33), w(-264, 33), w(-264, 33)],
    [w(0, 0), w(0, 0), w(-125, -1), w(-113, -21), w(-76, -43), w(39, -101), w(46, -76), w(-330, 74), w(-330, 74)],
    [w(0, 0), w(0, 0), w(0, 0), w(-130, 42), w(-100, 15), w(-150, 33), w(-77, 2), w(-91, 5), w(-88, 15)],
    [w(-20, -34), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-21, -17), w(-14, -7), w(-4, -24), w(77, -74), w(111, -78), w(111, -78), w(111, -78), w(111, -78)],
    [w(0, 0), w(0, 0), w(-13, 15), w(20, -5), w(45, -10), w(126, -41), w(180, -80), w(346, -171), w(210, -69)],
    [w(0, 0), w(0, 0), w(0, 0), w(22, 32), w(37, 93), w(92, 60), w(154, -46), w(126, 178), w(163, 94)],
];
/// Safe checks: `SAFE_CHECKS[piece][n]` is the value of a side whose
/// knights, bishops, rooks or queens reach `n` squares (at most 3 counted)
/// from which they would check the enemy king, squares neither occupied by
/// that side nor attacked by the enemy.
pub const SAFE_CHECKS_N: usize = 4;
#[rustfmt::skip]
pub const SAFE_CHECKS: [[Weight; SAFE_CHECKS_N]; 4] = [
    [w(-54, 6), w(32, -9), w(52, -14), w(52, -14)],
    [w(-6, -12), w(2, 12), w(41, -2), w(41, -2)],
    [w(-69, 12), w(32, -3), w(85, -8), w(227, -39)],
    [w(-23, -28), w(-6, 36), w(25, 27), w(107, -3)],
];
/// Weak squares of the enemy king's zone: `KING_WEAK[n]` is the value of a
/// side that attacks `n` squares of the zone (at most 7 counted) that the
/// enemy guards with no pawn, knight, bishop or rook.
pub const KING_WEAK_N: usize = 8;
#[rustfmt::skip]
pub const KING_WEAK: [Weight; KING_WEAK_N] = [w(-26, 12), w(-12, 1), w(8, -1), w(30, -2), w(63, -9), w(60, -1), w(49, 4), w(302, -80)];
/// Mobility onto enemy pieces: `TARGETS[piece][2 v + g]` is the value, for
/// each enemy pawn, knight, bishop, rook or queen (`v` 0-4) that a side's
/// pawns, knights, bishops, rooks, queens or king attack, of one the enemy
/// does not guard (`g` 0) or guards (`g` 1).
#[rustfmt::skip]
pub const TARGETS: [[Weight; 10]; 6] = [
    [w(9, -14), w(16, -25), w(57, 38), w(52, 57), w(30, 66), w(49, 78), w(87, 28), w(48, 47), w(50, -14), w(63, -15)],
    [w(1, 44), w(-11, 7), w(9, 0), w(3, 7), w(38, 14), w(31, 29), w(53, 15), w(52, 34), w(34, 10), w(27, 65)],
    [w(9, 46), w(-3, 15), w(38, 29), w(18, 34), w(-29, 13), w(-43, 12), w(63, 19), w(36, 63), w(49, 93), w(37, 138)],
    [w(6, 49), w(-3, 12), w(31, 54), w(10, 27), w(36, 41), w(19, 19), w(11, -13), w(8, -72), w(65, 25), w(61, 56)],
    [w(19, 3), w(-2, 1), w(26, 52), w(-2, 11), w(22, 44), w(-1, 23), w(34, -18), w(0, -2), w(14, 12), w(-14, -12)],
    [w(93, 49), w(29, 28), w(-10, 47), w(-31, 19), w(51, 26), w(-47, 25), w(32, 35), w(-18, 4), w(0, 0), w(0, 0)],
];
/// Pawn mobility: `PAWN_PUSH[row][s]` is the value of a pawn on its side's
/// second to seventh rank (`row` 0-5) whose square ahead holds a piece
/// (`s` 0), is attacked by an enemy pawn (1), by another enemy piece (2) or
/// by none (3).
#[rustfmt::skip]
pub const PAWN_PUSH: [[Weight; 4]; 6] = [
    [w(-8, 23), w(15, 43), w(15, 31), w(5, 41)],
    [w(-7, 31), w(1, 35), w(3, 25), w(2, 41)],
    [w(-11, 30), w(3, 35), w(8, 35), w(4, 51)],
    [w(-5, 26), w(20, 40), w(28, 51), w(6, 104)],
    [w(11, -4), w(0, 0), w(64, 27), w(43, 135)],
    [w(11, 11), w(0, 0), w(143, -4), w(-79, 180)],
];
/// Two bishops against fewer.
pub const BISHOP_PAIR: Weight = w(15, 71);
/// Side to move bonus.
pub const TEMPO: i32 = 18;

#[rustfmt::skip]
pub const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        114, 132,  61, 123,  42,  38,   2,  81,
        -22, -10,  40,  25,  42,  51,  52,   5,
        -15,  -1,  -5,   6,  22,  23,  22,  -2,
        -24, -10,  -3,   1,   1,   9,  16,  -9,
        -25,  -4, -13, -20,  -4,  13,  35,   4,
        -28,  -7, -18, -20,  -9,  20,  35, -10,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -129,  -44,  -36,  -32,    9, -210,  189, -253,
          -6,   -4,   15,   58,    7,   74,    1,  -33,
         -31,   16,   49,   56,   84,   57,   24,  -15,
           6,   15,   31,   58,   31,   48,   11,   29,
           2,    4,   20,   13,   23,   27,   34,    2,
          -9,    4,    3,    7,   19,   15,   20,    0,
         -24,  -18,  -13,   -1,   -2,  -14,  -15,  -25,
         -67,  -14,  -19,   -7,   -3,  -11,  -15,  -69,
    ],
    [ // bishop
         -33,   -4,  -34,  -73,  -42, -108, -122,  -30,
         -16,  -10,    5,   17,   34,   -6,  -24,  -55,
          -2,   10,   14,   39,   52,   79,   44,   -4,
          -7,   -1,   24,   36,   19,   29,   -2,   -2,
          23,    4,    7,   23,   19,    9,    3,   14,
          11,   35,   12,   18,   19,   23,   35,   23,
          12,   10,   27,    5,   11,   21,   21,   29,
          12,   34,    7,    2,   13,    2,   29,    3,
    ],
    [ // rook
          5, -15, -21,  21,  -4,  67,  71,  30,
          1,  -7,  17,  49,  33,  71,  10,  35,
         -8,  29,  26,  40,  92,  81,  56,   6,
        -15,  -5,   3,  33,  12,  23,  21,  11,
        -28, -14, -13,  -1,   3, -21,  13, -33,
        -24, -15, -16,  -5,   1, -13,  23,  11,
        -30, -26,  -5,   4,  -8, -10,  -7, -20,
        -20,  -5,  -5,   2,   7,  -5,  -3,  -4,
    ],
    [ // queen
         14, -18, -23, -44,  -1, 117,  52,  85,
        -31, -49, -36, -35, -47,  27,  34,  26,
        -17, -38, -24,   3,   9,   6,  22,  -6,
        -26,  -4, -17, -15, -10,  -8,   8,   2,
         -6, -16,  -2, -23,  -3,  -1,  19,  15,
          5,   6,  -5,  -9,  -3,  11,  36,  29,
        -11,   0,   7,  13,   8,  22,  18,  21,
         12,  -7,   3,   0,  10,   1,  15,  26,
    ],
    [ // king
        -360,  -62, -135, -121,   84,  197,  296,    7,
         106,  106,  130,  141,  207,   66,   14,  132,
        -187,   -9,  -59,  -30,   12, -230,  -29,   29,
          12,  -14, -104,  -77, -168,  -27,  -48,  -74,
         -38,  -53,   -5,  -79, -106,  -49,  -60, -100,
          -9,   28,  -12,  -44,  -39,  -26,   -3,  -55,
          -8,  -28,   -6,  -46,  -35,  -32,   18,    8,
         -17,   32,    1,  -48,   -7,  -39,   38,   18,
    ],
];

#[rustfmt::skip]
pub const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        144, 161, 176, 131, 167, 183, 206, 120,
        100,  97,  80,  71,  58,  60,  80,  59,
         33,  29,  13,   1,  -1,   1,  24,  12,
         17,  17,  -7, -10,  -7,  -6,   3,  -8,
         13,   3, -12,   4,   2,  -6,  -2, -16,
         17,  11,   8,  23,   6,   2,   1, -12,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -56, -12, -12, -22, -19,  18, -54, -12,
        -27, -11,   3, -11,  26, -50, -26,   1,
         -9, -12,   3,  11, -21, -11, -15, -12,
         -4,  -3,  19,  13,  25,   3,  -9, -15,
        -24,  -6,   8,  10,  13,   0,  -8, -22,
        -38, -26, -16,   1,  -4, -17, -36, -26,
        -56, -29, -34, -21, -17, -19, -23, -27,
        -39, -50, -27, -22, -24, -44, -40, -55,
    ],
    [ // bishop
          7,  10,   4,  27,  11,  31,  18,   4,
         19,   9,  10,   7,   0,   2, -13, -14,
          4,  22,  17,  -7,  -2,  -7, -14,   9,
          5,  18,   7,  16,  18,   4,   2,   7,
        -34,   9,   9,  17,  -1,  -1,  -2, -21,
         -6,  -2,   3, -13,  -1,  -3,  -5, -15,
        -18, -25, -32,  -7, -15, -28, -20, -44,
        -54, -47, -10, -16, -12, -10, -34, -63,
    ],
    [ // rook
         23,  32,  28,  33,  47,   1,   8,   9,
         24,  32,  28,   8,  19, -14,  25,  10,
         26,   6,  10,   4, -12, -12,   2,  15,
         19,  12,  16,   2,   1,   7,   3,   2,
          7,   4,   6,   4,  -8,   8,  -8,  -2,
         -9,  -6,  -6, -11, -11,  -1, -17, -26,
        -17,  -3, -16, -17, -17, -16, -20, -26,
        -10, -24, -12, -14, -22, -10, -26, -38,
    ],
    [ // queen
          -5,   25,   40,   45,    6,  -30,   -6,  -20,
          37,   60,   73,   87,   80,   43,   19,   40,
          26,   51,   70,   58,   66,   49,   23,   23,
          43,   27,   43,   57,   55,   54,   30,   31,
           1,   36,   20,   66,   15,   30,   -2,   -1,
          -8,   -7,    8,   14,    9,   17,  -38,  -33,
         -11,  -18,  -30,  -29,  -13,  -68, -110,  -72,
         -62,  -23,  -31,   -4,  -64,  -65,  -95,  -67,
    ],
    [ // king
         -7,  22,   0,   5,  -5,   5, -20, -36,
          8, -18,  -9,  -2,  -7,  43,  67, -10,
         44,  41,  34,  39,  29,  58,  36,  32,
         20,  32,  43,  29,  44,  31,  16,  29,
        -27,  15,  15,  32,  40,  25,   8,  -7,
        -39, -16,   1,  13,  17,  11,  -4, -25,
        -32, -12,  -5,   2,   1,   1, -24, -43,
        -75, -48, -20, -28, -44, -20, -52, -77,
    ],
];
