//! How a build takes its place on disk without ever losing data.
//!
//! - One build at a time per index: a lock file beside it (`.NAME.lock`); a
//!   second build of the same index waits for the first (so two `--append`s
//!   both land).
//! - Only a Mach index (or an empty directory) is ever replaced: anything
//!   else at `--out` is refused before any work is done, and again at the end.
//! - The new index is written into `.NAME.tmp-PID` beside the target and
//!   swapped in with one atomic exchange (Linux `renameat2(RENAME_EXCHANGE)`),
//!   so a reader never finds the path empty; the old index is removed after.
//! - Temporaries left by killed builds (their process is gone) are removed by
//!   the next build of the same index.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::index::{size_on_disk, META_MARK};

/// The right to build the index at `out`, held until dropped.
pub struct Slot {
    /// The target directory (absolute).
    pub out: PathBuf,
    /// Where this build writes before the swap.
    pub tmp: PathBuf,
    /// The lock; released when the slot is dropped.
    _lock: File,
}

/// Takes the build lock of `out` (waiting for a running build of the same
/// index), refuses an `out` that is not Mach's to replace, and clears the
/// temporaries of builds that were killed.
pub fn prepare(out: &Path) -> Result<Slot, Error> {
    let out = absolute(out)?;
    let parent = out
        .parent()
        .expect("absolute() keeps a parent")
        .to_path_buf();
    let name = file_name(&out)?;
    std::fs::create_dir_all(&parent)
        .map_err(|e| Error::Input(format!("cannot create {}: {e}", parent.display())))?;
    check_replaceable(&out)?;
    let lock_path = parent.join(format!(".{name}.lock"));
    let lock = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| Error::Input(format!("cannot create {}: {e}", lock_path.display())))?;
    if lock.try_lock().is_err() {
        log::warn!(
            "another mach index is writing {}; waiting for it to finish",
            out.display()
        );
        eprintln!(
            "another mach index is writing {}; waiting for it to finish...",
            out.display()
        );
        lock.lock()?;
    }
    // The other build may have changed what is there.
    check_replaceable(&out)?;
    remove_stale(&parent, &name);
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp)?;
    }
    Ok(Slot {
        out,
        tmp,
        _lock: lock,
    })
}

impl Slot {
    /// Puts the finished build in place of the old index, atomically where
    /// the platform can, and removes the old one.
    pub fn publish(&self) -> Result<(), Error> {
        check_replaceable(&self.out)?;
        if !self.out.exists() {
            std::fs::rename(&self.tmp, &self.out)?;
            return Ok(());
        }
        if exchange(&self.tmp, &self.out).is_ok() {
            // The old index now lives at the temporary name.
            std::fs::remove_dir_all(&self.tmp)?;
            return Ok(());
        }
        // No atomic exchange here: two renames, the old index kept until the new one is in.
        let old = PathBuf::from(format!("{}.old", self.tmp.display()));
        std::fs::rename(&self.out, &old)?;
        if let Err(e) = std::fs::rename(&self.tmp, &self.out) {
            let _ = std::fs::rename(&old, &self.out);
            return Err(e.into());
        }
        std::fs::remove_dir_all(&old)?;
        Ok(())
    }

    /// Removes this build's temporary (after a failed build).
    pub fn discard(&self) {
        let _ = std::fs::remove_dir_all(&self.tmp);
    }
}

/// Whether `dir` holds an index written by `mach index` (any format).
pub fn is_mach_index(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join("meta.txt")) else {
        return false;
    };
    let first = text.lines().next().unwrap_or("");
    first == META_MARK || first.starts_with("format = ")
}

/// `out` may be replaced when it does not exist, is an empty directory or is a Mach index.
fn check_replaceable(out: &Path) -> Result<(), Error> {
    let Ok(meta) = std::fs::symlink_metadata(out) else {
        return Ok(());
    };
    if !meta.is_dir() {
        return Err(Error::Input(format!(
            "refusing to replace {}: it is not a directory; give --out a new or empty directory",
            out.display()
        )));
    }
    let empty = std::fs::read_dir(out)?.next().is_none();
    if empty || is_mach_index(out) {
        return Ok(());
    }
    Err(Error::Input(format!(
        "refusing to replace {}: it is not a Mach index (no meta.txt written by `mach index`) \
         and Mach never deletes what it did not create; give --out a new or empty directory, \
         or move that one away yourself",
        out.display()
    )))
}

/// `out` made absolute, with `.` and `..` resolved where it exists.
fn absolute(out: &Path) -> Result<PathBuf, Error> {
    let abs = std::path::absolute(out)?;
    let name = file_name(&abs)?;
    let parent = abs
        .parent()
        .ok_or_else(|| Error::Input(format!("{} cannot be an index directory", out.display())))?;
    Ok(match parent.canonicalize() {
        Ok(p) => p.join(name),
        Err(_) => abs,
    })
}

fn file_name(out: &Path) -> Result<String, Error> {
    match out.file_name() {
        Some(n) if !out.ends_with("..") => Ok(n.to_string_lossy().into_owned()),
        _ => Err(Error::Input(format!(
            "{} cannot be an index directory: name a directory",
            out.display()
        ))),
    }
}

/// Removes `.NAME.tmp-PID` (and `.old`) directories of builds whose process is gone.
fn remove_stale(parent: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&prefix) else {
            continue;
        };
        let Ok(pid) = rest.trim_end_matches(".old").parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() || process_alive(pid) {
            continue;
        }
        let path = e.path();
        let bytes = size_on_disk(&path);
        match std::fs::remove_dir_all(&path) {
            Ok(()) => log::warn!(
                "removed {} ({:.1} MB), left by an interrupted build (process {pid} is gone)",
                path.display(),
                bytes as f64 / 1e6
            ),
            Err(err) => log::warn!("cannot remove stale {}: {err}", path.display()),
        }
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: kill with signal 0 only asks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    // Without a way to ask, never remove another build's files.
    true
}

/// Swaps two directories in one step (Linux `renameat2(RENAME_EXCHANGE)`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(a.as_os_str().as_bytes())?;
    let cb = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both paths are valid NUL-terminated strings for the duration of the call.
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}
