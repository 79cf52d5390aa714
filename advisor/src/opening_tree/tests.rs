use super::build::{build, Rules};
use super::format::HEADER_BYTES;
use super::*;

/// Five games: two reach one position by different move orders.
const GAMES: &str = r#"[Result "1-0"]
[WhiteElo "2700"]
[BlackElo "2600"]
[Date "2001.01.01"]

1. d4 Nf6 2. c4 e5 3. dxe5 Ng4 1-0

[Result "1/2-1/2"]
[WhiteElo "2500"]
[BlackElo "2650"]
[Date "2010.01.01"]

1. c4 Nf6 2. d4 e5 3. dxe5 Ng4 4. Bf4 1/2-1/2

[Result "0-1"]
[Date "1999.01.01"]

1. e4 c5 0-1

[Result "1-0"]
[WhiteElo "2800"]
[Date "2020.01.01"]

1. d4 d5 1-0

[Result "0-1"]
[WhiteElo "2300"]
[Date "2021.01.01"]

1. d4 Nf6 0-1
"#;

fn tree_bytes(rules: Rules) -> Vec<u8> {
    build(GAMES.as_bytes(), rules, |_| {}).unwrap().0
}

fn all_games() -> Rules {
    Rules {
        held_out_every: 0,
        ..Rules::default()
    }
}

fn after(moves: &str) -> Chess {
    use shakmaty::{san::San, Position};
    let mut pos = Chess::default();
    for m in moves.split_whitespace() {
        let mv = m.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
    }
    pos
}

#[test]
fn a_position_reached_by_two_move_orders_holds_both_games_with_their_results() {
    let bytes = tree_bytes(all_games());
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    assert_eq!(tree.header.games, 5);
    let m = tree.book(&after("d4 Nf6 c4 e5"));
    assert_eq!(m.len(), 1);
    assert_eq!(
        shakmaty::uci::UciMove::from_standard(m[0].mv).to_string(),
        "d4e5"
    );
    assert_eq!(
        (m[0].games, m[0].wins, m[0].draws, m[0].losses),
        (2, 1, 1, 0)
    );
    assert_eq!(m[0].avg_elo, 2600, "white's ratings, 2700 and 2500");
    assert_eq!(m[0].last_year, 2010);
    // From the start: d4 three times (one win as White, one loss, one win), c4 once, e4 once.
    let start = tree.book(&Chess::default());
    let d4 = &start[0];
    assert_eq!((d4.games, d4.wins, d4.draws, d4.losses), (3, 2, 0, 1));
    assert_eq!(d4.avg_elo, 2600, "the mean of 2700, 2800 and 2300");
    assert_eq!(start.iter().map(|b| b.games).sum::<u32>(), 5);
}

#[test]
fn a_position_of_fewer_games_than_the_minimum_is_not_kept() {
    let bytes = tree_bytes(all_games());
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    assert!(tree.book(&after("e4")).is_empty(), "one game");
    assert!(tree.book(&after("d4 d5")).is_empty(), "one game");
    // Two games reached it, but the last one ended there: a position
    // counts the games that played on from it.
    assert!(tree.book(&after("d4 Nf6")).is_empty());
    let one = tree_bytes(Rules {
        min_games: 1,
        ..all_games()
    });
    assert!(!OpeningTree::from_bytes(&one)
        .unwrap()
        .book(&after("e4"))
        .is_empty());
}

#[test]
fn every_nth_game_of_the_file_is_held_out() {
    let (bytes, s) = build(
        GAMES.as_bytes(),
        Rules {
            held_out_every: 2,
            min_games: 1,
            ..Rules::default()
        },
        |_| {},
    )
    .unwrap();
    assert_eq!((s.games_in_file, s.held_out, s.games_used), (5, 2, 3));
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    // Games 2 (1. c4) and 4 (1. d4 d5) are left out.
    assert!(tree.book(&after("c4")).is_empty());
    assert!(tree.book(&after("d4 d5")).is_empty());
    assert!(!tree.book(&after("e4")).is_empty());
    assert_eq!(tree.header.held_out_every, 2);
}

#[test]
fn plies_past_the_limit_are_not_read() {
    let bytes = tree_bytes(Rules {
        max_plies: 2,
        min_games: 1,
        ..all_games()
    });
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    assert!(!tree.book(&after("d4")).is_empty());
    assert!(tree.book(&after("d4 Nf6")).is_empty());
}

#[test]
fn the_same_games_build_the_same_bytes() {
    assert_eq!(tree_bytes(all_games()), tree_bytes(all_games()));
}

#[test]
fn a_foreign_truncated_or_damaged_file_is_an_error_saying_so() {
    let good = tree_bytes(all_games());
    let err = |b: &[u8]| OpeningTree::from_bytes(b).err().unwrap();
    assert!(err(b"").contains("not a Mach opening tree"));
    assert!(err(&[0u8; HEADER_BYTES]).contains("not a Mach opening tree"));
    assert!(err(&good[..good.len() - 1]).contains("truncated"));
    let mut longer = good.clone();
    longer.push(0);
    assert!(err(&longer).contains("truncated or damaged"));
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(err(&flipped).contains("checksum"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(err(&version).contains("format 9"));
    let mut huge = good;
    huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(err(&huge).contains("truncated"));
}

#[test]
fn an_empty_tree_answers_nothing() {
    let bytes = build(&b""[..], all_games(), |_| {}).unwrap().0;
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    assert!(tree.is_empty());
    assert!(tree.book(&Chess::default()).is_empty());
}

#[test]
fn the_shipped_tree_holds_the_budapest_gambit() {
    let bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../books/gm-tree.bin")).unwrap();
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    assert_eq!(tree.header.held_out_every, 50);
    let m = tree.book(&after("d4 Nf6 c4 e5 dxe5 Ng4"));
    assert_eq!(m.iter().map(|b| b.games).sum::<u32>(), 93);
}

#[test]
fn values_are_backed_up_by_negamax_from_the_leaves() {
    // After 1.e4 Black's c5 wins (3 games) and e5 loses (3 games): 1.e4 is
    // worth what Black's best reply leaves White, not its own 50%.
    let mut pgn = String::new();
    for _ in 0..3 {
        pgn.push_str("[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n");
        pgn.push_str("[Result \"0-1\"]\n\n1. e4 c5 2. Nf3 0-1\n\n");
    }
    let rules = Rules {
        min_games: 1,
        ..all_games()
    };
    let bytes = build(pgn.as_bytes(), rules, |_| {}).unwrap().0;
    let tree = OpeningTree::from_bytes(&bytes).unwrap();
    let e4 = &tree.book(&Chess::default())[0];
    assert!((e4.shrunk_score(2.0) - 0.5).abs() < 1e-6);
    // Leaves: Nf3 after e5 scores (3 + 1) / 5 = 0.8 for White, after c5 0.2.
    // So e5 is worth 1 - 0.8 = 0.2 to Black, c5 1 - 0.2 = 0.8, and e4 to
    // White 1 - 0.8 = 0.2.
    assert!((e4.backed.unwrap() - 0.2).abs() < 0.003, "{:?}", e4.backed);
    let replies = tree.book(&after("e4"));
    let worth = |uci: &str| {
        replies
            .iter()
            .find(|b| shakmaty::uci::UciMove::from_standard(b.mv).to_string() == uci)
            .unwrap()
            .backed
            .unwrap()
    };
    assert!((worth("c7c5") - 0.8).abs() < 0.003);
    assert!((worth("e7e5") - 0.2).abs() < 0.003);
    let leaf = &tree.book(&after("e4 e5"))[0];
    assert!((leaf.backed.unwrap() - leaf.shrunk_score(2.0)).abs() < 0.003);
}
