//! The charts by stable name, with their titles and axis labels (each with its unit).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A chart of the report's metrics. The snake_case names are stable: URLs, the CLI and
/// exported file names use them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chart {
    /// Latency divergence of warp-loads (last minus first return).
    Divergence,
    /// Per-warp L2 hit ratio over warps (MeDiC fig. 3).
    HitRatio,
    /// MeDiC's warp types by L2 hit ratio.
    WarpTypes,
    /// L2 reads by the type the online classifier held for their warp (WByp bypasses MM and AM).
    ReadsByType,
    /// L2 queuing latency of requests (MeDiC fig. 8).
    QueueLatency,
    /// A read's latency split into the stages of its trip, for L2 hits and DRAM reads.
    ReadTrip,
    /// Requests per memory partition (sound baseline fig. 10b).
    Partitions,
    /// IPC and L2 hit rate over the run.
    Timeline,
    /// L1 and L2 misses per kilo warp-instruction by cause (iWarp figs. 2 and 3).
    MissClasses,
    /// L2 hit ratio of a few warps in each MeDiC window (MeDiC fig. 5: types are stable).
    WarpHitRatio,
    /// TB_bg of coordinated L1 bypassing over the run (Xie et al. fig. 12).
    TbBg,
}

impl Chart {
    pub const ALL: [Chart; 11] = [
        Chart::Divergence,
        Chart::HitRatio,
        Chart::WarpTypes,
        Chart::ReadsByType,
        Chart::QueueLatency,
        Chart::ReadTrip,
        Chart::Partitions,
        Chart::Timeline,
        Chart::MissClasses,
        Chart::WarpHitRatio,
        Chart::TbBg,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Chart::Divergence => "divergence",
            Chart::HitRatio => "hit_ratio",
            Chart::WarpTypes => "warp_types",
            Chart::ReadsByType => "reads_by_type",
            Chart::QueueLatency => "queue_latency",
            Chart::ReadTrip => "read_trip",
            Chart::Partitions => "partitions",
            Chart::Timeline => "timeline",
            Chart::MissClasses => "miss_classes",
            Chart::WarpHitRatio => "warp_hit_ratio",
            Chart::TbBg => "tb_bg",
        }
    }

    /// The chart called `name`; an unknown name gets an error listing the valid ones.
    pub fn from_name(name: &str) -> Result<Chart, String> {
        Chart::ALL.into_iter().find(|c| c.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Chart::ALL.iter().map(|c| c.name()).collect();
            format!("unknown chart `{name}`; valid charts are: {}", names.join(", "))
        })
    }

    pub fn title(self) -> &'static str {
        match self {
            Chart::Divergence => "Latency divergence of warp-loads",
            Chart::HitRatio => "Per-warp L2 hit ratio",
            Chart::WarpTypes => "Warp types by L2 hit ratio",
            Chart::ReadsByType => "L2 reads by the type their warp held",
            Chart::QueueLatency => "L2 queuing latency of requests",
            Chart::ReadTrip => "Read latency by stage of the trip",
            Chart::Partitions => "Requests per memory partition",
            Chart::Timeline => "IPC and L2 hit rate over the run",
            Chart::MissClasses => "L1 and L2 misses by cause",
            Chart::WarpHitRatio => "L2 hit ratio of sampled warps over time",
            Chart::TbBg => "TB_bg of coordinated L1 bypassing over time",
        }
    }

    pub fn x_label(self) -> &'static str {
        match self {
            Chart::Divergence => "latency divergence (core cycles)",
            Chart::HitRatio => "L2 hit ratio of the warp (%)",
            Chart::WarpTypes => "warp type (L2 hit ratio, %)",
            Chart::ReadsByType => "MeDiC type held for the reading warp (AH all-hit ... AM all-miss)",
            Chart::QueueLatency => "queuing latency (L2 cycles)",
            Chart::ReadTrip => "stage of the trip (hit: L2 hits, DRAM: reads DRAM served)",
            Chart::Partitions => "memory partition (index)",
            Chart::Timeline => "time (core cycles)",
            Chart::MissClasses => "cache: miss cause (per-warp victim tags)",
            Chart::WarpHitRatio => "window start (core cycles)",
            Chart::TbBg => "time (core cycles)",
        }
    }

    /// The y axis; the timeline's upper panel.
    pub fn y_label(self) -> &'static str {
        match self {
            Chart::Divergence => "warp-loads (%)",
            Chart::HitRatio | Chart::WarpTypes => "warps (%)",
            Chart::ReadsByType => "L2 reads (%)",
            Chart::QueueLatency => "requests (%)",
            Chart::ReadTrip => "core cycles per read",
            Chart::Partitions => "requests (% of all)",
            Chart::Timeline => "IPC (warp instructions / cycle)",
            Chart::MissClasses => "misses per 1000 warp instructions (MPKI)",
            Chart::WarpHitRatio => "L2 hit ratio of the warp (%)",
            Chart::TbBg => "TB_bg (blocks per SM)",
        }
    }

    /// The second y axis: the timeline's lower panel.
    pub fn y2_label(self) -> Option<&'static str> {
        match self {
            Chart::Timeline => Some("L2 hit rate (%)"),
            _ => None,
        }
    }
}

impl Chart {
    /// Why a chart can be empty for a complete run, said under its "no data" note.
    pub fn no_data_reason(self) -> Option<&'static str> {
        match self {
            Chart::TbBg => Some("only coordinated and dynamic_only bypassing learn TB_bg"),
            _ => None,
        }
    }
}

impl fmt::Display for Chart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Chart {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Chart::from_name(s)
    }
}
