//! Self-contained HTML pages (inline SVG, CSS and a little JS; nothing fetched from the network).
//!
//! `board` draws SVG boards with highlights and arrows, `words` turns the
//! advisor's terms into plain words, `game_view` lets the reader step through
//! a game, `match_page` is the match report (the advice page is the binary's `advise/page.rs`).

pub mod board;
pub mod game_view;
pub mod match_page;
pub mod words;

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

/// A whole page: `title`, the shared style, `body` and an optional script.
pub fn page(title: &str, body: &str, script: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
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

/// Writes `html` to `path` through a temporary file and a rename, so a
/// browser reloading the page never sees half of it.
pub fn write_page(path: &Path, html: &str) -> Result<(), String> {
    let tmp = path.with_extension("html.tmp");
    std::fs::write(&tmp, html)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
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
}
