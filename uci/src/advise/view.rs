//! What `mach advise` shows, gathered once for the terminal, the HTML page and `mach explore`:
//! the position, its opening's name, the advice with its statistics, and each retrieved game.

use mach_advisor::advice::{from_book, map_played, Advice};
use mach_advisor::book::BookMove;
use mach_advisor::opening_tree::OpeningTree;
use mach_advisor::pgn::GameResult;
use mach_advisor::retrieval::{Mode, QueryOptions};
use mach_advisor::store::{decode_move, StoredGame};
use mach_advisor::AdvisorIndex;
use mach_engine::board;
use shakmaty::{fen::Fen, san::SanPlus, Bitboard, Chess, Color, EnPassantMode, Move, Position};

use crate::advise::named_openings::{self, Named};
use crate::advise::position_input::Line;
use crate::uci::advice_policy::{deliver, Weights};

/// One suggested move with what the grandmasters made of it.
#[derive(Clone, Debug)]
pub struct MoveRow {
    pub mv: Move,
    pub san: String,
    pub uci: String,
    pub games: u32,
    /// Results for the side that played it.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Average rating of the players who chose it (None when no rating is known).
    pub avg_elo: Option<u16>,
    /// Its share of the evidence, in (0, 1].
    pub share: f32,
    /// Centipawns the search would add to it with the default weights (0: none).
    pub bonus: i32,
}

/// One retrieved game, at its position most like the query.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub exact: bool,
    pub score: f32,
    pub white: String,
    pub black: String,
    pub white_elo: u16,
    pub black_elo: u16,
    pub year: u16,
    pub event: String,
    pub result: &'static str,
    /// The retrieved position and the ply it was reached at.
    pub there: Chess,
    pub ply: usize,
    /// The grandmaster's move there.
    pub played: Option<Move>,
    pub played_san: Option<String>,
    /// Squares holding the same piece here and in the query.
    pub shared: Bitboard,
    /// Query terms the retrieved position also has.
    pub matched: Vec<String>,
    /// Found by its vector ("alike by shape"; `score` is then the
    /// similarity in [0, 1]), not by BM25.
    pub by_shape: bool,
    /// The whole game: board FEN of the start, then (SAN, board FEN after) per ply.
    pub start_board: String,
    pub plies: Vec<(String, String)>,
    pub pgn: String,
}

/// Everything the outputs show.
#[derive(Clone, Debug)]
pub struct View {
    pub line: Line,
    pub fen: String,
    pub opening: Option<Named>,
    /// The advice comes from games that reached this very position.
    pub exact: bool,
    pub query_ms: f64,
    pub dropped: u32,
    pub index_dir: String,
    /// An index was read (not the opening tree alone).
    pub indexed: bool,
    /// Games of the opening tree through this position (0: none, or the tree is off).
    pub tree_games: u32,
    pub moves: Vec<MoveRow>,
    pub games: Vec<GameRow>,
    /// Chunks found in the position: (name, class, pieces covered, advice).
    pub chunks: Vec<(String, String, u32, Vec<String>)>,
    /// The games alike by shape (nearest by vector), when asked for.
    pub shape: Vec<GameRow>,
    /// Why there are none (no vectors, damaged vectors), when asked for.
    pub shape_note: Option<String>,
}

/// Games shown alike by shape, beside those alike by terms.
pub const SHAPE_GAMES: usize = 6;

/// The memory `gather` reads: an index, the opening tree, or both
/// (`merge`: the index's games are added to the tree's, see `exact_memory::book_of`).
pub struct Memory<'a> {
    pub index: Option<&'a AdvisorIndex>,
    pub tree: Option<&'a OpeningTree<'a>>,
    pub merge: bool,
    /// Also the games alike by shape (the pages' column; the terminal
    /// does without).
    pub shapes: bool,
}

/// Asks the memory about `line`'s position and gathers what the outputs
/// show. Where the book knows the position, the advice is its statistics
/// (the tree's games and the index's), as in play.
pub fn gather(
    memory: &Memory,
    line: Line,
    o: &QueryOptions,
    weights: Weights,
) -> Result<View, String> {
    let pos = line.pos().clone();
    let (mut advice, exact) = match memory.index {
        Some(index) => (
            index.advise(&pos, o).map_err(|e| e.to_string())?,
            index.exact(&pos),
        ),
        None => (Advice::default(), Vec::new()),
    };
    let book = mach_advisor::exact_memory::book_of(
        &pos,
        memory.tree,
        memory.index.map(|i| (i, exact.as_slice())),
        memory.merge,
    );
    if !book.is_empty() {
        advice.moves = from_book(&book);
        advice.exact = true;
    }
    let games: Vec<GameRow> = match memory.index {
        Some(index) => advice
            .hits
            .iter()
            .filter_map(|h| game_row(index, &pos, h))
            .collect(),
        None => Vec::new(),
    };
    let (shape, shape_note) = match memory.index {
        Some(index) if memory.shapes => alike_by_shape(index, &pos, o),
        _ => (Vec::new(), None),
    };
    let moves = move_rows(memory.index, &pos, &advice, &book, weights);
    let chunks = match memory.index {
        Some(index) => index
            .chunks
            .find(pos.board())
            .iter()
            .map(|f| {
                let inst = &index.chunks.instances[f.instance];
                (
                    inst.name.clone(),
                    inst.class.clone(),
                    f.covered.count() as u32,
                    inst.advice.clone(),
                )
            })
            .collect(),
        None => Vec::new(),
    };
    Ok(View {
        fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        opening: named_openings::of_line(&line.positions),
        exact: advice.exact,
        query_ms: advice.query_ms,
        dropped: advice.dropped,
        indexed: memory.index.is_some(),
        index_dir: memory
            .index
            .map_or_else(|| "no index".into(), |i| i.dir.display().to_string()),
        tree_games: memory.tree.map_or(0, |t| t.games_at(&pos)),
        moves,
        games,
        chunks,
        shape,
        shape_note,
        line,
    })
}

/// The games whose positions are nearest `pos` by vector, or why there
/// are none.
fn alike_by_shape(
    index: &AdvisorIndex,
    pos: &Chess,
    o: &QueryOptions,
) -> (Vec<GameRow>, Option<String>) {
    if index.vectors.is_none() {
        let why = match &index.vectors_trouble {
            Some(why) => why.clone(),
            None => "this index has no position vectors: write them with `mach embed index`".into(),
        };
        return (Vec::new(), Some(why));
    }
    let by_vector = QueryOptions {
        mode: Mode::Embed,
        k: SHAPE_GAMES,
        fetch: 200,
        exact_only: false,
        ..o.clone()
    };
    match index.similar_given(pos, &by_vector, Vec::new()) {
        Ok(hits) => (
            hits.iter()
                .filter_map(|h| game_row(index, pos, h))
                .map(|g| GameRow {
                    by_shape: true,
                    ..g
                })
                .collect(),
            None,
        ),
        Err(e) => (Vec::new(), Some(e.to_string())),
    }
}

/// The suggestions with SAN, average rating and search bonus.
fn move_rows(
    index: Option<&AdvisorIndex>,
    pos: &Chess,
    advice: &Advice,
    book: &[BookMove],
    w: Weights,
) -> Vec<MoveRow> {
    let bonus = deliver(advice, w).bonuses;
    // Ratings of the players behind each mapped move (the hits the advice counted).
    let mut ratings: Vec<(Move, u16)> = Vec::new();
    for h in advice.hits.iter().filter(|h| h.exact || !advice.exact) {
        let (Some(next), Some(g)) = (h.next, index.and_then(|i| i.games.get(h.game))) else {
            continue;
        };
        let Some((m, _)) = map_played(pos, next) else {
            continue;
        };
        let mover_white = g
            .position_at(h.ply as usize)
            .is_some_and(|(p, _)| p.turn() == Color::White);
        let elo = if mover_white {
            g.white_elo
        } else {
            g.black_elo
        };
        if elo > 0 {
            ratings.push((m, elo));
        }
    }
    advice
        .moves
        .iter()
        .map(|s| {
            let r: Vec<u32> = ratings
                .iter()
                .filter(|(m, _)| *m == s.mv)
                .map(|(_, e)| *e as u32)
                .collect();
            MoveRow {
                mv: s.mv,
                san: SanPlus::from_move(pos.clone(), s.mv).to_string(),
                uci: board::uci(s.mv, false),
                games: s.games,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                avg_elo: match book.iter().find(|b| b.mv == s.mv) {
                    Some(b) => (b.avg_elo > 0).then_some(b.avg_elo),
                    None => {
                        (!r.is_empty()).then(|| (r.iter().sum::<u32>() / r.len() as u32) as u16)
                    }
                },
                share: s.weight,
                bonus: bonus
                    .iter()
                    .find(|(m, _)| *m == s.mv)
                    .map_or(0, |(_, b)| *b),
            }
        })
        .collect()
}

/// A game's result as PGN writes it.
pub fn result_text(r: GameResult) -> &'static str {
    match r {
        GameResult::WhiteWins => "1-0",
        GameResult::Draw => "1/2-1/2",
        GameResult::BlackWins => "0-1",
        GameResult::Unknown => "*",
    }
}

/// One retrieved game as the outputs show it (None if its moves do not replay).
fn game_row(
    index: &AdvisorIndex,
    pos: &Chess,
    h: &mach_advisor::retrieval::Hit,
) -> Option<GameRow> {
    let g = index.games.get(h.game)?;
    let (there, played) = g.position_at(h.ply as usize)?;
    let mut shared = Bitboard::EMPTY;
    for (sq, p) in there.board().iter() {
        if pos.board().piece_at(sq) == Some(p) {
            shared.add(sq);
        }
    }
    let (start_board, plies) = replay(&g);
    let result = result_text(g.result);
    Some(GameRow {
        exact: h.exact,
        score: h.score,
        played_san: played.map(|m| SanPlus::from_move(there.clone(), m).to_string()),
        matched: index.matched_terms(pos, h),
        by_shape: false,
        pgn: pgn_text(&g, &plies, result),
        white: g.white,
        black: g.black,
        white_elo: g.white_elo,
        black_elo: g.black_elo,
        year: g.year,
        event: g.event,
        result,
        there,
        ply: h.ply as usize,
        played,
        shared,
        start_board,
        plies,
    })
}

/// The board FEN of a game's start, and (SAN, board FEN after) for each of its moves.
fn replay(g: &StoredGame) -> (String, Vec<(String, String)>) {
    let mut pos = g.start();
    let start = pos.board().to_string();
    let mut out = Vec::with_capacity(g.moves.len());
    for &code in &g.moves {
        let Some(m) = decode_move(&pos, code) else {
            break;
        };
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        out.push((san, pos.board().to_string()));
    }
    (start, out)
}

/// The game as PGN text, for its download link.
fn pgn_text(g: &StoredGame, plies: &[(String, String)], result: &str) -> String {
    let q = |s: &str| s.replace(['"', '\\'], "");
    let mut out = format!(
        "[Event \"{}\"]\n[Date \"{}.??.??\"]\n[White \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n",
        q(&g.event),
        if g.year > 0 { g.year.to_string() } else { "????".into() },
        q(&g.white),
        q(&g.black)
    );
    if g.white_elo > 0 {
        out.push_str(&format!("[WhiteElo \"{}\"]\n", g.white_elo));
    }
    if g.black_elo > 0 {
        out.push_str(&format!("[BlackElo \"{}\"]\n", g.black_elo));
    }
    if let Some(f) = &g.fen {
        out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", q(f)));
    }
    out.push('\n');
    let start = g.start();
    let white_first = start.turn() == Color::White;
    let first_no = start.fullmoves().get();
    let mut words = Vec::new();
    for (i, (san, _)) in plies.iter().enumerate() {
        let white = (i % 2 == 0) == white_first;
        let no = first_no as usize + (i + usize::from(!white_first)) / 2;
        if white {
            words.push(format!("{no}."));
        } else if i == 0 {
            words.push(format!("{no}..."));
        }
        words.push(san.clone());
    }
    words.push(result.to_string());
    let mut width = 0;
    for w in words {
        if width + w.len() > 79 {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        width += w.len();
        out.push_str(&w);
    }
    out.push_str("\n\n");
    out
}
