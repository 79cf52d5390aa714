//! `mach index` as a user runs it: it never deletes what it did not create,
//! concurrent appends all land, and killed builds leave nothing behind for long.

mod common;

use common::{games_in, temp};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books/fixtures/awkward.pgn")
}

fn index(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mach"))
        .arg("index")
        .arg(fixture())
        .arg("--out")
        .arg(out)
        .args(["--threads", "1", "--heap", "32"])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn an_out_directory_holding_other_files_is_refused_and_left_alone() {
    let scratch = temp("refuse");
    let dir = scratch.path();
    let out = dir.join("p");
    std::fs::create_dir_all(out.join("photos")).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let r = index(&out, &[]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("not a Mach index"), "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    assert!(out.join("photos").is_dir());
    // A file where the index should go is refused too; an empty directory is used.
    std::fs::write(dir.join("f"), "x").unwrap();
    assert!(!index(&dir.join("f"), &[]).status.success());
    assert_eq!(std::fs::read_to_string(dir.join("f")).unwrap(), "x");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    assert!(index(&dir.join("empty"), &[]).status.success());
    // And a Mach index is replaced.
    assert!(index(&dir.join("empty"), &[]).status.success());
    assert_eq!(games_in(&dir.join("empty")), 5);
}

#[test]
fn concurrent_appends_all_land() {
    let scratch = temp("appends");
    let dir = scratch.path();
    let out = dir.join("idx");
    assert!(index(&out, &[]).status.success());
    let runs: Vec<_> = (0..3)
        .map(|_| {
            let out = out.clone();
            std::thread::spawn(move || index(&out, &["--append"]))
        })
        .collect();
    for r in runs {
        let r = r.join().unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    }
    // 5 games to start with, and 5 more from each of the three appends.
    assert_eq!(games_in(&out), 20);
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn temporaries_of_killed_builds_are_removed_and_nothing_else() {
    let scratch = temp("stale");
    let dir = scratch.path();
    let out = dir.join("idx");
    // A process that is gone: its pid names the stale temporary.
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    let stale = dir.join(format!(".idx.tmp-{pid}"));
    std::fs::create_dir_all(stale.join("tantivy")).unwrap();
    std::fs::write(stale.join("tantivy/big.seg"), vec![0u8; 4096]).unwrap();
    // Not ours to judge: a live process's temporary, another index's, a user's file.
    let live = dir.join(format!(".idx.tmp-{}", std::process::id()));
    std::fs::create_dir_all(&live).unwrap();
    let other = dir.join(format!(".other.tmp-{pid}"));
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(dir.join(".idx.tmp-notes"), "mine").unwrap();

    let r = index(&out, &[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        !stale.exists(),
        "the killed build's temporary is still there"
    );
    assert!(live.exists());
    assert!(other.exists());
    assert!(dir.join(".idx.tmp-notes").exists());
    assert_eq!(games_in(&out), 5);
}

#[test]
fn a_build_killed_midway_keeps_the_old_index_and_the_next_build_cleans_up() {
    let scratch = temp("killed");
    let dir = scratch.path();
    let out = dir.join("idx");
    assert!(index(&out, &[]).status.success());
    // A bigger input so there is time to kill it while it writes.
    let db = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books/gm2700-classical-4000.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_mach"))
        .arg("index")
        .arg(&db)
        .arg("--out")
        .arg(&out)
        .args(["--threads", "1", "--heap", "32"])
        .spawn()
        .unwrap();
    let tmp = dir.join(format!(".idx.tmp-{}", child.id()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !tmp.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The old index is untouched and still opens.
    assert_eq!(games_in(&out), 5);
    assert!(
        tmp.exists(),
        "the build was killed before it wrote anything"
    );
    assert!(index(&out, &["--append"]).status.success());
    assert!(!tmp.exists());
    assert_eq!(games_in(&out), 10);
}
