//! The advisor in play, through the real binary and a real index built by
//! `mach index` from the fixture PGN.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::{field, pv_first, shared_dir, Engine, Scratch, LONG};

/// Builds (once per test run) an index of `books/fixtures/awkward.pgn`.
fn fixture_index() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = shared_dir("mach-uci-advisor").join("index");
        let pgn = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books/fixtures/awkward.pgn");
        let out = Command::new(env!("CARGO_BIN_EXE_mach"))
            .args([
                "index",
                pgn.to_str().unwrap(),
                "--out",
                dir.to_str().unwrap(),
                "--threads",
                "1",
                "--heap",
                "32",
            ])
            .output()
            .expect("run mach index");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
    .clone()
}

/// The fixture's first game (a Ruy Lopez), as UCI moves.
const RUY_LOPEZ: &[&str] = &[
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7", "b1d2", "c8b7", "b3c2", "f8e8",
    "d2f1", "e7f8", "f1g3", "g7g6", "a2a4", "c7c5", "d4d5", "c5c4", "c1g5", "h7h6", "g5e3", "d7c5",
    "d1d2", "h6h5", "e3g5", "f8e7",
];

fn engine_with(index: Option<&PathBuf>, advisor: bool, weight: i32) -> Engine {
    let mut e = Engine::start();
    e.handshake();
    match index {
        Some(dir) => e.send(&format!(
            "setoption name AdvisorIndex value {}",
            dir.display()
        )),
        None => e.send("setoption name AdvisorIndex value /nonexistent/mach-index"),
    }
    // These tests are of the index: the built-in opening tree stays out.
    e.send("setoption name OpeningTree value false");
    e.send(&format!("setoption name Advisor value {advisor}"));
    e.send(&format!("setoption name AdviceWeight value {weight}"));
    e.send("isready");
    e.expect("readyok", LONG, |l| l == "readyok");
    e
}

fn best_at(e: &mut Engine, plies: usize, depth: u32) -> (String, Vec<String>) {
    e.send("ucinewgame");
    e.send(&format!(
        "position startpos moves {}",
        RUY_LOPEZ[..plies].join(" ")
    ));
    e.send(&format!("go depth {depth}"));
    e.bestmove(LONG)
}

#[test]
fn large_advice_weight_plays_the_grandmaster_move_and_no_advisor_does_not() {
    let index = fixture_index();
    let mut plain = engine_with(Some(&index), false, 0);
    let mut advised = engine_with(Some(&index), true, 600);
    // The first position (from move 13 on) where the engine alone, at depth
    // 5, does not play the grandmaster's move.
    let mut tried = 0;
    for (plies, &gm) in RUY_LOPEZ.iter().enumerate().skip(24) {
        let (own, before) = best_at(&mut plain, plies, 5);
        assert!(
            before.iter().all(|l| !l.contains("advisor ")),
            "Advisor=false must not advise"
        );
        if own == gm {
            continue;
        }
        tried += 1;
        let (with, before) = best_at(&mut advised, plies, 5);
        let line = before
            .iter()
            .find(|l| l.starts_with("info string advisor "))
            .expect("an advisor line");
        assert!(line.contains(gm), "{line}");
        assert_eq!(
            with, gm,
            "after {plies} plies the advice {line} was not followed"
        );
        break;
    }
    assert!(
        tried > 0,
        "the engine agreed with the grandmaster everywhere: pick another game"
    );
}

#[test]
fn a_missing_index_is_harmless() {
    let mut e = engine_with(None, true, 100);
    e.send("position startpos moves e2e4");
    e.send("go depth 4");
    let (best, _) = e.bestmove(LONG);
    // Said once, when the index was first needed (at `isready`).
    let said = e
        .seen
        .iter()
        .filter(|l| {
            l.starts_with("info string advisor")
                && l.contains("no index at /nonexistent/mach-index")
        })
        .count();
    assert_eq!(said, 1, "{:#?}", e.seen);
    assert_eq!(best.len(), 4);
}

#[test]
fn infinite_and_stop_behave_as_without_advice() {
    let index = fixture_index();
    let mut e = engine_with(Some(&index), true, 30);
    e.send(&format!(
        "position startpos moves {}",
        RUY_LOPEZ[..30].join(" ")
    ));
    e.send("go infinite");
    e.expect("depth 5", LONG, |l| {
        field(l, "depth").is_some_and(|d| d.parse::<u32>().unwrap() >= 5)
    });
    e.send("stop");
    let (best, _) = e.bestmove(LONG);
    let last_pv = e
        .seen
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap()
        .clone();
    assert_eq!(pv_first(&last_pv).unwrap(), best);
    e.expect_no_stray_bestmove();
    // A search that has finished its work holds its move until stop.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"); // Ra8#
    e.send("go infinite");
    e.expect_finished_and_held();
    e.send("stop");
    let (best, _) = e.bestmove(LONG);
    assert_eq!(best, "a1a8");
}

#[test]
fn advisor_off_searches_exactly_like_no_advisor() {
    let index = fixture_index();
    let last_info = |e: &mut Engine| {
        e.send(&format!(
            "position startpos moves {}",
            RUY_LOPEZ[..26].join(" ")
        ));
        e.send("go depth 9");
        let (_, before) = e.bestmove(LONG);
        let l = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap()
            .clone();
        (
            field(&l, "nodes").unwrap().to_string(),
            pv_first(&l).unwrap(),
        )
    };
    let mut off = engine_with(Some(&index), false, 100);
    let mut none = engine_with(None, false, 100);
    assert_eq!(last_info(&mut off), last_info(&mut none));
}

/// An index of `pgn` (text), built with `mach index` into a fresh directory.
fn index_of(name: &str, pgn: &str) -> Scratch {
    let out = Scratch::new(&format!("mach-uci-book-{name}"), "index");
    let file = out.with_file_name("games.pgn");
    std::fs::write(&file, pgn).unwrap();
    let r = Command::new(env!("CARGO_BIN_EXE_mach"))
        .args([
            "index",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--threads", "1", "--heap", "32"])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    out
}

/// `n` games with these moves and result.
fn games(n: usize, moves: &str, result: &str) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"t\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2700\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
            )
        })
        .collect()
}

fn book_engine(index: &std::path::Path, settings: &[&str]) -> Engine {
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!(
        "setoption name AdvisorIndex value {}",
        index.display()
    ));
    e.send("setoption name OpeningTree value false");
    e.send("setoption name Advisor value true");
    for s in settings {
        e.send(s);
    }
    e.send("isready");
    e.expect("readyok", LONG, |l| l == "readyok");
    e
}

#[test]
fn the_book_plays_the_masters_move_by_any_move_order_and_only_when_allowed() {
    // Five masters reached the Italian by 1.e4 e5 2.Nf3 Nc6 and played 3.Bc4, and won.
    let index = index_of(
        "italian",
        &games(5, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6", "1-0"),
    );
    // OwnBook is on by default.
    let mut e = book_engine(&index, &[]);
    // Another move order, same position: 1.Nf3 Nc6 2.e4 e5.
    e.send("position startpos moves g1f3 b8c6 e2e4 e7e5");
    e.send("go wtime 60000 btime 60000");
    let (best, before) = e.bestmove(LONG);
    let book = before
        .iter()
        .find(|l| l.starts_with("info string book "))
        .unwrap_or_else(|| panic!("{before:#?}"));
    assert!(book.contains("f1c4* 5 games"), "{book}");
    assert!(
        before.iter().any(|l| l.contains("played from memory")),
        "{before:#?}"
    );
    assert_eq!(best, "f1c4");

    // OwnBook=false, or Advisor=false: no book move.
    for off in [
        "setoption name OwnBook value false",
        "setoption name Advisor value false",
    ] {
        let mut e = book_engine(&index, &["setoption name OwnBook value true", off]);
        e.send("position startpos moves g1f3 b8c6 e2e4 e7e5");
        e.send("go depth 6");
        let (_, before) = e.bestmove(LONG);
        assert!(
            !before.iter().any(|l| l.contains("played from memory")),
            "{off}: {before:#?}"
        );
    }
    // Too few games for BookMinGames: searched instead.
    let mut e = book_engine(
        &index,
        &[
            "setoption name OwnBook value true",
            "setoption name BookMinGames value 6",
        ],
    );
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go depth 6");
    let (_, before) = e.bestmove(LONG);
    assert!(!before.iter().any(|l| l.contains("played from memory")));
}

#[test]
fn a_master_blunder_is_rejected_by_the_verification_search() {
    // Three masters hung the queen (2...Qg5?? 3.Nxg5); the rules alone would allow it at BookMinScore 0.
    let index = index_of("blunder", &games(3, "1. e4 e5 2. Nf3 Qg5 3. Nxg5", "1-0"));
    let mut e = book_engine(
        &index,
        &[
            "setoption name OwnBook value true",
            "setoption name BookMinScore value 0",
        ],
    );
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go wtime 60000 btime 60000");
    let (best, before) = e.bestmove(LONG);
    assert!(
        before.iter().any(|l| l.contains("book d8g5: rejected")),
        "{before:#?}"
    );
    assert_ne!(best, "d8g5");
}

#[test]
fn the_largest_book_verification_still_answers_within_the_clock() {
    let index = index_of(
        "verify-clock",
        &games(5, "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6", "1-0"),
    );
    // 100M nodes per verification search would take minutes: the clock
    // (2 s left) must bound them.
    let mut e = book_engine(
        &index,
        &[
            "setoption name OwnBook value true",
            "setoption name BookVerifyNodes value 100000000",
        ],
    );
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    let t = std::time::Instant::now();
    e.send("go wtime 2000 btime 2000");
    let (best, before) = e.bestmove(LONG);
    let took = t.elapsed();
    assert!(
        took < std::time::Duration::from_millis(2000),
        "{took:?} on a 2 s clock: {before:#?}"
    );
    assert!(!best.is_empty() && best != "(none)", "{before:#?}");
}

/// A copy of the fixture index with `damage` done to it.
fn damaged_copy(name: &str, damage: impl Fn(&std::path::Path)) -> Scratch {
    let src = fixture_index();
    let dir = Scratch::new(&format!("mach-uci-damaged-{name}"), "index");
    let r = Command::new("cp")
        .arg("-r")
        .arg(&src)
        .arg(dir.as_os_str())
        .status()
        .unwrap();
    assert!(r.success());
    damage(&dir);
    dir
}

fn files_ending(dir: &std::path::Path, ext: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(ext))
        .collect()
}

fn truncate(p: &std::path::Path) {
    let len = std::fs::metadata(p).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
    f.set_len(len / 2).unwrap();
}

fn flip_bytes(p: &std::path::Path) {
    let mut b = std::fs::read(p).unwrap();
    // About 2% of the bytes, spread evenly.
    for i in (0..b.len()).step_by(50) {
        b[i] ^= 0x5a;
    }
    std::fs::write(p, b).unwrap();
}

#[test]
fn a_damaged_index_is_an_info_string_and_a_legal_move_never_silence() {
    let cases: Vec<(&str, Scratch)> = vec![
        (
            "term",
            damaged_copy("term", |d| {
                files_ending(&d.join("tantivy"), ".term")
                    .iter()
                    .for_each(|p| truncate(p))
            }),
        ),
        (
            "fast",
            damaged_copy("fast", |d| {
                files_ending(&d.join("tantivy"), ".fast")
                    .iter()
                    .for_each(|p| flip_bytes(p))
            }),
        ),
        (
            "keys",
            damaged_copy("keys", |d| truncate(&d.join("keys.bin"))),
        ),
        (
            "games",
            damaged_copy("games", |d| flip_bytes(&d.join("games.bin"))),
        ),
        (
            "meta",
            damaged_copy("meta", |d| flip_bytes(&d.join("meta.txt"))),
        ),
    ];
    for (what, dir) in &cases {
        let mut e = Engine::start();
        e.handshake();
        e.send(&format!(
            "setoption name AdvisorIndex value {}",
            dir.display()
        ));
        e.send("setoption name Advisor value true");
        e.send("isready");
        let (_, before) = e.expect("readyok", LONG, |l| l == "readyok");
        assert!(
            before
                .iter()
                .any(|l| l.starts_with("info string advisor") && l.contains("index not used")),
            "{what}: the damage went unnoticed: {before:#?}"
        );
        e.send("position startpos moves e2e4");
        e.send("go depth 4");
        let (best, _) = e.bestmove(LONG);
        assert_eq!(best.len(), 4, "{what}: {best}");
        // `mach advise` on it: a clear error, not a panic.
        let out = Command::new(env!("CARGO_BIN_EXE_mach"))
            .args(["advise", "--moves", "e2e4", "--index"])
            .arg(dir.as_os_str())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{what}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("corrupt") || err.contains("index"),
            "{what}: {err}"
        );
    }
}

#[test]
fn advisor_tree_shapes_the_search_and_plays_legal_moves() {
    let index = index_of(
        "tree",
        &games(
            5,
            "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7",
            "1/2-1/2",
        ),
    );
    let nodes = |tree: bool| {
        let mut e = book_engine(
            &index,
            &[
                &format!("setoption name AdvisorTree value {tree}"),
                // The position is in the book: search it instead.
                "setoption name OwnBook value false",
            ],
        );
        e.send("position startpos moves e2e4 e7e5");
        e.send("go depth 8");
        let (best, before) = e.bestmove(LONG);
        assert!(best.len() >= 4, "{best}");
        let l = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap()
            .clone();
        field(&l, "nodes").unwrap().to_string()
    };
    // The grandmasters' moves below the root change the tree searched.
    assert_ne!(nodes(true), nodes(false));
}
