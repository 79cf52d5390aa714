//! `mach explore [--index DIR] [--port 8000]`: the advice page served on the loopback address,
//! with a form for a FEN or moves and a link on every suggested move that goes one ply deeper.

use std::io::Read as _;
use std::path::PathBuf;

use mach_advisor::retrieval::QueryOptions;
use mach_advisor::AdvisorIndex;
use shakmaty::Move;

use crate::advise::page::{self as advise_page, Served};
use crate::advise::position_input::{self, Line};
use crate::advise::view as advise_view;
use mach_inputs as paths;
use mach_pages::{self as html, esc};

#[derive(clap::Args)]
pub struct Args {
    /// Index directory (default: $MACH_INDEX, else the platform's data directory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Address to listen on. Only the loopback address unless you say otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Games to retrieve per position.
    #[arg(long, default_value_t = 30)]
    top: usize,
}

/// Largest form body read (a PGN's moves fit many times over).
const MAX_BODY: u64 = 256 * 1024;

/// Serves pages until killed; one request at a time.
pub fn run(a: &Args) -> Result<(), String> {
    let dir = a.index.clone().unwrap_or_else(paths::default_index_dir);
    let index = AdvisorIndex::open(&dir).map_err(|e| {
        format!("{e}\n(build the default index with `mach index`, or pass --index DIR)")
    })?;
    let server = tiny_http::Server::http((a.host.as_str(), a.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", a.host, a.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    println!(
        "mach explore: listening on http://{addr}/ (index {})",
        dir.display()
    );
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let o = QueryOptions {
        k: a.top,
        ..QueryOptions::default()
    };
    for mut req in server.incoming_requests() {
        let url = req.url().to_string();
        let mut body = String::new();
        if *req.method() == tiny_http::Method::Post {
            let _ = req.as_reader().take(MAX_BODY).read_to_string(&mut body);
        }
        let (status, page) = if url.starts_with("/?") || url == "/" || url.starts_with("/advise") {
            let query = url.split_once('?').map_or("", |(_, q)| q).to_string();
            let page = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                answer(&index, &o, &query, &body)
            }))
            .unwrap_or_else(|_| {
                log::error!("explore: a request panicked: {url}");
                error_page(
                    None,
                    "internal error while answering (see the server's log)",
                )
            });
            (200, page)
        } else {
            (404, error_page(None, &format!("no page {url}")))
        };
        let header = tiny_http::Header::from_bytes("Content-Type", "text/html; charset=utf-8")
            .expect("a valid header");
        // The page is whole before it is sent: a Content-Length, never
        // chunks (tiny_http chunks bodies over 32 KB, which plain clients
        // and scripts reading the socket to its end get wrong).
        let resp = tiny_http::Response::from_string(page)
            .with_status_code(status)
            .with_header(header)
            .with_chunked_threshold(usize::MAX);
        if let Err(e) = req.respond(resp) {
            log::warn!("explore: cannot answer {url}: {e}");
        }
    }
    Ok(())
}

/// The form fields of the query string and the body.
fn fields(query: &str, body: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .chain(form_urlencoded::parse(body.as_bytes()))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// The position a request asks for: `q` (a FEN or moves, as typed), else
/// `fen` and/or `moves` (as the links write them), else the start.
fn line_of(fields: &[(String, String)]) -> Result<Line, String> {
    let get = |k: &str| {
        fields
            .iter()
            .find(|(n, v)| n == k && !v.trim().is_empty())
            .map(|(_, v)| v.as_str())
    };
    if let Some(q) = get("q") {
        return position_input::parse(q);
    }
    let start = match get("fen") {
        Some(f) => position_input::from_fen(f)?,
        None => position_input::from_moves("")?,
    };
    position_input::extend(start, get("moves").unwrap_or(""))
}

/// The URL of `line` one move `m` further.
fn link(line: &Line, m: Move) -> String {
    url_of(&line.then(m))
}

/// The URL that shows `line`.
fn url_of(line: &Line) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    if let Some(f) = &line.fen {
        q.append_pair("fen", f);
    }
    q.append_pair("moves", &line.moves.join(" "));
    format!("/?{}", q.finish())
}

/// The form, the line's moves with a link back, and a message if any.
fn header(line: Option<&Line>, text: &str, message: Option<&str>) -> String {
    let mut out = format!(
        "<form id=\"explore\" method=\"post\" action=\"/\"><textarea name=\"q\" rows=\"2\" \
         placeholder=\"a FEN, or moves from the start: 1. e4 c5 2. Nf3 ... or e2e4 c7c5 g1f3\">{}</textarea>\
         <br><button type=\"submit\">Advise</button> <a href=\"/\">start position</a>",
        esc(text)
    );
    if let Some(l) = line.filter(|l| !l.moves.is_empty()) {
        let mut back = l.clone();
        back.moves.pop();
        let back = position_input::extend(
            match &l.fen {
                Some(f) => position_input::from_fen(f).unwrap_or_else(|_| l.clone()),
                None => position_input::from_moves("").unwrap_or_else(|_| l.clone()),
            },
            &back.moves.join(" "),
        );
        if let Ok(b) = back {
            out.push_str(&format!(
                " <a id=\"back\" href=\"{}\">one move back</a>",
                esc(&url_of(&b))
            ));
        }
    }
    out.push_str("</form>");
    if let Some(m) = message {
        out.push_str(&format!("<p class=\"err\" id=\"error\">{}</p>", esc(m)));
    }
    out
}

/// A page with the form and a message only.
fn error_page(text: Option<&str>, message: &str) -> String {
    html::page(
        "Mach explore",
        &format!(
            "<h1>Mach: what the grandmasters played here</h1>{}",
            header(None, text.unwrap_or(""), Some(message))
        ),
        "",
    )
}

/// The page for one request: the advice for the position asked for, or the form and a message.
fn answer(index: &AdvisorIndex, o: &QueryOptions, query: &str, body: &str) -> String {
    let f = fields(query, body);
    let typed = f
        .iter()
        .find(|(k, _)| k == "q")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let line = match line_of(&f) {
        Ok(l) => l,
        Err(e) => return error_page(Some(&typed), &format!("cannot read that position: {e}")),
    };
    let shown = match &line.fen {
        Some(_) => shakmaty::fen::Fen::from_position(line.pos(), shakmaty::EnPassantMode::Legal)
            .to_string(),
        None => line.moves.join(" "),
    };
    let view = match advise_view::gather(
        index,
        line.clone(),
        o,
        crate::uci::advice_policy::Weights::default(),
    ) {
        Ok(v) => v,
        Err(e) => return error_page(Some(&shown), &format!("the advisor failed: {e}")),
    };
    let to = |m: Move| link(&line, m);
    let served = Served {
        header: header(Some(&line), &shown, None),
        link: &to,
    };
    advise_page::page(&view, Some(&served))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(q: &str) -> Vec<(String, String)> {
        fields(q, "")
    }

    #[test]
    fn a_link_one_move_deeper_reads_back_to_that_position() {
        let line = line_of(&f("q=1.+e4+c5")).unwrap();
        let m = shakmaty::uci::UciMove::from_ascii(b"g1f3")
            .unwrap()
            .to_move(line.pos())
            .unwrap();
        let url = link(&line, m);
        let back = line_of(&f(url.trim_start_matches("/?"))).unwrap();
        assert_eq!(back.moves, ["e2e4", "c7c5", "g1f3"]);
    }

    #[test]
    fn a_fen_line_keeps_its_fen_in_links() {
        let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let line = line_of(&f(&format!(
            "fen={}&moves=f1b5",
            form_urlencoded::byte_serialize(fen.as_bytes()).collect::<String>()
        )))
        .unwrap();
        assert_eq!(line.moves, ["f1b5"]);
        assert!(url_of(&line).contains("fen="));
    }

    #[test]
    fn nonsense_is_an_error_not_a_panic() {
        assert!(line_of(&f("q=hello+world")).is_err());
        assert!(line_of(&f("fen=8%2F8")).is_err());
        assert!(line_of(&f("moves=e2e5")).is_err());
    }
}
