//! The few numbers of a run that the gallery's figures plot. A browser worker sends these
//! instead of the whole report, and the CLI computes them from the same report, so both
//! build every figure from identical inputs.

use crate::stats::{MissClassMpki, Report, WarpTypes};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// How far the validation's one-wave runs missed the whole runs' IPC (docs/sampling.md),
/// quoted wherever a run with `one_wave_launches_sampled` is reported.
pub const ONE_WAVE_IPC_MISS: &str = "+36 % to -77 %";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Metrics {
    pub completed: bool,
    pub cycles: u64,
    /// Warp instructions per core cycle, whole GPU.
    pub ipc: f64,
    pub l1_hit_rate: f64,
    pub l1_miss_rate: f64,
    /// L1 misses per 1000 warp instructions by cause (intra-warp, inter-warp, other).
    pub l1_mpki_classes: [f64; 3],
    /// Reservation failures per L1 access.
    pub l1_rsfail_per_access: f64,
    /// Pipeline cycles lost to L1 congestion, summed over SMs.
    pub l1_stall_cycles: u64,
    pub l1_bypassed: u64,
    pub l2_miss_rate: f64,
    pub l2_mpki_classes: [f64; 3],
    /// Arrival at the partition to tag lookup, L2 cycles.
    pub l2_queue_latency: f64,
    pub l2_bypassed: u64,
    /// Warps per 10 %-wide bin of per-warp L2 hit ratio.
    pub warp_hit_ratio_histogram: Vec<u64>,
    pub warp_types: WarpTypes,
    /// Share of L2 reads (looked up or bypassed) from warps the classifier held mostly-miss or all-miss.
    pub l2_reads_mostly_miss: f64,
    pub dram_bandwidth_utilization: f64,
    pub dram_row_buffer_hit_rate: f64,
    /// Issue to last return of a warp-load, core cycles (SC'14's effective latency).
    pub warp_load_latency: f64,
    /// The same over warp-loads DRAM served at least one request of.
    pub dram_warp_load_latency: f64,
    /// Issue to return of a request, core cycles.
    pub memory_latency: f64,
    /// Last minus first return per warp-load, core cycles.
    pub divergence: f64,
    /// The same over the requests DRAM served, DRAM cycles.
    pub dram_divergence: f64,
    /// The busiest partition's request share over the mean share.
    pub partition_max_over_mean: f64,
    /// A sampled run's 95 % intervals, by field name as `leaves` names them; empty for a
    /// run simulated whole, whose numbers are exact.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub intervals: BTreeMap<String, Interval>,
    /// A sampled run's launches that fit on the machine at once and were sampled inside
    /// them: such estimates are biased beyond their intervals (docs/sampling.md, one-wave
    /// kernels), so a report or verdict built on them says so.
    #[serde(skip_serializing_if = "is_zero")]
    pub one_wave_launches_sampled: u32,
    /// A sampled run left with one sampled window (the others fell in stretches simulated
    /// whole): its estimates carry no interval, though they are not exact.
    #[serde(skip_serializing_if = "is_false")]
    pub one_window_sampled: bool,
    /// How a sampled run's estimates err window by window, so a verdict can draw runs
    /// sampled at the same windows together; empty for a run simulated whole. It travels as
    /// `spread` beside the other fields (`to_json_text`, `list_from_json_text`) but is not one
    /// of them: the figures redraw runs through their JSON, and the page's bundle stays small.
    #[serde(skip)]
    pub spread: Spread,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Metrics {
    /// The metrics as JSON text, with `spread` beside them for a sampled run.
    pub fn to_json_text(&self) -> String {
        let mut text = serde_json::to_string(self).expect("metrics serialize");
        if !self.spread.is_empty() {
            text.pop(); // the object's closing brace
            text.push_str(",\"spread\":");
            text.push_str(&serde_json::to_string(&self.spread).expect("spread serializes"));
            text.push('}');
        }
        text
    }

    /// Runs' metrics from a JSON array of what `to_json_text` writes.
    pub fn list_from_json_text(text: &str) -> serde_json::Result<Vec<Metrics>> {
        let runs: Vec<Value> = serde_json::from_str(text)?;
        runs.into_iter()
            .map(|mut run| {
                let spread = run.get_mut("spread").map(Value::take);
                let mut m: Metrics = serde_json::from_value(run)?;
                if let Some(s) = spread {
                    m.spread = serde_json::from_value(s)?;
                }
                Ok(m)
            })
            .collect()
    }
}

/// How a sampled run's estimates err together. `windows` names each sampled window by its
/// place in the sampling plan (window k of the run, or of a launch's tail), which runs of one
/// kernel at one size and seed share: their window k measured the same stretch of its work.
/// For each field with an interval (`fields`), `contributions` holds each window's
/// contribution c_k to the estimate's error, scaled so that the estimate + sum_k c_k e_k, the
/// e_k standard normal, has the interval as its 95 % range (`cycles` stands for IPC, which
/// moves with the estimated time). Drawing matched windows with the same e_k compares runs as matched pairs
/// do: what they measure alike at a window does not count as noise in their difference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Spread {
    pub windows: Vec<u64>,
    pub fields: Vec<String>,
    /// One contribution per window for each of `fields` in turn (flat: the page's bundle
    /// stays small without another map type).
    pub contributions: Vec<f64>,
}

impl Spread {
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// `field`'s contributions, one per window.
    pub fn of(&self, field: &str) -> Option<&[f64]> {
        let i = self.fields.iter().position(|f| f == field)?;
        let n = self.windows.len();
        self.contributions.get(i * n..(i + 1) * n)
    }

    /// Adds `field`'s contributions, one per window.
    pub(crate) fn push(&mut self, field: &str, contributions: impl IntoIterator<Item = f64>) {
        self.fields.push(field.to_string());
        self.contributions.extend(contributions);
    }

    /// Keeps the fields `keep` names.
    pub(crate) fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        let n = self.windows.len();
        let (fields, contributions) = (std::mem::take(&mut self.fields), std::mem::take(&mut self.contributions));
        for (f, c) in fields.iter().zip(contributions.chunks(n.max(1))) {
            if keep(f) {
                self.push(f, c.iter().copied());
            }
        }
        if self.fields.is_empty() {
            self.windows.clear();
        }
    }
}

/// An estimate and its 95 % interval (absent with fewer than two windows).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

fn classes(m: &MissClassMpki) -> [f64; 3] {
    [m.intra_warp, m.inter_warp, m.other]
}

/// The fields of `Metrics` that are shares of a whole, never above 1, so neither an interval
/// nor a verdict's draw of one goes past it.
pub const FRACTIONS: &[&str] = &[
    "l1_hit_rate",
    "l1_miss_rate",
    "l2_miss_rate",
    "l2_reads_mostly_miss",
    "dram_bandwidth_utilization",
    "dram_row_buffer_hit_rate",
];

/// The report key each field of `Metrics` is taken from (`Metrics::of`), so a number asked for
/// by its report key can be read from a sampled run's estimates, which are `Metrics`.
pub const REPORT_KEYS: &[(&str, &str)] = &[
    ("completed", "completed"),
    ("cycles", "cycles"),
    ("ipc", "ipc"),
    ("l1_hit_rate", "l1d.hit_rate"),
    ("l1_miss_rate", "l1d.miss_rate"),
    ("l1_rsfail_per_access", "l1d.rsfail_per_access"),
    ("l1_stall_cycles", "core.l1_stall_cycles"),
    ("l1_bypassed", "l1d.bypassed"),
    ("l2_miss_rate", "l2.miss_rate"),
    ("l2_queue_latency", "l2.avg_queue_latency"),
    ("l2_bypassed", "l2.bypassed"),
    ("warp_types.all_hit", "warps.types.all_hit"),
    ("warp_types.mostly_hit", "warps.types.mostly_hit"),
    ("warp_types.balanced", "warps.types.balanced"),
    ("warp_types.mostly_miss", "warps.types.mostly_miss"),
    ("warp_types.all_miss", "warps.types.all_miss"),
    ("dram_bandwidth_utilization", "dram.bandwidth_utilization"),
    ("dram_row_buffer_hit_rate", "dram.row_buffer_hit_rate"),
    ("warp_load_latency", "latency.avg_warp_load_latency"),
    ("dram_warp_load_latency", "latency.avg_dram_warp_load_latency"),
    ("memory_latency", "latency.avg_memory_latency"),
    ("divergence", "latency.avg_divergence"),
    ("dram_divergence", "latency.avg_dram_divergence"),
    ("partition_max_over_mean", "partitions.max_over_mean"),
];

impl Metrics {
    pub fn of(r: &Report) -> Self {
        Self {
            completed: r.completed,
            cycles: r.cycles,
            ipc: r.ipc,
            l1_hit_rate: r.l1d.hit_rate,
            l1_miss_rate: r.l1d.miss_rate,
            l1_mpki_classes: classes(&r.l1d.miss_classes),
            l1_rsfail_per_access: r.l1d.rsfail_per_access,
            l1_stall_cycles: r.core.l1_stall_cycles,
            l1_bypassed: r.l1d.bypassed,
            l2_miss_rate: r.l2.miss_rate,
            l2_mpki_classes: classes(&r.l2.miss_classes),
            l2_queue_latency: r.l2.avg_queue_latency,
            l2_bypassed: r.l2.bypassed,
            warp_hit_ratio_histogram: r.warps.l2_hit_ratio_histogram.clone(),
            warp_types: r.warps.types,
            l2_reads_mostly_miss: r.warps.l2_reads_by_type.mostly_miss + r.warps.l2_reads_by_type.all_miss,
            dram_bandwidth_utilization: r.dram.bandwidth_utilization,
            dram_row_buffer_hit_rate: r.dram.row_buffer_hit_rate,
            warp_load_latency: r.latency.avg_warp_load_latency,
            dram_warp_load_latency: r.latency.avg_dram_warp_load_latency,
            memory_latency: r.latency.avg_memory_latency,
            divergence: r.latency.avg_divergence,
            dram_divergence: r.latency.avg_dram_divergence,
            partition_max_over_mean: r.partitions.max_over_mean,
            intervals: BTreeMap::new(),
            one_wave_launches_sampled: 0,
            one_window_sampled: false,
            spread: Spread::default(),
        }
    }
}

/// The numeric leaves of a serialized `Metrics`, by name, with whether each is a count.
pub(crate) fn leaves(v: &Value, prefix: &str, out: &mut Vec<(String, f64, bool)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let name = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                leaves(x, &name, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, &format!("{prefix}[{i}]"), out);
            }
        }
        Value::Number(n) => out.push((prefix.to_string(), n.as_f64().unwrap_or(0.0), n.is_u64())),
        _ => {}
    }
}

/// Writes `value` at the leaf `name` of `v` (the shape `leaves` read).
pub(crate) fn set_leaf(v: &mut Value, name: &str, value: Value) {
    let mut cur = v;
    for part in name.split('.') {
        let (key, index) = match part.split_once('[') {
            Some((k, i)) => (k, i.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        cur = match cur.as_object_mut().and_then(|m| m.get_mut(key)) {
            Some(x) => x,
            None => return,
        };
        if let Some(i) = index {
            cur = match cur.as_array_mut().and_then(|a| a.get_mut(i)) {
                Some(x) => x,
                None => return,
            };
        }
    }
    *cur = value;
}
