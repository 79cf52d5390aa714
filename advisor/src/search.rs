//! Retrieval: exact positions through the Zobrist table, similar positions
//! through BM25 over the query terms, best position per game.

use std::collections::HashMap;

use shakmaty::{zobrist::Zobrist64, Chess, EnPassantMode, Position};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Term};

use crate::index::AdvisorIndex;
use crate::terms;
use crate::Error;

/// One retrieved position.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    pub game: u32,
    pub ply: u16,
    /// BM25 score (exact hits get the best similarity score seen, or 0).
    pub score: f32,
    /// Same position (by Zobrist key), not only a similar one.
    pub exact: bool,
    /// Code of the move played next (see `store::encode_move`), if any.
    pub next: Option<u16>,
}

impl AdvisorIndex {
    /// Every game that reached exactly this position, with the ply.
    pub fn exact(&self, pos: &Chess) -> Vec<Hit> {
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let mut out: Vec<Hit> = Vec::new();
        for e in self.keys.find(key) {
            if out.iter().any(|h| h.game == e.game) {
                continue;
            }
            let next = self
                .games
                .get(e.game)
                .and_then(|g| g.moves.get(e.ply as usize).copied());
            out.push(Hit {
                game: e.game,
                ply: e.ply,
                score: 0.0,
                exact: true,
                next,
            });
        }
        out
    }

    /// The BM25 query for `pos`: one optional clause per distinct term.
    pub fn query_for(&self, pos: &Chess) -> BooleanQuery {
        let mut seen = std::collections::HashSet::new();
        let clauses: Vec<(Occur, Box<dyn Query>)> = terms::query_terms(pos)
            .into_iter()
            .filter(|t| seen.insert(t.clone()))
            .map(|t| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(self.fields.terms, &t),
                    IndexRecordOption::WithFreqs,
                ));
                (Occur::Should, q)
            })
            .collect();
        BooleanQuery::new(clauses)
    }

    /// The `k` games with the positions most like `pos` (best per game), from
    /// the top `fetch` BM25 hits, exact matches first.
    pub fn similar(&self, pos: &Chess, fetch: usize, k: usize) -> Result<Vec<Hit>, Error> {
        let searcher = self.reader.searcher();
        let query = self.query_for(pos);
        let top: Vec<(f32, DocAddress)> =
            searcher.search(&query, &TopDocs::with_limit(fetch.max(1)).order_by_score())?;
        let mut best: HashMap<u32, Hit> = HashMap::new();
        let mut order: Vec<u32> = Vec::new();
        let mut columns = HashMap::new();
        for (score, addr) in top {
            let cols = match columns.entry(addr.segment_ord) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(v) => {
                    let ff = searcher.segment_reader(addr.segment_ord).fast_fields();
                    v.insert((ff.u64("game")?, ff.u64("ply")?, ff.u64("next")?))
                }
            };
            let (Some(game), Some(ply)) = (cols.0.first(addr.doc_id), cols.1.first(addr.doc_id))
            else {
                continue;
            };
            let game = game as u32;
            if best.contains_key(&game) {
                continue; // hits come best first: keep the first per game
            }
            order.push(game);
            best.insert(
                game,
                Hit {
                    game,
                    ply: ply as u16,
                    score,
                    exact: false,
                    next: cols.2.first(addr.doc_id).map(|n| n as u16),
                },
            );
        }
        let mut out = self.exact(pos);
        let top_score = order
            .first()
            .and_then(|g| best.get(g))
            .map_or(0.0, |h| h.score);
        for h in &mut out {
            h.score = best
                .get(&h.game)
                .map_or(top_score, |b| b.score.max(top_score));
        }
        for g in order {
            if out.iter().any(|h| h.game == g) {
                continue;
            }
            out.push(best[&g].clone());
        }
        out.truncate(k);
        Ok(out)
    }
}
