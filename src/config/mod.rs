//! Configuration: the serde Spec tree, presets, `--set` overrides and validation.
//!
//! Every struct denies unknown fields, so a misspelt key is an error rather than a
//! silently ignored setting. Policy families are enums selected by a stable
//! snake_case name; serde's own message lists the valid names.

mod bundles;
mod medic;
mod overrides;
mod policies;
mod presets;
mod renamed;
mod sample;
mod schema;
mod validate;
mod words;

pub use crate::dram::config::{DramConfig, DramTiming, MemConfig};
pub use crate::settings::{ConfigError, ConfigErrors};
pub use bundles::{apply_bundle, bundle_names, Bundle, BUNDLES};
pub use medic::MedicConfig;
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

crate::core::sched::with_params! {
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoreConfig {
    pub num_sms: u32,
    pub max_threads_per_sm: u32,
    pub max_warps_per_sm: u32,
    pub max_ctas_per_sm: u32,
    /// Warp schedulers per SM; warp w belongs to scheduler w % schedulers_per_sm.
    pub schedulers_per_sm: u32,
    pub warp_scheduler: WarpSchedulerKind,
    /// Cycles before a warp may issue again after an ALU instruction (pipeline depth).
    pub alu_latency: u32,
    /// Memory instructions that may wait in the LD/ST unit's input queue.
    pub ldst_queue: u32,
}
// Here come the warp schedulers' parameters (`core.<scheduler>.<parameter>`), each declared
// and checked in its policy's file and named in the family's registry.
{
    /// Upper bound of SC'14 fig. 4: every load coalesces into one request (its first line).
    #[serde(default)]
    pub perfect_coalescing: bool,
}
}

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

mod defaults {
    use super::{BankOccupancy, CgGranularity, L1BypassKind, L2BypassKind, L2InsertionKind, ReplyQueueKind, RopSkip};

    pub fn reply_ports() -> u32 {
        1
    }
    pub fn nodes_per_partition() -> u32 {
        1
    }
    pub fn reply_queue() -> ReplyQueueKind {
        ReplyQueueKind::PerPort
    }
    pub fn data_port_bytes() -> u32 {
        128
    }
    pub fn rop_skip() -> RopSkip {
        RopSkip::Bypassed
    }
    pub fn bank_occupancy() -> BankOccupancy {
        BankOccupancy::Pipelined
    }
    pub fn pipeline_stages() -> u32 {
        1
    }
    pub fn bank_ports() -> u32 {
        1
    }
    pub fn l2_bypass() -> L2BypassKind {
        L2BypassKind::None
    }
    pub fn l2_insertion() -> L2InsertionKind {
        L2InsertionKind::Mru
    }

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
    pub fn l2_vta_entries() -> u32 {
        64
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

crate::cache::l2::bypass::with_params! {
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L2Config {
    /// Total over all partitions; each partition holds size_kb / mem.partitions.
    pub size_kb: u32,
    pub line_bytes: u32,
    pub ways: u32,
    pub banks_per_partition: u32,
    /// Input ports per partition: requests moved from the icnt into bank queues per L2 cycle.
    pub ports: u32,
    /// Output ports per partition: each injects one flit per icnt cycle into the reply network
    /// (GPGPU-Sim gives each L2 sub-partition its own; 1 is one shared link per partition).
    #[serde(default = "defaults::reply_ports")]
    pub reply_ports: u32,
    /// Per-port reply queues, or one the ports share.
    #[serde(default = "defaults::reply_queue")]
    pub reply_queue: ReplyQueueKind,
    pub bank_queue: u32,
    /// L2 cycles for a tag lookup (and the data of a hit).
    pub tag_latency: u32,
    /// How long a lookup holds its bank: `pipelined` (one lookup may start every cycle; a
    /// hit holds the data port for its data) or `serialized` (every access, hit, miss or
    /// write, holds the bank for ((tag_latency - 1) / pipeline_stages) + 1 cycles, as in
    /// the MeDiC authors' banked L2).
    #[serde(default = "defaults::bank_occupancy")]
    pub bank_occupancy: BankOccupancy,
    /// Pipeline stages of a serialized bank's lookup (`bank_occupancy = serialized`).
    #[serde(default = "defaults::pipeline_stages")]
    pub pipeline_stages: u32,
    /// Access ports of a serialized bank: each access holds one, so this many accesses
    /// overlap (the MeDiC authors' `-gpgpu_n_L2_bank_ports`). Pipelined banks have one.
    #[serde(default = "defaults::bank_ports")]
    pub bank_ports: u32,
    /// L2 cycles every request spends in the partition's ROP pipeline, between its input port
    /// and the bank arbiter (GPGPU-Sim's `-rop_latency`, 120 on its GTX 480); 0 leaves it out.
    #[serde(default)]
    pub rop_latency: u32,
    /// Which requests skip the ROP pipeline. The MeDiC authors' simulator with
    /// `-gpgpu_cache:bypass_rop 1` lets every request skip it (`all`); `bypassed` lets only
    /// reads the bypass policy sends to DRAM skip it. Also read from the older boolean
    /// `bypass_skips_rop` (true = `bypassed`, false = `none`).
    #[serde(
        default = "defaults::rop_skip",
        alias = "bypass_skips_rop",
        deserialize_with = "RopSkip::from_name_or_bool"
    )]
    pub rop_skip: RopSkip,
    /// L2 cycles every request to DRAM spends between the partition's DRAM request queue and
    /// the DRAM controller (GPGPU-Sim's `-dram_latency`, 100 on its GTX 480); 0 leaves it out.
    #[serde(default)]
    pub dram_latency: u32,
    /// Width of each bank's data-array port, in bytes per L2 cycle. A hit (or a store's
    /// data) holds the bank's access port for ceil(bytes / width) cycles, and a fill holds
    /// its separate fill port for a line's worth, as in GPGPU-Sim's banked L2 (32 B on
    /// its GTX 480). The default, 128 B, moves a whole 128 B line in one cycle.
    #[serde(default = "defaults::data_port_bytes")]
    pub data_port_bytes: u32,
    /// MSHR entries per partition, split evenly among its banks (rounded up per bank).
    pub mshrs: u32,
    pub mshr_merge: u32,
    pub write_policy: WritePolicy,
    pub set_index: SetIndexKind,
    pub replacement: ReplacementKind,
    /// Entries of the partition's request queue towards DRAM.
    pub dram_queue: u32,
    /// Entries of each bank's DRAM-to-L2 return queue and of each L2-to-icnt queue; also
    /// the most lookups in flight plus replies waiting in each bank.
    pub return_queue: u32,
    /// Victim tags kept per warp in each bank (FIFO), for miss classification.
    #[serde(default = "defaults::l2_vta_entries")]
    pub vta_entries: u32,
    #[serde(default = "defaults::l2_bypass")]
    pub bypass: L2BypassKind,
    #[serde(default = "defaults::l2_insertion")]
    pub insertion: L2InsertionKind,
}
// Here come the bypass policies' parameters (`l2.<policy>.<parameter>`), each declared and
// checked in its policy's file and named in the family's registry.
{}
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsConfig {
    /// Core cycles between time-series samples (IPC and L2 hit rate over the run).
    pub sample_interval: u64,
    /// Core cycles without any progress before the watchdog ends the run.
    pub watchdog_cycles: u64,
}

impl L1Config {
    pub fn sets(&self) -> u32 {
        (self.size_kb * 1024) / (self.ways.max(1) * self.line_bytes.max(1))
    }
}

impl L2Config {
    /// Sets in each bank of one partition's slice.
    pub fn sets_per_bank(&self, partitions: u32) -> u32 {
        let denom = partitions.max(1) * self.banks_per_partition.max(1) * self.ways.max(1) * self.line_bytes.max(1);
        (self.size_kb * 1024) / denom
    }
}
