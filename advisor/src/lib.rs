//! Mach's experience advisor (MACH-style): grandmaster games encoded as terms
//! and indexed for BM25 similarity search. It knows nothing of the search.

pub mod pgn;
pub mod terms;
