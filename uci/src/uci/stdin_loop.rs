//! The stdin thread. It answers `uci`, `stop`, `ponderhit` and `quit`
//! itself, at once, even mid-search, and hands everything else to the
//! controller in order. `isready` goes to the controller too, which never
//! waits on a search: it is answered at once, yet after every earlier
//! command took effect. End of input counts as `quit`.

use std::io::BufRead;
use std::sync::Arc;
use std::time::Instant;

use mach_engine::SearchControl;

use crate::uci::controller::Controller;
use crate::uci::msg::Msg;
use crate::uci::options;
use crate::uci::output::{info_string, send};
use crate::uci::protocol::{self, Command};

pub fn run() {
    let (tx, rx) = crossbeam_channel::unbounded();
    let controller_tx = tx.clone();
    let controller = std::thread::Builder::new()
        .name("controller".into())
        .spawn(move || Controller::new(controller_tx).run(rx))
        .expect("cannot start the controller thread");

    // The control of the latest `go`. Only this thread replaces it, and a
    // fresh one is made for every `go`, so an early `stop` cannot leak into
    // a later search.
    let mut current: Option<Arc<SearchControl>> = None;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break, // end of input: quit
            Ok(_) => {}
        }
        // GUIs send ASCII; anything else is replaced rather than refused.
        let line = String::from_utf8_lossy(&buf);
        log::trace!("< {}", line.trim_end());
        let command = match protocol::parse(&line) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => {
                info_string(&e.to_string());
                continue;
            }
        };
        match command {
            Command::Uci => {
                send(concat!("id name Mach ", env!("CARGO_PKG_VERSION")));
                send("id author the Mach developers");
                for line in options::declarations() {
                    send(&line);
                }
                send("uciok");
            }
            Command::IsReady => {
                let _ = tx.send(Msg::IsReady);
            }
            Command::Debug(_) | Command::Register => {}
            Command::Stop => {
                if let Some(c) = &current {
                    c.stop();
                }
            }
            Command::PonderHit => {
                if let Some(c) = &current {
                    c.ponderhit();
                }
            }
            Command::Quit => break,
            Command::Go(go) => {
                let control = Arc::new(SearchControl::new(go.ponder, Instant::now()));
                current = Some(control.clone());
                let _ = tx.send(Msg::Go(go, control));
            }
            other => {
                let _ = tx.send(Msg::Command(other));
            }
        }
    }
    if let Some(c) = &current {
        c.stop();
    }
    let _ = tx.send(Msg::Quit);
    let _ = controller.join();
}
