//! The UCI engine: what a GUI talks to when `mach` runs without a subcommand.
//!
//! `stdin_loop` reads the GUI's lines and answers what must be answered at
//! once; `protocol` parses them; `controller` owns the engine and the
//! position and runs each `go` on a `search_thread`; `advisor_client` keeps
//! the grandmaster memory's thread and requests; `options` declares and
//! checks the UCI options; `output` writes every line the GUI reads.

pub mod advisor_client;
pub mod controller;
pub mod options;
pub mod output;
pub mod protocol;
pub mod search_thread;
pub mod stdin_loop;
