//! A game the reader can step through: its board, buttons, clickable moves and a PGN download link.

use std::fmt::Write as _;

use super::{esc, pgn_data_url};

/// What the stepper needs of one game.
pub struct Stepper<'a> {
    /// The element id (unique in the page).
    pub id: &'a str,
    /// The board as first shown (an SVG from `board::svg`, at ply `at`).
    pub svg: String,
    /// Board FEN of the game's start, and (SAN, board FEN after) per ply.
    pub start_board: &'a str,
    pub plies: &'a [(String, String)],
    /// The ply first shown: highlights and arrows belong to it.
    pub at: usize,
    /// Number of the game's first move and whether White makes it.
    pub first_move: u32,
    pub white_first: bool,
    pub pgn: &'a str,
    /// File name the PGN downloads as.
    pub pgn_name: &'a str,
}

/// The stepper as HTML (it works with [`SCRIPT`] in the page).
pub fn html(s: &Stepper) -> String {
    let boards: Vec<&str> = s.plies.iter().map(|(_, b)| b.as_str()).collect();
    let mut out = format!(
        "<div class=\"stepper\" id=\"{}\" data-start=\"{}\" data-boards=\"{}\" data-at=\"{}\" data-cur=\"{}\">{}\
         <div><button data-step=\"-1000\">|&lt;</button><button data-step=\"-1\">&lt;</button>\
         <button data-step=\"1\">&gt;</button><button data-step=\"1000\">&gt;|</button>\
         <button data-step=\"0\">here</button> \
         <a class=\"pgn\" download=\"{}\" href=\"{}\">PGN</a></div><div class=\"moves\">",
        s.id,
        esc(s.start_board),
        esc(&boards.join(" ")),
        s.at,
        s.at,
        s.svg,
        esc(s.pgn_name),
        pgn_data_url(s.pgn)
    );
    for (i, (san, _)) in s.plies.iter().enumerate() {
        let white = (i % 2 == 0) == s.white_first;
        let no = s.first_move as usize + (i + usize::from(!s.white_first)) / 2;
        if white {
            let _ = write!(out, "{no}.");
        } else if i == 0 {
            let _ = write!(out, "{no}...");
        }
        let cur = if i + 1 == s.at { " class=\"cur\"" } else { "" };
        let _ = write!(out, "<span data-i=\"{}\"{cur}>{}</span> ", i + 1, esc(san));
    }
    out.push_str("</div></div>");
    out
}

/// The page's script for every stepper: redraws the pieces from board FENs
/// (the same glyphs and places as `board::pieces`), hides the highlights and
/// arrows away from the retrieved position. A link ending `#g3@10` opens
/// game 3 at ply 10.
pub const SCRIPT: &str = r#"
const GLYPH={k:'\u265A',q:'\u265B',r:'\u265C',b:'\u265D',n:'\u265E',p:'\u265F'};
function drawBoard(svg,fen){let s='',r=0,f=0;for(const c of fen){if(c==='/'){r++;f=0;continue}
if(c>='1'&&c<='8'){f+=+c;continue}const w=c!==c.toLowerCase();
s+='<text class="'+(w?'pw':'pb')+'" x="'+(f*40+20)+'" y="'+(r*40+32)+'">'+GLYPH[c.toLowerCase()]+'</text>';f++}
svg.querySelector('.pieces').innerHTML=s}
function goTo(v,i){const b=v.dataset.boards?v.dataset.boards.split(' '):[];i=Math.max(0,Math.min(b.length,i));
v.dataset.cur=i;const svg=v.querySelector('svg');drawBoard(svg,i===0?v.dataset.start:b[i-1]);
svg.classList.toggle('away',i!==+v.dataset.at);
v.querySelectorAll('.moves span').forEach(s=>s.classList.toggle('cur',+s.dataset.i===i))}
document.addEventListener('click',e=>{const t=e.target,v=t.closest('.stepper');if(!v)return;
if(t.dataset.step!==undefined){const d=+t.dataset.step;goTo(v,d===0?+v.dataset.at:+v.dataset.cur+d)}
else if(t.dataset.i!==undefined){goTo(v,+t.dataset.i)}});
const deep=location.hash.match(/^#(g[0-9]+)@([0-9]+)$/);
if(deep){const v=document.getElementById(deep[1]);if(v){goTo(v,+deep[2]);v.scrollIntoView()}}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stepper_numbers_moves_and_marks_the_shown_one() {
        let plies = vec![
            ("e4".to_string(), "b1".to_string()),
            ("e5".to_string(), "b2".to_string()),
            ("Nf3".to_string(), "b3".to_string()),
        ];
        let h = html(&Stepper {
            id: "g1",
            svg: "<svg></svg>".into(),
            start_board: "b0",
            plies: &plies,
            at: 2,
            first_move: 1,
            white_first: true,
            pgn: "1. e4 e5 2. Nf3 *",
            pgn_name: "g1.pgn",
        });
        assert!(h.contains(
            "1.<span data-i=\"1\">e4</span> <span data-i=\"2\" class=\"cur\">e5</span> 2.<span"
        ));
        assert!(h.contains("data-boards=\"b1 b2 b3\""));
        assert!(h.contains("download=\"g1.pgn\""));
    }
}
