//! `mach match` end to end: real engines, fake broken ones, PGN read back.

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mach-match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mach() -> &'static str {
    env!("CARGO_BIN_EXE_mach")
}

fn run_match(args: &[&str]) -> String {
    let out = Command::new(mach())
        .arg("match")
        .args(args)
        .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// A fake UCI engine: answers the handshake, and does `on_go` when asked to move.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/bash\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    let mut perm = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&path, perm).unwrap();
    path.display().to_string()
}

#[test]
fn short_match_between_two_configurations_writes_readable_pgn() {
    let dir = temp("short");
    let pgn = dir.join("games.pgn");
    let epd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books/fixtures/openings.epd");
    let out = run_match(&[
        "--engine",
        &format!("cmd={}", mach()),
        "name=Big",
        "option.Hash=32",
        "--engine",
        &format!("cmd={}", mach()),
        "name=Small",
        "option.Hash=1",
        "--nodes",
        "2000",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--openings",
        epd.to_str().unwrap(),
        "--pgnout",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.contains("Big vs Small (nodes=2000, 6 games)"), "{out}");
    let mut results = Vec::new();
    let mut whites = Vec::new();
    let file = std::fs::read(&pgn).unwrap();
    mach_advisor::pgn::read_games(&file[..], |g| {
        let g = g.game.expect("every game reads back");
        results.push(g.result);
        whites.push(g.white);
    })
    .unwrap();
    assert_eq!(results.len(), 6);
    assert!(results
        .iter()
        .all(|r| *r != mach_advisor::pgn::GameResult::Unknown));
    // Colours alternate within each pair.
    assert_eq!(whites.iter().filter(|w| *w == "Big").count(), 3);
    assert_eq!((whites[0].as_str(), whites[1].as_str()), ("Big", "Small"));
    let text = String::from_utf8_lossy(&file);
    for tag in [
        "[Event ",
        "[Site ",
        "[Date ",
        "[Round \"1.1\"]",
        "[TimeControl \"nodes=2000\"]",
        "[Opening ",
        "[Termination ",
    ] {
        assert!(text.contains(tag), "missing {tag}");
    }
}

#[test]
fn broken_engines_lose_with_the_right_termination_and_the_match_goes_on() {
    let dir = temp("broken");
    for (name, on_go, expect) in [
        ("crasher", "exit 1", "abandoned (engine process ended)"),
        (
            "cheater",
            "echo 'bestmove a1a1'",
            "rules infraction (illegal move 'a1a1')",
        ),
        (
            // Hangs in a child process: the whole process group must go.
            "sleeper",
            "sleep 1000 & echo $! >> \"$0.pids\"; wait",
            "time forfeit (no move before its flag fell (hung))",
        ),
    ] {
        let fake = fake_engine(&dir, name, on_go);
        let out = run_match(&[
            "--engine",
            &format!("cmd={}", mach()),
            "name=Mach",
            "--engine",
            &format!("cmd={fake}"),
            &format!("name={name}"),
            "--tc",
            "1+0",
            "--games",
            "2",
        ]);
        assert!(out.contains("score     +2 =0 -0"), "{name}: {out}");
        assert!(
            out.contains(&format!("ended     2 x {expect}")),
            "{name}: {out}"
        );
    }
    // The sleeper's children were killed with it, not left behind.
    let pids = std::fs::read_to_string(dir.join("sleeper.pids")).unwrap();
    assert_eq!(pids.lines().count(), 2, "{pids}");
    for pid in pids.lines() {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        assert!(
            status.is_empty() || status.contains("State:\tZ"),
            "child {pid} of a hung engine still runs:\n{status}"
        );
    }
}

#[test]
fn adjudication_ends_decided_and_dead_drawn_games() {
    let dir = temp("adjudicate");
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"queen odds\";\n\
         4k3/7r/8/8/8/8/R7/4K3 w - - id \"rooks\";\n",
    )
    .unwrap();
    let pgn = dir.join("games.pgn");
    let out = run_match(&[
        "--engine",
        &format!("cmd={}", mach()),
        "name=A",
        "--engine",
        &format!("cmd={}", mach()),
        "name=B",
        "--openings",
        book.to_str().unwrap(),
        "--sequential",
        "--games",
        "4",
        "--nodes",
        "3000",
        "--adjudicate",
        "resign_moves=2",
        "resign_score=500",
        "draw_from=1",
        "draw_moves=3",
        "draw_score=100",
        "--pgnout",
        pgn.to_str().unwrap(),
    ]);
    assert!(out.contains("score     +1 =2 -1"), "{out}");
    assert!(
        out.contains("ended     2 x adjudication (resign: both engines scored White at 500 cp or more for 2 moves)"),
        "{out}"
    );
    assert!(
        out.contains("ended     2 x adjudication (draw: both engines within 100 cp for 3 moves)"),
        "{out}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"adjudication\"]").count(),
        4,
        "{text}"
    );
    // Queen odds: both games over after 2 moves each.
    assert_eq!(text.matches("[PlyCount \"4\"]").count(), 2, "{text}");
}

#[test]
fn bad_adjudicate_words_are_refused_clearly() {
    let out = Command::new(mach())
        .args([
            "match",
            "--advice-vs-none",
            "--adjudicate",
            "resign_moves=0",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resign_moves"), "{err}");
}
