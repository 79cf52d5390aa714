//! `mach match` against hostile engines: output floods, and processes detached with `setsid`.

mod common;

use common::{mach, run_match, temp};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Writes an executable script; returns its path as a string.
fn executable(path: &Path, script: &str) -> String {
    std::fs::write(path, script).unwrap();
    let mut perm = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(path, perm).unwrap();
    path.display().to_string()
}

/// The largest resident set, in MiB, of the children this test process has
/// waited for (and of their own waited children).
fn children_peak_mib() -> i64 {
    // SAFETY: getrusage(2) writes one rusage struct, which we own.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(r, 0);
    usage.ru_maxrss / 1024
}

/// Mach behind a filter that writes `mib` MiB of `info` lines once, around
/// its first `bestmove`: just before it (while the runner waits for the move)
/// or just after it (while the runner is busy with the other engine).
fn flooding_mach(dir: &Path, name: &str, mib: u32, after: bool) -> String {
    let flood = format!(
        // Cut to whole MiB: the last line is ended, so `bestmove` starts its own.
        "yes 'info depth 1 seldepth 1 score cp 0 nodes 1 pv e2e4' | head -c {}; echo",
        mib << 20
    );
    let (before, after) = if after {
        (":", flood.as_str())
    } else {
        (flood.as_str(), ":")
    };
    let script = format!(
        "#!/bin/bash\n\"{}\" | {{\n  flooded=0\n  while IFS= read -r l; do\n    case \"$l\" in\n      bestmove*)\n        if [ $flooded = 0 ]; then {before}; fi\n        echo \"$l\"\n        if [ $flooded = 0 ]; then {after}; fi\n        flooded=1;;\n      *) echo \"$l\";;\n    esac\n  done\n}}\n",
        mach()
    );
    executable(&dir.join(name), &script)
}

#[test]
fn engines_flooding_hundreds_of_megabytes_of_info_finish_their_games_and_the_runner_stays_small() {
    let scratch = temp("flood");
    let dir = scratch.path();
    let before = flooding_mach(dir, "flood-before", 150, false);
    let after = flooding_mach(dir, "flood-after", 150, true);
    let pgn = dir.join("games.pgn");
    let out = run_match(&[
        "--engine",
        &format!("cmd={before}"),
        "name=FloodBefore",
        "option.Hash=1",
        "--engine",
        &format!("cmd={after}"),
        "name=FloodAfter",
        "option.Hash=1",
        "--nodes",
        "1000",
        "--games",
        "2",
        "--pgnout",
        pgn.to_str().unwrap(),
    ]);
    assert!(!out.contains("abandoned"), "{out}");
    assert!(!out.contains("time forfeit"), "{out}");
    assert!(!out.contains("unterminated"), "{out}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 2, "{games}");
    // The runner held 300 MiB of lines before its queue was bounded; now a
    // few MiB. Mach's engines (1 MiB of hash) and bash are smaller still.
    let peak = children_peak_mib();
    assert!(peak < 100, "the runner grew to {peak} MiB");
}

/// A fake engine that, at each `go`, starts two `sleep`s out of its reach:
/// one in a session of its own (`setsid`) under the engine, one also orphaned
/// at once (a daemon's double fork). Each writes its pid to `pids`; once both
/// have, it does `then`.
fn detaching_engine(dir: &Path, pids: &Path, then: &str) -> String {
    let detach = format!(
        "n=$(cat \"{0}\" 2>/dev/null | wc -l); \
         setsid bash -c 'echo $$ >> \"{0}\"; exec sleep 1000' & \
         ( setsid bash -c 'echo $$ >> \"{0}\"; exec sleep 1000' & ); \
         while [ $(cat \"{0}\" 2>/dev/null | wc -l) -lt $((n + 2)) ]; do sleep 0.01; done",
        pids.display()
    );
    let script = format!(
        "#!/bin/bash\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name Detacher'; echo uciok;;\n    isready) echo readyok;;\n    go*) {detach}; {then};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    executable(&dir.join("detacher"), &script)
}

/// The pids in `pids` once it has `n` lines (waiting at most 20 s for the
/// detached processes to write theirs).
fn wait_for_pids(pids: &Path, n: usize) -> Vec<i32> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(pids).unwrap_or_default();
        let found: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if found.len() >= n || Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Asserts that none of `pids` still runs (a zombie awaiting its reaper is
/// dead), killing the survivors first so a failure leaves no litter.
fn assert_all_gone(pids: &[i32]) {
    let alive: Vec<i32> = pids
        .iter()
        .copied()
        .filter(|pid| {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
            !status.is_empty() && !status.contains("State:\tZ")
        })
        .collect();
    for pid in &alive {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(alive.is_empty(), "still running after the match: {alive:?}");
}

#[test]
fn processes_an_engine_detached_with_setsid_do_not_outlive_the_match() {
    let scratch = temp("setsid");
    let dir = scratch.path();
    let pids = dir.join("pids");
    let fake = detaching_engine(dir, &pids, "echo 'bestmove a1a1'");
    let out = run_match(&[
        "--engine",
        &format!("cmd={}", mach()),
        "name=Mach",
        "--engine",
        &format!("cmd={fake}"),
        "name=Detacher",
        "--nodes",
        "1000",
        "--games",
        "2",
    ]);
    assert!(
        out.contains("rules infraction (illegal move 'a1a1')"),
        "{out}"
    );
    // One `go` a game, two detached processes each.
    let found = wait_for_pids(&pids, 4);
    assert_eq!(found.len(), 4, "{found:?}");
    assert_all_gone(&found);
}

#[test]
fn processes_an_engine_detached_with_setsid_do_not_outlive_an_interrupted_match() {
    let scratch = temp("setsid-interrupted");
    let dir = scratch.path();
    let pids = dir.join("pids");
    // Hangs in its move, so the match is still running when interrupted.
    let fake = detaching_engine(dir, &pids, "sleep 1000");
    let mut runner = Command::new(mach())
        .args([
            "match",
            "--engine",
            &format!("cmd={fake}"),
            "name=Detacher",
            "--engine",
            &format!("cmd={}", mach()),
            "name=Mach",
            "--tc",
            "1000+0",
            "--games",
            "2",
        ])
        .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let found = wait_for_pids(&pids, 2);
    let _ = Command::new("kill")
        .args(["-TERM", &runner.id().to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(20);
    let ended = loop {
        if let Some(status) = runner.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = runner.kill();
            let _ = runner.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(found.len(), 2, "{found:?}");
    assert_all_gone(&found);
    assert!(ended.is_some(), "the runner did not stop on SIGTERM");
}
