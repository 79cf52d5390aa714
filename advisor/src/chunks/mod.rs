//! MACH's chunks (George & Schaeffer, "Chunking for experience"): familiar
//! patterns written in the chunk language (docs/chunk-language.md), found in
//! positions, and used as features for retrieval.
//!
//! - [`lexer`], [`parse`]: text to [`ast::ChunkDef`]s, errors with file:line:col;
//! - [`compile`]: definitions to instances (parameters, reflections, mirrors);
//! - [`matcher`]: the chunks present in a position and the pieces they cover;
//! - [`mine`]: chunks generated from games (frequent piece patterns);
//! - [`error`]: where and what went wrong; [`limits`]: the bounds on a
//!   library, so no chunk file overflows a stack or exhausts memory.

pub mod ast;
pub mod compile;
pub mod error;
pub mod lexer;
pub mod limits;
pub mod matcher;
pub mod mine;
pub mod parse;
pub mod plans;

use std::path::Path;

use shakmaty::{Bitboard, Board};

pub use compile::Instance;
pub use error::ChunkError;
pub use limits::{MAX_COMPILED, MAX_INSTANCES, MAX_INSTANCES_PER_CHUNK, MAX_NESTING};
pub use matcher::Found;

/// The chunk library Mach ships (`books/chunks/*.chunk`), compiled in.
const BUILTIN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtin_chunks.rs"));

/// A compiled chunk library.
#[derive(Clone, Debug)]
pub struct Library {
    pub defs: Vec<ast::ChunkDef>,
    pub instances: Vec<Instance>,
    /// The sources, concatenated: stored in an index so that queries chunk
    /// positions exactly as the build did.
    pub text: String,
}

impl Library {
    /// Parses and compiles `(file name, text)` pairs, in the order given.
    pub fn from_sources<'a>(
        sources: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Library, ChunkError> {
        let mut defs = Vec::new();
        let mut text = String::new();
        for (name, src) in sources {
            defs.extend(parse::parse_file(name, src)?);
            // One line per name, and no line of the source that reads as
            // the start of another file (a comment `#file x` stays a
            // comment: `##file x`), so the stored text reads back the same.
            let name: String = name
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect();
            text.push_str(&format!("#file {name}\n"));
            for line in src.split_inclusive('\n') {
                if line.starts_with("#file ") {
                    text.push('#');
                }
                text.push_str(line);
            }
            text.push('\n');
        }
        let instances = compile::instances(&defs)?;
        Ok(Library {
            defs,
            instances,
            text,
        })
    }

    /// The library compiled into Mach.
    pub fn builtin() -> Library {
        // Checked by a test and by the build of every index.
        Library::from_sources(BUILTIN.iter().copied()).expect("the built-in chunk library parses")
    }

    /// Every `*.chunk` file of a directory (in name order), or one file.
    pub fn load(path: &Path) -> Result<Library, crate::error::Error> {
        let mut files = Vec::new();
        if path.is_dir() {
            for e in std::fs::read_dir(path)? {
                let p = e?.path();
                if p.extension().is_some_and(|x| x == "chunk") {
                    files.push(p);
                }
            }
            files.sort();
            if files.is_empty() {
                return Err(crate::error::Error::Input(format!(
                    "no .chunk file in {}",
                    path.display()
                )));
            }
        } else {
            files.push(path.to_path_buf());
        }
        let mut texts = Vec::new();
        for f in &files {
            let t = std::fs::read_to_string(f)
                .map_err(|e| crate::error::Error::Input(format!("{}: {e}", f.display())))?;
            texts.push((f.display().to_string(), t));
        }
        Library::from_sources(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())))
            .map_err(|e| crate::error::Error::Input(e.to_string()))
    }

    /// Re-reads the concatenated text stored in an index.
    pub fn from_stored_text(text: &str) -> Result<Library, ChunkError> {
        let mut parts: Vec<(String, String)> = Vec::new();
        for line in text.split_inclusive('\n') {
            if let Some(name) = line.strip_prefix("#file ") {
                parts.push((name.trim_end().to_string(), String::new()));
            } else if let Some(last) = parts.last_mut() {
                last.1.push_str(line);
            }
        }
        let mut lib = Library::from_sources(parts.iter().map(|(n, t)| (n.as_str(), t.as_str())))?;
        lib.text = text.to_string();
        Ok(lib)
    }

    /// The chunks present in `board`.
    pub fn find(&self, board: &Board) -> Vec<Found> {
        matcher::find(&self.instances, board)
    }

    /// Number of classes (each for both sides counts once).
    pub fn classes(&self) -> Vec<&str> {
        let mut c: Vec<&str> = self.defs.iter().map(|d| d.class.as_str()).collect();
        c.sort_unstable();
        c.dedup();
        c
    }
}

/// Squares covered by any of `found`.
pub fn covered(found: &[Found]) -> Bitboard {
    found.iter().fold(Bitboard::EMPTY, |a, f| a | f.covered)
}
#[cfg(test)]
mod tests;
