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
            "sleeper",
            "exec sleep 1000",
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
}
