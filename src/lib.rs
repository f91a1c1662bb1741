//! warpscope: a cycle-level GPU memory-system simulator for studying memory divergence.
//!
//! The same core runs natively (the `warpscope` CLI) and in the browser (wasm). A run
//! is a `Config` (a preset plus overrides), a built-in benchmark at a size, and a seed;
//! the same three always give the same `Report`.

pub mod cache;
pub mod clock;
pub mod config;
pub mod core;
pub mod dram;
pub mod figures;
pub mod histogram;
pub mod icnt;
pub mod kernels;
pub mod mem;
pub mod partition;
pub mod plot;
pub mod queue;
pub mod sample;
pub mod settings;
pub mod sim;
pub mod speedup;
pub mod stats;
pub mod trace;
mod trace_text;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use config::{Config, ConfigError, ConfigErrors, Size};
pub use sim::{Progress, SimError, Simulator};
pub use stats::Report;

/// Runs `kernel` at `size` on `cfg` to the end (or to `max_cycles` core cycles) and
/// returns the report.
pub fn run(cfg: Config, kernel: &str, size: Size, seed: u64, max_cycles: Option<u64>) -> Result<Report, ConfigErrors> {
    let mut sim = Simulator::new(cfg, kernel, size, seed)?;
    sim.run_until(max_cycles.unwrap_or(u64::MAX));
    Ok(stats::build_report(&sim))
}
