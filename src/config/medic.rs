//! The `medic` section: MeDiC's online warp-type classifier at the L2 (HPCA 2015, §4.1),
//! which MeDiC's three policies and PC-Byp read, and whose window Rand, PCAL and PC-Byp
//! reset with, as the paper compares them (§5). The policies' own parameters are theirs
//! (`l2.rand.share`, ...). Every field has a default, so configs written before the
//! section existed still load.

use super::{BoundaryRateKind, WarpIdKind};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MedicConfig {
    /// Which warp the counters belong to: the SM's warp context or each dynamic warp.
    pub warp_id: WarpIdKind,
    /// Core cycles between resets of the per-warp counters (and of Rand's draw, PCAL's
    /// tokens and PC-Byp's table, which share the window).
    pub reset_interval: u64,
    /// L2 reads of a warp after each reset during which no bypass decision is made.
    pub profile_accesses: u32,
    /// Width of the per-warp hit and access counters; both halve when the access
    /// counter's top bit sets.
    pub counter_bits: u32,
    /// Hit ratio at or above which a warp is mostly-hit.
    pub mostly_hit_ratio: f64,
    /// Hit ratio at or below which a warp is mostly-miss, before dynamic lowering.
    pub mostly_miss_ratio: f64,
    /// The mostly-miss boundary drops by this much for every rise of this much in the
    /// L2 miss rate over the first window's (0 turns the tuning off).
    pub boundary_step: f64,
    /// Which L2 miss rate that tuning follows.
    pub boundary_rate: BoundaryRateKind,
    /// Warps whose hit ratio over time the report keeps (`warps.hit_ratio_series`).
    pub sampled_warps: u32,
}

impl Default for MedicConfig {
    fn default() -> Self {
        Self {
            warp_id: WarpIdKind::Context,
            reset_interval: 100_000,
            profile_accesses: 30,
            counter_bits: 10,
            mostly_hit_ratio: 0.7,
            mostly_miss_ratio: 0.2,
            boundary_step: 0.05,
            boundary_rate: BoundaryRateKind::L2Lookups,
            sampled_warps: 8,
        }
    }
}
