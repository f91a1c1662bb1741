//! A replay run: the simulator for a trace's benchmark, and the trace's part of the report.

use super::translate::{OpcodeCount, OpcodeTable};
use super::{TraceInput, TraceKernel};
use crate::config::{ConfigError, ConfigErrors};
use crate::kernels::Benchmark;
use crate::sim::coordinated::{input_load_tags, ProfileInput};
use crate::{Config, Simulator};
use serde::Serialize;
use std::rc::Rc;

/// The machine `cfg` around the trace's launches, once each CTA fits an SM. An L1 bypass
/// policy that profiles the loads before the run (coordinated bypassing and its variants)
/// profiles the trace `profile`, by traced PC, with seed `seed + 1` as for a built-in
/// kernel: a second trace of the same program (a smaller input, as the paper does), or the
/// replayed trace itself, which gives an oracle's profile.
pub fn simulator(cfg: Config, bench: Benchmark, seed: u64, profile: &TraceInput) -> Result<Simulator, ConfigErrors> {
    Simulator::check_fits(&cfg, &bench)?;
    let s = &cfg.sample;
    for (field, set) in [
        ("sample.warming_scheduler", s.warming_scheduler.is_some()),
        ("sample.warming_rop_skip", s.warming_rop_skip.is_some()),
    ] {
        if set && !s.is_off() {
            let msg = format!(
                "a trace replay is sampled with its own warming; leave {field} unset (it shares one warming \
                 between built-in kernel runs)"
            );
            return Err(ConfigError::new(field, msg).into());
        }
    }
    let open = || {
        let why = |e| ConfigError::new("l1d.bypass", format!("the profiling pass cannot read {}: {e}", profile.name));
        Ok(Rc::new(profile.open().map_err(why)?))
    };
    let tags = input_load_tags(&cfg, &ProfileInput::trace(&profile.name, &open, seed.wrapping_add(1)))?;
    let mut sim = Simulator::with_benchmark(cfg, bench, seed);
    sim.set_load_tags(&tags);
    Ok(sim)
}

/// One kernel trace file and its header's launch: the grid decides the CTAs; shared
/// memory and registers per thread are reported, not modelled (occupancy comes from the
/// preset's limits, as for built-in kernels).
#[derive(Debug, Clone, Serialize)]
pub struct TraceLaunch {
    pub file: String,
    pub name: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shmem: u32,
    pub nregs: u32,
    pub tracer_version: u32,
    /// Bytes `MemcpyHtoD` lines copy before it; copies are not simulated (caches start cold).
    pub memcpy_bytes_before: u64,
}

/// The trace's part of a report: what was read and how each opcode was treated.
#[derive(Debug, Clone, Serialize)]
pub struct TraceReport {
    /// The kernel trace files replayed, in launch order.
    pub kernels: Vec<TraceLaunch>,
    /// Warp instructions read from them (EXIT included).
    pub instructions: u64,
    pub opcodes: Vec<OpcodeCount>,
    /// What stopped reading (a malformed or truncated file): the run is then not valid.
    pub error: Option<String>,
}

impl TraceReport {
    /// The report of `bench`'s trace launches, None when it has none.
    pub fn of(bench: &Benchmark) -> Option<TraceReport> {
        let mut table = OpcodeTable::default();
        let mut kernels = Vec::new();
        let mut error = None;
        for k in bench.launches.iter().filter_map(|k| TraceKernel::of(&**k)) {
            let h = k.header();
            kernels.push(TraceLaunch {
                file: k.file().to_string(),
                name: h.name.clone(),
                grid: h.grid,
                block: h.block,
                shmem: h.shmem,
                nregs: h.nregs,
                tracer_version: h.version,
                memcpy_bytes_before: k.copied_before(),
            });
            table.merge(&k.opcodes());
            error = error.or_else(|| k.error().map(|e| e.to_string()));
        }
        let opcodes = table.rows();
        let instructions = opcodes.iter().map(|o| o.count).sum();
        (!kernels.is_empty()).then_some(TraceReport { kernels, instructions, opcodes, error })
    }
}
