//! Mined patterns written in the chunk language (docs/chunk-language.md),
//! one chunk each, so that `Library::from_sources` reads them back.

use shakmaty::{Color, Piece, Square};

use super::{Mined, Pattern};

/// `WP on F2+G2+H2`: a piece kind and its squares.
fn atom(p: Piece, squares: &[Square]) -> String {
    let side = if p.color == Color::White { 'W' } else { 'B' };
    let sq: Vec<String> = squares
        .iter()
        .map(|s| s.to_string().to_uppercase())
        .collect();
    format!("{side}{} on {}", p.role.upper_char(), sq.join("+"))
}

/// `WK on G1 + WR on F1 + WP on F2+G2+H2`: every piece of the pattern, the
/// squares of one kind grouped.
pub fn statement(p: &Pattern) -> String {
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < p.pieces.len() {
        let kind = p.pieces[i].0;
        let squares: Vec<Square> = p.pieces[i..]
            .iter()
            .take_while(|(k, _)| *k == kind)
            .map(|(_, s)| *s)
            .collect();
        i += squares.len();
        atoms.push(atom(kind, &squares));
    }
    atoms.join(" + ")
}

/// The chunk name of the `rank`-th pattern (1-based): `mined_kingside_007`.
pub fn name(p: &Pattern, rank: usize) -> String {
    format!("mined_{}_{rank:03}", p.region.name)
}

/// The whole library: a header saying how it was mined (`source`: where the
/// positions came from), then one chunk per pattern, best first.
pub fn library(m: &Mined, source: &str) -> String {
    let o = &m.options;
    let mut out = format!(
        "# Chunks mined by `mach chunks mine` (docs/chunk-language.md, \"Mined chunks\").\n\
         # Positions: {} from {source}.\n\
         # Sets of {} to {} pieces in at least {:.1}% of the positions ({} positions), \
         dropped when a superset has {:.0}% of their support;\n\
         # the best {} by support x size. Support: positions in which either side has the pattern.\n",
        m.positions,
        super::MIN_SIZE,
        o.max_size,
        100.0 * o.support,
        m.min_count,
        100.0 * o.closed,
        m.patterns.len(),
    );
    for (i, p) in m.patterns.iter().enumerate() {
        let n = name(p, i + 1);
        out.push_str(&format!(
            "\n# mined: {:.1}% of positions ({})\nchunk {n} wrt white.\nclassification mined_{}.\nimportance 1.\nrequire\n{}.\nend {n}.\n",
            100.0 * m.share(p),
            p.region.title,
            p.region.name,
            statement(p),
        ));
    }
    out
}
