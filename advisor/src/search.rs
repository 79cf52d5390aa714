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

    /// The BM25 query for `pos`: one optional clause per distinct query
    /// term found in at most `max_df` of the documents (very common terms,
    /// like a king on g1, cost much time and tell little), and, if
    /// `material`, a required clause for the same non-pawn material.
    pub fn query_for_with(
        &self,
        pos: &Chess,
        max_df: f32,
        material: bool,
    ) -> Result<BooleanQuery, Error> {
        let searcher = self.reader.searcher();
        let limit = (searcher.num_docs() as f32 * max_df).max(1.0) as u64;
        let mut seen = std::collections::HashSet::new();
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for t in terms::query_terms(pos) {
            if !seen.insert(t.clone()) {
                continue;
            }
            let term = Term::from_field_text(self.fields.terms, &t);
            if max_df < 1.0 && searcher.doc_freq(&term)? > limit {
                continue;
            }
            clauses.push((
                Occur::Should,
                Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)),
            ));
        }
        if material {
            let term = Term::from_field_text(self.fields.terms, &terms::meta::material_term(pos));
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(term, IndexRecordOption::Basic)),
            ));
        }
        Ok(BooleanQuery::new(clauses))
    }

    /// The plain query (every term, no filter), as the papers ran it.
    pub fn query_for(&self, pos: &Chess) -> BooleanQuery {
        self.query_for_with(pos, 1.0, false)
            .expect("no doc_freq lookups without pruning")
    }

    /// The `k` games with the positions most like `pos` (best per game),
    /// exact matches first, with the default options.
    pub fn similar(&self, pos: &Chess, fetch: usize, k: usize) -> Result<Vec<Hit>, Error> {
        self.similar_with(
            pos,
            &QueryOptions {
                fetch,
                k,
                ..QueryOptions::default()
            },
        )
    }

    /// The `k` games with the positions most like `pos`.
    pub fn similar_with(&self, pos: &Chess, o: &QueryOptions) -> Result<Vec<Hit>, Error> {
        let mut hits = self.ranked(pos, o, o.material_filter)?;
        if o.material_filter && hits.len() < o.k {
            // Rare material: fall back to every position.
            hits = self.ranked(pos, o, false)?;
        }
        let mut out: Vec<Hit> = self
            .exact(pos)
            .into_iter()
            .filter(|h| self.game_passes(h.game, o))
            .collect();
        let top = hits.first().map_or(0.0, |h| h.score);
        for h in &mut out {
            h.score = hits
                .iter()
                .find(|x| x.game == h.game)
                .map_or(top, |x| x.score.max(top));
        }
        for h in hits {
            if !out.iter().any(|x| x.game == h.game) {
                out.push(h);
            }
        }
        out.truncate(o.k);
        Ok(out)
    }

    fn game_passes(&self, game: u32, o: &QueryOptions) -> bool {
        if o.min_elo.is_none() && o.years.is_none() {
            return true;
        }
        let Some(g) = self.games.get(game) else {
            return false;
        };
        o.min_elo.is_none_or(|m| g.white_elo.min(g.black_elo) >= m)
            && o.years.is_none_or(|(a, b)| (a..=b).contains(&g.year))
    }

    /// BM25 hits, best per game, in score order.
    fn ranked(&self, pos: &Chess, o: &QueryOptions, material: bool) -> Result<Vec<Hit>, Error> {
        let searcher = self.reader.searcher();
        let query = self.query_for_with(pos, o.max_df, material)?;
        let top: Vec<(f32, DocAddress)> = searcher.search(
            &query,
            &TopDocs::with_limit(o.fetch.max(1)).order_by_score(),
        )?;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut columns = HashMap::new();
        for (score, addr) in top {
            let cols = match columns.entry(addr.segment_ord) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(v) => {
                    let ff = searcher.segment_reader(addr.segment_ord).fast_fields();
                    v.insert((
                        ff.u64("game")?,
                        ff.u64("ply")?,
                        ff.u64("next")?,
                        ff.u64("elo")?,
                        ff.u64("year")?,
                    ))
                }
            };
            let (Some(game), Some(ply)) = (cols.0.first(addr.doc_id), cols.1.first(addr.doc_id))
            else {
                continue;
            };
            let game = game as u32;
            if let Some(m) = o.min_elo {
                if cols.3.first(addr.doc_id).unwrap_or(0) < m as u64 {
                    continue;
                }
            }
            if let Some((a, b)) = o.years {
                let y = cols.4.first(addr.doc_id).unwrap_or(0);
                if y < a as u64 || y > b as u64 {
                    continue;
                }
            }
            if !seen.insert(game) {
                continue; // hits come best first: keep the first per game
            }
            out.push(Hit {
                game,
                ply: ply as u16,
                score,
                exact: false,
                next: cols.2.first(addr.doc_id).map(|n| n as u16),
            });
        }
        Ok(out)
    }

    /// Query terms of `pos` that the retrieved position also has: why it is similar.
    pub fn matched_terms(&self, pos: &Chess, hit: &Hit) -> Vec<String> {
        let Some((other, _)) = self
            .games
            .get(hit.game)
            .and_then(|g| g.position_at(hit.ply as usize))
        else {
            return Vec::new();
        };
        let doc: std::collections::HashSet<String> = terms::document_text(&other)
            .split(' ')
            .map(String::from)
            .collect();
        let mut seen = std::collections::HashSet::new();
        terms::query_terms(pos)
            .into_iter()
            .filter(|t| doc.contains(t) && seen.insert(t.clone()))
            .collect()
    }
}

/// How to retrieve.
#[derive(Clone, Debug)]
pub struct QueryOptions {
    /// BM25 hits fetched before keeping the best per game (the paper used 1000).
    pub fetch: usize,
    /// Games returned.
    pub k: usize,
    /// Query terms in more than this share of documents are dropped.
    pub max_df: f32,
    /// Require the same non-pawn material (falls back when too few games match).
    pub material_filter: bool,
    /// Both players rated at least this.
    pub min_elo: Option<u16>,
    /// Games played in these years (inclusive).
    pub years: Option<(u16, u16)>,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            fetch: 1000,
            k: 10,
            max_df: 0.05,
            material_filter: true,
            min_elo: None,
            years: None,
        }
    }
}
