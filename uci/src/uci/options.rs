//! The UCI options Mach offers: their declaration for `uci` and the checking
//! of `setoption` values. Names are matched case-insensitively.

/// One option as declared to the GUI.
pub struct OptionDef {
    pub name: &'static str,
    pub kind: Kind,
}

pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A path; its default is worked out at run time by the function.
    Path(fn() -> std::path::PathBuf),
    /// Free text, empty by default (`<empty>`).
    Text,
    /// One of a few words.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
}

/// Centipawns for a move every grandmaster who reached this very position
/// chose (`AdviceWeight`). Measured: docs/memory.md.
pub const ADVICE_WEIGHT: i32 = 40;
/// Centipawns for a move every grandmaster in a *similar* position chose
/// (`AdviceSimilarWeight`). 0: the calibration (docs/memory.md, "Trust where it is
/// earned") found similar-position advice worse than Mach's own move in 65%
/// of the positions where they differ, in every bucket of share, games and
/// similarity; exact advice was never worse and better in 18%.
pub const ADVICE_SIMILAR_WEIGHT: i32 = 0;

pub const OPTIONS: &[OptionDef] = &[
    OptionDef {
        name: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: 32_768,
        },
    },
    OptionDef {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionDef {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    OptionDef {
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    OptionDef {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: 30,
            min: 0,
            max: 10_000,
        },
    },
    OptionDef {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    OptionDef {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    // Limited strength (engine/src/strength.rs): a node budget and
    // evaluation noise, calibrated against Stockfish's UCI_Elo.
    OptionDef {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    OptionDef {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: mach_engine::strength::MIN_ELO as i64,
            min: mach_engine::strength::MIN_ELO as i64,
            max: mach_engine::strength::MAX_ELO as i64,
        },
    },
    // On: the opening tree is built in; an index is added when there is one.
    OptionDef {
        name: "Advisor",
        kind: Kind::Check { default: true },
    },
    OptionDef {
        name: "AdvisorIndex",
        kind: Kind::Path(default_index),
    },
    OptionDef {
        name: "AdviceWeight",
        kind: Kind::Spin {
            default: ADVICE_WEIGHT as i64,
            min: 0,
            max: 1000,
        },
    },
    OptionDef {
        name: "AdviceSimilarWeight",
        kind: Kind::Spin {
            default: ADVICE_SIMILAR_WEIGHT as i64,
            min: 0,
            max: 1000,
        },
    },
    // How similar positions are found: BM25 over terms (chunks included),
    // MACH's chunk filters, or both (advisor/src/retrieval.rs, `Mode`).
    OptionDef {
        name: "AdvisorMode",
        kind: Kind::Combo {
            default: "bm25",
            vars: &["bm25", "mach", "both"],
        },
    },
    // The built-in opening tree (books/gm-tree.bin) in the book and the
    // exact advice, with the index's games added.
    OptionDef {
        name: "OpeningTree",
        kind: Kind::Check { default: true },
    },
    // Grandmaster moves inside the search tree (advisor/src/tree.rs): tried
    // first, never reduced or pruned. Off until it passes an SPRT.
    OptionDef {
        name: "AdvisorTree",
        kind: Kind::Check { default: false },
    },
    // MACH's plans (the advice lines of the chunks found at the root) as
    // small evaluation terms for the rest of the search (engine/src/plan_eval.rs).
    OptionDef {
        name: "AdvisorPlans",
        kind: Kind::Check { default: false },
    },
    // Strong exact advice shapes the time: less when the search agrees,
    // more when it does not (engine params TRUSTED_*).
    OptionDef {
        name: "AdvisorTime",
        kind: Kind::Check { default: false },
    },
    OptionDef {
        name: "AdvisorTopK",
        kind: Kind::Spin {
            default: 30,
            min: 1,
            max: 200,
        },
    },
    // The exact memory as a book (advisor/src/book.rs); `Advisor=false` turns it off too.
    // On: with the advice it passed an SPRT against no memory (docs/memory.md).
    OptionDef {
        name: "OwnBook",
        kind: Kind::Check { default: true },
    },
    // Any Polyglot book (`mach book` writes one from the index); empty: none.
    OptionDef {
        name: "BookFile",
        kind: Kind::Text,
    },
    OptionDef {
        name: "BookMinGames",
        kind: Kind::Spin {
            default: 3,
            min: 1,
            max: 100_000,
        },
    },
    OptionDef {
        name: "BookMinScore",
        kind: Kind::Spin {
            default: 40,
            min: 0,
            max: 100,
        },
    },
    // MACH's chunks made of pawns as evaluation terms, weights fitted by
    // `mach tune --fit chunks` (engine/src/pawn_chunks.rs). Off until it
    // passes an SPRT.
    OptionDef {
        name: "PawnChunks",
        kind: Kind::Check { default: false },
    },
    // Experience (uci/experience, uci/src/uci/experience_store.rs): what
    // Mach's own searches found, kept across games and processes. Off until
    // its matches pass.
    OptionDef {
        name: "Experience",
        kind: Kind::Check { default: false },
    },
    OptionDef {
        name: "ExperienceFile",
        kind: Kind::Path(crate::uci::experience_store::default_file),
    },
    OptionDef {
        name: "ExperienceReadOnly",
        kind: Kind::Check { default: false },
    },
    OptionDef {
        name: "ExperienceMinDepth",
        kind: Kind::Spin {
            default: 4,
            min: 1,
            max: 100,
        },
    },
    // Book moves judged by values backed up through the opening tree
    // (advisor/src/opening_tree/build.rs). Off until it passes an SPRT.
    OptionDef {
        name: "BookBackedUp",
        kind: Kind::Check { default: false },
    },
    // Memory moves judged by Mach's own analysis of the tree
    // (books/gm-tree-analysis.exp, and the experience when it is on).
    OptionDef {
        name: "BookAnalysis",
        kind: Kind::Check { default: true },
    },
    OptionDef {
        name: "BookMargin",
        kind: Kind::Spin {
            default: 50,
            min: 0,
            max: 10_000,
        },
    },
    OptionDef {
        name: "BookVerifyNodes",
        kind: Kind::Spin {
            default: 8_000,
            min: 0,
            max: 100_000_000,
        },
    },
];

/// Where the advisor's index is looked for unless `AdvisorIndex` says otherwise.
pub fn default_index() -> std::path::PathBuf {
    mach_files::default_index_dir()
}

/// The `option ...` lines answered to `uci`.
pub fn declarations() -> Vec<String> {
    OPTIONS
        .iter()
        .map(|o| match o.kind {
            Kind::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    o.name
                )
            }
            Kind::Check { default } => {
                format!("option name {} type check default {default}", o.name)
            }
            Kind::Button => format!("option name {} type button", o.name),
            Kind::Text => format!("option name {} type string default <empty>", o.name),
            Kind::Combo { default, vars } => format!(
                "option name {} type combo default {default}{}",
                o.name,
                vars.iter().map(|v| format!(" var {v}")).collect::<String>()
            ),
            Kind::Path(default) => format!(
                "option name {} type string default {}",
                o.name,
                default().display()
            ),
        })
        .chain(search_param_declarations())
        .collect()
}

/// The search parameters as spin options (feature `spsa`; engine/src/params.rs).
#[cfg(feature = "spsa")]
fn search_param_declarations() -> Vec<String> {
    mach_engine::params::TUNABLES
        .iter()
        .map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

/// Without the feature `spsa` the search parameters are constants, not options.
#[cfg(not(feature = "spsa"))]
fn search_param_declarations() -> Vec<String> {
    Vec::new()
}

/// A checked `setoption`.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    Threads(usize),
    ClearHash,
    Ponder(bool),
    MoveOverhead(u64),
    MultiPv(usize),
    Chess960(bool),
    LimitStrength(bool),
    UciElo(u32),
    Advisor(bool),
    AdvisorIndex(std::path::PathBuf),
    AdviceWeight(i32),
    AdviceSimilarWeight(i32),
    AdvisorTopK(usize),
    AdvisorMode(mach_advisor::retrieval::Mode),
    AdvisorTree(bool),
    OpeningTree(bool),
    AdvisorPlans(bool),
    AdvisorTime(bool),
    OwnBook(bool),
    /// `None`: no Polyglot book.
    BookFile(Option<std::path::PathBuf>),
    BookMinGames(u32),
    /// Percent.
    BookMinScore(u32),
    BookBackedUp(bool),
    BookAnalysis(bool),
    PawnChunks(bool),
    Experience(bool),
    ExperienceFile(std::path::PathBuf),
    ExperienceReadOnly(bool),
    ExperienceMinDepth(i32),
    BookMargin(i32),
    BookVerifyNodes(u64),
    /// A search parameter (feature `spsa`): its name as engine/src/params.rs
    /// spells it, and its value, within its range.
    #[cfg(feature = "spsa")]
    SearchParam(&'static str, i32),
}

impl Change {
    /// Whether the change must wait for the search under way to end (it
    /// changes the engine, or numbers the search reads).
    pub fn waits_for_search(&self) -> bool {
        matches!(
            self,
            Change::Hash(_) | Change::Threads(_) | Change::ClearHash
        ) || is_search_param(self)
    }
}

/// Whether `change` sets a search parameter.
#[cfg(feature = "spsa")]
fn is_search_param(change: &Change) -> bool {
    matches!(change, Change::SearchParam(..))
}

/// Without the feature `spsa` no change sets a search parameter.
#[cfg(not(feature = "spsa"))]
fn is_search_param(_: &Change) -> bool {
    false
}

/// A `setoption` of a search parameter (feature `spsa`), checked as a spin
/// option; `None` if `name` is no search parameter.
#[cfg(feature = "spsa")]
fn search_param(
    name: &str,
    value: Option<&str>,
) -> Option<Result<(Change, Option<String>), String>> {
    let t = mach_engine::params::tunable(name)?;
    let Some(v) = value.map(str::trim) else {
        return Some(Err(format!("option '{}' needs a value", t.name)));
    };
    let Ok(n) = v.parse::<i64>() else {
        return Some(Err(format!(
            "option '{}' takes a whole number, not '{v}'",
            t.name
        )));
    };
    let c = n.clamp(t.min as i64, t.max as i64);
    let note = (c != n).then(|| {
        format!(
            "{} {n} is out of range {}..{}, using {c}",
            t.name, t.min, t.max
        )
    });
    Some(Ok((Change::SearchParam(t.name, c as i32), note)))
}

/// Without the feature `spsa` no option is a search parameter.
#[cfg(not(feature = "spsa"))]
fn search_param(_: &str, _: Option<&str>) -> Option<Result<(Change, Option<String>), String>> {
    None
}

/// Checks a `setoption`; the error says why it was refused. A spin value out
/// of range is clamped (and `note` says so), as GUIs expect.
pub fn check(name: &str, value: Option<&str>) -> Result<(Change, Option<String>), String> {
    if let Some(checked) = search_param(name, value) {
        return checked;
    }
    let Some(def) = OPTIONS
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    else {
        return Err(format!("unknown option '{name}'"));
    };
    let value = value.map(str::trim);
    let mut note = None;
    let number =
        |v: Option<&str>, min: i64, max: i64, note: &mut Option<String>| -> Result<i64, String> {
            let v = v.ok_or_else(|| format!("option '{}' needs a value", def.name))?;
            let n: i64 = v
                .parse()
                .map_err(|_| format!("option '{}' takes a whole number, not '{v}'", def.name))?;
            let c = n.clamp(min, max);
            if c != n {
                *note = Some(format!(
                    "{} {n} is out of range {min}..{max}, using {c}",
                    def.name
                ));
            }
            Ok(c)
        };
    let flag = |v: Option<&str>| -> Result<bool, String> {
        match v.map(|s| s.to_ascii_lowercase()).as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            other => Err(format!(
                "option '{}' takes true or false, not '{}'",
                def.name,
                other.unwrap_or("")
            )),
        }
    };
    let change = match (&def.kind, def.name) {
        (Kind::Spin { min, max, .. }, "Hash") => {
            Change::Hash(number(value, *min, *max, &mut note)? as usize)
        }
        (Kind::Spin { min, max, .. }, "Threads") => {
            Change::Threads(number(value, *min, *max, &mut note)? as usize)
        }
        (Kind::Spin { min, max, .. }, "Move Overhead") => {
            Change::MoveOverhead(number(value, *min, *max, &mut note)? as u64)
        }
        (Kind::Spin { min, max, .. }, "MultiPV") => {
            Change::MultiPv(number(value, *min, *max, &mut note)? as usize)
        }
        (Kind::Button, "Clear Hash") => Change::ClearHash,
        (Kind::Check { .. }, "Ponder") => Change::Ponder(flag(value)?),
        (Kind::Check { .. }, "UCI_Chess960") => Change::Chess960(flag(value)?),
        (Kind::Check { .. }, "UCI_LimitStrength") => Change::LimitStrength(flag(value)?),
        (Kind::Spin { min, max, .. }, "UCI_Elo") => {
            Change::UciElo(number(value, *min, *max, &mut note)? as u32)
        }
        (Kind::Check { .. }, "Advisor") => Change::Advisor(flag(value)?),
        (Kind::Path(default), "AdvisorIndex") => Change::AdvisorIndex(match value {
            None | Some("") | Some("<empty>") => default(),
            Some(v) => std::path::PathBuf::from(v),
        }),
        (Kind::Check { .. }, "Experience") => Change::Experience(flag(value)?),
        (Kind::Path(default), "ExperienceFile") => Change::ExperienceFile(match value {
            None | Some("") | Some("<empty>") => default(),
            Some(v) => std::path::PathBuf::from(v),
        }),
        (Kind::Check { .. }, "ExperienceReadOnly") => Change::ExperienceReadOnly(flag(value)?),
        (Kind::Spin { min, max, .. }, "ExperienceMinDepth") => {
            Change::ExperienceMinDepth(number(value, *min, *max, &mut note)? as i32)
        }
        (Kind::Spin { min, max, .. }, "AdviceWeight") => {
            Change::AdviceWeight(number(value, *min, *max, &mut note)? as i32)
        }
        (Kind::Spin { min, max, .. }, "AdviceSimilarWeight") => {
            Change::AdviceSimilarWeight(number(value, *min, *max, &mut note)? as i32)
        }
        (Kind::Spin { min, max, .. }, "AdvisorTopK") => {
            Change::AdvisorTopK(number(value, *min, *max, &mut note)? as usize)
        }
        (Kind::Combo { vars, .. }, "AdvisorMode") => {
            let v = value.unwrap_or("").trim();
            if !vars.iter().any(|d| d.eq_ignore_ascii_case(v)) {
                return Err(format!(
                    "option 'AdvisorMode': unknown mode {v:?}: {}",
                    vars.join(", ")
                ));
            }
            Change::AdvisorMode(
                v.parse()
                    .map_err(|e| format!("option 'AdvisorMode': {e}"))?,
            )
        }
        (Kind::Check { .. }, "AdvisorTree") => Change::AdvisorTree(flag(value)?),
        (Kind::Check { .. }, "OpeningTree") => Change::OpeningTree(flag(value)?),
        (Kind::Check { .. }, "AdvisorPlans") => Change::AdvisorPlans(flag(value)?),
        (Kind::Check { .. }, "AdvisorTime") => Change::AdvisorTime(flag(value)?),
        (Kind::Check { .. }, "OwnBook") => Change::OwnBook(flag(value)?),
        (Kind::Text, "BookFile") => Change::BookFile(match value {
            None | Some("") | Some("<empty>") => None,
            Some(v) => Some(std::path::PathBuf::from(v)),
        }),
        (Kind::Spin { min, max, .. }, "BookMinGames") => {
            Change::BookMinGames(number(value, *min, *max, &mut note)? as u32)
        }
        (Kind::Spin { min, max, .. }, "BookMinScore") => {
            Change::BookMinScore(number(value, *min, *max, &mut note)? as u32)
        }
        (Kind::Check { .. }, "BookBackedUp") => Change::BookBackedUp(flag(value)?),
        (Kind::Check { .. }, "BookAnalysis") => Change::BookAnalysis(flag(value)?),
        (Kind::Check { .. }, "PawnChunks") => Change::PawnChunks(flag(value)?),
        (Kind::Spin { min, max, .. }, "BookMargin") => {
            Change::BookMargin(number(value, *min, *max, &mut note)? as i32)
        }
        (Kind::Spin { min, max, .. }, "BookVerifyNodes") => {
            Change::BookVerifyNodes(number(value, *min, *max, &mut note)? as u64)
        }
        _ => return Err(format!("option '{}' is declared but not handled", def.name)),
    };
    Ok((change, note))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_is_handled() {
        for o in OPTIONS {
            let value = match o.kind {
                Kind::Spin { default, .. } => Some(default.to_string()),
                Kind::Check { default } => Some(default.to_string()),
                Kind::Button => None,
                Kind::Path(_) => Some("/some where/index".to_string()),
                Kind::Text => Some("<empty>".to_string()),
                Kind::Combo { default, vars } => {
                    // Every declared value must work, not only the default.
                    for v in vars {
                        assert!(check(o.name, Some(v)).is_ok(), "{} {v}", o.name);
                    }
                    Some(default.to_string())
                }
            };
            assert!(check(o.name, value.as_deref()).is_ok(), "{}", o.name);
        }
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn every_search_parameter_is_a_spin_option_of_its_own_name() {
        let lines = declarations();
        for t in mach_engine::params::TUNABLES {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            );
            assert!(lines.contains(&line), "{line}");
            assert_eq!(
                check(&t.name.to_lowercase(), Some(t.default.to_string().as_str())).unwrap(),
                (Change::SearchParam(t.name, t.default), None)
            );
        }
        let (c, note) = check("RFP_MARGIN", Some("100000")).unwrap();
        let max = mach_engine::params::tunable("RFP_MARGIN").unwrap().max;
        assert_eq!(c, Change::SearchParam("RFP_MARGIN", max));
        assert!(note.is_some());
        assert!(check("RFP_MARGIN", Some("wide")).is_err());
        assert!(c.waits_for_search());
    }

    #[cfg(not(feature = "spsa"))]
    #[test]
    fn without_the_spsa_feature_search_parameters_are_no_options() {
        assert!(check("RFP_MARGIN", Some("75")).is_err());
        assert!(!declarations().iter().any(|l| l.contains("RFP_MARGIN")));
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(check("hash", Some("64")).unwrap().0, Change::Hash(64));
        assert_eq!(
            check("move overhead", Some(" 100 ")).unwrap().0,
            Change::MoveOverhead(100)
        );
        let (c, note) = check("Hash", Some("999999999")).unwrap();
        assert_eq!(c, Change::Hash(32_768));
        assert!(note.is_some());
        assert!(check("Hash", Some("lots")).is_err());
        assert!(check("Hash", None).is_err());
        assert!(check("Ponder", Some("maybe")).is_err());
        assert!(check("NoSuchOption", Some("1")).is_err());
        assert_eq!(check("Clear Hash", None).unwrap().0, Change::ClearHash);
        assert_eq!(
            check("AdvisorIndex", Some("/tmp/my index")).unwrap().0,
            Change::AdvisorIndex("/tmp/my index".into())
        );
        assert_eq!(
            check("adviceweight", Some("40")).unwrap().0,
            Change::AdviceWeight(40)
        );
        assert_eq!(
            check("AdviceSimilarWeight", Some("1200")).unwrap(),
            (
                Change::AdviceSimilarWeight(1000),
                Some("AdviceSimilarWeight 1200 is out of range 0..1000, using 1000".into())
            )
        );
    }
}
