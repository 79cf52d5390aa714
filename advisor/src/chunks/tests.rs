//! One test per construct of the chunk language, on real positions.

use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

use super::*;

/// MACH's Figure 1, as printed (books/fixtures/qgdcenter.chunk).
const QGD: &str = include_str!("../../../books/fixtures/qgdcenter.chunk");

fn board(fen: &str) -> shakmaty::Board {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    pos.board().clone()
}

fn lib(src: &str) -> Library {
    Library::from_sources([("t.chunk", src)]).unwrap_or_else(|e| panic!("{e}"))
}

/// Names of the chunks found.
fn names(l: &Library, fen: &str) -> Vec<String> {
    l.find(&board(fen))
        .iter()
        .map(|f| l.instances[f.instance].name.clone())
        .collect()
}

fn err(src: &str) -> String {
    Library::from_sources([("t.chunk", src)])
        .unwrap_err()
        .to_string()
}

/// 1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3 (e2 still home).
const QGD_POS: &str = "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R b KQkq - 1 4";

#[test]
fn the_papers_example_parses_as_written_and_is_found_in_a_queens_gambit_declined() {
    let l = lib(QGD);
    assert_eq!(l.defs.len(), 1);
    assert_eq!(l.defs[0].class, "queens_pawn_opening");
    let found = l.find(&board(QGD_POS));
    assert_eq!(found.len(), 1);
    let inst = &l.instances[found[0].instance];
    assert_eq!(inst.name, "qgdcenter.w");
    assert_eq!(inst.class, "queens_pawn_opening.w");
    // d4 d5 c4 e6 e2 required, c3 f6 f3 optional: 8 pieces.
    assert_eq!(found[0].covered.count(), 8);
    assert_eq!(
        inst.advice,
        [
            "PutRooks(white,c1,d1)",
            "Outpost(white,e5)",
            "Outpost(black,e4)"
        ]
    );
}

#[test]
fn the_reflection_finds_the_same_pattern_for_black_with_its_advice_turned_over() {
    let l = lib(QGD);
    // Colours swapped and the board turned over.
    let flipped = "r1bqkb1r/pp2pppp/2n2n2/2pp4/3P4/4PN2/PPP2PPP/RNBQKB1R w KQkq - 1 5";
    assert_eq!(names(&l, flipped), ["qgdcenter.b"]);
    let b = l
        .instances
        .iter()
        .find(|i| i.name == "qgdcenter.b")
        .unwrap();
    assert_eq!(b.class, "queens_pawn_opening.b");
    assert_eq!(
        b.advice,
        [
            "PutRooks(black,c8,d8)",
            "Outpost(black,e4)",
            "Outpost(white,e5)"
        ]
    );
}

#[test]
fn optional_pieces_count_in_but_never_decide_presence() {
    let l = lib(QGD);
    // No knights out at all: still the chunk, with the five required pawns.
    let bare = "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3";
    let f = l.find(&board(bare));
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].covered.count(), 5);
    // Without the c4 pawn a require fails.
    let no_c4 = "rnbqkbnr/ppp2ppp/4p3/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3";
    assert!(names(&l, no_c4).is_empty());
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn one(expr: &str) -> Library {
    lib(&format!(
        "chunk t wrt white.\nclassification c.\nrequire\n{expr}.\nend t.\n"
    ))
}

fn holds(expr: &str, fen: &str) -> bool {
    names(&one(expr), fen).iter().any(|n| n == "t.w")
}

#[test]
fn and_binds_tighter_than_or_and_parentheses_change_that() {
    // false & false | true = true; false & (false | true) = false.
    assert!(holds("WP on D4 & WP on E4 | WK on E1", START));
    assert!(!holds("WP on D4 & (WP on E4 | WK on E1)", START));
}

#[test]
fn a_slash_lists_alternatives_and_a_plus_demands_every_square() {
    assert!(holds("WP on D4/D2", START));
    assert!(!holds("WP on D4/D3", START));
    assert!(holds("WP on F2+G2+H2", START));
    assert!(!holds("WP on F2+G3+H2", START));
    assert!(holds("WP on F2+G3/G2+H2", START));
    // `+` between atoms joins them.
    assert!(holds("WP on F2 + WK on E1", START));
    assert!(!holds("WP on F2 + WK on G1", START));
}

#[test]
fn ranges_ranks_files_and_square_colours_are_square_sets() {
    assert!(holds("WR on A1..H1", START));
    assert!(!holds("WR on B1..G8", START));
    assert!(holds("BQ on rank 8", START));
    assert!(holds("WK on file e", START));
    // The c1 bishop is on a dark square, f1 on a light one.
    let one_bishop = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1";
    assert!(holds("WB on light", one_bishop));
    assert!(!holds("WB on dark", one_bishop));
}

#[test]
fn no_empty_and_not_say_what_is_absent() {
    assert!(holds("no WP on D3..D7", START));
    assert!(!holds("no WP on D2..D7", START));
    assert!(holds("empty D3/D4/E4", START));
    assert!(!holds("empty D2/D4", START));
    assert!(holds("not WP on D4", START));
}

#[test]
fn defended_and_attacked_relations_read_the_board() {
    // White knight on e5 defended by the d4 pawn, attacked by nothing black;
    // a black knight on c6 attacks... nothing on e5 (c6 attacks e5!).
    let outpost = "r1bqkb1r/pppp1ppp/5n2/4N3/3P4/8/PPP2PPP/RNBQKB1R w KQkq - 0 5";
    assert!(holds("WN on E5 defended by WP", outpost));
    assert!(holds("WN on E5 not attacked by BP", outpost));
    assert!(!holds("WN on E5 attacked by BN", outpost));
    let attacked = "r1bqkb1r/pppp1ppp/2n2n2/4N3/3P4/8/PPP2PPP/RNBQKB1R w KQkq - 0 5";
    assert!(holds("WN on E5 attacked by BN", attacked));
    assert!(!holds("WN on E5 defended by WB", attacked));
}

#[test]
fn near_and_attacks_relate_two_pieces() {
    let pos = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    assert!(holds("WK near WP", pos));
    assert!(!holds("WR near BK within 3", pos));
    assert!(holds("WR near WK within 3", pos));
    let attack = "3q2k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    assert!(holds("WR attacks BQ", attack));
    assert!(!holds("BQ attacks WK", attack));
}

#[test]
fn count_compares_the_number_of_pieces_and_a_star_means_any_piece() {
    let rook_ending = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    assert!(holds("count WR = 1 & count BR = 0", rook_ending));
    assert!(holds("count W* = 1 & count B* = 0", rook_ending));
    assert!(holds("count WP >= 3 & count BP != 2", rook_ending));
    assert!(!holds("count WQ > 0", rook_ending));
    // On squares: only the pieces standing there.
    let doubled = "6k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1";
    assert!(holds("count WR on file d >= 2", doubled));
    assert!(!holds("count WR on file d >= 2", rook_ending));
    assert!(holds("count WP on F2..H2 = 3", doubled));
}

#[test]
fn a_file_parameter_makes_one_instance_per_file_named_after_it() {
    let l = lib("chunk rook_open_file($f in a..h) wrt white.
classification open_file.
require
(WR on $f1..$f8) & (no WP on $f2..$f7) & (no BP on $f2..$f7).
advice
Double(white,$f).
end rook_open_file.");
    assert_eq!(l.instances.len(), 16);
    let pos = "3r2k1/ppp2ppp/8/8/8/8/PPP2PPP/3R2K1 w - - 0 1";
    assert_eq!(
        names(&l, pos),
        ["rook_open_file(d).w", "rook_open_file(d).b"]
    );
    let d = l
        .instances
        .iter()
        .find(|i| i.name == "rook_open_file(d).b")
        .unwrap();
    assert_eq!(d.advice, ["Double(black,d)"]);
}

#[test]
fn a_rank_parameter_works_in_squares_and_in_rank_sets() {
    let l = lib("chunk passer($r in 5..7) wrt white.
classification passed.
require
WP on D$r + no BP on rank 7.
end passer.");
    let pos = "6k1/8/3P4/8/8/8/8/6K1 w - - 0 1";
    assert_eq!(names(&l, pos), ["passer(6).w"]);
}

#[test]
fn a_chunk_may_be_built_from_another_with_or_without_arguments() {
    let l = lib("chunk shelter wrt white.
classification king.
require
WK on G1/H1 + WP on F2+G2+H2.
mirror files.
end shelter.
chunk file_open($f in a..h) wrt white.
classification files.
require
no WP on $f2..$f7.
end file_open.
chunk attack_shelter wrt white.
classification attack.
require
chunk shelter & chunk file_open(e) & BQ on file e.
end attack_shelter.");
    let pos = "4q1k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    let n = names(&l, pos);
    assert!(n.contains(&"attack_shelter.w".to_string()), "{n:?}");
    assert!(n.contains(&"shelter.w".to_string()), "{n:?}");
    // The attack chunk covers the shelter's pieces too.
    let found = l.find(&board(pos));
    let k = found
        .iter()
        .find(|f| l.instances[f.instance].name == "attack_shelter.w")
        .unwrap();
    assert_eq!(k.covered.count(), 5);
}

#[test]
fn mirror_files_finds_the_same_shape_on_the_other_wing() {
    let l = lib("chunk shelter wrt white.
classification king.
require
WK on G1/H1 + WP on F2+G2+H2.
mirror files.
end shelter.");
    let long = "6k1/5ppp/8/8/8/8/PPP5/1K6 w - - 0 1";
    assert_eq!(names(&l, long), ["shelter.w.m", "shelter.b"]);
}

#[test]
fn a_chunk_written_for_black_is_found_for_white_by_reflection() {
    let l = lib("chunk fian wrt black.
classification king.
require
BK on G8 + BB on G7 + BP on F7+G6+H7.
end fian.");
    let both = "6k1/5pbp/6p1/8/8/6P1/5PBP/6K1 w - - 0 1";
    assert_eq!(names(&l, both), ["fian.b", "fian.w"]);
}

#[test]
fn importance_is_read_and_defaults_to_one() {
    let l = lib(&QGD.replace(
        "classification queens_pawn_opening.",
        "classification q.\nimportance 3.",
    ));
    assert_eq!(l.instances[0].importance, 3.0);
    assert_eq!(lib(QGD).instances[0].importance, 1.0);
}

#[test]
fn errors_name_the_file_line_column_and_what_was_expected() {
    assert_eq!(
        err("chunk a wrt white.\nclassification c.\nrequire\nWP D4.\nend a."),
        "t.chunk:4:4: expected \"on\", \"near\" or \"attacks\" after piece WP, found \"D4\""
    );
    assert_eq!(
        err("chunk a wrt white.\nclassification c.\nrequire\nWP on D4.\nend b."),
        "t.chunk:5:5: expected \"a\" after \"end\", found \"b\""
    );
    assert_eq!(
        err("chunk a wrt white.\nclassification c.\nrequire\nWP on $f4.\nend a."),
        "t.chunk:4:7: $f is not a parameter of this chunk"
    );
    assert_eq!(
        err("chunk a wrt green.\n"),
        "t.chunk:1:13: expected \"white\" or \"black\", found \"green\""
    );
    assert_eq!(
        err("chunk a wrt white.\nclassification c.\nrequire\nWP on D9.\nend a."),
        "t.chunk:4:7: expected a square such as D4, found \"D9\""
    );
    assert_eq!(
        err("chunk a wrt white.\nclassification c.\nrequire\nWP on D4.\n"),
        "t.chunk:5:1: expected \"end a.\", found the end of the file"
    );
    assert_eq!(
        err("chunk a wrt white.\nclassification c.\nrequire\nchunk b.\nend a."),
        "t.chunk:1:1: chunk b is used before it is defined"
    );
    assert_eq!(
        err("chunk a wrt white.\nrequire\nWP on D4.\nend a."),
        "t.chunk:1:1: chunk a has no classification"
    );
}

#[test]
fn no_mangled_chunk_file_makes_the_parser_panic() {
    // Every prefix and every one-byte deletion of the paper's example.
    let src = QGD.as_bytes();
    for cut in 0..src.len() {
        let _ = Library::from_sources([("t", std::str::from_utf8(&src[..cut]).unwrap())]);
        let mut v = src.to_vec();
        v.remove(cut);
        let _ = Library::from_sources([("t", std::str::from_utf8(&v).unwrap())]);
    }
}

#[test]
fn the_stored_text_of_a_library_reads_back_to_the_same_instances() {
    let l = Library::from_sources([
        ("a.chunk", QGD),
        (
            "b.chunk",
            "chunk x wrt white.\nclassification c.\nrequire\nWK on E1.\nend x.",
        ),
    ])
    .unwrap();
    let back = Library::from_stored_text(&l.text).unwrap();
    let n = |l: &Library| {
        l.instances
            .iter()
            .map(|i| i.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(n(&l), n(&back));
}

#[test]
fn the_builtin_library_parses() {
    let l = Library::builtin();
    assert!(l.defs.len() >= 60, "{} chunks", l.defs.len());
    assert!(l.classes().len() >= 12, "{} classes", l.classes().len());
    // The start position is not every pattern at once.
    assert!(l.find(Chess::default().board()).len() < l.instances.len() / 4);
}

#[test]
fn a_reference_means_the_chunk_for_the_side_the_using_chunk_is_about() {
    let l = lib("chunk shelter wrt white.
classification king.
require
WK on G1 + WP on F2+G2+H2.
end shelter.
chunk target wrt black.
classification attack.
require
chunk shelter & WB on D3.
end target.");
    // Black is castled (shelter.b), White is not: the target (Black's king) is there.
    let pos = "6k1/5ppp/8/8/8/3B4/PPP5/2K5 w - - 0 1";
    assert_eq!(names(&l, pos), ["shelter.b", "target.b"]);
    // White castled, Black not: no target.
    let pos = "2k5/ppp5/8/8/8/3B4/5PPP/6K1 w - - 0 1";
    assert_eq!(names(&l, pos), ["shelter.w"]);
}

/// A chunk requiring `expr`.
fn requiring(expr: &str) -> String {
    format!("chunk deep wrt white.\nclassification c.\nrequire\n{expr}.\nend deep.\n")
}

/// Runs `f` on a thread with the stack the UCI engine's controller has
/// (Rust's default, 2 MiB), where 3,000 nested parentheses overflowed.
fn on_a_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn parentheses_and_nots_nested_past_the_bound_are_an_error_at_their_place() {
    let parens = |n: usize| format!("{}WP on D4{}", "(".repeat(n), ")".repeat(n));
    let nots = |n: usize| format!("{}WP on D4", "not ".repeat(n));
    // The bound itself is fine, with both kinds mixed.
    let half = MAX_NESTING / 2;
    lib(&requiring(&format!(
        "{}{}{}",
        "(not ".repeat(half),
        "WP on D4",
        ")".repeat(half)
    )));
    lib(&requiring(&parens(MAX_NESTING)));
    // One more is an error naming the line and column of the opening too many.
    let e = on_a_small_stack(move || err(&requiring(&parens(10_000))));
    let col = MAX_NESTING + 1;
    assert_eq!(
        e,
        format!("t.chunk:4:{col}: \"(\" and \"not\" nest more than {MAX_NESTING} deep")
    );
    let e = on_a_small_stack(move || err(&requiring(&nots(10_000))));
    let col = 4 * MAX_NESTING + 1;
    assert_eq!(
        e,
        format!("t.chunk:4:{col}: \"(\" and \"not\" nest more than {MAX_NESTING} deep")
    );
}

#[test]
fn an_index_holding_a_library_nested_too_deep_is_an_error_not_a_stack_overflow() {
    // What an index built before the bound may hold: its loader reads it
    // back with the same parser, on the engine's threads.
    let deep = requiring(&format!("{}WP on D4{}", "(".repeat(3000), ")".repeat(3000)));
    let stored = format!("#file old.chunk\n{deep}\n");
    let e = on_a_small_stack(move || Library::from_stored_text(&stored).unwrap_err().to_string());
    assert!(e.starts_with("old.chunk:4:65: "), "{e}");
}

#[test]
fn a_chunk_with_too_many_parameter_values_is_an_error_naming_it() {
    // Seven file parameters: 8^7 x 2 = 4,194,304 instances, which
    // exhausted memory; 146 bytes.
    let src = "chunk s($a in a..h, $b in a..h, $c in a..h, $d in a..h, $e in a..h, $f in a..h, $g in a..h) wrt white.\nclassification c.\nrequire\nWP on $a2.\nend s.\n";
    assert_eq!(
        err(src),
        format!(
            "t.chunk:1:1: chunk s has 4194304 instances (8 x 8 x 8 x 8 x 8 x 8 x 8 parameter values, 2 sides); at most {MAX_INSTANCES_PER_CHUNK}"
        )
    );
    // Three are fine, with the mirror: 8^3 x 2 x 2 = 2,048.
    let l = lib("chunk s($a in a..h, $b in a..h, $c in a..h) wrt white.\nclassification c.\nmirror files.\nrequire\nWP on $a2 & BP on $b7 & WN on $c3.\nend s.\n");
    assert_eq!(l.instances.len(), 2048);
}

/// Five chunks, each taking `params` file parameters and requiring any
/// instance of the one before it (or, `passed`, the one with its own
/// arguments).
fn levels(params: usize, passed: bool) -> String {
    let names: Vec<String> = (0..params)
        .map(|k| format!("${}", (b'a' + k as u8) as char))
        .collect();
    let list = names
        .iter()
        .map(|p| format!("{p} in a..h"))
        .collect::<Vec<_>>()
        .join(", ");
    let args = if passed {
        format!("({})", names.join(", "))
    } else {
        String::new()
    };
    let mut src = String::new();
    for n in 0..5 {
        let body = if n == 0 {
            "WP on $a2".to_string()
        } else {
            format!("chunk c{}{args} & WP on $a2", n - 1)
        };
        src.push_str(&format!(
            "chunk c{n}({list}) wrt white.\nclassification c.\nrequire\n{body}.\nend c{n}.\n"
        ));
    }
    src
}

#[test]
fn references_through_levels_of_parameterised_chunks_are_bounded() {
    // Four parameters through five levels exhausted memory: each level's
    // 8,192 instances each listed the 4,096 of the level before.
    assert!(err(&levels(4, false)).starts_with("t.chunk:1:1: chunk c0 has 8192 instances"));
    // Three parameters pass the count, and stop at the bound on compiled
    // terms, at the first chunk that refers to its 1,024-instance neighbour.
    assert_eq!(
        err(&levels(3, false)),
        format!(
            "t.chunk:6:1: chunk c1: the library grows past {MAX_COMPILED} compiled terms (expressions times instances, and the instances each \"chunk\" reference looks through); use fewer parameters or references"
        )
    );
    // Naming one instance costs little: three parameters passed on
    // through five levels are fine, and so are two without arguments.
    let l = lib(&levels(3, true));
    assert_eq!(l.instances.len(), 5 * 1024);
    let b = board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    assert_eq!(
        l.find(&b).len(),
        5 * 64,
        "every c(a,_,_).w: the pawn on a2, through all five levels"
    );
    assert_eq!(lib(&levels(2, false)).instances.len(), 5 * 128);
}

#[test]
fn a_long_expression_repeated_by_many_instances_is_bounded() {
    // 100,000 groups on one atom (about 400 KB), times 4,096 instances.
    let groups = vec!["D4"; 100_000].join("+");
    let src = format!("chunk s($a in a..h, $b in a..h, $c in a..h) wrt white.\nclassification c.\nmirror files.\nrequire\nWP on {groups}.\nend s.\n");
    let start = std::time::Instant::now();
    assert!(err(&src).contains(&format!("past {MAX_COMPILED} compiled terms")));
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn a_comment_that_reads_like_a_file_header_survives_the_round_trip() {
    let src = "chunk a wrt white.\nclassification c.\n#file elsewhere.chunk\nrequire\nWP on D4.\nend a.\n";
    let l = Library::from_sources([("a.chunk", src)]).unwrap();
    let back = Library::from_stored_text(&l.text).unwrap();
    assert_eq!(back.instances.len(), l.instances.len());
    assert_eq!(back.text, l.text);
}

/// Deepest nesting of `(` and `not` in an expression.
fn nesting(e: &ast::Expr) -> usize {
    match e {
        ast::Expr::And(v) | ast::Expr::Or(v) => v.iter().map(nesting).max().unwrap_or(0),
        ast::Expr::Not(e) => 1 + nesting(e),
        ast::Expr::Atom(_) => 0,
    }
}

#[test]
fn the_shipped_library_is_far_inside_every_bound() {
    let l = Library::builtin();
    // Parentheses leave no trace in the tree; count them in the text.
    let mut parens = 0usize;
    let mut deepest_paren = 0usize;
    for line in l.text.lines() {
        let code = line.split('#').next().unwrap();
        for c in code.chars() {
            match c {
                '(' => {
                    parens += 1;
                    deepest_paren = deepest_paren.max(parens);
                }
                ')' => parens = parens.saturating_sub(1),
                _ => {}
            }
        }
    }
    let deepest_not = l
        .defs
        .iter()
        .flat_map(|d| d.require.iter().chain(&d.optional))
        .map(nesting)
        .max()
        .unwrap();
    let per_chunk = l.defs.iter().map(compile::instance_count).max().unwrap();
    let (instances, compiled) = compile::instances_counted(&l.defs).unwrap();
    eprintln!(
        "shipped library: parentheses {deepest_paren} deep, not {deepest_not} deep, \
         {per_chunk} instances for the largest chunk, {} instances, {compiled} compiled terms",
        instances.len()
    );
    assert!(deepest_paren + deepest_not <= MAX_NESTING / 8);
    assert!(per_chunk as usize <= MAX_INSTANCES_PER_CHUNK / 64);
    assert!(instances.len() <= MAX_INSTANCES / 64);
    assert!(compiled <= MAX_COMPILED / 16);
}
