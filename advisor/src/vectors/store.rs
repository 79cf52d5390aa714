//! Every indexed position's vector, kept beside an index: `vectors.net`
//! (the network that made them, so queries are encoded alike whatever
//! network the binary ships, as `chunks.txt` keeps the chunk library) and
//! `vectors.bin` (for each position of the similarity index, its game, its
//! ply, the move played there and its code rounded to bytes). Nearest positions are found by an
//! exact scan, the squared distance to every stored code, or, where
//! `vectors.ann` was built beside them (`ann`), through its graph.
//!
//! `vectors.bin` (little-endian): the magic `MACHVST1`, the code's size
//! (u16), the CRC-32 of `vectors.net` less its last 4 bytes (u32), the number of positions (u64),
//! each position's game (u32), ply (u16) and next move (u32, packed by
//! `store::encode_played`), each code (`size` signed bytes, the value times
//! 127), and a CRC-32 of everything before.

use std::collections::BinaryHeap;
use std::path::Path;

use shakmaty::Position;

use super::ann::Ann;
use super::net::Net;
use super::planes::Squares;
use crate::error::Error;
use crate::store::Games;

/// The network file in an index directory.
pub const NET_FILE: &str = "vectors.net";
/// The codes file in an index directory.
pub const CODES_FILE: &str = "vectors.bin";

const MAGIC: &[u8; 8] = b"MACHVST1";
/// Bytes of a position's game, ply and next move.
const HEAD: usize = 10;

/// The network and the codes of an index's positions.
pub struct VectorStore {
    pub net: Net,
    games: Vec<u32>,
    plies: Vec<u16>,
    nexts: Vec<u32>,
    /// `net.code_size()` bytes per position.
    codes: Vec<i8>,
    /// The graph over the codes, read from `vectors.ann` at the first
    /// query that needs it (so a query by terms never reads it): `None`
    /// when there is none, an error when it is damaged or built from other
    /// vectors (the exact scan answers instead).
    ann: std::sync::OnceLock<Result<Option<Ann>, String>>,
    /// Where `vectors.ann` is looked for, and the `vectors.bin` it must
    /// have been built from (its CRC) and the positions it must hold.
    graph_at: Option<(std::path::PathBuf, u32)>,
}

/// Which network a file holds: the CRC-32 of its bytes before its own
/// checksum (the CRC of a whole file with its CRC appended is the same
/// constant for every file).
fn net_id(bytes: &[u8]) -> u32 {
    crc32fast::hash(&bytes[..bytes.len().saturating_sub(4)])
}

/// A code rounded to bytes (tanh values in [-1, 1] times 127).
pub fn quantize(code: &[f32]) -> Vec<i8> {
    code.iter()
        .map(|v| (v.clamp(-1.0, 1.0) * 127.0).round() as i8)
        .collect()
}

/// What `VectorStore::write` wrote: its bytes, and the CRC of
/// `vectors.bin` that names these vectors (for `write_graph`).
#[derive(Clone, Copy, Debug)]
pub struct Written {
    pub bytes: u64,
    pub codes_crc: u32,
}

/// One near position: its game and ply and how far its code is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Near {
    pub game: u32,
    pub ply: u16,
    /// The move played there (`store::encode_played`).
    pub next: u32,
    /// Squared distance between the byte codes.
    pub distance: u32,
}

impl VectorStore {
    /// Encodes the positions of `games` that the similarity index holds
    /// (plies from `skip_plies` on that have a next move), on `threads`
    /// threads; `progress` gets the games done so far.
    pub fn build(
        net: Net,
        games: &Games,
        skip_plies: usize,
        threads: usize,
        progress: &(dyn Fn(usize) + Sync),
    ) -> VectorStore {
        let n = games.len();
        let threads = threads.clamp(1, 64);
        let per = n.div_ceil(threads).max(1);
        let done = std::sync::atomic::AtomicUsize::new(0);
        type Part = (Vec<u32>, Vec<u16>, Vec<u32>, Vec<i8>);
        let parts: Vec<Part> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (net, done) = (&net, &done);
                    s.spawn(move || {
                        let mut part: Part = Default::default();
                        for id in (t * per)..((t + 1) * per).min(n) {
                            let Some(g) = games.get(id as u32) else {
                                continue;
                            };
                            let mut pos = g.start();
                            for (ply, &code) in g.moves.iter().enumerate() {
                                let Some(m) = crate::store::decode_move(&pos, code) else {
                                    break;
                                };
                                if ply >= skip_plies {
                                    let sq = Squares::of(pos.board(), pos.turn());
                                    part.0.push(id as u32);
                                    part.1.push(ply.min(u16::MAX as usize) as u16);
                                    part.2.push(crate::store::encode_played(m) as u32);
                                    part.3.extend(quantize(&net.encode(&sq)));
                                }
                                pos.play_unchecked(m);
                            }
                            let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            progress(d + 1);
                        }
                        part
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an encoding thread panicked"))
                .collect()
        });
        let mut store = VectorStore {
            net,
            games: Vec::new(),
            plies: Vec::new(),
            nexts: Vec::new(),
            codes: Vec::new(),
            ann: std::sync::OnceLock::new(),
            graph_at: None,
        };
        for (g, p, m, c) in parts {
            store.games.extend(g);
            store.plies.extend(p);
            store.nexts.extend(m);
            store.codes.extend(c);
        }
        store
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Bytes of `vectors.bin`.
    pub fn codes_bytes(&self) -> Vec<u8> {
        let net_crc = net_id(&self.net.to_bytes());
        let mut out = Vec::with_capacity(32 + self.len() * (HEAD + self.net.code_size()));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.net.code_size() as u16).to_le_bytes());
        out.extend_from_slice(&net_crc.to_le_bytes());
        out.extend_from_slice(&(self.len() as u64).to_le_bytes());
        for ((g, p), m) in self.games.iter().zip(&self.plies).zip(&self.nexts) {
            out.extend_from_slice(&g.to_le_bytes());
            out.extend_from_slice(&p.to_le_bytes());
            out.extend_from_slice(&m.to_le_bytes());
        }
        out.extend(self.codes.iter().map(|&c| c as u8));
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes `vectors.net` and `vectors.bin` into the index `dir`, each
    /// through a temporary file renamed into place, then the graph
    /// (`write_graph`) when there is one; a graph of earlier vectors is
    /// removed.
    pub fn write(&self, dir: &Path) -> Result<Written, Error> {
        let codes = self.codes_bytes();
        let codes_crc = u32::from_le_bytes(codes[codes.len() - 4..].try_into().expect("4 bytes"));
        let mut bytes = 0;
        for (name, data) in [(NET_FILE, self.net.to_bytes()), (CODES_FILE, codes)] {
            let tmp = dir.join(format!(".{name}.tmp"));
            std::fs::write(&tmp, &data)?;
            std::fs::rename(&tmp, dir.join(name))?;
            bytes += data.len() as u64;
        }
        if self.graph().is_some() {
            bytes += self.write_graph(dir, codes_crc)?;
        } else if Ann::is_ours(&dir.join(super::ann::ANN_FILE)) {
            std::fs::remove_file(dir.join(super::ann::ANN_FILE))?;
        }
        Ok(Written { bytes, codes_crc })
    }

    /// Writes the graph (`vectors.ann`) beside the codes `write` wrote
    /// (`codes_crc`: the CRC it returned); its bytes (0 without a graph).
    pub fn write_graph(&self, dir: &Path, codes_crc: u32) -> Result<u64, Error> {
        match self.graph() {
            Some(ann) => ann.write(dir, codes_crc),
            None => Ok(0),
        }
    }

    /// The vectors of the index at `dir`: `None` when it has none; an
    /// error when they are damaged or do not belong to the network beside
    /// them.
    pub fn open(dir: &Path) -> Result<Option<VectorStore>, Error> {
        let (net_path, codes_path) = (dir.join(NET_FILE), dir.join(CODES_FILE));
        if !net_path.exists() && !codes_path.exists() {
            return Ok(None);
        }
        let corrupt = |why: String| {
            Error::Corrupt(format!(
                "{}: {why}; write them again with `mach embed index`",
                dir.display()
            ))
        };
        let net_bytes =
            std::fs::read(&net_path).map_err(|e| corrupt(format!("{NET_FILE}: {e}")))?;
        let net = Net::from_bytes(&net_bytes).map_err(|e| corrupt(format!("{NET_FILE}: {e}")))?;
        let bytes =
            std::fs::read(&codes_path).map_err(|e| corrupt(format!("{CODES_FILE}: {e}")))?;
        let bad = |why: &str| corrupt(format!("{CODES_FILE}: {why}"));
        if bytes.len() < 26 || &bytes[..8] != MAGIC {
            return Err(bad("not a vectors file"));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(tail.try_into().expect("4 bytes")) {
            return Err(bad("checksum mismatch (damaged or truncated)"));
        }
        let size = u16::from_le_bytes([body[8], body[9]]) as usize;
        let net_crc = u32::from_le_bytes(body[10..14].try_into().expect("4 bytes"));
        let count = u64::from_le_bytes(body[14..22].try_into().expect("8 bytes"));
        if size != net.code_size() || net_crc != net_id(&net_bytes) {
            return Err(bad("made by another network than the one beside it"));
        }
        let count = usize::try_from(count).map_err(|_| bad("impossible count"))?;
        let expected = count
            .checked_mul(HEAD + size)
            .and_then(|n| n.checked_add(22))
            .ok_or_else(|| bad("impossible count"))?;
        if body.len() != expected {
            return Err(bad("its length does not match its count"));
        }
        let heads = &body[22..22 + HEAD * count];
        let games = heads
            .chunks_exact(HEAD)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let plies = heads
            .chunks_exact(HEAD)
            .map(|c| u16::from_le_bytes([c[4], c[5]]))
            .collect();
        let nexts = heads
            .chunks_exact(HEAD)
            .map(|c| u32::from_le_bytes([c[6], c[7], c[8], c[9]]))
            .collect();
        let codes = body[22 + HEAD * count..].iter().map(|&b| b as i8).collect();
        let codes_crc = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        Ok(Some(VectorStore {
            net,
            games,
            plies,
            nexts,
            codes,
            ann: std::sync::OnceLock::new(),
            graph_at: Some((dir.to_path_buf(), codes_crc)),
        }))
    }

    /// The graph, read at the first call.
    fn graph(&self) -> Option<&Ann> {
        self.graph_state().as_ref().ok()?.as_ref()
    }

    fn graph_state(&self) -> &Result<Option<Ann>, String> {
        self.ann.get_or_init(|| {
            let Some((dir, crc)) = &self.graph_at else {
                return Ok(None);
            };
            Ann::open(dir, *crc, self.len(), self.net.code_size()).map_err(|e| {
                log::warn!("{e}: the nearest positions are found by a scan");
                e.to_string()
            })
        })
    }

    /// Is the graph there to find the nearest codes without a scan? (Reads
    /// it if it was not yet.)
    pub fn has_graph(&self) -> bool {
        self.graph().is_some()
    }

    /// Why `vectors.ann` is not used (damaged, or built from other
    /// vectors), if it is not. (Reads it if it was not yet.)
    pub fn graph_trouble(&self) -> Option<&str> {
        self.graph_state().as_ref().err().map(String::as_str)
    }

    /// Links the codes into a graph (`ann`), on `threads` threads;
    /// `progress` gets the codes done. False when `stop` came first.
    pub fn build_graph(
        &mut self,
        threads: usize,
        stop: &std::sync::atomic::AtomicBool,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<bool, Error> {
        let ann = Ann::build(&self.codes, self.net.code_size(), threads, stop, progress)?;
        let built = ann.is_some();
        self.ann = std::sync::OnceLock::from(Ok(ann));
        Ok(built)
    }

    /// The `fetch` positions whose codes are nearest `code`, nearest first:
    /// through the graph when there is one (about the nearest), else all
    /// of them scanned (exactly the nearest).
    pub fn nearest(&self, code: &[i8], fetch: usize) -> Vec<Near> {
        let size = self.net.code_size();
        if code.len() != size || fetch == 0 {
            return Vec::new();
        }
        if let Some(ann) = self.graph() {
            match ann.search(code, fetch) {
                Ok(found) => {
                    let mut out: Vec<Near> = found
                        .into_iter()
                        .filter(|&i| i < self.len())
                        .map(|i| {
                            self.near(i, distance(&self.codes[i * size..(i + 1) * size], code))
                        })
                        .collect();
                    out.sort_by_key(|n| (n.distance, n.game, n.ply));
                    return out;
                }
                Err(e) => log::warn!("{e}: the nearest positions are found by a scan"),
            }
        }
        self.nearest_scan(code, fetch)
    }

    /// Exactly the `fetch` positions whose codes are nearest `code`,
    /// nearest first, by a scan of every code.
    pub fn nearest_scan(&self, code: &[i8], fetch: usize) -> Vec<Near> {
        let size = self.net.code_size();
        if code.len() != size || fetch == 0 {
            return Vec::new();
        }
        // A max-heap of the best so far: its top is the worst kept.
        let mut heap: BinaryHeap<(u32, usize)> = BinaryHeap::with_capacity(fetch + 1);
        for (i, c) in self.codes.chunks_exact(size).enumerate() {
            let d = distance(c, code);
            if heap.len() < fetch {
                heap.push((d, i));
            } else if heap.peek().is_some_and(|&(worst, _)| d < worst) {
                heap.pop();
                heap.push((d, i));
            }
        }
        let mut out: Vec<Near> = heap.into_iter().map(|(d, i)| self.near(i, d)).collect();
        out.sort_by_key(|n| (n.distance, n.game, n.ply));
        out
    }

    /// How many of the `k` nearest codes the graph finds (`None` without a
    /// graph): those it returns no farther than the scan's `k`-th nearest.
    pub fn graph_recall(&self, code: &[i8], k: usize) -> Option<usize> {
        self.graph()?;
        let kth = self.nearest_scan(code, k).last()?.distance;
        Some(
            self.nearest(code, k)
                .iter()
                .filter(|n| n.distance <= kth)
                .count()
                .min(k),
        )
    }

    /// The position at place `i`, `distance` away.
    fn near(&self, i: usize, distance: u32) -> Near {
        Near {
            game: self.games[i],
            ply: self.plies[i],
            next: self.nexts[i],
            distance,
        }
    }

    /// How alike a distance is, in [0, 1]: 1 for the same code, 0 for the
    /// farthest two codes can be.
    pub fn similarity(&self, distance: u32) -> f32 {
        let max = (254.0f32 * 254.0) * self.net.code_size() as f32;
        1.0 - (distance as f32 / max).sqrt()
    }
}

/// Squared distance between two byte codes.
fn distance(a: &[i8], b: &[i8]) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&x, &y)| {
            let d = x as i32 - y as i32;
            (d * d) as u32
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectors::net::{Layer, Output};
    use crate::vectors::planes::INPUTS;

    fn net(code: usize) -> Net {
        let layer = |i: usize, o: usize, k: usize| Layer {
            inputs: i,
            outputs: o,
            weights: (0..i * o)
                .map(|j| ((j * 31 + k) % 17) as f32 / 17.0 - 0.5)
                .collect(),
            bias: vec![0.0; o],
        };
        Net {
            output: Output::Planes,
            layers: vec![layer(INPUTS, code, 1), layer(code, INPUTS, 2)],
            code_layer: 0,
            note: "test".into(),
        }
    }

    fn store(codes: &[[i8; 3]]) -> VectorStore {
        VectorStore {
            net: net(3),
            games: (0..codes.len() as u32).collect(),
            plies: vec![30; codes.len()],
            nexts: vec![7; codes.len()],
            codes: codes.iter().flatten().copied().collect(),
            ann: std::sync::OnceLock::new(),
            graph_at: None,
        }
    }

    #[test]
    fn the_nearest_codes_come_first_and_no_more_than_asked() {
        let s = store(&[[100, 0, 0], [0, 0, 0], [10, 0, 0], [-100, 5, 5]]);
        let near = s.nearest(&[0, 0, 0], 2);
        assert_eq!(near.iter().map(|n| n.game).collect::<Vec<_>>(), vec![1, 2]);
        assert_eq!(near[0].distance, 0);
        assert_eq!(near[1].distance, 100);
        assert!(s.nearest(&[0, 0], 2).is_empty(), "a code of another size");
        assert_eq!(s.similarity(0), 1.0);
    }

    #[test]
    fn vectors_read_back_as_written_and_damage_or_another_network_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(VectorStore::open(dir.path()).unwrap().is_none(), "none yet");
        let s = store(&[[1, 2, 3], [-4, 5, -6]]);
        s.write(dir.path()).unwrap();
        let back = VectorStore::open(dir.path()).unwrap().unwrap();
        assert_eq!(back.codes, s.codes);
        assert_eq!(back.games, s.games);
        assert_eq!(back.plies, s.plies);
        assert_eq!(back.nexts, s.nexts);

        let codes = dir.path().join(CODES_FILE);
        let mut bytes = std::fs::read(&codes).unwrap();
        bytes[24] ^= 1;
        std::fs::write(&codes, &bytes).unwrap();
        let e = VectorStore::open(dir.path()).err().unwrap().to_string();
        assert!(
            e.contains("checksum") && e.contains("mach embed index"),
            "{e}"
        );

        s.write(dir.path()).unwrap();
        let mut other = net(3);
        other.note = "another".into();
        std::fs::write(dir.path().join(NET_FILE), other.to_bytes()).unwrap();
        let e = VectorStore::open(dir.path()).err().unwrap().to_string();
        assert!(e.contains("another network"), "{e}");
    }

    #[test]
    fn a_graph_written_with_the_vectors_answers_like_the_scan_and_new_vectors_drop_it() {
        let codes: Vec<[i8; 3]> = (0..400i32)
            .map(|i| {
                [
                    (i % 20 * 12 - 120) as i8,
                    (i / 20 * 12 - 120) as i8,
                    (i % 7) as i8,
                ]
            })
            .collect();
        let mut s = store(&codes);
        let stop = std::sync::atomic::AtomicBool::new(false);
        assert!(s.build_graph(2, &stop, &|_| {}).unwrap());
        let dir = tempfile::tempdir().unwrap();
        s.write(dir.path()).unwrap();
        let back = VectorStore::open(dir.path()).unwrap().unwrap();
        assert!(back.has_graph() && back.graph_trouble().is_none());
        let scan = store(&codes);
        for q in [[0i8, 0, 0], [-120, -120, 3], [100, 50, 6]] {
            let (a, b) = (back.nearest(&q, 5), scan.nearest(&q, 5));
            assert_eq!(a[0].distance, b[0].distance, "the nearest of {q:?}");
            assert_eq!(a.len(), 5);
        }
        // New vectors without a graph: the old graph goes, the scan answers.
        scan.write(dir.path()).unwrap();
        assert!(!dir.path().join(super::super::ann::ANN_FILE).exists());
        let back = VectorStore::open(dir.path()).unwrap().unwrap();
        assert!(!back.has_graph());
        // A graph of other vectors is said and set aside.
        s.write(dir.path()).unwrap();
        let mut other = store(&codes[..399]);
        other.build_graph(1, &stop, &|_| {}).unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let crc = other.write(elsewhere.path()).unwrap().codes_crc;
        other.write_graph(dir.path(), crc).unwrap();
        let back = VectorStore::open(dir.path()).unwrap().unwrap();
        assert!(!back.has_graph());
        let why = back.graph_trouble().unwrap();
        assert!(why.contains("other vectors"), "{why}");
        assert_eq!(
            back.nearest(&[0, 0, 0], 1)[0].distance,
            scan.nearest(&[0, 0, 0], 1)[0].distance
        );
    }

    #[test]
    fn quantized_codes_keep_their_sign_and_size() {
        assert_eq!(
            quantize(&[1.0, -1.0, 0.5, 0.0, 2.0]),
            vec![127, -127, 64, 0, 127]
        );
    }
}
