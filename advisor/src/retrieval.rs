//! Retrieval: exact positions through the Zobrist table, similar positions
//! through BM25 over the query terms, best position per game.

use shakmaty::{zobrist::Zobrist64, Chess, EnPassantMode, Position};
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Term};

use crate::error::Error;
use crate::index::AdvisorIndex;
use crate::terms;

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
    /// Every game that reached exactly this position, once (its first ply
    /// there), with the move played next: linear in the games, which run to
    /// tens of thousands in a popular opening.
    pub fn exact(&self, pos: &Chess) -> Vec<Hit> {
        let key = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let mut seen = std::collections::HashSet::new();
        self.keys
            .find(key)
            .into_iter()
            .filter(|e| seen.insert(e.game))
            .map(|e| Hit {
                game: e.game,
                ply: e.ply,
                score: 0.0,
                exact: true,
                next: self
                    .games
                    .head(e.game)
                    .and_then(|g| g.move_at(e.ply as usize))
                    .map(|c| c as u64),
            })
            .collect()
    }

    /// How alike the best similar position is, in [0, 1] (with vectors: its
    /// score, already that): its BM25 score `top` over the best score the
    /// query could get, that of a document
    /// holding exactly the query's own terms (each once, its length the
    /// number of terms). Used to calibrate the advice (`advise --eval`).
    pub fn similarity(&self, pos: &Chess, o: &QueryOptions, top: f32) -> Result<f32, Error> {
        if matches!(o.mode, Mode::Embed | Mode::Fused) {
            // Vector and fused hits are scored in [0, 1] already.
            return Ok(top.clamp(0.0, 1.0));
        }
        let all = terms::query_terms(pos).len()
            + if o.chunk_terms {
                terms::chunks::terms(&self.chunks, pos).len()
            } else {
                0
            };
        let id = tantivy::fieldnorm::FieldNormReader::fieldnorm_to_id(all as u32);
        let searcher = self.reader.searcher();
        let mut best = 0.0;
        for t in self.query_terms_with(pos, o.max_df, o.chunk_terms)? {
            best += tantivy::query::Bm25Weight::for_terms(&searcher, &[t])?.score(id, 1);
        }
        Ok(if best > 0.0 {
            (top / best).clamp(0.0, 1.0)
        } else {
            0.0
        })
    }

    /// The scoring terms of the query for `pos`: each distinct query term
    /// found in at most `max_df` of the documents (very common terms, like a
    /// king on g1, cost much time and tell little). Document frequencies
    /// are cached: the vocabulary is small.
    pub fn query_terms(&self, pos: &Chess, max_df: f32) -> Result<Vec<Term>, Error> {
        self.query_terms_with(pos, max_df, true)
    }

    /// [`Self::query_terms`], with or without the chunk and class terms.
    pub fn query_terms_with(
        &self,
        pos: &Chess,
        max_df: f32,
        chunk_terms: bool,
    ) -> Result<Vec<Term>, Error> {
        let searcher = self.reader.searcher();
        let limit = ((searcher.num_docs() as f32 * max_df) as u64).clamp(1, MAX_DF_DOCS);
        let mut cache = self.df_cache.lock().unwrap_or_else(|e| e.into_inner());
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut rarity = Vec::new();
        let mut all = terms::query_terms(pos);
        if chunk_terms {
            all.extend(terms::chunks::terms(&self.chunks, pos));
        }
        for t in all {
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

    /// The `k` games with the positions most like `pos`: those that reached
    /// it exactly first, then the best BM25 (or MACH) hits.
    pub fn similar_with(&self, pos: &Chess, o: &QueryOptions) -> Result<Vec<Hit>, Error> {
        self.similar_given(pos, o, self.exact(pos))
    }

    /// [`Self::similar_with`], given the exact hits already read (`exact(pos)`):
    /// the advisor thread reads them once for both the book and the advice.
    pub fn similar_given(
        &self,
        pos: &Chess,
        o: &QueryOptions,
        exact: Vec<Hit>,
    ) -> Result<Vec<Hit>, Error> {
        let hits = if o.exact_only {
            Vec::new()
        } else {
            self.ranked_similar(pos, o)?
        };
        let mut out: Vec<Hit> = exact
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

    /// The similar positions' games, best first, by `o.mode`.
    fn ranked_similar(&self, pos: &Chess, o: &QueryOptions) -> Result<Vec<Hit>, Error> {
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
        match o.mode {
            Mode::Embed => return self.ranked_by_vector(pos, o),
            Mode::Fused => {
                let terms = self.ranked_similar(
                    pos,
                    &QueryOptions {
                        mode: Mode::Bm25,
                        ..o.clone()
                    },
                )?;
                return Ok(fuse(&[terms, self.ranked_by_vector(pos, o)?]));
            }
            _ => {}
        }
        let terms = self.query_terms_with(pos, o.max_df, o.chunk_terms)?;
        let mut hits = Vec::new();
        let mach = match o.mode {
            Mode::Bm25 | Mode::Embed | Mode::Fused => None,
            Mode::Mach | Mode::Both => Some(self.mach_filters(pos, o.mach_r)),
        };
        match (o.mode, mach) {
            (Mode::Bm25, _) | (Mode::Both, Some(None)) => {
                for f in &filters {
                    hits = self.ranked(&self.query_from(&terms, f), o, None)?;
                    if hits.len() >= o.k {
                        break;
                    }
                }
            }
            // MACH alone: its filters, ranked by the shared chunks' BM25.
            (Mode::Mach, Some(Some(clauses))) => {
                hits = self.ranked(&BooleanQuery::new(clauses), o, Some(pos))?;
            }
            // Both: MACH's filters, ranked by the BM25 terms and the chunks.
            (Mode::Both, Some(Some(clauses))) => {
                for f in &filters {
                    let mut all: Vec<(Occur, Box<dyn Query>)> = self
                        .query_from(&terms, f)
                        .clauses()
                        .iter()
                        .map(|(o, q)| (*o, q.box_clone()))
                        .collect();
                    all.extend(clauses.iter().map(|(o, q)| (*o, q.box_clone())));
                    hits = self.ranked(&BooleanQuery::new(all), o, Some(pos))?;
                    if hits.len() >= o.k {
                        break;
                    }
                }
            }
            // MACH with no chunk in the position: nothing is similar.
            (Mode::Mach, _) | (Mode::Both, None) | (Mode::Embed | Mode::Fused, _) => {}
        }
        Ok(hits)
    }

    /// The games with the positions whose vectors are nearest that of
    /// `pos` (an exact scan of `vectors.bin`), best per game.
    fn ranked_by_vector(&self, pos: &Chess, o: &QueryOptions) -> Result<Vec<Hit>, Error> {
        let Some(v) = &self.vectors else {
            return Err(match &self.vectors_trouble {
                Some(why) => Error::Corrupt(why.clone()),
                None => Error::Input(format!(
                    "the index at {} has no position vectors: write them with `mach embed index`",
                    self.dir.display()
                )),
            });
        };
        let code = crate::vectors::store::quantize(
            &v.net
                .encode(&crate::vectors::Squares::of(pos.board(), pos.turn())),
        );
        let mut seen = std::collections::HashSet::new();
        Ok(v.nearest(&code, o.fetch.max(1))
            .into_iter()
            .filter(|n| self.game_passes(n.game, o) && seen.insert(n.game))
            .map(|n| Hit {
                game: n.game,
                ply: n.ply,
                score: v.similarity(n.distance),
                exact: false,
                next: Some(n.next as u64),
            })
            .collect())
    }

    fn game_passes(&self, game: u32, o: &QueryOptions) -> bool {
        if o.min_elo.is_none() && o.years.is_none() {
            return true;
        }
        let Some(g) = self.games.head(game) else {
            return false;
        };
        o.min_elo.is_none_or(|m| g.white_elo.min(g.black_elo) >= m)
            && o.years.is_none_or(|(a, b)| (a..=b).contains(&g.year))
    }

    /// MACH's first two filters for `pos` (George & Schaeffer, section 4):
    /// of the L chunks here, at least L - R (at least one), chunk clauses
    /// boosted by importance so they also rank. MACH's filter 1 (of the M
    /// classes, at least M - R) follows from filter 2: a position that lacks
    /// at most R of the chunks lacks at most R of their classes; MACH ran it
    /// first only because its class files were small, while here the class
    /// terms are the longest posting lists. What drives the search instead
    /// is the pigeonhole: a position lacking at most R of the chunks holds
    /// at least two of any R + 2 of them, so it is in the intersection of
    /// some two of the R + 2 rarest (intersections of short lists, which
    /// tantivy walks by skipping, leave few candidates for filter 2).
    /// `None` when there is no chunk.
    pub fn mach_filters(&self, pos: &Chess, r: usize) -> Option<Vec<(Occur, Box<dyn Query>)>> {
        let found = self.chunks.find(pos.board());
        if found.is_empty() {
            return None;
        }
        let term = |t: &str| Term::from_field_text(self.fields.terms, t);
        let names: Vec<(String, f32)> = found
            .iter()
            .map(|f| {
                let inst = &self.chunks.instances[f.instance];
                (
                    format!("{}{}", terms::chunks::CHUNK, inst.name),
                    inst.importance,
                )
            })
            .collect();
        let chunk_queries: Vec<Box<dyn Query>> = names
            .iter()
            .map(|(name, importance)| {
                let q = TermQuery::new(term(name), IndexRecordOption::WithFreqs);
                Box::new(BoostQuery::new(Box::new(q), *importance)) as Box<dyn Query>
            })
            .collect();
        let l = chunk_queries.len();
        let filter2 = BooleanQuery::union_with_minimum_required_clauses(
            chunk_queries,
            l.saturating_sub(r).max(1),
        );
        let mut clauses = vec![(Occur::Must, Box::new(filter2) as Box<dyn Query>)];
        if l > r + 2 {
            let searcher = self.reader.searcher();
            let mut cache = self.df_cache.lock().unwrap_or_else(|e| e.into_inner());
            let mut by_df: Vec<(u64, &str)> = names
                .iter()
                .map(|(name, _)| {
                    let df = *cache
                        .entry(name.clone())
                        .or_insert_with(|| searcher.doc_freq(&term(name)).unwrap_or(u64::MAX));
                    (df, name.as_str())
                })
                .collect();
            by_df.sort_unstable();
            let rarest = &by_df[..r + 2];
            let basic = |name: &str| -> Box<dyn Query> {
                Box::new(TermQuery::new(term(name), IndexRecordOption::Basic))
            };
            let mut pairs: Vec<Box<dyn Query>> = Vec::new();
            for (i, (_, a)) in rarest.iter().enumerate() {
                for (_, b) in &rarest[i + 1..] {
                    pairs.push(Box::new(BooleanQuery::intersection(vec![
                        basic(a),
                        basic(b),
                    ])));
                }
            }
            // Scores nothing: the ranking stays filter 2's.
            let driver =
                tantivy::query::ConstScoreQuery::new(Box::new(BooleanQuery::union(pairs)), 0.0);
            clauses.push((Occur::Must, Box::new(driver) as Box<dyn Query>));
        }
        Some(clauses)
    }

    /// BM25 hits, best per game, in score order; with `king_filter`,
    /// MACH's third filter drops positions whose kings stand far from
    /// those of that position.
    fn ranked(
        &self,
        query: &BooleanQuery,
        o: &QueryOptions,
        king_filter: Option<&Chess>,
    ) -> Result<Vec<Hit>, Error> {
        let kings = king_filter.map(crate::build::kings_code);
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
            if let (Some(k), Some(doc)) = (kings, c.kings.first(addr.doc_id)) {
                if !kings_near(k, doc) {
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
        let mut doc: std::collections::HashSet<String> = terms::document_text(&other)
            .split(' ')
            .map(String::from)
            .collect();
        doc.extend(terms::chunks::terms(&self.chunks, &other));
        let mut seen = std::collections::HashSet::new();
        let mut query = terms::query_terms(pos);
        query.extend(terms::chunks::terms(&self.chunks, pos));
        query
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
    /// BM25 over terms, MACH's chunk filters, or both.
    pub mode: Mode,
    /// MACH's R: classes and chunks that may be missing (the paper: 1).
    pub mach_r: usize,
    /// Chunk and class terms in the BM25 query.
    pub chunk_terms: bool,
    /// Only the games that reached this very position: no similar-position
    /// retrieval and no plans. For a caller that gives similar advice and
    /// plans no weight (the engine's defaults), where a BM25 query would
    /// spend milliseconds of the clock for nothing.
    pub exact_only: bool,
}

/// How similar positions are found (`AdvisorMode`, `mach advise --mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// BM25 over the position's terms, chunk terms included (Ganguly et al.).
    #[default]
    Bm25,
    /// MACH's three filters: classes, chunks, kings; ranked by the chunks.
    Mach,
    /// MACH's filters, ranked by BM25 over all terms.
    Both,
    /// The nearest positions by the autoencoder's vector ("Reconstructing
    /// chess positions"; the index's `vectors.bin`).
    Embed,
    /// BM25's and the vectors' rankings fused (reciprocal rank fusion).
    Fused,
}

/// Reciprocal rank fusion's constant (Cormack, Clarke & Büttcher 2009: 60).
const FUSION_K: f32 = 60.0;

/// Fuses rankings of games: each game scores the sum over the lists of
/// 1 / (60 + its rank there), scaled so a game first in every list scores
/// 1; of a game's positions, the one of the list where it ranks best is kept.
fn fuse(lists: &[Vec<Hit>]) -> Vec<Hit> {
    let mut by_game: std::collections::HashMap<u32, (f32, usize, Hit)> = Default::default();
    for list in lists {
        for (rank, h) in list.iter().enumerate() {
            let e = by_game
                .entry(h.game)
                .or_insert_with(|| (0.0, usize::MAX, h.clone()));
            e.0 += 1.0 / (FUSION_K + rank as f32 + 1.0);
            if rank < e.1 {
                e.1 = rank;
                e.2 = h.clone();
            }
        }
    }
    let best = lists.len() as f32 / (FUSION_K + 1.0);
    let mut out: Vec<Hit> = by_game
        .into_values()
        .map(|(score, _, h)| Hit {
            score: score / best,
            ..h
        })
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.game.cmp(&b.game)));
    out
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "bm25" => Ok(Mode::Bm25),
            "mach" => Ok(Mode::Mach),
            "both" => Ok(Mode::Both),
            "embed" => Ok(Mode::Embed),
            "fused" => Ok(Mode::Fused),
            _ => Err(format!(
                "unknown mode {s:?}: bm25, mach, both, embed or fused"
            )),
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Mode::Bm25 => "bm25",
            Mode::Mach => "mach",
            Mode::Both => "both",
            Mode::Embed => "embed",
            Mode::Fused => "fused",
        })
    }
}

/// MACH's third filter: each king within this many king steps of where it
/// stands in the query ("if the king is supposed to be on e1 but is in fact
/// on h8 then there is no similarity at all").
pub const KING_FILTER_STEPS: u32 = 2;

fn kings_near(a: u64, b: u64) -> bool {
    let sq = |v: u64| shakmaty::Square::new((v % 64) as u32);
    sq(a / 64).distance(sq(b / 64)) <= KING_FILTER_STEPS
        && sq(a).distance(sq(b)) <= KING_FILTER_STEPS
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
            mode: Mode::Bm25,
            mach_r: 1,
            chunk_terms: true,
            exact_only: false,
        }
    }
}

#[cfg(test)]
mod fusion_tests {
    use super::*;

    fn hit(game: u32, ply: u16) -> Hit {
        Hit {
            game,
            ply,
            score: 1.0,
            exact: false,
            next: None,
        }
    }

    #[test]
    fn games_found_by_both_rankings_come_before_those_found_by_one() {
        let terms = vec![hit(1, 30), hit(2, 40), hit(3, 50)];
        let vectors = vec![hit(4, 31), hit(2, 44), hit(1, 33)];
        let fused = fuse(&[terms, vectors]);
        let order: Vec<u32> = fused.iter().map(|h| h.game).collect();
        // 1: 1/61 + 1/63 > 2: 2/62 > 4: 1/61 > 3: 1/63.
        assert_eq!(order, vec![1, 2, 4, 3]);
        // A game keeps the position where it ranked best (game 1: first in
        // the first list; game 2, second in both: the first list's).
        assert_eq!((fused[0].ply, fused[1].ply), (30, 40));
        assert!(fused.iter().all(|h| h.score > 0.0 && h.score <= 1.0));
    }
}
