//! The explore page's own parts: the form, the links one move deeper and
//! back, and the page for a message.

use shakmaty::Move;

use crate::advise::position_input::Line;
use mach_pages::{self as html, esc};

/// The URL of `line` one move `m` further.
pub fn link(line: &Line, m: Move) -> String {
    let next = mach_engine::board::uci(m, false);
    url_for(
        line.fen.as_deref(),
        line.moves
            .iter()
            .map(String::as_str)
            .chain(std::iter::once(next.as_str())),
    )
}

/// The URL that shows the position after `moves` from `fen` (or the start).
pub fn url_for<'a>(fen: Option<&str>, moves: impl Iterator<Item = &'a str>) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    if let Some(f) = fen {
        q.append_pair("fen", f);
    }
    q.append_pair("moves", &moves.collect::<Vec<_>>().join(" "));
    format!("/?{}", q.finish())
}

/// The form, the line's moves with a link back, and a message if any.
pub fn header(line: Option<&Line>, text: &str, message: Option<&str>) -> String {
    let mut out = format!(
        "<form id=\"explore\" method=\"post\" action=\"/\"><textarea name=\"q\" rows=\"2\" \
         placeholder=\"a FEN, or moves from the start: 1. e4 c5 2. Nf3 ... or e2e4 c7c5 g1f3\">{}</textarea>\
         <br><button type=\"submit\">Advise</button> <a href=\"/\">start position</a>",
        esc(text)
    );
    if let Some(l) = line.filter(|l| !l.moves.is_empty()) {
        let back = &l.moves[..l.moves.len() - 1];
        out.push_str(&format!(
            " <a id=\"back\" href=\"{}\">one move back</a>",
            esc(&url_for(l.fen.as_deref(), back.iter().map(String::as_str)))
        ));
    }
    out.push_str("</form>");
    if let Some(m) = message {
        out.push_str(&format!("<p class=\"err\" id=\"error\">{}</p>", esc(m)));
    }
    out
}

/// A page with the form and a message only.
pub fn error_page(text: Option<&str>, message: &str) -> String {
    html::page(
        "Mach explore",
        &format!(
            "<h1>Mach: what the grandmasters played here</h1>{}",
            header(None, text.unwrap_or(""), Some(message))
        ),
        "",
    )
}
