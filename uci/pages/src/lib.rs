//! Self-contained HTML pages (inline SVG, CSS and a little JS; nothing fetched from the network).
//!
//! `board` draws SVG boards with highlights and arrows, `words` turns the
//! advisor's terms into plain words, `game_view` lets the reader step through
//! a game, `match_page` is the match report (the advice page is the binary's `advise/page.rs`).

pub mod board;
pub mod game_view;
pub mod match_page;
pub mod words;

use std::io::{Read, Write};
use std::path::Path;

/// `text` escaped for HTML element content and attribute values.
pub fn esc(text: &str) -> String {
    html_escape::encode_double_quoted_attribute(text).into_owned()
}

/// What a `data:` URL inside an HTML attribute must not hold as it is:
/// controls (newlines), spaces, quotes, and what URLs and HTML give meaning to.
const DATA_URL: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'\'')
    .add(b'#')
    .add(b'%')
    .add(b'&')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`');

/// A `data:` URL holding `pgn`, for a download link that needs no server.
pub fn pgn_data_url(pgn: &str) -> String {
    format!(
        "data:application/x-chess-pgn;charset=utf-8,{}",
        percent_encoding::utf8_percent_encode(pgn, DATA_URL)
    )
}

/// The stylesheet every page shares: system fonts only, nothing to fetch.
const CSS: &str = "
body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:1.2em auto;max-width:1100px;color:#222;background:#fafafa;padding:0 1em}
h1{font-size:1.4em;margin:.2em 0} h2{font-size:1.15em;margin:1.2em 0 .4em}
table{border-collapse:collapse;margin:.4em 0} td,th{padding:.25em .6em;border-bottom:1px solid #ddd;text-align:left;vertical-align:middle}
td{white-space:nowrap}
th{background:#eee} .num{text-align:right;font-variant-numeric:tabular-nums}
.wdl{display:flex;width:160px;height:14px;border:1px solid #888}
.wdl span{display:block;height:100%} .w{background:#f4f4f4} .d{background:#a0a0a0} .l{background:#333}
.game{display:flex;gap:1.2em;border-top:1px solid #ccc;padding:.8em 0;flex-wrap:wrap}
.game .info{flex:1;min-width:320px} .terms li{margin:.15em 0} .muted{color:#666}
.moves span{cursor:pointer;padding:0 .15em} .moves span.cur{background:#ffd54f}
.err{background:#fdd;border:1px solid #c00;padding:.6em;margin:.6em 0}
button{margin-right:.3em} textarea{width:100%;font-family:monospace}
.board{flex:none} .stepper{width:290px;flex:none} .stepper .moves{font-size:.85em;margin-top:.3em}
";

/// How every page Mach writes begins: its mark, so that writing the page
/// again replaces Mach's own page without `--force`, and never a user's file.
pub const MARK: &str = "<!DOCTYPE html>\n<!-- written by mach -->\n";

/// A whole page: `title`, the shared style, `body` and an optional script.
pub fn page(title: &str, body: &str, script: &str) -> String {
    format!(
        "{MARK}<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{CSS}{}</style></head>\n<body>\n{body}\n{}</body></html>\n",
        esc(title),
        board::CSS,
        if script.is_empty() {
            String::new()
        } else {
            format!("<script>{script}</script>\n")
        }
    )
}

/// Whether the file at `path` is a page Mach wrote (begins with [`MARK`]).
fn mach_page(path: &Path) -> bool {
    let mut head = [0u8; MARK.len()];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|_| head == MARK.as_bytes())
}

/// Refuses `--html FILE` before any work unless it is new, a page Mach
/// wrote, or `force` (and it is a regular file).
pub fn check_page(path: &Path, force: bool) -> Result<(), String> {
    mach_files::outfile::check(path, "--html", force, Some(mach_page))
}

/// Writes `html` to `path` (as [`check_page`] allows) through a unique
/// temporary file and a rename, so a browser reloading the page never sees
/// half of it and a failure leaves no temporary behind.
pub fn write_page(path: &Path, html: &str, force: bool) -> Result<(), String> {
    check_page(path, force)?;
    mach_files::outfile::replace(path, |f| f.write_all(html.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_markup_are_escaped() {
        assert_eq!(esc("<b>\"O'K\" & co"), "&lt;b&gt;&quot;O'K&quot; &amp; co");
    }

    #[test]
    fn a_pgn_data_url_keeps_no_raw_spaces_or_newlines() {
        let u = pgn_data_url("[White \"A\"]\n\n1. e4 *");
        assert!(u.starts_with("data:application/x-chess-pgn"));
        assert!(!u.contains(' ') && !u.contains('\n'));
    }

    #[test]
    fn a_page_is_written_again_without_force_but_a_users_file_only_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("advice.html");
        let html = page("t", "<p>x</p>", "");
        assert!(html.starts_with(MARK));
        write_page(&out, &html, false).unwrap();
        write_page(&out, &html, false).unwrap();
        std::fs::write(&out, "<!DOCTYPE html>\n<p>the user's</p>").unwrap();
        let e = write_page(&out, &html, false).unwrap_err();
        assert!(e.contains("pass --force"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "<!DOCTYPE html>\n<p>the user's</p>"
        );
        write_page(&out, &html, true).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), html);
    }
}
