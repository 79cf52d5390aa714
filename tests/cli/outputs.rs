//! What Mach writes and reads beside the user's own files (issue #55 items
//! 1, 4 and 12): `--html`, `--pgnout` and `--out` never destroy a file Mach
//! did not write, leave no temporaries and refuse two outputs on one path;
//! `BookFile` refuses pipes, devices and oversized files without blocking
//! or eating memory; names from a PGN reach the terminal without control
//! characters.

mod common;

use common::temp;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{shared_dir, Engine, LONG};

/// A player whose name would retitle the terminal (OSC 0) and clear it (CSI 2J).
const EVIL: &str = "Evil\x1b]0;PWNED\x07\x1b[2J";

/// What a finished `mach` run printed.
struct Run {
    ok: bool,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `mach args`, killed (and the test failed) after `limit`.
fn mach_within(args: &[&std::ffi::OsStr], limit: Duration) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mach"))
        .args(args)
        // Hermetic: never the user's own default index.
        .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mach");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = out.read_to_end(&mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mach {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        ok: status.success(),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Runs `mach` with these arguments (strings and paths alike) within `LONG`.
macro_rules! mach {
    ($($a:expr),* $(,)?) => {
        mach_within(&[$(std::ffi::OsStr::new(&$a)),*], LONG)
    };
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// An index (built once per run) of six Ruy Lopez games, one of them by [`EVIL`].
fn index() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = shared_dir("mach-outputs-index");
        let pgn = dir.join("games.pgn");
        let mut text = String::new();
        for i in 0..6 {
            let white = if i == 0 {
                EVIL.to_string()
            } else {
                format!("W{i}")
            };
            text.push_str(&format!(
                "[Event \"Ev{i}\x1b[31m\"]\n[White \"{white}\"]\n[Black \"B{i}\"]\n\
                 [WhiteElo \"2700\"]\n[BlackElo \"2700\"]\n[Result \"1-0\"]\n\n\
                 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 1-0\n\n"
            ));
        }
        std::fs::write(&pgn, text).unwrap();
        let out = dir.join("index");
        let r = mach!("index", pgn, "--out", out, "--threads", "1", "--heap", "32");
        assert!(r.ok, "{}", r.stderr);
        out
    })
    .clone()
}

/// `mach advise` of the Ruy Lopez on [`index`], with `extra` arguments.
fn advise(extra: &[&std::ffi::OsStr]) -> Run {
    let index = index();
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "advise".as_ref(),
        "--moves".as_ref(),
        "e2e4 e7e5 g1f3 b8c6 f1b5".as_ref(),
        "--index".as_ref(),
        index.as_os_str(),
    ];
    args.extend_from_slice(extra);
    mach_within(&args, LONG)
}

/// A two-game `mach match` of Mach against itself at 100 nodes, with `extra` arguments.
fn quick_match(extra: &[&std::ffi::OsStr]) -> Run {
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_mach"));
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "match".as_ref(),
        "--engine".as_ref(),
        engine.as_ref(),
        "name=A".as_ref(),
        "--engine".as_ref(),
        engine.as_ref(),
        "name=B".as_ref(),
        "--games".as_ref(),
        "2".as_ref(),
        "--nodes".as_ref(),
        "100".as_ref(),
    ];
    args.extend_from_slice(extra);
    mach_within(&args, LONG)
}

const USERS_PAGE: &str = "<!DOCTYPE html>\n<html><body>my own notes</body></html>\n";
const MACH_MARK: &str = "<!DOCTYPE html>\n<!-- written by mach -->\n";

#[test]
fn advise_html_keeps_a_users_file_without_force_and_replaces_its_own_page_when_run_again() {
    let d = temp("advise-user");
    let page = d.path().join("notes.html");
    std::fs::write(&page, USERS_PAGE).unwrap();
    let r = advise(&["--html".as_ref(), page.as_os_str()]);
    assert!(!r.ok, "a user's file was replaced");
    assert!(r.stderr.contains("pass --force"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&page).unwrap(), USERS_PAGE);

    let r = advise(&["--html".as_ref(), page.as_os_str(), "--force".as_ref()]);
    assert!(r.ok, "{}", r.stderr);
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .starts_with(MACH_MARK));
    // The same command again: Mach's own page is replaced without --force.
    let r = advise(&["--html".as_ref(), page.as_os_str()]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(listing(d.path()), ["notes.html"], "no temporaries left");
}

#[test]
fn advise_html_leaves_a_users_file_named_like_the_old_temporary_alone() {
    let d = temp("advise-tmp");
    let page = d.path().join("notes.txt");
    let users = d.path().join("notes.html.tmp");
    std::fs::write(&users, "the user's draft").unwrap();
    let r = advise(&["--html".as_ref(), page.as_os_str()]);
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&users).unwrap(), "the user's draft");
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .starts_with(MACH_MARK));
    assert_eq!(listing(d.path()), ["notes.html.tmp", "notes.txt"]);
}

#[test]
fn advise_html_into_a_directory_is_refused_and_leaves_no_temporary() {
    let d = temp("advise-dir");
    let target = d.path().join("pages");
    std::fs::create_dir(&target).unwrap();
    for force in [false, true] {
        let mut args = vec!["--html".as_ref(), target.as_os_str()];
        if force {
            args.push("--force".as_ref());
        }
        let r = advise(&args);
        assert_eq!(listing(d.path()), ["pages"]);
        assert!(listing(&target).is_empty());
        assert!(!r.ok);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    }
}

#[test]
fn advise_calibrate_keeps_an_existing_file_without_force() {
    let d = temp("advise-calibrate");
    let tsv = d.path().join("calib.tsv");
    std::fs::write(&tsv, "the user's table\n").unwrap();
    let pgn = index().with_file_name("games.pgn");
    let args = [
        "--eval".as_ref(),
        pgn.as_os_str(),
        "--limit".as_ref(),
        "5".as_ref(),
        "--calibrate".as_ref(),
        tsv.as_os_str(),
    ];
    let r = advise(&args);
    assert_eq!(std::fs::read_to_string(&tsv).unwrap(), "the user's table\n");
    assert!(!r.ok && r.stderr.contains("pass --force"), "{}", r.stderr);
    let mut forced = args.to_vec();
    forced.push("--force".as_ref());
    let r = advise(&forced);
    assert!(r.ok, "{}", r.stderr);
    assert_ne!(std::fs::read_to_string(&tsv).unwrap(), "the user's table\n");
}

#[test]
fn advise_prints_escape_laden_names_without_control_characters() {
    let r = advise(&[]);
    assert!(r.ok, "{}", r.stderr);
    let text = String::from_utf8(r.stdout).unwrap();
    let controls: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(controls.is_empty(), "{controls:?} in {text}");
    assert!(
        text.contains("Evil]0;PWNED[2J"),
        "the name is shown: {text}"
    );
    assert!(text.contains("Ev0[31m"), "the event is shown: {text}");
}

#[test]
fn match_pgnout_and_html_on_one_file_are_refused_and_the_games_in_it_survive() {
    let d = temp("match-same");
    let pgn = d.path().join("g.pgn");
    let old = "[Event \"earlier\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n";
    std::fs::write(&pgn, old).unwrap();
    // Also spelled differently, and with --force: the same file all the same.
    let other = d.path().join(".").join("g.pgn");
    for (html, force) in [(&pgn, None), (&other, Some("--force"))] {
        let mut args = vec![
            "--pgnout".as_ref(),
            pgn.as_os_str(),
            "--html".as_ref(),
            html.as_os_str(),
        ];
        args.extend(force.map(std::ffi::OsStr::new));
        let r = quick_match(&args);
        assert!(!r.ok, "the match ran");
        assert!(
            r.stderr.contains("--pgnout and --html name the same file"),
            "{}",
            r.stderr
        );
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), old);
    }
    assert_eq!(listing(d.path()), ["g.pgn"]);
}

#[test]
fn match_html_keeps_a_users_file_without_force_and_plays_no_game() {
    let d = temp("match-user");
    let page = d.path().join("report.html");
    let pgn = d.path().join("games.pgn");
    std::fs::write(&page, USERS_PAGE).unwrap();
    let r = quick_match(&[
        "--html".as_ref(),
        page.as_os_str(),
        "--pgnout".as_ref(),
        pgn.as_os_str(),
    ]);
    assert!(!r.ok, "a user's file was replaced");
    assert!(r.stderr.contains("pass --force"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&page).unwrap(), USERS_PAGE);
    assert_eq!(listing(d.path()), ["report.html"], "no game played");
}

#[test]
fn book_out_into_a_directory_is_refused_even_with_force_and_leaves_no_temporary() {
    let d = temp("book-dir");
    let target = d.path().join("books");
    std::fs::create_dir(&target).unwrap();
    let r = mach!("book", "--index", index(), "--out", target, "--force");
    assert_eq!(listing(d.path()), ["books"]);
    assert!(!r.ok);
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    // A new book, then the same again only with --force.
    let book = d.path().join("gm.bin");
    let r = mach!("book", "--index", index(), "--out", book);
    assert!(r.ok, "{}", r.stderr);
    let first = std::fs::read(&book).unwrap();
    let r = mach!("book", "--index", index(), "--out", book);
    assert!(!r.ok && r.stderr.contains("pass --force"), "{}", r.stderr);
    let r = mach!("book", "--index", index(), "--out", book, "--force");
    assert!(r.ok, "{}", r.stderr);
    assert_eq!(std::fs::read(&book).unwrap(), first);
    assert_eq!(listing(d.path()), ["books", "gm.bin"]);
}

/// Sets `BookFile` to `path` and expects it refused with `why`, then `readyok`.
fn refused(e: &mut Engine, path: &Path, why: &str) {
    e.send(&format!("setoption name BookFile value {}", path.display()));
    e.send("isready");
    let (_, before) = e.expect("readyok", LONG, |l| l == "readyok");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string BookFile:") && l.contains(why)),
        "{before:?}"
    );
}

#[cfg(unix)]
#[test]
fn book_file_a_pipe_with_no_writer_or_stdin_is_refused_and_the_engine_still_answers_and_quits() {
    let d = temp("book-fifo");
    let fifo = d.path().join("book.bin");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut e = Engine::start();
    e.handshake();
    refused(&mut e, &fifo, "not a regular file (a pipe)");
    // The engine's own input: reading it as a book would eat the commands.
    refused(&mut e, Path::new("/dev/stdin"), "not a regular file");
    e.send("position startpos");
    e.send("go depth 2");
    e.bestmove(LONG);
    e.send("quit");
    assert!(e.wait_exit(LONG), "quit not honoured");
}

#[cfg(target_os = "linux")] // `ulimit -v` in bash
#[test]
fn book_file_dev_zero_or_an_oversized_file_is_refused_without_eating_memory() {
    let d = temp("book-big");
    // Sparse: 600 MiB of zeros (sorted keys, whole entries) that take no disk.
    let big = d.path().join("big.bin");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(600 << 20)
        .unwrap();
    // 400 MiB of address space: enough to play, not to hold either file.
    let mut e = Engine::start_with_address_space(400 * 1024);
    e.handshake();
    refused(
        &mut e,
        Path::new("/dev/zero"),
        "not a regular file (a device)",
    );
    refused(&mut e, &big, "600 MB is more than a book may have (512 MB)");
    e.send("position startpos");
    e.send("go depth 2");
    e.bestmove(LONG);
    e.send("quit");
    assert!(e.wait_exit(LONG), "quit not honoured");
}
