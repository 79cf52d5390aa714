//! `mach index`: PGN files in, an index directory out.
//!
//! One thread reads the PGN (games stay in file order and get consecutive
//! ids), encoder threads replay each game and hand one tantivy document per
//! position to the writer. Everything is written into a temporary directory
//! beside the target and swapped in at the end (`publish.rs`: one build at a
//! time, only Mach's own directories replaced), so an interrupted build never
//! leaves a broken index where a good one was.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use shakmaty::{zobrist::Zobrist64, EnPassantMode, Position};
use tantivy::merge_policy::NoMergePolicy;
use tantivy::{Index, IndexWriter, TantivyDocument};

use crate::error::Error;
use crate::index::{register_tokenizer, schema, size_on_disk, Fields, Meta, CHUNKS_FILE, FORMAT};
use crate::pgn::{read_games, GameRecord};
use crate::publish;
use crate::source::Source;
use crate::store::{encode_played, read_keys, write_keys, GameWriter, KeyEntry};
use crate::terms::{meta as term_meta, write_document};

#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub inputs: Vec<Source>,
    pub out: PathBuf,
    /// Similarity documents start after this many moves (the papers skipped 12).
    pub skip_moves: u32,
    pub threads: usize,
    /// Add to the index at `out` instead of replacing it.
    pub append: bool,
    /// tantivy's indexing memory, in MiB, for all threads together.
    pub heap_mb: usize,
    /// Index only the first this many games read (e.g. to hold the rest out for evaluation).
    pub max_games: Option<u64>,
    /// The chunk library (`None`: the built-in one). With `append`, the
    /// index's own library is used.
    pub chunks: Option<crate::chunks::Library>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            inputs: Vec::new(),
            out: PathBuf::from("index"),
            skip_moves: 12,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            append: false,
            heap_mb: 512,
            max_games: None,
            chunks: None,
        }
    }
}

/// Live counters, for a progress bar.
#[derive(Default)]
pub struct Progress {
    pub bytes_total: AtomicU64,
    pub bytes_read: AtomicU64,
    pub games: AtomicU64,
    pub positions: AtomicU64,
    pub documents: AtomicU64,
}

#[derive(Clone, Debug)]
pub struct Summary {
    pub games_read: u64,
    pub games_indexed: u64,
    pub troubles: BTreeMap<String, u64>,
    pub positions: u64,
    pub documents: u64,
    pub terms: u64,
    pub bytes_on_disk: u64,
    pub elapsed: Duration,
    /// Totals of the whole index (with `--append`, old and new).
    pub total: Meta,
}

struct CountingReader<'a, R> {
    inner: R,
    counter: &'a AtomicU64,
}

impl<R: Read> Read for CountingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Relaxed);
        Ok(n)
    }
}

/// Builds (or, with `append`, extends) the index at `opts.out`.
pub fn build(opts: &BuildOptions, progress: &Progress) -> Result<Summary, Error> {
    let start = Instant::now();
    if opts.inputs.is_empty() {
        return Err(Error::Input("no PGN file given".into()));
    }
    let mut total_bytes = 0;
    for p in &opts.inputs {
        total_bytes += p.size()?;
    }
    progress.bytes_total.store(total_bytes, Relaxed);

    let slot = publish::prepare(&opts.out)?;
    let result = build_into(opts, &slot.tmp, progress, start).and_then(|summary| {
        slot.publish()?;
        Ok(summary)
    });
    match result {
        Ok(summary) => Ok(Summary {
            bytes_on_disk: size_on_disk(&slot.out),
            ..summary
        }),
        Err(e) => {
            slot.discard();
            Err(e)
        }
    }
}

fn build_into(
    opts: &BuildOptions,
    tmp: &Path,
    progress: &Progress,
    start: Instant,
) -> Result<Summary, Error> {
    std::fs::create_dir_all(tmp.join("tantivy"))?;
    let (schema, fields) = schema();

    // With --append, start from a copy of the old index: tantivy's segment
    // files never change once written, so hard links are enough for them.
    let mut meta = Meta {
        format: FORMAT,
        skip_moves: opts.skip_moves,
        ..Meta::default()
    };
    let mut old_keys = Vec::new();
    let index = if opts.append && publish::is_mach_index(&opts.out) {
        let old = Meta::read(&opts.out)?;
        crate::checksum::verify(&opts.out)?;
        if old.skip_moves != opts.skip_moves {
            return Err(Error::Input(format!(
                "the index was built with --skip-moves {}; append with the same value",
                old.skip_moves
            )));
        }
        for name in ["games.bin", "games.idx"] {
            std::fs::copy(opts.out.join(name), tmp.join(name))?;
        }
        for e in std::fs::read_dir(opts.out.join("tantivy"))? {
            let e = e?;
            let name = e.file_name();
            let n = name.to_string_lossy();
            if n.ends_with(".lock") {
                continue;
            }
            let to = tmp.join("tantivy").join(&name);
            if n == "meta.json" || n == ".managed.json" {
                std::fs::copy(e.path(), to)?;
            } else if std::fs::hard_link(e.path(), &to).is_err() {
                std::fs::copy(e.path(), &to)?;
            }
        }
        old_keys = read_keys(&opts.out)?;
        std::fs::copy(opts.out.join(CHUNKS_FILE), tmp.join(CHUNKS_FILE))?;
        meta = old;
        let index = Index::open_in_dir(tmp.join("tantivy"))?;
        register_tokenizer(&index);
        index
    } else {
        let index = Index::create_in_dir(tmp.join("tantivy"), schema)?;
        register_tokenizer(&index);
        index
    };

    // The library the documents are chunked with, kept in the index.
    let chunks = if opts.append && tmp.join(CHUNKS_FILE).exists() {
        crate::index::read_chunks(tmp)?
    } else {
        let lib = opts
            .chunks
            .clone()
            .unwrap_or_else(crate::chunks::Library::builtin);
        std::fs::write(tmp.join(CHUNKS_FILE), &lib.text)?;
        lib
    };
    let chunks = &chunks;

    let threads = opts.threads.max(1);
    let heap = (opts.heap_mb.max(16 * threads) * 1024 * 1024).min(4 << 30);
    let writer: IndexWriter<TantivyDocument> = index.writer_with_num_threads(threads, heap)?;
    // No background merges: the segments are merged into one at the end,
    // and a background merge racing that merge for the same segments fails
    // the whole build ("segments that were merged could not be found").
    writer.set_merge_policy(Box::new(NoMergePolicy));
    let mut games_out = GameWriter::open(tmp)?;
    let first_id = meta.games;
    let skip_plies = 2 * opts.skip_moves as usize;

    let (tx, rx) = crossbeam_channel::bounded::<(u32, GameRecord)>(512);
    let counter = &progress.bytes_read;
    let mut troubles: BTreeMap<String, u64> = BTreeMap::new();
    let mut games_read = 0u64;
    let mut games_indexed = 0u64;

    let (keys, terms, docs) = std::thread::scope(|s| -> Result<(Vec<PathBuf>, u64, u64), Error> {
        let mut workers = Vec::new();
        for worker in 0..threads {
            let rx = rx.clone();
            let writer = &writer;
            workers.push(s.spawn(move || {
                let how = Encoding {
                    fields,
                    chunks,
                    skip_plies,
                };
                encode_games(rx, writer, &how, progress, tmp, worker)
            }));
        }
        drop(rx);
        let mut read_error = None;
        'files: for source in &opts.inputs {
            let input = BufReader::with_capacity(
                1 << 20,
                CountingReader {
                    inner: source.open()?,
                    counter,
                },
            );
            let mut send_failed = false;
            let r = read_games(input, |g| {
                if opts.max_games.is_some_and(|m| games_read >= m) {
                    return;
                }
                games_read += 1;
                if let Some(t) = g.trouble {
                    log::debug!("{}: game {games_read}: {}", source.name(), t.describe());
                    *troubles.entry(t.describe().to_string()).or_default() += 1;
                }
                if let Some(record) = g.game {
                    let id = (first_id + games_indexed) as u32;
                    if let Err(e) = games_out.write(&record) {
                        read_error.get_or_insert(e);
                        return;
                    }
                    games_indexed += 1;
                    progress.games.fetch_add(1, Relaxed);
                    if tx.send((id, record)).is_err() {
                        send_failed = true;
                    }
                }
            });
            if let Err(e) = r {
                read_error.get_or_insert(Error::Input(format!("{}: {e}", source.name())));
                break 'files;
            }
            if send_failed {
                break;
            }
        }
        drop(tx);
        let mut keys = Vec::new();
        let (mut terms, mut docs) = (0, 0);
        for w in workers {
            let (k, t, d) = w
                .join()
                .map_err(|_| Error::Input("an encoder thread failed".into()))??;
            keys.push(k);
            terms += t;
            docs += d;
        }
        if let Some(e) = read_error {
            return Err(e);
        }
        Ok((keys, terms, docs))
    })?;

    let mut writer = writer;
    writer.commit()?;
    // The exact-position table, while tantivy's indexing memory is free and
    // before the merge: old keys (with --append) and the workers' spills,
    // read into one exactly sized table, sorted and written.
    let mut spilled = 0u64;
    for part in &keys {
        spilled += std::fs::metadata(part)?.len() / 14;
    }
    let positions = spilled;
    let mut all_keys = old_keys;
    all_keys.reserve_exact(spilled as usize);
    for part in &keys {
        let raw = std::fs::read(part)?;
        all_keys.extend(raw.chunks_exact(14).map(|b| KeyEntry {
            key: u64::from_le_bytes(b[0..8].try_into().unwrap()),
            game: u32::from_le_bytes(b[8..12].try_into().unwrap()),
            ply: u16::from_le_bytes(b[12..14].try_into().unwrap()),
        }));
        std::fs::remove_file(part)?;
    }
    write_keys(tmp, &mut all_keys)?;
    drop(all_keys);

    // One segment: every query then does one term lookup per term, not one
    // per segment, which is most of the query time on small indexes.
    let segments = index.searchable_segment_ids()?;
    if segments.len() > 1 {
        writer.merge(&segments).wait()?;
    }
    writer.wait_merging_threads()?;
    games_out.finish()?;

    meta.games += games_indexed;
    meta.positions += positions;
    meta.documents += docs;
    meta.terms += terms;
    for (k, v) in &troubles {
        *meta.troubles.entry(k.clone()).or_default() += v;
    }
    for p in &opts.inputs {
        meta.sources.push(p.name());
    }
    meta.write(tmp)?;
    crate::checksum::write(tmp)?;

    Ok(Summary {
        games_read,
        games_indexed,
        troubles,
        positions,
        documents: docs,
        terms,
        bytes_on_disk: 0,
        elapsed: start.elapsed(),
        total: meta,
    })
}

/// How positions become documents: the fields, the chunk library, and the
/// opening plies that get no similarity document.
struct Encoding<'a> {
    fields: Fields,
    chunks: &'a crate::chunks::Library,
    skip_plies: usize,
}

/// Replays games, collecting exact keys and adding similarity documents.
fn encode_games(
    rx: crossbeam_channel::Receiver<(u32, GameRecord)>,
    writer: &IndexWriter<TantivyDocument>,
    how: &Encoding,
    progress: &Progress,
    tmp_keys_dir: &Path,
    worker: usize,
) -> Result<(PathBuf, u64, u64), Error> {
    // Keys go to a file of this worker's (14 bytes each), not to memory:
    // the full database has 14M of them.
    let (f, chunks, skip_plies) = (how.fields, how.chunks, how.skip_plies);
    let spill = tmp_keys_dir.join(format!("keys-{}.part", worker));
    let mut keys = std::io::BufWriter::new(File::create(&spill)?);
    let mut text = String::with_capacity(4096);
    let (mut terms, mut docs) = (0u64, 0u64);
    for (id, game) in rx {
        let mut pos = game.start();
        let n = game.moves.len();
        for ply in 0..=n {
            let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
            keys.write_all(&key.to_le_bytes())?;
            keys.write_all(&id.to_le_bytes())?;
            keys.write_all(&(ply.min(u16::MAX as usize) as u16).to_le_bytes())?;
            let Some(&m) = game.moves.get(ply) else { break };
            if ply >= skip_plies {
                text.clear();
                write_document(&pos, &mut text);
                for t in crate::terms::chunks::terms(chunks, &pos) {
                    text.push(' ');
                    text.push_str(&t);
                }
                terms += text.split(' ').count() as u64;
                // The weaker player's rating, so "minimum rating" filters on both.
                let elo = game.white_elo.min(game.black_elo);
                let mut doc = TantivyDocument::default();
                doc.add_text(f.terms, &text);
                doc.add_u64(f.game, id as u64);
                doc.add_u64(f.ply, ply as u64);
                doc.add_u64(f.next, encode_played(m));
                doc.add_u64(f.material, term_meta::material_signature(&pos));
                doc.add_u64(f.phase, term_meta::phase(&pos));
                doc.add_u64(f.elo, elo as u64);
                doc.add_u64(f.year, game.year as u64);
                doc.add_u64(f.kings, kings_code(&pos));
                writer.add_document(doc)?;
                docs += 1;
                progress.documents.fetch_add(1, Relaxed);
            }
            pos.play_unchecked(m);
        }
        progress.positions.fetch_add(n as u64 + 1, Relaxed);
    }
    keys.flush()?;
    Ok((spill, terms, docs))
}

/// The `kings` fast field: white king square * 64 + black king square.
pub fn kings_code(pos: &shakmaty::Chess) -> u64 {
    let b = pos.board();
    let sq = |c| b.king_of(c).map_or(0, |s: shakmaty::Square| u64::from(s));
    sq(shakmaty::Color::White) * 64 + sq(shakmaty::Color::Black)
}
