//! `mach explore` under hostile or careless clients: huge or missing bodies,
//! huge header lines, long games, foreign `Host` and `Origin` headers, and a
//! listening address beyond loopback. Each test starts its own server on a
//! free loopback port; every socket read and write has a timeout.

mod common;

use common::mach;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long any answer that should come at once may take on a loaded machine.
const AT_ONCE: Duration = Duration::from_secs(5);

/// A small index of the built-in database (built once per run, a second).
fn index() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| common::small_index("mach-explore-server-index", 100))
        .clone()
}

/// `mach explore` on a free port; killed when dropped.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`, as printed.
    addr: String,
    port: u16,
    /// The lines the server wrote to stderr (when started with [`Server::start_with`]).
    stderr: Option<mpsc::Receiver<String>>,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[], false)
    }

    /// With `extra` arguments; keeps its stderr lines when `stderr` is set.
    fn start_with(extra: &[&str], stderr: bool) -> Server {
        let mut cmd = Command::new(mach());
        cmd.args(["explore", "--port", "0", "--top", "5", "--index"])
            .arg(index())
            .args(extra);
        Server::spawn(cmd, stderr)
    }

    /// `cmd` (a `mach explore --port 0 ...`) started and its address read.
    fn spawn(mut cmd: Command, stderr: bool) -> Server {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .unwrap();
        let lines = child.stderr.take().map(|e| {
            let (tx, rx) = mpsc::channel();
            std::thread::spawn(move || {
                for l in BufReader::new(e).lines().map_while(Result::ok) {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
            });
            rx
        });
        let out = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(out).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server prints its address");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line}"));
        let hostport = url.trim_start_matches("http://").trim_end_matches('/');
        let port: u16 = hostport.rsplit(':').next().unwrap().parse().unwrap();
        Server {
            child,
            addr: format!("127.0.0.1:{port}"),
            port,
            stderr: lines,
        }
    }

    /// A connection to the server with read and write timeouts of `limit`.
    fn connect(&self, limit: Duration) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(limit)).unwrap();
        s.set_write_timeout(Some(limit)).unwrap();
        s
    }

    /// Sends `raw` and reads the answer to its end; fails past `limit`.
    fn exchange(&self, raw: &[u8], limit: Duration) -> String {
        let mut s = self.connect(limit);
        s.write_all(raw).unwrap();
        read_all(&mut s, limit)
    }

    /// A plain request with the right Host and, unless empty, a form body.
    fn request(&self, method: &str, path: &str, body: &str, limit: Duration) -> String {
        self.exchange(
            format!(
                "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                self.addr,
                body.len()
            )
            .as_bytes(),
            limit,
        )
    }

    /// The start page answers, and with the advice.
    fn assert_serves(&self) {
        let page = self.request("GET", "/", "", AT_ONCE);
        assert_eq!(status(&page), 200, "{}", head(&page));
        assert!(page.contains("id=\"advice\""), "{}", head(&page));
    }

    /// The most memory the server has ever held (VmHWM), in KiB.
    fn peak_kib(&self) -> u64 {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        s.lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmHWM in /proc/PID/status")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Everything `s` sends until it closes; fails if that takes longer than `limit`.
fn read_all(s: &mut TcpStream, limit: Duration) -> String {
    let start = Instant::now();
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!(
                "no whole answer after {:?} ({e}); got {:?}",
                start.elapsed(),
                String::from_utf8_lossy(&out[..out.len().min(300)])
            ),
        }
        assert!(start.elapsed() < limit, "the answer took over {limit:?}");
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The status code of a response (0 if there is none).
fn status(resp: &str) -> u16 {
    resp.strip_prefix("HTTP/1.1 ")
        .and_then(|r| r.get(..3))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

/// The start of a response, for messages.
fn head(resp: &str) -> &str {
    resp.char_indices()
        .nth(400)
        .map_or(resp, |(i, _)| &resp[..i])
}

/// A legal game of `plies` half-moves: the knights out and back, over and over.
fn knight_shuffle(plies: usize) -> String {
    ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .cycle()
        .take(plies)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The form body that submits `q`.
fn form(q: &str) -> String {
    form_urlencoded::Serializer::new(String::new())
        .append_pair("q", q)
        .finish()
}

#[test]
fn a_huge_content_length_is_refused_and_the_server_serves_the_next_request() {
    let server = Server::start();
    for length in [
        "100000000000000",
        "18446744073709551615",
        "99999999999999999999999999",
        "-1",
    ] {
        let resp = server.exchange(
            format!(
                "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: {length}\r\n\r\nq=e4",
                server.addr
            )
            .as_bytes(),
            AT_ONCE,
        );
        assert!(
            matches!(status(&resp), 400 | 413),
            "Content-Length {length}: {}",
            head(&resp)
        );
        server.assert_serves();
    }
}

#[test]
fn a_client_that_never_sends_its_body_does_not_block_another() {
    let server = Server::start();
    let mut stalled = server.connect(Duration::from_secs(60));
    write!(
        stalled,
        "POST / HTTP/1.1\r\nHost: {}\r\nContent-Length: 2000\r\n\r\nq=e2e4",
        server.addr
    )
    .unwrap();
    stalled.flush().unwrap();
    // The other client is answered while the first one still owes its body.
    server.assert_serves();
    let page = server.request("POST", "/", &form("1. e4 e5"), AT_ONCE);
    assert_eq!(status(&page), 200, "{}", head(&page));
    // And the stalled one is told so in the end, not kept forever.
    let resp = read_all(&mut stalled, Duration::from_secs(60));
    assert_eq!(status(&resp), 408, "{}", head(&resp));
}

#[test]
fn sixteen_thousand_plies_are_refused_at_once_with_a_clear_message() {
    let server = Server::start();
    let start = Instant::now();
    let page = server.request("POST", "/", &form(&knight_shuffle(16_000)), AT_ONCE);
    assert!(start.elapsed() < AT_ONCE);
    assert_eq!(status(&page), 200, "{}", head(&page));
    assert!(page.contains("id=\"error\""), "{}", head(&page));
    assert!(page.contains("2000 plies"), "the limit is named");
    assert!(!page.contains("id=\"advice\""));
    server.assert_serves();
}

#[test]
fn a_game_of_two_thousand_plies_is_answered_and_its_links_work() {
    let server = Server::start();
    let limit = Duration::from_secs(20);
    let page = server.request("POST", "/", &form(&knight_shuffle(2000)), limit);
    assert_eq!(status(&page), 200, "{}", head(&page));
    assert!(page.contains("id=\"advice\""), "{}", head(&page));
    // The link one move back carries all 1,999 moves in its URL.
    let marker = "id=\"back\" href=\"";
    let at = page.find(marker).expect("a link one move back") + marker.len();
    let href = page[at..][..page[at..].find('"').unwrap()].replace("&amp;", "&");
    assert!(href.len() > 10_000, "{}", href.len());
    let back = server.request("GET", &href, "", limit);
    assert_eq!(status(&back), 200, "{}", head(&back));
    assert!(back.contains("id=\"position\""), "{}", head(&back));
}

#[test]
fn a_request_for_another_host_is_refused() {
    let server = Server::start();
    let port = server.port;
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        format!("localhost.evil.example:{port}"),
    ] {
        let resp = server.exchange(
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
            AT_ONCE,
        );
        assert_eq!(status(&resp), 403, "Host {host}: {}", head(&resp));
        assert!(!resp.contains("id=\"advice\""));
    }
    let resp = server.exchange(b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n", AT_ONCE);
    assert_eq!(status(&resp), 400, "no Host: {}", head(&resp));
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
    ] {
        let resp = server.exchange(
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
            AT_ONCE,
        );
        assert_eq!(status(&resp), 200, "Host {host}: {}", head(&resp));
    }
}

#[test]
fn a_cross_origin_post_is_refused() {
    let server = Server::start();
    let body = form("e4 e5");
    let post = |origin: &str| {
        server.exchange(
            format!(
                "POST / HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\n\
                 Content-Type: application/x-www-form-urlencoded\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                server.addr,
                body.len()
            )
            .as_bytes(),
            AT_ONCE,
        )
    };
    for origin in [
        "http://evil.example".to_string(),
        "null".to_string(),
        format!("http://127.0.0.1:{}", server.port.wrapping_add(1)),
        format!("https://127.0.0.1:{}", server.port),
    ] {
        let resp = post(&origin);
        assert_eq!(status(&resp), 403, "Origin {origin}: {}", head(&resp));
        assert!(!resp.contains("id=\"advice\""));
    }
    let resp = post(&format!("http://{}", server.addr));
    assert_eq!(status(&resp), 200, "same origin: {}", head(&resp));
    assert!(resp.contains("id=\"advice\""), "{}", head(&resp));
}

#[cfg(target_os = "linux")]
#[test]
fn a_100_mb_header_line_is_refused_without_the_server_growing() {
    let server = Server::start();
    server.assert_serves();
    let before = server.peak_kib();
    let mut s = server.connect(AT_ONCE);
    let chunk = vec![b'a'; 1 << 20];
    let _ = write!(s, "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: ", server.addr);
    let start = Instant::now();
    let mut sent = 0;
    // The server stops reading long before the end: a write fails or times out.
    while sent < 100 && start.elapsed() < Duration::from_secs(60) {
        if s.write_all(&chunk).is_err() {
            break;
        }
        sent += 1;
    }
    assert!(sent < 100, "the server read the whole 100 MB header line");
    drop(s);
    server.assert_serves();
    let grown = server.peak_kib().saturating_sub(before);
    assert!(
        grown < 16 * 1024,
        "the server grew by {grown} KiB on a huge header line"
    );
    // A head just too long gets a clear status when the client waits for it.
    let mut s = server.connect(AT_ONCE);
    let long = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}\r\n\r\n",
        server.addr,
        "a".repeat(100 * 1024)
    );
    let _ = s.write_all(long.as_bytes());
    let resp = read_all(&mut s, AT_ONCE);
    assert_eq!(status(&resp), 431, "{}", head(&resp));
}

#[test]
fn listening_beyond_loopback_prints_a_warning() {
    let server = Server::start_with(&["--host", "0.0.0.0"], true);
    let lines = server.stderr.as_ref().unwrap();
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(l) if l.contains("warning") && l.contains("0.0.0.0") => break,
            Ok(l) => seen.push(l),
            Err(_) => panic!("no warning on stderr; got {seen:#?}"),
        }
    }
    // Loopback alone says nothing.
    let quiet = Server::start_with(&[], true);
    quiet.assert_serves();
    let said: Vec<String> = quiet.stderr.as_ref().unwrap().try_iter().collect();
    assert!(!said.iter().any(|l| l.contains("warning")), "{said:#?}");
}

#[test]
fn with_no_index_the_pages_show_the_opening_tree() {
    let home = common::temp("explore-home");
    let mut cmd = Command::new(mach());
    cmd.args(["explore", "--port", "0"])
        .env("HOME", home.path())
        .env_remove("XDG_DATA_HOME")
        .env_remove("MACH_INDEX");
    let server = Server::spawn(cmd, false);
    let page = server.request(
        "GET",
        "/?q=d4+Nf6+c4+e5+dxe5+Ng4",
        "",
        Duration::from_secs(30),
    );
    assert_eq!(status(&page), 200, "{}", head(&page));
    assert!(
        page.contains("93 games of the opening tree reached this position"),
        "{page}"
    );
    assert!(page.contains("id=\"advice\""), "{page}");
}
