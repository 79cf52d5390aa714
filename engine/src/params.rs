//! Every search parameter, named and explained in one line.
//!
//! The tunable ones are rows of the `tunables!` table below: name = default
//! in min..=max, step c_end (the SPSA perturbation at the end of a run,
//! `mach spsa`). Each is read through a function of its name, `RFP_MARGIN()`:
//! in a normal build a `const fn` that returns the default, so the search is
//! as fast as with a constant; with the cargo feature `spsa` it reads an
//! atomic that `set` changes (the UCI option of the same name). The others
//! (times, plies of advice, plans) are plain constants at the end.
//! `source` writes this file back with other values in the rows.

/// One tunable parameter as `mach spsa` and the UCI layer see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The SPSA perturbation at the end of a run (OpenBench's c_end).
    pub step: f64,
}

/// Makes each row a function of its name, and the list `TUNABLES`.
macro_rules! tunables {
    ($(
        $(#[$attr:meta])*
        $name:ident = $default:literal in $min:literal..=$max:literal, step $step:literal;
    )*) => {
        $(
            $(#[$attr])*
            #[cfg(not(feature = "spsa"))]
            #[allow(non_snake_case)]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[$attr])*
            #[cfg(feature = "spsa")]
            #[allow(non_snake_case)]
            #[inline(always)]
            pub fn $name() -> i32 {
                values::$name.load(std::sync::atomic::Ordering::Relaxed)
            }
        )*

        /// The values in play (feature `spsa`): one atomic per parameter.
        #[cfg(feature = "spsa")]
        mod values {
            $(
                pub static $name: std::sync::atomic::AtomicI32 =
                    std::sync::atomic::AtomicI32::new($default);
            )*
        }

        /// Every tunable parameter, in the order of this file.
        pub const TUNABLES: &[Tunable] = &[$(
            Tunable {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step as f64,
            },
        )*];

        /// The atomic of the parameter named `name` (exactly as in the table).
        #[cfg(feature = "spsa")]
        fn slot(name: &str) -> Option<&'static std::sync::atomic::AtomicI32> {
            $(
                if name == stringify!($name) {
                    return Some(&values::$name);
                }
            )*
            None
        }
    };
}

tunables! {
    /// Aspiration windows start at this depth; shallower iterations use a full window.
    ASPIRATION_MIN_DEPTH = 5 in 1..=10, step 1;
    /// First aspiration half-width around the previous score (cp).
    ASPIRATION_DELTA = 14 in 5..=50, step 3;
    /// Each fail widens the half-width by this percentage (Ethereal's 50).
    ASPIRATION_GROWTH = 50 in 25..=150, step 10;
    /// Each fail high of an aspiration window searches the next window one ply
    /// shallower, at most this many plies below the iteration's depth.
    ASPIRATION_FAIL_HIGH_MAX = 3 in 0..=6, step 1;

    /// Razoring: at most this deep, a non-PV node whose eval is far below alpha
    /// asks the quiescence search, and fails low if that stays below alpha.
    RAZOR_MAX_DEPTH = 3 in 1..=6, step 1;
    /// Razoring margin: BASE + PER_DEPTH2 * depth^2 below alpha (cp).
    RAZOR_BASE = 140 in 0..=400, step 20;
    /// Razoring margin per depth squared (cp).
    RAZOR_PER_DEPTH2 = 80 in 0..=300, step 10;

    /// Reverse futility pruning: at most this deep, a static eval this far above beta cuts.
    RFP_MAX_DEPTH = 8 in 3..=14, step 1;
    /// Reverse futility margin per ply of depth (cp).
    RFP_MARGIN = 75 in 30..=150, step 8;

    /// Null move pruning needs at least this depth.
    NMP_MIN_DEPTH = 3 in 1..=6, step 1;
    /// Null move base reduction (plies).
    NMP_BASE_REDUCTION = 3 in 1..=6, step 1;
    /// One more ply of reduction per this much depth.
    NMP_DEPTH_DIVISOR = 4 in 2..=8, step 1;
    /// One more ply of reduction per this much static eval above beta (at most 3).
    NMP_EVAL_DIVISOR = 200 in 80..=400, step 20;
    /// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang care).
    NMP_VERIFY_DEPTH = 12 in 6..=20, step 1;

    /// Singular extensions are tried from this depth.
    SE_MIN_DEPTH = 7 in 4..=12, step 1;
    /// The TT entry must be at most this much shallower than the node.
    SE_TT_DEPTH_MARGIN = 3 in 1..=6, step 1;
    /// Singular beta = TT score - MARGIN * depth: every other move must fail below it.
    SE_BETA_MARGIN = 2 in 1..=8, step 1;
    /// Double extension: two plies when every other move fails this much
    /// (cp) below the singular beta, at a non-PV node ...
    DOUBLE_EXT_MARGIN = 20 in 0..=100, step 5;
    /// ... at most this many times on one path from the root (0: never).
    /// 6 passed its SPRT at 1+0.01: +7.5 ± 6.1 Elo over 6,906 games in
    /// three runs (docs/tests.md).
    DOUBLE_EXT_MAX = 6 in 0..=16, step 1;

    /// Internal iterative reduction: without a TT move, search one ply less from this depth.
    IIR_MIN_DEPTH = 4 in 2..=8, step 1;

    /// Late move reductions start at this depth.
    LMR_MIN_DEPTH = 3 in 1..=6, step 1;
    /// LMR base reduction in hundredths of a ply: r = BASE + ln(depth) * ln(move number) / DIVISOR.
    LMR_BASE = 75 in 0..=200, step 10;
    /// LMR divisor in hundredths (see above).
    LMR_DIVISOR = 225 in 120..=400, step 15;
    /// History score (butterfly plus the two continuation histories) worth one
    /// ply less (or more) reduction.
    LMR_HISTORY_DIVISOR = 12288 in 4096..=32768, step 1024;

    /// Late move pruning: at most this deep, skip quiet moves after the first few.
    LMP_MAX_DEPTH = 8 in 3..=14, step 1;
    /// Late move pruning: quiet moves searched = BASE + depth^2 (halved when not improving).
    LMP_BASE = 3 in 1..=10, step 1;

    /// Continuation-history pruning of quiet moves at most this deep (one
    /// ply less while improving).
    CONT_PRUNE_MAX_DEPTH = 3 in 1..=6, step 1;
    /// A quiet move whose history after the last move is below this is skipped.
    CONT_ONE_LIMIT = 0 in -4000..=2000, step 250;
    /// The same while the static eval is improving.
    CONT_ONE_LIMIT_IMPROVING = -1000 in -6000..=1000, step 250;
    /// A quiet move whose history after the move before the last is below this is skipped.
    CONT_TWO_LIMIT = -2000 in -8000..=0, step 250;
    /// The same while the static eval is improving.
    CONT_TWO_LIMIT_IMPROVING = -4000 in -10000..=0, step 250;

    /// Futility pruning of quiet moves at most this deep.
    FUTILITY_MAX_DEPTH = 6 in 2..=10, step 1;
    /// Futility margin: BASE + PER_PLY * depth over alpha is needed to try a quiet move.
    FUTILITY_BASE = 80 in 0..=250, step 15;
    /// Futility margin per ply.
    FUTILITY_PER_PLY = 90 in 30..=200, step 10;

    /// SEE pruning at most this deep.
    SEE_PRUNE_MAX_DEPTH = 8 in 3..=14, step 1;
    /// Quiet moves losing more than this per ply of depth in exchanges are skipped.
    SEE_QUIET_MARGIN = 60 in 10..=150, step 8;
    /// Captures losing more than this times depth^2 are skipped.
    SEE_CAPTURE_MARGIN = 20 in 5..=60, step 3;

    /// Quiescence delta pruning: a capture that cannot lift the score within this of alpha is skipped.
    DELTA_MARGIN = 200 in 50..=500, step 25;

    /// A late move whose reduced search beat alpha is searched again one ply
    /// deeper when it beat the best score so far by this (cp) + 2 per ply.
    DEEPER_MARGIN = 40 in 10..=100, step 5;
    /// ... and one ply shallower when it beat the best score by less than this (cp).
    SHALLOWER_MARGIN = 10 in 0..=40, step 3;

    /// History bonus per ply of depth for the move that caused a cutoff (and
    /// malus for the moves tried before it): linear in depth, as in Stockfish and
    /// Ethereal, so shallow cutoffs still teach the tables something.
    HISTORY_BONUS_PER_PLY = 300 in 100..=600, step 30;
    /// Subtracted from the linear history bonus (a depth-1 cutoff earns 100).
    HISTORY_BONUS_OFFSET = 200 in 0..=500, step 30;
    /// Cap on the history bonus.
    HISTORY_BONUS_MAX = 2500 in 1000..=5000, step 200;

    /// Correction history: weight of the pawn table's entry (entries reach
    /// ±1024; the weighted sum is in 1/131072 cp, so at most about 55 cp).
    CORR_PAWN_WEIGHT = 7000 in 2000..=14000, step 500;
    /// Correction history: weight of each side's piece-table entry.
    CORR_PIECE_WEIGHT = 7700 in 2000..=14000, step 500;
}

/// Counts the changes made by `set`, so that tables built from parameters
/// (the LMR table) know when to build themselves again.
#[cfg(feature = "spsa")]
static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many times `set` changed a parameter (feature `spsa`).
#[cfg(feature = "spsa")]
pub fn generation() -> u64 {
    GENERATION.load(std::sync::atomic::Ordering::Relaxed)
}

/// The tunable parameter named `name` (case-insensitive).
pub fn tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
}

/// Sets a tunable parameter (feature `spsa`; the UCI option of its name).
/// Called between searches: a search under way may see either value.
#[cfg(feature = "spsa")]
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let t = tunable(name).ok_or_else(|| format!("no search parameter '{name}'"))?;
    if !(t.min..=t.max).contains(&value) {
        return Err(format!(
            "{} {value} is out of range {}..{}",
            t.name, t.min, t.max
        ));
    }
    let slot = slot(t.name).ok_or_else(|| format!("no value for '{}'", t.name))?;
    slot.store(value, std::sync::atomic::Ordering::Relaxed);
    GENERATION.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// This file's text, as it was built.
pub const SOURCE: &str = include_str!("params.rs");

/// This file with the given values in the rows of the named parameters
/// (every other line as it is): how `mach spsa` writes its result.
pub fn source(values: &[(&str, i32)]) -> String {
    let mut out = String::with_capacity(SOURCE.len());
    for line in SOURCE.split_inclusive('\n') {
        let row = line.trim_start();
        let indent = &line[..line.len() - row.len()];
        let changed = values.iter().find_map(|(name, value)| {
            let rest = row.strip_prefix(*name)?.strip_prefix(" = ")?;
            let (_, tail) = rest.split_once(" in ")?;
            Some(format!("{indent}{name} = {value} in {tail}"))
        });
        match changed {
            Some(l) => out.push_str(&l),
            None => out.push_str(line),
        }
    }
    out
}

/// The three readings below scale the soft limit from this depth on; before
/// it the scale is 1.
pub const TIME_READINGS_MIN_DEPTH: i32 = 4;
/// The soft limit's scale by the best move's stability:
/// `STABILITY_SCALE_START - STABILITY_SCALE_STEP * n` after the best move
/// held for `n` iterations, counted up to `STABILITY_MAX_ITERATIONS`
/// (1.2 when it just changed, 0.8 once it held ten).
pub const STABILITY_SCALE_START: f64 = 1.2;
pub const STABILITY_SCALE_STEP: f64 = 0.04;
pub const STABILITY_MAX_ITERATIONS: u32 = 10;
/// The soft limit's scale by the score's trend: how far the best score fell
/// over the last `SCORE_DROP_ITERATIONS` iterations times
/// `SCORE_DROP_SCALE_PER_CP`, kept between the minimum (a score that held
/// or rose) and the maximum (a fall of 25 cp or more).
pub const SCORE_DROP_ITERATIONS: usize = 3;
pub const SCORE_DROP_SCALE_PER_CP: f64 = 0.05;
pub const SCORE_DROP_SCALE_MIN: f64 = 0.75;
pub const SCORE_DROP_SCALE_MAX: f64 = 1.25;
/// The soft limit's scale by where the nodes went:
/// `NODE_SHARE_SCALE_BASE + NODE_SHARE_SCALE_PER_OTHER * (1 - share)`, at
/// least `NODE_SHARE_SCALE_MIN`, `share` being the part of the search's
/// nodes spent below the best move (0.6 when it took 90%, 1.4 at half).
pub const NODE_SHARE_SCALE_BASE: f64 = 0.4;
pub const NODE_SHARE_SCALE_PER_OTHER: f64 = 2.0;
pub const NODE_SHARE_SCALE_MIN: f64 = 0.5;
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

/// An experience record of the root at least this many plies deeper than
/// the search reached decides the move (`iterative.rs`,
/// `deeper_experience`): an analysis or a longer game's search saw further
/// than this one. Two plies, so that a record of about the search's own
/// depth (another game's search of the same length, with its noise) does
/// not overrule it.
pub const EXPERIENCE_ROOT_MARGIN: i32 = 2;

/// Plans (chunk advice, `advice::Plans`): centipawns for a piece standing on
/// a square its side's plan names (a knight on the outpost, a rook on the
/// file). Small: a hint that steers, not knowledge that overrides. A plain
/// constant: plans are off unless `AdvisorPlans`, so a tune would see noise.
pub const PLAN_SQUARE: i32 = 8;

/// Plans: centipawns per attack (by a pawn, knight, bishop, rook or queen)
/// on a square its side's plan targets.
pub const PLAN_TARGET: i32 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    // With the feature off the parameters are constants: this only compiles
    // if `RFP_MARGIN()` can be evaluated at compile time.
    #[cfg(not(feature = "spsa"))]
    const _RFP_MARGIN_IS_A_CONSTANT: i32 = RFP_MARGIN();

    #[test]
    fn the_source_writer_gives_back_this_file_byte_for_byte_from_the_defaults() {
        let defaults: Vec<(&str, i32)> = TUNABLES.iter().map(|t| (t.name, t.default)).collect();
        assert_eq!(source(&defaults), SOURCE);
        assert_eq!(source(&[]), SOURCE);
    }

    #[test]
    fn the_source_writer_changes_only_the_rows_it_is_given() {
        let out = source(&[("ASPIRATION_DELTA", 17), ("LMR_BASE", 80)]);
        let old: Vec<&str> = SOURCE.lines().collect();
        let new: Vec<&str> = out.lines().collect();
        assert_eq!(old.len(), new.len());
        let changed: Vec<&str> = old
            .iter()
            .zip(&new)
            .filter(|(a, b)| a != b)
            .map(|(_, b)| b.trim())
            .collect();
        assert_eq!(
            changed,
            [
                "ASPIRATION_DELTA = 17 in 5..=50, step 3;",
                "LMR_BASE = 80 in 0..=200, step 10;"
            ]
        );
    }

    #[test]
    fn every_tunable_has_a_sane_range_and_a_name_of_its_own() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}", t.name);
            assert!(t.step > 0.0, "{}", t.name);
            assert!(
                TUNABLES[..i].iter().all(|u| u.name != t.name),
                "{} twice",
                t.name
            );
            assert_eq!(tunable(&t.name.to_lowercase()), Some(t));
        }
        // The divisors are never zero.
        let divisors = [
            "NMP_DEPTH_DIVISOR",
            "NMP_EVAL_DIVISOR",
            "LMR_DIVISOR",
            "LMR_HISTORY_DIVISOR",
        ];
        for name in divisors {
            assert!(tunable(name).unwrap().min > 0, "{name}");
        }
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn set_refuses_unknown_names_and_values_out_of_range() {
        assert!(set("NO_SUCH_PARAMETER", 1).is_err());
        let t = tunable("RFP_MARGIN").unwrap();
        assert!(set("RFP_MARGIN", t.max + 1).is_err());
        // The default again: other tests in this process search meanwhile.
        assert!(set("rfp_margin", t.default).is_ok());
        assert_eq!(RFP_MARGIN(), t.default);
    }
}
