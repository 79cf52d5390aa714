//! `mach match --html FILE`: the report page, rewritten as each game finishes and once at the end.

use std::path::PathBuf;
use std::sync::Mutex;

use super::stats::Sprt;
use super::summary::sprt_line;
use super::tally::Tally;
use super::types::Played;
use mach_pages::match_page::{GameLine, Report};

/// The page being kept up to date.
pub struct HtmlReport {
    path: PathBuf,
    report: Mutex<Report>,
}

impl HtmlReport {
    /// A report of `planned` games between `names` at `control`; the page is
    /// written at once, so an unwritable path fails before the first game.
    pub fn create(
        path: PathBuf,
        names: [&str; 2],
        control: String,
        planned: usize,
        force: bool,
    ) -> Result<HtmlReport, String> {
        let r = HtmlReport {
            path,
            report: Mutex::new(Report {
                names: [names[0].to_string(), names[1].to_string()],
                control,
                planned,
                ..Report::default()
            }),
        };
        // Only this first write may replace a file Mach did not write (with
        // --force); from then on the page is Mach's own.
        r.write_page(&Tally::default(), None, false, force)?;
        Ok(r)
    }

    /// Adds a finished game (`t` already counts it) and rewrites the page.
    pub fn add(
        &self,
        t: &Tally,
        sprt: Option<Sprt>,
        played: &Played,
        seats: [&str; 2],
        pgn: String,
    ) {
        {
            let mut r = self.report.lock().unwrap_or_else(|e| e.into_inner());
            r.games.push(GameLine {
                white: seats[0].to_string(),
                black: seats[1].to_string(),
                result: played.result.pgn(),
                termination: played.termination.clone(),
                detail: played.detail.clone(),
                plies: played.moves.len(),
                pgn,
                elo: t.wdl.elo(),
                error: t.wdl.elo_error(),
            });
        }
        if let Err(e) = self.write(t, sprt, false) {
            log::warn!("{e}");
        }
    }

    /// Writes the page with the figures of `t`.
    pub fn write(&self, t: &Tally, sprt: Option<Sprt>, finished: bool) -> Result<(), String> {
        self.write_page(t, sprt, finished, false)
    }

    fn write_page(
        &self,
        t: &Tally,
        sprt: Option<Sprt>,
        finished: bool,
        force: bool,
    ) -> Result<(), String> {
        let page = {
            let mut r = self.report.lock().unwrap_or_else(|e| e.into_inner());
            r.wins = t.wdl.wins;
            r.draws = t.wdl.draws;
            r.losses = t.wdl.losses;
            r.elo = t.wdl.elo();
            r.error = t.wdl.elo_error();
            r.los = t.wdl.los();
            r.penta = t.penta.0;
            r.sprt = sprt.map(|s| sprt_line(s, &t.sprt_pairs()));
            r.finished = finished;
            mach_pages::match_page::page(&r)
        };
        mach_pages::write_page(&self.path, &page, force)
    }
}
