//! Move generation against the perft suites in `tests/data/` (run in release
//! mode: about a billion leaves in all), and the whole of the shared folder's
//! Marcel collection when it is there.

use std::path::Path;

use mach_engine::epd::parse_line;
use mach_engine::perft::perft;
use mach_tests::{data_dir, shared_dir};

/// Largest count the tests go up to per position.
const MAX_LEAVES: u64 = 50_000_000;

/// (fen, depth, expected) for every position of `file`, at every depth whose
/// count is at most `max_leaves` (or only at `only_depth`).
fn cases(file: &Path, only_depth: Option<u32>, max_leaves: u64) -> Vec<(String, u32, u64)> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p = parse_line(line).unwrap_or_else(|e| panic!("{e}"));
        let counts: Vec<(u32, u64)> = p
            .ops
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix('D')?.parse().ok()?, v.parse().ok()?)))
            .collect();
        assert!(!counts.is_empty(), "no counts in {line}");
        let chosen = match only_depth {
            Some(d) => counts.iter().find(|(depth, _)| *depth == d).copied(),
            None => counts
                .iter()
                .filter(|(_, n)| *n <= max_leaves)
                .max_by_key(|(d, _)| *d)
                .copied(),
        };
        if let Some((d, n)) = chosen {
            out.push((p.fen.clone(), d, n));
        }
    }
    out
}

/// Checks all cases on two threads; reports every mismatch at once.
fn check(cases: Vec<(String, u32, u64)>) {
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((fen, depth, want)) = cases.get(i) else {
                    break;
                };
                let pos = mach_engine::board::from_fen(fen, false).unwrap();
                let got = perft(&pos, *depth);
                if got != *want {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("{fen} depth {depth}: {got} != {want}"));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn perft_epd_every_position_to_50m() {
    let c = cases(&data_dir().join("perft.epd"), None, MAX_LEAVES);
    assert_eq!(c.len(), 127);
    check(c);
}

#[test]
fn cpw_positions_to_50m() {
    let c = cases(&data_dir().join("cpw.epd"), None, MAX_LEAVES);
    assert_eq!(c.len(), 7);
    check(c);
}

#[test]
fn marcel_sample_of_520_positions_at_depth_4() {
    // Every 13th line of the collection (tests/data/README.md).
    let sample = cases(&data_dir().join("marcel-sample.epd"), Some(4), u64::MAX);
    assert_eq!(sample.len(), 520);
    check(sample);
}

#[test]
fn marcel_whole_collection_at_depth_3_when_shared_data_is_there() {
    let Some(shared) = shared_dir("marcel_whole_collection_at_depth_3") else {
        return;
    };
    let all = cases(&shared.join("suites/perft/marcel.epd"), Some(3), u64::MAX);
    assert!(all.len() > 6000, "{}", all.len());
    check(all);
}
