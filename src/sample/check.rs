//! A sampled run against the full detailed run of the same config and seed: the bounds a
//! sampled estimate must meet (docs/sampling.md) and whether the full value fell inside
//! the reported interval.

use super::SampledReport;
use crate::figures::Metrics;
use serde::Serialize;

/// How far an estimate may be from the full run's value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// A fraction of the full value.
    Relative(f64),
    /// An absolute difference (points of a share).
    Absolute(f64),
}

/// The checked metrics: `Metrics` field, words, bound.
pub const CHECKED: &[(&str, &str, Bound)] = &[
    ("ipc", "IPC", Bound::Relative(0.03)),
    ("l1_miss_rate", "L1 miss rate", Bound::Absolute(0.02)),
    ("l2_miss_rate", "L2 miss rate", Bound::Absolute(0.02)),
    ("dram_bandwidth_utilization", "DRAM bandwidth utilization", Bound::Absolute(0.03)),
    ("warp_types.all_hit", "warps all-hit", Bound::Absolute(0.05)),
    ("warp_types.mostly_hit", "warps mostly-hit", Bound::Absolute(0.05)),
    ("warp_types.balanced", "warps balanced", Bound::Absolute(0.05)),
    ("warp_types.mostly_miss", "warps mostly-miss", Bound::Absolute(0.05)),
    ("warp_types.all_miss", "warps all-miss", Bound::Absolute(0.05)),
];

/// One metric of the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct CheckRow {
    pub metric: &'static str,
    pub full: f64,
    pub sampled: f64,
    /// The 95 % interval, when the estimate has one.
    pub interval: Option<(f64, f64)>,
    /// Sampled minus full.
    pub error: f64,
    pub bound: Bound,
    pub within_bound: bool,
    /// Whether the full value lies in the interval (None without one).
    pub covered: Option<bool>,
}

/// The value of a dotted `Metrics` field.
pub fn field(m: &Metrics, name: &str) -> Option<f64> {
    let mut v = serde_json::to_value(m).ok()?;
    for part in name.split('.') {
        v = v.get(part)?.clone();
    }
    v.as_f64()
}

pub fn check(sampled: &SampledReport, full: &Metrics) -> Vec<CheckRow> {
    CHECKED
        .iter()
        .filter_map(|&(metric, _, bound)| {
            let (f, s) = (field(full, metric)?, field(&sampled.estimate, metric)?);
            let interval = sampled.intervals.get(metric).map(|i| (i.low, i.high));
            let error = s - f;
            let within_bound = match bound {
                Bound::Relative(r) => error.abs() <= r * f.abs(),
                Bound::Absolute(a) => error.abs() <= a,
            };
            Some(CheckRow {
                metric,
                full: f,
                sampled: s,
                interval,
                error,
                bound,
                within_bound,
                covered: interval.map(|(lo, hi)| lo <= f && f <= hi),
            })
        })
        .collect()
}
