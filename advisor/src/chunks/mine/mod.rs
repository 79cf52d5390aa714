//! Chunks generated from games, which MACH left open ("generating chunks
//! automatically from hundreds of thousands of grandmaster games"): the
//! piece patterns that recur in a board region, mined with Apriori
//! ([`apriori`]) and written in the chunk language ([`write`]).
//!
//! Every position is seen from both sides, as is and reflected (colours
//! swapped, ranks turned over), so a pattern is written `wrt white` whoever
//! has it, and the compiled chunk finds it for either side. A pattern's
//! support is the share of positions in which at least one side has it.

pub mod apriori;
pub mod write;

use rustc_hash::FxHashSet;
use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use apriori::Code;

/// A rectangle of the board, seen from White (0-based, corners included).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    /// Used in chunk names and classes: `mined_kingside_007`.
    pub name: &'static str,
    /// For people: "king side".
    pub title: &'static str,
    pub files: (u8, u8),
    pub ranks: (u8, u8),
}

/// f-h, ranks 1-3: the castled king's shelter and the pieces beside it.
pub const KING_SIDE: Region = Region {
    name: "kingside",
    title: "king side",
    files: (5, 7),
    ranks: (0, 2),
};
/// a-c, ranks 1-3: the long castled king, the queen's rook and bishop.
pub const QUEEN_SIDE: Region = Region {
    name: "queenside",
    title: "queen side",
    files: (0, 2),
    ranks: (0, 2),
};
/// c-f, ranks 3-6: pawn centres and the pieces that hold them.
pub const CENTRE: Region = Region {
    name: "centre",
    title: "centre",
    files: (2, 5),
    ranks: (2, 5),
};
/// f-h, ranks 4-8: the opponent's king side and the squares in front of it,
/// where attackers stand (a knight on g5, pawns storming). Only ranks 6-8
/// would add nothing: with both views counted, they are the king side
/// reflected.
pub const KING_ATTACK: Region = Region {
    name: "attack",
    title: "opponent's king side",
    files: (5, 7),
    ranks: (3, 7),
};

/// The regions mined, in this order (a pattern two regions share is kept in the first).
pub const REGIONS: [Region; 4] = [KING_SIDE, QUEEN_SIDE, CENTRE, KING_ATTACK];

/// Sets smaller than this are not written: one or two pieces are no chunk.
pub const MIN_SIZE: usize = 3;

impl Region {
    /// Its squares in square order (a1, b1, ..., h8); at most 16.
    pub fn squares(&self) -> Vec<Square> {
        let mut v = Vec::new();
        for r in self.ranks.0..=self.ranks.1 {
            for f in self.files.0..=self.files.1 {
                v.push(Square::from_coords(
                    File::new(f.into()),
                    Rank::new(r.into()),
                ));
            }
        }
        v
    }

    /// Whether `sq` is in the region.
    pub fn contains(&self, sq: Square) -> bool {
        let (f, r) = (sq.file().to_u32(), sq.rank().to_u32());
        (self.files.0 as u32..=self.files.1 as u32).contains(&f)
            && (self.ranks.0 as u32..=self.ranks.1 as u32).contains(&r)
    }
}

/// How to mine.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Least share of the positions a set must be in (0 < support <= 1).
    pub support: f64,
    /// Largest set mined (3..=16).
    pub max_size: usize,
    /// Patterns kept, best first.
    pub top: usize,
    /// A set is dropped when a superset has at least this share of its support.
    pub closed: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            support: 0.03,
            max_size: 6,
            top: 100,
            closed: 0.9,
        }
    }
}

impl Options {
    /// Refuses values that cannot give a library.
    pub fn check(&self) -> Result<(), String> {
        if !(self.support > 0.0 && self.support <= 1.0) {
            return Err(format!(
                "support must be a share above 0 and at most 1 (0.03 is 3%), not {}",
                self.support
            ));
        }
        if !(MIN_SIZE..=16).contains(&self.max_size) {
            return Err(format!(
                "max size must be {MIN_SIZE} to 16 pieces, not {}",
                self.max_size
            ));
        }
        if self.top == 0 {
            return Err("top must be at least 1".into());
        }
        if !(self.closed > 0.0 && self.closed <= 1.0) {
            return Err(format!(
                "closed ratio must be in (0, 1], not {}",
                self.closed
            ));
        }
        Ok(())
    }
}

/// A mined pattern, written wrt white.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    pub region: Region,
    /// Sorted: White then Black, king to pawn, then by square.
    pub pieces: Vec<(Piece, Square)>,
    /// Positions in which a side has it.
    pub count: u32,
}

/// Figures of one set size, summed over the regions (a set of the centre
/// and its reflection, both in the centre, count twice).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LevelFigures {
    pub candidates: usize,
    pub frequent: usize,
}

/// What [`mine`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Mined {
    pub options: Options,
    pub positions: usize,
    /// Support in positions: `ceil(support * positions)`.
    pub min_count: u32,
    /// `levels[k - 1]`: sets of size k.
    pub levels: Vec<LevelFigures>,
    /// Closed sets of size >= 3 of each region (as [`REGIONS`]), each pattern
    /// once: a pattern two regions share counts in the first.
    pub closed: [usize; REGIONS.len()],
    /// The best `top`, by support times size.
    pub patterns: Vec<Pattern>,
}

impl Mined {
    /// A pattern's share of the positions.
    pub fn share(&self, p: &Pattern) -> f64 {
        p.count as f64 / self.positions.max(1) as f64
    }
}

/// 1..=12: White king to pawn, then Black; 0 is "nothing".
fn nibble(p: Piece) -> u64 {
    let r = match p.role {
        Role::King => 1,
        Role::Queen => 2,
        Role::Rook => 3,
        Role::Bishop => 4,
        Role::Knight => 5,
        Role::Pawn => 6,
    };
    if p.color == Color::White {
        r
    } else {
        r + 6
    }
}

/// The piece of a nibble value (1..=12).
fn piece(v: u64) -> Piece {
    let role = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ][((v - 1) % 6) as usize];
    let color = if v <= 6 { Color::White } else { Color::Black };
    Piece { color, role }
}

/// The region's contents in `board`, as is or reflected (the other side's view).
fn view(board: &Board, squares: &[Square], reflected: bool) -> Code {
    let mut c = 0;
    for (j, &sq) in squares.iter().enumerate() {
        let at = if reflected { sq.flip_vertical() } else { sq };
        if let Some(mut p) = board.piece_at(at) {
            if reflected {
                p.color = !p.color;
            }
            c |= nibble(p) << (4 * j);
        }
    }
    c
}

/// The pieces of a set, sorted as [`Pattern::pieces`].
fn decode(c: Code, squares: &[Square]) -> Vec<(Piece, Square)> {
    let mut v: Vec<(u64, Square)> = (0..squares.len())
        .map(|j| ((c >> (4 * j)) & 0xF, squares[j]))
        .filter(|(n, _)| *n != 0)
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(n, sq)| (piece(n), sq)).collect()
}

/// The same pattern for the other side: colours swapped, ranks turned over.
pub fn reflect(pieces: &[(Piece, Square)]) -> Vec<(Piece, Square)> {
    let mut v: Vec<(u64, Square)> = pieces
        .iter()
        .map(|(p, sq)| {
            let q = Piece {
                color: !p.color,
                role: p.role,
            };
            (nibble(q), sq.flip_vertical())
        })
        .collect();
    v.sort_unstable();
    v.into_iter().map(|(n, sq)| (piece(n), sq)).collect()
}

/// A pattern as comparable numbers.
fn key(pieces: &[(Piece, Square)]) -> Vec<(u64, Square)> {
    pieces.iter().map(|(p, s)| (nibble(*p), *s)).collect()
}

/// Of a pattern and its reflection, the one with more White pieces, else the
/// smaller: so a pattern of the centre reads the same however it was found.
fn canonical(
    pieces: Vec<(Piece, Square)>,
    reflected: Vec<(Piece, Square)>,
) -> Vec<(Piece, Square)> {
    let order = |v: &[(Piece, Square)]| {
        let black = v.iter().filter(|(p, _)| p.color == Color::Black).count();
        (black, key(v))
    };
    if order(&reflected) < order(&pieces) {
        reflected
    } else {
        pieces
    }
}

/// Mines `boards` region by region, keeps the closed sets of 3 pieces or
/// more, each pattern once, and the best `top` by support times size.
pub fn mine(boards: &[Board], opts: &Options) -> Result<Mined, String> {
    opts.check()?;
    if boards.is_empty() {
        return Err("no position to mine".into());
    }
    let min_count = ((opts.support * boards.len() as f64).ceil() as u32).max(1);
    let mut levels: Vec<LevelFigures> = Vec::new();
    let mut found: Vec<Pattern> = Vec::new();
    let mut seen: FxHashSet<Vec<(u64, Square)>> = FxHashSet::default();
    let mut closed = [0; REGIONS.len()];
    for (r, region) in REGIONS.into_iter().enumerate() {
        let squares = region.squares();
        debug_assert!(squares.len() <= 16);
        let views = || {
            boards
                .iter()
                .map(|b| [view(b, &squares, false), view(b, &squares, true)])
        };
        let (first, distinct) = apriori::count_items(views(), min_count);
        let alive = apriori::alive(&first);
        let txs = apriori::dedupe(views().map(|v| apriori::Tx {
            views: v.map(|c| apriori::trim(c, &alive)),
            weight: 1,
        }));
        let run = apriori::run(first, distinct, txs, min_count, opts.max_size);
        for (k, level) in run.levels.iter().enumerate() {
            if levels.len() <= k {
                levels.push(LevelFigures::default());
            }
            levels[k].candidates += run.candidates[k];
            levels[k].frequent += level.len();
        }
        for (code, count) in apriori::closed(&run, opts.closed, MIN_SIZE) {
            let pieces = decode(code, &squares);
            let reflected = reflect(&pieces);
            // A pattern and its reflection are one chunk (it finds both).
            if !seen.insert(key(&pieces).min(key(&reflected))) {
                continue;
            }
            // Written in the region as mined (the opponent's king side stays
            // Black's), or, when the reflection is in the region too (the
            // centre), the side with more White pieces.
            let pieces = if reflected.iter().all(|(_, sq)| region.contains(*sq)) {
                canonical(pieces, reflected)
            } else {
                pieces
            };
            closed[r] += 1;
            found.push(Pattern {
                region,
                pieces,
                count,
            });
        }
    }
    let score = |p: &Pattern| p.count as u64 * p.pieces.len() as u64;
    // Stable: at equal score and size, region order, then set order.
    found.sort_by(|a, b| {
        score(b)
            .cmp(&score(a))
            .then(b.pieces.len().cmp(&a.pieces.len()))
    });
    found.truncate(opts.top);
    Ok(Mined {
        options: opts.clone(),
        positions: boards.len(),
        min_count,
        levels,
        closed,
        patterns: found,
    })
}

#[cfg(test)]
mod tests;
