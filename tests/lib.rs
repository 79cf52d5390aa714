//! Helpers for the cross-crate integration tests in `tests/tests/`.

use std::path::PathBuf;

/// The shared data directory (`$MACH_SHARED`, else `../shared` beside the
/// checkout), if it is there. Tests that need its big files call this and,
/// when it is missing, print one line saying what was not run and why: a
/// clone with nothing beside it still passes, CI (which has it) runs all.
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("MACH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    if dir.join("suites").is_dir() {
        Some(dir)
    } else {
        // Straight to stderr: the test harness captures print!/eprint! of
        // passing tests, and this line is for the person running them.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "not run: {test} needs the shared data directory, not found at {} (set MACH_SHARED)",
            dir.display()
        );
        None
    }
}

/// The repository's own `books/` directory.
pub fn books_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books")
}

/// The repository's small test suites, `tests/data/`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// A fresh, empty temporary directory for one test, removed when dropped.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("mach-test-{name}-"))
        .tempdir()
        .unwrap()
}
