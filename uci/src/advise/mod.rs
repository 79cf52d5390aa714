//! The grandmaster memory shown to a person: what `mach advise` prints and
//! `mach explore` serves (the view of one position, as text or as a page),
//! the positions people type, the named openings, and the calibration table.

pub mod calibrate;
pub mod named_openings;
pub mod page;
pub mod position_input;
pub mod text;
pub mod view;
