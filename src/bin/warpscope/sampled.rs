//! `warpscope run --sample N`: a sampled run with progress by thread blocks done, printed
//! as estimates with their intervals (text) or as the sampled report (JSON); `--check`
//! adds the full run and the comparison, or `--check-against` takes the full run from an
//! earlier `--check` output of the same config and seed.

use super::trace_cmd::Workload;
use super::{interrupt, progress, write_out, Failure, Format};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use warpscope::config::{Config, ConfigError};
use warpscope::figures::Metrics;
use warpscope::sample::{check, render_check, render_text, run_sampled};
use warpscope::stats::build_report;
use warpscope::Simulator;

/// The full run a sampled run is checked against.
pub enum Full {
    None,
    /// Run it after the sampled run.
    Run,
    /// Read it from an earlier `--check --format json` output.
    Recorded(PathBuf),
}

/// The full run's metrics and wall time from an earlier `--check --format json` output of
/// `sim`'s kernel, size and seed, whose config must be `sim`'s but for the sampling settings.
fn recorded(path: &Path, sim: &Simulator) -> Result<(Metrics, f64), Failure> {
    let cfg = sim.config();
    let bad = |why: String| Failure::from(ConfigError::new("--check-against", format!("{}: {why}", path.display())));
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot be read ({e})")))?;
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("is not JSON ({e})")))?;
    let (Some(full), Some(seconds), Some(theirs)) =
        (doc.get("full"), doc.pointer("/seconds/full").and_then(|v| v.as_f64()), doc.pointer("/sampled/config"))
    else {
        return Err(bad("has no full run; give the output of `warpscope run --sample N --check --format json`".into()));
    };
    let run = |key: &str| doc.pointer(&format!("/sampled/{key}")).cloned().unwrap_or_default();
    let ours = (json!(sim.benchmark().name), json!(sim.benchmark().size_name()), json!(sim.seed()));
    if (run("kernel"), run("size"), run("seed")) != ours {
        return Err(bad(format!(
            "is a run of {} ({}) with seed {}; this run is {} ({}) with seed {}",
            run("kernel"),
            run("size"),
            run("seed"),
            ours.0,
            ours.1,
            ours.2
        )));
    }
    let metrics: Metrics =
        serde_json::from_value(full.clone()).map_err(|e| bad(format!("has a malformed full run ({e})")))?;
    // A file recorded before a field was renamed reads as its renamed config.
    let mut theirs: Config = warpscope::config::parse_config_value(theirs.clone())
        .map_err(|e| bad(format!("has a config this version cannot read ({e})")))?;
    theirs.sample = cfg.sample.clone();
    if &theirs != cfg {
        return Err(bad("was run with another config; it must differ from this run's in `sample` alone".into()));
    }
    Ok((metrics, seconds))
}

pub fn run(sim: Simulator, work: &Workload, with_full: Full, format: Format, quiet: bool) -> Result<ExitCode, Failure> {
    let kernel = work.label();
    let recorded = match &with_full {
        Full::Recorded(path) => Some(recorded(path, &sim)?),
        _ => None,
    };
    let runs = if matches!(with_full, Full::Run) { 2 } else { 1 };
    let tracker = progress::Tracker::new(format!("run {kernel}"), runs, quiet);
    let clock = Instant::now();
    let tracked = tracker.start(format!("{kernel} (sampled)"));
    let (report, sim) = run_sampled(sim, |s, _| tracked.update(&s.progress()), interrupt::requested);
    tracked.done();
    if let Some(e) = super::trace_cmd::read_error(&sim) {
        return Err(e);
    }
    let sampled_s = clock.elapsed().as_secs_f64();
    let mut full = recorded;
    if matches!(with_full, Full::Run) && report.completed {
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
    if !report.completed || (!matches!(with_full, Full::None) && full.is_none()) {
        return Ok(interrupt::unfinished(&[format!("{kernel} (estimated from {} windows)", report.windows.len())]));
    }
    Ok(ExitCode::SUCCESS)
}
