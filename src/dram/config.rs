//! The DRAM's config sections, `mem` (how many channels, and which one an address goes to)
//! and `dram` (each channel's controller and timing), with their policy names; `config`
//! composes them into the whole machine's `Config`.

use super::partition_mapping::PartitionMapping;
use super::sched::DramSchedulerKind;
use crate::settings::policy_enum;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemConfig {
    /// Memory partitions, one DRAM channel each.
    pub partitions: u32,
    pub partition_mapping: PartitionMapping,
}

super::sched::with_params! {
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramConfig {
    pub scheduler: DramSchedulerKind,
    pub banks: u32,
    pub bank_groups: u32,
    pub row_bytes: u32,
    /// Bytes moved by one burst (tBURST cycles on the data bus).
    pub burst_bytes: u32,
    /// What one column command moves: a whole request (`line`), or one burst (`burst`), so
    /// a 128 B line of 64 B bursts is two commands tCCD apart, as GDDR5 and GPGPU-Sim do it.
    #[serde(default = "defaults::column_command")]
    pub column_command: ColumnCommand,
    pub read_queue: u32,
    pub write_queue: u32,
    pub write_high_watermark: u32,
    pub write_low_watermark: u32,
    /// Commands each bank's command queue holds.
    pub command_queue: u32,
    /// XOR the bank index with the low row bits (spreads row-strided streams over banks).
    pub bank_xor: bool,
    pub timing: DramTiming,
    /// GMC and warp-aware schedulers: a request older than this many DRAM cycles goes
    /// first (stops row-hit streams from starving old row misses); warp-aware schedulers
    /// also stop waiting for the tagged last request of a warp-group after it.
    #[serde(default = "defaults::age_threshold")]
    pub age_threshold: u32,
    /// GMC: row hits a bank may serve in a row while an older row miss waits for it.
    #[serde(default = "defaults::max_row_hit_streak")]
    pub max_row_hit_streak: u32,
    /// WG-M and later: DRAM cycles a (warp, score) message takes between two controllers.
    #[serde(default = "defaults::coordination_latency")]
    pub coordination_latency: u32,
}
// Here come the schedulers' own parameters (`dram.<scheduler>.<parameter>`), each declared
// and checked in its policy's file and named in the family's registry. The three above are
// shared: GMC's limits bound every scheduler built on it (SBWAS, the WG family), and the
// coordination network serves WG-M, WG-Bw and WG-W alike.
{
    /// Idealized upper bound instead of the real controller.
    #[serde(default = "defaults::dram_ideal")]
    pub ideal: DramIdealKind,
}
}

/// GDDR5 timing parameters, in DRAM command-clock cycles (tCK).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DramTiming {
    pub t_rcd: u32,
    pub t_rp: u32,
    pub t_ras: u32,
    pub t_rc: u32,
    pub t_cl: u32,
    pub t_wl: u32,
    pub t_ccds: u32,
    pub t_ccdl: u32,
    pub t_rrd: u32,
    pub t_faw: u32,
    pub t_wtr: u32,
    pub t_rtw: u32,
    pub t_rtp: u32,
    pub t_wr: u32,
    pub t_burst: u32,
    /// Refresh interval; 0 disables refresh.
    pub t_refi: u32,
    pub t_rfc: u32,
}

policy_enum!(
    /// What one DRAM column command moves (`dram.column_command`).
    ColumnCommand {
        /// A whole request: one RD or WR per line.
        Line => "line",
        /// One burst (`dram.burst_bytes`): a line is several commands, tCCD apart.
        Burst => "burst",
    }
);

policy_enum!(
    /// Idealized DRAM upper bounds (`dram.ideal`, SC'14 fig. 4).
    DramIdealKind {
        /// The real controller.
        None => "none",
        /// Once a warp-load's first DRAM read is served, its other DRAM reads return right
        /// behind it (each still takes its data-bus cycles).
        ZeroLatencyDivergence => "zero_latency_divergence",
    }
);

mod defaults {
    use super::{ColumnCommand, DramIdealKind};

    pub fn column_command() -> ColumnCommand {
        ColumnCommand::Line
    }
    pub fn age_threshold() -> u32 {
        600
    }
    pub fn max_row_hit_streak() -> u32 {
        32
    }
    pub fn coordination_latency() -> u32 {
        4
    }
    pub fn dram_ideal() -> DramIdealKind {
        DramIdealKind::None
    }
}
