//! The miner on synthetic boards whose patterns and shares are known.

use shakmaty::{Board, Color, Piece, Role, Square};

use super::apriori::{self, Level, Tx};
use super::*;
use crate::chunks::Library;

fn p(color: Color, role: Role) -> Piece {
    Piece { color, role }
}

const W: Color = Color::White;
const B: Color = Color::Black;

/// White castled short: king g1, pawns f2 g2 h2, rook f1.
fn shelter() -> Vec<(Piece, Square)> {
    vec![
        (p(W, Role::King), Square::G1),
        (p(W, Role::Rook), Square::F1),
        (p(W, Role::Pawn), Square::F2),
        (p(W, Role::Pawn), Square::G2),
        (p(W, Role::Pawn), Square::H2),
    ]
}

/// A queen's side set: knight c3, bishop b2, pawn a2.
fn queenside() -> Vec<(Piece, Square)> {
    vec![
        (p(W, Role::Bishop), Square::B2),
        (p(W, Role::Knight), Square::C3),
        (p(W, Role::Pawn), Square::A2),
    ]
}

/// A pattern and the boards (by number) that get it.
type Placed<'a> = (&'a [(Piece, Square)], &'a dyn Fn(usize) -> bool);

/// `n` boards with a few pieces on random squares (fixed seed), and the
/// given patterns on the boards `which` selects.
fn boards(n: usize, patterns: &[Placed]) -> Vec<Board> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut rnd = |m: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    (0..n)
        .map(|i| {
            let mut b = Board::empty();
            for _ in 0..6 {
                let sq = Square::new(rnd(64) as u32);
                let color = if rnd(2) == 0 { W } else { B };
                let role = Role::ALL[rnd(6) as usize];
                b.set_piece_at(sq, p(color, role));
            }
            for (pieces, which) in patterns {
                if which(i) {
                    for &(pc, sq) in pieces.iter() {
                        b.set_piece_at(sq, pc);
                    }
                }
            }
            b
        })
        .collect()
}

fn mined(bs: &[Board]) -> Mined {
    mine(bs, &Options::default()).unwrap()
}

#[test]
fn a_pattern_in_sixty_percent_is_mined_and_one_in_one_percent_is_not() {
    let many: &dyn Fn(usize) -> bool = &|i| i % 10 < 6;
    let rare: &dyn Fn(usize) -> bool = &|i| i == 7;
    let bs = boards(500, &[(&shelter(), many), (&queenside(), rare)]);
    let m = mined(&bs);
    let mut want = shelter();
    want.sort_by_key(|(pc, sq)| (nibble(*pc), *sq));
    let top = &m.patterns[0];
    assert_eq!(top.pieces, want, "{:?}", m.patterns);
    assert_eq!(top.region, KING_SIDE);
    assert!((300..310).contains(&top.count), "{}", top.count);
    // Closed: the subsets of the shelter have (almost) its support, so they go.
    assert!(m.patterns.iter().all(|p| p.pieces.len() >= MIN_SIZE));
    assert!(
        !m.patterns
            .iter()
            .any(|p| p.pieces.len() < 5 && p.region == KING_SIDE),
        "{:?}",
        m.patterns
    );
    assert!(
        !m.patterns.iter().any(|p| p.region == QUEEN_SIDE),
        "the 1% pattern is under the 3% support: {:?}",
        m.patterns
    );
    assert_eq!(m.min_count, 15);
    assert!(m.levels.len() >= 5 && m.levels[4].frequent >= 1);
}

#[test]
fn a_pattern_only_black_has_is_mined_wrt_white() {
    let half: &dyn Fn(usize) -> bool = &|i| i % 2 == 0;
    let black = reflect(&shelter());
    assert!(black.iter().all(|(pc, _)| pc.color == B));
    let bs = boards(200, &[(&black, half)]);
    let m = mined(&bs);
    let mut want = shelter();
    want.sort_by_key(|(pc, sq)| (nibble(*pc), *sq));
    assert_eq!(m.patterns[0].pieces, want, "{:?}", m.patterns);
    assert_eq!(m.patterns[0].region, KING_SIDE);
    assert_eq!(m.patterns[0].count, 100);
}

#[test]
fn the_library_parses_and_finds_each_chunk_where_it_came_from() {
    let white: &dyn Fn(usize) -> bool = &|i| i % 3 == 0;
    let black: &dyn Fn(usize) -> bool = &|i| i % 3 == 1;
    let bw = shelter();
    let bb = reflect(&queenside());
    let bs = boards(300, &[(&bw, white), (&bb, black)]);
    let m = mined(&bs);
    let text = write::library(&m, "synthetic boards");
    let lib = Library::from_sources([("mined.chunk", text.as_str())])
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(lib.defs.len(), m.patterns.len());
    assert!(
        text.contains(
            "# mined: 33.3% of positions (king side)\nchunk mined_kingside_001 wrt white.\n\
         classification mined_kingside.\nimportance 1.\nrequire\n\
         WK on G1 + WR on F1 + WP on F2+G2+H2.\nend mined_kingside_001.\n"
        ),
        "{text}"
    );
    let names = |b: &Board| -> Vec<String> {
        lib.find(b)
            .iter()
            .map(|f| lib.instances[f.instance].name.clone())
            .collect()
    };
    let qs = m
        .patterns
        .iter()
        .position(|p| p.region == QUEEN_SIDE)
        .expect("the queen's side set is mined");
    let qs_name = write::name(&m.patterns[qs], qs + 1);
    for (i, b) in bs.iter().enumerate() {
        let n = names(b);
        if white(i) {
            assert!(
                n.contains(&"mined_kingside_001.w".to_string()),
                "{i}: {n:?}"
            );
        }
        if black(i) {
            assert!(n.contains(&format!("{qs_name}.b")), "{i}: {n:?}");
        }
    }
}

#[test]
fn statements_group_the_squares_of_one_kind() {
    let pat = Pattern {
        region: CENTRE,
        pieces: vec![
            (p(W, Role::Knight), Square::C3),
            (p(W, Role::Pawn), Square::D4),
            (p(W, Role::Pawn), Square::E4),
            (p(B, Role::Pawn), Square::D6),
        ],
        count: 1,
    };
    assert_eq!(write::statement(&pat), "WN on C3 + WP on D4+E4 + BP on D6");
    assert_eq!(write::name(&pat, 7), "mined_centre_007");
}

/// A set of items as a code: (nibble position, piece value) pairs.
fn code(items: &[(u32, u64)]) -> u64 {
    items.iter().fold(0, |c, &(j, v)| c | v << (4 * j))
}

#[test]
fn a_candidate_needs_every_subset_frequent_and_two_pieces_never_share_a_square() {
    let (a, b, c, c2) = (
        code(&[(0, 1)]),
        code(&[(1, 2)]),
        code(&[(2, 3)]),
        code(&[(2, 4)]),
    );
    let prev: Level = [(a | b, 5), (a | c, 5), (a | c2, 5)].into_iter().collect();
    // {a,b,c} is not a candidate: {b,c} is not frequent; c and c2 share a square.
    assert!(apriori::candidates(&prev).is_empty());
    let prev: Level = [(a | b, 5), (a | c, 5), (b | c, 5)].into_iter().collect();
    assert_eq!(apriori::candidates(&prev), vec![a | b | c]);
}

#[test]
fn a_position_counts_once_when_both_sides_have_the_set() {
    let (a, b, c) = (code(&[(0, 1)]), code(&[(1, 2)]), code(&[(2, 3)]));
    let set = a | b | c;
    let txs = vec![
        Tx {
            views: [set, set],
            weight: 2,
        },
        Tx {
            views: [set, 0],
            weight: 1,
        },
        Tx {
            views: [a | b, a | c],
            weight: 4,
        },
    ];
    let views = txs
        .iter()
        .flat_map(|t| std::iter::repeat_n(t.views, t.weight as usize));
    let (first, distinct) = apriori::count_items(views, 1);
    assert_eq!(distinct, 3);
    assert_eq!(first[&a], 7);
    let run = apriori::run(first, distinct, txs, 3, 3);
    assert_eq!(run.levels[1][&(a | b)], 7);
    assert_eq!(run.levels[1][&(a | c)], 7);
    assert_eq!(run.levels[2][&set], 3);
    // {a,b} (7) is kept: its superset has 3 of 7, under 90%.
    let closed = apriori::closed(&run, 0.9, 2);
    assert!(closed.contains(&(a | b, 7)) && closed.contains(&(set, 3)));
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    let bs = boards(10, &[]);
    for (o, want) in [
        (
            Options {
                support: 0.0,
                ..Options::default()
            },
            "support",
        ),
        (
            Options {
                max_size: 2,
                ..Options::default()
            },
            "max size",
        ),
        (
            Options {
                top: 0,
                ..Options::default()
            },
            "top",
        ),
    ] {
        let e = mine(&bs, &o).unwrap_err();
        assert!(e.contains(want), "{e}");
    }
    assert!(mine(&[], &Options::default())
        .unwrap_err()
        .contains("no position"));
}
