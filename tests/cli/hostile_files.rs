//! Hostile files given to `mach index` and `mach chunks` (issue #55 items 2
//! and 5): a PGN cut inside a comment or holding a huge tag keeps its whole
//! games; chunk files nested too deep, with too many instances or one huge
//! line are clear errors at once, and an index can never make the engine
//! overflow its stack when it loads the index's chunk library.

mod common;

use common::{games_in, temp};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Engine, LONG};

/// What a run of `mach` printed, and whether it succeeded.
struct Run {
    ok: bool,
    out: String,
    took: Duration,
}

/// Runs `mach args` with at most 2 GiB of address space and a deadline:
/// a run that exhausts memory or does not finish fails the test instead
/// of taking the machine down or hanging.
fn mach(dir: &Path, args: &[&str], deadline: Duration) -> Run {
    let (out_path, err_path) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
    let mut bash = Command::new("bash");
    bash.arg("-c")
        .arg("ulimit -v 2097152; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_mach"))
        .args(args)
        .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap());
    let start = Instant::now();
    let mut child = bash.spawn().unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mach {args:?} did not finish in {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out =
        std::fs::read_to_string(&out_path).unwrap() + &std::fs::read_to_string(&err_path).unwrap();
    Run {
        ok: status.success(),
        out,
        took: start.elapsed(),
    }
}

fn index(dir: &Path, pgn: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "index",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "1",
        "--heap",
        "32",
    ];
    args.extend_from_slice(extra);
    mach(dir, &args, LONG)
}

#[test]
fn the_issues_pgn_cut_inside_a_comment_indexes_its_whole_game_and_counts_the_cut_one() {
    let scratch = temp("cut");
    let dir = scratch.path();
    let pgn = dir.join("t.pgn");
    // printf '[Event "a"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n\n[Event "b"]\n\n1. d4 {cut'
    std::fs::write(
        &pgn,
        "[Event \"a\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n[Event \"b\"]\n\n1. d4 {cut",
    )
    .unwrap();
    let out = dir.join("X");
    let r = index(dir, &pgn, &out, &[]);
    assert!(r.ok, "{}", r.out);
    assert!(r.out.contains("games      2 read, 1 indexed"), "{}", r.out);
    assert!(
        r.out
            .contains("1 truncated (the file ends inside a tag or comment)"),
        "{}",
        r.out
    );
    assert_eq!(games_in(&out), 1);
}

/// Three games; the second has a tag of `len` bytes.
fn long_tag_pgn(len: usize) -> String {
    format!(
        "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
         [White \"B\"]\n[Annotator \"{}\"]\n[Result \"*\"]\n\n1. d4 d5 *\n\n\
         [White \"C\"]\n[Result \"0-1\"]\n\n1. c4 e5 0-1\n",
        "x".repeat(len)
    )
}

#[test]
fn a_forty_kilobyte_tag_between_two_games_keeps_the_games() {
    let scratch = temp("tag");
    let dir = scratch.path();
    let pgn = dir.join("t.pgn");
    std::fs::write(&pgn, long_tag_pgn(40 * 1024)).unwrap();
    let r = index(dir, &pgn, &dir.join("forty"), &[]);
    assert!(r.ok, "{}", r.out);
    assert!(r.out.contains("games      3 read, 3 indexed"), "{}", r.out);
    // A tag past the 64 KiB bound skips only its own game.
    std::fs::write(&pgn, long_tag_pgn(200 * 1024)).unwrap();
    let r = index(dir, &pgn, &dir.join("two_hundred"), &[]);
    assert!(r.ok, "{}", r.out);
    assert!(r.out.contains("games      3 read, 2 indexed"), "{}", r.out);
    assert!(r.out.contains("1 a tag line over 64 KiB"), "{}", r.out);
    assert_eq!(games_in(&dir.join("two_hundred")), 2);
}

/// A chunk file whose one chunk requires `expr`.
fn chunk_file(dir: &Path, name: &str, expr: &str) -> PathBuf {
    let f = dir.join(name);
    std::fs::write(
        &f,
        format!("chunk deep wrt white.\nclassification c.\nrequire\n{expr}.\nend deep.\n"),
    )
    .unwrap();
    f
}

const TOO_DEEP: &str = "\"(\" and \"not\" nest more than 64 deep";

#[test]
fn a_chunk_file_nested_too_deep_is_refused_by_check_and_by_index() {
    let scratch = temp("deep");
    let dir = scratch.path();
    let parens = chunk_file(
        dir,
        "parens.chunk",
        &format!("{}WP on D4{}", "(".repeat(3000), ")".repeat(3000)),
    );
    let nots = chunk_file(
        dir,
        "nots.chunk",
        &format!("{}WP on D4", "not ".repeat(10_000)),
    );
    let deeper = chunk_file(
        dir,
        "deeper.chunk",
        &format!("{}WP on D4{}", "(".repeat(10_000), ")".repeat(10_000)),
    );
    for (f, col) in [(&parens, 65), (&nots, 257), (&deeper, 65)] {
        let r = mach(dir, &["chunks", "check", f.to_str().unwrap()], LONG);
        assert!(!r.ok, "{}", r.out);
        let place = format!("{}:4:{col}: {TOO_DEEP}", f.display());
        assert!(r.out.contains(&place), "{}", r.out);
    }
    // `mach index --chunks` refuses it too, and leaves no index behind.
    let pgn = dir.join("t.pgn");
    std::fs::write(&pgn, long_tag_pgn(10)).unwrap();
    let out = dir.join("idx");
    let r = index(dir, &pgn, &out, &["--chunks", parens.to_str().unwrap()]);
    assert!(!r.ok, "{}", r.out);
    assert!(
        r.out
            .contains(&format!("{}:4:65: {TOO_DEEP}", parens.display())),
        "{}",
        r.out
    );
    assert!(!out.join("chunks.txt").exists());
}

#[test]
fn an_index_holding_a_library_nested_too_deep_disables_the_advisor_instead_of_killing_the_engine() {
    // An index built before the bound, with 3,000 nested parentheses in its
    // chunk library: loading it overflowed the controller thread's stack.
    let scratch = temp("load");
    let dir = scratch.path();
    let pgn = dir.join("t.pgn");
    std::fs::write(&pgn, long_tag_pgn(10)).unwrap();
    let out = dir.join("idx");
    assert!(index(dir, &pgn, &out, &[]).ok);
    let deep = format!(
        "#file old.chunk\nchunk deep wrt white.\nclassification c.\nrequire\n{}WP on D4{}.\nend deep.\n\n",
        "(".repeat(3000),
        ")".repeat(3000)
    );
    std::fs::write(out.join("chunks.txt"), deep).unwrap();
    mach_advisor::checksum::write(&out).unwrap();

    let mut e = Engine::start();
    e.handshake();
    e.send(&format!(
        "setoption name AdvisorIndex value {}",
        out.display()
    ));
    e.send("setoption name Advisor value true");
    e.send("position startpos");
    e.send("go depth 2");
    let (_, before) = e.bestmove(LONG);
    assert!(
        before.iter().any(|l| l.starts_with("info string advisor")
            && l.contains("index not used")
            && l.contains(&format!("old.chunk:4:65: {TOO_DEEP}"))),
        "{before:#?}"
    );
    e.send("isready");
    e.expect("readyok", LONG, |l| l == "readyok");
}

#[test]
fn seven_parameters_on_one_chunk_are_refused_at_once() {
    let scratch = temp("seven");
    let dir = scratch.path();
    let f = dir.join("seven.chunk");
    // 146 bytes: 8^7 x 2 = 4,194,304 instances exhausted memory.
    std::fs::write(
        &f,
        "chunk s($a in a..h,$b in a..h,$c in a..h,$d in a..h,$e in a..h,$f in a..h,$g in a..h) wrt white.\nclassification c.\nrequire\nWP on $a2.\nend s.\n",
    )
    .unwrap();
    let r = mach(dir, &["chunks", "check", f.to_str().unwrap()], LONG);
    assert!(!r.ok, "{}", r.out);
    assert!(
        r.out.contains(&format!(
            "{}:1:1: chunk s has 4194304 instances",
            f.display()
        )),
        "{}",
        r.out
    );
}

#[test]
fn a_400_kilobyte_line_is_checked_at_once() {
    let scratch = temp("line");
    let dir = scratch.path();
    // About 440 KB on one line: it took seconds (quadratic).
    let f = chunk_file(dir, "long.chunk", &vec!["WP on D4"; 40_000].join(" & "));
    let r = mach(dir, &["chunks", "check", f.to_str().unwrap()], LONG);
    assert!(r.ok, "{}", r.out);
    // Generous: it takes a few milliseconds; it took 8 s before.
    assert!(r.took < Duration::from_secs(3), "{:?}", r.took);
}
