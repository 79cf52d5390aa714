//! The opening tree's budgets (issue #50): a lookup in microseconds, the
//! tree opened (header, offsets and checksum checked) well inside the 50 ms
//! start-up budget. `cargo bench -p mach-benches --bench opening_tree`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mach_advisor::opening_tree::OpeningTree;
use shakmaty::{san::San, Chess, Position};

const TREE: &[u8] = include_bytes!("../../books/gm-tree.bin");

fn after(moves: &str) -> Chess {
    let mut pos = Chess::default();
    for m in moves.split_whitespace() {
        let mv = m.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(mv);
    }
    pos
}

fn opening_tree(c: &mut Criterion) {
    c.bench_function("tree/open", |b| {
        b.iter(|| OpeningTree::from_bytes(black_box(TREE)).unwrap().len())
    });
    let tree = OpeningTree::from_bytes(TREE).unwrap();
    let hit = after("d4 Nf6 c4 e5 dxe5 Ng4");
    let start = Chess::default();
    let miss = after("a4 h5 a5 h4");
    c.bench_function("tree/lookup-budapest", |b| {
        b.iter(|| tree.book(black_box(&hit)))
    });
    c.bench_function("tree/lookup-start", |b| {
        b.iter(|| tree.book(black_box(&start)))
    });
    c.bench_function("tree/lookup-miss", |b| {
        b.iter(|| tree.book(black_box(&miss)))
    });
}

criterion_group!(benches, opening_tree);
criterion_main!(benches);
