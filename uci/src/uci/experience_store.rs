//! The engine's experience (`Experience*` options): the file read once into
//! memory and probed by the search through `advice::Experience`; each
//! search of at least `ExperienceMinDepth` kept at once in memory and, with
//! the game's positions backed up, appended to the file when the game ends
//! (`ucinewgame`, `quit`, or a `position` that does not continue the game).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use mach_engine::advice::{Experience, Known};
use mach_engine::moves;
use mach_experience::{back_up, minute_now, Kind, Memory, Outcome, Played, Record};
use shakmaty::{Chess, Color, KnownOutcome, Move, Outcome as GameOutcome, Position};

use crate::uci::output::info_string;

/// Positions kept by a compaction: at 24 bytes a record, 24 MB.
pub const MAX_POSITIONS: usize = 1_000_000;

/// From this many plies without a capture or pawn move a search's score may
/// be the fifty-move rule's (a hundred plies), not the position's.
pub const HALFMOVES_SHAPE_SCORE: u32 = 60;

/// The file is compacted when it holds twice as many records as that.
pub const COMPACT_AT_RECORDS: u64 = 2 * MAX_POSITIONS as u64;

/// The default experience file: beside the default index, in the
/// platform's data directory (`$MACH_EXPERIENCE` overrides it).
pub fn default_file() -> PathBuf {
    if let Some(p) = std::env::var_os("MACH_EXPERIENCE") {
        return PathBuf::from(p);
    }
    mach_files::default_index_dir().parent().map_or_else(
        || PathBuf::from("experience.exp"),
        |d| d.join("experience.exp"),
    )
}

/// One process's experience: what the file held, what this process found.
pub struct ExperienceStore {
    path: PathBuf,
    read_only: bool,
    min_depth: i32,
    memory: RwLock<Memory>,
    /// This game's searched positions, in order.
    game: Mutex<Vec<Played>>,
    /// The game's last root key, to tell a new game's `position` from the
    /// next move, and the side Mach played.
    last_root: Mutex<Option<(u64, Color)>>,
    /// Where this process's reading of the file stopped (past the last whole
    /// record): at each game's end it reads what others appended since.
    seen: Mutex<u64>,
}

impl ExperienceStore {
    /// Reads `path` (a missing file is an empty experience); says what it
    /// found in an `info string`. A foreign or unreadable file is not used.
    pub fn open(path: &Path, read_only: bool, min_depth: i32) -> Option<ExperienceStore> {
        let scan = match mach_experience::read(path) {
            Ok(s) => s,
            Err(e) => {
                info_string(&format!("experience: {e}; playing without it"));
                return None;
            }
        };
        let memory = Memory::of(&scan.records);
        if scan.bytes == 0 {
            info_string(&format!(
                "experience: no file at {} yet{}",
                path.display(),
                if read_only {
                    " (read-only: none will be written)"
                } else {
                    " (written at the end of each game)"
                }
            ));
        } else {
            info_string(&format!(
                "experience: {} positions ({} records, {} damaged bytes skipped) from {}{}",
                memory.len(),
                scan.records.len(),
                scan.skipped_bytes,
                path.display(),
                if read_only { ", read-only" } else { "" }
            ));
        }
        Some(ExperienceStore {
            path: path.to_path_buf(),
            read_only,
            min_depth,
            memory: RwLock::new(memory),
            game: Mutex::new(Vec::new()),
            last_root: Mutex::new(None),
            seen: Mutex::new(scan.resume_at),
        })
    }

    /// Says what the experience knows of `root` before a search.
    pub fn say_known(&self, root: &Chess, chess960: bool) {
        let key = mach_engine::board::hash(root);
        if let Some(k) = self.probe(key) {
            let mv = moves::legal(root, k.mv).map_or_else(
                || "no move".to_string(),
                |m| mach_engine::board::uci(m, chess960),
            );
            info_string(&format!(
                "experience: {mv} depth {} score {} cp",
                k.depth, k.score
            ));
        }
    }

    /// Keeps what a search of `root` found, if it looked deep enough and
    /// its score belongs to the position rather than to the game's path:
    /// not when the game has been here before (`history`: the earlier
    /// positions' keys), where the score may be a repetition's draw, nor
    /// when the fifty-move rule is near enough to shape it.
    pub fn searched(
        &self,
        root: &Chess,
        history: &[u64],
        best: Option<Move>,
        score: i32,
        depth: i32,
    ) {
        let Some(best) = best else { return };
        if depth < self.min_depth {
            return;
        }
        let key = mach_engine::board::hash(root);
        if history.contains(&key) || root.halfmoves() >= HALFMOVES_SHAPE_SCORE {
            return;
        }
        // A search for the other side (analysis of both sides) starts another
        // "game": the backed-up rule follows one side's positions.
        let other_side = self
            .last_root
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|(_, c)| c != root.turn());
        if other_side {
            self.end_game(None);
        }
        let played = Played {
            key,
            mv: moves::encode(best),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, u8::MAX as i32) as u8,
        };
        self.write_memory().insert(Record {
            key,
            mv: played.mv,
            score: played.score,
            depth: played.depth,
            kind: Kind::Search,
            minute: minute_now(),
        });
        self.game
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(played);
        *self.last_root.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, root.turn()));
    }

    /// Whether a `position` with these history keys continues the game of
    /// the last search (its root is among them, or nothing was searched).
    pub fn continues_game(&self, history: &[u64], root_key: u64) -> bool {
        match *self.last_root.lock().unwrap_or_else(|e| e.into_inner()) {
            None => true,
            Some((k, _)) => k == root_key || history.contains(&k),
        }
    }

    /// Ends the game: backs its scores up and appends them with its searches
    /// to the file (nothing when read-only), then compacts an oversized file.
    /// `last` is the last position the game reached, for its result.
    pub fn end_game(&self, last: Option<&Chess>) {
        let played = std::mem::take(&mut *self.game.lock().unwrap_or_else(|e| e.into_inner()));
        let mach = self
            .last_root
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .map(|(_, c)| c);
        if !played.is_empty() && !self.read_only {
            self.write_game(&played, last, mach);
        }
        self.refresh();
    }

    /// Reads what other processes (the other engine of a match, a second
    /// GUI) appended to the file since this one last looked, so that one
    /// game's experience reaches the next game of every engine sharing it.
    fn refresh(&self) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        match mach_experience::read_since(&self.path, *seen) {
            Ok(scan) => {
                let mut memory = self.write_memory();
                for r in &scan.records {
                    memory.insert(*r);
                }
                *seen = scan.resume_at;
            }
            Err(e) => log::warn!("experience: not re-read: {e}"),
        }
    }

    /// Backs the game's scores up and appends them with its searches.
    fn write_game(&self, played: &[Played], last: Option<&Chess>, mach: Option<Color>) {
        let outcome = match (last, mach) {
            (Some(pos), Some(mach)) => outcome_for(pos, mach),
            _ => None,
        };
        let minute = minute_now();
        let mut records: Vec<Record> = played
            .iter()
            .map(|p| Record {
                key: p.key,
                mv: p.mv,
                score: p.score,
                depth: p.depth,
                kind: Kind::Search,
                minute,
            })
            .collect();
        let backed = back_up(played, outcome, minute);
        {
            let mut memory = self.write_memory();
            for r in &backed {
                memory.insert(*r);
            }
        }
        records.extend(backed);
        if let Err(e) = mach_experience::append(&self.path, &records) {
            info_string(&format!("experience: not written: {e}"));
            return;
        }
        let size = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        if size / mach_experience::RECORD_BYTES as u64 > COMPACT_AT_RECORDS {
            match mach_experience::compact(&self.path, MAX_POSITIONS) {
                Ok(c) => log::info!(
                    "experience: compacted {} records to {} of {} positions",
                    c.records_before,
                    c.kept,
                    c.positions
                ),
                Err(e) => info_string(&format!("experience: not compacted: {e}")),
            }
        }
    }

    fn write_memory(&self) -> std::sync::RwLockWriteGuard<'_, Memory> {
        self.memory.write().unwrap_or_else(|e| e.into_inner())
    }
}

/// How a game that reached `pos` ended for `mach` (the side that moved in
/// the searched positions), when `pos` is over (mate, stalemate, a draw by
/// material); `None` otherwise.
fn outcome_for(pos: &Chess, mach: Color) -> Option<Outcome> {
    Some(match pos.outcome() {
        GameOutcome::Unknown => return None,
        GameOutcome::Known(KnownOutcome::Draw) => Outcome::Draw,
        GameOutcome::Known(KnownOutcome::Decisive { winner }) if winner == mach => Outcome::Win,
        GameOutcome::Known(KnownOutcome::Decisive { .. }) => Outcome::Loss,
    })
}

impl Experience for ExperienceStore {
    fn probe(&self, key: u64) -> Option<Known> {
        let memory = self.memory.read().unwrap_or_else(|e| e.into_inner());
        memory.get(key).map(known)
    }
}

/// A record as the search reads it.
pub fn known(r: &Record) -> Known {
    Known {
        mv: r.mv,
        score: r.score as i32,
        depth: r.depth as i32,
    }
}
