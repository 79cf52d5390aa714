//! Every search parameter, named and explained in one line.

/// Aspiration windows start at this depth; shallower iterations use a full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// First aspiration half-width around the previous score (cp); doubles on each fail.
pub const ASPIRATION_DELTA: i32 = 15;

/// Razoring: at most this deep, a non-PV node whose eval is far below alpha
/// asks the quiescence search, and fails low if that stays below alpha.
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// Razoring margin: BASE + PER_DEPTH2 * depth^2 below alpha (cp).
pub const RAZOR_BASE: i32 = 140;
/// Razoring margin per depth squared (cp).
pub const RAZOR_PER_DEPTH2: i32 = 80;

/// Reverse futility pruning: at most this deep, a static eval this far above beta cuts.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Reverse futility margin per ply of depth (cp).
pub const RFP_MARGIN: i32 = 75;

/// Null move pruning needs at least this depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move base reduction (plies).
pub const NMP_BASE_REDUCTION: i32 = 3;
/// One more ply of reduction per this much depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// One more ply of reduction per this much static eval above beta (at most 3).
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang care).
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Singular extensions are tried from this depth.
pub const SE_MIN_DEPTH: i32 = 7;
/// The TT entry must be at most this much shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular beta = TT score - MARGIN * depth: every other move must fail below it.
pub const SE_BETA_MARGIN: i32 = 2;

/// Internal iterative reduction: without a TT move, search one ply less from this depth.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move reductions start at this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// LMR base reduction: r = BASE + ln(depth) * ln(move number) / DIVISOR.
pub const LMR_BASE: f64 = 0.75;
/// LMR divisor (see above).
pub const LMR_DIVISOR: f64 = 2.25;
/// History score (butterfly plus the two continuation histories) worth one
/// ply less (or more) reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 12288;

/// Late move pruning: at most this deep, skip quiet moves after the first few.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Late move pruning: quiet moves searched = BASE + depth^2 (halved when not improving).
pub const LMP_BASE: i32 = 3;

/// Continuation-history pruning of quiet moves at most this deep.
pub const CONT_PRUNE_MAX_DEPTH: i32 = 3;
/// A quiet move whose continuation histories sum below -MARGIN * depth is skipped.
pub const CONT_PRUNE_MARGIN: i32 = 2048;

/// Futility pruning of quiet moves at most this deep.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility margin: BASE + PER_PLY * depth over alpha is needed to try a quiet move.
pub const FUTILITY_BASE: i32 = 80;
/// Futility margin per ply.
pub const FUTILITY_PER_PLY: i32 = 90;

/// SEE pruning at most this deep.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
/// Quiet moves losing more than this per ply of depth in exchanges are skipped.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// Captures losing more than this times depth^2 are skipped.
pub const SEE_CAPTURE_MARGIN: i32 = 20;

/// Quiescence delta pruning: a capture that cannot lift the score within this of alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// A late move whose reduced search beat alpha is searched again one ply
/// deeper when it beat the best score so far by this (cp) + 2 per ply.
pub const DEEPER_MARGIN: i32 = 40;
/// ... and one ply shallower when it beat the best score by less than this (cp).
pub const SHALLOWER_MARGIN: i32 = 10;

/// History bonus per ply of depth for the move that caused a cutoff (and
/// malus for the moves tried before it): linear in depth, as in Stockfish and
/// Ethereal, so shallow cutoffs still teach the tables something.
pub const HISTORY_BONUS_PER_PLY: i32 = 300;
/// Subtracted from the linear history bonus (a depth-1 cutoff earns 100).
pub const HISTORY_BONUS_OFFSET: i32 = 200;
/// Cap on the history bonus.
pub const HISTORY_BONUS_MAX: i32 = 2500;

/// Correction history: weight of the pawn table's entry (entries reach
/// ±1024; the weighted sum is in 1/131072 cp, so at most about 55 cp).
pub const CORR_PAWN_WEIGHT: i32 = 7000;
/// Correction history: weight of each side's piece-table entry.
pub const CORR_PIECE_WEIGHT: i32 = 7700;

/// Best move unchanged for this many iterations counts as stable.
pub const STABLE_ITERATIONS: u32 = 4;
/// Soft time scale when the best move is stable.
pub const STABLE_TIME_SCALE: f64 = 0.6;
/// Soft time scale right after the best move changed.
pub const UNSTABLE_TIME_SCALE: f64 = 1.6;
/// Soft time scale, on top of the above, when the best move is the one
/// strong grandmaster evidence trusts (`advice::Delivered::trusted`).
pub const TRUSTED_AGREE_TIME_SCALE: f64 = 0.5;
/// Soft time scale when the search prefers another move than the trusted one.
pub const TRUSTED_DISAGREE_TIME_SCALE: f64 = 1.4;

/// Tree advice (grandmaster moves inside the search tree) is looked up at
/// plies up to this one: deeper, the grandmasters' games rarely reach the
/// position, and every lookup costs a hash probe.
pub const TREE_ADVICE_MAX_PLY: usize = 8;

/// Experience (`advice::Experience`: Mach's own earlier searches) is looked
/// up at the root and at plies up to this one. The file holds positions
/// Mach searched at the root of a move, so it knows the positions of games
/// already played: those are met again within the first plies of a search.
pub const EXPERIENCE_MAX_PLY: usize = 6;

/// Plans (chunk advice, `advice::Plans`): centipawns for a piece standing on
/// a square its side's plan names (a knight on the outpost, a rook on the
/// file). Small: a hint that steers, not knowledge that overrides.
pub const PLAN_SQUARE: i32 = 8;

/// Plans: centipawns per attack (by a pawn, knight, bishop, rook or queen)
/// on a square its side's plan targets.
pub const PLAN_TARGET: i32 = 3;
