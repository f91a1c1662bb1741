//! `warpscope run --sample N`: a sampled run with progress by thread blocks done, printed
//! as estimates with their intervals (text) or as the sampled report (JSON); `--check`
//! adds the full run and the comparison.

use super::trace_cmd::Workload;
use super::{interrupt, progress, write_out, Failure, Format};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;
use warpscope::figures::Metrics;
use warpscope::sample::{check, render_check, render_text, run_sampled};
use warpscope::stats::build_report;
use warpscope::Simulator;

pub fn run(sim: Simulator, work: &Workload, with_full: bool, format: Format, quiet: bool) -> Result<ExitCode, Failure> {
    let kernel = work.label();
    let runs = if with_full { 2 } else { 1 };
    let tracker = progress::Tracker::new(format!("run {kernel}"), runs, quiet);
    let clock = Instant::now();
    let tracked = tracker.start(format!("{kernel} (sampled)"));
    let (report, sim) = run_sampled(sim, |s, _| tracked.update(&s.progress()), interrupt::requested);
    tracked.done();
    if let Some(e) = super::trace_cmd::read_error(&sim) {
        return Err(e);
    }
    let sampled_s = clock.elapsed().as_secs_f64();
    let mut full = None;
    if with_full && report.completed {
        let mut cfg = sim.config().clone();
        cfg.sample.windows = 0;
        let mut whole = work.simulator(cfg)?;
        let clock = Instant::now();
        if super::simulate::chunks(&mut whole, None, tracker.start(format!("{kernel} (full)"))) {
            full = Some((Metrics::of(&build_report(&whole)), clock.elapsed().as_secs_f64()));
        }
    }
    tracker.finish();
    let rows = full.as_ref().map(|(m, _)| check(&report, m));
    match format {
        Format::Json => {
            let doc = match (&full, &rows) {
                (Some((m, full_s)), Some(rows)) => json!({
                    "sampled": report,
                    "full": m,
                    "check": rows,
                    "seconds": { "sampled": sampled_s, "full": full_s },
                }),
                _ => serde_json::to_value(&report).expect("reports serialize"),
            };
            write_out(&(serde_json::to_string_pretty(&doc).expect("reports serialize") + "\n"));
        }
        Format::Text => {
            let mut text = render_text(&report);
            if let (Some((_, full_s)), Some(rows)) = (&full, &rows) {
                text += &render_check(rows);
                text += &format!("\n  wall time: sampled {sampled_s:.1} s, full {full_s:.1} s\n");
            }
            write_out(&text);
        }
    }
    if let Some(e) = sim.error() {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(3));
    }
    if !report.completed || (with_full && full.is_none()) {
        return Ok(interrupt::unfinished(&[format!("{kernel} (estimated from {} windows)", report.windows.len())]));
    }
    Ok(ExitCode::SUCCESS)
}
