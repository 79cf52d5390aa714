//! Checksums of the index files that are Mach's own (`meta.txt`, the game
//! store, the exact-position table), written by the build into `sums.txt`
//! and checked on every open: a truncated or damaged file is a clear
//! "corrupt index" error, never advice that silently went missing.
//! (tantivy's own files carry tantivy's checksums.)

use std::io::Read;
use std::path::Path;

use crate::error::Error;

/// The files covered, in the order they are listed.
pub const FILES: [&str; 5] = [
    "meta.txt",
    "games.bin",
    "games.idx",
    "keys.bin",
    "chunks.txt",
];
/// The file the sums are kept in.
pub const SUMS: &str = "sums.txt";

/// CRC-32 and length of one file.
fn sum(path: &Path) -> Result<(u32, u64), Error> {
    let mut f = std::fs::File::open(path)?;
    let mut h = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        len += n as u64;
    }
    Ok((h.finalize(), len))
}

/// Writes `sums.txt` for the files in `dir` (the last step of a build).
pub fn write(dir: &Path) -> Result<(), Error> {
    let mut text = String::new();
    for name in FILES {
        let (crc, len) = sum(&dir.join(name))?;
        text.push_str(&format!("{name} {crc:08x} {len}\n"));
    }
    std::fs::write(dir.join(SUMS), text)?;
    Ok(())
}

/// The sums listed in `sums.txt`: (name, CRC-32, length).
pub struct Sums(Option<Vec<(String, u32, u64)>>);

impl Sums {
    /// Checks nothing: for tests of the stores alone.
    #[cfg(test)]
    pub fn unchecked() -> Sums {
        Sums(None)
    }

    /// Reads `sums.txt`; it must list every covered file.
    pub fn read(dir: &Path) -> Result<Sums, Error> {
        let text = std::fs::read_to_string(dir.join(SUMS))
            .map_err(|e| Error::Corrupt(format!("{}: {e}", dir.join(SUMS).display())))?;
        let mut out = Vec::new();
        for name in FILES {
            let line = text
                .lines()
                .find(|l| l.split(' ').next() == Some(name))
                .ok_or_else(|| Error::Corrupt(format!("{SUMS} does not list {name}")))?;
            let mut it = line.split(' ').skip(1);
            let want_crc = it.next().and_then(|c| u32::from_str_radix(c, 16).ok());
            let want_len = it.next().and_then(|l| l.parse::<u64>().ok());
            let (Some(crc), Some(len)) = (want_crc, want_len) else {
                return Err(Error::Corrupt(format!("{SUMS}: bad line '{line}'")));
            };
            out.push((name.to_string(), crc, len));
        }
        Ok(Sums(Some(out)))
    }

    /// Checks the bytes of `name` as loaded (no second read of a big file).
    pub fn check(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        self.compare(name, crc32fast::hash(bytes), bytes.len() as u64)
    }

    /// Checks the file `name` of `dir` by reading it.
    pub fn check_file(&self, dir: &Path, name: &str) -> Result<(), Error> {
        let (crc, len) =
            sum(&dir.join(name)).map_err(|e| Error::Corrupt(format!("{name}: {e}")))?;
        self.compare(name, crc, len)
    }

    fn compare(&self, name: &str, crc: u32, len: u64) -> Result<(), Error> {
        let Some(list) = &self.0 else {
            return Ok(());
        };
        let Some((_, want_crc, want_len)) = list.iter().find(|(n, _, _)| n == name) else {
            return Err(Error::Corrupt(format!("{SUMS} does not list {name}")));
        };
        if len != *want_len {
            return Err(Error::Corrupt(format!(
                "{name} has {len} bytes, the build wrote {want_len} (truncated or replaced)"
            )));
        }
        if crc != *want_crc {
            return Err(Error::Corrupt(format!(
                "{name} does not match its checksum (damaged on disk)"
            )));
        }
        Ok(())
    }
}

/// Checks every file against `sums.txt` (reading each).
pub fn verify(dir: &Path) -> Result<(), Error> {
    let sums = Sums::read(dir)?;
    for name in FILES {
        sums.check_file(dir, name)?;
    }
    Ok(())
}
