//! `bench`: a fixed set of positions searched to a fixed depth with a fresh
//! table, one thread. The node count is a signature of the search: any
//! change to search or evaluation changes it.

use std::time::{Duration, Instant};

use crate::board::from_fen;
use crate::{Engine, Limits, SearchControl, SearchOptions, Silent};

/// Default bench depth (chosen so `mach bench` takes 5-15 s on the CI machine).
pub const DEFAULT_DEPTH: u32 = 15;

/// Openings, middlegames (quiet and tactical) and endgames. Suite positions
/// come from WAC, Bratko-Kopec, STS, Arasan 2024 and ECM; the rest are the
/// chessprogramming-wiki perft positions and textbook endgames.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "4k3/p4prp/1p6/2b5/8/2Q3P1/P2R1PKP/4q3 w - - 0 1",
    "r3r1k1/pppq1ppp/8/8/1Q4n1/7P/PPP2PP1/RNB1R1K1 b - - 0 1",
    "r4kr1/ppp5/4bq1b/7B/2PR1Q1p/2N3P1/PP3P1P/2K1R3 w - - 0 1",
    "6k1/6p1/2p4p/4Pp2/4b1qP/2Br4/1P2RQPK/8 b - - 0 1",
    "r5r1/p1q2p1k/1p1R2pB/3pP3/6bQ/2p5/P1P1NPPP/6K1 w - - 0 1",
    "r1bqk2r/pp3ppp/5n2/8/1b1npB2/2N5/PP1Q2PP/1K2RBNR w kq - 0 1",
    "2r2b1r/p1Nk2pp/3p1p2/N2Qn3/4P3/q6P/P4PP1/1R3K1R w - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "2r2rk1/1bqnbpp1/1p1ppn1p/pP6/N1P1P3/P2B1N1P/1B2QPP1/R2R2K1 b - - 0 1",
    "1qr1k2r/1p2bp2/pBn1p3/P2pPbpp/5P2/2P1QBPP/1P1N3R/R4K2 b k - 0 1",
    "5rk1/p3qpb1/1p5p/5Q2/P7/1B2P3/1p3PPP/5RK1 b - - 0 1",
    "6r1/1p2Q1pk/2p2p1p/3p1P1P/p1nP4/PqP1P3/1P2RN2/2K5 b - - 0 1",
    "5k2/p2q2p1/bp1p1p1p/3PnP1Q/1P1BP3/2P5/3N2P1/6K1 w - - 0 1",
    "1r1r2k1/2p1qpp1/pnP1b2p/1p2P3/3N4/P3P2P/1QB2PP1/3RR1K1 w - - 0 1",
    "5rk1/2r1bpp1/p2p1n1p/1p2pP2/1P3q2/1BP4P/PB3PP1/R2QR1K1 w - - 0 1",
    "1k1rr3/p1p4p/Bpnb4/3p1qp1/N2P4/P2Q1PPb/1PP3NP/2KR2R1 w - - 0 1",
    "4r3/5k2/2PB4/p4p2/8/1P1R2KP/2P5/5r2 w - - 0 1",
    "1qr1r3/5ppk/1p2p2p/1Qbn3b/2R5/3P1NPP/3NPPB1/1R5K w - - 0 1",
    "5k2/1p1b2p1/pq2p1Q1/3p2P1/8/8/PPP1N2P/1K6 b - - 0 1",
    "3q1r1k/1b3ppp/p1n5/1p1pPB2/2rP4/P6N/1P2Q1PP/R4RK1 w - - 0 1",
    "r4rk1/p4ppp/qp2p3/b5B1/n1R5/5N2/PP2QPPP/1R4K1 w - - 0 1",
    "3r1r1k/pp5p/4b1pb/6q1/3P4/4p1BP/PP2Q1PK/3RRB2 b - - 0 1",
    "r3r1k1/4qp1p/4p1p1/p2pP3/2pN1PP1/8/3Q3P/2R2R1K w - - 0 1",
    "1r2k2r/p5bp/4p1p1/q2pn3/1p2N1P1/6QP/PPP5/1KBR3R w k - 0 1",
    "2r1r1k1/pp1nbpp1/4pn1p/q3NN1P/P1pP1B2/2P5/1PQ2PP1/R3R1K1 w - - 0 1",
    "6k1/3Q1pp1/4p2p/p2pP3/1p1P2P1/nP1R1N2/q1r2PKP/8 w - - 0 1",
    "7k/1bp1P1p1/3p2rp/1pb2p1q/5P2/1BP2N1P/1P4P1/R1B2R1K b - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/8/8/4k3/8/8/8/1QK5 w - - 0 1",
    "8/8/1p6/p1p5/P1P5/1P6/k7/2K5 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
    "8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 0 1",
];

/// One position's bench result.
pub struct BenchLine {
    pub fen: &'static str,
    pub nodes: u64,
    pub time: Duration,
    pub best: String,
}

/// Searches every position to `depth` (fresh table and history each time)
/// and calls `each` after each one. Returns total nodes and total time.
pub fn run(depth: u32, hash_mb: usize, mut each: impl FnMut(usize, &BenchLine)) -> (u64, Duration) {
    let mut engine = Engine::new(hash_mb, 1);
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = from_fen(fen, false).expect("bench FENs are valid");
        engine.clear();
        let control = std::sync::Arc::new(SearchControl::new(false, Instant::now()));
        let start = Instant::now();
        let result = engine.search(
            &pos,
            &[],
            &Limits::depth(depth),
            &SearchOptions::default(),
            &control,
            &Silent,
        );
        let time = start.elapsed();
        total_nodes += result.nodes;
        total_time += time;
        let line = BenchLine {
            fen,
            nodes: result.nodes,
            time,
            best: result
                .best
                .map_or("0000".into(), |m| crate::board::uci(m, false)),
        };
        each(i, &line);
    }
    (total_nodes, total_time)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    #[test]
    fn bench_positions_are_valid_and_varied() {
        assert!(POSITIONS.len() >= 40);
        for fen in POSITIONS {
            let pos = from_fen(fen, false).unwrap();
            assert!(!pos.legal_moves().is_empty(), "{fen}");
        }
    }

    #[test]
    fn bench_node_count_is_reproducible() {
        let (a, _) = run(5, 1, |_, _| {});
        let (b, _) = run(5, 1, |_, _| {});
        assert_eq!(a, b);
    }
}
