//! Move-generation check: count the leaf nodes of the legal move tree.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use shakmaty::{Chess, Move, Position};

/// Leaf count at `depth`, counting the last ply in bulk (the length of the
/// legal move list), exactly as `shakmaty::perft` does.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => {
            let moves = pos.legal_moves();
            let mut total = 0;
            for &m in &moves {
                let mut child = pos.clone();
                child.play_unchecked(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Leaf count below each root move, in move generation order.
pub fn divide(pos: &Chess, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let results = Mutex::new(vec![0u64; moves.len()]);
    let next = AtomicUsize::new(0);
    // Root moves are handed out one at a time to the threads (work stealing
    // by an atomic counter), so uneven subtrees still balance.
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = moves.get(i) else { break };
                let mut child = pos.clone();
                child.play_unchecked(m);
                let n = perft(&child, depth - 1);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = n;
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    moves.into_iter().zip(results).collect()
}

/// Leaf count using `threads` threads over the root moves.
pub fn perft_threads(pos: &Chess, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let pos = Chess::default();
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(perft(&pos, 1), 20);
        assert_eq!(perft(&pos, 3), 8902);
        assert_eq!(perft_threads(&pos, 4, 2), 197_281);
        let d = divide(&pos, 2, 3);
        assert_eq!(d.len(), 20);
        assert!(d.iter().all(|(_, n)| *n == 20));
    }
}
