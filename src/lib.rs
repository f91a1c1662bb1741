//! warpscope: a cycle-level GPU memory-system simulator for studying memory divergence.

pub mod config;
pub mod dram;
pub mod kernels;
pub mod mem;
