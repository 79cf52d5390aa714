//! `mach tune` through the binary: a tune on a few built-in games writes a
//! psqt.rs of the engine's shape, the same for the same seed; bad input is a
//! clear error.

mod common;

use common::text;

use std::path::Path;
use std::process::{Command, Output};

fn mach(args: &[&str]) -> Output {
    common::run_mach(args)
}

/// A path `name`.rs not yet written, in a directory removed when it is dropped.
fn temp(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("mach-tune-{name}"), &format!("{name}.rs"))
}

/// Runs a small tune on the built-in games into `out`; returns the output.
fn small_tune(out: &Path) -> Output {
    mach(&[
        "tune",
        "builtin:gm2700-classical-4000.pgn",
        "--positions",
        "3000",
        "--epochs",
        "3",
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn a_tune_on_built_in_games_writes_a_psqt_with_every_constant_and_reports_the_losses() {
    let out = temp("shape");
    let o = small_tune(&out);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    for expected in [
        "K = ",
        "loss before: train",
        "held-out",
        "loss after 3 epochs",
    ] {
        assert!(t.contains(expected), "{expected} missing from:\n{t}");
    }
    let src = std::fs::read_to_string(&out).unwrap();
    for item in [
        "pub struct Weight",
        "pub const MATERIAL: [Weight; 6] = [",
        "pub const PHASE_INC: [i32; 6] = [0, 1, 1, 2, 4, 0];",
        "pub const PHASE_MAX: i32 = 24;",
        "pub const MOBILITY_MAX: [usize; 4] = [8, 13, 14, 27];",
        "pub const MOBILITY: [[Weight; 28]; 4] = [\n    [w(",
        "pub const BISHOP_PAIR: Weight = w(",
        "pub const TEMPO: i32 = ",
        "pub const MG_PST: [[i32; 64]; 6] = [",
        "pub const EG_PST: [[i32; 64]; 6] = [",
        "//! Command: `mach tune builtin:gm2700-classical-4000.pgn",
        "seed 7",
    ] {
        assert!(src.contains(item), "{item} missing from:\n{src}");
    }
    // 12 tables of 8 rows of 8 numbers.
    let rows = src
        .lines()
        .filter(|l| l.starts_with("        ") && l.split(',').count() == 9)
        .count();
    assert_eq!(rows, 96, "{src}");
}

#[test]
fn the_same_seed_writes_the_same_tables() {
    let (a, b) = (temp("seed-a"), temp("seed-b"));
    assert!(small_tune(&a).status.success());
    assert!(small_tune(&b).status.success());
    let strip = |p: &Path| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("//! Command"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn a_missing_file_a_bad_option_and_a_file_without_games_are_clear_errors() {
    let out = temp("bad");
    let o = mach(&["tune", "/no/such/games.pgn", "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("no such file"), "{}", text(&o));

    let o = mach(&[
        "tune",
        "builtin:gm2700-classical-4000.pgn",
        "--holdout",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("--holdout"), "{}", text(&o));

    let junk = temp("junk-pgn");
    std::fs::write(&junk, "this is not [ a PGN file }}} 1. e9 *\n").unwrap();
    let o = mach(&[
        "tune",
        junk.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("no training position") && !t.contains("panicked"),
        "{t}"
    );
    assert!(!out.exists());
}

#[test]
fn a_tune_never_overwrites_its_games_or_a_file_that_is_not_an_evaluation_source() {
    let games = temp("own-games");
    std::fs::write(
        &games,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let o = mach(&[
        "tune",
        games.to_str().unwrap(),
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("one of the games read"), "{}", text(&o));
    assert!(std::fs::read_to_string(&games)
        .unwrap()
        .starts_with("[Result"));

    let notes = temp("notes");
    std::fs::write(&notes, "my notes\n").unwrap();
    let o = small_tune(&notes);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("--force") && !t.contains("read "),
        "refused before reading games: {t}"
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");

    // An earlier tune's output is replaced without --force.
    let earlier = temp("earlier");
    assert!(small_tune(&earlier).status.success());
    assert!(small_tune(&earlier).status.success());

    let o = mach(&[
        "tune",
        "builtin:gm2700-classical-4000.pgn",
        "--out",
        "/no/such/dir/psqt.rs",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("no directory /no/such/dir"),
        "{}",
        text(&o)
    );
}

#[test]
fn sampled_positions_labelled_by_an_engine_tune_the_evaluation_towards_its_scores() {
    if !common::python_has("chess.engine", "the labelling test") {
        return;
    }
    let out = temp("labelled");
    let (positions, labelled) = (
        out.with_file_name("positions.epd"),
        out.with_file_name("labelled.epd"),
    );
    let o = mach(&[
        "tune",
        "builtin:gm2700-classical-4000.pgn",
        "--positions",
        "300",
        "--write-epd",
        positions.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("wrote 300 positions"), "{}", text(&o));
    let sampled = std::fs::read_to_string(&positions).unwrap();
    assert_eq!(sampled.lines().count(), 300);
    assert!(sampled.lines().all(|l| l.contains(" c9 \"")), "{sampled}");

    // A second --write-epd to the same file is refused: it is not replaced.
    let again = mach(&[
        "tune",
        "builtin:gm2700-classical-4000.pgn",
        "--write-epd",
        positions.to_str().unwrap(),
    ]);
    assert!(!again.status.success());
    assert!(text(&again).contains("--force"), "{}", text(&again));

    // Mach itself is the labelling engine here (CI has no other).
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/label.py");
    let o = Command::new("python3")
        .arg(&script)
        .args(["--engine", env!("CARGO_BIN_EXE_mach"), "--nodes", "300"])
        .args(["--option", "OwnBook=false", "--option", "Advisor=false"])
        .arg(&positions)
        .arg(&labelled)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let labels = std::fs::read_to_string(&labelled).unwrap();
    assert_eq!(labels.lines().count(), 300, "no line lost");
    let with_ce = labels.lines().filter(|l| l.contains(" ce ")).count();
    assert!(with_ce > 250, "{with_ce} of 300 labelled");

    let o = mach(&[
        "tune",
        labelled.to_str().unwrap(),
        "--from-psqt",
        "--epochs",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("labelled positions"), "{t}");
    let train = |when: &str| -> f64 {
        let at = t.find(when).unwrap() + when.len();
        let rest = &t[at..];
        let num = rest.split("train ").nth(1).unwrap();
        num.split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(train("loss after") < train("loss before"), "{t}");
    let src = std::fs::read_to_string(&out).unwrap();
    assert!(src.contains("labelled by ce"), "{src}");

    // Games and labels are not mixed.
    let o = mach(&[
        "tune",
        labelled.to_str().unwrap(),
        "builtin:gm2700-classical-4000.pgn",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("not both"), "{}", text(&o));
}
