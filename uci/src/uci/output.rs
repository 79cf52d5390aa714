//! Everything Mach says on stdout goes through here: one line at a time,
//! under the stdout lock, flushed at once (GUIs read pipes line by line).

use std::io::Write;

use mach_engine::report::{Info, Reporter};
use mach_engine::score::DisplayScore;
use mach_engine::tt::Bound;
use std::sync::Mutex;

pub fn send(line: &str) {
    log::trace!("> {line}");
    let mut out = std::io::stdout().lock();
    // A GUI that closed the pipe cannot be told anything; carry on quietly.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

pub fn info_string(msg: &str) {
    // One line per message: a newline inside would start a bogus command.
    send(&format!("info string {}", msg.replace(['\n', '\r'], " ")));
}

/// Formats search reports as UCI `info` lines and remembers the last one.
pub struct UciReporter {
    pub chess960: bool,
    pub last: Mutex<Option<Info>>,
}

impl UciReporter {
    pub fn new(chess960: bool) -> UciReporter {
        UciReporter {
            chess960,
            last: Mutex::new(None),
        }
    }

    pub fn format(&self, i: &Info) -> String {
        let bound = match i.bound {
            Bound::Exact => "",
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
        };
        let pv: Vec<String> =
            i.pv.iter()
                .map(|&m| mach_engine::board::uci(m, self.chess960))
                .collect();
        format!(
            "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.multipv,
            DisplayScore::from_score(i.score),
            bound,
            i.nodes,
            i.nps,
            i.hashfull,
            i.time_ms,
            pv.join(" ")
        )
    }
}

impl Reporter for UciReporter {
    fn info(&self, info: &Info) {
        send(&self.format(info));
        if info.multipv == 1 {
            *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(info.clone());
        }
    }
}
