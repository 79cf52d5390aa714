//! The bounds on a chunk library (docs/chunk-language.md, "Limits"): what
//! a hostile chunk file may cost the parser, the compiler and the matcher.

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
