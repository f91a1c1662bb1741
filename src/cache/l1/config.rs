//! The L1D's config section (`l1d`) and the policy names only it takes; `config` composes it
//! into the whole machine's `Config`.

use super::bypass::L1BypassKind;
use crate::cache::set_index::SetIndexKind;
use crate::cache::tags::ReplacementKind;
use crate::settings::policy_enum;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L1Config {
    pub size_kb: u32,
    pub line_bytes: u32,
    pub ways: u32,
    pub set_index: SetIndexKind,
    pub replacement: ReplacementKind,
    pub allocation: AllocationKind,
    pub mshrs: u32,
    /// Requests that may merge into one MSHR entry (including the first).
    pub mshr_merge: u32,
    pub miss_queue: u32,
    /// Core cycles from access to data for a hit.
    pub hit_latency: u32,
    #[serde(default = "defaults::bypass")]
    pub bypass: L1BypassKind,
    /// Bypassed requests an SM may have in flight (`inf`: no limit).
    #[serde(default)]
    pub bypass_slots: BypassSlots,
    /// What a `.cg` load asks the L2 for: the sectors its lanes touch, or the line.
    #[serde(default = "defaults::cg_granularity")]
    pub cg_granularity: CgGranularity,
    /// MRPB: requests each warp's reorder queue holds.
    #[serde(default = "defaults::mrpb_queue")]
    pub mrpb_queue: u32,
    /// MDB: sampled accesses between decisions on how many warps keep the L1.
    #[serde(default = "defaults::mdb_interval")]
    pub mdb_interval: u32,
    /// Victim tags kept per warp (FIFO) for miss classification, CCWS and iWarp.
    #[serde(default = "defaults::l1_vta_entries")]
    pub vta_entries: u32,
}

impl L1Config {
    pub fn sets(&self) -> u32 {
        (self.size_kb * 1024) / (self.ways.max(1) * self.line_bytes.max(1))
    }
}

/// Limit on in-flight bypassed requests per SM: a count, or `"inf"` for none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BypassSlots(pub Option<u32>);

impl Serialize for BypassSlots {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(n) => s.serialize_u32(n),
            None => s.serialize_str("inf"),
        }
    }
}

impl<'de> Deserialize<'de> for BypassSlots {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Count(u32),
            Word(String),
        }
        match Raw::deserialize(d).map_err(|_| serde::de::Error::custom("expected a number of slots or \"inf\""))? {
            Raw::Count(n) => Ok(BypassSlots(Some(n))),
            Raw::Word(w) if w == "inf" => Ok(BypassSlots(None)),
            Raw::Word(w) => w
                .trim()
                .parse()
                .map(|n| BypassSlots(Some(n)))
                .map_err(|_| serde::de::Error::custom(format!("`{w}` is not a number of slots or \"inf\""))),
        }
    }
}

policy_enum!(
    /// When an L1 miss reserves its line (`l1d.allocation`).
    AllocationKind {
        /// Reserve the victim line at miss time (Fermi-style).
        OnMiss => "on_miss",
        /// Reserve only an MSHR and a miss-queue entry; pick the victim when the data returns.
        OnFill => "on_fill",
    }
);

policy_enum!(
    /// What a `.cg` load asks the L2 for (`l1d.cg_granularity`).
    CgGranularity {
        /// The 32 B sectors its lanes touch: Fermi's coalescer makes uncached loads 32 B
        /// segments (GPGPU-Sim does the same for `.cg` on Fermi and Kepler).
        Sector => "sector",
        /// The whole line, as a cached miss does.
        Line => "line",
    }
);

mod defaults {
    use super::{CgGranularity, L1BypassKind};

    pub fn bypass() -> L1BypassKind {
        L1BypassKind::None
    }
    pub fn cg_granularity() -> CgGranularity {
        CgGranularity::Sector
    }
    pub fn mrpb_queue() -> u32 {
        128
    }
    pub fn mdb_interval() -> u32 {
        1024
    }
    pub fn l1_vta_entries() -> u32 {
        64
    }
}
