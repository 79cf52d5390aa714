//! A UCI session with the real `mach` binary through pipes. Every wait polls
//! with a timeout; no test sleeps to "give the engine time".

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line received so far.
    pub seen: Vec<String>,
}

pub const LONG: Duration = Duration::from_secs(30);

/// The last iteration of a search with no depth, node or time limit
/// (`max_depth` in engine/src/iterative.rs). Once it is reported, the
/// search has nothing left to do but answer.
pub const LAST_DEPTH: u32 = mach_engine::score::MAX_PLY as u32 - 4;

/// How long a search that has done all its work is watched for a `bestmove`
/// it must hold back. It would only have to return from a few calls, so this
/// covers the scheduling of a loaded machine, not any searching.
pub const HOLD: Duration = Duration::from_millis(500);

impl Engine {
    pub fn start() -> Engine {
        Engine::spawn(Command::new(env!("CARGO_BIN_EXE_mach")))
    }

    /// The engine under `ulimit -v kib` (a limit on its address space).
    pub fn start_with_address_space(kib: u64) -> Engine {
        let mut bash = Command::new("bash");
        bash.args([
            "-c",
            &format!("ulimit -v {kib}; exec \"{}\"", env!("CARGO_BIN_EXE_mach")),
        ]);
        Engine::spawn(bash)
    }

    /// The engine as a fresh install sees the world: `HOME` is `home` (an
    /// empty directory), and neither `XDG_DATA_HOME` nor `MACH_INDEX` is set.
    pub fn start_fresh_install(home: &Path) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mach"));
        command
            .env("HOME", home)
            .env_remove("XDG_DATA_HOME")
            .env_remove("MACH_INDEX");
        Engine::spawn_as_is(command)
    }

    fn spawn(mut command: Command) -> Engine {
        // Hermetic: never the user's own default index.
        command.env("MACH_INDEX", "/nonexistent/mach-test-default-index");
        Engine::spawn_as_is(command)
    }

    fn spawn_as_is(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start mach");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.seen.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads until a line satisfies `pred`; returns it and the lines before it.
    pub fn expect(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if pred(&l) => return (l, before),
                Some(l) => before.push(l),
                None => panic!("timed out waiting for {what}; got {before:#?}"),
            }
        }
    }

    /// Asserts that no line matching `pred` arrives within `window`.
    pub fn expect_none(
        &mut self,
        what: &str,
        window: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            assert!(!pred(&l), "unexpected {what}: {l}");
            got.push(l);
        }
        got
    }

    /// Reads until a line satisfies `pred`; fails if a `bestmove` comes first.
    pub fn expect_before_bestmove(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let (l, before) = self.expect(what, LONG, |l| l.starts_with("bestmove") || pred(l));
        assert!(
            !l.starts_with("bestmove"),
            "{l} before {what}; got {before:#?}"
        );
        l
    }

    /// Asserts that a search without limits (`go infinite`, `go ponder`)
    /// holds its move after it has finished: waits for its report of
    /// [`LAST_DEPTH`], then fails on any `bestmove` within [`HOLD`]. Needs a
    /// position the search gets through quickly, such as a mate in one.
    pub fn expect_finished_and_held(&mut self) {
        let last = LAST_DEPTH.to_string();
        self.expect_before_bestmove(&format!("info depth {last}"), |l| {
            l.starts_with("info depth") && field(l, "depth") == Some(last.as_str())
        });
        self.expect_none("bestmove from a finished search", HOLD, |l| {
            l.starts_with("bestmove")
        });
    }

    /// Asserts that no `bestmove` of earlier searches or commands is still on
    /// its way, without a time window: a new `go depth 1` starts only after
    /// every earlier search thread has answered and been joined (the
    /// controller joins it before it starts the next), so anything they or
    /// earlier commands printed comes before the new search's first `info`.
    /// The position must have a legal move.
    pub fn expect_no_stray_bestmove(&mut self) {
        self.send("go depth 1");
        let (l, before) = self.expect("bestmove", LONG, |l| l.starts_with("bestmove"));
        // This search's own output first: its depth-1 line, or the memory's
        // move played at once on Mach's analysis (`BookAnalysis`).
        assert!(
            before.iter().any(|l| {
                (l.starts_with("info depth") && field(l, "depth") == Some("1"))
                    || (l.starts_with("info string book ") && l.contains(": played from memory"))
            }),
            "'{l}' came before the next search's first info: {before:#?}"
        );
    }

    pub fn handshake(&mut self) {
        self.send("uci");
        self.expect("uciok", LONG, |l| l == "uciok");
        self.send("isready");
        self.expect("readyok", LONG, |l| l == "readyok");
    }

    /// Waits for `bestmove`; returns its move and the info lines before it.
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let (l, before) = self.expect("bestmove", timeout, |l| l.starts_with("bestmove"));
        (l.split_whitespace().nth(1).unwrap().to_string(), before)
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// True when python3 can import `module` (python-chess's); otherwise says
/// on stderr that `test` is not run, so a machine without it skips it aloud.
pub fn python_has(module: &str, test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("not run: {test} needs python3 with python-chess (pip install chess)");
    }
    ok
}

/// First move of the PV of an `info ... pv ...` line.
pub fn pv_first(info: &str) -> Option<String> {
    let mut it = info.split_whitespace();
    it.position(|t| t == "pv")?;
    it.next().map(str::to_string)
}

/// Value after `key` in an info line.
pub fn field<'a>(info: &'a str, key: &str) -> Option<&'a str> {
    let mut it = info.split_whitespace();
    it.position(|t| t == key)?;
    it.next()
}

/// The path `name` in a fresh directory of its own (named `prefix`-...);
/// the directory and all in it are removed when this is dropped, so keep it
/// until the processes that use it have exited.
pub struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Scratch {
    pub fn new(prefix: &str, name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("{prefix}-"))
            .tempdir()
            .unwrap();
        let path = dir.path().join(name);
        Scratch { _dir: dir, path }
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

/// A fresh directory for what all the tests of this binary share (an index
/// built once and kept in a static, which is never dropped). It is in cargo's
/// `target/tmp`, not the system's, and removed when the test binary exits.
pub fn shared_dir(prefix: &str) -> PathBuf {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{prefix}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
        .keep();
    remove_at_exit(&dir);
    dir
}

#[cfg(unix)]
fn remove_at_exit(dir: &Path) {
    static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    extern "C" fn remove_all() {
        for dir in DIRS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    let mut dirs = DIRS.lock().unwrap_or_else(|e| e.into_inner());
    if dirs.is_empty() {
        // SAFETY: registers a plain function; it runs at exit(3), after
        // the test harness has finished (on success and on failure alike).
        unsafe { libc::atexit(remove_all) };
    }
    dirs.push(dir.to_path_buf());
}

/// Elsewhere it stays in `target/tmp` until `cargo clean`.
#[cfg(not(unix))]
fn remove_at_exit(_dir: &Path) {}

/// An `info string` of the grandmaster memory (the advisor, its book),
/// which is on by default: not an error.
pub fn is_memory_line(l: &str) -> bool {
    l.starts_with("info string advisor") || l.starts_with("info string book")
}

/// The `mach` binary under test.
pub fn mach() -> &'static str {
    env!("CARGO_BIN_EXE_mach")
}

/// A fresh, empty directory for one test, removed when dropped.
pub fn temp(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("mach-{name}-"))
        .tempdir()
        .unwrap()
}

/// `mach match ARGS`, hermetic (never the user's default index); its stdout.
pub fn run_match(args: &[&str]) -> String {
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

/// An index of the first `games` games of the built-in database, in a
/// directory named after `prefix` that lasts the test run.
pub fn small_index(prefix: &str, games: u32) -> PathBuf {
    let dir = shared_dir(prefix).join("index");
    let out = Command::new(mach())
        .args(["index", "builtin:gm2700-classical-4000.pgn", "--max-games"])
        .arg(games.to_string())
        .args(["--threads", "1", "--heap", "32", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// What a finished `mach` printed, stdout then stderr.
pub fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The games an index at `out` holds, from its `meta.txt`.
pub fn games_in(out: &Path) -> u64 {
    let meta = std::fs::read_to_string(out.join("meta.txt")).unwrap();
    meta.lines()
        .find_map(|l| l.strip_prefix("games = "))
        .unwrap()
        .parse()
        .unwrap()
}

/// Runs `mach` with `args` to the end.
pub fn run_mach(args: &[&str]) -> std::process::Output {
    Command::new(mach()).args(args).output().unwrap()
}

/// Fails, showing `t`, unless it holds every one of `expected`.
pub fn assert_says(t: &str, expected: &[&str]) {
    for e in expected {
        assert!(t.contains(e), "{e} missing from:\n{t}");
    }
}
