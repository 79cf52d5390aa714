//! Ctrl-C and SIGTERM during a match stop it without losing the finished games.
//!
//! They kill the engines (and whatever they started) and let the runner print
//! the summary of the finished games, which the PGN file already holds. A
//! second signal exits at once.

use std::sync::atomic::{AtomicBool, Ordering};

use super::engine_proc;

/// Whether Ctrl-C or SIGTERM arrived.
static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once per process; a second call keeps the first).
pub fn install() {
    let r = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            eprintln!("mach: interrupted twice, exiting now");
            engine_proc::kill_all();
            std::process::exit(130);
        }
        eprintln!("mach: interrupted; stopping the engines and writing the summary");
        engine_proc::kill_all();
    });
    if let Err(e) = r {
        log::warn!("cannot catch Ctrl-C/SIGTERM: {e}; an interrupted match loses its summary");
    }
}

/// Whether the match was interrupted.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
