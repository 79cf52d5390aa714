//! `mach index` end to end: the fixture with awkward games, and the default
//! database (4,000 games) in release mode.

use mach_advisor::build::{build, BuildOptions, Progress};
use mach_advisor::index::{Meta, FORMAT};
use mach_advisor::retrieval::QueryOptions;
use mach_advisor::service::Answer;
use mach_advisor::{AdvisorIndex, Error};
use mach_tests::{books_dir, temp_dir};
use shakmaty::{Chess, FromSetup, Position};

fn opts(inputs: Vec<std::path::PathBuf>, out: std::path::PathBuf) -> BuildOptions {
    BuildOptions {
        inputs: inputs.into_iter().map(Into::into).collect(),
        out,
        threads: 2,
        heap_mb: 64,
        ..BuildOptions::default()
    }
}

#[test]
fn awkward_fixture_is_indexed_with_reasons() {
    let scratch = temp_dir("fixture");
    let dir = scratch.path();
    let out = dir.join("idx");
    let s = build(
        &opts(vec![books_dir().join("fixtures/awkward.pgn")], out.clone()),
        &Progress::default(),
    )
    .unwrap();
    assert_eq!(s.games_read, 8);
    assert_eq!(s.games_indexed, 5, "{:?}", s.troubles);
    for reason in [
        "variant (not standard chess)",
        "no moves",
        "bad FEN tag",
        "cut at an illegal move",
    ] {
        assert_eq!(
            s.troubles.get(reason),
            Some(&1),
            "{reason}: {:?}",
            s.troubles
        );
    }
    let idx = AdvisorIndex::open(&out).unwrap();
    let names: Vec<String> = (0..5).map(|i| idx.games.get(i).unwrap().white).collect();
    assert!(
        names.contains(&"Ljubojevi\u{e6}, Ljubomir".to_string()),
        "{names:?}"
    );
    // The cut game keeps its first four plies; the SetUp game starts from its FEN.
    let cut = (0..5)
        .map(|i| idx.games.get(i).unwrap())
        .find(|g| g.white == "Zeta")
        .unwrap();
    assert_eq!(cut.moves.len(), 4);
    let endgame = (0..5)
        .map(|i| idx.games.get(i).unwrap())
        .find(|g| g.white == "Delta")
        .unwrap();
    assert_eq!(endgame.start().board().occupied().count(), 3);
    // Exact lookup of the endgame's start position finds it at ply 0.
    let hits = idx.exact(&endgame.start());
    assert!(hits.iter().any(|h| h.ply == 0 && h.exact), "{hits:?}");

    // --append adds the games again, with new ids.
    let mut o = opts(vec![books_dir().join("fixtures/awkward.pgn")], out.clone());
    o.append = true;
    build(&o, &Progress::default()).unwrap();
    let idx = AdvisorIndex::open(&out).unwrap();
    assert_eq!(idx.meta.games, 10);
    assert_eq!(idx.exact(&endgame.start()).len(), 2);
}

#[test]
fn broken_indexes_give_clear_errors_and_a_failed_build_keeps_the_old_index() {
    let scratch = temp_dir("broken");
    let dir = scratch.path();
    let out = dir.join("idx");
    build(
        &opts(vec![books_dir().join("fixtures/awkward.pgn")], out.clone()),
        &Progress::default(),
    )
    .unwrap();

    // A build that fails (missing input) leaves the good index in place.
    let bad = build(
        &opts(vec![dir.join("no-such.pgn")], out.clone()),
        &Progress::default(),
    );
    assert!(matches!(bad, Err(Error::Input(_))));
    assert!(AdvisorIndex::open(&out).is_ok());

    assert!(matches!(
        AdvisorIndex::open(&dir.join("missing")),
        Err(Error::NotAnIndex(_))
    ));

    let meta = std::fs::read_to_string(out.join("meta.txt")).unwrap();
    std::fs::write(
        out.join("meta.txt"),
        meta.replace(&format!("format = {FORMAT}"), "format = 99"),
    )
    .unwrap();
    let e = AdvisorIndex::open(&out).err().unwrap();
    assert!(matches!(e, Error::Version { found: 99, .. }), "{e}");
    assert!(e.to_string().contains("rebuild"), "{e}");
    std::fs::write(out.join("meta.txt"), meta).unwrap();

    std::fs::write(out.join("keys.bin"), b"truncated").unwrap();
    assert!(matches!(AdvisorIndex::open(&out), Err(Error::Corrupt(_))));
    std::fs::remove_dir_all(out.join("tantivy")).unwrap();
    assert!(matches!(AdvisorIndex::open(&out), Err(Error::Corrupt(_))));
}

#[test]
fn default_database_is_indexed_and_positions_are_found() {
    let scratch = temp_dir("default-db");
    let dir = scratch.path();
    let out = dir.join("idx");
    let db = books_dir().join("gm2700-classical-4000.pgn");
    let s = build(&opts(vec![db], out.clone()), &Progress::default()).unwrap();
    assert_eq!(s.games_read, 4000);
    assert_eq!(s.games_indexed, 4000);
    let idx = AdvisorIndex::open(&out).unwrap();
    let meta = Meta::read(&out).unwrap();
    assert_eq!(idx.games.len(), 4000);
    assert_eq!(idx.keys.len() as u64, meta.positions);
    // Every game contributes its plies + 1 exact positions, and documents
    // from ply 24 on (for every ply that has a next move).
    let (mut positions, mut documents) = (0u64, 0u64);
    for g in 0..4000 {
        let n = idx.games.get(g).unwrap().moves.len() as u64;
        positions += n + 1;
        documents += n.saturating_sub(24);
    }
    assert_eq!(meta.positions, positions);
    assert_eq!(idx.documents(), documents);

    // A middlegame position of a known game (the first: Kasparov-Karpov,
    // Moscow 1984, after 15 moves) is found exactly and by similarity.
    let game = idx.games.get(0).unwrap();
    assert!(game.white.starts_with("Kasparov"), "{}", game.white);
    let (pos, next) = game.position_at(30).unwrap();
    let exact = idx.exact(&pos);
    assert!(exact.iter().any(|h| h.game == 0 && h.ply == 30));
    let hits = idx.similar(&pos, 1000, 10).unwrap();
    assert_eq!(hits[0].game, 0, "{hits:?}");
    assert!(hits[0].exact);
    assert_eq!(
        hits[0].next,
        next.map(|m| mach_advisor::store::encode_move(m) as u64)
    );

    // By similarity alone: the same position's document ranks first.
    let searcher = idx.reader.searcher();
    let top = searcher
        .search(
            &idx.query_for(&pos),
            &tantivy::collector::TopDocs::with_limit(1).order_by_score(),
        )
        .unwrap();
    let ff = searcher.segment_reader(top[0].1.segment_ord).fast_fields();
    let game = ff.u64("game").unwrap().first(top[0].1.doc_id).unwrap() as u32;
    let ply = ff.u64("ply").unwrap().first(top[0].1.doc_id).unwrap() as u16;
    // Several games reached this very position (game 7 of the same match
    // too); the best document is one of them.
    assert!(
        exact.iter().any(|h| (h.game, h.ply) == (game, ply)),
        "{game} {ply} not in {exact:?}"
    );

    // The paper's Figure 3b: the same position with a piece moved to a
    // square it could reach is still found among the first five games.
    let moved = moved_piece_variants(&pos);
    assert!(!moved.is_empty());
    for (what, p) in &moved {
        assert!(
            idx.exact(p).iter().all(|h| h.game != 0),
            "{what} should not be an exact match"
        );
        let hits = idx.similar(p, 1000, 5).unwrap();
        assert!(hits.iter().any(|h| h.game == 0), "{what}: {hits:?}");
    }

    // Exact-only advice (the engine's default, where similar advice has no
    // weight) gives the very position the same suggestions as full
    // retrieval, from exact games only, and a merely similar one nothing.
    let full = idx.advise(&pos, &QueryOptions::default()).unwrap();
    let only = QueryOptions {
        exact_only: true,
        ..QueryOptions::default()
    };
    let exact_advice = idx.advise(&pos, &only).unwrap();
    assert!(full.exact && exact_advice.exact);
    assert!(!exact_advice.hits.is_empty());
    assert!(exact_advice.hits.iter().all(|h| h.exact));
    let suggested = |a: &mach_advisor::advice::Advice| -> Vec<(String, u32, u32)> {
        a.moves
            .iter()
            .map(|s| (s.mv.to_string(), s.games, (s.weight * 1e4) as u32))
            .collect()
    };
    assert_eq!(suggested(&exact_advice), suggested(&full));
    let (what, p) = &moved[0];
    let similar_only = idx.advise(p, &only).unwrap();
    assert!(similar_only.hits.is_empty(), "{what}");
    assert!(
        similar_only.moves.is_empty() && !similar_only.exact,
        "{what}"
    );
    assert!(!idx
        .advise(p, &QueryOptions::default())
        .unwrap()
        .hits
        .is_empty());

    // The start position is in every game (exact), and has no similarity document.
    assert!(idx.exact(&Chess::default()).len() >= 3990);

    // The advisor thread reads the exact games once for both answers; its
    // book counts every game that reached the position and went on, move by
    // move, as the direct call does, and its exact advice weighs all those
    // games (not only the first k hits).
    let service = mach_advisor::service::AdvisorService::start(&out).unwrap();
    let (tx, rx) = (service.sender(), service.receiver());
    for (id, p) in [(1u64, Chess::default()), (2, pos.clone())] {
        tx.send(mach_advisor::service::Request {
            id,
            pos: p.clone(),
            options: only.clone(),
            prefetch: false,
        })
        .unwrap();
        let wait = std::time::Duration::from_secs(60);
        let (book, advice) = match (rx.recv_timeout(wait), rx.recv_timeout(wait)) {
            (Ok(b), Ok(a)) => (b, a),
            other => panic!("no answers: {:?}", other.0.is_ok()),
        };
        assert!(book.id == id && advice.id == id);
        let (Answer::Book(book), Answer::Advice(Ok(advice))) = (book.answer, advice.answer) else {
            panic!("the book first, then the advice");
        };
        assert_eq!(book, idx.book(&p));
        let played = idx.exact(&p).iter().filter(|h| h.next.is_some()).count();
        assert_eq!(book.iter().map(|b| b.games as usize).sum::<usize>(), played);
        assert!(book.iter().all(|b| b.wins + b.draws + b.losses <= b.games));
        let all = mach_advisor::advice::Advice {
            moves: mach_advisor::advice::from_book(&book),
            ..Default::default()
        };
        assert_eq!(suggested(&advice), suggested(&all));
        assert!(advice.exact);
    }
    drop(service);
}

/// Positions equal to `pos` but for one knight, bishop or rook moved to an
/// empty square it attacks (up to three such variants, legal ones only).
fn moved_piece_variants(pos: &Chess) -> Vec<(String, Chess)> {
    use shakmaty::{attacks, CastlingMode, Role};
    let mut out = Vec::new();
    let board = pos.board().clone();
    for (from, piece) in board.iter() {
        if !matches!(piece.role, Role::Knight | Role::Bishop | Role::Rook) {
            continue;
        }
        let reach = attacks::attacks(from, piece, board.occupied()) & !board.occupied();
        if let Some(to) = reach.into_iter().next() {
            let mut setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
            setup.board.discard_piece_at(from);
            setup.board.set_piece_at(to, piece);
            if let Ok(p) = Chess::from_setup(setup, CastlingMode::Standard) {
                out.push((format!("{piece:?} {from}-{to}"), p));
            }
        }
        if out.len() == 3 {
            break;
        }
    }
    out
}
