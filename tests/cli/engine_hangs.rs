//! Inputs that once left `mach` silent (issue #55): a position whose
//! captures explode at depth 1, and a large `Hash` before `isready`.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, LONG};
use shakmaty::uci::UciMove;

const MS: fn(u64) -> Duration = Duration::from_millis;

/// Fifteen queens a side: after any first move the captures explode, so
/// depth 1 does not end in millions of nodes. Any GUI can send it.
const QUEENS: &str = "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ b - - 0 1";

/// How long an answer that should come at once may take on a loaded
/// machine. Before the fixes these never came (the queens) or took 7 s
/// (`Hash 4096` on the 2-core machine).
const AT_ONCE: Duration = Duration::from_secs(3);

/// Waits for the `bestmove` and checks that it is legal in the queens' position.
fn legal_bestmove(e: &mut Engine, within: Duration) {
    let (best, _) = e.bestmove(within);
    // Mach's own reading: more than the standard material is accepted.
    let pos = mach_engine::board::from_fen(QUEENS, false).unwrap();
    let legal = best
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(&pos).ok())
        .is_some();
    assert!(legal, "bestmove {best} is not legal in {QUEENS}");
}

#[test]
fn fifteen_queens_a_side_answer_go_movetime_on_time_with_a_legal_move() {
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("position fen {QUEENS}"));
    let t = Instant::now();
    e.send("go movetime 100");
    legal_bestmove(&mut e, AT_ONCE);
    assert!(t.elapsed() < AT_ONCE, "took {:?}", t.elapsed());
    // And on a clock, as a game would send it.
    e.send("go wtime 1000 btime 1000 winc 0 binc 0");
    legal_bestmove(&mut e, AT_ONCE);
}

#[test]
fn fifteen_queens_a_side_answer_go_nodes_with_a_legal_move() {
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("position fen {QUEENS}"));
    e.send("go nodes 1000");
    legal_bestmove(&mut e, AT_ONCE);
}

#[test]
fn stop_ends_go_infinite_on_fifteen_queens_a_side() {
    let mut e = Engine::start();
    e.handshake();
    e.send(&format!("position fen {QUEENS}"));
    e.send("go infinite");
    // Answered mid-search, as always.
    e.send("isready");
    e.expect("readyok", LONG, |l| l == "readyok");
    e.send("stop");
    legal_bestmove(&mut e, AT_ONCE);
    // Exactly one answer, and the engine goes on working.
    e.send("position startpos");
    e.expect_no_stray_bestmove();
}

#[test]
fn quit_and_end_of_input_end_a_search_of_fifteen_queens_a_side() {
    for how in ["quit", "end of input"] {
        let mut e = Engine::start();
        e.handshake();
        e.send(&format!("position fen {QUEENS}"));
        e.send("go infinite");
        e.send("isready");
        e.expect("readyok", LONG, |l| l == "readyok");
        if how == "quit" {
            e.send("quit");
        } else {
            e.close();
        }
        assert!(e.wait_exit(AT_ONCE), "mach did not exit on {how}");
    }
}

/// `isready` answered within [`AT_ONCE`] of being sent.
fn ready_at_once(e: &mut Engine, after: &str) {
    let t = Instant::now();
    e.send("isready");
    e.expect("readyok", LONG, |l| l == "readyok");
    assert!(
        t.elapsed() < AT_ONCE,
        "readyok {:?} after {after}",
        t.elapsed()
    );
}

#[test]
fn a_hash_of_4096_mib_is_ready_at_once_and_clears_at_once() {
    let mut e = Engine::start();
    e.handshake();
    e.send("setoption name Hash value 4096");
    ready_at_once(&mut e, "setoption name Hash value 4096");
    // A GUI starts each game so; and the button.
    e.send("ucinewgame");
    ready_at_once(&mut e, "ucinewgame");
    e.send("position startpos moves e2e4");
    on_time(&mut e);
    e.send("setoption name Clear Hash");
    ready_at_once(&mut e, "Clear Hash");
    on_time(&mut e);
}

/// A search on the clock right after the table was made or cleared ends on
/// time: it does not stall on pages the kernel has yet to zero (with the
/// table zeroed lazily but not filled in the background, this one took 3 s).
fn on_time(e: &mut Engine) {
    let t = Instant::now();
    e.send("go wtime 10000 btime 10000");
    e.bestmove(LONG);
    // The hard limit is 1.33 s (4 x 10 s / 30).
    assert!(t.elapsed() < MS(2500), "took {:?}", t.elapsed());
}
