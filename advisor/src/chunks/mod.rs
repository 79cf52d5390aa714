//! MACH's chunks (George & Schaeffer, "Chunking for experience"): familiar
//! patterns written in the chunk language (docs/chunk-language.md), found in
//! positions, and used as features for retrieval.
//!
//! - [`lexer`], [`parse`]: text to [`ast::ChunkDef`]s, errors with file:line:col;
//! - [`compile`]: definitions to instances (parameters, reflections, mirrors);
//! - [`matcher`]: the chunks present in a position and the pieces they cover;
//! - [`mine`]: chunks generated from games (frequent piece patterns).

pub mod ast;
pub mod compile;
pub mod lexer;
pub mod matcher;
pub mod mine;
pub mod parse;
pub mod plans;

use std::path::Path;

use shakmaty::{Bitboard, Board};

pub use compile::Instance;
pub use matcher::Found;

/// How deep `(` and `not` may nest in one expression. The parser, the
/// compiler and the matcher all recurse once per level, and a library is
/// also loaded by the UCI engine's threads (2 MiB stacks): 3,000 levels
/// overflowed them. The shipped library nests 2 deep.
pub const MAX_NESTING: usize = 64;

/// The most instances one definition may have: its parameters' values
/// multiplied, times 2 sides, times 2 wings with `mirror files`. Seven file
/// parameters made 4 million instances and exhausted memory. The shipped
/// library's largest has 24.
pub const MAX_INSTANCES_PER_CHUNK: usize = 4096;

/// The most instances a whole library may have (the shipped one has 476).
pub const MAX_INSTANCES: usize = 65_536;

/// The most compiled terms a library may hold: over all its instances, one
/// per expression node, square item and relation, and two per instance a
/// `chunk NAME` reference looks through. This bounds the compiler's memory
/// and time and the matcher's work per position: parameterised chunks
/// referring to each other through a few levels multiplied past any
/// memory. The shipped library needs 9,004.
pub const MAX_COMPILED: u64 = 1 << 20;

/// A parse or compile error: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{place}: {message}")]
pub struct ChunkError {
    /// `file:line:col` or `file:line`.
    pub place: String,
    pub message: String,
}

impl ChunkError {
    pub fn at(file: &str, line: usize, col: usize, message: &str) -> ChunkError {
        ChunkError {
            place: format!("{file}:{line}:{col}"),
            message: message.to_string(),
        }
    }
}

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
    pub fn load(path: &Path) -> Result<Library, crate::Error> {
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
                return Err(crate::Error::Input(format!(
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
                .map_err(|e| crate::Error::Input(format!("{}: {e}", f.display())))?;
            texts.push((f.display().to_string(), t));
        }
        Library::from_sources(texts.iter().map(|(n, t)| (n.as_str(), t.as_str())))
            .map_err(|e| crate::Error::Input(e.to_string()))
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
