//! MACH's chunks as terms: `ck:NAME` for each chunk present (`ck:qgdcenter.w`)
//! and `cc:CLASS` for each class (`cc:queens_pawn_opening.w`), so BM25 sees
//! them and MACH's filters can count them.

use shakmaty::{Chess, Position};

use crate::chunks::Library;

/// Prefix of a chunk term.
pub const CHUNK: &str = "ck:";
/// Prefix of a class term.
pub const CLASS: &str = "cc:";

/// The chunk terms then the class terms of `pos`, each once.
pub fn terms(lib: &Library, pos: &Chess) -> Vec<String> {
    let found = lib.find(pos.board());
    let mut out: Vec<String> = found
        .iter()
        .map(|f| format!("{CHUNK}{}", lib.instances[f.instance].name))
        .collect();
    let mut classes: Vec<&str> = found
        .iter()
        .map(|f| lib.instances[f.instance].class.as_str())
        .collect();
    classes.sort_unstable();
    classes.dedup();
    out.extend(classes.iter().map(|c| format!("{CLASS}{c}")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::testpos::pos;

    #[test]
    fn a_position_gets_one_term_per_chunk_and_one_per_class() {
        let lib = Library::from_sources([(
            "t",
            "chunk a wrt white.\nclassification k.\nrequire\nWK on E1.\nend a.\n\
             chunk b wrt white.\nclassification k.\nrequire\nWQ on D1.\nend b.",
        )])
        .unwrap();
        let t = terms(
            &lib,
            &pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        );
        assert_eq!(
            t,
            ["ck:a.w", "ck:a.b", "ck:b.w", "ck:b.b", "cc:k.b", "cc:k.w"]
        );
    }
}
