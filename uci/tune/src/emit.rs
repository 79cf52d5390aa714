//! Writes fitted weights as Rust source in the exact shape of
//! `engine/src/psqt.rs` (same names, layout and orientation), so the engine
//! compiles them in: each group's table as the table of groups
//! (`mach_engine::terms::GROUPS`) lays it out, between the lines that
//! explain it.

use std::fmt::Write;

use mach_engine::psqt::{
    KING_ATTACKERS_N, KING_HITS_N, KING_WEAK_N, MOBILITY_MAX, PHASE_INC, PHASE_MAX, SAFE_CHECKS_N,
};
use mach_engine::terms::{Layout, Term};

use super::features::TEMPO_AT;

/// The declaration of `term`'s table in psqt.rs with weights `w`, laid out
/// as its group says, through its last line break.
fn declaration(term: Term, w: &[i32]) -> String {
    let g = term.group();
    let (name, ty) = (g.name, g.ty);
    let pair = |row: usize, col: usize| {
        let t = term.index(row, col);
        format!("w({}, {})", w[2 * t], w[2 * t + 1])
    };
    // The weights of a row on one line.
    let row = |r: usize| {
        (0..g.cols)
            .map(|c| pair(r, c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match g.layout {
        Layout::Column => {
            let lines: String = (0..g.rows)
                .map(|r| format!("    {},\n", pair(r, 0)))
                .collect();
            format!("pub const {name}: {ty} = [\n{lines}];\n")
        }
        Layout::Rows => {
            let lines: String = (0..g.rows)
                .map(|r| format!("    [{}],\n", row(r)))
                .collect();
            format!("#[rustfmt::skip]\npub const {name}: {ty} = [\n{lines}];\n")
        }
        Layout::Line => {
            let line = row(0);
            format!("#[rustfmt::skip]\npub const {name}: {ty} = [{line}];\n")
        }
        Layout::Single => format!("pub const {name}: {ty} = {};\n", pair(0, 0)),
        Layout::Named(names) => {
            let lines: String = names
                .iter()
                .enumerate()
                .map(|(c, n)| format!("    ({n:?}, {}),\n", pair(0, c)))
                .collect();
            format!("#[rustfmt::skip]\npub const {name}: {ty} = &[\n{lines}];\n")
        }
        Layout::Squares(rows) => {
            let mut s = String::new();
            for (half, phase) in ["MG", "EG"].into_iter().enumerate() {
                let decl = format!("pub const {phase}_{name}: {ty} = [");
                let _ = writeln!(s, "\n#[rustfmt::skip]\n{decl}");
                for (r, row_name) in rows.iter().enumerate() {
                    let _ = writeln!(s, "    [ // {row_name}");
                    let at = |col: usize| w[2 * term.index(r, col) + half];
                    // Columns as wide as the table's widest number, as PeSTO lists them.
                    let width = (0..g.cols)
                        .map(|col| at(col).to_string().len())
                        .max()
                        .unwrap_or(1);
                    for rank in 0..g.cols / 8 {
                        let line: Vec<String> = (0..8)
                            .map(|f| format!("{:>width$}", at(rank * 8 + f)))
                            .collect();
                        let _ = writeln!(s, "        {},", line.join(", "));
                    }
                    s.push_str("    ],\n");
                }
                s.push_str("];\n");
            }
            s
        }
    }
}

/// The psqt.rs this build's evaluation was compiled from: the start of a
/// `--from-psqt` fit.
pub const COMPILED_PSQT: &str = include_str!("../../../engine/src/psqt.rs");

/// The provenance lines of a psqt.rs source (from its first `Command:` to the
/// end of its header), without their `//! `.
pub fn provenance_of(src: &str) -> Vec<String> {
    src.find("//! Command:").map_or_else(Vec::new, |at| {
        src[at..]
            .lines()
            .take_while(|l| l.starts_with("//! "))
            .map(|l| l["//! ".len()..].to_string())
            .collect()
    })
}

/// The provenance of a fit, `lines` (its command, data and loss): when it
/// changed only the groups `fitted` and kept the rest of `start` (a psqt.rs
/// source), after `start`'s own, so that psqt.rs tells how every weight it
/// holds came to be.
pub fn fit_provenance(start: Option<&str>, fitted: &[String], lines: Vec<String>) -> Vec<String> {
    match start {
        Some(src) if !fitted.is_empty() => {
            let mut all = provenance_of(src);
            all.push(format!(
                "Then {} fitted alone (the rest kept):",
                fitted.join(", ")
            ));
            all.extend(lines);
            all
        }
        _ => lines,
    }
}

/// The source of psqt.rs for integer weights `w`, with `provenance` (lines of
/// command, data, seed and loss) in its header.
pub fn psqt_source(w: &[i32], provenance: &[String]) -> String {
    let d = |term: Term| declaration(term, w);
    let mut s = String::new();
    s.push_str(
        "//! Every evaluation number in one place.\n\
         //!\n\
         //! Written by `mach tune` by the command below (docs/tuning.md: how, and how\n\
         //! these numbers came to be); re-run it rather than editing by hand. Tables\n\
         //! are listed rank 8 first: White reads `TABLE[sq ^ 56]`, black `TABLE[sq]` (a1 = 0).\n\
         //!\n",
    );
    for line in provenance {
        let _ = writeln!(s, "//! {line}");
    }
    s.push_str(
        "\n/// A middlegame/endgame pair of weights, tapered by game phase.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq)]\n\
         pub struct Weight {\n    pub mg: i32,\n    pub eg: i32,\n}\n\n\
         const fn w(mg: i32, eg: i32) -> Weight {\n    Weight { mg, eg }\n}\n\n\
         /// Piece values, indexed pawn, knight, bishop, rook, queen, king.\n",
    );
    s.push_str(&d(Term::Material));
    let list = |v: &[i32]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(
        s,
        "\n\
         /// Game-phase contribution of each piece (24 = all pieces on the board).\n\
         pub const PHASE_INC: [i32; 6] = [{}];\n\
         /// Phase of the starting position.\n\
         pub const PHASE_MAX: i32 = {PHASE_MAX};\n\n\
         /// Most squares a knight, bishop, rook and queen can reach.\n\
         pub const MOBILITY_MAX: [usize; 4] = [{}];\n\
         /// Mobility by count: `MOBILITY[piece][n]` is the value of a knight, bishop,\n\
         /// rook or queen that reaches `n` squares (not own-occupied, not attacked by\n\
         /// enemy pawns). Entries past `MOBILITY_MAX` are unused.\n\
         {mobility}\
         /// Pieces and squares the king-attack table counts: `KING_ATTACK[a][h]` is\n\
         /// the value of `a` knights, bishops, rooks and queens (at most {ka_max} counted)\n\
         /// reaching `h` squares of the enemy king's zone in all (its square and the\n\
         /// squares next to it; a square reached by two pieces counts twice; at most\n\
         /// {kh_max} counted); rows `KING_ATTACKERS_N` and on are the same counts for a side\n\
         /// that has a queen.\n\
         pub const KING_ATTACKERS_N: usize = {KING_ATTACKERS_N};\n\
         pub const KING_HITS_N: usize = {KING_HITS_N};\n\
         pub const KING_ATTACK_ROWS: usize = 2 * KING_ATTACKERS_N;\n\
         {king_attack}\
         /// Safe checks: `SAFE_CHECKS[piece][n]` is the value of a side whose\n\
         /// knights, bishops, rooks or queens reach `n` squares (at most {sc_max} counted)\n\
         /// from which they would check the enemy king, squares neither occupied by\n\
         /// that side nor attacked by the enemy.\n\
         pub const SAFE_CHECKS_N: usize = {SAFE_CHECKS_N};\n\
         {checks}\
         /// Weak squares of the enemy king's zone: `KING_WEAK[n]` is the value of a\n\
         /// side that attacks `n` squares of the zone (at most {kw_max} counted) that the\n\
         /// enemy guards with no pawn, knight, bishop or rook.\n\
         pub const KING_WEAK_N: usize = {KING_WEAK_N};\n\
         {weak}\
         /// Mobility onto enemy pieces: `TARGETS[piece][2 v + g]` is the value, for\n\
         /// each enemy pawn, knight, bishop, rook or queen (`v` 0-4) that a side's\n\
         /// pawns, knights, bishops, rooks, queens or king attack, of one the enemy\n\
         /// does not guard (`g` 0) or guards (`g` 1).\n\
         {targets}\
         /// Pawn mobility: `PAWN_PUSH[row][s]` is the value of a pawn on its side's\n\
         /// second to seventh rank (`row` 0-5) whose square ahead holds a piece\n\
         /// (`s` 0), is attacked by an enemy pawn (1), by another enemy piece (2) or\n\
         /// by none (3).\n\
         {push}\
         /// Pawn mobility by count: `PAWN_PATH[row][n]` is the value of a pawn on its\n\
         /// side's second to seventh rank (`row` 0-5) that could walk `n` squares up\n\
         /// its file, each holding no pawn and attacked by no enemy pawn (pieces\n\
         /// looked through); `n` = 6 - `row` is a pawn no enemy pawn can stop.\n\
         {path}\
         /// Pawns as each king sees them: `KING_PAWNS[2 bucket + theirs][sq]` is the\n\
         /// value, for a side whose king stands on file e, f, g or h (`bucket` 0-3;\n\
         /// files a-d are mirrored onto h-e), of its own (`theirs` 0) or an enemy\n\
         /// (`theirs` 1) pawn on `sq` = 8 x (rank - 2) + file, seen from the side's\n\
         /// end of the board with the same mirror.\n\
         {king_pawns}\
         /// Passed pawns and the kings: `PASSER_KINGS[row][whose]` is the value, for a\n\
         /// passed pawn on its side's second to seventh rank (`row` 0-5), of each king\n\
         /// move between its own (`whose` 0) or the enemy (`whose` 1) king and the\n\
         /// square ahead of it.\n\
         {passer_kings}\
         /// A bishop's own pawns: `BISHOP_PAWNS[0][n]` is the value of a bishop with\n\
         /// `n` pawns of its side on squares of its colour, `BISHOP_PAWNS[1][r]` with\n\
         /// `r` of those blocked by an enemy pawn on the square ahead.\n\
         {bishop_pawns}\
         /// The pawns' structure: `PAWN_STRUCTURE[kind][row]` is the value of a pawn\n\
         /// on its side's second to seventh rank (`row` 0-5) that is isolated (`kind`\n\
         /// 0), has a pawn of its side in front of it on its file (1), is backward\n\
         /// with an enemy pawn on its file (2) or without one (3), stands beside a pawn\n\
         /// of its side (4) or is defended by one (5).\n\
         {structure}\
         /// Two bishops against fewer.\n\
         {pair}\
         /// Side to move bonus.\n\
         pub const TEMPO: i32 = {tempo};\n\
         /// MACH's pawn chunks (pawn_chunks.rs): each feature's weights by name,\n\
         /// counted for the side that has the pattern; a feature not listed weighs\n\
         /// nothing. Used only with the `PawnChunks` option.\n\
         {chunks}",
        list(&PHASE_INC),
        MOBILITY_MAX.map(|m| m.to_string()).join(", "),
        mobility = d(Term::Mobility),
        king_attack = d(Term::KingAttack),
        checks = d(Term::Checks),
        weak = d(Term::Weak),
        targets = d(Term::Targets),
        push = d(Term::Push),
        path = d(Term::Path),
        king_pawns = d(Term::KingPawns),
        passer_kings = d(Term::PasserKings),
        bishop_pawns = d(Term::BishopPawns),
        structure = d(Term::Structure),
        pair = d(Term::Pair),
        tempo = w[TEMPO_AT],
        chunks = d(Term::Chunks),
        ka_max = KING_ATTACKERS_N - 1,
        kh_max = KING_HITS_N - 1,
        sc_max = SAFE_CHECKS_N - 1,
        kw_max = KING_WEAK_N - 1,
    );
    s.push_str(&d(Term::Pst));
    s
}

#[cfg(test)]
mod tests {
    use super::super::features::compiled_weights;
    use super::*;

    /// The integers of the item `name` in `src`, in order.
    fn numbers_of(src: &str, name: &str) -> Vec<i32> {
        let at = src.find(&format!("pub const {name}:")).unwrap();
        let body = &src[at..];
        let eq = body.find('=').unwrap();
        let body = &body[eq..eq + body[eq..].find(';').unwrap()];
        let body: String = body
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        body.split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter_map(|t| t.parse().ok())
            .collect()
    }

    #[test]
    fn the_compiled_tables_written_out_read_back_as_the_same_numbers() {
        let src = psqt_source(&compiled_weights(), &["test".into()]);
        let today = COMPILED_PSQT;
        for name in [
            "MATERIAL",
            "PHASE_INC",
            "PHASE_MAX",
            "MOBILITY_MAX",
            "MOBILITY",
            "BISHOP_PAIR",
            "TEMPO",
            "PAWN_PATH",
            "KING_PAWNS",
            "PASSER_KINGS",
            "BISHOP_PAWNS",
            "PAWN_STRUCTURE",
            "PAWN_CHUNKS",
            "MG_PST",
            "EG_PST",
        ] {
            assert_eq!(numbers_of(&src, name), numbers_of(today, name), "{name}");
        }
    }

    #[test]
    fn the_compiled_tables_written_out_with_their_provenance_are_psqt_rs_itself() {
        let today = COMPILED_PSQT;
        assert_eq!(
            psqt_source(&compiled_weights(), &provenance_of(today)),
            today
        );
    }

    #[test]
    fn a_fit_of_some_groups_keeps_the_story_of_the_weights_it_kept() {
        let start = "//! Header.\n//!\n//! Command: `mach tune a.epd`\n//! Fit: loss 1 -> 0.5.\n\npub const X: i32 = 1;\n";
        let new = vec!["Command: `mach tune b.epd --fit targets`".to_string()];
        assert_eq!(
            fit_provenance(Some(start), &["targets".into()], new.clone()),
            [
                "Command: `mach tune a.epd`",
                "Fit: loss 1 -> 0.5.",
                "Then targets fitted alone (the rest kept):",
                "Command: `mach tune b.epd --fit targets`",
            ]
        );
        // A fit of every weight, or one from material only, owes nothing to
        // the start's story.
        assert_eq!(fit_provenance(Some(start), &[], new.clone()), new);
        assert_eq!(fit_provenance(None, &["targets".into()], new.clone()), new);
        // The compiled psqt.rs has one.
        assert!(provenance_of(COMPILED_PSQT)[0].starts_with("Command: `mach tune"));
    }

    #[test]
    fn the_compiled_tables_carry_the_short_header_a_tune_writes() {
        let src = psqt_source(&compiled_weights(), &["Command: `mach tune`".into()]);
        let today = COMPILED_PSQT;
        let header = |s: &str| s[..s.find("//! Command:").unwrap()].to_string();
        assert_eq!(header(today), header(&src));
    }
}
