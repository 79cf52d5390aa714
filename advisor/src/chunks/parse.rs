//! Chunk files to [`ChunkDef`]s: a recursive-descent parser over the
//! lexer's tokens; every error names file, line, column and what was expected.

use shakmaty::{Color, Role};

use super::ast::*;
use super::error::ChunkError;
use super::lexer::{lex, Tok, Token};
use super::limits::MAX_NESTING;

/// Parses every chunk of one file.
pub fn parse_file(file: &str, src: &str) -> Result<Vec<ChunkDef>, ChunkError> {
    let toks = lex(file, src)?;
    let mut p = Parser {
        file,
        toks,
        i: 0,
        params: Vec::new(),
        depth: 0,
    };
    let mut defs = Vec::new();
    while p.peek() != &Tok::Eof {
        defs.push(p.chunk()?);
    }
    Ok(defs)
}

struct Parser<'a> {
    file: &'a str,
    toks: Vec<Token>,
    i: usize,
    /// The parameters of the chunk being parsed.
    params: Vec<Param>,
    /// How many `(` and `not` enclose the term being parsed.
    depth: usize,
}

const KEYWORDS: [&str; 8] = [
    "chunk",
    "classification",
    "importance",
    "mirror",
    "require",
    "advice",
    "end",
    "wrt",
];

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }

    fn next(&mut self) -> Token {
        let t = self.toks[self.i].clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }

    /// An error at the current token: "expected X, found Y".
    fn expected(&self, what: &str) -> ChunkError {
        let t = &self.toks[self.i];
        ChunkError::at(
            self.file,
            t.line,
            t.col,
            &format!("expected {what}, found {}", t.tok.describe()),
        )
    }

    fn error_here(&self, msg: &str) -> ChunkError {
        let t = &self.toks[self.i];
        ChunkError::at(self.file, t.line, t.col, msg)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    fn word(&mut self, w: &str) -> Result<(), ChunkError> {
        if self.is_word(w) {
            self.next();
            Ok(())
        } else {
            Err(self.expected(&format!("\"{w}\"")))
        }
    }

    fn sym(&mut self, s: &str) -> Result<(), ChunkError> {
        if self.is_sym(s) {
            self.next();
            Ok(())
        } else {
            Err(self.expected(&format!("\"{s}\"")))
        }
    }

    fn name(&mut self, what: &str) -> Result<String, ChunkError> {
        match self.peek().clone() {
            Tok::Ident(s)
                if !s.contains('*')
                    && s.starts_with(|c: char| c.is_ascii_alphabetic())
                    && !KEYWORDS.contains(&s.as_str()) =>
            {
                self.next();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn number(&mut self, what: &str) -> Result<f64, ChunkError> {
        match self.peek().clone() {
            Tok::Number(n) => {
                self.next();
                Ok(n)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// `chunk NAME [(params)] wrt SIDE.` ... `end NAME.`
    fn chunk(&mut self) -> Result<ChunkDef, ChunkError> {
        let start = (self.toks[self.i].line, self.toks[self.i].col);
        self.word("chunk")?;
        let name = self.name("a chunk name")?;
        self.params = if self.is_sym("(") {
            self.param_list()?
        } else {
            Vec::new()
        };
        self.word("wrt")?;
        let wrt = self.side()?;
        self.sym(".")?;
        let mut def = ChunkDef {
            name,
            params: self.params.clone(),
            wrt,
            class: String::new(),
            importance: 1.0,
            mirror_files: false,
            require: Vec::new(),
            optional: Vec::new(),
            advice: Vec::new(),
            origin: format!("{}:{}:{}", self.file, start.0, start.1),
        };
        loop {
            if self.is_word("end") {
                break;
            } else if self.is_word("chunk") || self.peek() == &Tok::Eof {
                return Err(self.expected(&format!("\"end {}.\"", def.name)));
            } else if self.is_word("classification") {
                self.next();
                def.class = self.name("a class name")?;
                self.sym(".")?;
            } else if self.is_word("importance") {
                self.next();
                let n = self.number("a number")?;
                if !(n > 0.0 && n <= 100.0) {
                    return Err(self.error_here("importance must be above 0 and at most 100"));
                }
                def.importance = n as f32;
                self.sym(".")?;
            } else if self.is_word("mirror") {
                self.next();
                self.word("files")?;
                def.mirror_files = true;
                self.sym(".")?;
            } else if self.is_word("require") {
                self.next();
                def.require.push(self.expr()?);
                self.sym(".")?;
            } else if self.is_word("advice") {
                self.next();
                def.advice = self.advice()?;
            } else {
                def.optional.push(self.expr()?);
                self.sym(".")?;
            }
        }
        self.word("end")?;
        let end_tok = self.i;
        let end = self.name(&format!("\"{}\" after \"end\"", def.name))?;
        if end != def.name {
            self.i = end_tok;
            return Err(self.expected(&format!("\"{}\" after \"end\"", def.name)));
        }
        self.sym(".")?;
        if def.class.is_empty() {
            return Err(ChunkError {
                place: def.origin.clone(),
                message: format!("chunk {} has no classification", def.name),
            });
        }
        if def.require.is_empty() {
            return Err(ChunkError {
                place: def.origin.clone(),
                message: format!("chunk {} has no require statement", def.name),
            });
        }
        Ok(def)
    }

    fn side(&mut self) -> Result<Color, ChunkError> {
        let c = match self.peek() {
            Tok::Ident(s) if s == "white" => Color::White,
            Tok::Ident(s) if s == "black" => Color::Black,
            _ => return Err(self.expected("\"white\" or \"black\"")),
        };
        self.next();
        Ok(c)
    }

    /// `($f in a..h, $r in 2..7)`
    fn param_list(&mut self) -> Result<Vec<Param>, ChunkError> {
        self.sym("(")?;
        let mut out: Vec<Param> = Vec::new();
        loop {
            let name = match self.peek().clone() {
                Tok::Param(p) => p,
                _ => return Err(self.expected("a parameter such as \"$f\"")),
            };
            if out.iter().any(|p| p.name == name) {
                return Err(self.error_here(&format!("parameter ${name} declared twice")));
            }
            self.next();
            self.word("in")?;
            let (kind, lo, hi) = match self.peek().clone() {
                Tok::Ident(a) if file_of(&a).is_some() => {
                    self.next();
                    self.sym("..")?;
                    let b = match self.peek().clone() {
                        Tok::Ident(b) if file_of(&b).is_some() => b,
                        _ => return Err(self.expected("a file letter a-h")),
                    };
                    self.next();
                    (ParamKind::File, file_of(&a).unwrap(), file_of(&b).unwrap())
                }
                Tok::Number(a) => {
                    self.next();
                    self.sym("..")?;
                    let b = self.number("a rank 1-8")?;
                    match (rank_of(a), rank_of(b)) {
                        (Some(a), Some(b)) => (ParamKind::Rank, a, b),
                        _ => return Err(self.error_here("ranks are 1 to 8")),
                    }
                }
                _ => {
                    return Err(
                        self.expected("a file range such as a..h or a rank range such as 2..7")
                    )
                }
            };
            if lo > hi {
                return Err(self.error_here("an empty range"));
            }
            out.push(Param {
                name,
                kind,
                values: (lo..=hi).collect(),
            });
            if self.is_sym(",") {
                self.next();
            } else {
                break;
            }
        }
        self.sym(")")?;
        Ok(out)
    }

    fn param(&self, name: &str, kind: ParamKind) -> Result<Coord, ChunkError> {
        match self.params.iter().find(|p| p.name == name) {
            Some(p) if p.kind == kind => Ok(Coord::Param(name.to_string())),
            Some(_) => Err(self.error_here(&format!(
                "${name} is a {} parameter, used as a {}",
                kind_word(kind, true),
                kind_word(kind, false)
            ))),
            None => Err(self.error_here(&format!("${name} is not a parameter of this chunk"))),
        }
    }

    /// `EXPR := TERM { (& | "|") TERM }`, `&` binding tighter.
    fn expr(&mut self) -> Result<Expr, ChunkError> {
        let mut ors = vec![self.and()?];
        while self.is_sym("|") {
            self.next();
            ors.push(self.and()?);
        }
        Ok(if ors.len() == 1 {
            ors.pop().unwrap()
        } else {
            Expr::Or(ors)
        })
    }

    fn and(&mut self) -> Result<Expr, ChunkError> {
        let mut ands = vec![self.term()?];
        while self.is_sym("&") {
            self.next();
            ands.push(self.term()?);
        }
        Ok(if ands.len() == 1 {
            ands.pop().unwrap()
        } else {
            Expr::And(ands)
        })
    }

    /// `( EXPR ) | not TERM | ATOM { + ATOM }`
    fn term(&mut self) -> Result<Expr, ChunkError> {
        if self.is_sym("(") || self.is_word("not") {
            if self.depth == MAX_NESTING {
                return Err(self.error_here(&format!(
                    "\"(\" and \"not\" nest more than {MAX_NESTING} deep"
                )));
            }
            self.depth += 1;
            let e = if self.is_sym("(") {
                self.next();
                self.expr().and_then(|e| self.sym(")").map(|_| e))
            } else {
                self.next();
                self.term().map(|e| Expr::Not(Box::new(e)))
            };
            self.depth -= 1;
            return e;
        }
        let mut atoms = vec![Expr::Atom(self.atom()?)];
        while self.is_sym("+") {
            self.next();
            atoms.push(Expr::Atom(self.atom()?));
        }
        Ok(if atoms.len() == 1 {
            atoms.pop().unwrap()
        } else {
            Expr::And(atoms)
        })
    }

    fn piece(&mut self) -> Result<PieceKind, ChunkError> {
        let p = match self.peek() {
            Tok::Ident(s) => piece_of(s),
            _ => None,
        };
        match p {
            Some(p) => {
                self.next();
                Ok(p)
            }
            None => Err(self.expected("a piece such as WP, BN or W*")),
        }
    }

    fn atom(&mut self) -> Result<Atom, ChunkError> {
        if self.is_word("no") {
            self.next();
            let piece = self.piece()?;
            self.word("on")?;
            let groups = self.groups()?;
            return Ok(Atom::On {
                piece,
                groups,
                none: true,
                relations: Vec::new(),
            });
        }
        if self.is_word("empty") {
            self.next();
            let mut set = self.square_set()?;
            while self.is_sym("+") && self.starts_square(1) {
                self.next();
                set.extend(self.square_set()?);
            }
            return Ok(Atom::Empty(set));
        }
        if self.is_word("count") {
            self.next();
            let piece = self.piece()?;
            let on = if self.is_word("on") {
                self.next();
                Some(self.square_set()?)
            } else {
                None
            };
            let cmp = match self.peek() {
                Tok::Sym("=") => Cmp::Eq,
                Tok::Sym("!=") => Cmp::Ne,
                Tok::Sym("<") => Cmp::Lt,
                Tok::Sym("<=") => Cmp::Le,
                Tok::Sym(">") => Cmp::Gt,
                Tok::Sym(">=") => Cmp::Ge,
                _ => return Err(self.expected("a comparison (= != < <= > >=)")),
            };
            self.next();
            let n = self.number("a count")?;
            if n.fract() != 0.0 || !(0.0..=16.0).contains(&n) {
                return Err(self.error_here("a count is a whole number from 0 to 16"));
            }
            return Ok(Atom::Count {
                piece,
                on,
                cmp,
                n: n as u32,
            });
        }
        if self.is_word("chunk") {
            self.next();
            let name = self.name("a chunk name")?;
            let mut args = Vec::new();
            if self.is_sym("(") {
                self.next();
                loop {
                    args.push(match self.peek().clone() {
                        Tok::Ident(a) if file_of(&a).is_some() => Coord::Lit(file_of(&a).unwrap()),
                        Tok::Number(n) if rank_of(n).is_some() => Coord::Lit(rank_of(n).unwrap()),
                        Tok::Param(p) if self.params.iter().any(|q| q.name == p) => Coord::Param(p),
                        Tok::Param(p) => {
                            return Err(
                                self.error_here(&format!("${p} is not a parameter of this chunk"))
                            )
                        }
                        _ => return Err(self.expected("a file, a rank or a parameter")),
                    });
                    self.next();
                    if self.is_sym(",") {
                        self.next();
                    } else {
                        break;
                    }
                }
                self.sym(")")?;
            }
            return Ok(Atom::Chunk { name, args });
        }
        let piece = self.piece()?;
        if self.is_word("near") {
            self.next();
            let b = self.piece()?;
            let mut within = 1;
            if self.is_word("within") {
                self.next();
                let n = self.number("a distance")?;
                if n.fract() != 0.0 || !(1.0..=7.0).contains(&n) {
                    return Err(self.error_here("a distance is a whole number from 1 to 7"));
                }
                within = n as u8;
            }
            return Ok(Atom::Near {
                a: piece,
                b,
                within,
            });
        }
        if self.is_word("attacks") {
            self.next();
            let b = self.piece()?;
            return Ok(Atom::Attacks { a: piece, b });
        }
        if !self.is_word("on") {
            return Err(self.expected(&format!(
                "\"on\", \"near\" or \"attacks\" after piece {}",
                piece_name(piece)
            )));
        }
        self.next();
        let groups = self.groups()?;
        let mut relations = Vec::new();
        loop {
            let negated = self.is_word("not")
                && matches!(self.peek_at(1), Tok::Ident(s) if s == "defended" || s == "attacked");
            if negated {
                self.next();
            }
            let defended = if self.is_word("defended") {
                true
            } else if self.is_word("attacked") {
                false
            } else {
                break;
            };
            self.next();
            self.word("by")?;
            let by = self.piece()?;
            relations.push(Relation {
                defended,
                negated,
                by,
            });
        }
        Ok(Atom::On {
            piece,
            groups,
            none: false,
            relations,
        })
    }

    /// `F2+G2/G3+H2`: groups joined by `+` (all), alternatives by `/`.
    fn groups(&mut self) -> Result<Vec<SquareSet>, ChunkError> {
        let mut groups = vec![self.square_set()?];
        // `+` followed by a square continues the groups; followed by a piece
        // it joins the next atom (handled by `term`).
        while self.is_sym("+") && self.starts_square(1) {
            self.next();
            groups.push(self.square_set()?);
        }
        Ok(groups)
    }

    /// Whether the token `k` ahead begins a square item.
    fn starts_square(&self, k: usize) -> bool {
        match self.peek_at(k) {
            Tok::Ident(s) => {
                square_of(s).is_some()
                    || (file_of(s).is_some() && matches!(self.peek_at(k + 1), Tok::Param(_)))
                    || ["light", "dark", "rank", "file"].contains(&s.as_str())
            }
            Tok::Param(_) => true,
            _ => false,
        }
    }

    fn square_set(&mut self) -> Result<SquareSet, ChunkError> {
        let mut set = vec![self.square_item()?];
        while self.is_sym("/") {
            self.next();
            set.push(self.square_item()?);
        }
        Ok(set)
    }

    fn square_item(&mut self) -> Result<SquareItem, ChunkError> {
        if self.is_word("light") {
            self.next();
            return Ok(SquareItem::Light);
        }
        if self.is_word("dark") {
            self.next();
            return Ok(SquareItem::Dark);
        }
        if self.is_word("rank") {
            self.next();
            return Ok(SquareItem::Rank(self.rank_coord()?));
        }
        if self.is_word("file") {
            self.next();
            return Ok(SquareItem::File(self.file_coord()?));
        }
        let a = self.square()?;
        if self.is_sym("..") {
            self.next();
            let b = self.square()?;
            return Ok(SquareItem::Range(a, b));
        }
        Ok(SquareItem::Square(a.0, a.1))
    }

    fn rank_coord(&mut self) -> Result<Coord, ChunkError> {
        match self.peek().clone() {
            Tok::Number(n) if rank_of(n).is_some() => {
                self.next();
                Ok(Coord::Lit(rank_of(n).unwrap()))
            }
            Tok::Param(p) => {
                let c = self.param(&p, ParamKind::Rank)?;
                self.next();
                Ok(c)
            }
            _ => Err(self.expected("a rank 1-8 or a rank parameter")),
        }
    }

    fn file_coord(&mut self) -> Result<Coord, ChunkError> {
        match self.peek().clone() {
            Tok::Ident(s) if file_of(&s).is_some() => {
                self.next();
                Ok(Coord::Lit(file_of(&s).unwrap()))
            }
            Tok::Param(p) => {
                let c = self.param(&p, ParamKind::File)?;
                self.next();
                Ok(c)
            }
            _ => Err(self.expected("a file a-h or a file parameter")),
        }
    }

    /// `D4`, `D$r`, `$f4`, `$f$r` (the parts written without a space).
    fn square(&mut self) -> Result<(Coord, Coord), ChunkError> {
        let t = self.toks[self.i].clone();
        let adjacent = |me: &Self| me.toks[me.i + 1].start == me.toks[me.i].end;
        match &t.tok {
            Tok::Ident(s) if square_of(s).is_some() => {
                self.next();
                let (f, r) = square_of(s).unwrap();
                Ok((Coord::Lit(f), Coord::Lit(r)))
            }
            Tok::Ident(s) if file_of(s).is_some() && adjacent(self) => {
                let f = file_of(s).unwrap();
                self.next();
                let r = match self.peek().clone() {
                    Tok::Param(p) => self.param(&p, ParamKind::Rank)?,
                    _ => return Err(self.expected("a square such as D4")),
                };
                self.next();
                Ok((Coord::Lit(f), r))
            }
            Tok::Param(p) if adjacent(self) => {
                let f = self.param(p, ParamKind::File)?;
                self.next();
                let r = match self.peek().clone() {
                    Tok::Number(n) if rank_of(n).is_some() => Coord::Lit(rank_of(n).unwrap()),
                    Tok::Param(q) => self.param(&q, ParamKind::Rank)?,
                    _ => return Err(self.expected("a rank after the file parameter")),
                };
                self.next();
                Ok((f, r))
            }
            _ => Err(self.expected("a square such as D4")),
        }
    }

    /// `Plan(arg, ...), Plan(...).`
    fn advice(&mut self) -> Result<Vec<Plan>, ChunkError> {
        let mut plans = Vec::new();
        loop {
            let name = self.name("a plan such as Outpost(white,E5)")?;
            let mut args = Vec::new();
            if self.is_sym("(") {
                self.next();
                while !self.is_sym(")") {
                    args.push(self.plan_arg()?);
                    if self.is_sym(",") {
                        self.next();
                    } else if !self.is_sym(")") {
                        return Err(self.expected("\",\" or \")\""));
                    }
                }
                self.next();
            }
            plans.push(Plan { name, args });
            if self.is_sym(",") {
                self.next();
            } else {
                self.sym(".")?;
                return Ok(plans);
            }
        }
    }

    fn plan_arg(&mut self) -> Result<PlanArg, ChunkError> {
        if self.is_word("white") || self.is_word("black") {
            return Ok(PlanArg::Side(self.side()?));
        }
        if let Tok::Number(n) = self.peek().clone() {
            self.next();
            return Ok(PlanArg::Number(n));
        }
        let adjacent_param = matches!(self.peek_at(1), Tok::Param(_))
            && self.toks[self.i + 1].start == self.toks[self.i].end;
        let adjacent_after_param = matches!(self.peek(), Tok::Param(_))
            && matches!(self.peek_at(1), Tok::Number(_) | Tok::Param(_))
            && self.toks[self.i + 1].start == self.toks[self.i].end;
        match self.peek().clone() {
            Tok::Ident(s)
                if square_of(&s).is_some() || (file_of(&s).is_some() && adjacent_param) =>
            {
                let (f, r) = self.square()?;
                Ok(PlanArg::Square(f, r))
            }
            Tok::Param(_) if adjacent_after_param => {
                let (f, r) = self.square()?;
                Ok(PlanArg::Square(f, r))
            }
            Tok::Param(p) => {
                let kind = self.params.iter().find(|q| q.name == p).map(|q| q.kind);
                let c = self.param(&p, kind.unwrap_or(ParamKind::File))?;
                self.next();
                Ok(match kind {
                    Some(ParamKind::Rank) => PlanArg::Rank(c),
                    _ => PlanArg::File(c),
                })
            }
            Tok::Ident(s) if file_of(&s).is_some() => {
                self.next();
                Ok(PlanArg::File(Coord::Lit(file_of(&s).unwrap())))
            }
            Tok::Ident(s) => {
                self.next();
                Ok(PlanArg::Word(s))
            }
            _ => Err(self.expected("a side, a square, a file or a word")),
        }
    }
}

fn kind_word(kind: ParamKind, declared: bool) -> &'static str {
    match (kind, declared) {
        (ParamKind::File, true) | (ParamKind::Rank, false) => "file",
        _ => "rank",
    }
}

/// `a`..`h` (either case) to 0..7.
pub fn file_of(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    (b.len() == 1 && b[0].to_ascii_lowercase().is_ascii_lowercase())
        .then(|| b[0].to_ascii_lowercase() - b'a')
        .filter(|f| *f < 8)
}

fn rank_of(n: f64) -> Option<u8> {
    (n.fract() == 0.0 && (1.0..=8.0).contains(&n)).then_some(n as u8 - 1)
}

/// `D4`/`d4` to (file, rank), 0-based.
pub fn square_of(s: &str) -> Option<(u8, u8)> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let f = file_of(&s[..1])?;
    let r = (b'1'..=b'8').contains(&b[1]).then(|| b[1] - b'1')?;
    Some((f, r))
}

/// `WP`, `BN`, `W*`.
pub fn piece_of(s: &str) -> Option<PieceKind> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let color = match b[0] {
        b'W' => Color::White,
        b'B' => Color::Black,
        _ => return None,
    };
    let role = match b[1] {
        b'*' => None,
        c => Some(Role::from_char(c.to_ascii_lowercase() as char)?),
    };
    Some(PieceKind { color, role })
}

pub fn piece_name(p: PieceKind) -> String {
    let c = if p.color == Color::White { 'W' } else { 'B' };
    let r = p.role.map_or('*', |r| r.char().to_ascii_uppercase());
    format!("{c}{r}")
}
