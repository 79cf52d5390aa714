//! The pages in a real browser: headless Chromium loads the advice page, the
//! match report and the pages `mach explore` serves; a screenshot must not be
//! blank, and the DOM (after the page's script ran) must have the boards,
//! arrows, tables and chart in the right numbers. Without Chromium these
//! tests say "not run" and pass. `MACH_SCREENSHOTS=docs` keeps the
//! screenshots in `docs/`.

mod common;

use common::temp;

use common::mach;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The Ruy Lopez, Zaitsev's move order to 9...: twelve games of the index reach it.
const RUY_LOPEZ: &str =
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8 h2h3";
/// The Ruy Lopez one move before, for lines no game of the index played.
const RUY_LOPEZ_BEFORE_H3: &str =
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8";
/// The same position in SAN, as a person types it into the explore form.
const RUY_LOPEZ_SAN: &str =
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3";
/// Games the advice pages retrieve.
const TOP: usize = 12;

/// An index of the first 600 games of the built-in database (built once per run, a few seconds).
fn index() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| common::small_index("mach-pages-index", 600))
        .clone()
}

/// Whether headless Chromium is there; says "not run" for `test` when it is not.
fn chromium(test: &str) -> bool {
    let ok = Command::new("chromium")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("not run: {test} needs headless Chromium (chromium not installed)");
    }
    ok
}

/// Runs headless Chromium on `url` with `extra` flags and a fresh profile; its stdout.
/// One browser at a time (the tests run in parallel; Chromium is heavy).
fn browser(url: &str, extra: &[String]) -> String {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let profile = temp(&format!("chromium-{}", RUNS.fetch_add(1, Ordering::SeqCst)));
    let child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_output(child, Duration::from_secs(120))
}

/// The child's stdout once it exits, killing it after `limit`.
fn wait_output(mut child: Child, limit: Duration) -> String {
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("chromium took more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

/// The DOM of `url` after its scripts ran.
fn dom(url: &str) -> String {
    let d = browser(url, &["--dump-dom".to_string()]);
    assert!(d.contains("<body"), "no DOM for {url}: {d}");
    d
}

/// A screenshot of `url` (`name`.png), checked not blank; kept in
/// `$MACH_SCREENSHOTS` (relative to the checkout) when that is set.
fn screenshot(url: &str, name: &str, size: (u32, u32)) {
    let shot = temp(&format!("shot-{name}"));
    let file = shot.path().join(format!("{name}.png"));
    browser(
        url,
        &[
            format!("--screenshot={}", file.display()),
            format!("--window-size={},{}", size.0, size.1),
        ],
    );
    let (distinct, spread) = pixel_variety(&file);
    assert!(
        distinct > 20 && spread > 20.0,
        "{name}: the screenshot looks blank ({distinct} colours, spread {spread:.1})"
    );
    if let Ok(dir) = std::env::var("MACH_SCREENSHOTS") {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(&file, dir.join(format!("{name}.png"))).unwrap();
    }
}

/// Distinct colours and the standard deviation of the brightness of a PNG's pixels.
fn pixel_variety(path: &Path) -> (usize, f64) {
    let decoder = png::Decoder::new(std::fs::File::open(path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    let px = &buf[..info.buffer_size()];
    let mut colours = std::collections::HashSet::new();
    let (mut sum, mut sq, mut n) = (0.0, 0.0, 0.0);
    for p in px.chunks_exact(step) {
        let rgb = (p[0], p[1 % step], p[2 % step]);
        colours.insert(rgb);
        let y = 0.299 * rgb.0 as f64 + 0.587 * rgb.1 as f64 + 0.114 * rgb.2 as f64;
        sum += y;
        sq += y * y;
        n += 1.0;
    }
    let mean = sum / n;
    (colours.len(), (sq / n - mean * mean).max(0.0).sqrt())
}

/// Occurrences of `needle` in `hay`.
fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// The part of `hay` from `start` to the first `end` after it.
fn section<'a>(hay: &'a str, start: &str, end: &str) -> &'a str {
    let i = hay
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the page"));
    let rest = &hay[i..];
    &rest[..rest.find(end).map_or(rest.len(), |j| j + end.len())]
}

/// Writes the advice page for `moves` and returns its path.
fn advise_page(dir: &Path, moves: &str) -> PathBuf {
    let page = dir.join("advise.html");
    let out = Command::new(mach())
        .args([
            "advise",
            "--top",
            &TOP.to_string(),
            "--moves",
            moves,
            "--index",
        ])
        .arg(index())
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    page
}

/// The URL a browser opens a local file by.
fn file_url(p: &Path) -> String {
    format!("file://{}", p.display())
}

#[test]
fn the_text_output_shows_san_percentages_ratings_the_opening_and_a_board() {
    let out = Command::new(mach())
        .args(["advise", "--top", "5", "--moves", RUY_LOPEZ, "--index"])
        .arg(index())
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("opening   C92 Ruy Lopez"), "{t}");
    assert!(t.contains("r . b q . r k ."), "shakmaty's diagram: {t}");
    assert!(t.contains("avg elo"), "{t}");
    let bb7 = t
        .lines()
        .find(|l| l.trim_start().starts_with("Bb7"))
        .expect("a Bb7 row");
    assert!(bb7.contains('%'), "{bb7}");
}

#[test]
fn the_advice_page_has_one_arrow_per_suggested_move_and_a_board_per_game() {
    if !chromium("the_advice_page_has_one_arrow_per_suggested_move") {
        return;
    }
    let scratch = temp("advise");
    let dir = scratch.path();
    let page = advise_page(dir, RUY_LOPEZ);
    let html = std::fs::read_to_string(&page).unwrap();
    for fetch in ["src=\"http", "href=\"http", "<link", "url(http", "@import"] {
        assert!(!html.contains(fetch), "the page fetches something: {fetch}");
    }
    let d = dom(&file_url(&page));
    let games = count(&d, "class=\"game retrieved\"");
    assert_eq!(games, TOP, "one section per retrieved game");
    assert_eq!(
        count(&d, "<svg class=\"board\""),
        games + 1,
        "the query's board and one per game"
    );
    let table = section(&d, "<table id=\"advice\"", "</table>");
    let rows = count(table, "<tr") - 1;
    assert!(
        rows >= 2,
        "the Ruy Lopez has several suggested moves: {table}"
    );
    let query = section(&d, "id=\"query\"", "</svg>");
    assert_eq!(
        count(query, "class=\"arrow\""),
        rows,
        "one arrow per suggested move"
    );
    assert_eq!(
        count(query, "class=\"pw\"") + count(query, "class=\"pb\""),
        32
    );
    assert_eq!(
        count(&d, "class=\"arrow\""),
        rows + games,
        "and the grandmaster's move on each game's board"
    );
    assert_eq!(count(&d, "class=\"wdl\""), rows);
    assert_eq!(count(&d, "class=\"pgn\""), games);
    assert!(d.contains("C92 Ruy Lopez"), "the opening's name");
    assert!(d.contains("same pawn chain"), "terms in plain words");
    let first = section(&d, "id=\"g1b\"", "</svg>");
    assert!(
        count(first, "class=\"hl\"") >= 20,
        "shared squares highlighted"
    );
    screenshot(&file_url(&page), "advise", (1100, 1000));
}

#[test]
fn a_position_no_game_reached_gets_advice_from_similar_ones_and_by_default_no_bonus() {
    // 9.h4 Bg4 in the Ruy Lopez: no game of the index played it.
    let scratch = temp("similar");
    let dir = scratch.path();
    let page = advise_page(dir, &format!("{RUY_LOPEZ_BEFORE_H3} h2h4 c8g4"));
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains("no game reached this very position"));
    assert!(!html.contains("1. same position"));
    assert_eq!(count(&html, "class=\"game retrieved\""), TOP);
    let table = section(&html, "<table id=\"advice\"", "</table>");
    let rows: Vec<&str> = table.split("<tr>").skip(2).collect();
    assert!(rows.len() >= 2, "{table}");
    assert!(rows.iter().all(|r| r.contains(">similar<")), "{table}");
    // AdviceSimilarWeight is 0 by default (the calibration in the README):
    // no row earns a bonus, whatever its share.
    for r in &rows {
        assert!(r.contains(">-</td></tr>"), "no bonus: {r}");
    }
    let query = section(&html, "id=\"query\"", "</svg>");
    assert_eq!(count(query, "class=\"arrow\""), rows.len());
}

#[test]
fn stepping_through_a_game_in_the_browser_redraws_its_board() {
    if !chromium("stepping_through_a_game_in_the_browser") {
        return;
    }
    let scratch = temp("step");
    let dir = scratch.path();
    let page = advise_page(dir, RUY_LOPEZ);
    // The script opens game 1 at ply 0 (the link form #g1@0): the start position.
    let d = dom(&format!("{}#g1@0", file_url(&page)));
    let g1 = section(&d, "id=\"g1\"", "</svg>");
    assert!(g1.contains("data-cur=\"0\""), "{g1}");
    assert!(
        g1.contains("class=\"board away\""),
        "highlights and arrows hidden: {g1}"
    );
    assert_eq!(count(g1, "class=\"pw\""), 16);
    assert_eq!(count(g1, "class=\"pb\""), 16);
    let rank2 = section(g1, "class=\"pieces\"", "</g>");
    assert!(
        rank2.contains("y=\"272\""),
        "white pawns on the second rank: {rank2}"
    );
}

#[test]
fn the_match_report_has_the_figures_the_chart_and_every_game() {
    if !chromium("the_match_report_has_the_figures_the_chart_and_every_game") {
        return;
    }
    let scratch = temp("match");
    let dir = scratch.path();
    let page = dir.join("match.html");
    let out = Command::new(mach())
        .args(["match", "--engine", &format!("cmd={}", mach()), "name=Left"])
        .args(["--engine", &format!("cmd={}", mach()), "name=Right"])
        .args(["--games", "4", "--nodes", "2000", "--html"])
        .arg(&page)
        .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let d = dom(&file_url(&page));
    assert_eq!(count(&d, "class=\"gm\""), 4, "one row per game");
    let chart = section(&d, "id=\"chart\"", "</svg>");
    assert_eq!(count(chart, "class=\"pt\""), 4, "one point per game");
    assert_eq!(count(chart, "class=\"elo-line\""), 1);
    let interval = section(&d, "id=\"interval\"", "</svg>");
    assert!(interval.contains("class=\"ci\"") && interval.contains("class=\"elo\""));
    let penta = section(&d, "id=\"penta\"", "</table>");
    assert_eq!(count(penta, "<td"), 5);
    assert!(d.contains("LOS") && !d.contains("NaN"));
    assert_eq!(count(&d, "download=\"game-"), 4, "a PGN per game");
    screenshot(&file_url(&page), "match", (900, 1000));
}

#[test]
fn an_unwritable_report_fails_before_the_first_game() {
    let out = Command::new(mach())
        .args(["match", "--engine", &format!("cmd={}", mach())])
        .args([
            "--engine",
            &format!("cmd={}", mach()),
            "--games",
            "2",
            "--nodes",
            "100",
        ])
        .args(["--html", "/nonexistent/dir/report.html"])
        .env("MACH_INDEX", "/nonexistent/mach-test-default-index")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent/dir/report.html"), "{err}");
}

/// `mach explore` on a free port, with the address it printed; killed when dropped.
struct Explore {
    child: Child,
    addr: String,
}

impl Explore {
    fn start() -> Explore {
        let mut child = Command::new(mach())
            .args([
                "explore",
                "--port",
                "0",
                "--top",
                &TOP.to_string(),
                "--index",
            ])
            .arg(index())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        Explore { child, addr }
    }

    /// One HTTP request; the response's body.
    fn request(&self, method: &str, path: &str, body: &str) -> String {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    /// Submits the explore form with `q`.
    fn submit(&self, q: &str) -> String {
        let body: String = form_urlencoded::Serializer::new(String::new())
            .append_pair("q", q)
            .finish();
        let out = self.request("POST", "/", &body);
        assert!(
            out.starts_with("HTTP/1.1 200"),
            "{}",
            &out[..out.len().min(300)]
        );
        out
    }
}

impl Drop for Explore {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn explore_answers_a_form_then_a_click_on_a_suggested_move_goes_one_ply_deeper() {
    let server = Explore::start();
    assert!(
        server.addr.starts_with("127.0.0.1:"),
        "loopback only: {}",
        server.addr
    );
    let page = server.submit(RUY_LOPEZ_SAN);
    assert!(page.contains("id=\"advice\""), "advice for the typed moves");
    assert!(page.contains("C92"), "the opening's name");
    // The first suggested move's link, as a click follows it.
    let marker = "class=\"go\" href=\"";
    let at = page.find(marker).expect("a link on a suggested move") + marker.len();
    let href = page[at..][..page[at..].find('"').unwrap()].replace("&amp;", "&");
    assert!(href.starts_with("/?"), "{href}");
    if !chromium("explore_answers_a_form_then_a_click (in the browser)") {
        return;
    }
    let url = format!("http://{}{href}", server.addr);
    let d = dom(&url);
    let textarea = section(&d, "<textarea", "</textarea>");
    let typed = &textarea[textarea.find('>').unwrap() + 1..];
    assert_eq!(
        typed.split_whitespace().filter(|w| w.len() >= 4).count(),
        18,
        "one ply deeper than the 17 typed: {typed}"
    );
    assert_eq!(
        count(&d, "<svg class=\"board\""),
        count(&d, "class=\"game retrieved\"") + 1
    );
    assert!(d.contains("id=\"back\""), "a link one move back");
    screenshot(&url, "explore", (1100, 1000));
}

#[test]
fn explore_shows_bad_input_on_the_page_and_keeps_serving() {
    let server = Explore::start();
    for bad in [
        "hello world",
        "e2e4 e7e5 e1e3",
        "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
    ] {
        let page = server.submit(bad);
        assert!(page.contains("id=\"error\""), "{bad}: {page}");
        assert!(!page.contains("id=\"advice\""), "{bad}");
    }
    let page = server.request("GET", "/?moves=e2e5", "");
    assert!(page.contains("id=\"error\""), "{page}");
    let page = server.request("GET", "/no-such-page", "");
    assert!(
        page.starts_with("HTTP/1.1 404") && page.contains("no page"),
        "{page}"
    );
    // Still alive, still right.
    let page = server.submit("e4 e5");
    assert!(page.contains("id=\"position\""), "{page}");
}
