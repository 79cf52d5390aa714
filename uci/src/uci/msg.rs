//! What the controller thread receives: from the stdin thread, the GUI's
//! commands in order; from a search thread, that it is done.

use std::sync::Arc;

use mach_engine::SearchControl;

use crate::uci::protocol::{Command, Go};

pub enum Msg {
    Command(Command),
    /// `go`, with the control the stdin thread made for it (so a `stop` read
    /// right after `go` reaches this search even before it starts).
    Go(Box<Go>, Arc<SearchControl>),
    IsReady,
    /// Sent by the search thread after its `bestmove`.
    SearchDone,
    Quit,
}
