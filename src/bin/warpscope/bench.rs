//! `warpscope bench`: simulation speed on a fixed set of runs, best of `--repeat`.

use super::failure::Failure;
use super::{parallel, write_out};
use std::time::Instant;
use warpscope::config::preset;
use warpscope::kernels::Size;
use warpscope::sample::run_sampled;
use warpscope::Simulator;

fn host_description() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let threads = parallel::hardware_threads();
    format!(
        "{} {} — {cpu}, {threads} hardware threads (the benchmark uses one)",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The fixed benchmark set: (preset, kernel, size).
const BENCH_RUNS: &[(&str, &str, Size)] = &[
    ("medic-gtx480", "bfs", Size::Small),
    ("medic-gtx480", "atax", Size::Small),
    ("medic-gtx480", "kmeans", Size::Small),
    ("sc14-gtx480", "spmv", Size::Small),
];

pub fn bench(repeat: u32) -> Result<(), Failure> {
    write_out(&(format!("host: {}", host_description()) + "\n"));
    write_out(
        &(format!(
            "{:<14} {:<8} {:<6} {:>10} {:>9} {:>14} {:>14} {:>16}",
            "preset", "kernel", "size", "cycles", "wall s", "GPU cycles/s", "SM-cycles/s", "warp instr/s"
        ) + "\n"),
    );
    for &(p, k, size) in BENCH_RUNS {
        let cfg = preset(p).expect("bench presets exist");
        let sms = cfg.core.num_sms as f64;
        let mut best = f64::INFINITY;
        let mut result = (0, 0);
        for _ in 0..repeat {
            let mut sim = Simulator::new(cfg.clone(), k, size, 1)?;
            let t0 = Instant::now();
            sim.run_until(u64::MAX);
            let dt = t0.elapsed().as_secs_f64();
            if let Some(e) = sim.error() {
                return Err(Failure::Stopped(format!("{p}/{k}"), e.to_string()));
            }
            let pr = sim.progress();
            result = (pr.cycle, pr.warp_instructions);
            best = best.min(dt);
        }
        let (cycles, wi) = result;
        write_out(
            &(format!(
                "{:<14} {:<8} {:<6} {:>10} {:>9.3} {:>14.0} {:>14.0} {:>16.0}",
                p,
                k,
                size.as_str(),
                cycles,
                best,
                cycles as f64 / best,
                cycles as f64 * sms / best,
                wi as f64 / best
            ) + "\n"),
        );
    }
    sampled(repeat)
}

/// Sampled runs at `paper` size: the time a full run would take there is measured by
/// `run --sample N --check`, so this reports the sampled run's own speed only.
const SAMPLED_RUNS: &[(&str, &str, Size)] = &[
    ("medic-gtx480", "spmv", Size::Paper),
    ("medic-gtx480", "bfs", Size::Paper),
    ("medic-gtx480", "pvc", Size::Paper),
];

fn sampled(repeat: u32) -> Result<(), Failure> {
    write_out(&format!(
        "\nsampled (30 windows):\n{:<14} {:<8} {:<6} {:>14} {:>9} {:>12} {:>16}\n",
        "preset", "kernel", "size", "est. cycles", "wall s", "detailed %", "warp instr/s"
    ));
    for &(p, k, size) in SAMPLED_RUNS {
        let mut cfg = preset(p).expect("bench presets exist");
        cfg.sample.windows = 30;
        let mut best = f64::INFINITY;
        let mut last = None;
        for _ in 0..repeat {
            let sim = Simulator::new(cfg.clone(), k, size, 1)?;
            let t0 = Instant::now();
            let (r, _) = run_sampled(sim, |_, _| {}, || false);
            best = best.min(t0.elapsed().as_secs_f64());
            if let Some(e) = &r.error {
                return Err(Failure::Stopped(format!("{p}/{k}"), e.clone()));
            }
            last = Some(r);
        }
        let r = last.expect("repeat is at least 1");
        let detailed = 100.0 * r.detailed_cycles as f64 / r.estimate.cycles.max(1) as f64;
        write_out(&format!(
            "{:<14} {:<8} {:<6} {:>14} {:>9.3} {:>12.1} {:>16.0}\n",
            p,
            k,
            size.as_str(),
            r.estimate.cycles,
            best,
            detailed,
            r.warp_instructions as f64 / best
        ));
    }
    Ok(())
}
