//! Where Mach finds its inputs and keeps its default index, and how it
//! writes its outputs (`outfile`: never over a file it did not write).
//!
//! A file argument is a path, `builtin:NAME` for a file built into the binary
//! (`builtin.rs`), or `shared:REL` for a file of the shared data directory (the
//! big files: the 173k-game database, the opening suites, the test suites).
//! The shared directory is `--shared DIR`, else `$MACH_SHARED`, else `../shared`
//! from the current directory, else `shared/` beside the checkout that holds
//! this binary. A missing file is a clear error that names it.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mach_advisor::source::Source;

pub mod builtin;
pub mod outfile;

/// The `--shared` flag, set once by `main`.
static SHARED_FLAG: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Records the `--shared` flag (called once, before any input is resolved).
pub fn set_shared_flag(flag: Option<PathBuf>) {
    let _ = SHARED_FLAG.set(flag);
}

/// Refuses an --out file that cannot be written: a directory, or a path
/// whose directory does not exist (checked before any work is done).
pub fn output_file(out: &Path) -> Result<(), String> {
    if out.is_dir() {
        return Err(format!(
            "--out {} is a directory, not a file",
            out.display()
        ));
    }
    match out.parent() {
        Some(d) if !d.as_os_str().is_empty() && !d.is_dir() => Err(format!(
            "cannot write {}: no directory {}",
            out.display(),
            d.display()
        )),
        _ => Ok(()),
    }
}

/// The default database, as built into the binary.
pub fn default_database() -> Source {
    builtin_source(&format!("{}.pgn", builtin::DEFAULT_DATABASE_NAME)).expect("built in")
}

fn builtin_source(name: &str) -> Option<Source> {
    builtin::builtin(name).map(|data| Source::Bytes {
        name: format!("builtin:{name}"),
        data,
    })
}

/// Resolves a file argument (a path, `builtin:NAME` or `shared:REL`) to a
/// readable source, or says exactly what is missing and where it was looked for.
pub fn input(arg: &Path) -> Result<Source, String> {
    let text = arg.to_string_lossy();
    if let Some(name) = text.strip_prefix("builtin:") {
        return builtin_source(name).ok_or_else(|| {
            format!(
                "no built-in file '{name}': there are {}",
                builtin::builtin_names()
            )
        });
    }
    if let Some(rel) = text.strip_prefix("shared:") {
        let (dir, via) = shared_dir()?;
        let p = dir.join(rel);
        return if p.is_file() {
            Ok(Source::File(p))
        } else {
            Err(format!(
                "shared file {rel} not found: no {} (shared directory from {via})",
                p.display()
            ))
        };
    }
    if arg.is_file() {
        Ok(Source::File(arg.to_path_buf()))
    } else {
        Err(format!("cannot read {}: no such file", arg.display()))
    }
}

/// The shared data directory and what chose it.
fn shared_dir() -> Result<(PathBuf, &'static str), String> {
    if let Some(p) = SHARED_FLAG.get().cloned().flatten() {
        return existing(p, "--shared");
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
    candidates
        .into_iter()
        .find(|p| p.is_dir())
        .map(|p| (p, "the default, ../shared"))
        .ok_or_else(|| {
            "the shared data directory was not found: it holds the big files (the 173k-game \
             database, opening suites, test suites); put shared/ beside the checkout, or pass \
             --shared DIR, or set MACH_SHARED"
                .to_string()
        })
}

fn existing(p: PathBuf, via: &'static str) -> Result<(PathBuf, &'static str), String> {
    if p.is_dir() {
        Ok((p, via))
    } else {
        Err(format!(
            "shared data directory {} (from {via}) does not exist",
            p.display()
        ))
    }
}

/// Where `mach index` puts the index of the default database unless told
/// otherwise, and where the engine looks for it: `$MACH_INDEX`, else the
/// platform's data directory (`$XDG_DATA_HOME/mach` or `~/.local/share/mach`
/// on Linux, `~/Library/Application Support/mach` on macOS, `%APPDATA%\mach\data`
/// on Windows), in a folder named after the default database.
pub fn default_index_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("MACH_INDEX") {
        return PathBuf::from(p);
    }
    let data = match directories::ProjectDirs::from("", "", "mach") {
        Some(d) => d.data_dir().to_path_buf(),
        None => {
            // No home directory at all: a per-user temporary place still works.
            let p = std::env::temp_dir().join("mach");
            log::warn!(
                "no home directory; keeping the default index under {}",
                p.display()
            );
            p
        }
    };
    data.join(builtin::DEFAULT_DATABASE_NAME)
}

/// The civil date (year, month, day) of a day counted from 1970-01-01
/// (Howard Hinnant's days-to-civil algorithm): PGN dates, experience records.
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}
