//! One game between two engine processes, clocked and judged by the runner.
//!
//! The runner keeps the clocks; the rules (mate, stalemate, threefold, fifty
//! moves, insufficient material) are judged with shakmaty; a flag fall, an
//! illegal move, a crash or a hang loses the game for that engine and is
//! recorded as the termination.

use std::collections::HashMap;
use std::time::Duration;

use shakmaty::{
    uci::UciMove, zobrist::Zobrist64, CastlingMode, Chess, Color, EnPassantMode, Move, Position,
};

use super::adjudicate::{Adjudication, Judge};
use super::engine_proc::{score_text, EngineProc, Failure};
use super::types::{Control, GameResult, Opening, Played};

/// Extra time an engine may take beyond its clock before it counts as hung
/// (a flag fall is judged on the clock itself).
const HANG_GRACE: Duration = Duration::from_secs(2);
/// Per-move limit for node/depth searches before an engine counts as hung.
const UNTIMED_LIMIT: Duration = Duration::from_secs(60);
/// Longest game before it is adjudicated a draw.
const MAX_PLIES: usize = 800;

/// Plays `opening` out between `white` and `black` under `control`, ending
/// by rule, by adjudication (`rules`), or by an engine's failure.
pub fn play(
    white: &mut EngineProc,
    black: &mut EngineProc,
    opening: &Opening,
    control: Control,
    rules: Adjudication,
) -> Played {
    let mut judge = Judge::new(rules);
    let mut adjudicated: Option<(GameResult, String)> = None;
    let mut pos = opening.start.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut comments: Vec<Option<String>> = Vec::new();
    for m in &opening.moves {
        pos.play_unchecked(*m);
        moves.push(*m);
        comments.push(None);
    }
    let start_fen = opening.fen.clone();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    *seen.entry(key(&pos)).or_default() += 1;
    let (mut wtime, mut btime) = match control {
        Control::Clock { base_ms, .. } => (base_ms as i64, base_ms as i64),
        _ => (0, 0),
    };
    let _ = white.send("ucinewgame").and_then(|_| white.ready());
    let _ = black.send("ucinewgame").and_then(|_| black.ready());

    let end = |result,
               termination: &str,
               detail: String,
               (moves, comments): (Vec<Move>, Vec<Option<String>>),
               failed| Played {
        result,
        termination: termination.to_string(),
        detail,
        start: opening.start.clone(),
        start_fen: start_fen.clone(),
        moves,
        comments,
        failed,
    };

    loop {
        // The rules first.
        if pos.is_checkmate() {
            return end(
                GameResult::loss_for(pos.turn()),
                "normal",
                "checkmate".into(),
                (moves, comments),
                None,
            );
        }
        if pos.is_stalemate() {
            return end(
                GameResult::Draw,
                "normal",
                "stalemate".into(),
                (moves, comments),
                None,
            );
        }
        if pos.is_insufficient_material() {
            return end(
                GameResult::Draw,
                "normal",
                "insufficient material".into(),
                (moves, comments),
                None,
            );
        }
        if pos.halfmoves() >= 100 {
            return end(
                GameResult::Draw,
                "normal",
                "fifty-move rule".into(),
                (moves, comments),
                None,
            );
        }
        if seen.get(&key(&pos)).copied().unwrap_or(0) >= 3 {
            return end(
                GameResult::Draw,
                "normal",
                "threefold repetition".into(),
                (moves, comments),
                None,
            );
        }
        if let Some((result, why)) = adjudicated.take() {
            return end(result, "adjudication", why, (moves, comments), None);
        }
        if moves.len() >= MAX_PLIES {
            return end(
                GameResult::Draw,
                "adjudication",
                format!("{MAX_PLIES} plies"),
                (moves, comments),
                None,
            );
        }

        let side = pos.turn();
        let engine = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let uci: Vec<String> = moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        let position = match &start_fen {
            Some(f) if uci.is_empty() => format!("position fen {f}"),
            Some(f) => format!("position fen {f} moves {}", uci.join(" ")),
            None if uci.is_empty() => "position startpos".to_string(),
            None => format!("position startpos moves {}", uci.join(" ")),
        };
        let (go, timeout) = match control {
            Control::Clock { inc_ms, .. } => {
                let left = if side == Color::White { wtime } else { btime };
                (
                    format!("go wtime {wtime} btime {btime} winc {inc_ms} binc {inc_ms}"),
                    Duration::from_millis(left.max(0) as u64) + HANG_GRACE,
                )
            }
            Control::Nodes(n) => (format!("go nodes {n}"), UNTIMED_LIMIT),
            Control::Depth(d) => (format!("go depth {d}"), UNTIMED_LIMIT),
            Control::MoveTime(ms) => (
                format!("go movetime {ms}"),
                Duration::from_millis(ms) + HANG_GRACE,
            ),
        };
        let reply = match engine.go(&position, &go, timeout) {
            Ok(r) => r,
            Err(Failure::Timeout) => {
                let (t, d) = match control {
                    Control::Clock { .. } => (
                        "time forfeit",
                        "no move before its flag fell (hung)".to_string(),
                    ),
                    _ => ("unterminated", "no move in time (hung)".to_string()),
                };
                return end(
                    GameResult::loss_for(side),
                    t,
                    d,
                    (moves, comments),
                    Some(side),
                );
            }
            Err(e) => {
                return end(
                    GameResult::loss_for(side),
                    "abandoned",
                    e.to_string(),
                    (moves, comments),
                    Some(side),
                )
            }
        };
        if let Control::Clock { inc_ms, .. } = control {
            let clock = if side == Color::White {
                &mut wtime
            } else {
                &mut btime
            };
            *clock -= reply.elapsed.as_millis() as i64;
            if *clock < 0 {
                let d = format!("overstepped by {} ms", -*clock);
                return end(
                    GameResult::loss_for(side),
                    "time forfeit",
                    d,
                    (moves, comments),
                    None,
                );
            }
            *clock += inc_ms as i64;
        }
        let mv = reply
            .bestmove
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .filter(|m| pos.is_legal(*m));
        let Some(mv) = mv else {
            let d = format!("illegal move '{}'", reply.bestmove);
            return end(
                GameResult::loss_for(side),
                "rules infraction",
                d,
                (moves, comments),
                Some(side),
            );
        };
        adjudicated = judge.record(side, reply.score, pos.fullmoves().get(), mv.is_zeroing());
        let mut note = String::new();
        if let Some(score) = reply.score {
            note.push_str(&score_text(score));
            if let Some(d) = reply.depth {
                note.push_str(&format!("/{d}"));
            }
            note.push(' ');
        }
        note.push_str(&format!("{:.2}s", reply.elapsed.as_secs_f64()));
        comments.push(Some(note));
        pos.play_unchecked(mv);
        moves.push(mv);
        *seen.entry(key(&pos)).or_default() += 1;
    }
}
