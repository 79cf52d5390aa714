//! One experience record: 24 bytes, checksummed, so a torn or damaged record
//! is recognised and skipped (never trusted), and records can be found again
//! after one.
//!
//! Layout (little-endian): `MX` (2 bytes), move (u16), key (u64), score (i16),
//! depth (u8), kind (u8), minute (u32), CRC-32 of the first 20 bytes (u32).

/// Size of one record in bytes.
pub const RECORD_BYTES: usize = 24;

const MAGIC: [u8; 2] = *b"MX";

/// Where a record's score comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Mach's own search of the position (its best move, depth and score).
    Search,
    /// A score backed up along a finished game (see `backup`).
    Backed,
    /// An analysis by `mach learn`.
    Learned,
}

impl Kind {
    fn code(self) -> u8 {
        match self {
            Kind::Search => 0,
            Kind::Backed => 1,
            Kind::Learned => 2,
        }
    }

    fn from_code(c: u8) -> Option<Kind> {
        match c {
            0 => Some(Kind::Search),
            1 => Some(Kind::Backed),
            2 => Some(Kind::Learned),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Search => "search",
            Kind::Backed => "backed",
            Kind::Learned => "learned",
        }
    }
}

/// What Mach knows of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position's Zobrist key (Polyglot's random numbers; en passant
    /// counted only when a capture is legal): the engine's `board::hash`.
    pub key: u64,
    /// The best move: from + 64 x to + 4096 x promotion role (the engine's
    /// `moves::encode`); 0 for none.
    pub mv: u16,
    /// Centipawns for the side to move (mate scores as the engine's, in
    /// plies from this position).
    pub score: i16,
    /// Depth of the search that found it.
    pub depth: u8,
    pub kind: Kind,
    /// When it was written: minutes since 1970 (for eviction by age).
    pub minute: u32,
}

impl Record {
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..2].copy_from_slice(&MAGIC);
        b[2..4].copy_from_slice(&self.mv.to_le_bytes());
        b[4..12].copy_from_slice(&self.key.to_le_bytes());
        b[12..14].copy_from_slice(&self.score.to_le_bytes());
        b[14] = self.depth;
        b[15] = self.kind.code();
        b[16..20].copy_from_slice(&self.minute.to_le_bytes());
        let crc = crc32fast::hash(&b[..20]);
        b[20..24].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// The record at the start of `b`, if `b` holds a whole valid one there.
    pub fn decode(b: &[u8]) -> Option<Record> {
        let b = b.get(..RECORD_BYTES)?;
        if b[0..2] != MAGIC {
            return None;
        }
        let crc = u32::from_le_bytes(b[20..24].try_into().ok()?);
        if crc32fast::hash(&b[..20]) != crc {
            return None;
        }
        Some(Record {
            mv: u16::from_le_bytes(b[2..4].try_into().ok()?),
            key: u64::from_le_bytes(b[4..12].try_into().ok()?),
            score: i16::from_le_bytes(b[12..14].try_into().ok()?),
            depth: b[14],
            kind: Kind::from_code(b[15])?,
            minute: u32::from_le_bytes(b[16..20].try_into().ok()?),
        })
    }
}

/// Minutes since 1970 now (0 if the clock is before it).
pub fn minute_now() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| (d.as_secs() / 60).min(u32::MAX as u64) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            key: 0x463b_9618_1691_fc9c,
            mv: 12 + 64 * 28,
            score: -37,
            depth: 14,
            kind: Kind::Search,
            minute: 29_000_000,
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let r = sample();
        assert_eq!(Record::decode(&r.encode()), Some(r));
        let mut learned = r;
        learned.kind = Kind::Learned;
        learned.score = i16::MIN;
        assert_eq!(Record::decode(&learned.encode()), Some(learned));
    }

    #[test]
    fn any_changed_byte_or_a_short_read_is_not_a_record() {
        let b = sample().encode();
        for i in 0..RECORD_BYTES {
            let mut bad = b;
            bad[i] ^= 0x10;
            assert_eq!(Record::decode(&bad), None, "byte {i}");
        }
        assert_eq!(Record::decode(&b[..RECORD_BYTES - 1]), None);
    }
}
