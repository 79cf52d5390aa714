//! `mach experience stats|merge|export`: look at an experience file (what
//! Mach's own searches found, `Experience` options), join several into one,
//! or list its records as text.

use std::path::{Path, PathBuf};

use mach_experience::{Kind, Memory, Record};

use crate::uci::experience_store::default_file;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    cmd: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Records, positions, depths, kinds and damage of a file (default: the engine's default file).
    Stats { file: Option<PathBuf> },
    /// Join experience files into one: each position's deepest (then newest) record.
    Merge {
        /// The files to join.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The file to write: a new one, or an experience file (any other file is refused).
        #[arg(long)]
        out: PathBuf,
    },
    /// One line per position: key, move, depth, score, kind, date (deepest first).
    Export {
        file: Option<PathBuf>,
        /// At most this many lines.
        #[arg(long)]
        limit: Option<usize>,
    },
}

pub fn run(args: &Args) -> Result<(), String> {
    match &args.cmd {
        Sub::Stats { file } => stats(&file.clone().unwrap_or_else(default_file)),
        Sub::Merge { files, out } => merge(files, out),
        Sub::Export { file, limit } => export(&file.clone().unwrap_or_else(default_file), *limit),
    }
}

fn load(path: &Path) -> Result<(mach_experience::Scan, Memory), String> {
    if !path.exists() {
        return Err(format!("{}: no such file", path.display()));
    }
    let scan = mach_experience::read(path).map_err(|e| e.to_string())?;
    let memory = Memory::of(&scan.records);
    Ok((scan, memory))
}

fn stats(path: &Path) -> Result<(), String> {
    let (scan, memory) = load(path)?;
    println!("file       {}", path.display());
    println!(
        "size       {} bytes, {} records, {} damaged bytes skipped",
        scan.bytes,
        scan.records.len(),
        scan.skipped_bytes
    );
    println!("positions  {}", memory.len());
    let kept = memory.records();
    for kind in [Kind::Search, Kind::Backed, Kind::Learned] {
        let n = kept.iter().filter(|r| r.kind == kind).count();
        println!("{:<10} {n} positions", kind.name());
    }
    let mut by_depth = std::collections::BTreeMap::new();
    for r in &kept {
        *by_depth.entry(r.depth).or_insert(0usize) += 1;
    }
    let line: Vec<String> = by_depth.iter().map(|(d, n)| format!("{d}:{n}")).collect();
    println!("depths     {}", line.join(" "));
    if let (Some(first), Some(last)) = (
        kept.iter().map(|r| r.minute).min(),
        kept.iter().map(|r| r.minute).max(),
    ) {
        println!("written    {} to {}", date(first), date(last));
    }
    Ok(())
}

fn merge(files: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut memory = Memory::default();
    let mut records = 0;
    for f in files {
        let (scan, _) = load(f)?;
        records += scan.records.len();
        for r in scan.records {
            memory.insert(r);
        }
    }
    let kept = memory.records();
    mach_experience::write(out, &kept).map_err(|e| e.to_string())?;
    println!(
        "{}: {} positions from {records} records of {} files",
        out.display(),
        kept.len(),
        files.len()
    );
    Ok(())
}

fn export(path: &Path, limit: Option<usize>) -> Result<(), String> {
    let (_, memory) = load(path)?;
    let n = limit.unwrap_or(usize::MAX);
    let mut kept = memory.records_to_keep(n);
    kept.sort_by(|a, b| b.depth.cmp(&a.depth).then(a.key.cmp(&b.key)));
    println!("key\tmove\tdepth\tscore\tkind\twritten");
    for r in kept {
        println!(
            "{:016x}\t{}\t{}\t{}\t{}\t{}",
            r.key,
            move_text(&r),
            r.depth,
            r.score,
            r.kind.name(),
            date(r.minute)
        );
    }
    Ok(())
}

/// The move's squares (castling as king takes rook), without the position.
fn move_text(r: &Record) -> String {
    if r.mv == 0 {
        return "-".into();
    }
    let sq = |i: u16| {
        let i = (i & 63) as u8;
        format!("{}{}", (b'a' + i % 8) as char, i / 8 + 1)
    };
    let promo = match r.mv >> 12 {
        2 => "n",
        3 => "b",
        4 => "r",
        5 => "q",
        _ => "",
    };
    format!("{}{}{promo}", sq(r.mv), sq(r.mv >> 6))
}

/// Minutes since 1970 as a UTC date and time.
fn date(minute: u32) -> String {
    let days = (minute / 1440) as i64;
    let (h, m) = ((minute % 1440) / 60, minute % 60);
    let (y, mo, d) = mach_files::civil_date(days);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_moves_read_as_people_write_them() {
        assert_eq!(date(0), "1970-01-01 00:00");
        // 2026-11-27 15:10 UTC.
        assert_eq!(date(29_929_870), "2026-11-27 15:10");
        let r = Record {
            key: 1,
            mv: 12 + 64 * 28,
            score: 0,
            depth: 1,
            kind: Kind::Search,
            minute: 0,
        };
        assert_eq!(move_text(&r), "e2e4");
    }
}
