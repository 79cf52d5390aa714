//! The engine's helper threads, made once (when `Threads` is set) and kept
//! for every search, as Stockfish's thread pool is: a `go` hands each helper
//! a job instead of spawning and joining threads, so 256 threads on two
//! cores still answer on time.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;

use shakmaty::Chess;
use std::sync::mpsc::{channel, Receiver, Sender};

use crate::history::History;
use crate::thread::{Searcher, Shared};

/// What a helper is asked to do.
enum Job {
    /// Search `root` as helper `id` until the shared stop.
    Search {
        shared: Arc<Shared>,
        id: usize,
        root: Chess,
        keys: Arc<[u64]>,
    },
    /// Forget the move-ordering history (new game).
    Clear,
}

struct Helper {
    jobs: Sender<Job>,
    handle: JoinHandle<()>,
}

/// Helper threads; the caller's thread is the main search thread.
#[derive(Default)]
pub(crate) struct Pool {
    helpers: Vec<Helper>,
}

/// A helper's life: run the jobs it is sent until its queue closes.
fn helper_loop(rx: Receiver<Job>) {
    let mut hist = History::default();
    // Kept for the thread's life: an answer never goes stale.
    let pawn_king = crate::pawn_king_cache::PawnKingCache::default();
    for job in rx {
        match job {
            Job::Clear => hist.clear(),
            Job::Search {
                shared,
                id,
                root,
                keys,
            } => {
                hist.age_butterfly();
                // A panic loses this helper's search, never the thread.
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let mut s = Searcher::new(&shared, id, &mut hist, &pawn_king, &root, &keys);
                    s.init_root_moves();
                    s.iterate(&crate::report::Silent, 1);
                }));
                if r.is_err() {
                    log::warn!("helper thread {id}: search panicked");
                    hist.clear();
                }
            }
        }
    }
}

impl Pool {
    /// Grows or shrinks the pool to `n` helpers; fewer when the system
    /// refuses more threads (a thread or memory limit), never a panic.
    pub fn resize(&mut self, n: usize) {
        self.resize_with(n, |name, body| {
            std::thread::Builder::new().name(name).spawn(body)
        });
    }

    /// `resize` with the thread spawner given (tests make it fail).
    fn resize_with(
        &mut self,
        n: usize,
        spawn: impl Fn(String, Box<dyn FnOnce() + Send>) -> std::io::Result<JoinHandle<()>>,
    ) {
        while self.helpers.len() > n {
            let h = self.helpers.pop().expect("len > n");
            drop(h.jobs); // the helper ends when its queue closes
            let _ = h.handle.join();
        }
        while self.helpers.len() < n {
            let (tx, rx) = channel::<Job>();
            let name = format!("mach-helper-{}", self.helpers.len() + 1);
            match spawn(name, Box::new(move || helper_loop(rx))) {
                Ok(handle) => self.helpers.push(Helper { jobs: tx, handle }),
                Err(e) => {
                    log::warn!("cannot start helper thread {}: {e}", self.helpers.len() + 1);
                    break;
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.helpers.len()
    }

    /// Starts every helper on `root`; they stop when `shared.helpers_stop`
    /// or the search's control says so. A helper still finishing the last
    /// search starts this one right after.
    pub fn start(&self, shared: &Arc<Shared>, root: &Chess, keys: &Arc<[u64]>) {
        for (i, h) in self.helpers.iter().enumerate() {
            let _ = h.jobs.send(Job::Search {
                shared: shared.clone(),
                id: i + 1,
                root: root.clone(),
                keys: keys.clone(),
            });
        }
    }

    /// Clears every helper's history.
    pub fn clear(&self) {
        for h in &self.helpers {
            let _ = h.jobs.send(Job::Clear);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.resize(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_the_system_refuses_leaves_a_smaller_pool_instead_of_a_panic() {
        let mut pool = Pool::default();
        // The third thread cannot be had.
        let started = std::sync::atomic::AtomicUsize::new(0);
        pool.resize_with(5, |name, body| {
            if started.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 2 {
                Err(std::io::Error::other("thread limit"))
            } else {
                std::thread::Builder::new().name(name).spawn(body)
            }
        });
        assert_eq!(pool.len(), 2);
        // It can still shrink and grow again once threads are available.
        pool.resize(1);
        assert_eq!(pool.len(), 1);
        pool.resize(3);
        assert_eq!(pool.len(), 3);
    }
}
