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
//! pawn or square an enemy pawn attacks) was added, and every group but the
//! material was fitted together again, the piece-square tables with them,
//! each keeping its mean (`--anchor`), on the two files and a third: 200,000
//! quiet positions of 4,776 games of the last two sessions' SPRTs (`mach
//! match` at 20,000 nodes and at 1+0.01, Mach against Mach), labelled the
//! same way, from the tables before, by the command below. (The same fit
//! without PAWN_PATH, held-out 0.014420, was kept one step before this one:
//! docs/tests.md.)
//!
//! Command: `mach tune /tmp/self-sf5k.epd /tmp/p300k-sf5k.epd /tmp/new200k-sf5k.epd --from-psqt --fit pst,mobility,pair,king-attack,checks,king-weak,targets,pawn-push,pawn-path,tempo --anchor --batch 4096 --epochs 100 --positions 900000 --seed 41 --out /tmp/pp-jointpst.rs`
//! Data: /tmp/self-sf5k.epd, /tmp/p300k-sf5k.epd, /tmp/new200k-sf5k.epd; 670596 quiet positions (603683 train, 66913 held out, labelled by ce), seed 41.
//! Fit: K = 0.004813, start psqt.rs (anchored: material and square-table means kept), fitted: pst, mobility, pair, king-attack, checks, king-weak, targets, pawn-push, pawn-path, tempo (the rest kept), Adam 100 epochs; loss train 0.014971 -> 0.014077, held-out 0.015000 -> 0.014230.

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
    [w(10, -64), w(20, 15), w(28, 38), w(34, 49), w(42, 61), w(44, 69), w(47, 69), w(53, 59), w(63, 34), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-8, -47), w(-5, -12), w(7, -1), w(13, 14), w(19, 23), w(24, 34), w(29, 36), w(32, 42), w(33, 46), w(32, 52), w(45, 43), w(38, 41), w(69, 16), w(-101, 22), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(2, 10), w(12, 46), w(19, 44), w(24, 53), w(27, 61), w(32, 62), w(40, 64), w(47, 68), w(57, 72), w(61, 76), w(65, 82), w(71, 84), w(73, 90), w(91, 74), w(143, 46), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(-19, 93), w(1, -31), w(1, -17), w(0, -12), w(3, 3), w(2, 22), w(3, 46), w(7, 45), w(10, 52), w(11, 62), w(15, 67), w(18, 59), w(18, 68), w(19, 65), w(17, 73), w(24, 63), w(28, 65), w(34, 54), w(41, 38), w(47, 31), w(58, 27), w(88, 10), w(161, -58), w(210, -84), w(299, -119), w(460, -218), w(14, 28), w(327, -171)],
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
    [w(-131, -12), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-140, -10), w(-162, -9), w(-206, 18), w(-257, 32), w(-257, 32), w(-257, 32), w(-257, 32), w(-257, 32)],
    [w(0, 0), w(0, 0), w(-122, -7), w(-115, -22), w(-80, -44), w(37, -102), w(42, -75), w(-333, 80), w(-333, 80)],
    [w(0, 0), w(0, 0), w(0, 0), w(-136, 44), w(-98, 9), w(-161, 41), w(-71, -7), w(-105, 15), w(-98, 23)],
    [w(-20, -31), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(-21, -15), w(-14, -4), w(-4, -21), w(78, -71), w(110, -75), w(110, -75), w(110, -75), w(110, -75)],
    [w(0, 0), w(0, 0), w(-13, 16), w(19, -2), w(44, -6), w(126, -38), w(180, -76), w(355, -180), w(207, -51)],
    [w(0, 0), w(0, 0), w(0, 0), w(23, 32), w(37, 95), w(93, 57), w(151, -42), w(128, 170), w(165, 98)],
];
/// Safe checks: `SAFE_CHECKS[piece][n]` is the value of a side whose
/// knights, bishops, rooks or queens reach `n` squares (at most 3 counted)
/// from which they would check the enemy king, squares neither occupied by
/// that side nor attacked by the enemy.
pub const SAFE_CHECKS_N: usize = 4;
#[rustfmt::skip]
pub const SAFE_CHECKS: [[Weight; SAFE_CHECKS_N]; 4] = [
    [w(-52, 9), w(33, -5), w(52, -11), w(52, -11)],
    [w(-6, -11), w(2, 12), w(44, -4), w(44, -4)],
    [w(-69, 12), w(31, -3), w(88, -10), w(229, -41)],
    [w(-23, -28), w(-6, 36), w(25, 27), w(107, -3)],
];
/// Weak squares of the enemy king's zone: `KING_WEAK[n]` is the value of a
/// side that attacks `n` squares of the zone (at most 7 counted) that the
/// enemy guards with no pawn, knight, bishop or rook.
pub const KING_WEAK_N: usize = 8;
#[rustfmt::skip]
pub const KING_WEAK: [Weight; KING_WEAK_N] = [w(-28, 14), w(-13, 3), w(8, 0), w(31, -3), w(67, -12), w(70, -6), w(50, 2), w(333, -93)];
/// Mobility onto enemy pieces: `TARGETS[piece][2 v + g]` is the value, for
/// each enemy pawn, knight, bishop, rook or queen (`v` 0-4) that a side's
/// pawns, knights, bishops, rooks, queens or king attack, of one the enemy
/// does not guard (`g` 0) or guards (`g` 1).
#[rustfmt::skip]
pub const TARGETS: [[Weight; 10]; 6] = [
    [w(10, -14), w(17, -18), w(55, 29), w(49, 54), w(29, 58), w(47, 79), w(83, 25), w(48, 45), w(49, -21), w(61, -16)],
    [w(2, 44), w(-11, 7), w(7, 1), w(0, 7), w(38, 14), w(31, 30), w(53, 15), w(52, 35), w(36, 7), w(28, 65)],
    [w(9, 45), w(-3, 15), w(39, 28), w(18, 36), w(-31, 14), w(-44, 14), w(64, 20), w(36, 63), w(49, 96), w(36, 142)],
    [w(6, 51), w(-3, 15), w(33, 54), w(9, 29), w(36, 41), w(19, 21), w(10, -8), w(6, -64), w(66, 24), w(62, 56)],
    [w(18, 3), w(-2, 3), w(25, 53), w(-2, 11), w(23, 40), w(-1, 24), w(33, -17), w(0, -2), w(14, 11), w(-14, -11)],
    [w(110, 54), w(42, 33), w(-10, 46), w(-29, 19), w(50, 26), w(-49, 27), w(35, 34), w(-16, 6), w(0, 0), w(0, 0)],
];
/// Pawn mobility: `PAWN_PUSH[row][s]` is the value of a pawn on its side's
/// second to seventh rank (`row` 0-5) whose square ahead holds a piece
/// (`s` 0), is attacked by an enemy pawn (1), by another enemy piece (2) or
/// by none (3).
#[rustfmt::skip]
pub const PAWN_PUSH: [[Weight; 4]; 6] = [
    [w(-11, 16), w(17, 59), w(12, 17), w(1, 27)],
    [w(-13, 22), w(0, 47), w(-6, 15), w(-7, 30)],
    [w(-14, 27), w(0, 51), w(2, 23), w(-2, 40)],
    [w(-7, 30), w(20, 69), w(15, 21), w(-3, 75)],
    [w(23, 7), w(0, 0), w(42, 8), w(15, 115)],
    [w(4, 13), w(0, 0), w(131, -1), w(-92, 183)],
];
/// Pawn mobility by count: `PAWN_PATH[row][n]` is the value of a pawn on its
/// side's second to seventh rank (`row` 0-5) that could walk `n` squares up
/// its file, each holding no pawn and attacked by no enemy pawn (pieces
/// looked through); `n` = 6 - `row` is a pawn no enemy pawn can stop.
#[rustfmt::skip]
pub const PAWN_PATH: [[Weight; 7]; 6] = [
    [w(-2, -36), w(3, 2), w(8, 2), w(12, 2), w(18, 9), w(0, 0), w(-2, 12)],
    [w(2, -24), w(14, -3), w(13, 1), w(21, 7), w(0, 0), w(-4, 14), w(0, 0)],
    [w(2, -29), w(7, -11), w(15, -2), w(0, 0), w(1, 27), w(0, 0), w(0, 0)],
    [w(-3, -43), w(12, -25), w(0, 0), w(16, 36), w(0, 0), w(0, 0), w(0, 0)],
    [w(-33, -78), w(0, 0), w(33, 25), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
    [w(0, 0), w(14, -2), w(0, 0), w(0, 0), w(0, 0), w(0, 0), w(0, 0)],
];
/// Two bishops against fewer.
pub const BISHOP_PAIR: Weight = w(16, 70);
/// Side to move bonus.
pub const TEMPO: i32 = 18;

#[rustfmt::skip]
pub const MG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        111, 130,  56, 115,  33,  42,   8,  85,
        -11,  -2,  32,   7,  27,  67,  54,  14,
        -15,  -1,  -4,  10,  23,  25,  19,  -5,
        -22, -12,  -2,   4,   2,  11,  13, -11,
        -24,  -6, -11, -17,  -3,  16,  32,   0,
        -26,  -8, -15, -16,  -7,  23,  34, -13,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -121,  -48,  -46,  -31,   11, -198,  199, -257,
          -5,   -6,   15,   65,    8,   73,    6,  -31,
         -29,   15,   47,   56,   85,   53,   23,  -12,
           6,   14,   30,   54,   29,   47,   11,   30,
           0,    4,   18,   11,   22,   27,   33,    1,
         -11,    2,    3,    8,   19,   14,   19,   -2,
         -25,  -18,  -14,   -1,   -1,  -14,  -17,  -26,
         -69,  -13,  -19,   -7,   -3,  -11,  -15,  -64,
    ],
    [ // bishop
         -33,    0,  -36,  -73,  -41, -108, -112,  -30,
         -17,  -12,    4,   13,   35,   -6,  -25,  -56,
          -1,    8,   13,   37,   49,   77,   48,   -3,
          -7,    0,   23,   35,   18,   28,   -1,   -1,
          23,    3,    8,   23,   19,    9,    3,   14,
          11,   36,   12,   19,   19,   22,   34,   21,
          13,    9,   28,    5,   12,   21,   21,   29,
          11,   34,    7,    3,   12,    2,   29,    3,
    ],
    [ // rook
          4, -14, -21,  23,  -4,  66,  65,  28,
          2,  -5,  19,  49,  33,  69,  10,  36,
         -8,  27,  26,  39,  90,  77,  55,  11,
        -13,  -6,   3,  30,  11,  25,  24,  16,
        -27, -13, -12,  -3,   2, -19,  15, -33,
        -24, -15, -16,  -4,   0, -12,  21,  10,
        -30, -25,  -5,   4,  -7,  -9,  -6, -21,
        -20,  -5,  -5,   2,   7,  -6,  -2,  -5,
    ],
    [ // queen
         12, -21, -25, -49,   1, 123,  57,  85,
        -28, -51, -36, -36, -48,  28,  32,  28,
        -16, -39, -25,   2,   7,   4,  24,  -5,
        -25,  -3, -16, -18, -10,  -6,   9,   3,
         -6, -17,  -1, -23,  -2,   0,  19,  15,
          5,   5,  -5,  -9,  -2,  11,  36,  28,
        -11,  -1,   7,  12,   8,  22,  18,  22,
         12,  -7,   3,   0,  10,   1,  15,  24,
    ],
    [ // king
        -352,  -62, -136, -114,   90,  197,  319,   -6,
         101,   96,  124,  143,  191,   50,   12,  139,
        -167,   -1,  -55,  -34,   18, -235,  -31,   31,
          22,  -15, -102,  -67, -169,  -14,  -52,  -79,
         -47,  -50,   -7,  -81, -110,  -54,  -58, -100,
         -15,   25,  -12,  -44,  -40,  -28,   -6,  -58,
          -6,  -28,   -8,  -46,  -35,  -31,   17,    8,
         -17,   31,    0,  -47,   -7,  -40,   38,   18,
    ],
];

#[rustfmt::skip]
pub const EG_PST: [[i32; 64]; 6] = [
    [ // pawn
          0,   0,   0,   0,   0,   0,   0,   0,
        148, 165, 181, 139, 173, 187, 208, 126,
         95,  97,  73,  61,  50,  65,  80,  59,
         31,  28,  12,  -6,   0,   5,  26,  12,
         13,  17,  -3, -10,  -2,  -1,   7,  -6,
          7,   2, -10,  -1,   3,  -1,  -2, -17,
         11,   8,   6,  11,   3,   3,   0, -13,
          0,   0,   0,   0,   0,   0,   0,   0,
    ],
    [ // knight
        -61, -14,  -4, -20, -19,  17, -53,  -4,
        -24, -11,   2, -15,  25, -51, -25,   2,
        -13, -14,   2,   8, -26, -13, -18, -17,
         -6,  -7,  14,  13,  21,  -2, -15, -18,
        -22,  -7,   8,  10,  13,  -1, -10, -23,
        -35, -25, -16,   4,  -4, -22, -38, -24,
        -47, -21, -32, -18, -16, -19, -20, -20,
        -41, -50, -25, -19, -23, -42, -37, -46,
    ],
    [ // bishop
          6,  10,   5,  25,  11,  32,  19,   6,
         23,   7,  11,   8,  -1,   1, -14, -13,
          4,  19,  15,  -7,  -4, -12, -21,   9,
          3,  15,   4,  16,  14,   0,  -3,   7,
        -31,   9,   9,  15,  -1,  -2,  -4, -20,
         -3,  -2,   5, -11,   0,  -5,  -8, -11,
        -11, -22, -30,  -5, -14, -26, -21, -42,
        -53, -44,  -8, -14, -10,  -8, -34, -60,
    ],
    [ // rook
         25,  33,  28,  33,  47,   2,  11,  13,
         23,  30,  26,   6,  16, -13,  25,  10,
         24,   3,   8,   2, -16, -12,   0,  12,
         16,  10,  13,  -2,  -1,   2,  -2,  -2,
          8,   4,   6,   5,  -7,   7,  -7,   0,
         -6,  -6,  -3,  -9,  -8,  -3, -16, -24,
         -9,  -2, -13, -15, -15, -14, -20, -21,
        -10, -23, -11, -14, -22,  -8, -24, -37,
    ],
    [ // queen
          -2,   27,   41,   49,    7,  -34,   -4,  -16,
          35,   63,   71,   86,   79,   41,   22,   40,
          25,   45,   67,   55,   67,   46,   21,   23,
          41,   25,   39,   55,   52,   50,   25,   29,
           3,   36,   20,   64,   13,   28,   -5,   -4,
          -9,   -6,   12,   19,   10,   13,  -43,  -35,
          -8,  -15,  -27,  -26,  -11,  -63, -110,  -69,
         -60,  -20,  -30,   -4,  -62,  -65,  -93,  -61,
    ],
    [ // king
         -8,  23,   3,   3,  -6,   5, -25, -35,
          3, -19,  -9,  -3,  -7,  40,  61, -18,
         35,  37,  32,  38,  24,  52,  30,  24,
         15,  29,  41,  25,  42,  24,   9,  22,
        -22,  14,  16,  34,  41,  26,   7,  -7,
        -31, -12,   5,  17,  21,  14,  -2, -20,
        -27,  -7,  -1,   6,   5,   5, -19, -39,
        -74, -43, -15, -24, -41, -15, -49, -74,
    ],
];
