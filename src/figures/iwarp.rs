//! iWarp (draft): L1 misses by contention class over L1 sizes (fig. 2), and the IPC of the
//! warp schedulers normalized to GTO (fig. 10), on `iwarp-fermi`.

use super::grid::{change, gmean, Grid};
use super::{Figure, Metrics, Outcome, Paper, RunSpec, SizeCheck};
use crate::plot::{BarFigure, BarSeries};

const PRESET: &str = "iwarp-fermi";
/// Heavy kernels (intra-warp contention) first, then moderate ones (inter-warp).
const HEAVY: [&str; 4] = ["atax", "bicg", "gesummv", "mvt"];
const MODERATE: [&str; 2] = ["kmeans", "bfs"];
/// L1 sizes with the draft's associativities.
const L1: [(u32, u32); 3] = [(16, 4), (48, 6), (64, 8)];
const SCHEDULERS: [(&str, &str); 3] = [("GTO", "gto"), ("CCWS", "ccws"), ("iWarp", "iwarp")];

pub(super) fn figures() -> Vec<Figure> {
    vec![
        Figure {
            name: "iwarp-fig2",
            paper: Paper::Iwarp,
            title: "L1 misses by contention class over L1 sizes",
            claim:
                "Heavy kernels miss in the L1 through intra-warp contention (about 90 % of MPKI) whatever its size, \
                    while moderate kernels miss through inter-warp contention, which a 64 KB L1 removes (−92 %).",
            plan: || runs(&L1, &SCHEDULERS[..1]),
            build: classes,
        },
        Figure {
            name: "iwarp-fig10",
            paper: Paper::Iwarp,
            title: "IPC of CCWS and iWarp over GTO",
            claim: "On heavy kernels iWarp beats GTO by 18.3 %, 17.8 % and 15.8 % at 16, 48 and 64 KB, while CCWS \
                    gains only 1.9–8.3 %.",
            plan: || runs(&[L1[0], L1[2]], &SCHEDULERS),
            build: schedulers,
        },
    ]
}

fn runs(sizes: &[(u32, u32)], schedulers: &[(&str, &str)]) -> Vec<RunSpec> {
    let mut out = Vec::new();
    for &k in HEAVY.iter().chain(&MODERATE) {
        for &(kb, ways) in sizes {
            for &(label, s) in schedulers {
                out.push(
                    RunSpec::new(format!("{k} {kb}K"), label, PRESET, k)
                        .set("l1d.size_kb", kb)
                        .set("l1d.ways", ways)
                        .set("core.warp_scheduler", s),
                );
            }
        }
    }
    out
}

fn classes(runs: &[(RunSpec, Metrics)]) -> Outcome {
    const NAMES: [&str; 3] = ["intra-warp", "inter-warp", "other"];
    let categories: Vec<String> = runs.iter().map(|(s, _)| s.category.clone()).collect();
    let series = (0..3)
        .map(|c| BarSeries {
            label: NAMES[c].into(),
            values: runs.iter().map(|(_, m)| m.l1_mpki_classes[c]).collect(),
            ..BarSeries::default()
        })
        .collect();
    let get = |k: &str, kb: u32| {
        runs.iter().find(|(s, _)| s.category == format!("{k} {kb}K")).map(|(_, m)| m.l1_mpki_classes)
    };
    let intra_share = |c: [f64; 3]| c[0] / (c[0] + c[1] + c[2]).max(f64::MIN_POSITIVE);
    let mut checks = Vec::new();
    let mut heavy_shares = Vec::new();
    for k in HEAVY {
        for kb in [16, 64] {
            let share = get(k, kb).map(intra_share).unwrap_or(0.0);
            heavy_shares.push(share);
            checks.push(share > 0.7);
        }
    }
    let mut drops = Vec::new();
    for k in MODERATE {
        let (a, b) = (get(k, 16).map_or(0.0, |c| c[1]), get(k, 64).map_or(0.0, |c| c[1]));
        let drop = if a > 0.0 { 1.0 - b / a } else { 0.0 };
        drops.push(format!("{k} −{:.0} %", drop * 100.0));
        checks.push(drop > 0.5);
    }
    let mean_share = heavy_shares.iter().sum::<f64>() / heavy_shares.len().max(1) as f64;
    let summary = format!(
        "Heavy kernels: {:.0} % of L1 MPKI is intra-warp at 16 and 64 KB (paper 92 % and 89 %). Inter-warp misses \
         from 16 to 64 KB: {} (paper −92 %).",
        mean_share * 100.0,
        drops.join(", ")
    );
    let figure = BarFigure {
        title: "iWarp fig. 2: L1 misses by contention class (GTO)".into(),
        x_label: "kernel and L1 size".into(),
        y_label: "L1 misses per 1000 warp instructions".into(),
        categories,
        series,
        reference: None,
    };
    // The checks above are thresholds near the paper's shares (92 %, 89 %, −92 %): a factor-of-2
    // size check on them would hold whenever they do.
    Outcome::new(figure, &checks, Vec::new(), summary)
}

fn schedulers(runs: &[(RunSpec, Metrics)]) -> Outcome {
    let grid = Grid::of(runs, |m| m.ipc).relative_to("GTO");
    let mut checks = Vec::new();
    let mut notes = Vec::new();
    let mut sizes = Vec::new();
    // The draft's iWarp gains over GTO at 16 and 64 KB.
    for (kb, paper) in [("16K", 1.183), ("64K", 1.158)] {
        let heavy: Vec<String> = HEAVY.iter().map(|k| format!("{k} {kb}")).collect();
        let mean = |s: &str| gmean(&heavy.iter().map(|c| grid.get(s, c)).collect::<Vec<_>>());
        let (iwarp, ccws) = (mean("iWarp"), mean("CCWS"));
        checks.push(iwarp > 1.0);
        checks.push(iwarp > ccws);
        sizes.push(SizeCheck::of_ratios(&format!("iWarp {kb}B"), iwarp, paper));
        notes.push(format!("{kb}B iWarp {}, CCWS {}", change(iwarp), change(ccws)));
    }
    let summary = format!(
        "Heavy kernels over GTO: {} (paper at 16 and 64 KB: iWarp +18.3 % and +15.8 %, CCWS +5.4 % and +1.9 %).",
        notes.join("; ")
    );
    Outcome::new(
        grid.figure("iWarp fig. 10: IPC over GTO", "kernel and L1 size", "IPC over GTO (×)", Some(1.0)),
        &checks,
        sizes,
        summary,
    )
}
