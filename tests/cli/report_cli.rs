//! The report subcommands (perft, bench, epd, advise, sprt) as used in a
//! shell pipeline.

use std::process::{Command, Stdio};

/// `mach perft 3 --divide | head -1`: the reader is gone before Mach writes
/// (its end of the pipe is closed before Mach starts, so every write fails),
/// and Mach must end without a panic message, as Unix tools do.
#[test]
fn a_report_whose_reader_has_gone_ends_quietly_not_with_a_panic() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_mach"))
        .args(["perft", "3", "--divide", "--threads", "1"])
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("mach runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        !out.status.success(),
        "nothing was printed, so this is not a success"
    );
}

/// Arguments no run could finish are refused at once with the bounds:
/// a perft deeper than its stack allows, more EPD jobs than threads allowed.
#[test]
fn an_impossible_perft_depth_or_epd_job_count_is_a_clear_error() {
    let perft = Command::new(env!("CARGO_BIN_EXE_mach"))
        .args(["perft", "100000"])
        .output()
        .expect("mach runs");
    let err = String::from_utf8_lossy(&perft.stderr);
    assert!(!perft.status.success());
    assert!(err.contains("perft depth must be 0..64"), "{err}");

    let wac = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/wac.epd");
    let epd = Command::new(env!("CARGO_BIN_EXE_mach"))
        .args(["epd", wac, "--jobs", "100000"])
        .output()
        .expect("mach runs");
    let err = String::from_utf8_lossy(&epd.stderr);
    assert!(!epd.status.success());
    assert!(err.contains("--jobs must be 1..256"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
