//! The streaming multiprocessor: warps, their schedulers, the coalescer and the
//! LD/ST unit in front of the L1D.

pub mod coalescer;
pub mod config;
pub mod issue_gate;
pub mod latency;
pub mod ldst;
mod pace;
pub mod sched;
pub mod sm;
pub mod warp;
pub mod warp_load;

pub use sm::{Sm, SmStats};
