//! The subcommands for people and scripts, one file each (`mach <cmd> --help`);
//! `mach match` and `mach tune` are crates of their own (`uci/runner`, `uci/tune`).

pub mod advise;
pub mod bench;
pub mod book;
pub mod chunks;
pub mod epd;
pub mod experience;
pub mod explore;
pub mod index;
pub mod learn;
pub mod perft;
pub mod sprt;
pub mod spsa;
pub mod tree;
