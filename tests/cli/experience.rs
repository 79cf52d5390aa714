//! The experience file through the real binary: what one process's searches
//! found is there for the next, two processes writing one file at once lose
//! nothing and each reads the other's games at its next game, a `mach learn`
//! killed mid-run keeps every record it wrote, a damaged or
//! foreign file is said in an `info string` and play goes on, `BookAnalysis`
//! judges book moves by the analysis, and `mach experience` reads, joins and
//! lists files.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{field, mach, temp, text, Engine, LONG};

/// An engine with experience on `file` (and nothing else that could answer
/// instead of a search: no book, no advisor).
fn engine_on(file: &Path, read_only: bool) -> Engine {
    let mut e = Engine::start();
    e.handshake();
    for (name, value) in [
        ("Advisor", "false"),
        ("OwnBook", "false"),
        ("Experience", "true"),
        ("ExperienceFile", file.to_str().unwrap()),
        (
            "ExperienceReadOnly",
            if read_only { "true" } else { "false" },
        ),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e
}

/// Plays one "game": the moves, one search at `depth`, then a new game.
fn one_game(e: &mut Engine, moves: &str, depth: u32) -> Vec<String> {
    e.send(&format!("position startpos moves {moves}"));
    e.send(&format!("go depth {depth}"));
    let (_, before) = e.bestmove(LONG);
    e.send("ucinewgame");
    before
}

fn stats(file: &Path) -> String {
    let out = Command::new(mach())
        .args(["experience", "stats", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    text(&out)
}

/// The number after `word` in `stats` output, e.g. `positions  12`.
fn figure(stats: &str, line: &str) -> u64 {
    stats
        .lines()
        .find(|l| l.starts_with(line))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line} in {stats}"))
}

#[test]
fn what_one_process_searched_is_known_to_the_next_and_read_only_writes_nothing() {
    let dir = temp("exp-next");
    let file = dir.path().join("mach.exp");
    let mut first = engine_on(&file, false);
    one_game(&mut first, "e2e4 e7e5 g1f3", 8);
    first.send("quit");
    assert!(first.wait_exit(LONG));
    let s = stats(&file);
    // One search and its backed-up score, of one position.
    assert_eq!(figure(&s, "positions"), 1, "{s}");
    let size = std::fs::metadata(&file).unwrap().len();

    let mut second = engine_on(&file, true);
    second.send("isready");
    let (said, _) = second.expect("experience opened", LONG, |l| {
        l.starts_with("info string experience:")
    });
    assert!(
        said.contains("1 positions") && said.contains("read-only"),
        "{said}"
    );
    let before = one_game(&mut second, "e2e4 e7e5 g1f3", 3);
    let known = before
        .iter()
        .find(|l| l.starts_with("info string experience: ") && l.contains("depth 8"))
        .unwrap_or_else(|| panic!("the earlier search is said: {before:#?}"));
    assert!(known.contains("score"), "{known}");
    second.send("quit");
    assert!(second.wait_exit(LONG));
    assert_eq!(
        std::fs::metadata(&file).unwrap().len(),
        size,
        "read-only wrote"
    );
}

#[test]
fn a_position_the_game_reached_before_is_not_kept_as_its_score_may_be_a_repetition() {
    let dir = temp("exp-rep");
    let file = dir.path().join("mach.exp");
    let mut e = engine_on(&file, false);
    // The start position again after two knight tours: its search sees
    // the repetition, so what it finds belongs to this game only.
    one_game(&mut e, "g1f3 g8f6 f3g1 f6g8", 6);
    e.send("quit");
    assert!(e.wait_exit(LONG));
    assert!(!file.exists(), "a repeated position was kept");
    // The same position reached once is kept.
    let mut e = engine_on(&file, false);
    one_game(&mut e, "g1f3 g8f6", 6);
    e.send("quit");
    assert!(e.wait_exit(LONG));
    assert_eq!(figure(&stats(&file), "positions"), 1);
}

#[test]
fn two_engines_writing_one_file_at_once_lose_nothing() {
    let dir = temp("exp-two");
    let file = dir.path().join("shared.exp");
    let openings: [&[&str]; 2] = [
        &[
            "e2e4", "d2d4", "c2c4", "g1f3", "b1c3", "f2f4", "g2g3", "b2b3",
        ],
        &[
            "a2a3", "h2h3", "a2a4", "h2h4", "b2b4", "g2g4", "d2d3", "e2e3",
        ],
    ];
    let threads: Vec<_> = openings
        .into_iter()
        .map(|moves| {
            let file = file.clone();
            std::thread::spawn(move || {
                let mut e = engine_on(&file, false);
                for m in moves {
                    one_game(&mut e, m, 5);
                }
                e.send("quit");
                assert!(e.wait_exit(LONG));
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let s = stats(&file);
    // 16 games of one search each: 16 positions, each with its search
    // record and its backed-up record, none torn.
    assert_eq!(figure(&s, "positions"), 16, "{s}");
    assert!(s.contains("32 records, 0 damaged bytes"), "{s}");
}

#[test]
fn one_engines_game_reaches_the_other_engine_sharing_the_file_at_its_next_game() {
    let dir = temp("exp-reach");
    let file = dir.path().join("shared.exp");
    let mut a = engine_on(&file, false);
    let mut b = engine_on(&file, false);
    // B has read the file (empty) and played a game of its own.
    one_game(&mut b, "g2g3", 4);
    // Then A finds something deep, ends its game and quits (`readyok`
    // would not say the game was written: `isready` is answered at once).
    one_game(&mut a, "d2d4 d7d5", 8);
    a.send("quit");
    assert!(a.wait_exit(LONG));
    // B's next game knows it, without a restart.
    b.send("ucinewgame");
    let before = one_game(&mut b, "d2d4 d7d5", 3);
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string experience: ") && l.contains("depth 8")),
        "A's search reached B: {before:#?}"
    );
    b.send("quit");
    assert!(b.wait_exit(LONG));
}

#[test]
fn a_foreign_file_is_said_and_left_alone_and_a_torn_one_keeps_its_records() {
    let dir = temp("exp-bad");
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "my own notes\n").unwrap();
    let mut e = engine_on(&foreign, false);
    e.send("isready");
    let (said, _) = e.expect("the foreign file is said", LONG, |l| {
        l.starts_with("info string experience:")
    });
    assert!(said.contains("not a Mach experience file"), "{said}");
    one_game(&mut e, "e2e4", 4);
    e.send("quit");
    assert!(e.wait_exit(LONG));
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "my own notes\n");

    // A file whose writer was killed mid-record: the records before and
    // after the torn one are all read, and the next game is added.
    let file = dir.path().join("torn.exp");
    let mut e = engine_on(&file, false);
    one_game(&mut e, "d2d4", 5);
    e.send("quit");
    assert!(e.wait_exit(LONG));
    let mut bytes = std::fs::read(&file).unwrap();
    let whole = bytes.len();
    let torn = bytes[16..16 + 11].to_vec();
    bytes.extend_from_slice(&torn);
    std::fs::write(&file, &bytes).unwrap();
    let mut e = engine_on(&file, false);
    e.send("isready");
    let (said, _) = e.expect("the file is read", LONG, |l| {
        l.starts_with("info string experience:")
    });
    assert!(said.contains("11 damaged bytes skipped"), "{said}");
    one_game(&mut e, "c2c4", 5);
    e.send("quit");
    assert!(e.wait_exit(LONG));
    let s = stats(&file);
    assert_eq!(figure(&s, "positions"), 2, "{s}");
    assert!(std::fs::metadata(&file).unwrap().len() > whole as u64 + 11);
}

#[test]
fn experience_merge_joins_files_and_export_lists_the_deepest_first() {
    let dir = temp("exp-merge");
    let (a, b) = (dir.path().join("a.exp"), dir.path().join("b.exp"));
    for (file, moves, depth) in [(&a, "e2e4", 6), (&b, "d2d4", 7)] {
        let mut e = engine_on(file, false);
        one_game(&mut e, moves, depth);
        e.send("quit");
        assert!(e.wait_exit(LONG));
    }
    let out = dir.path().join("both.exp");
    let run = |args: &[&str]| {
        let o = Command::new(mach()).args(args).output().unwrap();
        (o.status.success(), text(&o))
    };
    let (ok, said) = run(&[
        "experience",
        "merge",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        ok && said.contains("2 positions from 4 records of 2 files"),
        "{said}"
    );
    let (ok, listed) = run(&["experience", "export", out.to_str().unwrap()]);
    assert!(ok, "{listed}");
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 3, "{listed}");
    assert!(
        lines[1].contains("\t7\t") && lines[2].contains("\t6\t"),
        "{listed}"
    );
    // A file Mach did not write is never replaced.
    let mine = dir.path().join("mine.txt");
    std::fs::write(&mine, "keep me").unwrap();
    let (ok, said) = run(&[
        "experience",
        "merge",
        a.to_str().unwrap(),
        "--out",
        mine.to_str().unwrap(),
    ]);
    assert!(!ok && said.contains("not a Mach experience file"), "{said}");
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "keep me");
    let (ok, said) = run(&["experience", "stats", "/nonexistent/x.exp"]);
    assert!(!ok && said.contains("no such file"), "{said}");
}

#[test]
fn learn_analyses_the_positions_a_pgn_reaches_in_enough_games_between_the_plies_asked() {
    let dir = temp("exp-learn-pgn");
    let pgn = dir.path().join("games.pgn");
    // Three games share 1.e4 e5 2.Nf3; two of them also 2...Nc6, one 2...Nf6.
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0\n\n\
         [Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 0-1\n\n\
         [Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nf6 1/2-1/2\n",
    )
    .unwrap();
    let file = dir.path().join("learned.exp");
    let learn = |extra: &[&str]| {
        let mut args = vec![
            "learn",
            "--pgn",
            pgn.to_str().unwrap(),
            "--depth",
            "4",
            "--out",
            file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = Command::new(mach()).args(&args).output().unwrap();
        (o.status.success(), text(&o))
    };
    // Plies 2-4, in two games or more: after 1.e4 e5, after 2.Nf3, after
    // 2...Nc6 (2...Nf6 is one game's).
    let (ok, said) = learn(&["--from-ply", "2", "--to-ply", "4", "--min-games", "2"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("3 positions of the games (plies 2-4) reached in 2+ games")
            && said.contains("3 positions analysed"),
        "{said}"
    );
    assert_eq!(figure(&stats(&file), "learned"), 3);
    // In one game or more, ply 4 alone: 2...Nc6 and 2...Nf6, one new.
    let (ok, said) = learn(&["--from-ply", "4", "--to-ply", "4", "--min-games", "1"]);
    assert!(
        ok && said.contains("1 already analysed") && said.contains("1 to go"),
        "{said}"
    );
    assert_eq!(figure(&stats(&file), "learned"), 4);
    // Plies the wrong way round, and a missing file, are said; nothing is written.
    let (ok, said) = learn(&["--from-ply", "5", "--to-ply", "4"]);
    assert!(
        !ok && said.contains("--from-ply 5 is after --to-ply 4"),
        "{said}"
    );
    let o = Command::new(mach())
        .args(["learn", "--pgn", "/nonexistent/games.pgn", "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        !o.status.success() && text(&o).contains("no such file"),
        "{}",
        text(&o)
    );
    assert_eq!(figure(&stats(&file), "learned"), 4);
}

#[test]
fn learn_analyses_the_most_played_tree_positions_and_resumes_where_it_stopped() {
    let dir = temp("exp-learn");
    let file = dir.path().join("learned.exp");
    let run = |n: &str| {
        let o = Command::new(mach())
            .args([
                "learn",
                "--positions",
                n,
                "--depth",
                "5",
                "--out",
                file.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        text(&o)
    };
    let first = run("4");
    assert!(
        first.contains("4 to go") && first.contains("4 positions analysed"),
        "{first}"
    );
    let s = stats(&file);
    assert_eq!(figure(&s, "positions"), 4, "{s}");
    assert_eq!(figure(&s, "learned"), 4, "{s}");
    // Again with two more: the four are known, only two are analysed.
    let second = run("6");
    assert!(
        second.contains("4 already analysed") && second.contains("2 to go"),
        "{second}"
    );
    assert_eq!(figure(&stats(&file), "positions"), 6);
    // What was learned is what an engine with that file knows: the start
    // position is the most played of all.
    let mut e = engine_on(&file, true);
    e.send("position startpos");
    e.send("go depth 2");
    let (best, before) = e.bestmove(LONG);
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string experience: ") && l.contains("depth 5")),
        "{before:#?}"
    );
    // Deeper than the search by the margin, the analysis decides the move,
    // and its line is the last one before `bestmove`.
    let last = before
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(
        last.starts_with("info depth 5 ") && last.ends_with(&format!(" pv {best}")),
        "{before:#?}"
    );
}

#[test]
fn learn_killed_mid_run_keeps_every_record_it_wrote_and_goes_on_from_there() {
    let dir = temp("exp-kill");
    let file = dir.path().join("learned.exp");
    let learn = |positions: &str| {
        let mut c = Command::new(mach());
        c.args([
            "learn",
            "--positions",
            positions,
            "--depth",
            "9",
            "--out",
            file.to_str().unwrap(),
        ]);
        c
    };
    let mut child = learn("500")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Two batches on disk, then SIGKILL: no chance to finish anything.
    let deadline = Instant::now() + LONG;
    let enough = (mach_experience::file::HEADER.len() + 20 * mach_experience::RECORD_BYTES) as u64;
    while std::fs::metadata(&file).map_or(0, |m| m.len()) < enough {
        assert!(Instant::now() < deadline, "learn wrote nothing");
        std::thread::sleep(Duration::from_millis(2));
    }
    let before = mach_experience::file::scan_bytes(&std::fs::read(&file).unwrap()).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let after = mach_experience::read(&file).unwrap();
    assert!(after.records.len() >= before.records.len());
    assert_eq!(after.records[..before.records.len()], before.records[..]);
    // At worst one batch torn by the kill.
    assert!(after.skipped_bytes < 10 * 24, "{}", after.skipped_bytes);
    // A second run knows what the first finished and analyses only the rest.
    let done = after.records.len();
    let o = learn(&(done + 2).to_string()).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains(&format!("{done} already analysed")) && said.contains("2 to go"),
        "{said}"
    );
    assert_eq!(figure(&stats(&file), "positions"), done as u64 + 2);
}

/// An experience file that knows the start position at depth 20 (best
/// 1.a3, +30 for White) and every other first move's position at depth 19
/// with `black` for Black: deeper than the built-in analysis, so its
/// records are the ones that judge.
fn analysed_start(file: &Path, black: i16) {
    use mach_engine::{board, moves};
    use mach_experience::{Kind, Record};
    use shakmaty::{Chess, Position};
    let root = Chess::default();
    let record = |pos: &Chess, mv: u16, score: i16, depth: u8| Record {
        key: board::hash(pos),
        mv,
        score,
        depth,
        kind: Kind::Learned,
        minute: 1,
    };
    let a3 = board::parse_uci_move(&root, "a2a3").unwrap();
    let mut records = vec![record(&root, moves::encode(a3), 30, 20)];
    for m in root.legal_moves() {
        if m != a3 {
            let mut after = root.clone();
            after.play_unchecked(m);
            records.push(record(&after, moves::NO_MOVE, black, 19));
        }
    }
    mach_experience::write(file, &records).unwrap();
}

/// The book line of the start position on the clock, with `BookAnalysis`
/// on and the experience `file` (read-only).
fn book_line_with_analysis(file: &Path) -> String {
    let mut e = Engine::start();
    e.handshake();
    for (name, value) in [
        ("BookAnalysis", "true"),
        ("Experience", "true"),
        ("ExperienceReadOnly", "true"),
        ("ExperienceFile", file.to_str().unwrap()),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let line = e.expect_before_bestmove("the book's verdict", |l| {
        l.starts_with("info string book ") && l.contains(": ")
    });
    e.bestmove(LONG);
    e.send("quit");
    assert!(e.wait_exit(LONG));
    line
}

#[test]
fn with_book_analysis_a_memory_move_the_analysis_finds_worse_is_rejected_and_a_good_one_played_at_once(
) {
    let dir = temp("exp-judge");
    // Every book move 230 cp below 1.a3: rejected, the search decides.
    let worse = dir.path().join("worse.exp");
    analysed_start(&worse, 200);
    let said = book_line_with_analysis(&worse);
    assert!(
        said.contains(": rejected, 230 cp below a2a3 in Mach's analysis: depth 20, margin 50"),
        "{said}"
    );
    // Every book move 10 cp below it: within the margin, played with no
    // verification search.
    let good = dir.path().join("good.exp");
    analysed_start(&good, -20);
    let said = book_line_with_analysis(&good);
    assert!(
        said.contains(": played from memory (10 cp below a2a3 in Mach's analysis: depth 20"),
        "{said}"
    );
}

#[test]
fn by_default_a_memory_move_mach_has_analysed_is_played_at_once_with_its_analysed_line() {
    // `BookAnalysis` is on by default and the analysis of the grandmaster
    // tree is in the binary: the start position's book move is judged by
    // it, played without a search, and its depth and score are reported.
    let mut e = Engine::start();
    e.handshake();
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let (best, before) = e.bestmove(LONG);
    assert!(
        before
            .iter()
            .any(|l| l.starts_with(&format!("info string book {best}: played from memory ("))),
        "{before:#?}"
    );
    let line = before
        .iter()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {before:#?}"));
    let depth: i32 = field(line, "depth").unwrap().parse().unwrap();
    assert!(depth >= 10, "{line}");
    assert!(line.contains(" score cp "), "{line}");
    assert!(line.ends_with(&format!(" pv {best}")), "{line}");
    e.send("quit");
    assert!(e.wait_exit(LONG));
}
