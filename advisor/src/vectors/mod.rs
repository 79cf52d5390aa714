//! Positions as vectors ("Reconstructing chess positions"): an autoencoder
//! compresses a position to a few numbers and rebuilds it from them. The
//! board's tensor and the squares it is scored on (`planes`), and the
//! trained network as Mach runs it (`net`); training is `mach embed train`
//! (uci/embed).

pub mod net;
pub mod planes;
pub mod store;

pub use net::{Layer, Net, Output};
pub use planes::Squares;
pub use store::VectorStore;
