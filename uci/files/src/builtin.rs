//! The data built into the `mach` binary: the default grandmaster database and
//! the named openings, so that an installed `mach` runs its main job from any
//! directory with nothing beside it. The files themselves live in `books/`
//! (their origins and terms are in `books/README.md`).

/// The default database's name: the default index directory is named after it.
pub const DEFAULT_DATABASE_NAME: &str = "gm2700-classical-4000";

/// Built-in files, by the name a user gives after `builtin:`.
pub const BUILTIN: [(&str, &[u8]); 7] = [
    (
        "gm2700-classical-4000.pgn",
        include_bytes!("../../../books/gm2700-classical-4000.pgn"),
    ),
    (
        "eco/a.tsv",
        include_bytes!("../../../books/openings/eco/a.tsv"),
    ),
    (
        "eco/b.tsv",
        include_bytes!("../../../books/openings/eco/b.tsv"),
    ),
    (
        "eco/c.tsv",
        include_bytes!("../../../books/openings/eco/c.tsv"),
    ),
    (
        "eco/d.tsv",
        include_bytes!("../../../books/openings/eco/d.tsv"),
    ),
    (
        "eco/e.tsv",
        include_bytes!("../../../books/openings/eco/e.tsv"),
    ),
    (POSITION_VECTORS_NAME, POSITION_VECTORS),
];

/// The built-in position autoencoder's name after `builtin:`.
pub const POSITION_VECTORS_NAME: &str = "position-vectors.vec";

/// The position autoencoder (`books/position-vectors.vec`, written by `mach
/// embed train`, see `books/README.md`): what `mach embed` and the vectors
/// of `mach embed index` use unless given another network.
pub const POSITION_VECTORS: &[u8] = include_bytes!("../../../books/position-vectors.vec");

/// The grandmaster opening tree (`books/gm-tree.bin`, see `books/README.md`),
/// read in place by `mach_advisor::opening_tree::OpeningTree`.
pub const OPENING_TREE: &[u8] = include_bytes!("../../../books/gm-tree.bin");

/// The grandmaster tree analysed by Mach (`books/gm-tree-analysis.exp`, an
/// experience file written by `mach learn`, see `books/README.md`): what
/// its own deep searches found of the tree's most-played positions.
pub const TREE_ANALYSIS: &[u8] = include_bytes!("../../../books/gm-tree-analysis.exp");

/// The built-in file of this name, if there is one.
pub fn builtin(name: &str) -> Option<&'static [u8]> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// The names of every built-in file, for error messages.
pub fn builtin_names() -> String {
    BUILTIN
        .iter()
        .map(|(n, _)| format!("builtin:{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
