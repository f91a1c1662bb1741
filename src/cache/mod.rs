//! Cache building blocks shared by the L1D and the L2 slices: set-index functions,
//! the tag array with its replacement order, the MSHR table and the per-warp victim tags; `teach` runs one cache
//! on its own over an address trace.

pub mod l1;
pub mod l2;
pub mod mshr;
pub mod set_index;
pub mod tags;
pub mod teach;
pub mod vta;

pub use mshr::MshrTable;
pub use set_index::SetIndex;
pub use tags::{Probe, TagArray};
