//! An approximate nearest-neighbour graph over an index's vectors
//! (usearch's HNSW on the byte codes), for indexes too large to scan:
//! `vectors.ann`. An exact scan of the full 173k-game index reads 413 MB of
//! codes a query; the graph visits a few thousand of them.
//!
//! `vectors.ann` (little-endian): the magic `MACHANN1`, the CRC-32 of the
//! `vectors.bin` it was built from (the last 4 bytes of that file), 4 zero
//! bytes, the number of positions (u64), the length of usearch's serialized
//! index (u64), that index (its keys are the positions' places in
//! `vectors.bin`), and a CRC-32 of everything before. The checksum is
//! checked before usearch reads a byte, so a damaged file is an error and
//! never reaches C++ code. The graph is read through a memory map: opening
//! it costs the checksum, not a copy.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

use crate::error::Error;

/// The graph's file in an index directory.
pub const ANN_FILE: &str = "vectors.ann";
const MAGIC: &[u8; 8] = b"MACHANN1";
/// Bytes before usearch's index (a multiple of 8).
const HEAD: usize = 32;

/// Links per node (HNSW's M). 16 against 8 on a million positions of the
/// full index: recall of the 10 nearest 0.93 against 0.87 at the same
/// search width, 190 against 127 bytes a position (docs/vectors.md).
pub const CONNECTIVITY: usize = 16;
/// Candidates kept while a node is linked in (HNSW's efConstruction).
pub const EXPANSION_ADD: usize = 64;
/// Candidates kept while searching (HNSW's ef; a query asking for more
/// neighbours keeps that many).
pub const EXPANSION_SEARCH: usize = 128;
/// Positions from which `mach embed index` builds the graph unless told:
/// below, the exact scan takes a few milliseconds (1.8 ms on the default index).
pub const AUTO_FROM: usize = 1_000_000;

/// The graph, searched in place in its file's memory map.
pub struct Ann {
    // Declared before the map so that it is dropped first: it reads the map.
    index: Index,
    _map: Option<memmap2::Mmap>,
}

fn options(size: usize) -> IndexOptions {
    IndexOptions {
        dimensions: size,
        metric: MetricKind::L2sq,
        quantization: ScalarKind::I8,
        connectivity: CONNECTIVITY,
        expansion_add: EXPANSION_ADD,
        expansion_search: EXPANSION_SEARCH,
        multi: false,
    }
}

fn usearch(e: impl std::fmt::Display) -> Error {
    Error::Corrupt(format!("usearch: {e}"))
}

impl Ann {
    /// Links every code (`size` bytes each) into a graph, on `threads`
    /// threads; `progress` gets the codes done so far. `None` when `stop`
    /// was set before the end.
    pub fn build(
        codes: &[i8],
        size: usize,
        threads: usize,
        stop: &AtomicBool,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<Option<Ann>, Error> {
        if size == 0 {
            return Err(Error::Input("a code of size 0".into()));
        }
        let n = codes.len() / size;
        let threads = threads.clamp(1, 64);
        let index = Index::new(&options(size)).map_err(usearch)?;
        index
            .reserve_capacity_and_threads(n, threads)
            .map_err(usearch)?;
        let next = AtomicUsize::new(0);
        let failed: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    // Blocks of positions taken in turn, so the threads end together.
                    const BLOCK: usize = 4096;
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let from = next.fetch_add(BLOCK, Ordering::Relaxed);
                        if from >= n {
                            return;
                        }
                        for i in from..(from + BLOCK).min(n) {
                            if let Err(e) = index.add(i as u64, &codes[i * size..(i + 1) * size]) {
                                *failed.lock().unwrap_or_else(|p| p.into_inner()) =
                                    Some(e.to_string());
                                stop.store(true, Ordering::Relaxed);
                                return;
                            }
                        }
                        progress(index.size());
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(usearch(e));
        }
        if index.size() < n {
            return Ok(None);
        }
        Ok(Some(Ann { index, _map: None }))
    }

    /// Is `path` a graph file Mach wrote (so Mach may replace or remove it)?
    pub fn is_ours(path: &Path) -> bool {
        use std::io::Read;
        let mut magic = [0u8; 8];
        std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut magic))
            .is_ok()
            && &magic == MAGIC
    }

    /// Positions in the graph.
    pub fn len(&self) -> usize {
        self.index.size()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the graph into `dir` through a temporary file renamed into
    /// place; `codes_crc` names the `vectors.bin` it was built from.
    pub fn write(&self, dir: &Path, codes_crc: u32) -> Result<u64, Error> {
        let len = self.index.serialized_length();
        let mut bytes = vec![0u8; HEAD + len + 4];
        bytes[..8].copy_from_slice(MAGIC);
        bytes[8..12].copy_from_slice(&codes_crc.to_le_bytes());
        bytes[16..24].copy_from_slice(&(self.len() as u64).to_le_bytes());
        bytes[24..32].copy_from_slice(&(len as u64).to_le_bytes());
        self.index
            .save_to_buffer(&mut bytes[HEAD..HEAD + len])
            .map_err(usearch)?;
        let crc = crc32fast::hash(&bytes[..HEAD + len]);
        bytes[HEAD + len..].copy_from_slice(&crc.to_le_bytes());
        let tmp = dir.join(format!(".{ANN_FILE}.tmp"));
        std::fs::write(&tmp, &bytes)?;
        std::fs::rename(&tmp, dir.join(ANN_FILE))?;
        Ok(bytes.len() as u64)
    }

    /// The graph at `dir`, if there is one: an error when it is damaged,
    /// not a graph, or built from other vectors than `codes_crc` names
    /// (`count` positions of `size` bytes).
    pub fn open(
        dir: &Path,
        codes_crc: u32,
        count: usize,
        size: usize,
    ) -> Result<Option<Ann>, Error> {
        let path = dir.join(ANN_FILE);
        if !path.exists() {
            return Ok(None);
        }
        let bad = |why: &str| {
            Error::Corrupt(format!(
                "{}: {why}; build it again with `mach embed index`",
                path.display()
            ))
        };
        let file = std::fs::File::open(&path)?;
        // SAFETY: the map is read only; Mach writes this file only through a
        // rename, so the file mapped is never written in place by Mach.
        let map = unsafe { memmap2::Mmap::map(&file) }?;
        if map.len() < HEAD + 4 || &map[..8] != MAGIC {
            return Err(bad("not a vectors graph"));
        }
        let (body, tail) = map.split_at(map.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(tail.try_into().expect("4 bytes")) {
            return Err(bad("checksum mismatch (damaged or truncated)"));
        }
        let field = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
        let len = usize::try_from(field(24))
            .ok()
            .and_then(|l| l.checked_add(HEAD));
        if len != Some(body.len()) {
            return Err(bad("its length does not match its head"));
        }
        if u32::from_le_bytes(body[8..12].try_into().expect("4 bytes")) != codes_crc
            || field(16) != count as u64
        {
            return Err(bad("built from other vectors than vectors.bin"));
        }
        let index = Index::new(&options(size)).map_err(usearch)?;
        // SAFETY: usearch keeps a pointer into the map; the map's pages do not
        // move when the `Mmap` value moves, and the `Ann` returned owns both,
        // dropping the index before the map.
        unsafe { index.view_from_buffer(&body[HEAD..]) }
            .map_err(|e| bad(&format!("usearch cannot read it: {e}")))?;
        if index.size() != count || index.dimensions() != size {
            return Err(bad("its graph does not hold these vectors"));
        }
        index.change_expansion_search(EXPANSION_SEARCH);
        Ok(Some(Ann {
            index,
            _map: Some(map),
        }))
    }

    /// The places (in `vectors.bin`) of about the `count` codes nearest
    /// `code`.
    pub fn search(&self, code: &[i8], count: usize) -> Result<Vec<usize>, Error> {
        let found = self.index.search(code, count).map_err(usearch)?;
        Ok(found.keys.iter().map(|&k| k as usize).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes spread over the space with a simple generator (no rand here).
    fn codes(n: usize, size: usize) -> Vec<i8> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        (0..n * size)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 255) as i8
            })
            .collect()
    }

    fn exact(codes: &[i8], size: usize, q: &[i8], k: usize) -> Vec<usize> {
        let mut d: Vec<(i32, usize)> = codes
            .chunks_exact(size)
            .enumerate()
            .map(|(i, c)| {
                let s = c
                    .iter()
                    .zip(q)
                    .map(|(&a, &b)| (a as i32 - b as i32).pow(2))
                    .sum();
                (s, i)
            })
            .collect();
        d.sort();
        d.into_iter().take(k).map(|(_, i)| i).collect()
    }

    #[test]
    fn the_graph_finds_the_exact_scans_neighbours_and_reads_back_as_written() {
        let (n, size) = (3000, 12);
        let c = codes(n, size);
        let stop = AtomicBool::new(false);
        let ann = Ann::build(&c, size, 2, &stop, &|_| {}).unwrap().unwrap();
        assert_eq!(ann.len(), n);
        let dir = tempfile::tempdir().unwrap();
        ann.write(dir.path(), 77).unwrap();
        let back = Ann::open(dir.path(), 77, n, size).unwrap().unwrap();
        let mut found = 0;
        for q in (0..n).step_by(97) {
            let code = &c[q * size..(q + 1) * size];
            let truth = exact(&c, size, code, 10);
            let got = back.search(code, 10).unwrap();
            assert_eq!(got[0], q, "a stored code is its own nearest");
            found += got.iter().filter(|i| truth.contains(i)).count();
        }
        let asked = n.div_ceil(97) * 10;
        assert!(found * 10 >= asked * 9, "recall {found}/{asked}");
    }

    #[test]
    fn a_damaged_or_stale_graph_is_an_error_and_a_stop_builds_nothing() {
        let (n, size) = (500, 8);
        let c = codes(n, size);
        let stop = AtomicBool::new(false);
        let ann = Ann::build(&c, size, 1, &stop, &|_| {}).unwrap().unwrap();
        let dir = tempfile::tempdir().unwrap();
        assert!(
            Ann::open(dir.path(), 1, n, size).unwrap().is_none(),
            "none yet"
        );
        ann.write(dir.path(), 1).unwrap();
        let e = Ann::open(dir.path(), 2, n, size).err().unwrap().to_string();
        assert!(e.contains("other vectors"), "{e}");
        let path = dir.path().join(ANN_FILE);
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let e = Ann::open(dir.path(), 1, n, size).err().unwrap().to_string();
        assert!(
            e.contains("checksum") && e.contains("mach embed index"),
            "{e}"
        );
        std::fs::write(&path, b"MACHANN1").unwrap();
        assert!(Ann::open(dir.path(), 1, n, size).is_err(), "truncated");

        stop.store(true, Ordering::Relaxed);
        assert!(Ann::build(&c, size, 2, &stop, &|_| {}).unwrap().is_none());
    }
}
