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
