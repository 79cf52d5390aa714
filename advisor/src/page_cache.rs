//! Brings an index's files into the page cache before queries need them:
//! on a 2 GB index a query that finds its postings on disk takes tens of
//! milliseconds instead of one or two. The engine asks the kernel to read
//! ahead (no copy, no wait) when it opens the index; `mach advise --bench`
//! reads every byte first, as a running engine's index would be.

use std::path::Path;

/// Files under `dir`, recursively, with their sizes.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(t) if t.is_file() => {
                    out.push((e.path(), e.metadata().map_or(0, |m| m.len())));
                }
                _ => {}
            }
        }
    }
    out
}

/// Asks the kernel to read `dir`'s files ahead (Unix `posix_fadvise`
/// WILLNEED: it returns at once and reads in the background). Returns the
/// bytes asked for; elsewhere, nothing is done and 0 is returned.
pub fn advise(dir: &Path) -> u64 {
    let mut bytes = 0;
    for (path, len) in files(dir) {
        #[cfg(unix)]
        if let Ok(f) = std::fs::File::open(&path) {
            use std::os::fd::AsRawFd;
            // SAFETY: a valid open descriptor; the call only gives a hint.
            let rc = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_WILLNEED) };
            if rc == 0 {
                bytes += len;
            }
        }
        #[cfg(not(unix))]
        let _ = (path, len);
    }
    bytes
}

/// Reads every byte of `dir`'s files once, so they are in the page cache
/// when this returns; the bytes read.
pub fn read_all(dir: &Path) -> u64 {
    let mut bytes = 0;
    for (path, _) in files(dir) {
        if let Ok(mut f) = std::fs::File::open(&path) {
            bytes += std::io::copy(&mut f, &mut std::io::sink()).unwrap_or(0);
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_below_the_directory_is_read_once() {
        let scratch = tempfile::Builder::new()
            .prefix("mach-warm-")
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a"), vec![1u8; 1000]).unwrap();
        std::fs::write(dir.join("sub/b"), vec![2u8; 234]).unwrap();
        assert_eq!(read_all(dir), 1234);
        #[cfg(unix)]
        assert_eq!(advise(dir), 1234);
        assert_eq!(read_all(&dir.join("none")), 0);
    }
}
