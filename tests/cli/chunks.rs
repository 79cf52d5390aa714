//! `mach chunks` and MACH's chunk retrieval as a user runs them: clear
//! errors for a broken chunk file, figures for a library, and `mach advise
//! --mode mach` returning only positions that share the chunks.

mod common;

use common::{temp, text};

use std::process::Output;

fn mach(args: &[&str]) -> Output {
    common::run_mach(args)
}

#[test]
fn a_broken_chunk_file_is_reported_with_its_line_and_column_and_fails() {
    let scratch = temp("broken");
    let dir = scratch.path();
    let f = dir.join("bad.chunk");
    std::fs::write(
        &f,
        "chunk a wrt white.\nclassification c.\nrequire\nWP D4.\nend a.\n",
    )
    .unwrap();
    let o = mach(&["chunks", "check", f.to_str().unwrap()]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains(
            "bad.chunk:4:4: expected \"on\", \"near\" or \"attacks\" after piece WP, found \"D4\""
        ),
        "{t}"
    );
}

#[test]
fn the_built_in_library_has_at_least_sixty_chunks_in_twelve_classes() {
    let o = mach(&["chunks", "check"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    let num = |word: &str| -> usize {
        let i = t.find(word).unwrap_or_else(|| panic!("{t}"));
        t[..i].split_whitespace().last().unwrap().parse().unwrap()
    };
    assert!(num(" chunks,") >= 60, "{t}");
    assert!(num(" classes") >= 12, "{t}");
}

#[test]
fn chunk_stats_give_machs_figure_four_measures() {
    let o = mach(&["chunks", "stats", "--games", "20"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    for line in [
        "chunks per position",
        "pieces per chunk",
        "positions with no chunk",
        "memory test",
    ] {
        assert!(t.contains(line), "{line}: {t}");
    }
}

/// MACH's Figure 1 and a Sicilian chunk.
fn library() -> String {
    let qgd = include_str!("../../books/fixtures/qgdcenter.chunk");
    format!("{qgd}chunk sicilian_d6 wrt black.\nclassification sicilian.\nrequire\nBP on D6 + no BP on C2..C7.\nend sicilian_d6.\n")
}

fn games(n: usize, moves: &str) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"t\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[WhiteElo \"2700\"]\n[BlackElo \"2700\"]\n[Result \"1/2-1/2\"]\n\n{moves} 1/2-1/2\n\n"
            )
        })
        .collect()
}

#[test]
fn mach_mode_finds_only_positions_sharing_the_chunks_and_says_which() {
    let scratch = temp("mode");
    let dir = scratch.path();
    let lib = dir.join("lib.chunk");
    std::fs::write(&lib, library()).unwrap();
    let pgn = dir.join("g.pgn");
    let mut all = games(
        3,
        "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3 Be7 5. e3 O-O 6. Bd3 c5",
    );
    all.push_str(&games(
        3,
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be2 e5",
    ));
    std::fs::write(&pgn, all).unwrap();
    let out = dir.join("index");
    let (p, o) = (pgn.to_str().unwrap(), out.to_str().unwrap());
    let r = mach(&[
        "index",
        p,
        "--out",
        o,
        "--skip-moves",
        "0",
        "--threads",
        "1",
        "--heap",
        "32",
        "--chunks",
        lib.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", text(&r));
    // Another move order into the Queen's Gambit Declined.
    let query = "d2d4 g8f6 c2c4 e7e6 b1c3 d7d5 g1f3 f8e7";
    let r = mach(&[
        "advise", "--index", o, "--moves", query, "--mode", "mach", "--json",
    ]);
    assert!(r.status.success(), "{}", text(&r));
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let chunks: Vec<&str> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["chunk"].as_str().unwrap())
        .collect();
    assert_eq!(chunks, ["qgdcenter.w"]);
    let hits = v["similar"].as_array().unwrap();
    assert_eq!(hits.len(), 3, "the three QGD games, no Sicilian: {hits:?}");
    for h in hits {
        let m: Vec<&str> = h["matched_terms"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t.as_str())
            .collect();
        assert!(m.contains(&"ck:qgdcenter.w"), "{m:?}");
        assert!(h["white"].as_str().unwrap().starts_with('W'));
    }
    // BM25 ranks every game (the Sicilians score too); the text names the chunks.
    let r = mach(&[
        "advise",
        "--index",
        o,
        "--moves",
        query,
        "--mode",
        "bm25",
        "--no-filter",
    ]);
    let t = text(&r);
    assert!(r.status.success(), "{t}");
    assert!(t.contains("qgdcenter.w"), "{t}");
    assert!(t.contains("shares 1 of the chunks: qgdcenter.w"), "{t}");
    // A position with no chunk finds nothing in MACH's mode.
    let r = mach(&[
        "advise", "--index", o, "--moves", "g1f3", "--mode", "mach", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert!(v["similar"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["exact"].as_bool().unwrap()));
    // A bad mode is refused.
    let r = mach(&["advise", "--index", o, "--moves", query, "--mode", "fuzzy"]);
    assert!(!r.status.success());
}

#[test]
fn advisor_mode_is_a_combo_option_and_a_bad_value_is_an_info_string() {
    let mut e = common::Engine::start();
    e.send("uci");
    e.expect("declared", common::LONG, |l| {
        l == "option name AdvisorMode type combo default bm25 var bm25 var mach var both"
    });
    e.expect("uciok", common::LONG, |l| l == "uciok");
    e.send("setoption name AdvisorMode value mach");
    e.send("setoption name AdvisorMode value fuzzy");
    e.expect("refused", common::LONG, |l| {
        l.starts_with("info string") && l.contains("fuzzy")
    });
    // A mode `mach advise` knows but the option does not declare.
    e.send("setoption name AdvisorMode value embed");
    e.expect("refused", common::LONG, |l| {
        l.starts_with("info string") && l.contains("embed") && l.contains("bm25, mach, both")
    });
    e.send("isready");
    e.expect("readyok", common::LONG, |l| l == "readyok");
}

#[test]
fn chunks_mine_writes_a_library_that_checks_and_is_never_overwritten_without_force() {
    let scratch = temp("mine");
    let dir = scratch.path();
    let out = dir.join("mined.chunk");
    let o = out.to_str().unwrap();
    let r = mach(&["chunks", "mine", "--games", "200", "--out", o]);
    let t = text(&r);
    assert!(r.status.success(), "{t}");
    for line in [
        "positions read",
        "frequent itemsets",
        "chunks written to",
        "support: top",
        "read back",
        "chunks per position",
        "pieces per chunk",
        "memory test",
    ] {
        assert!(t.contains(line), "{line}: {t}");
    }
    let r = mach(&["chunks", "check", o]);
    assert!(r.status.success(), "{}", text(&r));
    assert!(
        text(&r).contains("100 chunks, 200 instances"),
        "{}",
        text(&r)
    );
    let before = std::fs::read(&out).unwrap();
    // A second run without --force is refused and leaves the file as it was.
    let r = mach(&["chunks", "mine", "--games", "20", "--top", "5", "--out", o]);
    assert!(!r.status.success());
    assert!(text(&r).contains("exists: not overwritten"), "{}", text(&r));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // With --force it is replaced.
    let r = mach(&[
        "chunks", "mine", "--games", "20", "--top", "5", "--out", o, "--force",
    ]);
    assert!(r.status.success(), "{}", text(&r));
    let after = std::fs::read_to_string(&out).unwrap();
    assert_eq!(after.matches("\nchunk mined_").count(), 5, "{after}");
    // Bad options are an error before any work, and write nothing.
    let none = dir.join("none.chunk");
    let r = mach(&[
        "chunks",
        "mine",
        "--support",
        "0",
        "--out",
        none.to_str().unwrap(),
    ]);
    assert!(!r.status.success());
    assert!(text(&r).contains("support must be"), "{}", text(&r));
    assert!(!none.exists());
}
