//! Chunk definitions to instances: every parameter value, both sides (the
//! reflection), both wings when `mirror files`; squares become bitboards.

use std::cell::Cell;
use std::collections::HashMap;
use std::ops::Range;

use shakmaty::{Bitboard, Color, File, Rank, Role, Square};

use super::ast::*;
use super::error::ChunkError;
use super::limits::{MAX_COMPILED, MAX_INSTANCES, MAX_INSTANCES_PER_CHUNK};

/// Which pieces an atom speaks of, after the reflection.
#[derive(Clone, Copy, Debug)]
pub struct Sel {
    pub color: Color,
    pub role: Option<Role>,
}

#[derive(Clone, Debug)]
pub enum CExpr {
    And(Vec<CExpr>),
    Or(Vec<CExpr>),
    Not(Box<CExpr>),
    On {
        sel: Sel,
        groups: Vec<Bitboard>,
        none: bool,
        /// (by, must hold: false for `not ...`)
        relations: Vec<(Sel, bool)>,
    },
    Empty(Bitboard),
    Near {
        a: Sel,
        b: Sel,
        within: u8,
    },
    Attacks {
        a: Sel,
        b: Sel,
    },
    Count {
        sel: Sel,
        /// Only pieces on these squares (all squares when not given).
        on: Bitboard,
        cmp: Cmp,
        n: u32,
    },
    /// Any of these earlier instances.
    Ref(Vec<usize>),
}

/// One chunk for one side, one wing and one set of parameter values.
#[derive(Clone, Debug)]
pub struct Instance {
    /// `qgdcenter.w`, `rook_open_file(d).b`, `castled_short.w.m`.
    pub name: String,
    /// The definition's name.
    pub chunk: String,
    /// `CLASS.w` / `CLASS.b`: the side that has the pattern.
    pub class: String,
    pub importance: f32,
    pub side: Color,
    /// The advice line for this side and wing, e.g. `Outpost(white,e5)`.
    pub advice: Vec<String>,
    pub require: Vec<CExpr>,
    pub optional: Vec<CExpr>,
    /// Argument values (0-based) and flip/mirror: what `chunk NAME(..)` matches.
    key: (Vec<u8>, bool, bool),
}

/// How a written chunk is placed on the board.
#[derive(Clone, Copy)]
struct Orient {
    /// Colours swapped, ranks turned over (the reflection for the other side).
    flip: bool,
    /// Files turned over (`mirror files`).
    mirror: bool,
}

impl Orient {
    fn square(self, f: u8, r: u8) -> Square {
        let f = if self.mirror { 7 - f } else { f };
        let r = if self.flip { 7 - r } else { r };
        Square::from_coords(File::new(f as u32), Rank::new(r as u32))
    }

    fn color(self, c: Color) -> Color {
        if self.flip {
            !c
        } else {
            c
        }
    }

    fn sel(self, p: PieceKind) -> Sel {
        Sel {
            color: self.color(p.color),
            role: p.role,
        }
    }
}

/// The definitions compiled so far, by name, and where their instances are.
struct Earlier<'a> {
    defs: HashMap<&'a str, (&'a ChunkDef, Range<usize>)>,
    /// (name, argument values, side is White, mirrored): the one instance
    /// `chunk NAME(args)` means, found without looking through the others.
    by_args: HashMap<(&'a str, Vec<u8>, bool, bool), usize>,
}

struct Ctx<'a> {
    origin: &'a str,
    orient: Orient,
    /// The side that has the pattern (what `chunk NAME` refers to).
    side: Color,
    args: &'a HashMap<String, u8>,
    /// What the library has compiled so far ([`MAX_COMPILED`]).
    compiled: &'a Cell<u64>,
    /// The chunk being compiled, for the error when the library grows too big.
    name: &'a str,
}

impl Ctx<'_> {
    /// Counts `n` more compiled terms; an error past [`MAX_COMPILED`].
    fn charge(&self, n: u64) -> Result<(), ChunkError> {
        let total = self.compiled.get().saturating_add(n);
        self.compiled.set(total);
        if total > MAX_COMPILED {
            return Err(ChunkError {
                place: self.origin.to_string(),
                message: format!(
                    "chunk {}: the library grows past {MAX_COMPILED} compiled terms \
                     (expressions times instances, and the instances each \"chunk\" reference \
                     looks through); use fewer parameters or references",
                    self.name
                ),
            });
        }
        Ok(())
    }

    fn coord(&self, c: &Coord) -> u8 {
        match c {
            Coord::Lit(v) => *v,
            // The parser checked every parameter is declared.
            Coord::Param(p) => self.args[p],
        }
    }

    fn set(&self, set: &SquareSet) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for item in set {
            bb |= match item {
                SquareItem::Square(f, r) => {
                    Bitboard::from_square(self.orient.square(self.coord(f), self.coord(r)))
                }
                SquareItem::Range((f1, r1), (f2, r2)) => {
                    let (f1, f2, r1, r2) = (
                        self.coord(f1),
                        self.coord(f2),
                        self.coord(r1),
                        self.coord(r2),
                    );
                    let mut b = Bitboard::EMPTY;
                    for f in f1.min(f2)..=f1.max(f2) {
                        for r in r1.min(r2)..=r1.max(r2) {
                            b.add(self.orient.square(f, r));
                        }
                    }
                    b
                }
                SquareItem::Light => self.light(true),
                SquareItem::Dark => self.light(false),
                SquareItem::Rank(r) => {
                    let r = self.coord(r);
                    (0..8).map(|f| self.orient.square(f, r)).collect()
                }
                SquareItem::File(f) => {
                    let f = self.coord(f);
                    (0..8).map(|r| self.orient.square(f, r)).collect()
                }
            };
        }
        bb
    }

    /// Light (or dark) squares as written, placed: a reflection or a mirror
    /// swaps the colours, so "bishop on the colour of its pawns" stays true.
    fn light(&self, light: bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for f in 0..8 {
            for r in 0..8 {
                let written = Square::from_coords(File::new(f), Rank::new(r));
                if written.is_light() == light {
                    b.add(self.orient.square(f as u8, r as u8));
                }
            }
        }
        b
    }

    fn expr(&self, e: &Expr, lib: &[Instance], defs: &Earlier) -> Result<CExpr, ChunkError> {
        self.charge(1)?;
        Ok(match e {
            Expr::And(v) => CExpr::And(
                v.iter()
                    .map(|e| self.expr(e, lib, defs))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Or(v) => CExpr::Or(
                v.iter()
                    .map(|e| self.expr(e, lib, defs))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::Not(e) => CExpr::Not(Box::new(self.expr(e, lib, defs)?)),
            Expr::Atom(a) => self.atom(a, lib, defs)?,
        })
    }

    fn atom(&self, a: &Atom, lib: &[Instance], defs: &Earlier) -> Result<CExpr, ChunkError> {
        let o = self.orient;
        // Every square item and relation is looked at, and every group kept.
        let items = |set: &SquareSet| set.len() as u64;
        self.charge(match a {
            Atom::On {
                groups, relations, ..
            } => groups.iter().map(items).sum::<u64>() + relations.len() as u64,
            Atom::Empty(set) => items(set),
            Atom::Count { on, .. } => on.as_ref().map_or(0, items),
            Atom::Near { .. } | Atom::Attacks { .. } | Atom::Chunk { .. } => 0,
        })?;
        Ok(match a {
            Atom::On {
                piece,
                groups,
                none,
                relations,
            } => CExpr::On {
                sel: o.sel(*piece),
                groups: groups.iter().map(|g| self.set(g)).collect(),
                none: *none,
                relations: relations
                    .iter()
                    .map(|r| (o.sel(r.by), !r.negated))
                    .collect(),
            },
            Atom::Empty(set) => CExpr::Empty(self.set(set)),
            Atom::Near { a, b, within } => CExpr::Near {
                a: o.sel(*a),
                b: o.sel(*b),
                within: *within,
            },
            Atom::Attacks { a, b } => CExpr::Attacks {
                a: o.sel(*a),
                b: o.sel(*b),
            },
            Atom::Count { piece, on, cmp, n } => CExpr::Count {
                sel: o.sel(*piece),
                on: on.as_ref().map_or(Bitboard::FULL, |set| self.set(set)),
                cmp: *cmp,
                n: *n,
            },
            Atom::Chunk { name, args } => {
                let Some((def, range)) = defs.defs.get(name.as_str()) else {
                    return Err(ChunkError {
                        place: self.origin.to_string(),
                        message: format!("chunk {name} is used before it is defined"),
                    });
                };
                if !args.is_empty() && args.len() != def.params.len() {
                    return Err(ChunkError {
                        place: self.origin.to_string(),
                        message: format!(
                            "chunk {name} takes {} arguments, given {}",
                            def.params.len(),
                            args.len()
                        ),
                    });
                }
                let want: Vec<u8> = args.iter().map(|c| self.coord(c)).collect();
                let mirror = o.mirror && def.mirror_files;
                let hits: Vec<usize> = if want.is_empty() {
                    // Looking through the definition's instances, and the
                    // list kept, both count.
                    self.charge(2 * range.len() as u64)?;
                    range
                        .clone()
                        .filter(|&k| lib[k].side == self.side && lib[k].key.2 == mirror)
                        .collect()
                } else {
                    self.charge(2)?;
                    let key = (def.name.as_str(), want, self.side == Color::White, mirror);
                    defs.by_args.get(&key).copied().into_iter().collect()
                };
                if hits.is_empty() {
                    return Err(ChunkError {
                        place: self.origin.to_string(),
                        message: format!("chunk {name} has no instance with these arguments"),
                    });
                }
                CExpr::Ref(hits)
            }
        })
    }

    fn plan(&self, p: &Plan) -> String {
        let args: Vec<String> = p
            .args
            .iter()
            .map(|a| match a {
                PlanArg::Side(c) => self.orient.color(*c).to_string(),
                PlanArg::Square(f, r) => {
                    self.orient.square(self.coord(f), self.coord(r)).to_string()
                }
                PlanArg::File(f) => {
                    let f = self.coord(f);
                    let f = if self.orient.mirror { 7 - f } else { f };
                    ((b'a' + f) as char).to_string()
                }
                PlanArg::Rank(r) => {
                    let r = self.coord(r);
                    let r = if self.orient.flip { 7 - r } else { r };
                    (r + 1).to_string()
                }
                PlanArg::Word(w) => w.clone(),
                PlanArg::Number(n) => n.to_string(),
            })
            .collect();
        if args.is_empty() {
            p.name.clone()
        } else {
            format!("{}({})", p.name, args.join(","))
        }
    }
}

/// Every instance of every definition, in definition order (so a reference
/// always points to an earlier instance).
pub fn instances(defs: &[ChunkDef]) -> Result<Vec<Instance>, ChunkError> {
    instances_counted(defs).map(|(lib, _)| lib)
}

/// [`instances`], and the compiled terms they took ([`MAX_COMPILED`]).
pub fn instances_counted(defs: &[ChunkDef]) -> Result<(Vec<Instance>, u64), ChunkError> {
    let mut lib: Vec<Instance> = Vec::new();
    let mut earlier = Earlier {
        defs: HashMap::new(),
        by_args: HashMap::new(),
    };
    let compiled = Cell::new(0u64);
    for def in defs {
        if earlier.defs.contains_key(def.name.as_str()) {
            return Err(ChunkError {
                place: def.origin.clone(),
                message: format!("chunk {} is defined twice", def.name),
            });
        }
        let count = instance_count(def);
        if count > MAX_INSTANCES_PER_CHUNK as u64 {
            let values: Vec<String> = def
                .params
                .iter()
                .map(|p| p.values.len().to_string())
                .collect();
            return Err(ChunkError {
                place: def.origin.clone(),
                message: format!(
                    "chunk {} has {count} instances ({} parameter values, 2 sides{}); at most {MAX_INSTANCES_PER_CHUNK}",
                    def.name,
                    values.join(" x "),
                    if def.mirror_files { ", 2 wings" } else { "" }
                ),
            });
        }
        if lib.len() as u64 + count > MAX_INSTANCES as u64 {
            return Err(ChunkError {
                place: def.origin.clone(),
                message: format!(
                    "chunk {}: the library grows past {MAX_INSTANCES} instances",
                    def.name
                ),
            });
        }
        let mut combos: Vec<Vec<u8>> = vec![Vec::new()];
        for p in &def.params {
            combos = combos
                .iter()
                .flat_map(|c| {
                    p.values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(*v);
                        c
                    })
                })
                .collect();
        }
        let mut new = Vec::new();
        for values in &combos {
            let args: HashMap<String, u8> = def
                .params
                .iter()
                .map(|p| p.name.clone())
                .zip(values.iter().copied())
                .collect();
            let label: Vec<String> = def
                .params
                .iter()
                .zip(values)
                .map(|(p, v)| match p.kind {
                    ParamKind::File => ((b'a' + v) as char).to_string(),
                    ParamKind::Rank => (v + 1).to_string(),
                })
                .collect();
            let base = if label.is_empty() {
                def.name.clone()
            } else {
                format!("{}({})", def.name, label.join(","))
            };
            for flip in [false, true] {
                for mirror in [false, true] {
                    if mirror && !def.mirror_files {
                        continue;
                    }
                    let orient = Orient { flip, mirror };
                    let side = orient.color(def.wrt);
                    let suffix = match (side, mirror) {
                        (Color::White, false) => ".w",
                        (Color::Black, false) => ".b",
                        (Color::White, true) => ".w.m",
                        (Color::Black, true) => ".b.m",
                    };
                    let ctx = Ctx {
                        origin: &def.origin,
                        orient,
                        side,
                        args: &args,
                        compiled: &compiled,
                        name: &def.name,
                    };
                    new.push(Instance {
                        name: format!("{base}{suffix}"),
                        chunk: def.name.clone(),
                        class: format!(
                            "{}.{}",
                            def.class,
                            if side == Color::White { "w" } else { "b" }
                        ),
                        importance: def.importance,
                        side,
                        advice: def.advice.iter().map(|p| ctx.plan(p)).collect(),
                        require: def
                            .require
                            .iter()
                            .map(|e| ctx.expr(e, &lib, &earlier))
                            .collect::<Result<_, _>>()?,
                        optional: def
                            .optional
                            .iter()
                            .map(|e| ctx.expr(e, &lib, &earlier))
                            .collect::<Result<_, _>>()?,
                        key: (values.clone(), flip, mirror),
                    });
                }
            }
        }
        let range = lib.len()..lib.len() + new.len();
        if !def.params.is_empty() {
            for (k, i) in range.clone().zip(&new) {
                let key = (
                    def.name.as_str(),
                    i.key.0.clone(),
                    i.side == Color::White,
                    i.key.2,
                );
                earlier.by_args.insert(key, k);
            }
        }
        lib.extend(new);
        earlier.defs.insert(&def.name, (def, range));
    }
    Ok((lib, compiled.get()))
}

/// How many instances `def` compiles to: its parameters' values
/// multiplied, times 2 sides, times 2 wings with `mirror files`.
pub fn instance_count(def: &ChunkDef) -> u64 {
    let wings = if def.mirror_files { 2 } else { 1 };
    def.params.iter().fold(2 * wings, |n: u64, p| {
        n.saturating_mul(p.values.len() as u64)
    })
}
