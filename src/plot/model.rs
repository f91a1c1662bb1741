//! The numbers each chart plots, computed once from the runs so that the drawing and the table
//! (CSV export, the text alternative beside each plot) can never disagree.

use super::{Chart, ChartRun};
use crate::stats::{Histogram, TRIP_STAGES};

/// Histograms with more visible bins than this merge neighbours, so bars stay readable.
const MAX_BARS: usize = 40;

/// One bar position on the x axis: `tick` is the short axis label, `name` the exact range.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Category {
    pub tick: String,
    pub name: String,
}

/// One run's bar heights, one per category.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BarRun {
    pub label: String,
    pub values: Vec<f64>,
    pub has_data: bool,
    /// Each value's 95 % range, drawn as a whisker (a figure's sampled runs); empty for the
    /// charts of whole runs.
    pub ranges: Vec<Option<(f64, f64)>>,
}

/// Grouped bars: one group per category, one bar per run. No categories means no data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bars {
    pub categories: Vec<Category>,
    pub runs: Vec<BarRun>,
    /// The categories are ranges of a number (histogram bins, partition indices), so labelling
    /// every few of them is enough; named categories are all labelled.
    pub numeric: bool,
}

/// One run's time series: IPC (the timeline's upper panel) and `y` (its lower panel, or the
/// only one: L2 hit rate or a warp's hit ratio in %, or TB_bg) at each sample.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub label: String,
    /// The legend entry: the label with the run's overall IPC and length.
    pub legend: String,
    pub cycle: Vec<u64>,
    pub ipc: Vec<f64>,
    pub y: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Model {
    Bars(Bars),
    Lines(Vec<Line>),
}

/// Run labels, with unlabelled runs numbered so legends and table headers stay distinct.
pub(crate) fn labels(runs: &[ChartRun]) -> Vec<String> {
    runs.iter()
        .enumerate()
        .map(|(i, r)| if r.label.trim().is_empty() { format!("run {}", i + 1) } else { r.label.clone() })
        .collect()
}

pub(crate) fn model(chart: Chart, runs: &[ChartRun]) -> Model {
    let labels = labels(runs);
    match chart {
        Chart::Divergence => Model::Bars(histogram(runs, &labels, |r| &r.latency.divergence_histogram)),
        Chart::QueueLatency => Model::Bars(histogram(runs, &labels, |r| &r.l2.queue_latency_histogram)),
        Chart::HitRatio => Model::Bars(hit_ratio(runs, &labels)),
        Chart::WarpTypes => Model::Bars(warp_types(runs, &labels)),
        Chart::ReadsByType => Model::Bars(reads_by_type(runs, &labels)),
        Chart::Partitions => Model::Bars(partitions(runs, &labels)),
        Chart::Timeline => Model::Lines(timeline(runs, &labels)),
        Chart::MissClasses => Model::Bars(miss_classes(runs, &labels)),
        Chart::ReadTrip => Model::Bars(read_trip(runs, &labels)),
        Chart::WarpHitRatio => Model::Lines(warp_hit_ratio(runs, &labels)),
        Chart::TbBg => Model::Lines(tb_bg(runs, &labels)),
    }
}

/// Each run's counts as percentages of its own total (runs of different lengths compare).
fn shares(counts: &[Vec<u64>], labels: &[String]) -> Vec<BarRun> {
    counts
        .iter()
        .zip(labels)
        .map(|(c, label)| {
            let total: u64 = c.iter().sum();
            let values = c.iter().map(|&n| if total == 0 { 0.0 } else { n as f64 * 100.0 / total as f64 }).collect();
            BarRun { label: label.clone(), values, has_data: total > 0, ranges: Vec::new() }
        })
        .collect()
}

/// No categories when no run has data, so the chart says "no data".
fn bars(categories: Vec<Category>, runs: Vec<BarRun>, numeric: bool) -> Bars {
    if runs.iter().any(|r| r.has_data) {
        Bars { categories, runs, numeric }
    } else {
        Bars { categories: Vec::new(), runs, numeric }
    }
}

/// Bins every run onto the widest bin width, trims the bins after the last non-empty one,
/// merges neighbours past `MAX_BARS`, and keeps the overflow as a last "≥ N" bar.
fn histogram(runs: &[ChartRun], labels: &[String], get: impl Fn(&ChartRun) -> &Histogram) -> Bars {
    let hs: Vec<&Histogram> = runs.iter().map(get).collect();
    let width = hs.iter().map(|h| h.bin_width.max(1)).max().unwrap_or(1);
    // The range every run binned; samples beyond it count as overflow.
    let bins = hs.iter().map(|h| h.counts.len() as u64 * h.bin_width.max(1) / width).min().unwrap_or(0) as usize;
    let binned: Vec<(Vec<u64>, u64)> = hs
        .iter()
        .map(|h| {
            let mut c = vec![0u64; bins];
            let mut over = h.overflow;
            for (i, &n) in h.counts.iter().enumerate() {
                match c.get_mut((i as u64 * h.bin_width.max(1) / width) as usize) {
                    Some(x) => *x += n,
                    None => over += n,
                }
            }
            (c, over)
        })
        .collect();
    let used = binned.iter().filter_map(|(c, _)| c.iter().rposition(|&n| n > 0)).max().map_or(0, |i| i + 1);
    let merge = used.div_ceil(MAX_BARS).max(1);
    let groups = used.div_ceil(merge);
    let mut categories: Vec<Category> = (0..groups)
        .map(|g| {
            let lo = (g * merge) as u64 * width;
            let hi = (((g + 1) * merge).min(bins) as u64 * width).max(lo + 1);
            let name = if hi - lo == 1 { lo.to_string() } else { format!("{lo}–{}", hi - 1) };
            Category { tick: lo.to_string(), name }
        })
        .collect();
    let any_overflow = binned.iter().any(|(_, over)| *over > 0);
    if any_overflow {
        let edge = bins as u64 * width;
        categories.push(Category { tick: format!("≥{edge}"), name: format!("≥ {edge}") });
    }
    let counts: Vec<Vec<u64>> = binned
        .iter()
        .map(|(c, over)| {
            let mut v: Vec<u64> = (0..groups).map(|g| c[g * merge..((g + 1) * merge).min(bins)].iter().sum()).collect();
            if any_overflow {
                v.push(*over);
            }
            v
        })
        .collect();
    bars(categories, shares(&counts, labels), true)
}

/// Trims `x.0` to one decimal, so 100/3 prints as 33.3 and 10 as 10.
fn short(x: f64) -> String {
    format!("{}", (x * 10.0).round() / 10.0)
}

fn hit_ratio(runs: &[ChartRun], labels: &[String]) -> Bars {
    let n = runs.iter().map(|r| r.warps.l2_hit_ratio_histogram.len()).max().unwrap_or(0);
    let categories = (0..n)
        .map(|i| {
            let (lo, hi) = (100.0 * i as f64 / n as f64, 100.0 * (i + 1) as f64 / n as f64);
            let tick = format!("{}–{}", short(lo), short(hi));
            Category { name: tick.clone(), tick }
        })
        .collect();
    let counts: Vec<Vec<u64>> = runs
        .iter()
        .map(|r| {
            let mut c = r.warps.l2_hit_ratio_histogram.clone();
            c.resize(n, 0);
            c
        })
        .collect();
    bars(categories, shares(&counts, labels), true)
}

fn warp_types(runs: &[ChartRun], labels: &[String]) -> Bars {
    const TYPES: [(&str, &str); 5] = [
        ("all-hit: 100", "all-hit (100 %)"),
        ("mostly-hit: ≥70", "mostly-hit (≥ 70 %)"),
        ("balanced: 20–70", "balanced (20–70 %)"),
        ("mostly-miss: ≤20", "mostly-miss (≤ 20 %)"),
        ("all-miss: 0", "all-miss (0 %)"),
    ];
    fraction_bars(runs, labels, &TYPES, |r| r.warps.types.shares().map(|(_, f)| f).to_vec())
}

fn reads_by_type(runs: &[ChartRun], labels: &[String]) -> Bars {
    const TYPES: [(&str, &str); 6] = [
        ("profiling", "profiling (not yet typed)"),
        ("AH", "all-hit (AH)"),
        ("MH", "mostly-hit (MH)"),
        ("BL", "balanced (BL)"),
        ("MM", "mostly-miss (MM)"),
        ("AM", "all-miss (AM)"),
    ];
    fraction_bars(runs, labels, &TYPES, |r| r.warps.l2_reads_by_type.shares().map(|(_, f)| f).to_vec())
}

/// One bar per (tick, name) category from each run's fractions, drawn in %.
fn fraction_bars(
    runs: &[ChartRun],
    labels: &[String],
    categories: &[(&str, &str)],
    fractions: impl Fn(&ChartRun) -> Vec<f64>,
) -> Bars {
    let categories = categories.iter().map(|&(tick, name)| Category { tick: tick.into(), name: name.into() }).collect();
    let runs = runs
        .iter()
        .zip(labels)
        .map(|(r, label)| {
            let values: Vec<f64> = fractions(r).iter().map(|f| f * 100.0).collect();
            BarRun { label: label.clone(), has_data: values.iter().any(|&v| v > 0.0), values, ranges: Vec::new() }
        })
        .collect();
    bars(categories, runs, false)
}

fn partitions(runs: &[ChartRun], labels: &[String]) -> Bars {
    let n = runs.iter().map(|r| r.partitions.requests.len()).max().unwrap_or(0);
    let categories = (0..n).map(|i| Category { tick: i.to_string(), name: i.to_string() }).collect();
    let counts: Vec<Vec<u64>> = runs
        .iter()
        .map(|r| {
            let mut c = r.partitions.requests.clone();
            c.resize(n, 0);
            c
        })
        .collect();
    bars(categories, shares(&counts, labels), true)
}

/// MPKI by cause, L1 then L2: runs side by side per cause.
fn miss_classes(runs: &[ChartRun], labels: &[String]) -> Bars {
    let mut categories = Vec::new();
    for cache in ["L1", "L2"] {
        for (tick, name) in [("intra", "intra-warp"), ("inter", "inter-warp"), ("other", "other")] {
            categories.push(Category { tick: format!("{cache} {tick}"), name: format!("{cache} {name}") });
        }
    }
    let runs = runs
        .iter()
        .zip(labels)
        .map(|(r, label)| {
            let (a, b) = (r.l1d.miss_classes, r.l2.miss_classes);
            let values = vec![a.intra_warp, a.inter_warp, a.other, b.intra_warp, b.inter_warp, b.other];
            BarRun { label: label.clone(), has_data: values.iter().any(|&v| v > 0.0), values, ranges: Vec::new() }
        })
        .collect();
    bars(categories, runs, false)
}

/// Mean core cycles per read in each stage, L2 hits then reads DRAM served.
fn read_trip(runs: &[ChartRun], labels: &[String]) -> Bars {
    let mut categories = Vec::new();
    for (class, about) in [("hit", "L2 hits"), ("DRAM", "reads DRAM served")] {
        for stage in TRIP_STAGES {
            let stage = stage.replace('_', " ");
            categories.push(Category { tick: format!("{class}: {stage}"), name: format!("{about}: {stage}") });
        }
    }
    let runs = runs
        .iter()
        .zip(labels)
        .map(|(r, label)| {
            let l = &r.latency;
            let values: Vec<f64> = [l.trip_l2_hit, l.trip_dram].iter().flat_map(|t| t.stages().map(|s| s.1)).collect();
            BarRun {
                label: label.clone(),
                has_data: l.trip_l2_hit.reads + l.trip_dram.reads > 0,
                values,
                ranges: Vec::new(),
            }
        })
        .collect();
    bars(categories, runs, false)
}

fn timeline(runs: &[ChartRun], labels: &[String]) -> Vec<Line> {
    runs.iter()
        .zip(labels)
        .map(|(r, label)| {
            let s = &r.series;
            let n = s.cycle.len().min(s.ipc.len()).min(s.l2_hit_rate.len());
            Line {
                label: label.clone(),
                legend: format!("{label}: IPC {:.3}, {} cycles", r.ipc, r.cycles),
                cycle: s.cycle[..n].to_vec(),
                ipc: s.ipc[..n].to_vec(),
                y: s.l2_hit_rate[..n].iter().map(|h| h * 100.0).collect(),
            }
        })
        .collect()
}

/// One line per sampled warp of each run, at the start cycle of each window; `ipc` stays empty.
fn warp_hit_ratio(runs: &[ChartRun], labels: &[String]) -> Vec<Line> {
    runs.iter()
        .zip(labels)
        .flat_map(|(r, label)| {
            let s = &r.warps.hit_ratio_series;
            s.warps.iter().map(move |w| {
                let n = w.windows.len().min(w.hit_ratio.len());
                Line {
                    label: format!("{label} warp {}", w.warp),
                    legend: format!("{label}: warp {}", w.warp),
                    cycle: w.windows[..n].iter().map(|k| k * s.window_cycles).collect(),
                    ipc: Vec::new(),
                    y: w.hit_ratio[..n].iter().map(|h| h * 100.0).collect(),
                }
            })
        })
        .collect()
}

/// TB_bg as recorded (launch starts and changes), held to the end of the run so the last step
/// shows; runs without the learner get no points and say why in the legend.
fn tb_bg(runs: &[ChartRun], labels: &[String]) -> Vec<Line> {
    runs.iter()
        .zip(labels)
        .map(|(r, label)| {
            let s = &r.bypass.tb_bg_series;
            let n = s.cycle.len().min(s.tb_bg.len());
            let mut cycle = s.cycle[..n].to_vec();
            let mut y: Vec<f64> = s.tb_bg[..n].iter().map(|&v| v as f64).collect();
            if let (Some(&last_cycle), Some(&last)) = (cycle.last(), y.last()) {
                if r.cycles > last_cycle {
                    cycle.push(r.cycles);
                    y.push(last);
                }
            }
            let changes = y.windows(2).filter(|w| w[0] != w[1]).count();
            let legend = if n == 0 {
                format!("{label}: no TB_bg learner (l1d.bypass is not coordinated or dynamic_only)")
            } else {
                format!("{label}: {changes} changes of TB_bg, {} cycles", r.cycles)
            };
            Line { label: label.clone(), legend, cycle, ipc: Vec::new(), y }
        })
        .collect()
}
