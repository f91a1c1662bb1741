//! Whole-run estimates from a sampled run's windows, each with a 95 % confidence interval.
//!
//! Window k measured `cycles` core cycles and `instructions` warp instructions, and stands
//! for a chunk of the run of `chunk_instructions` (counted exactly: in detail or by
//! warming). The chunk's time is estimated at the window's CPI, so IPC is total
//! instructions over total estimated time. A fraction of time (DRAM utilization) is the
//! chunk-time weighted mean of the windows' values, and a count is a count per core cycle
//! scaled to the estimated time; a per-event rate or average (miss rate, latency) is
//! weighted by the chunk's events (the window's events per instruction times the chunk's
//! instructions), so the estimate is the ratio of estimated totals. A launch's tail is
//! simulated whole and enters with its own time, instructions and events, exactly. The interval treats the windows
//! as a sample of chunks: mean ± t x the weighted standard error, t at the degrees of
//! freedom the windows' shares leave (n - 1 when they are equal), widened by the estimate's
//! drift between the halves of the windows' measurements (`drift`), which the spread
//! between windows cannot show.

use crate::figures::metrics::{leaves, set_leaf};
use crate::figures::{Interval, Metrics, Spread, FRACTIONS};
use crate::sim::Simulator;
use crate::stats::build_report;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The fractions of time among the float metrics.
const PER_CYCLE: &[&str] = &["dram_bandwidth_utilization", "partition_max_over_mean"];

/// The events a per-event metric is a rate or average over, by `Metrics` field; a float
/// named in neither list (MPKI) is per instruction.
const PER_EVENT: &[(&str, Event)] = &[
    ("l1_hit_rate", Event::L1Access),
    ("l1_miss_rate", Event::L1Access),
    ("l1_rsfail_per_access", Event::L1Access),
    ("l2_miss_rate", Event::L2Access),
    ("l2_queue_latency", Event::L2Access),
    ("l2_reads_mostly_miss", Event::L2Read),
    ("dram_row_buffer_hit_rate", Event::DramAccess),
    ("warp_load_latency", Event::WarpLoad),
    ("dram_warp_load_latency", Event::WarpLoad),
    ("divergence", Event::WarpLoad),
    ("dram_divergence", Event::WarpLoad),
    ("memory_latency", Event::Request),
];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Event {
    L1Access,
    L2Access,
    L2Read,
    DramAccess,
    WarpLoad,
    Request,
}

/// How many of each event a piece measured (the denominators of its rates).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Events {
    pub l1_accesses: u64,
    pub l2_accesses: u64,
    pub l2_reads: u64,
    pub dram_accesses: u64,
    pub warp_loads: u64,
    pub requests: u64,
}

impl Events {
    pub fn of(r: &crate::stats::Report) -> Self {
        Self {
            l1_accesses: r.l1d.accesses,
            l2_accesses: r.l2.accesses,
            l2_reads: r.l2.reads,
            dram_accesses: r.dram.reads + r.dram.writes,
            warp_loads: r.latency.warp_loads,
            requests: r.core.requests,
        }
    }

    fn get(&self, e: Event) -> u64 {
        match e {
            Event::L1Access => self.l1_accesses,
            Event::L2Access => self.l2_accesses,
            Event::L2Read => self.l2_reads,
            Event::DramAccess => self.dram_accesses,
            Event::WarpLoad => self.warp_loads,
            Event::Request => self.requests,
        }
    }
}

/// What one window measured and what it stands for.
#[derive(Debug, Clone, Default, Serialize)]
pub struct WindowSample {
    /// Run-wide index of the next CTA to dispatch when the window started.
    pub start_cta: u64,
    /// Where the sampling plan put the window (`Spread::windows`), which pairs it with the windows of
    /// other runs of the kernel; not part of the report.
    #[serde(skip)]
    pub slot: u64,
    /// A launch's tail, simulated and measured whole: known exactly, not sampled.
    pub exact: bool,
    pub cycles: u64,
    pub instructions: u64,
    /// Warp instructions of the chunk the window stands for.
    pub chunk_instructions: u64,
    /// Core cycles and warp instructions of its detailed warm-up, before it measured (0 for a
    /// piece simulated whole).
    pub warmup_cycles: u64,
    pub warmup_instructions: u64,
    /// The denominators of its rates, and what it measured.
    pub events: Events,
    pub metrics: Metrics,
    /// What the first half of its measurement measured (`drift`); not part of the report.
    #[serde(skip)]
    pub first_half: Option<Measured>,
}

impl WindowSample {
    /// Whether it measured anything: a piece with no cycles or no instructions stands at the
    /// others' mean pace.
    pub fn measured(&self) -> bool {
        self.cycles > 0 && self.instructions > 0
    }

    /// Cycles per instruction over its chunk: the instructions of its warm-up at the cycles
    /// they took (simulated, not estimated: where windows follow each other or a launch head,
    /// a chunk is mostly its warm-up), the rest at the measurement's pace.
    pub fn chunk_cpi(&self) -> f64 {
        let cpi = self.cycles as f64 / self.instructions as f64;
        if self.exact || self.chunk_instructions == 0 {
            return cpi;
        }
        let rest = self.chunk_instructions.saturating_sub(self.warmup_instructions) as f64;
        (self.warmup_cycles as f64 + rest * cpi) / self.chunk_instructions as f64
    }
}

/// What a piece measured since the statistics were last reset: kept for the first half of a
/// window's measurement, whose second half is the whole less it.
#[derive(Debug, Clone)]
pub struct Measured {
    pub cycles: u64,
    pub instructions: u64,
    pub events: Events,
    pub metrics: Metrics,
}

impl Measured {
    pub fn of(sim: &Simulator) -> Self {
        let report = build_report(sim);
        let (cycles, instructions) = (report.cycles, report.warp_instructions);
        Self { cycles, instructions, events: Events::of(&report), metrics: Metrics::of(&report) }
    }
}

/// The estimated metrics and the interval of each numeric one, by `Metrics` field name
/// (array elements as `name[i]`).
pub struct Estimates {
    pub metrics: Metrics,
    pub intervals: BTreeMap<String, Interval>,
    pub spread: Spread,
}

/// Two-sided 95 % quantile of Student's t with `df` degrees of freedom.
fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => T[df - 1],
        31..=40 => 2.021,
        41..=60 => 2.000,
        61..=120 => 1.980,
        _ => 1.960,
    }
}

/// Weighted mean of `xs`, the half-width of its 95 % interval, and each sampled window's
/// contribution to the estimate's error (below). Only the sampled values (`exact` false)
/// vary from one placement of the windows to another, so only they enter the variance,
/// each with its share of the whole weight.
fn weighted(xs: &[f64], ws: &[f64], exact: &[bool]) -> (f64, f64, Vec<f64>) {
    let total: f64 = ws.iter().sum();
    if total <= 0.0 {
        // No event anywhere: nothing to estimate a rate from, and no interval.
        return (0.0, f64::INFINITY, Vec::new());
    }
    let mean = xs.iter().zip(ws).map(|(x, w)| x * w).sum::<f64>() / total;
    let sampled = || xs.iter().zip(ws).zip(exact).filter(|(_, &e)| !e).map(|(xw, _)| xw);
    let n = sampled().count();
    if n == 0 {
        return (mean, 0.0, Vec::new());
    }
    if n < 2 {
        return (mean, f64::INFINITY, Vec::new());
    }
    // Spread about the sampled part's own mean: the exact part does not vary; window k
    // adds s_k^2 (x_k - mean)^2 to the variance, its share s_k of the whole weight.
    let sampled_weight: f64 = sampled().map(|(_, w)| w).sum();
    let sampled_mean = sampled().map(|(x, w)| x * w).sum::<f64>() / sampled_weight.max(f64::MIN_POSITIVE);
    let var: f64 = sampled().map(|(x, w)| (w / total).powi(2) * (x - sampled_mean).powi(2)).sum();
    let t = t95(effective_df(sampled().map(|(_, w)| w / total), n));
    // Contributions scaled so their root sum of squares is the interval's half-width over
    // 1.96: a normal draw sum_k c_k e_k then has the interval as its 95 % range.
    let scale = (n as f64 / (n - 1) as f64).sqrt() * t / 1.96;
    let contributions = sampled().map(|(x, w)| w / total * (x - sampled_mean) * scale).collect();
    (mean, t * (var * n as f64 / (n - 1) as f64).sqrt(), contributions)
}

/// How far an estimate moves from its windows' first halves to their second halves: each
/// sampled window's change between the halves of its measurement, `(x2 - x1)`, weighted by
/// its share of the whole, as the estimate weighs its value. `halves[k]` is window k's
/// `(x1, x2)`, `None` where it has no first half. Where warming's state has not relaxed by
/// the time a window measures, the measurement still moves, and its intervals widen by it.
fn drift(ws: &[f64], exact: &[bool], halves: &[Option<(f64, f64)>]) -> f64 {
    let total: f64 = ws.iter().sum();
    if total <= 0.0 {
        return 0.0;
    }
    let moved = ws.iter().zip(exact).zip(halves).filter(|((_, &e), _)| !e);
    moved.filter_map(|((w, _), h)| h.map(|(x1, x2)| w / total * (x2 - x1))).filter(|d| d.is_finite()).sum()
}

/// A window's value over the second half of its measurement, from the whole's `x` over `d`
/// units (events, cycles or instructions) and the first half's `x1` over `d1`.
fn second_half(x: f64, d: f64, x1: f64, d1: f64) -> Option<(f64, f64)> {
    (d1 > 0.0 && d > d1).then(|| (x1, (x * d - x1 * d1) / (d - d1)))
}

/// The pseudo-window that carries an estimate's drift in its `Spread`: the runs of one kernel
/// share it, so alike drifts cancel in their comparison, as matched windows do.
pub const DRIFT_SLOT: u64 = u64::MAX;

/// Widens a half-width `half` by the drift `d` to `half + |d|`; where the windows carry a
/// drift (`with_drift`), the drift's contribution to the spread goes on its pseudo-window.
fn widen(half: f64, d: f64, contributions: &mut Vec<f64>, with_drift: bool) -> f64 {
    let widened = half + d.abs();
    if with_drift {
        contributions.push(d.signum() * (widened.powi(2) - half * half).max(0.0).sqrt() / 1.96);
    }
    widened
}

/// The degrees of freedom of the variance of a mean over `n` windows with these shares:
/// n - 1 for equal shares, fewer where a few windows stand for most of the run (windows
/// placed on the same thread block stand for very uneven chunks), since their squared
/// deviations then dominate the estimate of the variance (Satterthwaite's approximation).
fn effective_df(shares: impl Iterator<Item = f64>, n: usize) -> usize {
    let (s2, s4) = shares.fold((0.0, 0.0), |(s2, s4), w| (s2 + w * w, s4 + w.powi(4)));
    if s4 <= 0.0 {
        return n - 1;
    }
    let df = (s2 * s2 / s4 * (n - 1) as f64 / n as f64).round() as usize;
    df.clamp(1, n - 1)
}

pub fn estimate(windows: &[WindowSample], completed: bool) -> Estimates {
    let measured: Vec<&WindowSample> = windows.iter().filter(|w| w.measured()).collect();
    let cpi: Vec<f64> = measured.iter().map(|w| w.chunk_cpi()).collect();
    let n_instr: Vec<f64> = measured.iter().map(|w| w.chunk_instructions as f64).collect();
    let time: Vec<f64> = cpi.iter().zip(&n_instr).map(|(c, n)| c * n).collect();
    let exact: Vec<bool> = measured.iter().map(|w| w.exact).collect();
    let total_instr: u64 = windows.iter().map(|w| w.chunk_instructions).sum();
    let (cpi_mean, cpi_half, cpi_spread) = weighted(&cpi, &n_instr, &exact);
    let cpi_halves: Vec<Option<(f64, f64)>> = measured
        .iter()
        .map(|w| {
            let h = w.first_half.as_ref()?;
            let d = w.instructions as f64;
            second_half(w.cycles as f64 / d, d, h.cycles as f64 / h.instructions.max(1) as f64, h.instructions as f64)
        })
        .collect();
    let cpi_drift = drift(&n_instr, &exact, &cpi_halves);
    let cycles = total_instr as f64 * cpi_mean;

    let per_window: Vec<Vec<(String, f64, bool)>> = measured
        .iter()
        .map(|w| {
            let mut out = Vec::new();
            leaves(&serde_json::to_value(&w.metrics).unwrap_or(Value::Null), "", &mut out);
            out
        })
        .collect();
    let mut json = serde_json::to_value(Metrics::default()).unwrap_or(Value::Object(Map::new()));
    let mut intervals = BTreeMap::new();
    let mut spread =
        Spread { windows: measured.iter().filter(|w| !w.exact).map(|w| w.slot).collect(), ..Spread::default() };
    // Windows measured in halves carry a drift (a run's windows all are; a test's need not).
    let with_drift = spread.windows.len() >= 2 && measured.iter().any(|w| !w.exact && w.first_half.is_some());
    if with_drift {
        spread.windows.push(DRIFT_SLOT);
    }
    let first_halves: Vec<Option<Vec<(String, f64, bool)>>> = measured
        .iter()
        .map(|w| {
            let h = w.first_half.as_ref()?;
            let mut out = Vec::new();
            leaves(&serde_json::to_value(&h.metrics).unwrap_or(Value::Null), "", &mut out);
            Some(out)
        })
        .collect();
    if let Some(first) = per_window.first() {
        // Every window's `Metrics` serializes to the same leaves (arrays have fixed
        // lengths, or the same bins), so the first one's names index all of them.
        json = serde_json::to_value(&measured[0].metrics).unwrap_or(json);
        for (i, (name, _, count)) in first.iter().enumerate() {
            if name == "cycles" || name == "ipc" {
                continue;
            }
            let xs: Vec<f64> = per_window
                .iter()
                .zip(&measured)
                .map(|(l, w)| {
                    let x = l.get(i).map_or(0.0, |v| v.1);
                    if *count {
                        x / w.cycles as f64
                    } else {
                        x
                    }
                })
                .collect();
            // A rate's weight: its events in the chunk, at the window's events per instruction.
            let event = PER_EVENT.iter().find(|(f, _)| f == name).map(|&(_, e)| e);
            let per_event = event.map(|e| {
                measured
                    .iter()
                    .zip(&n_instr)
                    .map(|(w, n)| w.events.get(e) as f64 * n / w.instructions as f64)
                    .collect::<Vec<f64>>()
            });
            let by_time = *count || PER_CYCLE.contains(&name.as_str());
            let ws: &[f64] = match (&per_event, by_time) {
                (Some(ev), _) => ev,
                (None, true) => &time,
                (None, false) => &n_instr,
            };
            // Each window's value over the first and second halves of its measurement, over
            // the units the value is a rate of.
            let halves: Vec<Option<(f64, f64)>> = measured
                .iter()
                .zip(&xs)
                .zip(&first_halves)
                .map(|((w, &x), first)| {
                    let h = w.first_half.as_ref()?;
                    let x1 = first.as_ref()?.get(i).map_or(0.0, |v| v.1);
                    let x1 = if *count { x1 / h.cycles.max(1) as f64 } else { x1 };
                    let (d, d1) = match event {
                        Some(e) => (w.events.get(e), h.events.get(e)),
                        None if by_time => (w.cycles, h.cycles),
                        None => (w.instructions, h.instructions),
                    };
                    second_half(x, d as f64, x1, d1 as f64)
                })
                .collect();
            let moved = drift(ws, &exact, &halves);
            let (mean, half, mut contributions) = weighted(&xs, ws, &exact);
            let half = widen(half, moved, &mut contributions, with_drift);
            let scale = if *count { cycles } else { 1.0 };
            let value = if *count {
                Value::from((mean * scale).round().max(0.0) as u64)
            } else {
                serde_json::Number::from_f64(mean).map_or(Value::Null, Value::Number)
            };
            set_leaf(&mut json, name, value);
            if half.is_finite() {
                // No metric of a run is negative, and no share above 1, whatever a wide
                // interval's arithmetic says.
                let low = ((mean - half) * scale).max(0.0);
                let high = (mean + half) * scale;
                let high = if FRACTIONS.contains(&name.as_str()) { high.min(1.0) } else { high };
                intervals.insert(name.clone(), Interval { low, high });
                spread.push(name, contributions.iter().map(|c| c * scale));
            }
        }
    }
    let mut metrics: Metrics = serde_json::from_value(json).unwrap_or_default();
    metrics.completed = completed;
    metrics.cycles = cycles.round() as u64;
    metrics.ipc = if cycles > 0.0 { total_instr as f64 / cycles } else { 0.0 };
    if cpi_half.is_finite() && cpi_mean > 0.0 {
        let mut cpi_spread = cpi_spread;
        let cpi_half = widen(cpi_half, cpi_drift, &mut cpi_spread, with_drift);
        // The run takes at least the cycles simulated in detail inside it (each window and
        // its warm-up lie in the chunk it stands for), however wide the spread between windows.
        // (At most the estimate itself: a run following another's warming stands its pieces
        // for the leader's chunks, which its own warm-ups may outrun.)
        let known: f64 =
            measured.iter().map(|w| (w.cycles + w.warmup_cycles) as f64).sum::<f64>().clamp(1.0, cycles.max(1.0));
        let (n, lo, hi) = (total_instr as f64, (cpi_mean - cpi_half).max(f64::MIN_POSITIVE), cpi_mean + cpi_half);
        let (low, ipc_high) = if n * lo >= known { (n * lo, 1.0 / lo) } else { (known, n / known) };
        intervals.insert("ipc".into(), Interval { low: 1.0 / hi, high: ipc_high });
        intervals.insert("cycles".into(), Interval { low, high: n * hi });
        // IPC moves with the estimated time: a draw moves `cycles` and recomputes IPC from it.
        spread.push("cycles", cpi_spread.iter().map(|c| c * total_instr as f64));
    }
    if spread.is_empty() {
        spread.windows.clear();
    }
    Estimates { metrics, intervals, spread }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(cycles: u64, instructions: u64, chunk: u64, l2_miss_rate: f64, l1_stall_cycles: u64) -> WindowSample {
        let metrics = Metrics { l2_miss_rate, l1_stall_cycles, ..Metrics::default() };
        let events = Events { l2_accesses: instructions, ..Events::default() };
        WindowSample {
            exact: false,
            cycles,
            instructions,
            chunk_instructions: chunk,
            events,
            metrics,
            ..WindowSample::default()
        }
    }

    #[test]
    fn a_windows_warm_up_counts_at_the_cycles_it_took() {
        // A chunk of 30 000 instructions: 20 000 ran in the warm-up's 10 000 cycles; the
        // other 10 000 (the 1 000 measured among them) at the measurement's CPI of 10.
        let mut w = window(10_000, 1_000, 30_000, 0.0, 0);
        (w.warmup_cycles, w.warmup_instructions) = (10_000, 20_000);
        assert_eq!(estimate(&[w.clone()], true).metrics.cycles, 10_000 + 10 * 10_000);
        // A piece simulated whole is its own measure, whatever it records.
        w.exact = true;
        assert_eq!(estimate(&[w], true).metrics.cycles, 10 * 30_000);
    }

    #[test]
    fn identical_windows_give_their_values_and_a_zero_width_interval() {
        let ws = vec![window(1000, 500, 5000, 0.25, 100), window(1000, 500, 5000, 0.25, 100)];
        let e = estimate(&ws, true);
        // 10 000 instructions at CPI 2.
        assert_eq!(e.metrics.cycles, 20_000);
        assert!((e.metrics.ipc - 0.5).abs() < 1e-12);
        assert!((e.metrics.l2_miss_rate - 0.25).abs() < 1e-12);
        // 100 stall cycles per 1000 cycles over 20 000 cycles.
        assert_eq!(e.metrics.l1_stall_cycles, 2000);
        let i = e.intervals["l2_miss_rate"];
        assert!((i.low - 0.25).abs() < 1e-12 && (i.high - 0.25).abs() < 1e-12);
    }

    #[test]
    fn rates_follow_instructions_and_utilization_follows_time() {
        // Chunk 1: 1000 instructions at CPI 1 (1000 cycles); chunk 2: 3000 at CPI 3 (9000).
        let mut a = window(1000, 1000, 1000, 0.0, 0);
        let mut b = window(3000, 1000, 3000, 1.0, 0);
        a.metrics.dram_bandwidth_utilization = 0.2;
        b.metrics.dram_bandwidth_utilization = 0.6;
        let e = estimate(&[a, b], true);
        assert_eq!(e.metrics.cycles, 10_000);
        assert!((e.metrics.ipc - 0.4).abs() < 1e-12);
        // Miss rate by instructions: (1000 x 0 + 3000 x 1) / 4000.
        assert!((e.metrics.l2_miss_rate - 0.75).abs() < 1e-12);
        // Utilization by time: (1000 x 0.2 + 9000 x 0.6) / 10 000.
        assert!((e.metrics.dram_bandwidth_utilization - 0.56).abs() < 1e-12);
        // Two windows: t(1) = 12.706; weighted variance (1/4)^2(0.75)^2 + (3/4)^2(0.25)^2
        // = 0.0703125, times n/(n-1) = 2 gives 0.140625, whose root is 0.375.
        // That half-width, 0.75 + 4.76, would pass 100 %: a share's interval stops at 0 and 1.
        let i = e.intervals["l2_miss_rate"];
        assert_eq!((i.low, i.high), (0.0, 1.0));
        // Each window's contribution: its share of the weight times its distance from the
        // mean, times sqrt(n / (n - 1)) and t / 1.96, so they add up (in squares) to the
        // half-width over 1.96; the two windows err in opposite directions.
        assert_eq!(e.spread.windows, vec![0, 0]);
        let c = e.spread.of("l2_miss_rate").unwrap();
        let scale = 2f64.sqrt() * 12.706 / 1.96;
        assert!((c[0] - 0.25 * -0.75 * scale).abs() < 1e-12 && (c[1] - 0.75 * 0.25 * scale).abs() < 1e-12, "{c:?}");
        let rss = c.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((rss * 1.96 - 12.706 * 0.375).abs() < 1e-9);
        // The time's contributions are the CPI's times the run's instructions.
        assert_eq!(e.spread.of("cycles").unwrap().len(), 2);
        let ipc = e.intervals["ipc"];
        assert!(ipc.low < 0.4 && ipc.high > 0.4);
        // 0.56 - 12.706 x its half-width would be far below zero: a utilization is not.
        assert_eq!(e.intervals["dram_bandwidth_utilization"].low, 0.0);
    }

    #[test]
    fn uneven_shares_leave_fewer_degrees_of_freedom() {
        assert_eq!(effective_df([0.25; 4].into_iter(), 4), 3, "equal shares: n - 1");
        // One window of ten standing for 91 % of the run: (0.91^2 + 9 x 0.01^2)^2 / (0.91^4 +
        // 9 x 0.01^4) x 9/10 = 0.9 -> 1.
        let shares = std::iter::once(0.91).chain([0.01; 9]);
        assert_eq!(effective_df(shares, 10), 1);
        // Two halves and eight small ones: about 2 x 9/10.
        let shares = [0.46, 0.46].into_iter().chain([0.01; 8]);
        assert_eq!(effective_df(shares, 10), 2);
    }

    #[test]
    fn an_exact_tail_adds_its_own_time_and_no_uncertainty() {
        let body = [window(1000, 1000, 4000, 0.5, 0), window(1000, 1000, 4000, 0.5, 0)];
        let mut tail = window(5000, 500, 500, 0.9, 0);
        tail.exact = true;
        let e = estimate(&[body[0].clone(), body[1].clone(), tail], true);
        // 8000 instructions at CPI 1, then the tail's 5000 cycles as measured.
        assert_eq!(e.metrics.cycles, 13_000);
        // Identical sampled windows: no spread, so a zero-width interval despite the tail.
        let i = e.intervals["l2_miss_rate"];
        assert!((i.high - i.low).abs() < 1e-12);
        assert!((e.metrics.l2_miss_rate - (8000.0 * 0.5 + 500.0 * 0.9) / 8500.0).abs() < 1e-12);
    }

    #[test]
    fn a_rate_over_exact_pieces_is_the_ratio_of_their_totals() {
        // 100 L2 accesses at 90 % misses, then 900 at 10 %: 180 misses of 1000.
        let mut a = window(1000, 1000, 1000, 0.9, 0);
        let mut b = window(1000, 1000, 1000, 0.1, 0);
        a.events.l2_accesses = 100;
        b.events.l2_accesses = 900;
        a.exact = true;
        b.exact = true;
        let e = estimate(&[a, b], true);
        assert!((e.metrics.l2_miss_rate - 0.18).abs() < 1e-12);
    }

    /// `w` with a first half whose CPI and L2 miss rate are `cpi1` and `miss1`.
    fn halved(mut w: WindowSample, cpi1: f64, miss1: f64) -> WindowSample {
        let instructions = w.instructions / 2;
        let mut metrics = w.metrics.clone();
        metrics.l2_miss_rate = miss1;
        let events = Events { l2_accesses: instructions, ..Events::default() };
        let cycles = (cpi1 * instructions as f64) as u64;
        w.first_half = Some(Measured { cycles, instructions, events, metrics });
        w
    }

    #[test]
    fn a_window_that_still_moves_widens_its_interval_by_the_move() {
        // Two windows at CPI 2 and miss rate 0.25 overall, each measured in halves at CPI
        // 1.5 then 2.5 (a drift of +1 per window) and miss rate 0.2 then 0.3 (+0.1).
        let ws: Vec<WindowSample> = (0..2).map(|_| halved(window(1000, 500, 5000, 0.25, 0), 1.5, 0.2)).collect();
        let e = estimate(&ws, true);
        // The estimates are the windows' whole values, as without halves.
        assert_eq!(e.metrics.cycles, 20_000);
        assert!((e.metrics.l2_miss_rate - 0.25).abs() < 1e-12);
        // No spread between the windows, so the interval is the drift alone: CPI 2 +- 1,
        // miss rate 0.25 +- 0.1.
        let ipc = e.intervals["ipc"];
        assert!((ipc.low - 1.0 / 3.0).abs() < 1e-12 && (ipc.high - 1.0).abs() < 1e-12, "{ipc:?}");
        let miss = e.intervals["l2_miss_rate"];
        assert!((miss.low - 0.15).abs() < 1e-12 && (miss.high - 0.35).abs() < 1e-12, "{miss:?}");
        // The drift rides on a window of its own in the spread, shared by the kernel's runs,
        // and carries the whole half-width.
        assert_eq!(e.spread.windows, vec![0, 0, DRIFT_SLOT]);
        let c = e.spread.of("l2_miss_rate").unwrap();
        assert!(c[0].abs() < 1e-12 && c[1].abs() < 1e-12 && (c[2] * 1.96 - 0.1).abs() < 1e-12, "{c:?}");
        assert!((e.spread.of("cycles").unwrap()[2] * 1.96 - 10_000.0).abs() < 1e-6);
    }

    #[test]
    fn a_drift_adds_to_the_spread_between_windows() {
        // The second test's two windows, each now measured in halves that move by +0.1.
        let (a, b) = (window(1000, 1000, 1000, 0.0, 0), window(3000, 1000, 3000, 1.0, 0));
        let (a, b) = (halved(a, 1.0, -0.05), halved(b, 3.0, 0.95));
        let e = estimate(&[a, b], true);
        let half = 12.706 * 0.375;
        // Root sum of squares of the contributions, times 1.96, is the widened half-width.
        let c = e.spread.of("l2_miss_rate").unwrap();
        let rss = c.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((rss * 1.96 - (half + 0.1)).abs() < 1e-9);
        // Their CPIs do not move between halves: the IPC interval is the spread's alone.
        let cycles = e.spread.of("cycles").unwrap();
        assert!(cycles[2].abs() < 1e-9, "{cycles:?}");
    }

    #[test]
    fn the_run_takes_at_least_the_cycles_simulated_in_detail() {
        // Two windows far apart: CPI 1 and 100 over chunks of 10 000 instructions each, the
        // spread's interval reaching below zero cycles. The windows and their warm-ups ran
        // 1 000 + 500 and 10 000 + 500 cycles inside those chunks.
        let mut a = window(1_000, 1_000, 10_000, 0.1, 0);
        let mut b = window(10_000, 100, 10_000, 0.9, 0);
        (a.warmup_cycles, a.warmup_instructions, b.warmup_cycles, b.warmup_instructions) = (500, 500, 500, 5);
        let e = estimate(&[a, b], true);
        let (cycles, ipc) = (e.intervals["cycles"], e.intervals["ipc"]);
        assert_eq!(cycles.low, 1_500.0 + 10_500.0, "{cycles:?}");
        assert!((ipc.high - 20_000.0 / 12_000.0).abs() < 1e-12, "{ipc:?}");
        assert!(cycles.low <= e.metrics.cycles as f64 && e.metrics.cycles as f64 <= cycles.high);
        assert!(ipc.low <= e.metrics.ipc && e.metrics.ipc <= ipc.high);
        // However much was simulated in detail, the bound never passes the estimate itself.
        let (mut a, mut b) = (window(1_000, 1_000, 1_000, 0.1, 0), window(1_000, 1_000, 1_000, 0.1, 0));
        (a.warmup_cycles, b.warmup_cycles) = (50_000, 50_000);
        let e = estimate(&[a, b], true);
        let (cycles, ipc) = (e.intervals["cycles"], e.intervals["ipc"]);
        assert!(cycles.low <= e.metrics.cycles as f64 + 0.5 && ipc.high >= e.metrics.ipc - 1e-12, "{cycles:?} {ipc:?}");
    }

    #[test]
    fn one_window_gives_no_interval() {
        let e = estimate(&[window(1000, 500, 500, 0.1, 0)], true);
        assert!(e.intervals.is_empty());
        assert_eq!(e.metrics.cycles, 1000);
    }
}
