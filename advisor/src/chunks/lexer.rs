//! Tokens of the chunk language (docs/chunk-language.md), each with its line
//! and column so the parser can say where an error is.

use super::error::ChunkError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Letters, digits, `_` and `*`: keywords, names, pieces (`WP`, `W*`), squares.
    Ident(String),
    /// `$f`: a parameter (letters and `_` only, so `$f4` is `$f` then `4`).
    Param(String),
    Number(f64),
    /// One of `( ) , . .. & | + / = < > <= >= !=`.
    Sym(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
    pub col: usize,
    /// Byte offsets in the source: `D$r` is one square only when adjacent.
    pub start: usize,
    pub end: usize,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("\"{s}\""),
            Tok::Param(p) => format!("\"${p}\""),
            Tok::Number(n) => format!("\"{n}\""),
            Tok::Sym(s) => format!("\"{s}\""),
            Tok::Eof => "the end of the file".to_string(),
        }
    }
}

const SYMBOLS: [&str; 15] = [
    "..", "<=", ">=", "!=", "(", ")", ",", ".", "&", "|", "+", "/", "=", "<", ">",
];

/// Splits `src` into tokens; `#` starts a comment to the end of the line.
pub fn lex(file: &str, src: &str) -> Result<Vec<Token>, ChunkError> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let (mut i, mut line) = (0usize, 1usize);
    // The column of byte `col_at`, moved forward as `i` moves: counting the
    // characters from the start of the line at every token was quadratic
    // in the length of a line.
    let (mut col_at, mut col) = (0usize, 1usize);
    while i < bytes.len() {
        let c = bytes[i];
        // `i` is always at a character boundary (only ASCII is skipped byte
        // by byte; anything else is an error).
        col += src[col_at..i].chars().count();
        col_at = i;
        let at = |tok: Tok, start: usize, end: usize| Token {
            tok,
            line,
            col,
            start,
            end,
        };
        if c == b'\n' {
            line += 1;
            i += 1;
            (col_at, col) = (i, 1);
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            // A decimal point only when a digit follows: `3.` ends a statement.
            if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let n = src[start..i].parse().expect("digits parse");
            out.push(at(Tok::Number(n), start, i));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'*')
            {
                i += 1;
            }
            out.push(at(Tok::Ident(src[start..i].to_string()), start, i));
        } else if c == b'$' {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                i += 1;
            }
            if i == start + 1 {
                return Err(ChunkError::at(
                    file,
                    line,
                    col,
                    "expected a parameter name after \"$\"",
                ));
            }
            out.push(at(Tok::Param(src[start + 1..i].to_string()), start, i));
        } else if let Some(s) = SYMBOLS.iter().find(|s| src[i..].starts_with(**s)) {
            out.push(at(Tok::Sym(s), i, i + s.len()));
            i += s.len();
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(ChunkError::at(
                file,
                line,
                col,
                &format!("unexpected character {ch:?}"),
            ));
        }
    }
    col += src[col_at..].chars().count();
    out.push(Token {
        tok: Tok::Eof,
        line,
        col,
        start: bytes.len(),
        end: bytes.len(),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex("t", s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn a_statement_ends_with_a_dot_but_a_range_is_two() {
        assert_eq!(
            toks("WP on D2..D7. importance 2.5."),
            vec![
                Tok::Ident("WP".into()),
                Tok::Ident("on".into()),
                Tok::Ident("D2".into()),
                Tok::Sym(".."),
                Tok::Ident("D7".into()),
                Tok::Sym("."),
                Tok::Ident("importance".into()),
                Tok::Number(2.5),
                Tok::Sym("."),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn a_parameter_stops_before_digits_and_comments_are_skipped() {
        assert_eq!(
            toks("$f4 # a comment\nW*"),
            vec![
                Tok::Param("f".into()),
                Tok::Number(4.0),
                Tok::Ident("W*".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn columns_count_characters_and_restart_on_each_line() {
        let t = lex("t", "é WP\n  D4 # ü\n   ").unwrap_err();
        assert_eq!(t.to_string(), "t:1:1: unexpected character 'é'");
        let t = lex("t", "# é\nWP on\n  D4 # ü\n   ").unwrap();
        let at: Vec<_> = t.iter().map(|t| (t.line, t.col)).collect();
        assert_eq!(at, vec![(2, 1), (2, 4), (3, 3), (4, 4)]);
    }

    #[test]
    fn a_very_long_line_is_read_in_linear_time() {
        // 400 KB on one line took seconds when each token counted its column
        // from the start of the line; it is a few milliseconds now.
        let line = vec!["WP on D4"; 50_000].join(" & ");
        let start = std::time::Instant::now();
        let t = lex("t", &line).unwrap();
        assert_eq!(t.len(), 4 * 50_000);
        assert_eq!(t[t.len() - 2].col, line.len() - 1);
        assert!(
            start.elapsed() < std::time::Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_stray_character_is_an_error_with_its_place() {
        let e = lex("f.chunk", "chunk a\n  wrt ;").unwrap_err();
        assert_eq!(e.to_string(), "f.chunk:2:7: unexpected character ';'");
    }
}
