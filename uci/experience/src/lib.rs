//! Mach's experience: what its own searches found, kept across games and
//! processes. After a search of at least `ExperienceMinDepth` the root's best
//! move, depth and score are appended to the experience file; when a game
//! ends its positions get scores backed up from the result ([`backup`]); the
//! search reads them back ([`memory::Memory`]) as a move to try first and,
//! deep enough, as a known result.
//!
//! - [`record`]: one 24-byte checksummed record;
//! - [`file`]: the file, shared by several processes, safe to kill, bounded;
//! - [`memory`]: one record per position, the one to trust, and eviction;
//! - [`backup`]: the rule that backs a finished game's scores up.

pub mod backup;
pub mod file;
pub mod memory;
pub mod record;

pub use backup::{back_up, Outcome, Played};
pub use file::{append, compact, read, read_since, write, Compacted, Error, Scan};
pub use memory::Memory;
pub use record::{minute_now, Kind, Record, RECORD_BYTES};
