//! Where the games of a build come from: a PGN file on disk, or PGN bytes
//! built into the program (the default database ships inside `mach`).

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;

use crate::error::Error;

/// One PGN input of `mach index`.
#[derive(Clone, Debug)]
pub enum Source {
    /// A PGN file.
    File(PathBuf),
    /// PGN text held in memory, under a name for messages and `meta.txt`.
    Bytes { name: String, data: &'static [u8] },
}

impl Source {
    /// The name recorded in the index's `meta.txt` and shown in errors.
    pub fn name(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::Bytes { name, .. } => name.clone(),
        }
    }

    /// Its size in bytes (for the progress bar), or a clear error when a file is not readable.
    pub fn size(&self) -> Result<u64, Error> {
        match self {
            Source::File(p) => std::fs::metadata(p)
                .map(|m| m.len())
                .map_err(|e| Error::Input(format!("cannot read {}: {e}", p.display()))),
            Source::Bytes { data, .. } => Ok(data.len() as u64),
        }
    }

    /// Its whole content.
    pub fn read_all(&self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.open()?
            .read_to_end(&mut out)
            .map_err(|e| Error::Input(format!("cannot read {}: {e}", self.name())))?;
        Ok(out)
    }

    /// Opens it for reading.
    pub fn open(&self) -> Result<Box<dyn Read + Send>, Error> {
        match self {
            Source::File(p) => {
                Ok(Box::new(File::open(p).map_err(|e| {
                    Error::Input(format!("cannot open {}: {e}", p.display()))
                })?))
            }
            Source::Bytes { data, .. } => Ok(Box::new(*data)),
        }
    }
}

impl From<PathBuf> for Source {
    fn from(p: PathBuf) -> Source {
        Source::File(p)
    }
}
