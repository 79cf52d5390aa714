//! `mach match` end to end: real engines, fake broken ones, PGN read back.

mod common;

use common::{mach, run_match, temp};

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fake UCI engine: answers the handshake, and does `on_go` when asked to move.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/bash\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    executable(&path, &script)
}

/// Writes an executable script; returns its path as a string.
fn executable(path: &Path, script: &str) -> String {
    std::fs::write(path, script).unwrap();
    let mut perm = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(path, perm).unwrap();
    path.display().to_string()
}

/// Mach with 32 MB of hash ("Big") against Mach with 1 MB ("Small") on the
/// fixture openings, two games at once, the games written to `pgn`.
fn big_vs_small(pgn: &Path, extra: &[&str]) -> String {
    let epd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books/fixtures/openings.epd");
    let engine = format!("cmd={}", mach());
    let mut args = vec![
        "--engine",
        &engine,
        "name=Big",
        "option.Hash=32",
        "--engine",
        &engine,
        "name=Small",
        "option.Hash=1",
        "--concurrency",
        "2",
        "--openings",
        epd.to_str().unwrap(),
        "--pgnout",
        pgn.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run_match(&args)
}

#[test]
fn short_match_between_two_configurations_writes_readable_pgn() {
    let scratch = temp("short");
    let dir = scratch.path();
    let pgn = dir.join("games.pgn");
    let out = big_vs_small(&pgn, &["--nodes", "2000", "--games", "6"]);
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
    // Colours alternate within each pair (games are written as they end).
    assert_eq!(whites.iter().filter(|w| *w == "Big").count(), 3);
    let text = String::from_utf8_lossy(&file);
    for game in text.split("[Event ").skip(1) {
        let tag = |t: &str| {
            game.lines()
                .find_map(|l| l.strip_prefix(&format!("[{t} \"")))
                .map(|v| v.trim_end_matches("\"]").to_string())
                .unwrap()
        };
        let want = if tag("Round").ends_with(".1") {
            "Big"
        } else {
            "Small"
        };
        assert_eq!(tag("White"), want, "{game}");
    }
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
    let scratch = temp("broken");
    let dir = scratch.path();
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
        let fake = fake_engine(dir, name, on_go);
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
    let scratch = temp("adjudicate");
    let dir = scratch.path();
    // Queen odds is decided; the locked pawns are a fortress neither king
    // can cross, so the game can only end by adjudication or the 50-move
    // rule (a position with captures ended in a trade and insufficient
    // material once the search changed).
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"queen odds\";\n\
         4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - id \"locked pawns\";\n",
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

/// A fake engine that is really Mach behind a shell filter (`filter` reads
/// Mach's output on stdin), so it plays legal chess with odd manners.
fn wrapped_mach(dir: &Path, name: &str, before: &str, filter: &str) -> String {
    let path = dir.join(name);
    let script = format!("#!/bin/bash\n{before}\n\"{}\" | {filter}\n", mach());
    executable(&path, &script)
}

#[test]
fn engines_writing_invalid_utf8_huge_lines_and_double_bestmoves_play_normally() {
    let scratch = temp("manners");
    let dir = scratch.path();
    let garbage = wrapped_mach(
        dir,
        "garbage",
        // Latin-1 bytes and a 10 MB line before the handshake.
        "printf 'info string caf\\xe9\\nid name J\\xfcrgen\\n'; head -c 10000000 /dev/zero | tr '\\0' x; echo",
        "cat",
    );
    let doubler = wrapped_mach(
        dir,
        "doubler",
        "",
        "while IFS= read -r l; do echo \"$l\"; case \"$l\" in bestmove*) echo \"$l\";; esac; done",
    );
    let out = run_match(&[
        "--engine",
        &format!("cmd={garbage}"),
        "name=Garbage",
        "--engine",
        &format!("cmd={doubler}"),
        "name=Doubler",
        "--nodes",
        "2000",
        "--games",
        "2",
    ]);
    assert!(!out.contains("abandoned"), "{out}");
    assert!(!out.contains("rules infraction"), "{out}");
    assert!(
        out.contains("ended     2 x normal") || out.contains("x normal"),
        "{out}"
    );
}

#[test]
fn nan_and_negative_time_controls_are_refused() {
    for tc in ["nan+0", "10+nan", "-1+0", "10+-1", "inf+0"] {
        let out = Command::new(mach())
            .args([
                "match",
                "--advice-vs-none",
                &format!("--tc={tc}"),
                "--games",
                "2",
            ])
            .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{tc} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad --tc"), "{tc}: {err}");
    }
}

#[test]
fn unwritable_pgnout_fails_before_any_game() {
    let scratch = temp("unwritable");
    let dir = scratch.path();
    let start = std::time::Instant::now();
    let out = Command::new(mach())
        .args([
            "match",
            "--engine",
            &format!("cmd={}", mach()),
            "--engine",
            &format!("cmd={}", mach()),
            "--nodes",
            "1000",
            "--games",
            "2",
            "--pgnout",
        ])
        .arg(dir.join("no-such-dir/games.pgn"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write"), "{err}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("score"),
        "games were played"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn pgn_moves_carry_score_depth_and_time_and_an_existing_file_is_appended_to() {
    let scratch = temp("comments");
    let dir = scratch.path();
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, "[Event \"kept\"]\n\n1. e4 *\n\n").unwrap();
    run_match(&[
        "--engine",
        &format!("cmd={}", mach()),
        "--engine",
        &format!("cmd={}", mach()),
        "--nodes",
        "3000",
        "--games",
        "2",
        "--pgnout",
        pgn.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.starts_with("[Event \"kept\"]"), "{text}");
    // Every engine move: {+0.31/15 0.52s}; the first is White's first move.
    let re_ok = |c: &str| {
        let (score, time) = c.split_once(' ').unwrap_or(("", ""));
        let (s, d) = score.split_once('/').unwrap_or(("", ""));
        (s.starts_with('+') || s.starts_with('-'))
            && d.parse::<u32>().is_ok()
            && time.ends_with('s')
            && time.trim_end_matches('s').parse::<f64>().is_ok()
    };
    let comments: Vec<String> = text
        .split('{')
        .skip(1)
        .map(|c| c.split('}').next().unwrap())
        // Wrapped lines may break a comment.
        .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let moves: usize = text
        .lines()
        .filter_map(|l| l.strip_prefix("[PlyCount \""))
        .map(|n| n.trim_end_matches("\"]").parse::<usize>().unwrap())
        .sum();
    let scored = comments.iter().filter(|c| re_ok(c)).count();
    // Each move has one; the last comment of a game is its ending.
    assert_eq!(scored, moves, "{text}");
    let mut games = 0;
    mach_advisor::pgn::read_games(text.as_bytes(), |g| {
        assert!(g.game.is_some());
        games += 1;
    })
    .unwrap();
    assert_eq!(games, 3);
}

/// Starts a long match writing `pgn`, waits until `k` games are in the file,
/// sends `signal`, and returns (stdout, exit success, games in the PGN).
fn interrupt_after(k: usize, signal: i32, pgn: &Path) -> (String, bool, usize) {
    let child = Command::new(mach())
        .args([
            "match",
            "--engine",
            &format!("cmd={}", mach()),
            "--engine",
            &format!("cmd={}", mach()),
            "--nodes",
            "2000",
            "--games",
            "400",
            "--concurrency",
            "2",
            "--pgnout",
        ])
        .arg(pgn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let text = std::fs::read_to_string(pgn).unwrap_or_default();
        if text.matches("[Event ").count() >= k {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no games written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signals our own child process.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    let out = child.wait_with_output().unwrap();
    let text = std::fs::read(pgn).unwrap();
    let mut games = 0;
    mach_advisor::pgn::read_games(&text[..], |g| {
        let g = g.game.expect("every game in the file is complete");
        assert_ne!(g.result, mach_advisor::pgn::GameResult::Unknown);
        games += 1;
    })
    .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
        games,
    )
}

#[test]
fn a_match_killed_by_sigterm_or_ctrl_c_keeps_its_games_and_prints_the_summary() {
    let scratch = temp("killed");
    let dir = scratch.path();
    for (signal, name) in [(libc::SIGTERM, "term"), (libc::SIGINT, "int")] {
        let pgn = dir.join(format!("{name}.pgn"));
        let (out, ok, games) = interrupt_after(3, signal, &pgn);
        assert!(!ok, "an interrupted match must not claim success");
        assert!(games >= 3, "{games}");
        // The summary counts exactly the games the file holds.
        let line = out
            .lines()
            .find(|l| l.starts_with("score "))
            .unwrap_or_else(|| panic!("no summary: {out}"));
        let counted: usize = line
            .split_whitespace()
            .filter_map(|w| w.trim_start_matches(['+', '=', '-']).parse::<usize>().ok())
            .take(3)
            .sum();
        assert_eq!(counted, games, "{out}");
        assert!(games < 400);
    }
}

#[test]
fn advice_vs_none_never_wipes_a_directory_that_is_not_an_index() {
    let scratch = temp("not-an-index");
    let dir = scratch.path();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = Command::new(mach())
        .args([
            "match",
            "--advice-vs-none",
            "--games",
            "2",
            "--nodes",
            "1000",
        ])
        .env("MACH_INDEX", dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a Mach index"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(dir.join("sub").is_dir());
}

#[test]
fn the_log_records_every_engines_input_output_and_stderr() {
    let scratch = temp("log");
    let dir = scratch.path();
    let log = dir.join("match.log");
    let noisy = wrapped_mach(dir, "noisy", "echo 'warming up' >&2", "cat");
    run_match(&[
        "--engine",
        &format!("cmd={noisy}"),
        "name=Noisy",
        "--engine",
        &format!("cmd={}", mach()),
        "name=Plain",
        "--nodes",
        "1000",
        "--games",
        "2",
        "--log",
        log.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    for want in [
        "Noisy[",
        " < uci",
        " > uciok",
        " < go nodes 1000",
        " > bestmove ",
        " ! warming up",
    ] {
        assert!(
            text.contains(want),
            "no '{want}' in the log:\n{}",
            &text[..text.len().min(2000)]
        );
    }
    assert!(text.contains("Plain["));
}

/// The number after `key` in `text` (`llr -0.12` → -0.12).
fn number_after(text: &str, key: &str) -> f64 {
    let i = text
        .find(key)
        .unwrap_or_else(|| panic!("no {key:?} in {text}"))
        + key.len();
    let s: String = text[i..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-')
        .collect();
    s.parse()
        .unwrap_or_else(|_| panic!("{key:?} {s:?} in {text}"))
}

/// The five counts of the first `[a, b, c, d, e]` after `key`.
fn counts_after(text: &str, key: &str) -> Vec<u32> {
    let i = text
        .find(key)
        .unwrap_or_else(|| panic!("no {key:?} in {text}"));
    let rest = &text[i..];
    let (a, b) = (rest.find('[').unwrap(), rest.find(']').unwrap());
    rest[a + 1..b]
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect()
}

#[test]
fn mach_sprt_reads_match_pgn_to_the_same_pairs_and_llr_and_a_prior_continues_a_stopped_test() {
    let scratch = temp("sprtpgn");
    let dir = scratch.path();
    let pgn = dir.join("games.pgn");
    let test = ["--sprt", "elo0=0", "elo1=10"];
    let summary = big_vs_small(
        &pgn,
        &[&["--nodes", "3000", "--games", "12"][..], &test[..]].concat(),
    );
    let pairs = counts_after(&summary, "pairs ");
    assert_eq!(pairs.iter().sum::<u32>(), 6, "{summary}");
    let sprt = |engine: &str, more: &[&str], file: &Path| {
        let o = Command::new(mach())
            .args(["sprt", "--engine", engine])
            .args(test)
            .args(more)
            .arg(file)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (o.status.success(), out, err)
    };

    // The same pairs and the same test as the match's own summary.
    let (ok, text, err) = sprt("Big", &[], &pgn);
    assert!(ok, "{err}");
    assert_eq!(
        counts_after(&text, "these files"),
        pairs,
        "{text}\n{summary}"
    );
    assert_eq!(
        number_after(&text, "llr"),
        number_after(&summary, "llr"),
        "{text}\n{summary}"
    );

    // Earlier counts are added pair class by pair class.
    let (_, text, _) = sprt("Big", &["--prior", "1,2,3,4,5"], &pgn);
    let together: Vec<u32> = pairs.iter().zip(1..).map(|(p, k)| p + k).collect();
    assert_eq!(counts_after(&text, "together"), together, "{text}");

    // The other engine's view is the mirror image.
    let (_, text, _) = sprt("Small", &[], &pgn);
    let mirrored: Vec<u32> = pairs.iter().rev().copied().collect();
    assert_eq!(counts_after(&text, "these files"), mirrored, "{text}");

    // Bad input: a clear message.
    let (ok, _, err) = sprt("Nobody", &[], &pgn);
    assert!(!ok && err.contains("no engine named 'Nobody'"), "{err}");
    let (ok, _, err) = sprt("Big", &["--prior", "1,2"], &pgn);
    assert!(!ok && err.contains("five counts"), "{err}");
    let (ok, _, err) = sprt("Big", &[], &dir.join("missing.pgn"));
    assert!(!ok && err.contains("cannot read"), "{err}");

    // A match given the stopped run's counts tests both runs together, and
    // `mach sprt` on its games with the same counts agrees.
    let pgn2 = dir.join("continued.pgn");
    let args = [
        &["--nodes", "3000", "--games", "12", "--seed", "2"][..],
        &test[..],
        &["--prior", "1,2,3,4,5"][..],
    ];
    let summary = big_vs_small(&pgn2, &args.concat());
    let pairs = counts_after(&summary, "pairs ");
    let together: Vec<u32> = pairs.iter().zip(1..).map(|(p, k)| p + k).collect();
    assert_eq!(counts_after(&summary, "together"), together, "{summary}");
    let (_, text, _) = sprt("Big", &["--prior", "1,2,3,4,5"], &pgn2);
    assert_eq!(
        number_after(&text, "llr"),
        number_after(&summary, "llr"),
        "{text}\n{summary}"
    );

    // Counts that have decided already leave nothing to continue: refused before a game.
    let engine = format!("cmd={}", mach());
    let o = Command::new(mach())
        .args([
            "match", "--engine", &engine, "--engine", &engine, "--games", "2",
        ])
        .args(test)
        .args(["--prior", "0,0,0,0,3000"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        !o.status.success() && err.contains("decided the SPRT already"),
        "{err}"
    );
}
