//! `mach embed` through the binary: a small training on the built-in games
//! writes a network that `mach embed test` reads and measures, the same
//! seed writes the same bytes, and bad input (a foreign --out, a damaged
//! network file, impossible sizes) is a clear error that writes nothing;
//! an index with vectors (and their graph) answers by nearest vector and its
//! advice page shows the games alike by shape.

mod common;

use common::text;

use std::path::Path;
use std::process::{Command, Output};

fn mach(args: &[&str]) -> Output {
    common::run_mach(args)
}

/// A path `name`.vec not yet written, in a directory removed when it is dropped.
fn temp(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("mach-embed-{name}"), &format!("{name}.vec"))
}

/// A small training on the built-in games into `out`; `extra` holds flag
/// and value pairs that replace the defaults or add to them.
fn small_training(out: &Path, extra: &[&str]) -> Output {
    let mut flags: Vec<(&str, &str)> = vec![
        ("--positions", "3000"),
        ("--held-out", "300"),
        ("--code", "16"),
        ("--epochs", "2"),
        ("--seed", "5"),
    ];
    for pair in extra.chunks(2) {
        match flags.iter_mut().find(|(f, _)| *f == pair[0]) {
            Some(f) => f.1 = pair[1],
            None => flags.push((pair[0], pair[1])),
        }
    }
    let mut args = vec!["embed", "train", "--out", out.to_str().unwrap()];
    for (f, v) in flags {
        args.extend([f, v]);
    }
    mach(&args)
}

#[test]
fn a_small_training_prints_its_learning_curve_and_writes_a_network_the_test_measures() {
    let out = temp("curve");
    let o = small_training(&out, &[]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    common::assert_says(
        &t,
        &[
            "3000 positions of",
            "held-out positions of",
            "epoch 1/2: training loss",
            "epoch 2/2: training loss",
            "held-out wrong squares",
            "trained after 2 epochs",
        ],
    );
    let o = mach(&[
        "embed",
        "test",
        "--weights",
        out.to_str().unwrap(),
        "--positions",
        "500",
        "--random",
        "200",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    common::assert_says(
        &t,
        &[
            "code 16, output squares",
            "real positions (500 of",
            "wrong squares per position",
            "MACH's memory test",
            "random positions (200, seed",
        ],
    );
}

#[test]
fn the_same_seed_writes_the_same_network_and_another_seed_another() {
    let (a, b, c) = (temp("a"), temp("b"), temp("c"));
    for (out, seed) in [(&a, "5"), (&b, "5"), (&c, "6")] {
        let o = small_training(out, &["--epochs", "1", "--seed", seed]);
        assert!(o.status.success(), "{}", text(&o));
    }
    let read = |p: &common::Scratch| std::fs::read(p.as_ref() as &Path).unwrap();
    assert_eq!(read(&a), read(&b));
    assert_ne!(read(&a), read(&c));
}

#[test]
fn a_file_mach_did_not_write_is_not_replaced_and_a_damaged_network_is_refused() {
    let out = temp("foreign");
    std::fs::write(&*out, "my notes\n").unwrap();
    let o = small_training(&out, &[]);
    assert!(!o.status.success());
    assert!(text(&o).contains("not replaced"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&*out).unwrap(), "my notes\n");

    let o = mach(&["embed", "test", "--weights", out.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("not a Mach vector network"),
        "{}",
        text(&o)
    );

    let good = temp("good");
    assert!(small_training(&good, &["--epochs", "1"]).status.success());
    let mut bytes = std::fs::read(&*good).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&*good, &bytes).unwrap();
    let o = mach(&["embed", "test", "--weights", good.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("checksum"), "{}", text(&o));
}

#[test]
fn impossible_sizes_are_refused_before_any_work() {
    let out = temp("sizes");
    for (flag, value, said) in [
        ("--code", "0", "--code 0"),
        ("--batch", "0", "above zero"),
        ("--lr", "0", "--lr 0"),
    ] {
        let o = small_training(&out, &[flag, value]);
        assert!(!o.status.success(), "{flag} {value}");
        assert!(text(&o).contains(said), "{flag} {value}: {}", text(&o));
        assert!(!out.exists(), "nothing written");
    }
}

#[test]
fn an_index_with_vectors_answers_by_nearest_vector_and_without_them_says_how_to_write_them() {
    let index = common::small_index("mach-embed-retrieval", 30);
    let ix = index.to_str().unwrap();
    let net = temp("retrieval");
    assert!(small_training(&net, &["--epochs", "1", "--code", "8"])
        .status
        .success());
    let advise = |mode: &str| {
        mach(&[
            "advise",
            "--index",
            ix,
            "--moves",
            "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
            "--mode",
            mode,
            "--json",
        ])
    };
    let o = advise("embed");
    assert!(!o.status.success());
    assert!(text(&o).contains("mach embed index"), "{}", text(&o));

    let o = mach(&[
        "embed",
        "index",
        "--index",
        ix,
        "--weights",
        net.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("positions of 30 games encoded"), "{t}");

    let o = advise("embed");
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let hits = v["similar"].as_array().unwrap();
    assert!(!hits.is_empty(), "{v}");
    let games: std::collections::HashSet<u64> =
        hits.iter().filter_map(|h| h["game"].as_u64()).collect();
    assert_eq!(games.len(), hits.len(), "one position per game");

    // Damaged vectors: the rest of the index still answers, the vectors say what is wrong.
    let codes = index.join("vectors.bin");
    let mut bytes = std::fs::read(&codes).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&codes, &bytes).unwrap();
    let o = advise("bm25");
    assert!(o.status.success(), "{}", text(&o));
    let o = advise("embed");
    assert!(!o.status.success());
    assert!(text(&o).contains("checksum"), "{}", text(&o));
}

#[test]
fn the_advice_page_shows_games_alike_by_shape_once_the_vectors_and_their_graph_are_written() {
    let index = common::small_index("mach-embed-shape", 40);
    let ix = index.to_str().unwrap();
    let scratch = temp("shape");
    let page = scratch.with_extension("html");
    let advise_page = || {
        let o = mach(&[
            "advise",
            "--index",
            ix,
            "--moves",
            "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
            "--html",
            page.to_str().unwrap(),
            "--force",
        ]);
        assert!(o.status.success(), "{}", text(&o));
        std::fs::read_to_string(&page).unwrap()
    };
    let html = advise_page();
    let shape = &html[html.find("id=\"shape\"").expect("the shape section")..];
    assert!(
        shape.contains("mach embed index"),
        "how to get them: {shape}"
    );
    assert!(!html.contains("game retrieved shape"));

    let o = mach(&["embed", "index", "--index", ix, "--graph", "yes"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("linked into vectors.ann"), "{t}");
    assert!(index.join("vectors.ann").exists());

    let html = advise_page();
    let shape = &html[html.find("id=\"shape\"").expect("the shape section")..];
    assert_eq!(
        shape.matches("class=\"game retrieved shape\"").count(),
        6,
        "{shape}"
    );
    let similarity: Vec<u32> = shape
        .split("similarity ")
        .skip(1)
        .map(|s| s[..s.find('%').unwrap()].parse().unwrap())
        .collect();
    assert_eq!(similarity.len(), 6);
    assert!(
        similarity.windows(2).all(|w| w[0] >= w[1]) && similarity[0] <= 100,
        "nearest first: {similarity:?}"
    );
    assert!(!shape.contains("mach embed index"));

    // The vectors again without a graph: the stale graph goes, the page still answers.
    let o = mach(&["embed", "index", "--index", ix, "--graph", "no"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!index.join("vectors.ann").exists());
    let html = advise_page();
    assert_eq!(html.matches("class=\"game retrieved shape\"").count(), 6);
}

#[test]
fn without_weights_the_built_in_network_is_measured() {
    let o = mach(&["embed", "test", "--positions", "200", "--random", "50"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.starts_with("builtin:position-vectors.vec: code 42, output squares"),
        "{t}"
    );
    // The shipped network rebuilds real positions far better than random ones.
    let wrong = |line: &str| -> f64 {
        let l = t.lines().find(|l| l.starts_with(line)).unwrap();
        let at = l.find(" wrong squares").unwrap();
        l[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(wrong("real positions") < 4.0, "{t}");
    assert!(
        wrong("random positions") > 2.0 * wrong("real positions"),
        "{t}"
    );
}

#[test]
fn ctrl_c_keeps_the_last_whole_epoch_and_says_so() {
    let out = temp("interrupted");
    let child = Command::new(env!("CARGO_BIN_EXE_mach"))
        .args([
            "embed",
            "train",
            "--positions",
            "2000",
            "--held-out",
            "100",
            "--code",
            "8",
            "--epochs",
            "100000",
            "--out",
        ])
        .arg(&*out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while !out.exists() {
        assert!(t0.elapsed().as_secs() < 120, "no epoch written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    let t = text(&o);
    assert!(
        !o.status.success(),
        "an interrupted training must not claim success: {t}"
    );
    assert!(
        t.contains("interrupted in epoch") && t.contains("holds epoch"),
        "{t}"
    );
    let o = mach(&[
        "embed",
        "test",
        "--weights",
        out.to_str().unwrap(),
        "--positions",
        "50",
        "--random",
        "10",
    ]);
    assert!(
        o.status.success(),
        "the kept epoch reads back: {}",
        text(&o)
    );
}
