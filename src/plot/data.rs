//! The slice of a report the charts draw. The browser keeps each run as a JSON object and the
//! CLI reads saved reports, so a report's JSON deserializes straight into a `ChartRun`.

use crate::stats::{Histogram, MissClassMpki, ReadsByType, Report, TripReport, WarpTypes};
use serde::{Deserialize, Serialize};

/// One run as the charts see it. Fields nest as in the report (`latency.divergence_histogram`,
/// ...), so a report's JSON reads as a `ChartRun` (its other keys are ignored, missing sections
/// default to empty) and a `ChartRun`'s own JSON reads back the same way.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChartRun {
    /// What tells this run apart in a comparison: a policy, a preset, a file stem.
    pub label: String,
    /// Core cycles of the whole run.
    pub cycles: u64,
    /// Warp instructions per core cycle, whole GPU.
    pub ipc: f64,
    pub latency: LatencyData,
    pub l1d: L1Data,
    pub l2: L2Data,
    pub warps: WarpData,
    pub partitions: PartitionData,
    pub series: SeriesData,
    /// Empty unless `l1d.bypass` runs the TB_bg learner (`coordinated`, `dynamic_only`).
    pub bypass: BypassData,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LatencyData {
    /// Last minus first return per warp-load, core cycles.
    pub divergence_histogram: Histogram,
    /// Mean core cycles per read in each stage of its trip, L2 hits and DRAM reads.
    pub trip_l2_hit: TripReport,
    pub trip_dram: TripReport,
}

/// Misses per 1000 warp instructions by cause, as the report's `*.miss_classes`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MissClasses {
    pub intra_warp: f64,
    pub inter_warp: f64,
    pub other: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct L1Data {
    pub miss_classes: MissClasses,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct L2Data {
    /// Arrival at the partition to tag lookup, L2 cycles.
    pub queue_latency_histogram: Histogram,
    pub miss_classes: MissClasses,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WarpData {
    /// Warps per equal-width bin of per-warp L2 hit ratio; the last bin includes 100 %.
    pub l2_hit_ratio_histogram: Vec<u64>,
    pub types: WarpTypes,
    /// Fractions of L2 reads by the type their warp held when routed.
    pub l2_reads_by_type: ReadsByType,
    pub hit_ratio_series: HitRatioSeriesData,
}

/// `warps.hit_ratio_series`: a few warps' L2 hit ratio in each window.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HitRatioSeriesData {
    pub window_cycles: u64,
    pub warps: Vec<WarpSeriesData>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WarpSeriesData {
    pub warp: u32,
    pub windows: Vec<u64>,
    /// 0..=1 per window.
    pub hit_ratio: Vec<f64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PartitionData {
    /// Requests that reached each memory partition.
    pub requests: Vec<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SeriesData {
    /// Core cycle at the end of each window.
    pub cycle: Vec<u64>,
    /// Warp instructions per core cycle within each window.
    pub ipc: Vec<f64>,
    /// L2 read hits over L2 reads within each window, 0..=1.
    pub l2_hit_rate: Vec<f64>,
}

/// The report's `bypass` section, as far as the charts need it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BypassData {
    pub tb_bg_series: TbBgSeriesData,
}

/// `bypass.tb_bg_series`: TB_bg at each launch start and each change.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TbBgSeriesData {
    pub cycle: Vec<u64>,
    pub tb_bg: Vec<u32>,
}

impl ChartRun {
    pub fn from_report(label: impl Into<String>, r: &Report) -> Self {
        Self {
            label: label.into(),
            cycles: r.cycles,
            ipc: r.ipc,
            latency: LatencyData {
                divergence_histogram: r.latency.divergence_histogram.clone(),
                trip_l2_hit: r.latency.trip_l2_hit,
                trip_dram: r.latency.trip_dram,
            },
            l1d: L1Data { miss_classes: MissClasses::from(&r.l1d.miss_classes) },
            l2: L2Data {
                queue_latency_histogram: r.l2.queue_latency_histogram.clone(),
                miss_classes: MissClasses::from(&r.l2.miss_classes),
            },
            warps: WarpData {
                l2_hit_ratio_histogram: r.warps.l2_hit_ratio_histogram.clone(),
                types: r.warps.types,
                l2_reads_by_type: r.warps.l2_reads_by_type,
                hit_ratio_series: HitRatioSeriesData {
                    window_cycles: r.warps.hit_ratio_series.window_cycles,
                    warps: r
                        .warps
                        .hit_ratio_series
                        .warps
                        .iter()
                        .map(|w| WarpSeriesData {
                            warp: w.warp,
                            windows: w.windows.clone(),
                            hit_ratio: w.hit_ratio.clone(),
                        })
                        .collect(),
                },
            },
            partitions: PartitionData { requests: r.partitions.requests.clone() },
            series: SeriesData {
                cycle: r.series.cycle.clone(),
                ipc: r.series.ipc.clone(),
                l2_hit_rate: r.series.l2_hit_rate.clone(),
            },
            bypass: BypassData {
                tb_bg_series: r
                    .bypass
                    .as_ref()
                    .map(|b| TbBgSeriesData {
                        cycle: b.tb_bg_series.cycle.clone(),
                        tb_bg: b.tb_bg_series.tb_bg.clone(),
                    })
                    .unwrap_or_default(),
            },
        }
    }

    /// Reads a report's (or a `ChartRun`'s) JSON and labels the run; a label in the JSON is
    /// replaced, since the caller knows what distinguishes the runs it compares.
    pub fn from_json(label: impl Into<String>, json: &str) -> Result<Self, String> {
        let mut run: ChartRun = serde_json::from_str(json).map_err(|e| format!("not a warpscope report: {e}"))?;
        run.label = label.into();
        Ok(run)
    }
}

impl From<&MissClassMpki> for MissClasses {
    fn from(m: &MissClassMpki) -> Self {
        Self { intra_warp: m.intra_warp, inter_warp: m.inter_warp, other: m.other }
    }
}
