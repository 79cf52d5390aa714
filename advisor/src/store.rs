//! The parts of an index that are not tantivy's:
//!
//! - `games.bin` + `games.idx`: every game once (headers, start FEN, moves at
//!   2 bytes each), as MACH kept games rather than positions: any position
//!   is rebuilt by replaying its game to the ply;
//! - `keys.bin`: (Zobrist key, game, ply) for every ply of every game,
//!   sorted by key, for exact lookups (like an opening book or an explorer).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

use shakmaty::{Chess, Move, Position, Role, Square};

use crate::error::Error;
use crate::pgn::{GameRecord, GameResult};

/// Moves packed in 16 bits: from | to << 6 | promotion role << 12 (castling
/// as king to rook, as shakmaty represents it).
pub fn encode_move(m: Move) -> u16 {
    let from = m.from().map_or(0, |s| s as u16);
    let promo = m.promotion().map_or(0, |r| r as u16);
    from | ((m.to() as u16) << 6) | (promo << 12)
}

/// A move and the role of the piece that made it, for the `next` field of a
/// document: the move code in the low 16 bits, the role (1-6) above.
pub fn encode_played(m: Move) -> u64 {
    encode_move(m) as u64 | ((m.role() as u64) << 16)
}

/// What `encode_played` packed: (from, to, promotion, role).
pub fn decode_played(v: u64) -> Option<(Square, Square, Option<Role>, Role)> {
    let code = v as u16;
    let from = Square::new((code & 63) as u32);
    let to = Square::new(((code >> 6) & 63) as u32);
    let promo = match (code >> 12) & 7 {
        0 => None,
        r => Some(Role::try_from(r as u8).ok()?),
    };
    let role = Role::try_from(((v >> 16) & 7) as u8).ok()?;
    Some((from, to, promo, role))
}

/// The legal move of `pos` with this code.
pub fn decode_move(pos: &Chess, code: u16) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .find(|&m| encode_move(m) == code)
}

/// Appends game records to `games.bin`, offsets to `games.idx`.
pub struct GameWriter {
    data: BufWriter<File>,
    index: BufWriter<File>,
    offset: u64,
}

fn put_str(buf: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let n = b.len().min(u16::MAX as usize);
    buf.extend_from_slice(&(n as u16).to_le_bytes());
    buf.extend_from_slice(&b[..n]);
}

impl GameWriter {
    /// Opens (appending) the game store in `dir`.
    pub fn open(dir: &Path) -> Result<GameWriter, Error> {
        let data = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("games.bin"))?;
        let offset = data.metadata()?.len();
        let index = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("games.idx"))?;
        Ok(GameWriter {
            data: BufWriter::new(data),
            index: BufWriter::new(index),
            offset,
        })
    }

    pub fn write(&mut self, g: &GameRecord) -> Result<(), Error> {
        let mut buf = Vec::with_capacity(64 + 2 * g.moves.len());
        put_str(&mut buf, &g.white);
        put_str(&mut buf, &g.black);
        put_str(&mut buf, &g.event);
        put_str(&mut buf, g.fen.as_deref().unwrap_or(""));
        buf.extend_from_slice(&g.white_elo.to_le_bytes());
        buf.extend_from_slice(&g.black_elo.to_le_bytes());
        buf.extend_from_slice(&g.year.to_le_bytes());
        buf.push(g.result.code());
        let n = g.moves.len().min(u16::MAX as usize);
        buf.extend_from_slice(&(n as u16).to_le_bytes());
        for &m in &g.moves[..n] {
            buf.extend_from_slice(&encode_move(m).to_le_bytes());
        }
        self.index.write_all(&self.offset.to_le_bytes())?;
        self.data.write_all(&buf)?;
        self.offset += buf.len() as u64;
        Ok(())
    }

    pub fn finish(mut self) -> Result<(), Error> {
        self.data.flush()?;
        self.index.flush()?;
        self.data.get_ref().sync_all()?;
        self.index.get_ref().sync_all()?;
        Ok(())
    }
}

/// What the exact lookups need of a game, borrowed from the store.
#[derive(Clone, Copy, Debug)]
pub struct GameHead<'a> {
    pub white_elo: u16,
    pub black_elo: u16,
    pub year: u16,
    pub result: GameResult,
    /// The move codes, two little-endian bytes each.
    moves: &'a [u8],
}

impl GameHead<'_> {
    /// The move code played at `ply` (0 = the first move), if the game got there.
    pub fn move_at(&self, ply: usize) -> Option<u16> {
        let b = self.moves.get(2 * ply..2 * ply + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// Game headers and moves, read back.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub white: String,
    pub black: String,
    pub event: String,
    pub fen: Option<String>,
    pub white_elo: u16,
    pub black_elo: u16,
    pub year: u16,
    pub result: GameResult,
    /// Move codes (see [`encode_move`]).
    pub moves: Vec<u16>,
}

impl StoredGame {
    pub fn start(&self) -> Chess {
        GameRecord {
            fen: self.fen.clone(),
            ..GameRecord::default()
        }
        .start()
    }

    /// The position before move `ply` (0 = start) and the move played there.
    pub fn position_at(&self, ply: usize) -> Option<(Chess, Option<Move>)> {
        let mut pos = self.start();
        for &code in self.moves.iter().take(ply) {
            let m = decode_move(&pos, code)?;
            pos.play_unchecked(m);
        }
        let next = self.moves.get(ply).and_then(|&c| decode_move(&pos, c));
        Some((pos, next))
    }
}

/// The whole game store in memory (tens of MB for the full database).
pub struct Games {
    data: Vec<u8>,
    offsets: Vec<u64>,
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.i..self.i + n)?;
        self.i += n;
        Some(s)
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn str(&mut self) -> Option<String> {
        let n = self.u16()? as usize;
        Some(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
}

impl Games {
    /// Loads the game store, checking it against `sums` as it is read.
    pub fn open(dir: &Path, sums: &crate::checksum::Sums) -> Result<Games, Error> {
        let data = std::fs::read(dir.join("games.bin"))?;
        sums.check("games.bin", &data)?;
        let raw = std::fs::read(dir.join("games.idx"))?;
        sums.check("games.idx", &raw)?;
        if raw.len() % 8 != 0 {
            return Err(Error::Corrupt("games.idx has a partial entry".into()));
        }
        let offsets: Vec<u64> = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        if offsets.iter().any(|&o| o as usize > data.len()) {
            return Err(Error::Corrupt("games.idx points past games.bin".into()));
        }
        Ok(Games { data, offsets })
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// A game's ratings, year, result and one move, read in place without
    /// decoding the rest: the exact lookups of a popular position touch tens
    /// of thousands of games, so this must not allocate.
    pub fn head(&self, id: u32) -> Option<GameHead<'_>> {
        let start = *self.offsets.get(id as usize)? as usize;
        let mut c = Cursor {
            b: &self.data,
            i: start,
        };
        for _ in 0..4 {
            let n = c.u16()? as usize;
            c.take(n)?;
        }
        let white_elo = c.u16()?;
        let black_elo = c.u16()?;
        let year = c.u16()?;
        let result = GameResult::from_code(*c.take(1)?.first()?);
        let n = c.u16()? as usize;
        Some(GameHead {
            white_elo,
            black_elo,
            year,
            result,
            moves: c.take(2 * n)?,
        })
    }

    pub fn get(&self, id: u32) -> Option<StoredGame> {
        let start = *self.offsets.get(id as usize)? as usize;
        let mut c = Cursor {
            b: &self.data,
            i: start,
        };
        let white = c.str()?;
        let black = c.str()?;
        let event = c.str()?;
        let fen = c.str()?;
        let white_elo = c.u16()?;
        let black_elo = c.u16()?;
        let year = c.u16()?;
        let result = GameResult::from_code(*c.take(1)?.first()?);
        let n = c.u16()? as usize;
        let moves = c
            .take(2 * n)?
            .chunks_exact(2)
            .map(|x| u16::from_le_bytes([x[0], x[1]]))
            .collect();
        Some(StoredGame {
            white,
            black,
            event,
            fen: (!fen.is_empty()).then_some(fen),
            white_elo,
            black_elo,
            year,
            result,
            moves,
        })
    }
}

/// One ply of one game under its position's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyEntry {
    pub key: u64,
    pub game: u32,
    pub ply: u16,
}

const KEY_ENTRY_BYTES: usize = 14;

/// Writes sorted key entries to `keys.bin`.
pub fn write_keys(dir: &Path, entries: &mut [KeyEntry]) -> Result<(), Error> {
    entries.sort_unstable();
    let mut w = BufWriter::new(File::create(dir.join("keys.bin"))?);
    for e in entries.iter() {
        w.write_all(&e.key.to_le_bytes())?;
        w.write_all(&e.game.to_le_bytes())?;
        w.write_all(&e.ply.to_le_bytes())?;
    }
    w.flush()?;
    w.get_ref().sync_all()?;
    Ok(())
}

/// Reads `keys.bin` back (for `--append`).
pub fn read_keys(dir: &Path) -> Result<Vec<KeyEntry>, Error> {
    let keys = Keys::open(dir, &crate::checksum::Sums::read(dir)?)?;
    Ok((0..keys.len()).map(|i| keys.entry(i)).collect())
}

/// The exact-position table, in memory.
pub struct Keys {
    raw: Vec<u8>,
}

impl Keys {
    /// Loads the exact-position table, checking it against `sums`.
    pub fn open(dir: &Path, sums: &crate::checksum::Sums) -> Result<Keys, Error> {
        let mut raw = Vec::new();
        File::open(dir.join("keys.bin"))?.read_to_end(&mut raw)?;
        sums.check("keys.bin", &raw)?;
        if raw.len() % KEY_ENTRY_BYTES != 0 {
            return Err(Error::Corrupt("keys.bin has a partial entry".into()));
        }
        Ok(Keys { raw })
    }

    pub fn len(&self) -> usize {
        self.raw.len() / KEY_ENTRY_BYTES
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    fn entry(&self, i: usize) -> KeyEntry {
        let b = &self.raw[i * KEY_ENTRY_BYTES..(i + 1) * KEY_ENTRY_BYTES];
        KeyEntry {
            key: u64::from_le_bytes(b[0..8].try_into().unwrap()),
            game: u32::from_le_bytes(b[8..12].try_into().unwrap()),
            ply: u16::from_le_bytes(b[12..14].try_into().unwrap()),
        }
    }

    /// Every (game, ply) whose position has this key.
    pub fn find(&self, key: u64) -> Vec<KeyEntry> {
        let n = self.len();
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.entry(mid).key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (lo..n)
            .map(|i| self.entry(i))
            .take_while(|e| e.key == key)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_round_trip_and_keys_are_found() {
        let scratch = tempfile::Builder::new()
            .prefix("mach-store-test-")
            .tempdir()
            .unwrap();
        let dir = scratch.path();
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for san in ["e4", "c5", "Nf3", "d6"] {
            let m = san
                .parse::<shakmaty::san::San>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(m);
            moves.push(m);
        }
        let g = GameRecord {
            white: "Kasparov, Garry".into(),
            black: "Topalov, Veselin".into(),
            white_elo: 2812,
            black_elo: 2700,
            year: 1999,
            event: "Hoogovens".into(),
            result: GameResult::WhiteWins,
            fen: None,
            moves,
        };
        let mut w = GameWriter::open(dir).unwrap();
        w.write(&g).unwrap();
        w.write(&g).unwrap();
        w.finish().unwrap();
        let games = Games::open(dir, &crate::checksum::Sums::unchecked()).unwrap();
        assert_eq!(games.len(), 2);
        let s = games.get(1).unwrap();
        assert_eq!(
            (s.white.as_str(), s.white_elo, s.year),
            ("Kasparov, Garry", 2812, 1999)
        );
        // The head reads the same fields in place, moves included.
        let h = games.head(1).unwrap();
        assert_eq!(
            (h.white_elo, h.black_elo, h.year, h.result),
            (2812, 2700, 1999, GameResult::WhiteWins)
        );
        assert_eq!(
            (0..5).map(|i| h.move_at(i)).collect::<Vec<_>>(),
            s.moves
                .iter()
                .map(|&c| Some(c))
                .chain([None])
                .collect::<Vec<_>>()
        );
        assert!(games.head(2).is_none());
        let (p, next) = s.position_at(2).unwrap();
        assert_eq!(next.unwrap().to_string(), "Ng1-f3");
        assert_eq!(p.fullmoves().get(), 2);
        assert!(games.get(2).is_none());

        let mut entries = vec![
            KeyEntry {
                key: 5,
                game: 0,
                ply: 1,
            },
            KeyEntry {
                key: 3,
                game: 1,
                ply: 2,
            },
            KeyEntry {
                key: 5,
                game: 1,
                ply: 1,
            },
        ];
        write_keys(dir, &mut entries).unwrap();
        let keys = Keys::open(dir, &crate::checksum::Sums::unchecked()).unwrap();
        assert_eq!(keys.find(5).len(), 2);
        assert_eq!(keys.find(3)[0].game, 1);
        assert!(keys.find(4).is_empty());
    }
}
