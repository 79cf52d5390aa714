//! Where Mach finds the shared data and keeps its default index. Each has a
//! flag, an environment variable and a default, and a clear error when the
//! data is not there.

use std::path::{Path, PathBuf};

/// The default grandmaster database, relative to the shared directory.
pub const DEFAULT_DATABASE: &str = "books/gm2700-classical-4000.pgn";

/// The shared data directory: `flag`, else `$MACH_SHARED`, else `../shared`
/// from the current directory, else `shared/` beside the checkout that holds
/// this binary (`target/release/mach` → `../shared`).
pub fn shared_dir(flag: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = flag {
        return existing(p.to_path_buf(), "--shared");
    }
    if let Some(p) = std::env::var_os("MACH_SHARED") {
        return existing(PathBuf::from(p), "MACH_SHARED");
    }
    let mut candidates = vec![PathBuf::from("../shared")];
    if let Ok(exe) = std::env::current_exe() {
        // <checkout>/target/<profile>/mach
        if let Some(checkout) = exe.parent().and_then(Path::parent).and_then(Path::parent) {
            candidates.push(checkout.join("../shared"));
        }
    }
    candidates.into_iter().find(|p| p.join("books").is_dir()).ok_or_else(|| {
        "shared data not found: put the shared/ folder beside the checkout, or pass --shared DIR, or set MACH_SHARED"
            .to_string()
    })
}

fn existing(p: PathBuf, via: &str) -> Result<PathBuf, String> {
    if p.is_dir() {
        Ok(p)
    } else {
        Err(format!(
            "shared data directory {} (from {via}) does not exist",
            p.display()
        ))
    }
}

/// Where `mach index` puts the index of the default database unless told
/// otherwise, and where the engine looks for it: `$MACH_INDEX`, else
/// `$XDG_DATA_HOME/mach/gm2700-classical-4000`, else
/// `~/.local/share/mach/gm2700-classical-4000`.
pub fn default_index_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("MACH_INDEX") {
        return PathBuf::from(p);
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    data.join("mach").join("gm2700-classical-4000")
}
