//! The advisor on its own thread: the opening tree, the index, or both. Requests (a position and an id) come in
//! over one crossbeam channel, answers (the advice and the same id) go out
//! over another; the caller ignores answers whose id is stale. The index is
//! opened once and kept open. Prefetch requests only warm a small cache, so
//! advice for the position the opponent is expected to leave us is ready
//! when the next `go` asks for it.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};
use shakmaty::{zobrist::Zobrist64, Chess, EnPassantMode, Position};

use crate::advice::{self, Advice};
use crate::book::BookMove;
use crate::error::Error;
use crate::index::AdvisorIndex;
use crate::opening_tree::OpeningTree;
use crate::retrieval::QueryOptions;
use crate::tree::{TreeRules, TreeTable};

pub struct Request {
    pub id: u64,
    pub pos: Chess,
    pub options: QueryOptions,
    /// Only fill the cache; send no answer.
    pub prefetch: bool,
}

/// The two answers to a request, in this order: the book first (an exact
/// lookup, microseconds), then the advice (a retrieval, milliseconds), so a
/// search that may play from the book waits only for the first.
pub enum Answer {
    /// What was played from exactly this position (empty when nothing was, or on error).
    Book(Vec<BookMove>),
    Advice(Result<Advice, String>),
}

pub struct Response {
    pub id: u64,
    pub answer: Answer,
}

/// Positions whose advice is kept for prefetching.
const CACHE_SIZE: usize = 64;

/// What the advisor thread reads: the opening tree, an index, or both.
pub struct Memory {
    /// The opening tree (exact positions of the first plies, any move order).
    pub tree: Option<OpeningTree<'static>>,
    /// An index (its games at every ply, similar positions, chunks).
    pub index: Option<AdvisorIndex>,
    /// Add the index's games to the tree's statistics. False when they are
    /// games the tree already holds (they would count twice); the index's
    /// book is then read only where the tree has nothing.
    pub merge: bool,
}

impl Memory {
    /// The index at `dir` alone, opened now (a missing or damaged index is
    /// an error here) and its files asked into the page cache.
    pub fn index(dir: &Path) -> Result<Memory, Error> {
        let index = AdvisorIndex::open(dir)?;
        let asked = crate::page_cache::advise(dir);
        log::info!("asked the kernel to read {asked} bytes of the index ahead");
        Ok(Memory {
            tree: None,
            index: Some(index),
            merge: true,
        })
    }

    /// The book for `pos` (tree and index merged) and the exact hits of
    /// the index, read once for both answers. A panic in retrieval must
    /// not take the engine down: it becomes an empty book or an error
    /// answer. The games that reached this very position are read once,
    /// for both answers: in a popular opening they run to tens of thousands.
    fn book(&self, pos: &Chess) -> (Vec<BookMove>, Vec<crate::retrieval::Hit>) {
        let exact = match &self.index {
            Some(index) => {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| index.exact(pos)))
                    .unwrap_or_default()
            }
            None => Vec::new(),
        };
        let book = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::exact_memory::book_of(
                pos,
                self.tree.as_ref(),
                self.index.as_ref().map(|i| (i, exact.as_slice())),
                self.merge,
            )
        }))
        .unwrap_or_default();
        (book, exact)
    }
}

pub struct AdvisorService {
    requests: Option<Sender<Request>>,
    responses: Receiver<Response>,
    thread: Option<JoinHandle<()>>,
    /// Documents and games in the open index, for messages.
    pub documents: u64,
    pub games: u64,
}

impl AdvisorService {
    /// Opens the index at `dir` (errors are reported here, synchronously)
    /// and starts the advisor thread on it alone.
    pub fn start(dir: &Path) -> Result<AdvisorService, Error> {
        Self::start_memory(Memory::index(dir)?, None)
    }

    /// Starts the advisor thread on `memory`; with `table`, the thread
    /// first fills it with the index's [`TreeTable`] (the search reads it as
    /// it appears).
    pub fn start_memory(
        memory: Memory,
        table: Option<std::sync::Arc<std::sync::OnceLock<TreeTable>>>,
    ) -> Result<AdvisorService, Error> {
        let documents = memory.index.as_ref().map_or(0, |i| i.documents());
        let games = memory.index.as_ref().map_or(0, |i| i.meta.games);
        let (req_tx, req_rx) = crossbeam_channel::unbounded::<Request>();
        let (resp_tx, resp_rx) = crossbeam_channel::unbounded::<Response>();
        let thread = std::thread::Builder::new()
            .name("advisor".into())
            .spawn(move || {
                if let (Some(slot), Some(index)) = (table, &memory.index) {
                    let t = std::time::Instant::now();
                    let table = TreeTable::build(index, TreeRules::default());
                    log::info!("tree table: {} positions in {:?}", table.len(), t.elapsed());
                    let _ = slot.set(table);
                }
                serve(memory, req_rx, resp_tx)
            })?;
        Ok(AdvisorService {
            requests: Some(req_tx),
            responses: resp_rx,
            thread: Some(thread),
            documents,
            games,
        })
    }

    /// A sender for requests (clone it freely).
    pub fn sender(&self) -> Sender<Request> {
        self.requests.clone().expect("running")
    }

    /// The answers (a clone shares the same queue).
    pub fn receiver(&self) -> Receiver<Response> {
        self.responses.clone()
    }
}

impl Drop for AdvisorService {
    fn drop(&mut self) {
        // The thread ends once every sender is gone (a search may still hold
        // one for prefetching); it is not waited for here.
        self.requests = None;
        drop(self.thread.take());
    }
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

fn serve(memory: Memory, requests: Receiver<Request>, responses: Sender<Response>) {
    let mut cache: HashMap<(u64, usize, bool), (Advice, Vec<BookMove>)> = HashMap::new();
    let mut order: VecDeque<(u64, usize, bool)> = VecDeque::new();
    let send = |id, answer| responses.send(Response { id, answer }).is_ok();
    while let Ok(mut req) = requests.recv() {
        // Only the newest real request matters; older ones are stale already.
        while let Ok(newer) = requests.try_recv() {
            if !newer.prefetch || req.prefetch {
                if !req.prefetch {
                    send(req.id, Answer::Book(Vec::new()));
                    send(req.id, Answer::Advice(Err("superseded".into())));
                }
                req = newer;
            }
        }
        let k = (key(&req.pos), req.options.k, req.options.exact_only);
        if let Some((a, b)) = cache.get(&k) {
            if !req.prefetch {
                let sent = send(req.id, Answer::Book(b.clone()))
                    && send(req.id, Answer::Advice(Ok(a.clone())));
                if !sent {
                    break;
                }
            }
            continue;
        }
        let since = Instant::now();
        let (book, exact) = memory.book(&req.pos);
        if !req.prefetch && !send(req.id, Answer::Book(book.clone())) {
            break;
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &memory.index {
            Some(index) => index.advise_given(&req.pos, &req.options, exact, since),
            None => Ok(Advice {
                query_ms: since.elapsed().as_secs_f64() * 1e3,
                ..Advice::default()
            }),
        }));
        let advice = match r {
            Ok(Ok(mut a)) => {
                // Where the book knows the position, its statistics (the
                // tree's and the index's games together) are the exact advice.
                if !book.is_empty() {
                    a.moves = advice::from_book(&book);
                    a.exact = true;
                }
                cache.insert(k, (a.clone(), book));
                order.push_back(k);
                if order.len() > CACHE_SIZE {
                    if let Some(old) = order.pop_front() {
                        cache.remove(&old);
                    }
                }
                Ok(a)
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("internal error in retrieval".into()),
        };
        if !req.prefetch && !send(req.id, Answer::Advice(advice)) {
            break;
        }
    }
}
