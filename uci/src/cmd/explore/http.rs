//! The bounded HTTP/1.1 server under `mach explore`: each connection on a
//! thread of its own (at most [`MAX_CONNECTIONS`] at once), its whole request
//! within [`REQUEST_TIME`], at most [`MAX_HEAD`] bytes of request line and
//! headers and [`MAX_BODY`] of body, a `Host` that names this server, and no
//! other origin. `httparse` reads the head; what a client controls is bounded
//! here (tiny_http 0.12 could not be: see Cargo.toml).

use std::io::{Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What answers a request that passed the checks.
pub type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// Largest form body read (a PGN's moves fit many times over); a longer one is refused.
pub const MAX_BODY: usize = 256 * 1024;
/// Largest request line and headers: a link to a line of 2,000 moves fits.
pub const MAX_HEAD: usize = 64 * 1024;
/// Most header fields in a request.
pub const MAX_HEADERS: usize = 64;
/// Time a client has, from its connection, to send its whole request.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);
/// Time a client has to take the answer.
pub const WRITE_TIME: Duration = Duration::from_secs(10);
/// Connections served at once; more are told to come back (503).
pub const MAX_CONNECTIONS: usize = 32;
/// What a refused client may still have on its way and is read (then dropped),
/// so that closing does not reset the connection before it reads the answer.
pub const MAX_DRAIN: usize = 256 * 1024;
/// How long that reading lasts at most.
pub const DRAIN_TIME: Duration = Duration::from_secs(1);

/// What a `Host` header may say.
pub struct Hosts {
    /// The names it may give, besides the address a connection came to.
    names: Vec<String>,
    /// The port listened on.
    port: u16,
}

/// Serves connections from `listener` until killed, each on a thread of its
/// own, answering the requests that pass the checks with `handler`.
pub fn serve_forever(listener: TcpListener, hosts: Hosts, handler: Arc<Handler>) {
    let hosts = Arc::new(hosts);
    let active = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        let stream = match conn {
            Ok(s) => s,
            Err(e) => {
                // Out of file descriptors, most likely: wait for some to close.
                log::warn!("explore: cannot accept a connection: {e}");
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            busy(stream);
            continue;
        }
        let slot = Slot::take(&active);
        let hosts = Arc::clone(&hosts);
        let handler = Arc::clone(&handler);
        let spawned = std::thread::Builder::new()
            .name("explore-connection".into())
            // The main thread's size, which answered every request before.
            .stack_size(8 << 20)
            .spawn(move || {
                let _slot = slot;
                serve(&hosts, &*handler, stream);
            });
        if let Err(e) = spawned {
            log::warn!("explore: cannot start a thread for a connection: {e}");
        }
    }
}

impl Hosts {
    /// The `Host` names answered when listening on `host`: the loopback names, and
    /// `host` itself (an IPv6 address in brackets, as a `Host` header writes it).
    pub fn new(host: &str, port: u16) -> Hosts {
        let mut names: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .map(String::from)
            .to_vec();
        let host = host.trim().to_ascii_lowercase();
        names.push(match host.parse::<IpAddr>() {
            Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
            _ => host,
        });
        Hosts { names, port }
    }

    /// Whether `hostport` (a `Host` header, or an origin without its scheme) names
    /// this server: one of its names or the address `local` the connection came to,
    /// and its port (80 when none is written).
    pub fn names_this_server(&self, hostport: &str, local: Option<SocketAddr>) -> bool {
        let hostport = hostport.trim().to_ascii_lowercase();
        let (name, port) = match hostport.rfind(':') {
            Some(i) if !hostport[i..].contains(']') => (&hostport[..i], Some(&hostport[i + 1..])),
            _ => (hostport.as_str(), None),
        };
        let port = match port {
            Some(p) => p.parse::<u16>().ok(),
            None => Some(80),
        };
        if port != Some(self.port) || name.is_empty() {
            return false;
        }
        // An IPv4 client of a `::` listener came to an IPv4-mapped address.
        let came_to = local.map(|a| match a.ip().to_canonical() {
            IpAddr::V4(ip) => ip.to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
        });
        self.names.iter().any(|n| n == name) || came_to.as_deref() == Some(name)
    }
}

/// One of the [`MAX_CONNECTIONS`] places, given back when dropped (also when its thread panics).
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(active: &Arc<AtomicUsize>) -> Slot {
        active.fetch_add(1, Ordering::SeqCst);
        Slot(Arc::clone(active))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Tells a connection over [`MAX_CONNECTIONS`] to come back later (a few bytes into a
/// fresh socket's buffer: the accept loop does not wait on the client).
fn busy(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let text = "too many connections at once: retry in a moment\n";
    let _ = stream.write_all(
        format!(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n\
             Content-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{text}",
            text.len()
        )
        .as_bytes(),
    );
}

/// A request read whole.
pub struct Request {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, Vec<u8>)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The values of the header `name` (case-insensitive), as text.
    fn all(&self, name: &str) -> impl Iterator<Item = String> + '_ {
        let name = name.to_string();
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(&name))
            .map(|(_, v)| String::from_utf8_lossy(v).trim().to_string())
    }
}

/// An answer: a status and a page.
pub struct Reply {
    pub status: u16,
    pub page: String,
}

impl Reply {
    pub fn refuse(status: u16, message: &str) -> Reply {
        Reply {
            status,
            page: super::form::error_page(None, message),
        }
    }
}

/// Why no request could be read: an answer to send, or nothing (the client left).
enum Failed {
    Answer(Reply),
    Gone,
}

impl From<Reply> for Failed {
    fn from(r: Reply) -> Failed {
        Failed::Answer(r)
    }
}

/// Reads one request from `stream`, answers it and closes the connection.
fn serve(hosts: &Hosts, handler: &Handler, mut stream: TcpStream) {
    let deadline = Instant::now() + REQUEST_TIME;
    let _ = stream.set_write_timeout(Some(WRITE_TIME));
    let local = stream.local_addr().ok();
    let (reply, head_only, unread) = match read_request(hosts, &mut stream, local, deadline) {
        Ok(req) => {
            let head_only = req.method == "HEAD";
            (handler(&req), head_only, false)
        }
        Err(Failed::Answer(r)) => (r, false, true),
        Err(Failed::Gone) => return,
    };
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
         X-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nCache-Control: no-store\r\n\
         Connection: close\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.page.len()
    )
    .into_bytes();
    if !head_only {
        out.extend_from_slice(reply.page.as_bytes());
    }
    if let Err(e) = stream.write_all(&out).and_then(|()| stream.flush()) {
        log::warn!("explore: cannot answer: {e}");
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    if unread {
        drain(&mut stream);
    }
}

/// Reads (and drops) what a refused client still sends, within bounds.
fn drain(stream: &mut TcpStream) {
    let until = Instant::now() + DRAIN_TIME;
    let mut buf = [0u8; 8192];
    let mut read = 0;
    while read < MAX_DRAIN {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
}

/// Reads into `buf` before `deadline`: the bytes read (0 when the client closed).
fn read_before(
    stream: &mut TcpStream,
    buf: &mut [u8],
    deadline: Instant,
) -> std::io::Result<usize> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(std::io::ErrorKind::TimedOut.into());
    }
    stream.set_read_timeout(Some(left))?;
    loop {
        match stream.read(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            r => return r,
        }
    }
}

/// The answer to a client too slow to send its request.
fn too_slow() -> Failed {
    Failed::Answer(Reply::refuse(
        408,
        &format!(
            "the request did not arrive whole within {} s",
            REQUEST_TIME.as_secs()
        ),
    ))
}

/// Reads and checks one request: its head within [`MAX_HEAD`], its `Host` and
/// `Origin`, then a body of at most [`MAX_BODY`], all before `deadline`.
fn read_request(
    hosts: &Hosts,
    stream: &mut TcpStream,
    local: Option<SocketAddr>,
    deadline: Instant,
) -> Result<Request, Failed> {
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    let (mut req, used) = loop {
        if let Some(parsed) = parse_head(&buf)? {
            break parsed;
        }
        if buf.len() >= MAX_HEAD {
            return Err(Reply::refuse(
                431,
                &format!(
                    "the request line and headers are longer than {} KiB",
                    MAX_HEAD / 1024
                ),
            )
            .into());
        }
        let room = chunk.len().min(MAX_HEAD - buf.len());
        match read_before(stream, &mut chunk[..room], deadline) {
            Ok(0) => return Err(Failed::Gone),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            // A connection opened and never used (browsers open some ahead) is just closed.
            Err(_) if buf.is_empty() => return Err(Failed::Gone),
            Err(e) if is_timeout(&e) => return Err(too_slow()),
            Err(_) => return Err(Failed::Gone),
        }
    };
    check_host(hosts, &req, local)?;
    check_origin(hosts, &req, local)?;
    if !matches!(req.method.as_str(), "GET" | "HEAD" | "POST") {
        return Err(Reply::refuse(405, &format!("no method {} here", req.method)).into());
    }
    let length = body_length(&req)?;
    let mut body = buf.split_off(used.min(buf.len()));
    body.truncate(length);
    if body.len() < length
        && req
            .all("expect")
            .any(|v| v.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    body.reserve_exact(length - body.len());
    while body.len() < length {
        let room = chunk.len().min(length - body.len());
        match read_before(stream, &mut chunk[..room], deadline) {
            Ok(0) => return Err(Failed::Gone),
            Ok(n) => body.extend_from_slice(&chunk[..n]),
            Err(e) if is_timeout(&e) => return Err(too_slow()),
            Err(_) => return Err(Failed::Gone),
        }
    }
    req.body = body;
    Ok(req)
}

/// Whether a read failed for want of time.
fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// The request head in `buf` and its length, once it is whole.
fn parse_head(buf: &[u8]) -> Result<Option<(Request, usize)>, Failed> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(buf) {
        Ok(httparse::Status::Complete(used)) => Ok(Some((
            Request {
                method: parsed.method.unwrap_or("").to_string(),
                target: parsed.path.unwrap_or("").to_string(),
                headers: parsed
                    .headers
                    .iter()
                    .map(|h| (h.name.to_string(), h.value.to_vec()))
                    .collect(),
                body: Vec::new(),
            },
            used,
        ))),
        Ok(httparse::Status::Partial) => Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            Err(Reply::refuse(431, &format!("more than {MAX_HEADERS} header fields")).into())
        }
        Err(e) => Err(Reply::refuse(400, &format!("not an HTTP request: {e}")).into()),
    }
}

/// The body's length from `Content-Length`, refused when it is not a plain
/// number, is over [`MAX_BODY`] or comes in chunks (before any of it is read).
fn body_length(req: &Request) -> Result<usize, Failed> {
    if req.all("transfer-encoding").next().is_some() {
        return Err(
            Reply::refuse(411, "send the form with a Content-Length, not in chunks").into(),
        );
    }
    let mut length = None;
    for v in req.all("content-length") {
        if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
            return Err(
                Reply::refuse(400, &format!("a Content-Length of '{}'", shorten(&v))).into(),
            );
        }
        // All digits: a number too big for usize is simply too big.
        let n = v.parse::<usize>().unwrap_or(usize::MAX);
        if length.is_some_and(|l| l != n) {
            return Err(Reply::refuse(400, "two different Content-Lengths").into());
        }
        length = Some(n);
    }
    let length = length.unwrap_or(0);
    if length > MAX_BODY {
        return Err(Reply::refuse(
            413,
            &format!(
                "a body of {} bytes: the most read is {} KiB",
                shorten(&length.to_string()),
                MAX_BODY / 1024
            ),
        )
        .into());
    }
    Ok(length)
}

/// A client's text cut for a message.
pub fn shorten(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

/// Refuses a request whose `Host` is missing or names another server (a page of
/// another site whose name was pointed at this machine: DNS rebinding).
fn check_host(hosts: &Hosts, req: &Request, local: Option<SocketAddr>) -> Result<(), Failed> {
    let given: Vec<String> = req.all("host").collect();
    let [host] = given.as_slice() else {
        return Err(Reply::refuse(400, "a request needs one Host header").into());
    };
    if hosts.names_this_server(host, local) {
        return Ok(());
    }
    Err(Reply::refuse(
        403,
        &format!(
            "this server does not answer for the host '{}': open http://127.0.0.1:{}/ \
             (or start mach explore with --host NAME to serve it under that name)",
            shorten(host),
            hosts.port
        ),
    )
    .into())
}

/// Refuses a request sent by a page of another origin (a form on another site
/// posting here); requests with no `Origin` (typed, followed, or not from a browser) pass.
fn check_origin(hosts: &Hosts, req: &Request, local: Option<SocketAddr>) -> Result<(), Failed> {
    for origin in req.all("origin") {
        let ours = origin
            .strip_prefix("http://")
            .is_some_and(|hp| hosts.names_this_server(hp, local));
        if !ours {
            return Err(Reply::refuse(
                403,
                &format!("requests from pages of {} are refused", shorten(&origin)),
            )
            .into());
        }
    }
    Ok(())
}

/// The reason phrase of a status this server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_names_and_port_are_answered() {
        let h = Hosts::new("127.0.0.1", 8000);
        let none = None;
        for ok in [
            "127.0.0.1:8000",
            "localhost:8000",
            "LOCALHOST:8000",
            "[::1]:8000",
        ] {
            assert!(h.names_this_server(ok, none), "{ok}");
        }
        for bad in [
            "evil.example:8000",
            "127.0.0.1:8001",
            "127.0.0.1",
            "localhost:8000:8000",
            ":8000",
            "[::1]",
            "127.0.0.1:80000",
            "",
        ] {
            assert!(!h.names_this_server(bad, none), "{bad}");
        }
        // The address a connection came to, when listening on every address.
        let all = Hosts::new("0.0.0.0", 80);
        let lan: SocketAddr = "192.168.1.5:80".parse().unwrap();
        assert!(all.names_this_server("192.168.1.5", Some(lan)));
        assert!(all.names_this_server("192.168.1.5:80", Some(lan)));
        assert!(!all.names_this_server("rebound.example", Some(lan)));
        let mapped: SocketAddr = "[::ffff:192.168.1.5]:80".parse().unwrap();
        assert!(Hosts::new("::", 80).names_this_server("192.168.1.5", Some(mapped)));
        // A name given with --host, and an IPv6 address in brackets.
        assert!(Hosts::new("MyBox.lan", 8000).names_this_server("mybox.lan:8000", none));
        assert!(Hosts::new("::2", 8000).names_this_server("[::2]:8000", none));
    }

    #[test]
    fn a_body_length_is_a_plain_number_within_the_limit() {
        let req = |headers: &[(&str, &str)]| Request {
            method: "POST".into(),
            target: "/".into(),
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.as_bytes().to_vec()))
                .collect(),
            body: Vec::new(),
        };
        let status = |r: Result<usize, Failed>| match r {
            Ok(n) => n as u16,
            Err(Failed::Answer(r)) => r.status,
            Err(Failed::Gone) => 0,
        };
        assert_eq!(status(body_length(&req(&[]))), 0);
        assert_eq!(status(body_length(&req(&[("Content-Length", "12")]))), 12);
        assert_eq!(
            status(body_length(&req(&[(
                "content-length",
                "18446744073709551615"
            )]))),
            413
        );
        assert_eq!(
            status(body_length(&req(&[(
                "Content-Length",
                "99999999999999999999999"
            )]))),
            413
        );
        assert_eq!(status(body_length(&req(&[("Content-Length", "-1")]))), 400);
        assert_eq!(status(body_length(&req(&[("Content-Length", "1e3")]))), 400);
        assert_eq!(
            status(body_length(&req(&[
                ("Content-Length", "5"),
                ("Content-Length", "6")
            ]))),
            400
        );
        assert_eq!(
            status(body_length(&req(&[("Transfer-Encoding", "chunked")]))),
            411
        );
    }
}
