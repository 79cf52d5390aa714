//! The exact memory as one book: the opening tree's statistics and an
//! index's games for a position, merged so that no game counts twice.

use shakmaty::Chess;

use crate::book::{merge_books, BookMove};
use crate::index::AdvisorIndex;
use crate::opening_tree::OpeningTree;
use crate::retrieval::Hit;

/// The book of `pos` from the whole exact memory: the opening tree's
/// statistics and the index's games that reached it (`exact`, read by the
/// caller). With `merge` false the index's games are the tree's own (they
/// would count twice) and are read only where the tree has nothing.
pub fn book_of(
    pos: &Chess,
    tree: Option<&OpeningTree>,
    index: Option<(&AdvisorIndex, &[Hit])>,
    merge: bool,
) -> Vec<BookMove> {
    let from_tree = tree.map(|t| t.book(pos)).unwrap_or_default();
    match index {
        Some((index, exact)) if merge || from_tree.is_empty() => {
            merge_books(from_tree, index.book_given(pos, exact))
        }
        _ => from_tree,
    }
}
