//! The `sample` section: sampled simulation (see `crate::sample` and docs/sampling.md).
//! Off by default, and left out of a serialized config while off, so every config and
//! report written before the section existed reads and compares the same.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SampleConfig {
    /// Detailed windows spread evenly over the run's thread blocks; 0 simulates the whole
    /// run in detail.
    pub windows: u32,
    /// Core cycles each window simulates in detail before it measures: the queues, MSHRs
    /// and networks that functional warming leaves empty fill again.
    pub warmup_cycles: u64,
    /// Core cycles each window measures.
    pub measure_cycles: u64,
}

impl Default for SampleConfig {
    fn default() -> Self {
        Self { windows: 0, warmup_cycles: 10_000, measure_cycles: 10_000 }
    }
}

impl SampleConfig {
    pub fn is_off(&self) -> bool {
        self.windows == 0
    }
}
