//! `warpscope bench`: simulation speed on a fixed set of runs, best of `--repeat`.

use super::failure::Failure;
use super::{parallel, write_out};
use std::time::Instant;
use warpscope::config::preset;
use warpscope::dram::sched::DramSchedulerKind;
use warpscope::kernels::Size;
use warpscope::sample::{run_sampled, Sampler};
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
    sampled(repeat)?;
    shared(repeat)
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

/// The `sc14` figures' five DRAM schedulers on one kernel, sampled: one after another, each
/// with its own warming, and sharing GMC's (`sample.warming_scheduler`).
fn shared(repeat: u32) -> Result<(), Failure> {
    const SCHEDULERS: [DramSchedulerKind; 5] = [
        DramSchedulerKind::Gmc,
        DramSchedulerKind::Wg,
        DramSchedulerKind::WgM,
        DramSchedulerKind::WgBw,
        DramSchedulerKind::WgW,
    ];
    let (p, k, size) = ("sc14-gtx480", "bfs", Size::Paper);
    let sims = |warming: Option<DramSchedulerKind>| -> Result<Vec<Simulator>, Failure> {
        let base = preset(p).expect("bench presets exist");
        SCHEDULERS
            .iter()
            .map(|&s| {
                let mut cfg = base.clone();
                cfg.dram.scheduler = s;
                cfg.sample.windows = 30;
                cfg.sample.warming_scheduler = warming;
                Ok(Simulator::new(cfg, k, size, 1)?)
            })
            .collect()
    };
    let (mut alone, mut together) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..repeat {
        let t0 = Instant::now();
        for sim in sims(None)? {
            run_sampled(sim, |_, _| {}, || false);
        }
        alone = alone.min(t0.elapsed().as_secs_f64());
        let mut run = Sampler::shared(sims(Some(DramSchedulerKind::Gmc))?).expect("they differ in the scheduler alone");
        let t0 = Instant::now();
        while !run.step(50_000) {}
        together = together.min(t0.elapsed().as_secs_f64());
    }
    write_out(&format!(
        "\nsampled, five DRAM schedulers (GMC, WG, WG-M, WG-Bw, WG-W) on {p} {k} {}:\n\
         each with its own warming {alone:.3} s, sharing GMC's {together:.3} s ({:+.0} %)\n",
        size.as_str(),
        100.0 * (together / alone - 1.0)
    ));
    Ok(())
}
