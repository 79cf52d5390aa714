//! `mach explore [--index DIR] [--port 8000]`: the advice page served on the loopback address,
//! with a form for a FEN or moves and a link on every suggested move that goes one ply deeper.
//!
//! The HTTP side (`http.rs`) bounds everything a client controls: each connection is served on a
//! thread of its own (at most [`MAX_CONNECTIONS`] at once), must send its whole
//! request within [`REQUEST_TIME`], with at most [`MAX_HEAD`] bytes of request line
//! and headers and [`MAX_BODY`] of body, for a `Host` that names this server, and
//! from no other origin; a line asked for has at most [`MAX_PLIES`] moves.

mod form;
mod http;

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;

use mach_advisor::opening_tree::OpeningTree;
use mach_advisor::retrieval::QueryOptions;
use mach_advisor::AdvisorIndex;
use shakmaty::Move;

use crate::advise::page::{self as advise_page, Served};
use crate::advise::position_input::{self, Line};
use crate::advise::view as advise_view;
use crate::uci::advisor_client;
use form::{error_page, header, link};
use http::{shorten, Hosts, Reply, Request};
use mach_files as paths;

#[derive(clap::Args)]
pub struct Args {
    /// Index directory (default: $MACH_INDEX, else the platform's data directory).
    #[arg(long)]
    index: Option<PathBuf>,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Address to listen on. Only the loopback address unless you say otherwise;
    /// requests must name 127.0.0.1, localhost, [::1], this address or the one they came to.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Games to retrieve per position.
    #[arg(long, default_value_t = 30)]
    top: usize,
    /// Leave the built-in opening tree out (the index's games alone).
    #[arg(long)]
    no_tree: bool,
}

/// Longest line a request may ask for, in plies: games end long before.
const MAX_PLIES: usize = 2000;

/// What every connection's thread shares.
struct Site {
    /// None: the opening tree alone (no index at the default place).
    index: Option<AdvisorIndex>,
    tree: Option<OpeningTree<'static>>,
    merge: bool,
    o: QueryOptions,
}

/// Serves pages until killed, each connection on a thread of its own.
pub fn run(a: &Args) -> Result<(), String> {
    let dir = a.index.clone().unwrap_or_else(paths::default_index_dir);
    let tree = advisor_client::tree_unless(a.no_tree)?;
    // With no index at the default place the pages show the tree alone.
    let index = if tree.is_some() && a.index.is_none() && !dir.exists() {
        None
    } else {
        Some(AdvisorIndex::open(&dir).map_err(|e| {
            format!("{e}\n(build the default index with `mach index`, or pass --index DIR)")
        })?)
    };
    let listener = TcpListener::bind((a.host.as_str(), a.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", a.host, a.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the server has no address: {e}"))?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "mach explore: warning: listening on {addr}, beyond the loopback address: \
             anyone who can reach this machine there can use this page and its CPU"
        );
    }
    println!(
        "mach explore: listening on http://{addr}/ ({})",
        match &index {
            Some(_) => format!("index {}", dir.display()),
            None => format!("the opening tree alone: no index at {}", dir.display()),
        }
    );
    let _ = std::io::stdout().flush();
    let site = Arc::new(Site {
        merge: advisor_client::merges(index.as_ref()),
        index,
        tree,
        o: QueryOptions {
            k: a.top,
            ..QueryOptions::default()
        },
    });
    http::serve_forever(
        listener,
        Hosts::new(&a.host, addr.port()),
        Arc::new(move |req: &Request| answer_request(&site, req)),
    );
    Ok(())
}

/// The page for a request that passed the checks.
fn answer_request(site: &Site, req: &Request) -> Reply {
    let url = &req.target;
    if !(url.starts_with("/?") || url == "/" || url.starts_with("/advise")) {
        return Reply::refuse(404, &format!("no page {}", shorten(url)));
    }
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let body: &[u8] = if req.method == "POST" { &req.body } else { &[] };
    let page = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(site, query, body)))
        .unwrap_or_else(|_| {
            log::error!("explore: a request panicked: {url}");
            error_page(
                None,
                "internal error while answering (see the server's log)",
            )
        });
    Reply { status: 200, page }
}

/// The form fields of the query string and the body.
fn fields(query: &str, body: &[u8]) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .chain(form_urlencoded::parse(body))
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
        return position_input::parse(q, MAX_PLIES);
    }
    let start = match get("fen") {
        Some(f) => position_input::from_fen(f)?,
        None => position_input::from_moves("")?,
    };
    position_input::extend_at_most(start, get("moves").unwrap_or(""), MAX_PLIES)
}

/// The page for one request: the advice for the position asked for, or the form and a message.
fn answer(site: &Site, query: &str, body: &[u8]) -> String {
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
    let memory = advise_view::Memory {
        index: site.index.as_ref(),
        tree: site.tree.as_ref(),
        merge: site.merge,
        shapes: true,
    };
    let view = match advise_view::gather(
        &memory,
        line.clone(),
        &site.o,
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
    use shakmaty::Position as _;

    fn f(q: &str) -> Vec<(String, String)> {
        fields(q, b"")
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
        assert!(link(&line, line.pos().legal_moves()[0]).contains("fen="));
    }

    #[test]
    fn nonsense_is_an_error_not_a_panic() {
        assert!(line_of(&f("q=hello+world")).is_err());
        assert!(line_of(&f("fen=8%2F8")).is_err());
        assert!(line_of(&f("moves=e2e5")).is_err());
    }
}
