//! The tree file's layout (all integers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `MACHTREE` |
//! | 4 | format version (2) |
//! | 4 | positions `n` |
//! | 4 | length of the move records in bytes |
//! | 4 | games the tree was built from |
//! | 4 | games held out: every this-many-th game of the PGN (0: none) |
//! | 4 | plies read from each game |
//! | 4 | fewest games through a kept position |
//! | 4 | CRC-32 of everything after the header |
//! | 8 n | the positions' Polyglot keys, ascending |
//! | 4 (n + 1) | where each position's moves start in the records (the last: their end) |
//! | ... | the move records |
//!
//! One move record: the Polyglot move code (2 bytes), then as LEB128
//! varints the games that played it, their wins, draws and losses for the
//! side that played it (results not known make up the rest of the games),
//! the average rating of the players who played it (0: unknown) and the
//! last year it was played (0: unknown); then one byte, its backed-up value
//! for the side that played it in steps of 1/250 (`build::back_up`). A
//! position's moves are stored most
//! played first, ties by move code, so a build is byte for byte the same
//! whatever order its hash maps kept.

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"MACHTREE";
/// The layout above.
pub const VERSION: u32 = 2;
/// Size of the header in bytes.
pub const HEADER_BYTES: usize = 40;

/// A tree file's three sections: the keys, the offsets, the move records.
pub type Sections<'a> = (&'a [u8], &'a [u8], &'a [u8]);

/// The header's fields after the magic and the version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub positions: u32,
    pub record_bytes: u32,
    pub games: u32,
    pub held_out_every: u32,
    pub max_plies: u32,
    pub min_games: u32,
    pub crc: u32,
}

/// One move of one position, as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    /// Polyglot move code.
    pub mv: u16,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub avg_elo: u16,
    pub last_year: u16,
    /// The backed-up value in [0, 250] (250: a sure win for the side that played it).
    pub backed: u8,
}

/// The steps of a stored backed-up value.
pub const BACKED_STEPS: f32 = 250.0;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

impl Header {
    /// Reads and checks the header of `bytes`.
    pub fn read(bytes: &[u8]) -> Result<Header, String> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err("not a Mach opening tree (no MACHTREE header)".into());
        }
        let version = u32_at(bytes, 8);
        if version != VERSION {
            return Err(format!(
                "opening tree format {version}, this Mach reads format {VERSION}"
            ));
        }
        Ok(Header {
            positions: u32_at(bytes, 12),
            record_bytes: u32_at(bytes, 16),
            games: u32_at(bytes, 20),
            held_out_every: u32_at(bytes, 24),
            max_plies: u32_at(bytes, 28),
            min_games: u32_at(bytes, 32),
            crc: u32_at(bytes, 36),
        })
    }

    /// The header as bytes (magic and version included).
    pub fn to_bytes(self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for v in [
            VERSION,
            self.positions,
            self.record_bytes,
            self.games,
            self.held_out_every,
            self.max_plies,
            self.min_games,
            self.crc,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The keys, the offsets and the records of `bytes`, once their sizes
    /// and the checksum agree with the header.
    pub fn sections(self, bytes: &[u8]) -> Result<Sections<'_>, String> {
        let n = self.positions as usize;
        let want =
            HEADER_BYTES as u64 + 8 * n as u64 + 4 * (n as u64 + 1) + u64::from(self.record_bytes);
        if bytes.len() as u64 != want {
            return Err(format!(
                "opening tree: {} bytes where its header promises {want} (truncated or damaged)",
                bytes.len()
            ));
        }
        let body = &bytes[HEADER_BYTES..];
        if crc32fast::hash(body) != self.crc {
            return Err("opening tree: checksum mismatch (damaged)".into());
        }
        let (keys, rest) = body.split_at(8 * n);
        let (offsets, records) = rest.split_at(4 * (n + 1));
        Ok((keys, offsets, records))
    }
}

/// Appends `v` as a LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a LEB128 varint at `*at`, moving past it.
fn get_varint(b: &[u8], at: &mut usize) -> Option<u32> {
    let mut v: u64 = 0;
    for shift in (0..35).step_by(7) {
        let byte = *b.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return u32::try_from(v).ok();
        }
    }
    None
}

/// Appends one move record.
pub fn put_move(out: &mut Vec<u8>, m: &MoveStats) {
    out.extend_from_slice(&m.mv.to_le_bytes());
    for v in [
        m.games,
        m.wins,
        m.draws,
        m.losses,
        u32::from(m.avg_elo),
        u32::from(m.last_year),
    ] {
        put_varint(out, v);
    }
    out.push(m.backed);
}

/// The move records of one position; `None` when they do not parse.
pub fn read_moves(b: &[u8]) -> Option<Vec<MoveStats>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let mv = u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?);
        at += 2;
        let mut v = [0u32; 6];
        for x in &mut v {
            *x = get_varint(b, &mut at)?;
        }
        let backed = *b.get(at)?;
        at += 1;
        out.push(MoveStats {
            mv,
            games: v[0],
            wins: v[1],
            draws: v[2],
            losses: v[3],
            avg_elo: u16::try_from(v[4]).ok()?,
            last_year: u16::try_from(v[5]).ok()?,
            backed,
        });
    }
    Some(out)
}
