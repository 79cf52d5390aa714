//! Helpers for the cross-crate integration tests in `tests/tests/`.

use std::path::PathBuf;

/// The shared data directory: `$MACH_SHARED`, else `../shared` beside the
/// checkout. Panics with a clear message when it is missing, since these
/// tests are about that data.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("MACH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    assert!(
        dir.join("suites").is_dir(),
        "shared data not found at {}: put the shared/ folder beside the checkout or set MACH_SHARED",
        dir.display()
    );
    dir
}

/// The repository's own `books/` directory.
pub fn books_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../books")
}

/// A fresh, empty temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mach-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
