//! Configuration: the serde Spec tree, presets, `--set` overrides and validation.
//!
//! Every struct denies unknown fields, so a misspelt key is an error rather than a
//! silently ignored setting. Policy families are enums selected by a stable
//! snake_case name; serde's own message lists the valid names.

mod bundles;
mod overrides;
mod policies;
mod presets;
mod renamed;
mod sample;
mod schema;
mod validate;
mod words;

pub use crate::cache::l1::config::{BypassSlots, L1Config};
pub use crate::cache::l2::config::{L2Config, MedicConfig};
pub use crate::core::config::CoreConfig;
pub use crate::dram::config::{DramConfig, DramTiming, MemConfig};
pub use crate::settings::{ConfigError, ConfigErrors};
pub use bundles::{apply_bundle, bundle_names, Bundle, BUNDLES};
pub use overrides::{
    apply_set, config_document, left_out_fields, parse_config, parse_config_value, parse_dram_config_value,
    read_config_text, ReadConfig,
};
pub use policies::*;
pub use presets::{preset, preset_names, PRESETS};
pub use renamed::{current_path, old_paths_in, RENAMED};
pub use sample::SampleConfig;
pub use schema::{schema, FieldSchema};
pub use validate::latencies_past_watchdog;

use crate::clock::ClockSpec;
use serde::{Deserialize, Serialize};

/// The whole machine: one value of this type fully determines a run (with the kernel and seed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Short name, e.g. the preset it came from.
    pub name: String,
    /// One or two sentences on what machine this models and where its numbers come from.
    #[serde(default)]
    pub description: String,
    pub clocks: ClockSpec,
    pub core: CoreConfig,
    pub l1d: L1Config,
    pub icnt: IcntConfig,
    pub l2: L2Config,
    pub mem: MemConfig,
    pub dram: DramConfig,
    pub stats: StatsConfig,
    /// MeDiC's warp-type classifier and the L2 policies compared with it.
    #[serde(default)]
    pub medic: MedicConfig,
    /// Coordinated static and dynamic L1 bypassing (read when `l1d.bypass` uses it).
    #[serde(default)]
    pub coordinated: CoordinatedConfig,
    /// Sampled simulation: detailed windows between functional warming (off by default).
    #[serde(default, skip_serializing_if = "SampleConfig::is_off")]
    pub sample: SampleConfig,
}

/// Parameters of coordinated L1 bypassing (Xie et al., HPCA 2015).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoordinatedConfig {
    pub mode: CoordinatedMode,
    /// A load whose profiled hits reach this share of its accesses is tagged `ca`.
    pub high_thres: f64,
    /// A load at or below this share is tagged `cg`; between the two it is `cm`.
    pub low_thres: f64,
    /// Input size of the profiling runs (run with seed + 1, so on different data).
    pub profile_size: Size,
}

impl Default for CoordinatedConfig {
    fn default() -> Self {
        Self { mode: CoordinatedMode::Centralized, high_thres: 0.7, low_thres: 0.3, profile_size: Size::Tiny }
    }
}

mod defaults {
    pub fn nodes_per_partition() -> u32 {
        1
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IcntConfig {
    /// Icnt cycles from a packet's departure to its arrival.
    pub latency: u32,
    pub flit_bytes: u32,
    /// Per-source injection buffer, in flits.
    pub input_buffer_flits: u32,
    /// Per-destination ejection buffer, in flits.
    pub output_buffer_flits: u32,
    /// Control bytes every packet carries besides its data (GPGPU-Sim's 8 B address and
    /// command), so a 128 B reply is 136 B, five 32 B flits. 0 lets the address ride in the
    /// first data flit; a packet without data always takes one flit.
    #[serde(default)]
    pub header_bytes: u32,
    /// Request-network nodes per memory partition, which its `l2.ports` input ports share
    /// (GPGPU-Sim 3.1.2 and 3.2.1: one per partition; 3.2.2: one per L2 sub-partition).
    #[serde(default = "defaults::nodes_per_partition")]
    pub nodes_per_partition: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsConfig {
    /// Core cycles between time-series samples (IPC and L2 hit rate over the run).
    pub sample_interval: u64,
    /// Core cycles without any progress before the watchdog ends the run.
    pub watchdog_cycles: u64,
}
