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
use warpscope::sample::{check, parts, render_check, render_parts, render_text, run_sampled, Curve, CURVE_EVERY};
use warpscope::stats::build_report;
use warpscope::Simulator;

/// The full run a sampled run is checked against.
pub enum Full {
    None,
    /// Run it after the sampled run.
    Run,
    /// Read it from an earlier `--check --format json` output, or from a whole run's report
    /// that carries its figure metrics (`warpscope job`'s, `batch`'s).
    Recorded(PathBuf),
}

/// What is known of the full run: its metrics, its wall time and its instructions-by-cycle
/// curve when they were recorded.
struct FullRun {
    metrics: Metrics,
    seconds: Option<f64>,
    curve: Option<Curve>,
}

/// The full run from `path`: an
/// earlier `--check --format json` output, or a `job` or `batch` report of a whole run,
/// gzipped or not (so a plan's kept reports check sampling at no cost). Either way its
/// kernel, size and seed must be `sim`'s, and its config `sim`'s but for the sampling settings.
fn recorded(path: &Path, sim: &Simulator) -> Result<FullRun, Failure> {
    let cfg = sim.config();
    let bad = |why: String| Failure::from(ConfigError::new("--check-against", format!("{}: {why}", path.display())));
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot be read ({e})")))?;
    // Kept reports are gzipped (docs/reproductions/runs/); read them as they are.
    let doc: serde_json::Value = if bytes.starts_with(&[0x1f, 0x8b]) {
        serde_json::from_slice(&gunzip(&bytes).map_err(|e| bad(format!("is not whole gzip data ({e})")))?)
    } else {
        serde_json::from_slice(&bytes)
    }
    .map_err(|e| bad(format!("is not JSON ({e})")))?;
    // A `--check` output nests the run under `sampled`; a whole run's report is the run.
    let (full, seconds, run, is_report) = match (doc.get("full"), doc.get("sampled"), doc.get("figure_metrics")) {
        (Some(full), Some(run), _) => (full, doc.pointer("/seconds/full").and_then(|v| v.as_f64()), run, false),
        (None, None, Some(full)) => (full, None, &doc, true),
        _ => {
            return Err(bad("has no full run; give the output of `warpscope run --sample N --check --format json` \
                 or a whole run's report from `warpscope job` or `batch`"
                .into()))
        }
    };
    let Some(theirs) = run.get("config") else {
        return Err(bad("has no config".into()));
    };
    let field = |key: &str| run.get(key).cloned().unwrap_or_default();
    let ours = (json!(sim.benchmark().name), json!(sim.benchmark().size_name()), json!(sim.seed()));
    if (field("kernel"), field("size"), field("seed")) != ours {
        return Err(bad(format!(
            "is a run of {} ({}) with seed {}; this run is {} ({}) with seed {}",
            field("kernel"),
            field("size"),
            field("seed"),
            ours.0,
            ours.1,
            ours.2
        )));
    }
    let metrics: Metrics =
        serde_json::from_value(full.clone()).map_err(|e| bad(format!("has a malformed full run ({e})")))?;
    if !metrics.completed {
        return Err(bad("is a run cut short (`completed: false`), not a whole run".into()));
    }
    // A file recorded before a field was renamed reads as its renamed config.
    let mut theirs: Config = warpscope::config::parse_config_value(theirs.clone())
        .map_err(|e| bad(format!("has a config this version cannot read ({e})")))?;
    if is_report && !theirs.sample.is_off() {
        return Err(bad("is a sampled run's report; give a whole run's".into()));
    }
    theirs.sample = cfg.sample.clone();
    if &theirs != cfg {
        return Err(bad("was run with another config; it must differ from this run's in `sample` alone".into()));
    }
    // Outputs of `--check` before the curve was recorded have none (or `null`, when such a
    // file was checked against again); the parts then go unsaid.
    let curve = match doc.get("full_curve").filter(|c| !c.is_null()) {
        Some(c) => {
            Some(serde_json::from_value(c.clone()).map_err(|e| bad(format!("has a malformed `full_curve` ({e})")))?)
        }
        None => None,
    };
    Ok(FullRun { metrics, seconds, curve })
}

#[cfg(not(target_arch = "wasm32"))]
fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(bytes), &mut out)?;
    Ok(out)
}

/// The CLI never runs as wasm; the test build of that target still compiles it.
#[cfg(target_arch = "wasm32")]
fn gunzip(_: &[u8]) -> std::io::Result<Vec<u8>> {
    Err(std::io::Error::other("gzip needs the native build"))
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
        // The report's config is the run's own (`sim` is the warming's, with a shared one).
        let mut cfg = report.config.clone();
        cfg.sample.windows = 0;
        let mut whole = work.simulator(cfg)?;
        let clock = Instant::now();
        let mut curve = Curve::new(CURVE_EVERY);
        if super::simulate::chunks_with_curve(&mut whole, tracker.start(format!("{kernel} (full)")), &mut curve) {
            let (metrics, seconds) = (Metrics::of(&build_report(&whole)), Some(clock.elapsed().as_secs_f64()));
            full = Some(FullRun { metrics, seconds, curve: Some(curve) });
        }
    }
    tracker.finish();
    let rows = full.as_ref().map(|f| check(&report, &f.metrics));
    let split = full.as_ref().and_then(|f| f.curve.as_ref()).filter(|_| report.completed);
    let split = split.map(|c| parts(&report.windows, c));
    match format {
        Format::Json => {
            let doc = match (&full, &rows) {
                (Some(f), Some(rows)) => json!({
                    "sampled": report,
                    "full": f.metrics,
                    "check": rows,
                    "parts": split,
                    "seconds": { "sampled": sampled_s, "full": f.seconds },
                    "full_curve": f.curve,
                }),
                _ => serde_json::to_value(&report).expect("reports serialize"),
            };
            write_out(&(serde_json::to_string_pretty(&doc).expect("reports serialize") + "\n"));
        }
        Format::Text => {
            let mut text = render_text(&report);
            if let (Some(f), Some(rows)) = (&full, &rows) {
                text += &render_check(rows);
                if let Some(p) = &split {
                    text += &render_parts(p);
                }
                text += &match f.seconds {
                    Some(f) => format!("\n  wall time: sampled {sampled_s:.1} s, full {f:.1} s\n"),
                    None => format!("\n  wall time: sampled {sampled_s:.1} s (the full run's is not recorded)\n"),
                };
            }
            write_out(&text);
        }
    }
    if let Some(e) = &report.error {
        eprintln!("error: {e}");
        return Ok(ExitCode::from(3));
    }
    if !report.completed || (!matches!(with_full, Full::None) && full.is_none()) {
        return Ok(interrupt::unfinished(&[format!("{kernel} (estimated from {} windows)", report.windows.len())]));
    }
    Ok(ExitCode::SUCCESS)
}
