//! The plain-text summary of a sampled run: each estimate beside its 95 % interval.

use super::{Bound, CheckRow, Parts, SampledReport};
use crate::figures::ONE_WAVE_IPC_MISS;
use crate::stats::text::{heading, Heading};
use std::fmt::Write;

/// (field, label, shown as a percentage) of the estimates the summary prints.
const ROWS: &[(&str, &str, bool)] = &[
    ("cycles", "core cycles", false),
    ("ipc", "IPC (warp instructions per cycle)", false),
    ("l1_miss_rate", "L1 miss rate", true),
    ("l2_miss_rate", "L2 miss rate", true),
    ("dram_bandwidth_utilization", "DRAM bandwidth utilization", true),
    ("dram_row_buffer_hit_rate", "DRAM row-buffer hit rate", true),
    ("warp_load_latency", "warp-load latency (core cycles)", false),
    ("memory_latency", "request latency (core cycles)", false),
    ("divergence", "divergence (core cycles)", false),
    ("warp_types.all_hit", "warps all-hit", true),
    ("warp_types.mostly_hit", "warps mostly-hit", true),
    ("warp_types.balanced", "warps balanced", true),
    ("warp_types.mostly_miss", "warps mostly-miss", true),
    ("warp_types.all_miss", "warps all-miss", true),
];

fn show(x: f64, percent: bool) -> String {
    if percent {
        format!("{:.1} %", 100.0 * x)
    } else if x.abs() >= 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// What a run sampled inside `n` one-wave launches must say, if any: those estimates carry
/// a bias the intervals leave out.
fn one_wave_caution(n: u32) -> Option<String> {
    let launches = match n {
        0 => return None,
        1 => "1 launch fit on the machine at once and was".to_string(),
        n => format!("{n} launches fit on the machine at once and were"),
    };
    Some(format!(
        "{launches} sampled inside; on the validation runs such estimates missed the full run's IPC by \
         {ONE_WAVE_IPC_MISS}, often beyond their intervals (docs/sampling.md, one-wave kernels): confirm with \
         --check or a whole run."
    ))
}

/// The line a table of runs (a sweep's points, a comparison's runs) prints for those, named by
/// `labels`, that were sampled inside one-wave launches; None when there are none.
pub fn one_wave_runs_caution(labels: &[String]) -> Option<String> {
    let who = who(labels)?;
    Some(format!(
        "CAUTION: {who} sampled inside launches that fit on the machine at once; on the validation runs such \
         estimates missed the full run's IPC by {ONE_WAVE_IPC_MISS}, often beyond their intervals \
         (docs/sampling.md, one-wave kernels): confirm with whole runs."
    ))
}

/// The line a table of runs prints for those, named by `labels`, left with one sampled window
/// (their estimates carry no interval); None when there are none.
pub fn one_window_runs_caution(labels: &[String]) -> Option<String> {
    let who = who(labels)?;
    Some(format!(
        "CAUTION: {who} left with one sampled window (the others fell in stretches simulated whole), whose spread \
         is unknown: no interval, and the estimate can be far off; use more windows (--sample)."
    ))
}

/// The runs a caution names, as its subject: "A was", "A; B were"; None for none.
fn who(labels: &[String]) -> Option<String> {
    match labels {
        [] => None,
        [one] => Some(format!("{one} was")),
        _ => Some(format!("{} were", labels.join("; "))),
    }
}

pub fn render_text(r: &SampledReport) -> String {
    let mut s = String::new();
    let c = &r.config;
    let h = Heading { version: r.version, kernel: &r.kernel, size: r.size, machine: &c.name, seed: r.seed };
    let unfinished = "interrupted: estimated from the windows run so far";
    let status = heading(&mut s, h, r.error.as_deref(), r.completed, unfinished);
    let _ = writeln!(s, "  {status}");
    let total = r.estimate.cycles.max(1) as f64;
    let tails = r.windows.iter().filter(|w| w.exact).count();
    let _ = writeln!(
        s,
        "  ESTIMATED from {} detailed windows ({} warm-up + {} measured core cycles each) and {tails} \
         stretch(es) simulated whole (launch tails, or a long tail's start and drain): {} core cycles simulated in detail, {:.1} % of the estimated {}; {} warp \
         instructions, all counted",
        r.windows.len() - tails,
        c.sample.warmup_cycles,
        c.sample.measure_cycles,
        r.detailed_cycles,
        100.0 * r.detailed_cycles as f64 / total,
        r.estimate.cycles,
        r.warp_instructions,
    );
    let _ = writeln!(
        s,
        "  Sampling is checked against full runs on part of the kernels only, and misses on some \
         (docs/sampling.md, Validation): confirm a result that matters with --check."
    );
    if let Some(caution) = one_wave_caution(r.estimate.one_wave_launches_sampled) {
        let _ = writeln!(s, "  CAUTION: {caution}");
    }
    let lone = r.estimate.one_window_sampled;
    if lone {
        let _ = writeln!(
            s,
            "  CAUTION: only one window was sampled (the others fell in stretches simulated whole), and one \
             window's spread is unknown: the estimates carry no interval and can be far off; use more windows \
             (--sample)."
        );
    }
    let _ = writeln!(s, "\n  {:<36} {:>12}   95 % interval", "metric", "estimate");
    for &(field, label, percent) in ROWS {
        let Some(x) = super::field(&r.estimate, field) else { continue };
        let interval = match r.intervals.get(field) {
            Some(i) => format!("{} – {}", show(i.low, percent), show(i.high, percent)),
            None if field.starts_with("warp_types") => "(every warp's L2 reads, counted whole)".to_string(),
            None if lone => "(none: one sampled window)".to_string(),
            None => "(none: no events to estimate it from)".to_string(),
        };
        let _ = writeln!(s, "  {label:<36} {:>12}   {interval}", show(x, percent));
    }
    s
}

/// The comparison with the full run, one line per checked metric.
pub fn render_check(rows: &[CheckRow]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "\n  against the full detailed run:");
    let _ = writeln!(
        s,
        "  {:<28} {:>10} {:>10} {:>10}  {:<12} {:<10} in interval",
        "metric", "full", "sampled", "error", "bound", "within"
    );
    for r in rows {
        let percent = r.metric != "ipc";
        let bound = match r.bound {
            Bound::Relative(x) => format!("±{:.0} %", 100.0 * x),
            Bound::Absolute(x) => format!("±{:.0} points", 100.0 * x),
        };
        let err = if percent {
            format!("{:+.1} pt", 100.0 * r.error)
        } else {
            format!("{:+.2} %", 100.0 * r.error / r.full.abs().max(f64::MIN_POSITIVE))
        };
        let covered = match r.covered {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        let _ = writeln!(
            s,
            "  {:<28} {:>10} {:>10} {:>10}  {:<12} {:<10} {covered}",
            r.metric,
            show(r.full, percent),
            show(r.sampled, percent),
            err,
            bound,
            if r.within_bound { "yes" } else { "NO" }
        );
    }
    s
}

/// Where the estimate's cycles err against the full run's, part by part (`parts`).
pub fn render_parts(p: &Parts) -> String {
    let pct = |x: f64| format!("{:+.1} %", 100.0 * x / p.full_cycles.max(1.0));
    let total = p.windows_state + p.placement + p.heads_and_tails;
    let mut s = String::new();
    let _ =
        writeln!(s, "\n  where the estimated cycles differ from the full run's (share of its cycles; + = too many):");
    for (label, x, why) in [
        (
            "the windows' state",
            p.windows_state,
            "  the windows against the full run at the same instructions (warming's bias)",
        ),
        (
            "placement",
            p.placement,
            "  the full run at the windows' places against their whole chunks (more windows narrow it)",
        ),
        ("heads and tails", p.heads_and_tails, "  simulated whole, against the same instructions of the full run"),
        ("total", total, ""),
    ] {
        let _ = writeln!(s, "  {label:<28} {:>10}{why}", pct(x));
    }
    s
}
