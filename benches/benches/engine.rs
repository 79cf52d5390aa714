//! Speed goals live here, not in tests. `cargo bench -p mach-benches`.
//!
//! - perft: Mach's perft against `shakmaty::perft` on the same positions
//!   (goal: Mach within 1.0x of shakmaty's time; `mach perft 6 --compare`
//!   measures the same at depth 6 in one run).
//! - eval: static evaluation per position.
//! - search: the bench positions at a small fixed depth.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mach_engine::{bench, board, eval, perft};

fn perft_vs_shakmaty(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, fen, depth) in [
        (
            "startpos-d5",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            5,
        ),
        (
            "kiwipete-d4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            4,
        ),
    ] {
        let pos = board::from_fen(fen, false).unwrap();
        g.bench_function(format!("mach/{name}"), |b| {
            b.iter(|| perft::perft(black_box(&pos), depth))
        });
        g.bench_function(format!("mach-2-threads/{name}"), |b| {
            b.iter(|| perft::perft_threads(black_box(&pos), depth, 2))
        });
        g.bench_function(format!("shakmaty/{name}"), |b| {
            b.iter(|| shakmaty::perft(black_box(&pos), depth))
        });
    }
    g.finish();
}

fn evaluation(c: &mut Criterion) {
    let positions: Vec<_> = bench::POSITIONS
        .iter()
        .map(|f| board::from_fen(f, false).unwrap())
        .collect();
    c.bench_function("eval/bench-positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| eval::evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
}

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10);
    g.bench_function("bench-depth-8", |b| b.iter(|| bench::run(8, 16, |_, _| {})));
    g.finish();
}

criterion_group!(benches, perft_vs_shakmaty, evaluation, search);
criterion_main!(benches);
