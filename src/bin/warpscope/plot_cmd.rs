//! `warpscope plot`: charts of saved reports, after checking every argument and report.

use crate::check_size;
use serde_json::Value;
use std::path::{Path, PathBuf};
use warpscope::config::{ConfigError, ConfigErrors};
use warpscope::plot::{self, Chart, ChartRun};

/// Checks every argument and reads every report first, so a bad one fails before any
/// file is written. `--out` is a directory with `--chart all` or when it already is one.
pub fn plot_reports(
    chart: &str,
    out: &Path,
    size: (u32, u32),
    csv: bool,
    reports: &[PathBuf],
) -> Result<(), ConfigErrors> {
    let charts = match chart {
        "all" => Chart::ALL.to_vec(),
        name => vec![Chart::from_name(name).map_err(|e| ConfigError::new("--chart", format!("{e}, or all")))?],
    };
    let ext = if csv { "csv" } else { "svg" };
    let into_dir = chart == "all" || out.is_dir();
    if !into_dir {
        check_out_extension(out, ext)?;
    }
    check_size(size.0, size.1)?;
    let runs = reports.iter().map(|p| read_report(p)).collect::<Result<Vec<_>, _>>()?;
    let write_err =
        |p: &Path, e: std::io::Error| ConfigError::new("--out", format!("cannot write {}: {e}", p.display()));
    if into_dir {
        std::fs::create_dir_all(out).map_err(|e| write_err(out, e))?;
    }
    for c in charts {
        let text = if csv {
            plot::table(c, &runs).to_csv()
        } else {
            plot::svg(c, &runs, size.0, size.1).map_err(|e| ConfigError::new("--width/--height", e))?
        };
        let path = if into_dir { out.join(format!("{}.{ext}", c.name())) } else { out.to_path_buf() };
        std::fs::write(&path, text).map_err(|e| write_err(&path, e))?;
        crate::write_out(&format!("wrote {}\n", path.display()));
    }
    Ok(())
}

/// A single `--out` file must be named for what is written into it.
fn check_out_extension(out: &Path, ext: &str) -> Result<(), ConfigError> {
    let given = out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if given.as_deref() == Some(ext) {
        return Ok(());
    }
    let what = if ext == "csv" { "--csv writes CSV" } else { "the chart is written as SVG (--csv writes .csv)" };
    Err(ConfigError::new("--out", format!("{} must end in .{ext}: {what}", out.display())))
}

/// Top-level keys every report has; a config or `{}` lacks them and would draw empty charts.
const REPORT_KEYS: &[&str] = &["version", "completed", "cycles", "ipc"];

/// A report saved by `warpscope run --format json`, labelled by its file stem.
fn read_report(path: &Path) -> Result<ChartRun, ConfigError> {
    let fail = |msg: String| ConfigError::new("REPORT", msg);
    let not_report = |why: String| fail(format!("not a warpscope report ({}: {why})", path.display()));
    let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| not_report(e.to_string()))?;
    if doc.get("estimate").is_some() && doc.get("windows").is_some() {
        // A sampled run keeps estimates, not the whole run's distributions the charts draw.
        return Err(fail(format!(
            "{} is a sampled run's report: charts draw the distributions a whole run records, and a sampled run \
             records estimates only (see them with `warpscope run --sample`'s text, or compare runs with `compare \
             --sample` or `sweep --sample`); run it whole (sample.windows=0) to chart it",
            path.display()
        )));
    }
    let missing: Vec<&str> = REPORT_KEYS.iter().copied().filter(|k| doc.get(k).is_none()).collect();
    if !missing.is_empty() {
        return Err(not_report(format!("no {}", missing.join(", "))));
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    ChartRun::from_json(stem, &text).map_err(|e| fail(format!("{}: {e}", path.display())))
}
