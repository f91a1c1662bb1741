//! A benchmark's shape without simulating it: launches, grids, static memory
//! instructions and instruction counts (`warpscope inspect`).

use super::{Benchmark, Instr, StaticLoad};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct LaunchSummary {
    pub name: String,
    pub ctas: u32,
    pub threads_per_cta: u32,
    pub warps: u64,
    pub warp_instructions: u64,
    pub memory_instructions: u64,
    pub static_loads: Vec<StaticLoad>,
}

/// Walks every warp of every launch through `emit` and counts what it issues.
pub fn summarize(bench: &Benchmark) -> Vec<LaunchSummary> {
    let mut out = Vec::new();
    bench
        .launches
        .iter()
        .map(|k| {
            let g = k.grid();
            let mut s = LaunchSummary {
                name: k.name(),
                ctas: g.ctas,
                threads_per_cta: g.threads_per_cta,
                warps: g.ctas as u64 * g.warps_per_cta() as u64,
                warp_instructions: 0,
                memory_instructions: 0,
                static_loads: k.static_loads(),
            };
            for cta in 0..g.ctas {
                for warp in 0..g.warps_per_cta() {
                    let mut step = 0;
                    while k.emit(cta, warp, step, &mut out) {
                        step += 1;
                        s.warp_instructions += out.len() as u64;
                        s.memory_instructions += out.iter().filter(|i| matches!(i, Instr::Mem(_))).count() as u64;
                        out.clear();
                    }
                }
            }
            s
        })
        .collect()
}
