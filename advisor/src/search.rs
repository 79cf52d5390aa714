//! Retrieval: exact positions through the Zobrist table, similar positions
//! through BM25 over the query terms, best position per game.

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
    /// The move played next, packed by `store::encode_played` (the role is
    /// 0, unknown, for exact hits: the piece is then the one on its square here).
    pub next: Option<u64>,
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
                .and_then(|g| g.moves.get(e.ply as usize).map(|&c| c as u64));
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

    /// The scoring terms of the query for `pos`: each distinct query term
    /// found in at most `max_df` of the documents (very common terms, like a
    /// king on g1, cost much time and tell little). Document frequencies
    /// are cached: the vocabulary is small.
    pub fn query_terms(&self, pos: &Chess, max_df: f32) -> Result<Vec<Term>, Error> {
        let searcher = self.reader.searcher();
        let limit = ((searcher.num_docs() as f32 * max_df) as u64).clamp(1, MAX_DF_DOCS);
        let mut cache = self.df_cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut rarity = Vec::new();
        for t in terms::query_terms(pos) {
            if !seen.insert(t.clone()) {
                continue;
            }
            let term = Term::from_field_text(self.fields.terms, &t);
            if max_df < 1.0 {
                let df = match cache.get(&t) {
                    Some(&df) => df,
                    None => {
                        let df = searcher.doc_freq(&term)?;
                        cache.insert(t, df);
                        df
                    }
                };
                if df > limit {
                    continue;
                }
                rarity.push(df);
            }
            out.push(term);
        }
        if max_df < 1.0 && out.len() > MAX_QUERY_TERMS {
            // Keep the rarest terms: they carry most of the BM25 score, and
            // the query cost grows with every clause.
            let mut idx: Vec<usize> = (0..out.len()).collect();
            idx.sort_by_key(|&i| rarity[i]);
            idx.truncate(MAX_QUERY_TERMS);
            idx.sort_unstable();
            out = idx.into_iter().map(|i| out[i].clone()).collect();
        }
        Ok(out)
    }

    /// BM25 over `terms` (optional clauses), restricted to documents with
    /// the term `filter` when given.
    pub fn query_from(&self, terms: &[Term], filters: &[String]) -> BooleanQuery {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|t| {
                let q: Box<dyn Query> =
                    Box::new(TermQuery::new(t.clone(), IndexRecordOption::WithFreqs));
                (Occur::Should, q)
            })
            .collect();
        for f in filters {
            let term = Term::from_field_text(self.fields.terms, f);
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(term, IndexRecordOption::Basic)),
            ));
        }
        BooleanQuery::new(clauses)
    }

    /// The query for `pos` with pruning and an optional filter term.
    pub fn query_for_with(
        &self,
        pos: &Chess,
        max_df: f32,
        filter: Option<&str>,
    ) -> Result<BooleanQuery, Error> {
        let filters: Vec<String> = filter.map(String::from).into_iter().collect();
        Ok(self.query_from(&self.query_terms(pos, max_df)?, &filters))
    }

    /// The plain query (every term, no filter), as the papers ran it.
    pub fn query_for(&self, pos: &Chess) -> BooleanQuery {
        self.query_for_with(pos, 1.0, None)
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
        // Same material pawns included, else same pieces, else anything:
        // the first filter that leaves enough games.
        let filters: Vec<Vec<String>> = if o.material_filter {
            vec![
                vec![
                    terms::meta::pawn_structure_term(pos),
                    terms::meta::material_term(pos),
                ],
                vec![terms::meta::full_material_term(pos)],
                vec![terms::meta::material_term(pos)],
                vec![],
            ]
        } else {
            vec![vec![]]
        };
        let terms = self.query_terms(pos, o.max_df)?;
        let mut hits = Vec::new();
        for f in &filters {
            hits = self.ranked(&self.query_from(&terms, f), o)?;
            if hits.len() >= o.k {
                break;
            }
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
    fn ranked(&self, query: &BooleanQuery, o: &QueryOptions) -> Result<Vec<Hit>, Error> {
        let searcher = self.reader.searcher();
        let top: Vec<(f32, DocAddress)> =
            searcher.search(query, &TopDocs::with_limit(o.fetch.max(1)).order_by_score())?;
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (score, addr) in top {
            let Some(c) = self.columns.get(addr.segment_ord as usize) else {
                continue;
            };
            let cols = (&c.game, &c.ply, &c.next, &c.elo, &c.year);
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
                next: cols.2.first(addr.doc_id),
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

/// Query clauses kept at most (the rarest terms).
pub const MAX_QUERY_TERMS: usize = 48;
/// Query terms in more documents than this are dropped whatever the index
/// size: measured on the 4,000-game split, terms rarer than 1% of the
/// documents gave the best advice; on the full database, 5,000 documents
/// (0.05%) keeps p99 well under 10 ms (10,000 was at the limit).
pub const MAX_DF_DOCS: u64 = 5_000;

/// How to retrieve.
#[derive(Clone, Debug)]
pub struct QueryOptions {
    /// BM25 hits fetched before keeping the best per game (the paper used 1000).
    pub fetch: usize,
    /// Games returned.
    pub k: usize,
    /// Query terms in more than this share of documents (and more than
    /// `MAX_DF_DOCS`) are dropped.
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
            k: 30,
            max_df: 0.01,
            material_filter: true,
            min_elo: None,
            years: None,
        }
    }
}
