//! Played games as PGN, each on disk as soon as it ends.
//!
//! With the tags tools expect, in a file opened before the first game (an
//! unwritable path fails at once), each game appended and flushed as it
//! ends, so a killed match keeps what it played.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use shakmaty::{san::SanPlus, Position};

use super::types::Played;

/// Today's date as YYYY.MM.DD (civil date from the Unix clock).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = mach_files::civil_date(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A PGN tag value with its backslashes and quotes escaped.
fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The `--pgnout` file. An existing file is appended to, never truncated.
pub struct PgnFile {
    path: PathBuf,
    file: Mutex<File>,
}

impl PgnFile {
    /// Opens (or creates) the file for appending, so a bad path fails before any game.
    pub fn open(path: &Path) -> Result<PgnFile, String> {
        let file = File::options()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(PgnFile {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// Appends one game and flushes it to the file.
    pub fn append(&self, text: &str) -> Result<(), String> {
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        f.write_all(text.as_bytes())
            .and_then(|_| f.write_all(b"\n"))
            .and_then(|_| f.flush())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// One game as PGN text: tags, movetext with the engines' comments, result.
pub fn game(p: &Played, white: &str, black: &str, round: &str, opening: &str, tc: &str) -> String {
    let mut out = String::new();
    let tags = [
        ("Event", "Mach match".to_string()),
        ("Site", "?".to_string()),
        ("Date", today()),
        ("Round", round.to_string()),
        ("White", white.to_string()),
        ("Black", black.to_string()),
        ("Result", p.result.pgn().to_string()),
        ("TimeControl", tc.to_string()),
        ("Opening", opening.to_string()),
        ("Termination", p.termination.clone()),
        ("PlyCount", p.moves.len().to_string()),
    ];
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(&v)));
    }
    if let Some(f) = &p.start_fen {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", quote(f)));
    }
    out.push('\n');
    let mut pos = p.start.clone();
    let mut line = String::new();
    for (i, &m) in p.moves.iter().enumerate() {
        let number = pos.fullmoves().get();
        if pos.turn().is_white() {
            line.push_str(&format!("{number}. "));
        } else if line.is_empty() {
            line.push_str(&format!("{number}... "));
        }
        line.push_str(&SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        line.push(' ');
        if let Some(Some(c)) = p.comments.get(i) {
            line.push_str(&format!("{{{}}} ", c.replace(['{', '}'], "")));
        }
        if let Some(Some(_)) = p.comments.get(i) {
            // After a comment, Black's move needs its number again.
            if pos.turn().is_black() {
                line.push_str(&format!("{}... ", pos.fullmoves().get()));
            }
        }
    }
    line.push_str(&format!(
        "{{{}}} {}",
        p.detail.replace(['{', '}'], ""),
        p.result.pgn()
    ));
    // Wrap movetext at about 80 columns.
    let mut width = 0;
    for word in line.split(' ') {
        if width + word.len() > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(word);
        width += word.len();
    }
    out.push_str("\n\n");
    out
}
