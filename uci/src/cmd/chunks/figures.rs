//! The positions of a PGN range, and MACH's Figure 4 figures of a chunk
//! library over them (chunks per position, pieces per chunk, the memory
//! test): shared by `mach chunks stats` and `mach chunks mine`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use mach_advisor::chunks::{covered, Library};
use mach_advisor::pgn::read_games;
use shakmaty::{Board, Position};

use mach_files as paths;

/// Which positions: games `first_game + 1 ..= first_game + games` of a PGN,
/// moves `from_move ..= to_move` of each.
pub struct Range {
    pub pgn: Option<PathBuf>,
    pub first_game: usize,
    pub games: usize,
    pub from_move: usize,
    pub to_move: usize,
}

/// What [`each_position`] read.
pub struct Read {
    /// The source's name (`builtin:...`, a path).
    pub source: String,
    /// Games read, including those skipped before `first_game`.
    pub games: usize,
}

impl Range {
    /// "moves 7-40 of games 1..1000": for messages.
    pub fn describe(&self, read: &Read) -> String {
        format!(
            "moves {}-{} of games {}..{} of {}",
            self.from_move,
            self.to_move,
            self.first_game + 1,
            (self.first_game + self.games).min(read.games),
            read.source
        )
    }
}

/// Calls `f` with the board of every position in `r` (the default PGN: the
/// built-in database).
pub fn each_position(r: &Range, mut f: impl FnMut(&Board)) -> Result<Read, String> {
    if r.from_move > r.to_move {
        return Err(format!(
            "--from-move {} is after --to-move {}",
            r.from_move, r.to_move
        ));
    }
    let source = match &r.pgn {
        None => paths::default_database(),
        Some(p) => paths::input(p)?,
    };
    let input = std::io::BufReader::new(source.open().map_err(|e| e.to_string())?);
    let mut n = 0usize;
    read_games(input, |g| {
        n += 1;
        if n <= r.first_game || n > r.first_game + r.games {
            return;
        }
        let Some(rec) = g.game else { return };
        let mut pos = rec.start();
        for (ply, m) in rec.moves.iter().enumerate() {
            let mv = ply / 2 + 1;
            if mv > r.to_move {
                break;
            }
            if mv >= r.from_move {
                f(pos.board());
            }
            pos.play_unchecked(*m);
        }
    })
    .map_err(|e| format!("{}: {e}", source.name()))?;
    Ok(Read {
        source: source.name().to_string(),
        games: n,
    })
}

/// MACH's Figure 4 counts, gathered position by position.
#[derive(Default)]
pub struct Figures {
    pub positions: u64,
    chunks: u64,
    none: u64,
    pieces_in_chunks: u64,
    required_in_chunks: u64,
    pieces_total: u64,
    pieces_covered: u64,
    by_chunk: BTreeMap<String, u64>,
    by_class: BTreeMap<String, u64>,
}

impl Figures {
    /// Counts the chunks `lib` finds in `board`.
    pub fn add(&mut self, lib: &Library, board: &Board) {
        let found = lib.find(board);
        self.positions += 1;
        self.chunks += found.len() as u64;
        if found.is_empty() {
            self.none += 1;
        }
        let mut classes: Vec<&str> = Vec::new();
        for f in &found {
            self.pieces_in_chunks += f.covered.count() as u64;
            self.required_in_chunks += f.required.count() as u64;
            let inst = &lib.instances[f.instance];
            *self.by_chunk.entry(inst.chunk.clone()).or_default() += 1;
            classes.push(&inst.class);
        }
        classes.sort_unstable();
        classes.dedup();
        for c in classes {
            *self.by_class.entry(c.to_string()).or_default() += 1;
        }
        self.pieces_total += board.occupied().count() as u64;
        self.pieces_covered += covered(&found).count() as u64;
    }

    /// Prints the figures beside MACH's, the most frequent chunks, those never
    /// found and the share of positions of each class.
    pub fn print(&self, lib: &Library) {
        let per = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let positions = self.positions;
        println!(
            "chunks per position       {:.1}   (MACH: 6.1)",
            per(self.chunks, positions)
        );
        println!(
            "pieces per chunk          {:.1}   (MACH: 6.7); required pieces only {:.1} (MACH: 3.4)",
            per(self.pieces_in_chunks, self.chunks),
            per(self.required_in_chunks, self.chunks)
        );
        println!(
            "positions with no chunk   {:.1}%  (MACH: 35.6% of its game tree)",
            100.0 * per(self.none, positions)
        );
        println!(
            "memory test               {:.1}%  of the pieces covered by a chunk (MACH: 80%)",
            100.0 * per(self.pieces_covered, self.pieces_total)
        );
        let mut top: Vec<(&String, &u64)> = self.by_chunk.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        println!("most frequent chunks (share of positions):");
        for (name, k) in top.iter().take(15) {
            println!("  {:<30} {:5.1}%", name, 100.0 * per(**k, positions));
        }
        let never: Vec<&str> = lib
            .defs
            .iter()
            .filter(|d| !self.by_chunk.contains_key(&d.name))
            .map(|d| d.name.as_str())
            .collect();
        println!("never found ({}): {}", never.len(), never.join(" "));
        println!("classes (share of positions, per side):");
        for (c, k) in &self.by_class {
            println!("  {:<36} {:5.1}%", c, 100.0 * per(*k, positions));
        }
    }
}
