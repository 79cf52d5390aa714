//! The grandmaster memory as a Polyglot book, both ways: `mach book` writes
//! one that python-chess reads back with the same moves and weights, and
//! `BookFile` plays from a Polyglot book (never while analysing).

mod common;

use common::text;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{Engine, LONG};

fn mach(args: &[&str]) -> Output {
    common::run_mach(args)
}

fn games(n: usize, moves: &str, result: &str) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"t\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
            )
        })
        .collect()
}

/// An index of 3 won 1.e4 games, 2 drawn 1.d4 games and 1 lost 1.c4 game,
/// and the book `mach book` writes from it (moves played at least twice).
/// The directory holding them is removed when the returned `TempDir` is dropped.
fn book(name: &str) -> (tempfile::TempDir, PathBuf) {
    let scratch = tempfile::Builder::new()
        .prefix(&format!("mach-book-{name}-"))
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let pgn = dir.join("g.pgn");
    let mut all = games(3, "1. e4 e5 2. Nf3 Nc6", "1-0");
    all.push_str(&games(2, "1. d4 d5 2. c4", "1/2-1/2"));
    all.push_str(&games(1, "1. c4 e5", "0-1"));
    std::fs::write(&pgn, all).unwrap();
    let index = dir.join("index");
    let r = mach(&[
        "index",
        pgn.to_str().unwrap(),
        "--out",
        index.to_str().unwrap(),
        "--threads",
        "1",
        "--heap",
        "32",
    ]);
    assert!(r.status.success(), "{}", text(&r));
    let out = dir.join("gm.bin");
    let r = mach(&[
        "book",
        "--index",
        index.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", text(&r));
    (scratch, out)
}

/// (key, move, weight) entries of a Polyglot file, in file order.
fn entries(path: &Path) -> Vec<(u64, u16, u16)> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(16)
        .map(|b| {
            (
                u64::from_be_bytes(b[0..8].try_into().unwrap()),
                u16::from_be_bytes([b[8], b[9]]),
                u16::from_be_bytes([b[10], b[11]]),
            )
        })
        .collect()
}

#[test]
fn the_memory_becomes_a_polyglot_book_with_results_as_weights() {
    let (dir, out) = book("write");
    let e = entries(&out);
    // The start position's key from the Polyglot specification.
    let start: Vec<_> = e.iter().filter(|x| x.0 == 0x463b96181691fc9c).collect();
    // e2e4 (from 12, to 28): 3 wins = 6 points; d2d4 (11 -> 27): 2 draws = 2;
    // c2c4 was played once: under --min-games 2.
    assert_eq!(
        start,
        [
            &(0x463b96181691fc9c, 12 << 6 | 28, 6),
            &(0x463b96181691fc9c, 11 << 6 | 27, 2)
        ]
    );
    assert!(e.windows(2).all(|w| w[0].0 <= w[1].0), "sorted by key");
    // Never overwritten without --force.
    let r = mach(&[
        "book",
        "--index",
        dir.path().join("index").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    assert!(text(&r).contains("--force"), "{}", text(&r));
}

#[test]
fn python_chess_reads_the_book_back_with_the_same_moves_and_weights() {
    if !common::python_has("chess.polyglot", "python_chess_reads_the_book_back") {
        return;
    }
    let (_dir, out) = book("python");
    let script = format!(
        "import chess, chess.polyglot\n\
         r = chess.polyglot.open_reader({:?})\n\
         b = chess.Board()\n\
         print(' '.join(f'{{e.move.uci()}}:{{e.weight}}' for e in r.find_all(b)))\n\
         b.push_uci('e2e4'); b.push_uci('e7e5')\n\
         print(' '.join(f'{{e.move.uci()}}:{{e.weight}}' for e in r.find_all(b)))\n",
        out.to_str().unwrap()
    );
    let o = Command::new("python3")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines, ["e2e4:6 d2d4:2", "g1f3:6"]);
}

#[test]
fn book_file_plays_a_book_move_but_never_while_analysing_and_a_bad_file_is_an_info_string() {
    let (dir, out) = book("play");
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("setoption name BookFile value {}", out.display()));
    e.expect("loaded", LONG, |l| {
        l.starts_with("info string BookFile") && l.contains("entries")
    });
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let (best, before) = e.bestmove(LONG);
    assert!(best == "e2e4" || best == "d2d4", "{best}");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string BookFile: ")),
        "{before:?}"
    );
    // Analysis searches.
    e.send("go infinite");
    e.expect("a search", LONG, |l| l.starts_with("info depth 3"));
    e.send("stop");
    let (_, lines) = e.bestmove(LONG);
    assert!(!lines.iter().any(|l| l.contains("BookFile:")), "{lines:?}");
    // Out of book: a search.
    e.send("position startpos moves g1f3");
    e.send("go depth 3");
    let (_, lines) = e.bestmove(LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // A file that is not a book.
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, b"not a book").unwrap();
    e.send(&format!("setoption name BookFile value {}", bad.display()));
    e.expect("refused", LONG, |l| {
        l.starts_with("info string BookFile:") && l.contains("not a Polyglot book")
    });
    e.send("position startpos");
    e.send("go depth 2");
    let (best, _) = e.bestmove(LONG);
    assert!(!best.is_empty());
}
