//! A UCI engine as a child process, where every wait has a deadline.
//!
//! So a hung, crashed or silent engine is a recorded failure, never a hung runner.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::reaper;

/// How to start an engine: command, display name and UCI options.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub cmd: String,
    pub args: Vec<String>,
    pub name: String,
    pub options: Vec<(String, String)>,
}

/// Why an engine gave no usable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No answer before the deadline.
    Timeout,
    /// The process closed its output (crashed or quit).
    Disconnected,
    /// It could not be started.
    Spawn(String),
}

impl std::fmt::Display for Failure {
    /// The failure in words, for the PGN termination detail.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout => write!(f, "no answer in time"),
            Failure::Disconnected => write!(f, "engine process ended"),
            Failure::Spawn(e) => write!(f, "cannot start engine: {e}"),
        }
    }
}

/// What the engine answered to `go`.
pub struct Reply {
    pub bestmove: String,
    pub elapsed: Duration,
    /// The depth of the last scored `info` line.
    pub depth: Option<u32>,
    /// The last score it reported, in centipawns from its own side, mates as
    /// +-[`MATE_CP`] less the distance; `None` if it reported none.
    pub score: Option<i32>,
}

/// The centipawn value given to a reported mate (less its distance in moves),
/// so that adjudication treats mates as the largest scores.
pub const MATE_CP: i32 = 100_000;

/// A score as PGN move comments show it, from the mover's view: `+0.31`, `-M3`.
pub fn score_text(score: i32) -> String {
    if score.abs() >= MATE_CP - 1000 {
        let sign = if score > 0 { '+' } else { '-' };
        format!("{sign}M{}", MATE_CP - score.abs())
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    }
}

/// The depth of an `info` line that also has a score (see `info_score`).
fn info_depth(line: &str) -> Option<u32> {
    info_score(line)?;
    let mut t = line.split_whitespace();
    t.position(|w| w == "depth")?;
    t.next()?.parse().ok()
}

/// The longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

/// Lines of an engine's output read ahead of the game loop; a flooding engine
/// then waits on its pipe, so the runner holds at most this many lines of at
/// most `MAX_LINE` bytes (4 MiB) per engine, plus the read buffer.
const LINE_QUEUE: usize = 64;

/// The read buffer of an engine's output.
const READ_BUFFER: usize = 8 * 1024;

/// Reads one line of at most `MAX_LINE` bytes (the rest of a longer one is
/// skipped), decoding invalid UTF-8 lossily. `None` at end of output.
fn read_line(r: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let mut any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return any.then(|| String::from_utf8_lossy(&buf).into_owned());
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        r.consume(if done { take + 1 } else { take });
        if done {
            let text = String::from_utf8_lossy(&buf);
            return Some(text.trim_end_matches('\r').to_string());
        }
    }
}

/// Reads an engine's output on a thread of its own, line by line (each
/// logged), into the channel returned with the thread. The channel holds
/// `LINE_QUEUE` lines: an engine that writes faster than the game loop reads
/// (400 MB of `info` lines) is held up on its pipe instead of growing the
/// runner. The thread ends at the end of the output or once the channel's
/// receiver is dropped (which also wakes a send waiting for room).
fn spawn_reader(
    label: String,
    src: impl std::io::Read + Send + 'static,
) -> (Receiver<String>, std::thread::JoinHandle<()>) {
    let (tx, rx) = crossbeam_channel::bounded(LINE_QUEUE);
    let reader = std::thread::spawn(move || {
        let mut out = BufReader::with_capacity(READ_BUFFER, src);
        while let Some(line) = read_line(&mut out) {
            log_line(&label, '>', &line);
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (rx, reader)
}

/// `mach match --log FILE`: every engine's input (`<`), output (`>`) and
/// stderr (`!`), one line each, with the time since the match started.
static LOG: OnceLock<(Mutex<std::fs::File>, Instant)> = OnceLock::new();

/// Opens the log (once per process).
pub fn open_log(path: &std::path::Path) -> Result<(), String> {
    let f = std::fs::File::options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let _ = LOG.set((Mutex::new(f), Instant::now()));
    Ok(())
}

/// Appends one line of an engine's traffic to the `--log` file, if any.
fn log_line(engine: &str, dir: char, line: &str) {
    if let Some((f, start)) = LOG.get() {
        let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(
            f,
            "{:10.3} {engine} {dir} {line}",
            start.elapsed().as_secs_f64()
        );
    }
}

/// Process ids of the engines running now (each leads its process group),
/// for `kill_all`. Held while an engine is started, so that a child of the
/// runner not listed here is never a running engine.
static RUNNING: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// How long the runner waits for what an engine started to be gone.
const CLEAN_UP: Duration = Duration::from_secs(2);

/// Makes the runner the reaper of the engines' orphans (Linux), so that
/// `EngineProc`'s end and `kill_orphans` reach processes that left the
/// engine's process group. Call once before the first engine starts.
pub fn adopt_orphans() {
    reaper::adopt_orphans();
}

/// Kills every running engine and everything it started (on Ctrl-C / SIGTERM):
/// their pending `go` then fails at once.
pub fn kill_all() {
    let groups = RUNNING.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for pid in groups {
        reaper::kill_group(pid);
    }
    kill_orphans();
}

/// One pass over the runner's children that are not running engines (Linux:
/// the orphans the engines left, adopted by `adopt_orphans`): those in
/// `spare` are only reaped if they have ended, the others are killed (and
/// reaped if already gone). Returns the ones killed. Done under the lock of
/// `RUNNING`: no engine starts meanwhile and no other pass reaps the same
/// processes, so every pid signalled here is still a child of the runner.
fn sweep(spare: &[i32]) -> Vec<i32> {
    let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
    let mut killed = Vec::new();
    for pid in reaper::children_except(&running) {
        if !spare.contains(&pid) {
            reaper::kill(pid);
            killed.push(pid);
        }
        reaper::try_reap(pid);
    }
    killed
}

/// Kills and reaps every child of the runner that is not a running engine,
/// and the orphans those leave in turn: at the end of a match nothing an
/// engine started is left (on Linux; elsewhere none are known).
pub fn kill_orphans() {
    let deadline = Instant::now() + CLEAN_UP;
    loop {
        let killed = sweep(&[]);
        if killed.is_empty() {
            return;
        }
        log::info!("killed processes left behind by the engines: {killed:?}");
        if Instant::now() >= deadline {
            log::warn!("processes left behind by the engines did not end: {killed:?}");
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The score of an `info` line (`score cp X` or `score mate N`), ignoring
/// bounds and any MultiPV line but the first.
fn info_score(line: &str) -> Option<i32> {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.first() != Some(&"info") || t.get(1) == Some(&"string") {
        return None;
    }
    if let Some(i) = t.iter().position(|w| *w == "multipv") {
        if t.get(i + 1) != Some(&"1") {
            return None;
        }
    }
    if t.contains(&"lowerbound") || t.contains(&"upperbound") {
        return None;
    }
    let i = t.iter().position(|w| *w == "score")?;
    let n: i32 = t.get(i + 2)?.parse().ok()?;
    match *t.get(i + 1)? {
        "cp" => Some(n.clamp(-MATE_CP / 2, MATE_CP / 2)),
        "mate" if n > 0 => Some(MATE_CP - n.min(1000)),
        "mate" => Some(-MATE_CP + (-n).min(1000)),
        _ => None,
    }
}

/// The name an `option name NAME type ...` line declares.
fn option_name(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("option name ")?;
    let name = rest.split(" type ").next()?.trim();
    (!name.is_empty()).then_some(name)
}

/// A running engine: its process, its input, and its output line by line.
pub struct EngineProc {
    /// The engine's name with its process id, for the log.
    label: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The names of the options it declared before `uciok`.
    declared: Vec<String>,
}

/// Time allowed for `uciok` and `readyok`.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl EngineProc {
    /// Starts the engine, sets its options and waits for it to be ready.
    pub fn start(spec: &EngineSpec) -> Result<EngineProc, Failure> {
        let mut cmd = Command::new(&spec.cmd);
        // Its own process group, so that a wrapper script's children die with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if LOG.get().is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        let mut child = {
            // Started and listed under one lock: never taken for an orphan.
            let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
            let child = cmd
                .spawn()
                .map_err(|e| Failure::Spawn(format!("{}: {e}", spec.cmd)))?;
            if let Ok(pid) = i32::try_from(child.id()) {
                running.push(pid);
            }
            child
        };
        let label = format!("{}[{}]", spec.name, child.id());
        if let Some(err) = child.stderr.take() {
            let label = label.clone();
            std::thread::spawn(move || {
                let mut err = BufReader::new(err);
                while let Some(line) = read_line(&mut err) {
                    log_line(&label, '!', &line);
                }
            });
        }
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            end(&mut child);
            return Err(Failure::Disconnected);
        };
        let (rx, _reader) = spawn_reader(label.clone(), stdout);
        let mut e = EngineProc {
            label,
            child,
            stdin,
            lines: rx,
            declared: Vec::new(),
        };
        e.send("uci")?;
        let mut declared = Vec::new();
        e.wait_for(
            |l| {
                if let Some(name) = option_name(l) {
                    declared.push(name.to_string());
                }
                l.trim() == "uciok"
            },
            HANDSHAKE,
        )?;
        e.declared = declared;
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    /// Sends one line (logged); a closed pipe means the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        log_line(&self.label, '<', line);
        writeln!(self.stdin, "{line}").map_err(|_| Failure::Disconnected)?;
        self.stdin.flush().map_err(|_| Failure::Disconnected)
    }

    /// `isready` answered with `readyok`.
    pub fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(|l| l.trim() == "readyok", HANDSHAKE)
            .map(|_| ())
    }

    /// Whether the engine declared an option of this name (case-insensitive, as UCI matches).
    pub fn declares(&self, name: &str) -> bool {
        self.declared.iter().any(|d| d.eq_ignore_ascii_case(name))
    }

    /// Waits at most `timeout` for a line that satisfies `pred`, dropping others.
    fn wait_for(
        &mut self,
        mut pred: impl FnMut(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if pred(&l) => return Ok(l),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Disconnected),
            }
        }
    }

    /// Sends `position` and `go`, waits for `bestmove` at most `timeout`.
    pub fn go(&mut self, position: &str, go: &str, timeout: Duration) -> Result<Reply, Failure> {
        // Whatever is left from the last move (a second `bestmove`, late info)
        // must not be taken as this move's answer: everything the engine said
        // before its `readyok` is dropped (cutechess syncs the same way).
        self.send(position)?;
        self.ready()?;
        let start = Instant::now();
        self.send(go)?;
        let deadline = start + timeout;
        let (mut score, mut depth) = (None, None);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Disconnected),
            };
            if let Some(s) = info_score(&line) {
                score = Some(s);
                depth = info_depth(&line);
            }
            let mut t = line.split_whitespace();
            if t.next() == Some("bestmove") {
                return Ok(Reply {
                    bestmove: t.next().unwrap_or("").to_string(),
                    elapsed: start.elapsed(),
                    depth,
                    score,
                });
            }
        }
    }
}

impl Drop for EngineProc {
    /// Asks the engine to quit, then kills it and its children in any case.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to quit cleanly, then make sure it is gone.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Always, even after a clean exit: what it started must not outlive it.
        self.kill();
    }
}

impl EngineProc {
    /// Kills the engine and everything it started.
    fn kill(&mut self) {
        end(&mut self.child);
    }
}

/// Kills an engine and everything it started: its process group, and (Linux)
/// what left the group and was orphaned by this kill. A process it detached
/// earlier whose parent had already ended is the runner's child by then,
/// not told apart from other engines' ones: `kill_orphans` ends it with
/// the match.
fn end(child: &mut Child) {
    let Ok(pid) = i32::try_from(child.id()) else {
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    let before = {
        let running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        reaper::children_except(&running)
    };
    reaper::kill_group(pid);
    let _ = child.kill();
    let _ = child.wait();
    RUNNING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&p| p != pid);
    // The group's members die; what they had started outside the group is
    // handed to the runner (a child subreaper), killed here round by round
    // until the group is empty and no new orphan appears.
    let deadline = Instant::now() + CLEAN_UP;
    loop {
        let killed = sweep(&before);
        if !killed.is_empty() {
            log::info!("killed processes left behind by engine {pid}: {killed:?}");
        }
        if killed.is_empty() && reaper::group_gone(pid) {
            return;
        }
        if Instant::now() >= deadline {
            log::warn!("what engine {pid} started did not end in time: {killed:?}");
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_line_names_its_option_even_with_spaces_in_the_name() {
        assert_eq!(
            option_name("option name Move Overhead type spin default 30 min 0 max 10000"),
            Some("Move Overhead")
        );
        assert_eq!(
            option_name("option name RFP_MARGIN type spin default 75 min 30 max 150"),
            Some("RFP_MARGIN")
        );
        assert_eq!(option_name("id name Mach"), None);
        assert_eq!(option_name("option name  type check"), None);
    }

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(
            info_score("info depth 9 score cp 31 nodes 10 pv e2e4"),
            Some(31)
        );
        assert_eq!(info_score("info depth 9 score cp -250"), Some(-250));
        assert_eq!(
            info_score("info depth 9 score mate 3 pv a1a8"),
            Some(MATE_CP - 3)
        );
        assert_eq!(info_score("info depth 9 score mate -2"), Some(-MATE_CP + 2));
        assert_eq!(info_score("info depth 9 score cp 40 lowerbound"), None);
        assert_eq!(info_score("info multipv 2 depth 9 score cp 10"), None);
        assert_eq!(info_score("info multipv 1 depth 9 score cp 10"), Some(10));
        assert_eq!(info_score("info string score cp x"), None);
        assert_eq!(info_score("info depth 3 score"), None);
        assert_eq!(info_score("bestmove e2e4"), None);
        assert_eq!(info_score("info score cp 99999999"), Some(MATE_CP / 2));
        assert_eq!(
            info_depth("info depth 15 seldepth 20 score cp 31"),
            Some(15)
        );
        assert_eq!(info_depth("info depth 15 currmove e2e4"), None);
    }

    #[test]
    fn scores_are_written_as_move_comments_show_them() {
        assert_eq!(score_text(31), "+0.31");
        assert_eq!(score_text(-250), "-2.50");
        assert_eq!(score_text(0), "+0.00");
        assert_eq!(score_text(MATE_CP - 3), "+M3");
        assert_eq!(score_text(-MATE_CP + 2), "-M2");
    }

    /// `limit` bytes of `info` lines, counting how many were read.
    struct Flood {
        read: std::sync::Arc<std::sync::atomic::AtomicUsize>,
        limit: usize,
    }

    const FLOOD_LINE: &[u8] = b"info depth 1 score cp 0 nodes 1 pv e2e4\n";

    impl std::io::Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            use std::sync::atomic::Ordering;
            let done = self.read.load(Ordering::SeqCst);
            let n = buf.len().min(self.limit - done);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = FLOOD_LINE[(done + i) % FLOOD_LINE.len()];
            }
            self.read.fetch_add(n, Ordering::SeqCst);
            Ok(n)
        }
    }

    #[test]
    fn a_flooding_engine_is_read_no_further_than_a_full_queue_and_the_reader_ends_when_dropped() {
        use std::sync::atomic::Ordering;
        let read = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let flood = Flood {
            read: read.clone(),
            limit: 64 << 20,
        };
        let (rx, reader) = spawn_reader("flood".into(), flood);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !rx.is_full() {
            assert!(
                Instant::now() < deadline,
                "the queue never fills: {} lines queued, {} bytes read",
                rx.len(),
                read.load(Ordering::SeqCst)
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        // The reader now waits for room instead of reading on.
        std::thread::sleep(Duration::from_millis(100));
        let bound = (LINE_QUEUE + 1) * FLOOD_LINE.len() + READ_BUFFER;
        assert!(read.load(Ordering::SeqCst) <= bound, "{read:?} > {bound}");
        // The game loop gave up on this engine: the reader must not wait forever.
        drop(rx);
        let deadline = Instant::now() + Duration::from_secs(5);
        while !reader.is_finished() {
            assert!(Instant::now() < deadline, "the reader still waits");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn engine_lines_are_decoded_lossily_and_capped() {
        let mut long = vec![b'x'; 3 * MAX_LINE];
        long.extend_from_slice(b"\ninfo string caf\xe9\r\nid name J\xfcrgen\nlast");
        let mut r = std::io::Cursor::new(long);
        assert_eq!(read_line(&mut r).unwrap().len(), MAX_LINE);
        assert_eq!(read_line(&mut r).unwrap(), "info string caf\u{fffd}");
        assert_eq!(read_line(&mut r).unwrap(), "id name J\u{fffd}rgen");
        assert_eq!(read_line(&mut r).unwrap(), "last");
        assert_eq!(read_line(&mut r), None);
    }
}
