//! The UCI engine: what a GUI talks to when `mach` runs without a subcommand.
//!
//! `stdin_loop` reads the GUI's lines and answers what must be answered at
//! once; `protocol` parses them; `controller` owns the engine and the
//! position and runs each `go` on a `search_thread` (`msg` is what the
//! controller receives); `advisor_client` keeps the grandmaster memory's
//! thread and requests, `advice_policy` turns its answer into what the
//! search gets, `advice_delivery` hands that to a running search, and
//! `book` is the one door through which a book move is played;
//! `experience_store` keeps what Mach's own searches found; `options`
//! declares and checks the UCI options; `output` writes every line the GUI
//! reads.

pub mod advice_delivery;
pub mod advice_policy;
pub mod advisor_client;
pub mod book;
pub mod controller;
pub mod experience_store;
pub mod msg;
pub mod options;
pub mod output;
pub mod protocol;
pub mod search_thread;
pub mod stdin_loop;
pub mod tree_analysis;
