//! `mach chunks pawns`: the library's chunks made only of pawns, compiled
//! into the engine's bitboard tests (`engine/src/pawn_chunk_patterns.rs`),
//! so the evaluation can weigh them without knowing the chunk language.

use std::fmt::Write;

use mach_advisor::chunks::ast::Cmp as ChunkCmp;
use mach_advisor::chunks::compile::{CExpr, Sel};
use mach_advisor::chunks::Library;
use mach_engine::pawn_pattern::{Cmp, Guard, Op, Side, MAX_STACK};
use shakmaty::{Color, Role};

/// One instance made of pawns, as the engine will hold it.
#[derive(Clone, Debug, PartialEq)]
pub struct Compiled {
    pub name: String,
    pub feature: usize,
    pub side: Side,
    /// Tests that must all hold, the cheapest first.
    pub parts: Vec<Vec<Op>>,
    /// Index of the instance in the library.
    pub instance: usize,
}

/// The pawn-only instances of `lib` and the feature names (an instance's
/// name without its side and wing: `passed_pawn_d(5)`), in library order.
pub fn compile(lib: &Library) -> (Vec<Compiled>, Vec<String>) {
    let mut pattern_of = vec![None; lib.instances.len()];
    let mut out: Vec<Compiled> = Vec::new();
    let mut features: Vec<String> = Vec::new();
    for (k, inst) in lib.instances.iter().enumerate() {
        let mut parts = Vec::new();
        let made_of_pawns = inst
            .require
            .iter()
            .all(|e| split(e, &pattern_of, &mut parts).is_some());
        if !made_of_pawns || parts.iter().any(|p| depth(p) > MAX_STACK) {
            continue;
        }
        // Single tests first: most patterns fail at their first, cheaply.
        parts.sort_by_key(Vec::len);
        let base = inst
            .name
            .split('.')
            .next()
            .unwrap_or(&inst.name)
            .to_string();
        let feature = match features.iter().position(|f| *f == base) {
            Some(f) => f,
            None => {
                features.push(base);
                features.len() - 1
            }
        };
        pattern_of[k] = Some(out.len());
        out.push(Compiled {
            name: inst.name.clone(),
            feature,
            side: side(inst.side),
            parts,
            instance: k,
        });
    }
    (out, features)
}

fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn pawns_of(sel: Sel) -> Option<Side> {
    (sel.role == Some(Role::Pawn)).then(|| side(sel.color))
}

/// Appends the tests that must all hold for `e` to `parts` (an `And`'s
/// parts, each group of an `on`, else `e` whole); `None` when `e` reads
/// anything but pawns.
fn split(e: &CExpr, pattern_of: &[Option<usize>], parts: &mut Vec<Vec<Op>>) -> Option<()> {
    match e {
        CExpr::And(v) => {
            for x in v {
                split(x, pattern_of, parts)?;
            }
        }
        CExpr::On { groups, none, .. } if !*none && groups.len() > 1 => {
            let mut ops = Vec::new();
            push(e, pattern_of, &mut ops)?;
            // `push` wrote one test per group, then `And(n)`.
            ops.pop();
            parts.extend(ops.into_iter().map(|op| vec![op]));
        }
        _ => {
            let mut ops = Vec::new();
            push(e, pattern_of, &mut ops)?;
            parts.push(ops);
        }
    }
    Some(())
}

/// Appends the postfix test of `e`; `None` when `e` reads anything but pawns.
fn push(e: &CExpr, pattern_of: &[Option<usize>], ops: &mut Vec<Op>) -> Option<()> {
    match e {
        CExpr::And(v) | CExpr::Or(v) => {
            for x in v {
                push(x, pattern_of, ops)?;
            }
            let n = u8::try_from(v.len()).ok()?;
            ops.push(if matches!(e, CExpr::And(_)) {
                Op::And(n)
            } else {
                Op::Or(n)
            });
        }
        CExpr::Not(x) => {
            push(x, pattern_of, ops)?;
            ops.push(Op::Not);
        }
        CExpr::On {
            sel,
            groups,
            none,
            relations,
        } => {
            let s = pawns_of(*sel)?;
            if *none {
                let squares = groups.iter().fold(0, |a, g| a | g.0);
                ops.push(Op::NoPawn { side: s, squares });
                return Some(());
            }
            let mut guard = Guard::ANY;
            for (by, must) in relations {
                let slot = match pawns_of(*by)? {
                    Side::White => &mut guard.by_white,
                    Side::Black => &mut guard.by_black,
                };
                if slot.is_some_and(|m| m != *must) {
                    return None; // both guarded and not: not a test of ours
                }
                *slot = Some(*must);
            }
            for g in groups {
                ops.push(Op::Pawn {
                    side: s,
                    squares: g.0,
                    guard,
                });
            }
            if groups.len() != 1 {
                ops.push(Op::And(u8::try_from(groups.len()).ok()?));
            }
        }
        CExpr::Count { sel, on, cmp, n } => {
            ops.push(Op::Count {
                side: pawns_of(*sel)?,
                squares: on.0,
                cmp: match cmp {
                    ChunkCmp::Eq => Cmp::Eq,
                    ChunkCmp::Ne => Cmp::Ne,
                    ChunkCmp::Lt => Cmp::Lt,
                    ChunkCmp::Le => Cmp::Le,
                    ChunkCmp::Gt => Cmp::Gt,
                    ChunkCmp::Ge => Cmp::Ge,
                },
                n: u8::try_from(*n).ok()?,
            });
        }
        CExpr::Ref(ks) => {
            for k in ks {
                let p = (*pattern_of.get(*k)?)?;
                ops.push(Op::Chunk(u16::try_from(p).ok()?));
            }
            ops.push(Op::Or(u8::try_from(ks.len()).ok()?));
        }
        CExpr::Empty(_) | CExpr::Near { .. } | CExpr::Attacks { .. } => return None,
    }
    Some(())
}

/// Most values the test holds at once.
fn depth(ops: &[Op]) -> usize {
    let (mut now, mut most) = (0usize, 0usize);
    for op in ops {
        now = match op {
            Op::Not => now,
            Op::And(n) | Op::Or(n) => now.saturating_sub(*n as usize) + 1,
            _ => now + 1,
        };
        most = most.max(now);
    }
    most
}

/// The Rust source of `engine/src/pawn_chunk_patterns.rs`.
pub fn source(patterns: &[Compiled], features: &[String]) -> String {
    let mut s = String::new();
    // The engine's own crate, named through an argument so that this file
    // does not read as importing a module of this crate.
    let _ = write!(
        s,
        "//! MACH's pawn chunks compiled to bitboard tests (see pawn_chunks.rs).\n\
         //!\n\
         //! Written by `mach chunks pawns --out engine/src/pawn_chunk_patterns.rs` from\n\
         //! the built-in chunk library (books/chunks); re-run it rather than editing.\n\n\
         use {krate}::pawn_pattern::Op::*;\n\
         #[allow(unused_imports)] // `Cmp` only when the library counts pawns\n\
         use {krate}::pawn_pattern::{{Cmp, Guard, Pattern, Side}};\n\n",
        krate = "crate"
    );
    let _ = writeln!(
        s,
        "/// Features: one weight pair each in `psqt::PAWN_CHUNKS`."
    );
    let _ = writeln!(s, "pub const N_FEATURES: usize = {};", features.len());
    s.push_str("pub const FEATURES: [&str; N_FEATURES] = [\n");
    for f in features {
        let _ = writeln!(s, "    {f:?},");
    }
    s.push_str("];\n\n/// The instances, each after those it refers to.\n");
    let _ = writeln!(s, "pub const N_PATTERNS: usize = {};", patterns.len());
    s.push_str("#[rustfmt::skip]\npub static PATTERNS: [Pattern; N_PATTERNS] = [\n");
    for p in patterns {
        let parts: Vec<String> = p
            .parts
            .iter()
            .map(|ops| {
                let ops: Vec<String> = ops.iter().map(op_source).collect();
                format!("&[{}]", ops.join(", "))
            })
            .collect();
        let _ = writeln!(
            s,
            "    Pattern {{ name: {:?}, feature: {}, side: Side::{:?}, parts: &[{}] }},",
            p.name,
            p.feature,
            p.side,
            parts.join(", ")
        );
    }
    s.push_str("];\n");
    s
}

fn op_source(op: &Op) -> String {
    match op {
        Op::Pawn {
            side,
            squares,
            guard,
        } => {
            let guard = if *guard == Guard::ANY {
                "Guard::ANY".to_string()
            } else {
                format!(
                    "Guard {{ by_white: {:?}, by_black: {:?} }}",
                    guard.by_white, guard.by_black
                )
            };
            format!("Pawn {{ side: Side::{side:?}, squares: {squares:#x}, guard: {guard} }}")
        }
        Op::NoPawn { side, squares } => {
            format!("NoPawn {{ side: Side::{side:?}, squares: {squares:#x} }}")
        }
        Op::Count {
            side,
            squares,
            cmp,
            n,
        } => format!(
            "Count {{ side: Side::{side:?}, squares: {squares:#x}, cmp: Cmp::{cmp:?}, n: {n} }}"
        ),
        Op::Chunk(k) => format!("Chunk({k})"),
        Op::Not => "Not".into(),
        Op::And(n) => format!("And({n})"),
        Op::Or(n) => format!("Or({n})"),
    }
}

/// `mach chunks pawns [--out FILE]`: prints or writes the source.
pub fn run(out: Option<&std::path::Path>) -> Result<(), String> {
    let lib = Library::builtin();
    let (patterns, features) = compile(&lib);
    let src = source(&patterns, &features);
    match out {
        None => print!("{src}"),
        Some(path) => {
            if path.exists() {
                let old = std::fs::read_to_string(path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                if !old.starts_with("//! MACH's pawn chunks compiled to bitboard tests") {
                    return Err(format!(
                        "{} exists and is not a pawn-pattern file Mach wrote: not replaced",
                        path.display()
                    ));
                }
            }
            std::fs::write(path, &src).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!(
                "{}: {} patterns of {} instances, {} features",
                path.display(),
                patterns.len(),
                lib.instances.len(),
                features.len()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mach_engine::pawn_chunks::PATTERNS;
    use mach_engine::pawn_pattern::presence;
    use shakmaty::{Chess, Position};

    #[test]
    fn the_engines_pattern_file_is_what_the_built_in_library_compiles_to() {
        let (patterns, features) = compile(&Library::builtin());
        let today = include_str!("../../../../engine/src/pawn_chunk_patterns.rs");
        assert!(
            source(&patterns, &features) == today,
            "engine/src/pawn_chunk_patterns.rs is stale: run `mach chunks pawns --out engine/src/pawn_chunk_patterns.rs`"
        );
        assert!(patterns.len() > 50, "{}", patterns.len());
    }

    /// Every position of a pseudo-random walk: the engine's tests find
    /// exactly the pawn instances the library's matcher finds.
    #[test]
    fn the_engine_finds_the_same_pawn_chunks_as_the_librarys_matcher() {
        let lib = Library::builtin();
        let (compiled, _) = compile(&lib);
        let mut seen_any = 0;
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for game in 0..60 {
            let mut pos = Chess::default();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Prefer pawn moves now and then so the structures vary.
                let pawn_moves: Vec<_> = moves.iter().filter(|m| m.role() == Role::Pawn).collect();
                let m = if !pawn_moves.is_empty() && state.is_multiple_of(2) {
                    *pawn_moves[(state >> 8) as usize % pawn_moves.len()]
                } else {
                    moves[(state >> 8) as usize % moves.len()]
                };
                pos.play_unchecked(m);
                let board = pos.board();
                let found: Vec<usize> = lib.find(board).iter().map(|f| f.instance).collect();
                let white = board.pawns() & board.white();
                let black = board.pawns() & board.black();
                let engine: Vec<usize> = presence(&PATTERNS, white, black)
                    .into_iter()
                    .zip(&compiled)
                    .filter(|(on, _)| *on)
                    .map(|(_, c)| c.instance)
                    .collect();
                let pawn_found: Vec<usize> = found
                    .into_iter()
                    .filter(|i| compiled.iter().any(|c| c.instance == *i))
                    .collect();
                seen_any += pawn_found.len();
                assert_eq!(engine, pawn_found, "game {game}: {board}");
            }
        }
        assert!(seen_any > 1000, "{seen_any}");
    }
}
