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
