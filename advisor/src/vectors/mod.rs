//! Positions as vectors ("Reconstructing chess positions"): an autoencoder
//! compresses a position to a few numbers and rebuilds it from them. The
//! board's tensor and the squares it is scored on (`planes`), and the
//! trained network as Mach runs it (`net`); training is `mach embed train`
//! (uci/embed). An index's vectors (`store`) and, for a large index, the
//! graph that finds the nearest of them without a scan (`ann`).

pub mod ann;
pub mod net;
pub mod planes;
pub mod store;

pub use net::{Layer, Net, Output};
pub use planes::Squares;
pub use store::VectorStore;
