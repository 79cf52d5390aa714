//! A UCI engine as a child process: every wait has a deadline, so a hung,
//! crashed or silent engine is a recorded failure, never a hung runner.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

/// How to start an engine: command, display name and UCI options.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub cmd: String,
    pub args: Vec<String>,
    pub name: String,
    pub options: Vec<(String, String)>,
}

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
    /// The last score it reported, in centipawns from its own side, mates as
    /// +-[`MATE_CP`] less the distance; `None` if it reported none.
    pub score: Option<i32>,
}

/// The centipawn value given to a reported mate (less its distance in moves),
/// so that adjudication treats mates as the largest scores.
pub const MATE_CP: i32 = 100_000;

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

pub struct EngineProc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Time allowed for `uciok` and `readyok`.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl EngineProc {
    pub fn start(spec: &EngineSpec) -> Result<EngineProc, Failure> {
        let mut cmd = Command::new(&spec.cmd);
        // Its own process group, so that a wrapper script's children die with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Spawn(format!("{}: {e}", spec.cmd)))?;
        let stdout = child.stdout.take().ok_or(Failure::Disconnected)?;
        let stdin = child.stdin.take().ok_or(Failure::Disconnected)?;
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = EngineProc {
            child,
            stdin,
            lines: rx,
        };
        e.send("uci")?;
        e.wait_for(|l| l.trim() == "uciok", HANDSHAKE)?;
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}").map_err(|_| Failure::Disconnected)?;
        self.stdin.flush().map_err(|_| Failure::Disconnected)
    }

    /// `isready` answered with `readyok`.
    pub fn ready(&mut self) -> Result<(), Failure> {
        self.send("isready")?;
        self.wait_for(|l| l.trim() == "readyok", HANDSHAKE)
            .map(|_| ())
    }

    fn wait_for(
        &mut self,
        pred: impl Fn(&str) -> bool,
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
        self.send(position)?;
        let start = Instant::now();
        self.send(go)?;
        let deadline = start + timeout;
        let mut score = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Disconnected),
            };
            if let Some(s) = info_score(&line) {
                score = Some(s);
            }
            let mut t = line.split_whitespace();
            if t.next() == Some("bestmove") {
                return Ok(Reply {
                    bestmove: t.next().unwrap_or("").to_string(),
                    elapsed: start.elapsed(),
                    score,
                });
            }
        }
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it a moment to quit cleanly, then make sure it is gone.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl EngineProc {
    /// Kills the engine and everything it started (its process group).
    fn kill(&mut self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the
            // child leads (set up in `start`); it touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
