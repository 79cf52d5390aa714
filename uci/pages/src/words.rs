//! The advisor's terms (`b>Nc3`, `chn:pd6-e5`, `ck:NAME.w`) in plain words, grouped by family.

/// The families, in the order a page lists them.
pub const FAMILIES: [&str; 7] = [
    "same pieces on the same squares",
    "same attacks",
    "same defences",
    "same x-rays",
    "same pawn structure",
    "same chunks (MACH's patterns)",
    "same side to move",
];

/// A piece letter as a word ("knight"), and the side its case says.
fn piece(c: char) -> Option<(&'static str, &'static str)> {
    let side = if c.is_ascii_uppercase() {
        "white"
    } else {
        "black"
    };
    let name = match c.to_ascii_lowercase() {
        'k' => "king",
        'q' => "queen",
        'r' => "rook",
        'b' => "bishop",
        'n' => "knight",
        'p' => "pawn",
        _ => return None,
    };
    Some((side, name))
}

/// `Nc3` as ("white", "knight", "c3").
fn piece_on(t: &str) -> Option<(&'static str, &'static str, &str)> {
    let c = t.chars().next()?;
    let (side, name) = piece(c)?;
    let sq = t.get(1..)?;
    (sq.len() == 2).then_some((side, name, sq))
}

/// A relation term `b>Nc3` (`>` attack, `<` defence, `=` x-ray) in words.
fn relation(t: &str, op: char, verb: &str) -> Option<String> {
    let (a, target) = t.split_once(op)?;
    let (side, actor) = piece(a.chars().next()?)?;
    let (_, tname, sq) = piece_on(target)?;
    Some(format!("{side} {actor} {verb} {tname} on {sq}"))
}

/// A pawn-structure term in words.
fn pawns(kind: &str, rest: &str) -> Option<String> {
    let (side, _) = piece(rest.chars().next()?)?;
    let r = rest.get(1..)?;
    Some(match kind {
        "iso" => format!("{side} isolated pawn {r}"),
        "dbl" => format!("{side} doubled pawns on the {r}-file"),
        "pas" => format!("{side} passed pawn {r}"),
        "ppas" => format!("{side} protected passed pawn {r}"),
        "bak" => format!("{side} backward pawn {r}"),
        "chn" => format!("same pawn chain {r} ({side})"),
        "isl" => format!(
            "{side} has {r} pawn island{}",
            if r == "1" { "" } else { "s" }
        ),
        _ => return None,
    })
}

/// A chunk (`ck:qgdcenter.w`) or class (`cc:kings_indian.b`) term in words.
fn chunk(kind: &str, rest: &str) -> String {
    let (name, side) = match rest.rsplit_once('.') {
        Some((n, "w")) => (n, " (white's)"),
        Some((n, "b")) => (n, " (black's)"),
        _ => (rest, ""),
    };
    let name = name.replace('_', " ");
    if kind == "ck" {
        format!("chunk {name}{side}")
    } else {
        format!("class {name}{side}")
    }
}

/// One term in words, with the index of its family in [`FAMILIES`].
pub fn describe(t: &str) -> Option<(usize, String)> {
    if let Some(side) = t.strip_prefix("stm:") {
        let s = if side == "w" { "white" } else { "black" };
        return Some((6, format!("{s} to move")));
    }
    if let Some((kind, rest)) = t.split_once(':') {
        return match kind {
            "ck" | "cc" => Some((5, chunk(kind, rest))),
            _ => pawns(kind, rest).map(|w| (4, w)),
        };
    }
    for (op, verb, family) in [('>', "attacks", 1), ('<', "defends", 2), ('=', "x-rays", 3)] {
        if t.contains(op) {
            return relation(t, op, verb).map(|w| (family, w));
        }
    }
    piece_on(t).map(|(side, name, sq)| (0, format!("{side} {name} {sq}")))
}

/// The terms grouped by family in plain words: (family, words) for each
/// family that has any, in [`FAMILIES`] order. Unknown terms are kept as they are.
pub fn grouped(terms: &[String]) -> Vec<(&'static str, Vec<String>)> {
    let mut groups: Vec<Vec<String>> = vec![Vec::new(); FAMILIES.len()];
    let mut other = Vec::new();
    for t in terms {
        match describe(t) {
            Some((f, w)) => groups[f].push(w),
            None => other.push(t.clone()),
        }
    }
    let mut out: Vec<(&'static str, Vec<String>)> = FAMILIES
        .iter()
        .zip(groups)
        .filter(|(_, g)| !g.is_empty())
        .map(|(f, g)| (*f, g))
        .collect();
    if !other.is_empty() {
        out.push(("other terms", other));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relations_and_pawns_read_as_plain_words() {
        assert_eq!(
            describe("b>Nc3").unwrap().1,
            "black bishop attacks knight on c3"
        );
        assert_eq!(
            describe("Q<Pe4").unwrap().1,
            "white queen defends pawn on e4"
        );
        assert_eq!(
            describe("r=Qf3").unwrap().1,
            "black rook x-rays queen on f3"
        );
        assert_eq!(
            describe("chn:pd6-e5").unwrap().1,
            "same pawn chain d6-e5 (black)"
        );
        assert_eq!(describe("Nc3").unwrap(), (0, "white knight c3".into()));
        assert_eq!(
            describe("ck:qgdcenter.w").unwrap().1,
            "chunk qgdcenter (white's)"
        );
    }

    #[test]
    fn terms_are_grouped_by_family_in_order() {
        let t: Vec<String> = ["stm:b", "Nc3", "b>Nc3", "iso:Pd4", "weird"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let g = grouped(&t);
        let names: Vec<&str> = g.iter().map(|(f, _)| *f).collect();
        assert_eq!(
            names,
            [
                "same pieces on the same squares",
                "same attacks",
                "same pawn structure",
                "same side to move",
                "other terms"
            ]
        );
    }
}
