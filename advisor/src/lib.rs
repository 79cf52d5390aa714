//! Mach's experience advisor (MACH-style): grandmaster games encoded as terms
//! and indexed for BM25 similarity search. It knows nothing of the search.

pub mod advice;
pub mod book;
pub mod build;
pub mod checksum;
pub mod chunks;
pub mod error;
pub mod exact_memory;
pub mod index;
pub mod opening_tree;
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
pub mod vectors;

pub use error::Error;
pub use index::AdvisorIndex;
