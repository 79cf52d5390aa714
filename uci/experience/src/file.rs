//! The experience file on disk: a 16-byte header, then records appended in
//! whole batches. Safe to share and to kill:
//!
//! - every writer appends one batch with one `write` to a file opened for
//!   appending, under an exclusive lock of `FILE.lock` (`File::lock`), so
//!   two processes never interleave their bytes and nothing is lost;
//! - a process killed mid-write leaves at worst a torn record at the end;
//!   readers check each record's CRC and, past a bad one, look for the next
//!   valid record byte by byte, so later batches are still read and no
//!   earlier record is ever lost;
//! - compaction (the size bound) writes the kept records beside the file and
//!   renames them over it under the same lock, so a reader sees the old file
//!   or the new one, never half of one; writers re-open the path for each
//!   batch, so none appends to a file that was replaced;
//! - a file that does not start with the header is someone else's: it is
//!   neither read nor ever written.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::memory::Memory;
use crate::record::{Record, RECORD_BYTES};

/// The first bytes of every experience file (the last one is the version).
pub const HEADER: &[u8; 16] = b"MACH-EXPERIENCE\x01";

/// What can go wrong with an experience file.
#[derive(Debug)]
pub enum Error {
    /// The file exists and is not an experience file (or another version).
    Foreign(PathBuf),
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Foreign(p) => write!(
                f,
                "{} is not a Mach experience file (or another version): not read, not written",
                p.display()
            ),
            Error::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for Error {}

/// The records of a file and what was skipped.
#[derive(Debug, Default)]
pub struct Scan {
    pub records: Vec<Record>,
    /// Bytes that were not part of a valid record (torn or damaged).
    pub skipped_bytes: u64,
    /// The file's size.
    pub bytes: u64,
    /// Where the next reader should start ([`read_since`]): just past the
    /// last whole record, so a batch being appended while it was read is
    /// read whole next time.
    pub resume_at: u64,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::Io(path.to_path_buf(), e)
}

/// The lock file beside `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// The records of `bytes` (a whole file).
pub fn scan_bytes(bytes: &[u8]) -> Option<Scan> {
    if bytes.len() < HEADER.len() || &bytes[..HEADER.len()] != HEADER {
        return None;
    }
    let mut scan = Scan {
        bytes: bytes.len() as u64,
        ..Scan::default()
    };
    let mut at = HEADER.len();
    scan.resume_at = at as u64;
    while at < bytes.len() {
        match Record::decode(&bytes[at..]) {
            Some(r) => {
                scan.records.push(r);
                at += RECORD_BYTES;
                scan.resume_at = at as u64;
            }
            None => {
                scan.skipped_bytes += 1;
                at += 1;
            }
        }
    }
    Some(scan)
}

/// Reads every valid record of `path`; a missing file has none.
pub fn read(path: &Path) -> Result<Scan, Error> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut bytes).map_err(io(path))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Scan::default()),
        Err(e) => return Err(Error::Io(path.to_path_buf(), e)),
    }
    scan_bytes(&bytes).ok_or_else(|| Error::Foreign(path.to_path_buf()))
}

/// The records appended to `path` since a reader's last look, from byte
/// `from` (the `resume_at` of its last [`Scan`]): what other processes
/// wrote meanwhile. A file now shorter than `from` was compacted (or replaced)
/// and is read whole; a missing file has nothing new.
pub fn read_since(path: &Path, from: u64) -> Result<Scan, Error> {
    use std::io::{Seek, SeekFrom};
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Scan::default()),
        Err(e) => return Err(Error::Io(path.to_path_buf(), e)),
    };
    let len = f.metadata().map_err(io(path))?.len();
    if from < HEADER.len() as u64 || len < from {
        return read(path);
    }
    let mut head = [0u8; 16];
    if f.read_exact(&mut head).is_err() || &head != HEADER {
        return Err(Error::Foreign(path.to_path_buf()));
    }
    f.seek(SeekFrom::Start(from)).map_err(io(path))?;
    let mut bytes = HEADER.to_vec();
    f.read_to_end(&mut bytes).map_err(io(path))?;
    let mut scan = scan_bytes(&bytes).ok_or_else(|| Error::Foreign(path.to_path_buf()))?;
    let shift = from - HEADER.len() as u64;
    scan.bytes = len.max(shift + bytes.len() as u64);
    scan.resume_at += shift;
    Ok(scan)
}

/// Creates `path` holding only the header, atomically (written beside and
/// linked into place, so no process ever sees it without its header); an
/// existing file is left as it is.
fn create(path: &Path) -> Result<(), Error> {
    if path.exists() {
        return Ok(());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let tmp = beside(path, "new");
    {
        let mut f = File::create(&tmp).map_err(io(&tmp))?;
        f.write_all(HEADER).map_err(io(&tmp))?;
        f.sync_all().map_err(io(&tmp))?;
    }
    let linked = std::fs::hard_link(&tmp, path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(Error::Io(path.to_path_buf(), e)),
    }
}

/// A name beside `path` unique to this process and call.
fn beside(path: &Path, what: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{what}.{}.{n}", std::process::id()));
    path.with_file_name(name)
}

/// Holds the exclusive lock of `path`'s lock file until dropped.
struct Locked(File);

impl Locked {
    fn take(path: &Path) -> Result<Locked, Error> {
        let lock = lock_path(path);
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&lock)
            .map_err(io(&lock))?;
        f.lock().map_err(io(&lock))?;
        Ok(Locked(f))
    }
}

impl Drop for Locked {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Appends `records` to `path` (created if missing) as one write.
pub fn append(path: &Path, records: &[Record]) -> Result<(), Error> {
    if records.is_empty() {
        return Ok(());
    }
    create(path)?;
    let _lock = Locked::take(path)?;
    let mut f = OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .map_err(io(path))?;
    let mut head = [0u8; 16];
    if f.read_exact(&mut head).is_err() || &head != HEADER {
        return Err(Error::Foreign(path.to_path_buf()));
    }
    let mut batch = Vec::with_capacity(records.len() * RECORD_BYTES);
    for r in records {
        batch.extend_from_slice(&r.encode());
    }
    f.write_all(&batch).map_err(io(path))?;
    f.sync_data().map_err(io(path))?;
    Ok(())
}

/// What a compaction did.
#[derive(Debug, PartialEq, Eq)]
pub struct Compacted {
    pub records_before: usize,
    pub positions: usize,
    pub kept: usize,
}

/// Rewrites `path` with one record per position (the one [`Memory`]
/// keeps), at most `keep` of them (the deepest, then the newest), written
/// beside and renamed over it under the lock.
pub fn compact(path: &Path, keep: usize) -> Result<Compacted, Error> {
    let _lock = Locked::take(path)?;
    let scan = read(path)?;
    let memory = Memory::of(&scan.records);
    let kept = memory.records_to_keep(keep);
    replace(path, &kept)?;
    Ok(Compacted {
        records_before: scan.records.len(),
        positions: memory.len(),
        kept: kept.len(),
    })
}

/// Writes `records` as the whole of `path` (which must be missing or an
/// experience file: no other file is ever replaced), beside and renamed.
pub fn write(path: &Path, records: &[Record]) -> Result<(), Error> {
    if path.exists() {
        read(path)?;
    }
    let _lock = Locked::take(path)?;
    replace(path, records)
}

/// Writes beside `path` and renames over it (the caller holds the lock).
fn replace(path: &Path, records: &[Record]) -> Result<(), Error> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let tmp = beside(path, "compact");
    let written = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        let mut bytes = Vec::with_capacity(HEADER.len() + records.len() * RECORD_BYTES);
        bytes.extend_from_slice(HEADER);
        for r in records {
            bytes.extend_from_slice(&r.encode());
        }
        f.write_all(&bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(Error::Io(path.to_path_buf(), e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Kind;

    fn rec(key: u64, depth: u8) -> Record {
        Record {
            key,
            mv: 100 + key as u16,
            score: key as i16,
            depth,
            kind: Kind::Search,
            minute: 1000 + depth as u32,
        }
    }

    #[test]
    fn appended_batches_read_back_in_order_and_a_missing_file_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("mach.exp");
        assert!(read(&path).unwrap().records.is_empty());
        append(&path, &[rec(1, 5), rec(2, 6)]).unwrap();
        append(&path, &[rec(3, 7)]).unwrap();
        let scan = read(&path).unwrap();
        assert_eq!(scan.records, vec![rec(1, 5), rec(2, 6), rec(3, 7)]);
        assert_eq!(scan.skipped_bytes, 0);
    }

    #[test]
    fn a_record_torn_by_a_kill_loses_only_itself_even_with_batches_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mach.exp");
        append(&path, &[rec(1, 5), rec(2, 6)]).unwrap();
        // A process killed mid-write: 10 of a record's 24 bytes.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&rec(9, 9).encode()[..10]).unwrap();
        drop(f);
        append(&path, &[rec(3, 7)]).unwrap();
        let scan = read(&path).unwrap();
        assert_eq!(scan.records, vec![rec(1, 5), rec(2, 6), rec(3, 7)]);
        assert_eq!(scan.skipped_bytes, 10);
    }

    #[test]
    fn a_reader_gets_what_others_appended_since_its_last_look_and_all_after_a_compaction() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mach.exp");
        assert_eq!(read_since(&path, 0).unwrap().records, vec![]);
        append(&path, &[rec(1, 5), rec(2, 6)]).unwrap();
        let first = read(&path).unwrap();
        assert_eq!(first.resume_at, first.bytes);
        append(&path, &[rec(3, 7)]).unwrap();
        append(&path, &[rec(4, 8)]).unwrap();
        let since = read_since(&path, first.resume_at).unwrap();
        assert_eq!(since.records, vec![rec(3, 7), rec(4, 8)]);
        assert_eq!(since.resume_at, std::fs::metadata(&path).unwrap().len());
        // Nothing new: nothing read.
        let again = read_since(&path, since.resume_at).unwrap();
        assert_eq!((again.records.len(), again.resume_at), (0, since.resume_at));
        // Compacted to fewer bytes than the reader had seen: read whole.
        compact(&path, 2).unwrap();
        let whole = read_since(&path, since.resume_at).unwrap();
        assert_eq!(whole.records, vec![rec(3, 7), rec(4, 8)]);
    }

    #[test]
    fn a_batch_read_while_it_was_written_is_read_whole_the_next_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mach.exp");
        append(&path, &[rec(1, 5)]).unwrap();
        // A writer in the middle of its batch: 10 bytes of a record so far.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&rec(2, 6).encode()[..10]).unwrap();
        let first = read_since(&path, HEADER.len() as u64).unwrap();
        assert_eq!(first.records, vec![rec(1, 5)]);
        assert_eq!(first.resume_at, (HEADER.len() + RECORD_BYTES) as u64);
        // The writer finishes; the next look gets the whole record.
        f.write_all(&rec(2, 6).encode()[10..]).unwrap();
        drop(f);
        let next = read_since(&path, first.resume_at).unwrap();
        assert_eq!(next.records, vec![rec(2, 6)]);
    }

    #[test]
    fn a_damaged_record_is_skipped_and_the_others_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mach.exp");
        append(&path, &[rec(1, 5), rec(2, 6), rec(3, 7)]).unwrap();
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER.len() + RECORD_BYTES + 7] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let scan = read(&path).unwrap();
        assert_eq!(scan.records, vec![rec(1, 5), rec(3, 7)]);
        assert_eq!(scan.skipped_bytes, RECORD_BYTES as u64);
    }

    #[test]
    fn a_foreign_file_is_neither_read_nor_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "my notes, not Mach's\n").unwrap();
        assert!(matches!(read(&path), Err(Error::Foreign(_))));
        assert!(matches!(
            append(&path, &[rec(1, 5)]),
            Err(Error::Foreign(_))
        ));
        assert!(matches!(compact(&path, 10), Err(Error::Foreign(_))));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "my notes, not Mach's\n"
        );
        let err = read(&path).unwrap_err().to_string();
        assert!(err.contains("not a Mach experience file"), "{err}");
    }

    #[test]
    fn writers_on_many_threads_at_once_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mach.exp");
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for i in 0..200u64 {
                        let batch: Vec<Record> =
                            (0..3).map(|j| rec(t * 10_000 + i * 3 + j, 4)).collect();
                        append(&path, &batch).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let scan = read(&path).unwrap();
        assert_eq!(scan.skipped_bytes, 0);
        let mut keys: Vec<u64> = scan.records.iter().map(|r| r.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 4 * 200 * 3);
    }

    #[test]
    fn compaction_keeps_the_deepest_record_of_each_position_within_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mach.exp");
        let mut all = Vec::new();
        for key in 0..50u64 {
            all.push(rec(key, 3));
            all.push(rec(key, 3 + (key % 10) as u8));
        }
        append(&path, &all).unwrap();
        let c = compact(&path, 20).unwrap();
        assert_eq!(
            c,
            Compacted {
                records_before: 100,
                positions: 50,
                kept: 20
            }
        );
        let scan = read(&path).unwrap();
        assert_eq!(scan.records.len(), 20);
        // The deepest are kept: depths 12, 11, 10 and 9, five positions each.
        assert!(
            scan.records.iter().all(|r| r.depth >= 9),
            "{:?}",
            scan.records
        );
        // Nothing of the compaction is left beside the file.
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names
                .iter()
                .all(|n| n == "mach.exp" || n == "mach.exp.lock"),
            "{names:?}"
        );
    }
}
