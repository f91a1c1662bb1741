//! Simulations run in chunks of cycles, so progress is shown and Ctrl-C honoured between
//! chunks. `run_until` in chunks takes the same steps as one call, so reports do not change.

use super::progress::{Tracked, Tracker};
use super::trace_cmd::{read_error, Workload};
use super::{interrupt, Failure};
use warpscope::sample::{Curve, SampledReport, Sampler};
use warpscope::{Config, Report, Simulator};

/// Core cycles per chunk: a fraction of a second of simulation, so Ctrl-C is felt at once.
const CHUNK: u64 = 50_000;

/// Runs `sim` to its end or to `max_cycles`, then counts it done; false when Ctrl-C
/// stopped it first.
pub fn chunks(sim: &mut Simulator, max_cycles: Option<u64>, tracked: Tracked) -> bool {
    let limit = max_cycles.unwrap_or(u64::MAX);
    loop {
        let ended = sim.run_until(sim.cycle().saturating_add(CHUNK).min(limit));
        tracked.update(&sim.progress());
        if ended || sim.cycle() >= limit {
            tracked.done();
            return true;
        }
        if interrupt::requested() {
            return false;
        }
    }
}

/// `chunks` to the end, recording the run's instructions every `curve.every` cycles (shorter
/// steps of `run_until` take the same steps, so the run is the same); false after Ctrl-C.
pub fn chunks_with_curve(sim: &mut Simulator, tracked: Tracked, curve: &mut Curve) -> bool {
    loop {
        let next = curve.instructions.len() as u64 * curve.every;
        if sim.run_until(next) {
            let p = sim.progress();
            curve.finish(p.cycle, p.warp_instructions);
            tracked.update(&p);
            tracked.done();
            return true;
        }
        curve.push(sim.progress().warp_instructions);
        if next % CHUNK < curve.every {
            tracked.update(&sim.progress());
            if interrupt::requested() {
                return false;
            }
        }
    }
}

/// `work` run on `cfg` with progress under `label`: the report, or None when Ctrl-C came
/// before the run finished (or before it started).
pub fn run(
    cfg: &Config,
    work: &Workload,
    max_cycles: Option<u64>,
    tracker: &Tracker,
    label: String,
) -> Result<Option<Report>, Failure> {
    if interrupt::requested() {
        return Ok(None);
    }
    let mut sim = work.simulator(cfg.clone())?;
    let finished = chunks(&mut sim, max_cycles, tracker.start(label));
    read_error(&sim).map_or(Ok(()), Err)?;
    Ok(finished.then(|| warpscope::stats::build_report(&sim)))
}

/// A sampled run (`sample.windows` > 0) with progress under `label`: its report, or None
/// when Ctrl-C came first.
pub fn run_sampled(
    cfg: &Config,
    work: &Workload,
    tracker: &Tracker,
    label: String,
) -> Result<Option<SampledReport>, Failure> {
    if interrupt::requested() {
        return Ok(None);
    }
    let run = Sampler::new(work.simulator(cfg.clone())?);
    Ok(sample(run, tracker.start(label))?.map(|mut r| r.swap_remove(0)))
}

/// Sampled runs of `work` that share one warming (`Sampler::shared`), with progress under
/// `label`: their reports in the order of `cfgs`, or None when Ctrl-C came first.
pub fn run_sampled_shared(
    cfgs: &[Config],
    work: &Workload,
    tracker: &Tracker,
    label: String,
) -> Result<Option<Vec<SampledReport>>, Failure> {
    if interrupt::requested() {
        return Ok(None);
    }
    let sims = cfgs.iter().map(|c| work.simulator(c.clone())).collect::<Result<Vec<_>, _>>()?;
    let run = Sampler::shared(sims).map_err(|e| warpscope::ConfigError::new("sample.warming_scheduler", e))?;
    sample(run, tracker.start_runs(label, cfgs.len()))
}

/// Steps `run` to its end: its reports, or None when Ctrl-C came first.
fn sample(mut run: Sampler, tracked: Tracked) -> Result<Option<Vec<SampledReport>>, Failure> {
    while !run.step(CHUNK) {
        tracked.update(&run.sim().progress());
        if interrupt::requested() {
            return Ok(None);
        }
    }
    tracked.done();
    read_error(run.sim()).map_or(Ok(()), Err)?;
    Ok(Some(run.reports()))
}
