//! Engine-bound UCI commands: one parser, built on `vampirc-uci`, with every
//! known defect of vampirc-uci 0.11 routed around here and nowhere else.
//!
//! vampirc-uci parses the simple commands (`uci`, `debug`, `isready`,
//! `register`, `ucinewgame`, `stop`, `ponderhit`, `quit`). The three commands
//! it gets wrong are parsed here:
//! - `go`: it panics on `depth 300` / `movestogo 300` (u8 overflow) and drops
//!   `ponder` when other parameters follow it;
//! - `position`: it silently truncates the move list at a bad move
//!   (`moves e2e4 zz99`), and rejects FENs without move counters and FENs
//!   with Chess960 (Shredder) castling rights;
//! - `setoption`: it rejects option names containing the word "value"
//!   (`ValueScale`).
//!
//! The tests at the bottom check both halves: that vampirc still has each
//! defect (so we notice when an upgrade fixes it) and that we do not.

use vampirc_uci::UciMessage;

/// What the GUI asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    Register,
    UciNewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Box<Go>),
    Stop,
    PonderHit,
    Quit,
}

/// `go` parameters as sent; clamping and meaning are the engine's business.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<i64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// Tokens we could not use, reported to the GUI as `info string`.
    pub ignored: Vec<String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProtocolError {
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("malformed '{command}' command: {reason}")]
    Malformed {
        command: &'static str,
        reason: String,
    },
}

const KEYWORDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "register",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

/// Parses one line. Empty lines give `Ok(None)`. As the UCI specification
/// asks, unknown words before a command are skipped (`joho debug on`).
pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(start) = tokens.iter().position(|t| KEYWORDS.contains(t)) else {
        return if tokens.is_empty() {
            Ok(None)
        } else {
            Err(ProtocolError::Unknown(
                line.trim().chars().take(80).collect(),
            ))
        };
    };
    let tokens = &tokens[start..];
    let rest = &tokens[1..];
    let command = match tokens[0] {
        "go" => Command::Go(Box::new(parse_go(rest))),
        "position" => parse_position(rest)?,
        "setoption" => parse_setoption(line, rest)?,
        _ => parse_simple(&tokens.join(" "))?,
    };
    Ok(Some(command))
}

/// The commands vampirc-uci parses correctly.
fn parse_simple(line: &str) -> Result<Command, ProtocolError> {
    // vampirc only ever sees lines that start with a simple keyword, but a
    // parser bug must still not take the engine down.
    let parsed = std::panic::catch_unwind(|| vampirc_uci::parse_one(line))
        .unwrap_or_else(|_| UciMessage::Unknown(line.to_string(), None));
    Ok(match parsed {
        UciMessage::Uci => Command::Uci,
        UciMessage::Debug(on) => Command::Debug(on),
        UciMessage::IsReady => Command::IsReady,
        UciMessage::Register { .. } => Command::Register,
        UciMessage::UciNewGame => Command::UciNewGame,
        UciMessage::Stop => Command::Stop,
        UciMessage::PonderHit => Command::PonderHit,
        UciMessage::Quit => Command::Quit,
        _ => {
            return Err(ProtocolError::Unknown(line.chars().take(80).collect()));
        }
    })
}

fn parse_go(tokens: &[&str]) -> Go {
    let mut go = Go::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let number = tokens.get(i + 1).and_then(|t| t.parse::<i64>().ok());
        let mut takes_value = true;
        match key {
            "infinite" => {
                go.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            "searchmoves" => {
                i += 1;
                while i < tokens.len() && !is_go_keyword(tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
                continue;
            }
            "wtime" => go.wtime = number,
            "btime" => go.btime = number,
            "winc" => go.winc = number,
            "binc" => go.binc = number,
            "movetime" => go.movetime = number,
            // Counts saturate instead of overflowing; negative ones mean nothing.
            "movestogo" => go.movestogo = number.map(|n| n.clamp(0, u32::MAX as i64) as u32),
            "depth" => go.depth = number.map(|n| n.clamp(0, u32::MAX as i64) as u32),
            "mate" => go.mate = number.map(|n| n.clamp(0, u32::MAX as i64) as u32),
            "nodes" => go.nodes = number.map(|n| n.max(0) as u64),
            _ => {
                go.ignored.push(key.to_string());
                takes_value = false;
            }
        }
        if takes_value {
            if number.is_none() {
                go.ignored.push(format!("{key} (needs a number)"));
            } else {
                i += 1;
            }
        }
        i += 1;
    }
    go
}

fn is_go_keyword(t: &str) -> bool {
    matches!(
        t,
        "searchmoves"
            | "ponder"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
    )
}

fn parse_position(tokens: &[&str]) -> Result<Command, ProtocolError> {
    let malformed = |reason: &str| ProtocolError::Malformed {
        command: "position",
        reason: reason.to_string(),
    };
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (spec, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &[][..]),
    };
    let fen = match spec.first() {
        Some(&"startpos") if spec.len() == 1 => None,
        Some(&"startpos") => return Err(malformed("unexpected words after 'startpos'")),
        Some(&"fen") if spec.len() > 1 => Some(spec[1..].join(" ")),
        Some(&"fen") => return Err(malformed("'fen' without a FEN")),
        _ => return Err(malformed("expected 'startpos' or 'fen <FEN>'")),
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// `setoption`; `tokens` (after the word) are slices of `line`, so the
/// value can be taken from the raw line: paths keep their double spaces and tabs.
fn parse_setoption(line: &str, tokens: &[&str]) -> Result<Command, ProtocolError> {
    let malformed = |reason: &str| ProtocolError::Malformed {
        command: "setoption",
        reason: reason.to_string(),
    };
    if tokens.first() != Some(&"name") {
        return Err(malformed(
            "expected 'setoption name <name> [value <value>]'",
        ));
    }
    // The name runs up to the first lone word "value" (the specification
    // keeps that word out of names), so names may contain spaces; the value
    // is the rest of the line, trimmed at its ends only.
    let body = &tokens[1..];
    let (name, value) = match body.iter().position(|&t| t == "value") {
        Some(i) if i > 0 => {
            let end = body[i].as_ptr() as usize - line.as_ptr() as usize + body[i].len();
            (body[..i].join(" "), Some(line[end..].trim().to_string()))
        }
        _ => (body.join(" "), None),
    };
    if name.is_empty() {
        return Err(malformed("missing option name"));
    }
    Ok(Command::SetOption { name, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        match parse(line) {
            Ok(Some(Command::Go(g))) => *g,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn vampirc_panics(line: &'static str) -> bool {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = std::panic::catch_unwind(|| vampirc_uci::parse_one(line)).is_err();
        std::panic::set_hook(hook);
        r
    }

    #[test]
    fn defect_go_depth_300_overflows_u8() {
        assert!(
            vampirc_panics("go depth 300\n"),
            "vampirc fixed? then simplify protocol.rs"
        );
        assert_eq!(go("go depth 300").depth, Some(300));
    }

    #[test]
    fn defect_go_movestogo_300_overflows_u8() {
        assert!(vampirc_panics("go wtime 1000 btime 1000 movestogo 300\n"));
        let g = go("go wtime 1000 btime 1000 movestogo 300");
        assert_eq!(
            (g.wtime, g.btime, g.movestogo),
            (Some(1000), Some(1000), Some(300))
        );
    }

    #[test]
    fn defect_go_ponder_is_dropped() {
        let v = vampirc_uci::parse_one("go ponder wtime 1000 btime 2000\n");
        let vampirc_kept_ponder = matches!(
            v,
            UciMessage::Go {
                time_control: Some(vampirc_uci::UciTimeControl::Ponder),
                ..
            }
        );
        assert!(
            !vampirc_kept_ponder,
            "vampirc fixed? then simplify protocol.rs"
        );
        let g = go("go ponder wtime 1000 btime 2000");
        assert!(g.ponder);
        assert_eq!((g.wtime, g.btime), (Some(1000), Some(2000)));
    }

    #[test]
    fn defect_bad_move_silently_truncates_move_list() {
        if let UciMessage::Position { moves, .. } =
            vampirc_uci::parse_one("position startpos moves e2e4 zz99 e7e5\n")
        {
            assert!(moves.len() < 3, "vampirc fixed? then simplify protocol.rs");
        }
        let cmd = parse("position startpos moves e2e4 zz99 e7e5")
            .unwrap()
            .unwrap();
        assert_eq!(
            cmd,
            Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "zz99".into(), "e7e5".into()]
            }
        );
    }

    #[test]
    fn defect_fen_without_move_counters() {
        let line =
            "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 moves e7e5";
        let v = vampirc_uci::parse_one(&format!("{line}\n"));
        assert!(
            !matches!(v, UciMessage::Position { fen: Some(_), ref moves, .. } if moves.len() == 1)
        );
        let cmd = parse(line).unwrap().unwrap();
        assert_eq!(
            cmd,
            Command::Position {
                fen: Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3".into()),
                moves: vec!["e7e5".into()]
            }
        );
    }

    #[test]
    fn defect_chess960_castling_rights() {
        let line = "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let v = vampirc_uci::parse_one(&format!("{line}\n"));
        assert!(
            !matches!(v, UciMessage::Position { fen: Some(_), .. }),
            "vampirc fixed?"
        );
        assert!(matches!(
            parse(line),
            Ok(Some(Command::Position { fen: Some(_), .. }))
        ));
    }

    #[test]
    fn defect_option_name_containing_value() {
        let v = vampirc_uci::parse_one("setoption name ValueScale value 3\n");
        assert!(
            !matches!(v, UciMessage::SetOption { ref name, .. } if name == "ValueScale"),
            "vampirc fixed? then simplify protocol.rs"
        );
        assert_eq!(
            parse("setoption name ValueScale value 3").unwrap().unwrap(),
            Command::SetOption {
                name: "ValueScale".into(),
                value: Some("3".into())
            }
        );
    }

    #[test]
    fn option_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 100")
                .unwrap()
                .unwrap(),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            parse("setoption name AdvisorIndex value /tmp/my index dir")
                .unwrap()
                .unwrap(),
            Command::SetOption {
                name: "AdvisorIndex".into(),
                value: Some("/tmp/my index dir".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash").unwrap().unwrap(),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
    }

    #[test]
    fn option_values_keep_their_inner_spaces_and_the_word_value() {
        assert_eq!(
            parse("setoption name BookFile value /books/opening value.bin")
                .unwrap()
                .unwrap(),
            Command::SetOption {
                name: "BookFile".into(),
                value: Some("/books/opening value.bin".into())
            }
        );
        assert_eq!(
            parse("setoption name AdvisorIndex value /data/My  Index\tA  ")
                .unwrap()
                .unwrap(),
            Command::SetOption {
                name: "AdvisorIndex".into(),
                value: Some("/data/My  Index\tA".into())
            }
        );
        assert_eq!(
            parse("joho setoption name Move Overhead value")
                .unwrap()
                .unwrap(),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some(String::new())
            }
        );
    }

    #[test]
    fn go_forms() {
        let g = go("go wtime -50 btime 1000 winc 10 binc 10 movestogo 5");
        assert_eq!(g.wtime, Some(-50));
        let g = go("go infinite searchmoves e2e4 d2d4");
        assert!(g.infinite);
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        let g = go("go searchmoves e2e4 depth 5");
        assert_eq!((g.searchmoves.len(), g.depth), (1, Some(5)));
        let g = go("go nodes 99999999999 mate 3 movetime 100");
        assert_eq!(
            (g.nodes, g.mate, g.movetime),
            (Some(99_999_999_999), Some(3), Some(100))
        );
        let g = go("go depth banana wibble");
        assert_eq!(g.depth, None);
        assert_eq!(g.ignored.len(), 3, "{:?}", g.ignored);
        assert_eq!(go("go depth 99999999999999999999").depth, None);
        assert_eq!(go("go depth 2147483648").depth, Some(2_147_483_648));
    }

    #[test]
    fn simple_commands_and_garbage() {
        assert_eq!(parse("uci").unwrap(), Some(Command::Uci));
        assert_eq!(parse("  isready  ").unwrap(), Some(Command::IsReady));
        assert_eq!(parse("joho debug on").unwrap(), Some(Command::Debug(true)));
        assert_eq!(parse("stop").unwrap(), Some(Command::Stop));
        assert_eq!(parse("ponderhit").unwrap(), Some(Command::PonderHit));
        assert_eq!(parse("quit").unwrap(), Some(Command::Quit));
        assert_eq!(parse("ucinewgame").unwrap(), Some(Command::UciNewGame));
        assert_eq!(parse("").unwrap(), None);
        assert!(parse("hello world").is_err());
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("setoption").is_err());
        assert!(parse("setoption name").is_err());
        assert!(parse("\u{0}\u{1}garbage\u{ff}").is_err());
    }

    #[test]
    fn arbitrary_lines_never_panic() {
        // A small deterministic fuzz: mutated real commands and random bytes.
        let seeds = [
            "go wtime 1000 btime 1000 winc 10 binc 10",
            "position startpos moves e2e4 e7e5",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves",
            "setoption name Hash value 64",
            "debug on",
            "register later",
            "go searchmoves",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let seed = seeds[(rnd() % seeds.len() as u64) as usize];
            let mut bytes = seed.as_bytes().to_vec();
            for _ in 0..(rnd() % 4) {
                let at = (rnd() % (bytes.len() as u64 + 1)) as usize;
                match rnd() % 3 {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => bytes.insert(at, (rnd() % 128) as u8),
                    _ => bytes.insert(at, b' '),
                }
            }
            let line = String::from_utf8_lossy(&bytes);
            let _ = parse(&line);
        }
    }
}
