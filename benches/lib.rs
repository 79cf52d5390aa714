//! Criterion benchmarks live in `benches/*.rs` of this package.
