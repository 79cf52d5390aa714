//! The index on disk: a directory with
//!
//! - `meta.txt`: format version and build figures (`key = value` lines);
//! - `tantivy/`: one document per position (from `skip_moves` on): the terms
//!   of `terms::document_text` and fast fields for the game, the ply, the
//!   move played next and the pre-filters (material, phase, rating, year);
//! - `games.bin`, `games.idx`, `keys.bin`: see `store`;
//! - `chunks.txt`: the chunk library the build used: queries chunk
//!   positions with the same library, whatever the binary ships;
//! - `sums.txt`: checksums of the files above, checked on open (`checksum`);
//! - `vectors.net`, `vectors.bin` (optional, `mach embed index`): each
//!   position's vector and the network that made them (`vectors::store`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tantivy::columnar::Column;
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST};
use tantivy::tokenizer::{TextAnalyzer, WhitespaceTokenizer};
use tantivy::{Index, IndexReader, ReloadPolicy};

use crate::error::Error;
use crate::store::{Games, Keys};

/// Bumped whenever anything on disk changes meaning (terms, fields, stores).
/// 4: `sums.txt` (checksums of Mach's own files) is required.
/// 5: chunk and class terms, `chunks.txt` (the chunk library used), `kings`.
pub const FORMAT: u32 = 5;
/// Case-sensitive whitespace tokenizer: `Bxc4` and `bxc4` must stay apart.
pub const TOKENIZER: &str = "mach_terms";

#[derive(Clone, Copy)]
pub struct Fields {
    pub terms: Field,
    pub game: Field,
    pub ply: Field,
    pub next: Field,
    pub material: Field,
    pub phase: Field,
    pub elo: Field,
    pub year: Field,
    /// White king square * 64 + black king square (MACH's third filter).
    pub kings: Field,
}

pub fn schema() -> (Schema, Fields) {
    let mut sb = Schema::builder();
    // Term frequencies carry the reach weights; positions are never needed.
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(TOKENIZER)
        .set_index_option(IndexRecordOption::WithFreqs);
    let terms = sb.add_text_field(
        "terms",
        TextOptions::default().set_indexing_options(indexing),
    );
    let fields = Fields {
        terms,
        game: sb.add_u64_field("game", FAST),
        ply: sb.add_u64_field("ply", FAST),
        next: sb.add_u64_field("next", FAST),
        material: sb.add_u64_field("material", FAST),
        phase: sb.add_u64_field("phase", FAST),
        elo: sb.add_u64_field("elo", FAST),
        year: sb.add_u64_field("year", FAST),
        kings: sb.add_u64_field("kings", FAST),
    };
    (sb.build(), fields)
}

pub fn register_tokenizer(index: &Index) {
    index.tokenizers().register(
        TOKENIZER,
        TextAnalyzer::builder(WhitespaceTokenizer::default()).build(),
    );
}

/// Build figures and format, kept in `meta.txt`.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    pub format: u32,
    pub games: u64,
    /// Every ply of every game (exact lookups).
    pub positions: u64,
    /// Positions indexed for similarity.
    pub documents: u64,
    /// Term occurrences indexed (reach repetitions included).
    pub terms: u64,
    pub skip_moves: u32,
    /// Games skipped or cut, by reason.
    pub troubles: BTreeMap<String, u64>,
    pub sources: Vec<String>,
}

/// The first line of every `meta.txt` Mach writes (older indexes start with `format = `).
pub const META_MARK: &str = "# mach advisor index";

impl Meta {
    pub fn write(&self, dir: &Path) -> Result<(), Error> {
        let mut s = format!(
            "{}\nformat = {}\ngames = {}\npositions = {}\ndocuments = {}\nterms = {}\nskip_moves = {}\n",
            META_MARK,
            self.format,
            self.games,
            self.positions, self.documents, self.terms, self.skip_moves
        );
        for (k, v) in &self.troubles {
            s.push_str(&format!("trouble.{} = {v}\n", k.replace(' ', "_")));
        }
        for src in &self.sources {
            s.push_str(&format!("source = {src}\n"));
        }
        std::fs::write(dir.join("meta.txt"), s)?;
        Ok(())
    }

    pub fn read(dir: &Path) -> Result<Meta, Error> {
        let path = dir.join("meta.txt");
        if !dir.is_dir() {
            return Err(Error::NotAnIndex(format!(
                "{} does not exist",
                dir.display()
            )));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|_| Error::NotAnIndex(format!("{} has no meta.txt", dir.display())))?;
        let mut m = Meta::default();
        let mut format = None;
        for line in text.lines() {
            let Some((k, v)) = line.split_once(" = ") else {
                continue;
            };
            let num = || v.trim().parse::<u64>().unwrap_or(0);
            match k.trim() {
                "format" => format = v.trim().parse().ok(),
                "games" => m.games = num(),
                "positions" => m.positions = num(),
                "documents" => m.documents = num(),
                "terms" => m.terms = num(),
                "skip_moves" => m.skip_moves = num() as u32,
                "source" => m.sources.push(v.to_string()),
                k if k.starts_with("trouble.") => {
                    m.troubles
                        .insert(k["trouble.".len()..].replace('_', " "), num());
                }
                _ => {}
            }
        }
        m.format = format
            .ok_or_else(|| Error::Corrupt(format!("{} has no format line", path.display())))?;
        if m.format != FORMAT {
            return Err(Error::Version {
                path: dir.to_path_buf(),
                found: m.format,
                expected: FORMAT,
            });
        }
        Ok(m)
    }
}

/// An open index: tantivy, the games and the exact-position table.
pub struct AdvisorIndex {
    pub dir: PathBuf,
    pub meta: Meta,
    pub index: Index,
    pub reader: IndexReader,
    pub fields: Fields,
    pub games: Games,
    pub keys: Keys,
    /// Document frequency of each query term seen so far.
    pub df_cache: std::sync::Mutex<std::collections::HashMap<String, u64>>,
    /// The fast fields of each segment, opened once: loading a column
    /// reads its whole block table, milliseconds on a large index.
    pub columns: Vec<Columns>,
    /// The chunk library the index was built with.
    pub chunks: crate::chunks::Library,
    /// The positions' vectors, when they were written (`mach advise --mode embed`).
    pub vectors: Option<crate::vectors::VectorStore>,
    /// Why the vectors could not be read (damaged files): the rest of the
    /// index works, and a query by vector says this.
    pub vectors_trouble: Option<String>,
}

/// One segment's fast fields.
pub struct Columns {
    pub game: Column<u64>,
    pub ply: Column<u64>,
    pub next: Column<u64>,
    pub elo: Column<u64>,
    pub year: Column<u64>,
    pub kings: Column<u64>,
}

impl AdvisorIndex {
    /// Opens the index at `dir`; a missing, foreign, corrupt or
    /// other-version index is a clear error. A damaged file that makes a
    /// library panic while opening is a "corrupt index" error too.
    pub fn open(dir: &Path) -> Result<AdvisorIndex, Error> {
        std::panic::catch_unwind(|| Self::open_checked(dir)).unwrap_or_else(|_| {
            Err(Error::Corrupt(format!(
                "{}: a damaged file made the index unreadable; rebuild it with `mach index`",
                dir.display()
            )))
        })
    }

    fn open_checked(dir: &Path) -> Result<AdvisorIndex, Error> {
        let meta = Meta::read(dir)?;
        // Small files are checked here, the big stores as they are loaded.
        let sums = crate::checksum::Sums::read(dir)?;
        sums.check_file(dir, "meta.txt")?;
        sums.check_file(dir, CHUNKS_FILE)?;
        let index = Index::open_in_dir(dir.join("tantivy"))
            .map_err(|e| Error::Corrupt(format!("{}: {e}", dir.join("tantivy").display())))?;
        register_tokenizer(&index);
        let (_, fields) = schema();
        let (expected, _) = schema();
        if index.schema() != expected {
            return Err(Error::Corrupt("the tantivy schema is not Mach's".into()));
        }
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| Error::Corrupt(format!("cannot read the tantivy index: {e}")))?;
        let games = Games::open(dir, &sums)?;
        let keys = Keys::open(dir, &sums)?;
        let mut columns = Vec::new();
        for segment in reader.searcher().segment_readers() {
            let ff = segment.fast_fields();
            let col = |name: &str| {
                ff.u64(name)
                    .map_err(|e| Error::Corrupt(format!("fast field {name}: {e}")))
            };
            columns.push(Columns {
                game: col("game")?,
                ply: col("ply")?,
                next: col("next")?,
                elo: col("elo")?,
                year: col("year")?,
                kings: col("kings")?,
            });
        }
        if games.len() as u64 != meta.games {
            return Err(Error::Corrupt(format!(
                "meta.txt says {} games, the store has {}",
                meta.games,
                games.len()
            )));
        }
        let chunks = read_chunks(dir)?;
        let (vectors, vectors_trouble) = match crate::vectors::VectorStore::open(dir) {
            Ok(v) => (v, None),
            Err(e) => {
                log::warn!("{e}");
                (None, Some(e.to_string()))
            }
        };
        Ok(AdvisorIndex {
            chunks,
            vectors,
            vectors_trouble,
            dir: dir.to_path_buf(),
            meta,
            index,
            reader,
            fields,
            games,
            keys,
            df_cache: Default::default(),
            columns,
        })
    }

    /// Documents in the similarity index.
    pub fn documents(&self) -> u64 {
        self.reader.searcher().num_docs()
    }
}

/// The chunk library stored in an index (`chunks.txt`).
pub fn read_chunks(dir: &Path) -> Result<crate::chunks::Library, Error> {
    let text = std::fs::read_to_string(dir.join(CHUNKS_FILE))
        .map_err(|e| Error::Corrupt(format!("{}: {e}", dir.join(CHUNKS_FILE).display())))?;
    crate::chunks::Library::from_stored_text(&text)
        .map_err(|e| Error::Corrupt(format!("{}: {e}", dir.join(CHUNKS_FILE).display())))
}

/// The file that keeps an index's chunk library.
pub const CHUNKS_FILE: &str = "chunks.txt";

/// Bytes of every file under `dir`.
pub fn size_on_disk(dir: &Path) -> u64 {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    rd.flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => size_on_disk(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}
