//! The advisor's one error type: input, I/O, and an index that is missing,
//! foreign, corrupt or of another format.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("index: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("not a Mach index: {0}")]
    NotAnIndex(String),
    #[error("the index at {} has format {found}; this mach reads format {expected}: rebuild it with `mach index`", path.display())]
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    #[error("corrupt index: {0}")]
    Corrupt(String),
    #[error("{0}")]
    Input(String),
}
