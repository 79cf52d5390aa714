//! Mach's experience advisor (MACH-style): grandmaster games encoded as terms
//! and indexed for BM25 similarity search. Filled in by issues #3 and #4; the
//! crate exists now so the workspace has its final shape.
