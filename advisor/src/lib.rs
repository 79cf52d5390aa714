//! Mach's experience advisor (MACH-style): grandmaster games encoded as terms
//! and indexed for BM25 similarity search. It knows nothing of the search.

pub mod advice;
pub mod book;
pub mod build;
pub mod checksum;
pub mod chunks;
pub mod index;
pub mod page_cache;
pub mod pgn;
pub mod polyglot;
pub mod publish;
pub mod retrieval;
pub mod service;
pub mod source;
pub mod store;
pub mod terms;
pub mod tree;

use std::path::PathBuf;

pub use index::AdvisorIndex;

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
