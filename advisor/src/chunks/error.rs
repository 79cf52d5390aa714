//! The error of a chunk file: where (`file:line:col`) and what.

/// A parse or compile error: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{place}: {message}")]
pub struct ChunkError {
    /// `file:line:col`.
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
