//! The policy-family names accepted in config. Each family is an enum whose
//! snake_case variant names are the stable config values. Families with a registry (warp
//! schedulers, set-index functions, L1 bypass, L2 bypass, L2 insertion, partition mappings,
//! DRAM schedulers) declare their enum there, through `policy_enum!`, and are re-exported here,
//! as are the families a part declares with its sections (`dram.column_command`, ...) and the
//! benchmarks' input size (`coordinated.profile_size`).

pub use crate::cache::l1::bypass::L1BypassKind;
pub use crate::cache::l2::bypass::L2BypassKind;
pub use crate::cache::l2::insertion::L2InsertionKind;
pub use crate::cache::set_index::SetIndexKind;
pub use crate::core::sched::WarpSchedulerKind;
pub use crate::dram::config::{ColumnCommand, DramIdealKind};
pub use crate::dram::partition_mapping::PartitionMapping;
pub use crate::dram::sched::DramSchedulerKind;
pub use crate::kernels::Size;
use crate::settings::policy_enum;
use serde::Deserialize;

policy_enum!(
    /// Victim choice within a set.
    ReplacementKind {
        Lru => "lru",
    }
);

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

policy_enum!(
    /// Who learns TB_bg in coordinated bypassing (`coordinated.mode`).
    CoordinatedMode {
        /// SM 0 learns and broadcasts its TB_bg to every SM.
        Centralized => "centralized",
        /// Every SM learns its own TB_bg.
        Decentralized => "decentralized",
    }
);

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

/// Name and valid values of every policy family, for `warpscope list policies`.
pub fn policy_families() -> Vec<(&'static str, &'static [&'static str])> {
    vec![
        ("core.warp_scheduler", WarpSchedulerKind::NAMES),
        ("l1d.set_index", SetIndexKind::NAMES),
        ("l1d.replacement", ReplacementKind::NAMES),
        ("l1d.allocation", AllocationKind::NAMES),
        ("l1d.bypass", L1BypassKind::NAMES),
        ("l1d.cg_granularity", CgGranularity::NAMES),
        ("coordinated.mode", CoordinatedMode::NAMES),
        ("coordinated.profile_size", Size::NAMES),
        ("l2.set_index", SetIndexKind::NAMES),
        ("l2.replacement", ReplacementKind::NAMES),
        ("l2.write_policy", WritePolicy::NAMES),
        ("l2.bypass", L2BypassKind::NAMES),
        ("l2.insertion", L2InsertionKind::NAMES),
        ("l2.reply_queue", ReplyQueueKind::NAMES),
        ("l2.rop_skip", RopSkip::NAMES),
        ("l2.bank_occupancy", BankOccupancy::NAMES),
        ("medic.warp_id", WarpIdKind::NAMES),
        ("medic.boundary_rate", BoundaryRateKind::NAMES),
        ("mem.partition_mapping", PartitionMapping::NAMES),
        ("dram.scheduler", DramSchedulerKind::NAMES),
        ("dram.ideal", DramIdealKind::NAMES),
        ("dram.column_command", ColumnCommand::NAMES),
    ]
}
