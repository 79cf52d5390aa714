//! SVG chess boards (White at the bottom) with highlighted squares and arrows.

use std::fmt::Write as _;

use shakmaty::{Bitboard, Board, Color, File, Move, Rank, Role, Square};

/// Side of one square in SVG units; the board is 8 of them.
pub const SQ: f32 = 40.0;

/// An arrow from one square's centre to another's.
#[derive(Clone, Copy, Debug)]
pub struct Arrow {
    pub from: Square,
    pub to: Square,
    /// Fill colour, e.g. `#1565c0`.
    pub color: &'static str,
    /// 0..=1: fainter arrows for weaker advice.
    pub opacity: f32,
}

/// What one board shows.
pub struct Diagram<'a> {
    pub board: &'a Board,
    /// Squares drawn in a highlight colour (e.g. shared with the query).
    pub highlight: Bitboard,
    pub arrows: Vec<Arrow>,
    /// Width and height in CSS pixels.
    pub px: u32,
    /// An `id` for the SVG element, so a script can redraw its pieces.
    pub id: String,
}

/// The squares an arrow for `m` joins (castling: king to its target square,
/// not onto the rook as shakmaty's move says).
pub fn move_squares(m: Move) -> (Square, Square) {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            (king, Square::from_coords(file, king.rank()))
        }
        _ => (m.from().unwrap_or(m.to()), m.to()),
    }
}

/// The glyph of a piece (the filled set for both colours; white is drawn filled white).
pub fn glyph(role: Role) -> char {
    match role {
        Role::King => '\u{265A}',
        Role::Queen => '\u{265B}',
        Role::Rook => '\u{265C}',
        Role::Bishop => '\u{265D}',
        Role::Knight => '\u{265E}',
        Role::Pawn => '\u{265F}',
    }
}

/// Top-left corner of a square in SVG units.
fn corner(sq: Square) -> (f32, f32) {
    (
        u32::from(sq.file()) as f32 * SQ,
        (7 - u32::from(sq.rank())) as f32 * SQ,
    )
}

/// The pieces of `board` as SVG text elements (also what the stepping script draws).
pub fn pieces(board: &Board) -> String {
    let mut out = String::new();
    for (sq, p) in board.iter() {
        let (x, y) = corner(sq);
        let class = if p.color == Color::White { "pw" } else { "pb" };
        let _ = write!(
            out,
            "<text class=\"{class}\" x=\"{}\" y=\"{}\">{}</text>",
            x + SQ / 2.0,
            y + SQ * 0.8,
            glyph(p.role)
        );
    }
    out
}

/// An arrow as one polygon: shaft and head.
fn arrow(a: &Arrow) -> String {
    let centre = |sq: Square| {
        let (x, y) = corner(sq);
        (x + SQ / 2.0, y + SQ / 2.0)
    };
    let ((x1, y1), (x2, y2)) = (centre(a.from), centre(a.to));
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (px, py) = (-uy, ux);
    let (shaft, head_w, head_l) = (3.5, 10.0, 14.0);
    let bx = x2 - ux * head_l;
    let by = y2 - uy * head_l;
    let pts = [
        (x1 + px * shaft, y1 + py * shaft),
        (bx + px * shaft, by + py * shaft),
        (bx + px * head_w, by + py * head_w),
        (x2, y2),
        (bx - px * head_w, by - py * head_w),
        (bx - px * shaft, by - py * shaft),
        (x1 - px * shaft, y1 - py * shaft),
    ];
    let points: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    format!(
        "<polygon class=\"arrow\" points=\"{}\" fill=\"{}\" fill-opacity=\"{:.2}\"/>",
        points.join(" "),
        a.color,
        a.opacity.clamp(0.15, 1.0)
    )
}

/// The board as an inline SVG element.
pub fn svg(d: &Diagram) -> String {
    let mut out = format!(
        "<svg class=\"board\" id=\"{}\" viewBox=\"0 0 {w} {w}\" width=\"{px}\" height=\"{px}\" \
         xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">",
        d.id,
        w = 8.0 * SQ,
        px = d.px
    );
    // Light squares are the background, dark ones one path: a board stays small.
    let mut dark = String::new();
    for sq in Square::ALL {
        if (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 0 {
            let (x, y) = corner(sq);
            let _ = write!(dark, "M{x} {y}h{SQ}v{SQ}h-{SQ}z");
        }
    }
    let _ = write!(
        out,
        "<rect width=\"{w}\" height=\"{w}\" fill=\"#f0d9b5\"/><path d=\"{dark}\" fill=\"#b58863\"/>",
        w = 8.0 * SQ
    );
    // Highlights are an overlay, so a script can hide them without redrawing the squares.
    out.push_str("<g class=\"hls\">");
    for sq in d.highlight {
        let (x, y) = corner(sq);
        let _ = write!(
            out,
            "<rect class=\"hl\" x=\"{x}\" y=\"{y}\" width=\"{SQ}\" height=\"{SQ}\"/>"
        );
    }
    out.push_str("</g>");
    out.push_str("<g class=\"co\">");
    for i in 0..8u32 {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text><text x=\"2\" y=\"{}\">{}</text>",
            i as f32 * SQ + SQ - 7.0,
            8.0 * SQ - 2.0,
            File::new(i).char(),
            (7 - i) as f32 * SQ + 10.0,
            Rank::new(i).char()
        );
    }
    out.push_str("</g>");
    let _ = write!(out, "<g class=\"pieces\">{}</g>", pieces(d.board));
    out.push_str("<g class=\"arrows\">");
    for a in &d.arrows {
        out.push_str(&arrow(a));
    }
    out.push_str("</g></svg>");
    out
}

/// CSS for the boards' pieces and coordinates (system fonts with chess glyphs).
pub const CSS: &str = ".pw,.pb{font-family:'DejaVu Sans','Noto Sans Symbols 2','Segoe UI Symbol',sans-serif;font-size:33px;text-anchor:middle}
.pw{fill:#fff;stroke:#000;stroke-width:1.2px}.pb{fill:#000}
.co{font-size:8px;fill:#333;font-family:sans-serif}.hl{fill:#6fae2e;fill-opacity:.5}
.away .hls,.away .arrows{display:none}";

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn the_start_position_has_thirty_two_pieces_and_the_arrows_asked_for() {
        let pos = Chess::default();
        let d = Diagram {
            board: pos.board(),
            highlight: Bitboard::from(Square::E2),
            arrows: vec![Arrow {
                from: Square::E2,
                to: Square::E4,
                color: "#00f",
                opacity: 1.0,
            }],
            px: 320,
            id: "b0".into(),
        };
        let s = svg(&d);
        assert_eq!(s.matches("class=\"pw\"").count(), 16);
        assert_eq!(s.matches("class=\"pb\"").count(), 16);
        assert_eq!(s.matches("class=\"arrow\"").count(), 1);
        assert_eq!(s.matches("class=\"hl\"").count(), 1);
    }

    #[test]
    fn a_castling_arrow_goes_to_the_kings_square() {
        let m = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(move_squares(m), (Square::E1, Square::G1));
    }
}
