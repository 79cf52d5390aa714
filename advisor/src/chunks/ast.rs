//! A chunk file as written: what the parser makes and the compiler reads.

use shakmaty::{Color, Role};

/// A file or a rank: a letter/number, or a parameter (`$f`, `$r`).
#[derive(Clone, Debug, PartialEq)]
pub enum Coord {
    Lit(u8),
    Param(String),
}

/// One item of a square set.
#[derive(Clone, Debug, PartialEq)]
pub enum SquareItem {
    /// File then rank, both 0-based when literal.
    Square(Coord, Coord),
    /// The rectangle between two squares, corners included.
    Range((Coord, Coord), (Coord, Coord)),
    Light,
    Dark,
    Rank(Coord),
    File(Coord),
}

/// `/`-separated alternatives: a piece on any of them.
pub type SquareSet = Vec<SquareItem>;

/// `W` or `B` then a role; `None`: any piece but king and pawn (`W*`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieceKind {
    pub color: Color,
    pub role: Option<Role>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn holds(self, a: u32, b: u32) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// `defended by WP`, `attacked by BP`, `not attacked by BP`.
#[derive(Clone, Debug, PartialEq)]
pub struct Relation {
    pub defended: bool,
    pub negated: bool,
    pub by: PieceKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    /// `WP on F2+G2/G3`: a piece on one square of every group (`no`: on none).
    On {
        piece: PieceKind,
        groups: Vec<SquareSet>,
        none: bool,
        relations: Vec<Relation>,
    },
    /// Every listed square is empty.
    Empty(SquareSet),
    Near {
        a: PieceKind,
        b: PieceKind,
        within: u8,
    },
    Attacks {
        a: PieceKind,
        b: PieceKind,
    },
    /// `count WR = 1`, `count WR on file d >= 2` (on: only those squares).
    Count {
        piece: PieceKind,
        on: Option<SquareSet>,
        cmp: Cmp,
        n: u32,
    },
    /// Another chunk, with its arguments (empty: any instance).
    Chunk {
        name: String,
        args: Vec<Coord>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
    Atom(Atom),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    File,
    Rank,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub kind: ParamKind,
    /// 0-based values, in order.
    pub values: Vec<u8>,
}

/// One plan of an advice line: `Outpost(white,E5)`; arguments as tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub name: String,
    pub args: Vec<PlanArg>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlanArg {
    Side(Color),
    Square(Coord, Coord),
    File(Coord),
    Rank(Coord),
    Word(String),
    Number(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChunkDef {
    pub name: String,
    pub params: Vec<Param>,
    /// The side the pattern is written for.
    pub wrt: Color,
    pub class: String,
    pub importance: f32,
    pub mirror_files: bool,
    pub require: Vec<Expr>,
    /// Statements without `require`: counted in when they hold.
    pub optional: Vec<Expr>,
    pub advice: Vec<Plan>,
    /// Where it is defined (its `chunk` keyword), for messages: `file:line:col`.
    pub origin: String,
}
