//! One search's stop and ponder state, shared between the thread that reads
//! the GUI's commands and the search threads. A fresh `SearchControl` is made
//! for every `go`, so a `stop` that arrived before a search cannot touch it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When `go` was received.
    start: Instant,
    /// Nanoseconds after `start` from which the clock runs: 0, or the moment
    /// of `ponderhit`.
    origin_ns: AtomicU64,
    lock: Mutex<()>,
    wake: Condvar,
    /// Times `wait_for_release` went to sleep unreleased: lets the tests see
    /// that it really blocks, however slow the machine.
    #[cfg(test)]
    sleeps: AtomicU64,
}

impl SearchControl {
    /// Control for a search that started at `start` (when the GUI's `go` was
    /// read, so queueing delay counts against our clock).
    pub fn new(ponder: bool, start: Instant) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            start,
            origin_ns: AtomicU64::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            #[cfg(test)]
            sleeps: AtomicU64::new(0),
        }
    }

    /// Asks the search to finish as soon as possible (GUI `stop`, `quit`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.notify();
    }

    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes a
    /// normal timed search whose clock starts now. Ignored when not pondering.
    pub fn ponderhit(&self) {
        if self.pondering.load(Ordering::SeqCst) {
            let ns = self.start.elapsed().as_nanos() as u64;
            self.origin_ns.store(ns, Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
            self.notify();
        }
    }

    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time since `go` (for `info time` and nps).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time that counts against our clock: `None` while pondering.
    #[inline]
    pub fn clock_elapsed(&self) -> Option<Duration> {
        if self.is_pondering() {
            return None;
        }
        let origin = Duration::from_nanos(self.origin_ns.load(Ordering::Relaxed));
        Some(self.start.elapsed().saturating_sub(origin))
    }

    /// Blocks until the GUI releases a finished search: `stop` for `go
    /// infinite`; `stop` or `ponderhit` for `go ponder`. Returns at once for
    /// any other search.
    pub fn wait_for_release(&self, infinite: bool) {
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while !self.is_stopped() && (infinite || self.is_pondering()) {
            #[cfg(test)]
            self.sleeps.fetch_add(1, Ordering::SeqCst);
            guard = self
                .wake
                .wait_timeout(guard, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn notify(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Waits until the waiter has gone to sleep unreleased `n` times: from
    /// the second on, it woke up, found the search still held, and slept
    /// again. Proof that the wait blocks, whatever the machine's speed.
    fn slept(c: &SearchControl, n: u64) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while c.sleeps.load(Ordering::SeqCst) < n {
            assert!(
                Instant::now() < deadline,
                "the wait did not block: it slept {} times, not {n}",
                c.sleeps.load(Ordering::SeqCst)
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn ponderhit_starts_the_clock_and_releases_the_wait() {
        let c = Arc::new(SearchControl::new(true, Instant::now()));
        assert!(c.clock_elapsed().is_none());
        let c2 = c.clone();
        // What the waiter sees when it is released: it must be after ponderhit.
        let t = std::thread::spawn(move || {
            c2.wait_for_release(false);
            c2.is_pondering()
        });
        slept(&c, 2);
        assert!(!t.is_finished(), "released before ponderhit");
        c.ponderhit();
        assert!(!t.join().unwrap(), "released while still pondering");
        assert!(c.clock_elapsed().unwrap() < Duration::from_millis(20));
        assert!(!c.is_stopped());
    }

    #[test]
    fn infinite_waits_for_stop_only() {
        let c = Arc::new(SearchControl::new(false, Instant::now()));
        let c2 = c.clone();
        let t = std::thread::spawn(move || {
            c2.wait_for_release(true);
            c2.is_stopped()
        });
        c.ponderhit(); // not pondering: no effect
        slept(&c, 2);
        assert!(!t.is_finished(), "released before stop");
        c.stop();
        assert!(t.join().unwrap(), "released without a stop");
    }
}
