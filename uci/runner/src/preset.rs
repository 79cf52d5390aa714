//! `mach match --advice-vs-none`: Mach with its grandmaster advisor against Mach without it.
//!
//! On the default database's index (built on first use).

use mach_advisor::build::{build, BuildOptions};
use mach_advisor::AdvisorIndex;

use super::engine_proc::EngineSpec;
use mach_files as paths;

/// The openings the preset plays unless `--openings` says otherwise.
pub const ADVICE_VS_NONE_OPENINGS: &str = "builtin:eco/b.tsv";

/// The two engines: this very binary with `Advisor=true` on the default
/// index, and with `Advisor=false`.
pub fn advice_vs_none_engines() -> Result<Vec<EngineSpec>, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot find the mach binary itself: {e}"))?
        .display()
        .to_string();
    let index = paths::default_index_dir();
    Ok(vec![
        EngineSpec {
            cmd: exe.clone(),
            args: Vec::new(),
            name: "Mach+advice".into(),
            options: vec![
                ("Advisor".into(), "true".into()),
                ("AdvisorIndex".into(), index.display().to_string()),
            ],
        },
        EngineSpec {
            cmd: exe,
            args: Vec::new(),
            name: "Mach".into(),
            options: vec![("Advisor".into(), "false".into())],
        },
    ])
}

/// Builds the default index from the built-in database when it does not open
/// (missing, from an older Mach, or damaged), so a stale index cannot
/// silently turn the advice off.
pub fn ensure_default_index() -> Result<(), String> {
    let index = paths::default_index_dir();
    if let Err(e) = AdvisorIndex::open(&index) {
        eprintln!("building the default index at {} ({e})...", index.display());
        let opts = BuildOptions {
            inputs: vec![paths::default_database()],
            out: index,
            ..Default::default()
        };
        build(&opts, &Default::default()).map_err(|e| e.to_string())?;
    }
    Ok(())
}
