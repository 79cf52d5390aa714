//! Text from files (players, events, tags of a PGN) made safe for a terminal:
//! no control characters (C0, DEL, C1), so a name such as
//! `\x1b]0;PWNED\x07\x1b[2J` cannot retitle or clear the reader's terminal.

use std::borrow::Cow;

/// A one-line field (a name, an event): a tab, newline or carriage return
/// becomes a space, any other control character is dropped.
pub fn field(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\r' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect(),
    )
}

/// A whole message of lines: its newlines and tabs kept (they are its
/// layout), every other control character dropped.
pub fn text(s: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().filter(|&c| !bad(c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_lose_their_control_characters_and_plain_names_are_untouched() {
        let evil = "Carlsen\x1b]0;PWNED\x07\x1b[2J\u{9b}31m\x7f";
        assert_eq!(field(evil), "Carlsen]0;PWNED[2J31m");
        assert_eq!(field("Anand,\tV.\r\nx"), "Anand, V.  x");
        assert!(matches!(field("Nepomniachtchi, Ian"), Cow::Borrowed(_)));
        assert_eq!(field("Ðуров ☺"), "Ðуров ☺");
        assert_eq!(text("a\x1b[2J\n\tb\r"), "a[2J\n\tb");
    }
}
