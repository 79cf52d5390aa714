//! The grandmaster tree as Mach analysed it (`mach learn`, shipped as
//! `books/gm-tree-analysis.exp` and built into the binary): Mach's own deep
//! verdict on the tree's most-played positions, which the book door asks
//! before it plays a grandmaster move (`BookAnalysis`).

use std::sync::{Arc, OnceLock};

use mach_engine::advice::{Experience, Known};
use mach_experience::Memory;

use crate::uci::experience_store::known;

/// The analysis read into memory, one record per position.
pub struct TreeAnalysis {
    memory: Memory,
}

impl TreeAnalysis {
    /// The records of an experience file's bytes (`None`: not one).
    pub fn from_bytes(bytes: &[u8]) -> Option<TreeAnalysis> {
        let scan = mach_experience::file::scan_bytes(bytes)?;
        Some(TreeAnalysis {
            memory: Memory::of(&scan.records),
        })
    }

    /// How many positions it knows.
    pub fn positions(&self) -> usize {
        self.memory.len()
    }
}

/// The built-in analysis, read at the first call (a few milliseconds).
pub fn builtin() -> Arc<TreeAnalysis> {
    static ANALYSIS: OnceLock<Arc<TreeAnalysis>> = OnceLock::new();
    ANALYSIS
        .get_or_init(|| {
            Arc::new(
                TreeAnalysis::from_bytes(mach_files::builtin::TREE_ANALYSIS).unwrap_or_else(|| {
                    log::error!("the built-in tree analysis is not an experience file");
                    TreeAnalysis {
                        memory: Memory::default(),
                    }
                }),
            )
        })
        .clone()
}

impl Experience for TreeAnalysis {
    fn probe(&self, key: u64) -> Option<Known> {
        self.memory.get(key).map(known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_analysis_is_an_experience_file_of_learned_records() {
        let scan = mach_experience::file::scan_bytes(mach_files::builtin::TREE_ANALYSIS)
            .expect("books/gm-tree-analysis.exp is an experience file");
        assert_eq!(scan.skipped_bytes, 0);
        assert!(scan
            .records
            .iter()
            .all(|r| r.kind == mach_experience::Kind::Learned));
        assert_eq!(builtin().positions(), scan.records.len());
    }

    #[test]
    fn bytes_that_are_not_an_experience_file_are_refused() {
        assert!(TreeAnalysis::from_bytes(b"[Event \"not this\"]").is_none());
        assert!(TreeAnalysis::from_bytes(mach_experience::file::HEADER)
            .is_some_and(|a| a.positions() == 0));
    }
}
