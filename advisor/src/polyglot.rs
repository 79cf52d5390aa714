//! Polyglot opening books, both ways: the grandmaster memory written as a
//! standard `.bin` book (`mach book`), and any Polyglot book read back for
//! play (the `BookFile` option).
//!
//! The format: 16-byte big-endian entries sorted by key: key (u64, Polyglot
//! Zobrist: shakmaty's `Zobrist64` with en passant counted when a pawn
//! stands beside the double-pushed one, `EnPassantMode::PseudoLegal`), move
//! (u16: to 0-5, from 6-11, promotion 12-14 as n b r q = 1..4; castling as
//! the king taking its own rook), weight (u16), learn (u32, 0 here).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role};

use crate::error::Error;
use crate::index::AdvisorIndex;
use crate::store::decode_move;

/// Size of one entry in bytes.
pub const ENTRY_BYTES: usize = 16;

/// The Polyglot key of a position.
pub fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal).0
}

/// A move in Polyglot's 16-bit encoding.
pub fn encode(m: Move) -> u16 {
    let (from, to) = match m {
        Move::Castle { king, rook } => (king, rook),
        _ => (m.from().expect("not a drop"), m.to()),
    };
    let promo = match m.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (promo << 12) | ((u32::from(from) as u16) << 6) | u32::from(to) as u16
}

/// The legal move of `pos` a Polyglot move code stands for, if any.
pub fn decode(pos: &Chess, code: u16) -> Option<Move> {
    // `encode` is one-to-one on the legal moves of a position.
    pos.legal_moves().into_iter().find(|m| encode(*m) == code)
}

/// One book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut b = [0u8; ENTRY_BYTES];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.mv.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b[12..16].copy_from_slice(&self.learn.to_be_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Entry {
        Entry {
            key: u64::from_be_bytes(b[0..8].try_into().expect("8 bytes")),
            mv: u16::from_be_bytes([b[8], b[9]]),
            weight: u16::from_be_bytes([b[10], b[11]]),
            learn: u32::from_be_bytes(b[12..16].try_into().expect("4 bytes")),
        }
    }
}

/// The largest file `Book::open` reads: 512 MiB, 32 million entries. The
/// largest books in common use hold a few million entries (tens to a few
/// hundred MB); the book is held in memory, entry for byte.
pub const MAX_BOOK_BYTES: u64 = 512 << 20;

/// A Polyglot book in memory.
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads and checks a book: a regular file of at most [`MAX_BOOK_BYTES`],
    /// whole entries, sorted by key. A pipe, a device (`/dev/zero`,
    /// `/dev/stdin`) or a directory is refused without reading from it (a
    /// pipe with no writer would block), and the memory is the file's size.
    pub fn open(path: &Path) -> Result<Book, Error> {
        let bad = |e: String| Error::Input(format!("{}: {e}", path.display()));
        // Checked before opening, so a pipe is never opened...
        let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
        book_size(&meta).map_err(bad)?;
        let file = open_nonblocking(path).map_err(|e| bad(e.to_string()))?;
        // ...and again on what was opened, in case the path changed meanwhile.
        let meta = file.metadata().map_err(|e| bad(e.to_string()))?;
        let len = book_size(&meta).map_err(bad)?;
        Book::read(std::io::Read::take(file, len), len).map_err(bad)
    }

    /// The entries of `raw` (a whole book in memory), checked as `open` checks them.
    pub fn from_bytes(raw: &[u8]) -> Result<Book, String> {
        Book::read(raw, raw.len() as u64)
    }

    /// Reads `len` bytes of entries from `r`, checking them as they come.
    fn read(r: impl std::io::Read, len: u64) -> Result<Book, String> {
        if !len.is_multiple_of(ENTRY_BYTES as u64) {
            return Err(format!(
                "not a Polyglot book: {len} bytes is not a whole number of 16-byte entries"
            ));
        }
        let n = (len / ENTRY_BYTES as u64) as usize;
        let mut r = std::io::BufReader::with_capacity(1 << 16, r);
        let mut entries = Vec::with_capacity(n);
        let mut b = [0u8; ENTRY_BYTES];
        for _ in 0..n {
            std::io::Read::read_exact(&mut r, &mut b).map_err(|e| e.to_string())?;
            let e = Entry::from_bytes(&b);
            if entries.last().is_some_and(|p: &Entry| p.key > e.key) {
                return Err("not a Polyglot book: entries are not sorted by key".into());
            }
            entries.push(e);
        }
        Ok(Book { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries for `pos` whose moves are legal there, heaviest first.
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let k = key(pos);
        let start = self.entries.partition_point(|e| e.key < k);
        let mut out: Vec<(Move, u16)> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == k)
            .filter_map(|e| decode(pos, e.mv).map(|m| (m, e.weight)))
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        out
    }

    /// A move chosen with probability proportional to its weight (as
    /// Polyglot plays), from `r` in [0, 1); `None` when the book is silent
    /// or every weight is 0.
    pub fn pick(&self, pos: &Chess, r: f64) -> Option<Move> {
        pick_from(&self.moves(pos), r)
    }
}

/// A move of `moves` chosen with probability proportional to its weight,
/// from `r` in [0, 1); `None` when every weight is 0.
pub fn pick_from(moves: &[(Move, u16)], r: f64) -> Option<Move> {
    let total: u64 = moves.iter().map(|(_, w)| *w as u64).sum();
    if total == 0 {
        return None;
    }
    let mut target = (r.clamp(0.0, 0.999_999) * total as f64) as u64;
    for &(m, w) in moves {
        if target < w as u64 {
            return Some(m);
        }
        target -= w as u64;
    }
    None
}

/// The size of a book file, or why it cannot be one.
fn book_size(meta: &std::fs::Metadata) -> Result<u64, String> {
    if !meta.is_file() {
        return Err(format!(
            "not a regular file (a {}); a Polyglot book is a .bin file",
            kind(&meta.file_type())
        ));
    }
    if meta.len() > MAX_BOOK_BYTES {
        return Err(format!(
            "{} MB is more than a book may have ({} MB)",
            meta.len() >> 20,
            MAX_BOOK_BYTES >> 20
        ));
    }
    Ok(meta.len())
}

/// What a path that is not a regular file is, in words.
fn kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "device";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    if t.is_dir() {
        "directory"
    } else {
        "special file"
    }
}

/// Opens `path` for reading without waiting for a writer, should it have
/// become a pipe since it was checked (O_NONBLOCK; the read itself is
/// refused after the check of the open file).
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::File::options();
    o.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NONBLOCK);
    o.open(path)
}

/// Per position and move: games and points for the side that played it.
#[derive(Default, Clone, Copy)]
struct Tally {
    games: u32,
    /// Polyglot make-book's points: a win 2, a draw 1.
    points: u32,
}

/// What `write_book` wrote.
#[derive(Debug, Default)]
pub struct BookSummary {
    pub positions: usize,
    pub entries: usize,
    pub games: u64,
}

/// Writes the memory of `index` as a Polyglot book: every position of the
/// first `max_plies` plies of every game, every move played there at least
/// `min_games` times; its weight is Polyglot make-book's score for the side
/// that played it (2 per win, 1 per draw), divided down per position so the
/// largest fits 16 bits. A move that only lost keeps weight 0 (never
/// chosen, still listed). The caller owns `out` (for a file: a temporary,
/// renamed once the book is whole).
pub fn write_book(
    index: &AdvisorIndex,
    out: impl Write,
    max_plies: usize,
    min_games: u32,
) -> Result<BookSummary, Error> {
    let mut tally: HashMap<(u64, u16), Tally> = HashMap::new();
    let mut summary = BookSummary::default();
    for id in 0..index.games.len() as u32 {
        let Some(g) = index.games.get(id) else {
            continue;
        };
        let mut pos = g.start();
        summary.games += 1;
        for &code in g.moves.iter().take(max_plies) {
            let Some(m) = decode_move(&pos, code) else {
                break;
            };
            let t = tally.entry((key(&pos), encode(m))).or_default();
            t.games += 1;
            t.points += match g.result.score_for(pos.turn()) {
                Some(s) if s >= 1.0 => 2,
                Some(s) if s > 0.0 => 1,
                _ => 0,
            };
            pos.play_unchecked(m);
        }
    }
    let mut by_key: HashMap<u64, Vec<(u16, Tally)>> = HashMap::new();
    for ((k, mv), t) in tally {
        if t.games >= min_games {
            by_key.entry(k).or_default().push((mv, t));
        }
    }
    let mut entries = Vec::new();
    for (k, moves) in by_key {
        let max = moves.iter().map(|(_, t)| t.points).max().unwrap_or(0);
        let scale = max.div_ceil(u16::MAX as u32).max(1);
        for (mv, t) in moves {
            entries.push(Entry {
                key: k,
                mv,
                weight: (t.points / scale) as u16,
                learn: 0,
            });
        }
        summary.positions += 1;
    }
    // Polyglot readers binary-search by key; heaviest move first within a key.
    entries.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.weight.cmp(&a.weight))
            .then(a.mv.cmp(&b.mv))
    });
    summary.entries = entries.len();
    let mut f = std::io::BufWriter::new(out);
    for e in &entries {
        f.write_all(&e.to_bytes())?;
    }
    f.flush()?;
    Ok(summary)
}

/// The king's castling move as Polyglot writes it, e.g. e1h1 (for tests).
pub fn castling_code(color: Color, side: CastlingSide) -> u16 {
    let rank = if color == Color::White { 0 } else { 7 };
    let from = rank * 8 + 4;
    let to = rank * 8 + if side == CastlingSide::KingSide { 7 } else { 0 };
    ((from as u16) << 6) | to as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::testpos::pos;
    use shakmaty::{CastlingMode, Square};

    #[test]
    fn keys_are_the_polyglot_keys_of_the_specification() {
        // The examples of the Polyglot book format's documentation.
        assert_eq!(key(&Chess::default()), 0x463b96181691fc9c);
        let e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(key(&e4), 0x823c9b50fd114196);
        let e4d5 = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
        assert_eq!(key(&e4d5), 0x0756b94461c50fb0);
        // A pawn beside the double-pushed one: the en passant file counts.
        let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        assert_eq!(key(&ep), 0x22a48b5a8e47ff78);
    }

    #[test]
    fn moves_encode_as_polyglot_writes_them_castling_as_king_takes_rook() {
        let p = pos("r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1");
        let short = p
            .legal_moves()
            .into_iter()
            .find(|m| matches!(m, Move::Castle { rook, .. } if *rook == Square::H1))
            .unwrap();
        assert_eq!(
            encode(short),
            castling_code(Color::White, CastlingSide::KingSide)
        );
        assert_eq!(decode(&p, encode(short)), Some(short));
        let promo = pos("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
        let q = promo
            .legal_moves()
            .into_iter()
            .find(|m| m.promotion() == Some(Role::Queen))
            .unwrap();
        assert_eq!(encode(q) >> 12, 4);
        assert_eq!(decode(&promo, encode(q)), Some(q));
    }

    #[test]
    fn a_book_reads_back_and_picks_by_weight() {
        let start = Chess::default();
        let m = |uci: &str| {
            start
                .legal_moves()
                .into_iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == uci)
                .unwrap()
        };
        let mut raw = Vec::new();
        for (mv, w) in [("e2e4", 3u16), ("d2d4", 1)] {
            raw.extend(
                Entry {
                    key: key(&start),
                    mv: encode(m(mv)),
                    weight: w,
                    learn: 0,
                }
                .to_bytes(),
            );
        }
        let book = Book::from_bytes(&raw).unwrap();
        assert_eq!(book.moves(&start), vec![(m("e2e4"), 3), (m("d2d4"), 1)]);
        assert_eq!(book.pick(&start, 0.0), Some(m("e2e4")));
        assert_eq!(book.pick(&start, 0.74), Some(m("e2e4")));
        assert_eq!(book.pick(&start, 0.76), Some(m("d2d4")));
        assert!(book.moves(&pos("8/8/8/8/8/8/6k1/4K3 w - - 0 1")).is_empty());
        assert!(Book::from_bytes(&raw[..20]).is_err());
        let mut unsorted = raw.clone();
        unsorted[0] = 0xff;
        assert!(Book::from_bytes(&unsorted).is_err());
    }

    #[test]
    fn a_directory_or_an_oversized_file_is_refused_without_reading_it() {
        let dir = tempfile::tempdir().unwrap();
        let e = Book::open(dir.path()).err().unwrap().to_string();
        assert!(e.contains("not a regular file (a directory)"), "{e}");
        // Sparse: no disk and no memory, only its size is looked at.
        let big = dir.path().join("big.bin");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_BOOK_BYTES + ENTRY_BYTES as u64).unwrap();
        let e = Book::open(&big).err().unwrap().to_string();
        assert!(e.contains("more than a book may have (512 MB)"), "{e}");
        f.set_len(2 * ENTRY_BYTES as u64).unwrap();
        assert_eq!(Book::open(&big).unwrap().len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_with_no_writer_and_a_device_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // In a thread, so that a read that waits for a writer fails the test, not hangs it.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(Book::open(&fifo).err().map(|e| e.to_string())));
        let e = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("opening a pipe with no writer must not wait")
            .unwrap();
        assert!(e.contains("not a regular file (a pipe)"), "{e}");
        let e = Book::open(Path::new("/dev/zero"))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("not a regular file (a device)"), "{e}");
    }
}
