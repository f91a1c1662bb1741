//! The L2's config sections, `l2` (the banks of each partition's slice) and `medic` (the
//! warp-type classifier its policies read), with the policy names only they take; `config`
//! composes them into the whole machine's `Config`.

use super::bypass::L2BypassKind;
use super::insertion::L2InsertionKind;
use crate::cache::set_index::SetIndexKind;
use crate::cache::tags::ReplacementKind;
use crate::settings::policy_enum;
use serde::{Deserialize, Serialize};

super::bypass::with_params! {
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

impl L2Config {
    /// Sets in each bank of one partition's slice.
    pub fn sets_per_bank(&self, partitions: u32) -> u32 {
        let denom = partitions.max(1) * self.banks_per_partition.max(1) * self.ways.max(1) * self.line_bytes.max(1);
        (self.size_kb * 1024) / denom
    }
}

policy_enum!(
    /// L2 handling of stores (`l2.write_policy`).
    WritePolicy {
        /// A store hit marks the line dirty; a store miss allocates the line dirty without
        /// reading it (stores cover whole lines here).
        WriteBack => "write_back",
        /// Every store goes on to DRAM and updates a present line.
        WriteThrough => "write_through",
        /// GPGPU-Sim 3.x's `L:B:m:W`: a store hit marks the line dirty; a store miss goes on
        /// to DRAM and also fetches the line, which fills clean.
        WriteBackFetch => "write_back_fetch",
    }
);

policy_enum!(
    /// Which requests skip a partition's ROP pipeline (`l2.rop_skip`).
    RopSkip {
        /// Every request passes through it.
        None => "none",
        /// Reads the bypass policy sends to DRAM skip it.
        Bypassed => "bypassed",
        /// Every request skips it (GPGPU-Sim with the MeDiC patch's `-gpgpu_cache:bypass_rop 1`).
        All => "all",
    }
);

impl RopSkip {
    /// Reads a name, or the boolean of the older `l2.bypass_skips_rop`.
    pub fn from_name_or_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Flag(bool),
            Name(RopSkip),
        }
        let expected = || serde::de::Error::custom(format!("expected one of: {}", Self::NAMES.join(", ")));
        match Raw::deserialize(d).map_err(|_: D::Error| expected())? {
            Raw::Flag(true) => Ok(Self::Bypassed),
            Raw::Flag(false) => Ok(Self::None),
            Raw::Name(k) => Ok(k),
        }
    }
}

policy_enum!(
    /// How long an L2 lookup holds its bank (`l2.bank_occupancy`).
    BankOccupancy {
        /// A new lookup may start every L2 cycle; a hit holds the data port for its data.
        Pipelined => "pipelined",
        /// Every access holds the bank for ((tag_latency - 1) / pipeline_stages) + 1 cycles.
        Serialized => "serialized",
    }
);

policy_enum!(
    /// How a partition queues replies for the reply network (`l2.reply_queue`).
    ReplyQueueKind {
        /// One queue per reply port: a reply waits for its own port.
        PerPort => "per_port",
        /// One queue for the partition, as MeDiC describes: its head leaves by any reply port
        /// with room. It holds as many entries as the per-port queues together.
        Unified => "unified",
    }
);

/// The `medic` section: MeDiC's online warp-type classifier at the L2 (HPCA 2015, §4.1),
/// which MeDiC's three policies and PC-Byp read, and whose window Rand, PCAL and PC-Byp
/// reset with, as the paper compares them (§5). The policies' own parameters are theirs
/// (`l2.rand.share`, ...). Every field has a default, so configs written before the
/// section existed still load.
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

policy_enum!(
    /// Whose per-warp L2 metadata MeDiC keeps (`medic.warp_id`): its hit and access
    /// counters and type, and the warp that Rand draws and PCAL grants tokens to.
    WarpIdKind {
        /// The SM's warp context (SM, slot): a fixed table, as the paper's 22 bits per warp
        /// imply. Counters carry over to the next warp in the slot until the periodic reset.
        Context => "context",
        /// Every dynamic warp of the run, unprofiled when it starts.
        Dynamic => "dynamic",
    }
);

policy_enum!(
    /// The L2 miss rate MeDiC's mostly-miss boundary follows (`medic.boundary_rate`). The paper
    /// lowers the boundary when "the cache miss rate" rises, to curb the DRAM traffic bypassing
    /// adds, without saying whether bypassed reads count.
    BoundaryRateKind {
        /// Misses among the reads the L2 looks up: bypassed reads do not count, so bypassing
        /// more lowers the rate.
        L2Lookups => "l2_lookups",
        /// The share of all accepted reads that DRAM serves (misses plus bypassed reads), so
        /// bypassing more raises the rate.
        DramServed => "dram_served",
    }
);

mod defaults {
    use super::{BankOccupancy, L2BypassKind, L2InsertionKind, ReplyQueueKind, RopSkip};

    pub fn reply_ports() -> u32 {
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
    pub fn l2_vta_entries() -> u32 {
        64
    }
}
