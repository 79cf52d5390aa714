//! Mach's chess engine: evaluation, alpha-beta search, time management,
//! perft and bench, on shakmaty's board and move generator. It knows nothing
//! of UCI, files or the advisor: callers pass positions and limits in and get
//! reports through the [`report::Reporter`] trait.

pub mod advice;
pub mod bench;
pub mod board;
pub mod control;
pub mod correction;
mod engine;
pub mod epd;
pub mod eval;
pub mod history;
mod huge_pages;
mod iterative;
pub mod moves;
pub mod ordering;
pub mod params;
pub mod pawn_chunk_patterns;
pub mod pawn_chunks;
pub mod pawn_king_cache;
pub mod pawn_pattern;
pub mod perft;
pub mod plan_eval;
mod pool;
pub mod psqt;
mod qsearch;
pub mod report;
pub mod score;
mod search;
pub mod see;
pub mod strength;
mod tactical;
pub mod terms;
mod thread;
pub mod time;
pub mod tt;
pub mod weight_cache;

pub use control::SearchControl;
pub use engine::{Engine, SearchOptions, SearchResult};
pub use report::{Info, Reporter, Silent};
pub use time::Limits;
