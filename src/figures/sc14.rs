//! Warp-aware DRAM scheduling (Chatterjee et al., SC 2014): effective memory latency (fig. 9),
//! DRAM latency divergence (fig. 10) and bandwidth utilization (fig. 11) under GMC and the
//! warp-group schedulers. The three figures share one set of runs.

use super::grid::{amean, change, Grid};
use super::{Figure, Metrics, Outcome, Paper, RunSpec, SizeCheck};
use crate::dram::sched::DramSchedulerKind;

const PRESET: &str = "sc14-gtx480";
const KERNELS: [&str; 5] = ["bfs", "sssp", "spmv", "pvc", "kmeans"];
const SCHEDULERS: [(&str, &str); 5] =
    [("GMC", "gmc"), ("WG", "wg"), ("WG-M", "wg_m"), ("WG-Bw", "wg_bw"), ("WG-W", "wg_w")];

/// Sampled, a kernel's five runs take GMC's warming, computed once (docs/sampling.md).
fn plan() -> Vec<RunSpec> {
    KERNELS
        .iter()
        .flat_map(|&k| {
            SCHEDULERS.map(|(label, s)| {
                RunSpec::new(k, label, PRESET, k).set("dram.scheduler", s).warming_of(DramSchedulerKind::Gmc)
            })
        })
        .collect()
}

pub(super) fn figures() -> Vec<Figure> {
    vec![
        Figure {
            name: "sc14-fig9",
            paper: Paper::Sc14,
            title: "Effective memory latency of warps",
            claim: "Serving a warp's requests together, shortest warp-group first, cuts the time warps wait on \
                    memory: 9.1 % with WG and 16.9 % with WG-M against GMC.",
            plan,
            build: latency,
        },
        Figure {
            name: "sc14-fig10",
            paper: Paper::Sc14,
            title: "DRAM latency divergence",
            claim: "Warp-aware scheduling shrinks the gap between a warp's first and last DRAM reply, and WG-M's \
                    coordination across channels matters for warps that touch several channels.",
            plan,
            build: divergence,
        },
        Figure {
            name: "sc14-fig11",
            paper: Paper::Sc14,
            title: "DRAM bandwidth utilization",
            claim: "Strict warp-group scheduling gives up some bandwidth, and WG-Bw's row-hit rule (MERB) wins it \
                    back, over 14 % more utilization than WG-M.",
            plan,
            build: bandwidth,
        },
    ]
}

/// Each scheduler's value over GMC's, averaged over kernels.
fn mean_ratio(grid: &Grid, s: &str) -> f64 {
    mean_ratio_to(grid, s, "GMC")
}

/// `s`'s value over `base`'s, averaged over kernels.
fn mean_ratio_to(grid: &Grid, s: &str, base: &str) -> f64 {
    amean(&grid.categories.iter().map(|k| grid.get(s, k) / grid.get(base, k)).collect::<Vec<_>>())
}

fn latency(runs: &[(RunSpec, Metrics)]) -> Outcome {
    let grid = Grid::of(runs, |m| m.dram_warp_load_latency);
    let (wg, wg_m) = (mean_ratio(&grid, "WG"), mean_ratio(&grid, "WG-M"));
    let all = Grid::of(runs, |m| m.warp_load_latency);
    // Changes within 1 % are the noise of reordering, not the paper's effect.
    let checks = [wg < 0.99, wg_m < 0.99];
    let sizes = vec![SizeCheck::of_ratios("WG", wg, 1.0 - 0.091), SizeCheck::of_ratios("WG-M", wg_m, 1.0 - 0.169)];
    let summary = format!(
        "Mean effective main-memory latency (warp-loads DRAM served) against GMC: WG {}, WG-M {} (paper −9.1 % \
         and −16.9 %). Over every warp-load, those the caches served included: WG {}, WG-M {}.",
        change(wg),
        change(wg_m),
        change(mean_ratio(&all, "WG")),
        change(mean_ratio(&all, "WG-M"))
    );
    Outcome::new(
        grid.figure(
            "SC'14 fig. 9: effective main-memory latency of warp-loads",
            "kernel",
            "issue to last reply, warp-loads DRAM served (core cycles)",
            None,
        ),
        &checks,
        sizes,
        summary,
    )
}

fn divergence(runs: &[(RunSpec, Metrics)]) -> Outcome {
    let grid = Grid::of(runs, |m| m.dram_divergence);
    let kernels = &grid.categories;
    let checks: Vec<bool> = kernels.iter().map(|k| grid.get("WG-M", k) < grid.get("GMC", k)).collect();
    let lower: Vec<&String> = kernels.iter().zip(&checks).filter(|(_, &c)| c).map(|(k, _)| k).collect();
    let summary = format!(
        "WG-M lowers DRAM latency divergence against GMC on {} of {} kernels ({}); mean change {}.",
        lower.len(),
        kernels.len(),
        if lower.is_empty() {
            "none".to_string()
        } else {
            lower.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
        },
        change(mean_ratio(&grid, "WG-M"))
    );
    Outcome::new(
        grid.figure(
            "SC'14 fig. 10: DRAM latency divergence",
            "kernel",
            "last minus first DRAM reply (core cycles)",
            None,
        ),
        &checks,
        Vec::new(),
        summary,
    )
}

fn bandwidth(runs: &[(RunSpec, Metrics)]) -> Outcome {
    let grid = Grid::of(runs, |m| m.dram_bandwidth_utilization * 100.0);
    let kernels = &grid.categories;
    let checks: Vec<bool> = kernels.iter().map(|k| grid.get("WG-Bw", k) >= grid.get("WG-M", k)).collect();
    let busiest = kernels.iter().map(|k| grid.get("GMC", k)).fold(0.0, f64::max);
    // The paper: WG-Bw improves WG-M's bandwidth utilization by more than 14 %.
    let sizes = vec![SizeCheck::of_ratios("WG-Bw over WG-M", mean_ratio_to(&grid, "WG-Bw", "WG-M"), 1.14)];
    let summary = format!(
        "WG-Bw's utilization is at least WG-M's on {} of {} kernels (paper: over 14 % more). The busiest kernel keeps \
         the DRAM bus {busiest:.1} % busy under GMC, so there is little bandwidth to win back.",
        checks.iter().filter(|&&c| c).count(),
        kernels.len()
    );
    Outcome::new(
        grid.figure("SC'14 fig. 11: DRAM bandwidth utilization", "kernel", "data bus busy (%)", None),
        &checks,
        sizes,
        summary,
    )
}
