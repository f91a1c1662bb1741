//! `warpscope sweep`: the cross product of several `--set PATH=V1,V2,...` axes over one or
//! more kernels, one row per point, run on all cores. This is how parameter studies such as
//! Optimal-TLP (a sweep over CTAs per SM) or the best SWL limit are done. Sampled points
//! (`--sample N`, or `sample.windows` set or swept) give estimates, each with its 95 % interval.

use super::batch::{self, Batch, Run};
use super::failure::Failure;
use super::interrupt::Printout;
use super::plan::PlanArg;
use super::trace_cmd::{traces, TracePaths};
use super::{
    check_names, check_path, columns, current_path, jobs_parser, kernel_names, parallel, resolve_with, size_parser,
    BaseArgs,
};
use serde_json::Value;
use std::path::PathBuf;
use warpscope::figures::REPORT_KEYS;
use warpscope::sample::{one_wave_runs_caution, one_window_runs_caution};
use warpscope::{ConfigError, ConfigErrors, Size};

/// Report keys printed when `--metrics` is not given.
const DEFAULT_METRICS: &[&str] = &[
    "cycles",
    "ipc",
    "l1d.hit_rate",
    "l2.miss_rate",
    "latency.avg_memory_latency",
    "core.l1_stall_cycles",
    "dram.bandwidth_utilization",
];

#[derive(clap::Args)]
pub struct SweepCmd {
    /// Preset machine to start from (see `warpscope list presets`).
    #[arg(long, default_value = "medic-gtx480", conflicts_with = "config")]
    preset: String,
    /// A complete config file (JSON) to start from instead of the preset.
    #[arg(long)]
    config: Option<PathBuf>,
    /// A named policy bundle applied before the axes (see `warpscope list bundles`).
    #[arg(long)]
    policy: Option<String>,
    /// An axis `PATH=V1,V2,...` (or a fixed override `PATH=V`). Repeatable; the sweep runs
    /// the cross product of all axes.
    #[arg(long = "set", value_name = "PATH=V1,V2,...")]
    sets: Vec<String>,
    /// Kernels, comma-separated (see `warpscope list kernels`).
    #[arg(long, value_delimiter = ',', required_unless_present = "trace")]
    kernel: Vec<String>,
    /// An Accel-Sim trace to sweep as well: its folder or a kernelslist file (which can list a
    /// subset of its kernels). Repeatable.
    #[arg(long, value_name = "DIR|kernelslist.g")]
    trace: Vec<PathBuf>,
    /// The trace coordinated bypassing profiles for each `--trace`, in the same order (default:
    /// the replayed trace itself, an oracle's profile; docs/traces.md). Repeatable.
    #[arg(long, value_name = "DIR|kernelslist.g", requires = "trace")]
    profile_trace: Vec<PathBuf>,
    #[arg(long, value_parser = size_parser(), default_value = "small")]
    size: Size,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Estimate every point from this many detailed windows (sets `sample.windows`;
    /// docs/sampling.md): `--size paper --sample 30`. Each number then comes with its 95 %
    /// interval.
    #[arg(long, value_name = "WINDOWS")]
    sample: Option<u32>,
    /// Report keys to print per point, comma-separated dotted paths (docs/report-keys.md), or
    /// the names of the figures' metrics they stand for, as a sampled point estimates them.
    #[arg(long, value_delimiter = ',')]
    metrics: Vec<String>,
    /// Also write the table as CSV to this file.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Simulations run at once (default: the machine's hardware threads).
    #[arg(long, value_parser = jobs_parser())]
    jobs: Option<usize>,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    plan: PlanArg,
}

/// One point of the sweep: a kernel (or a trace) and one value per axis.
struct Point {
    /// A built-in kernel, or a trace's name with ` (trace)`.
    kernel: String,
    trace: Option<TracePaths>,
    values: Vec<String>,
}

impl Point {
    /// The point as progress and Ctrl-C name it, e.g. `bfs at l1d.size_kb=16`.
    fn label(&self, axes: &[(String, Vec<String>)]) -> String {
        let at: Vec<String> = axes.iter().zip(&self.values).map(|((path, _), v)| format!("{path}={v}")).collect();
        if at.is_empty() {
            self.kernel.clone()
        } else {
            format!("{} at {}", self.kernel, at.join(","))
        }
    }
}

impl SweepCmd {
    /// Runs every point (or plans them with `--plan`), writes the CSV if asked, and returns
    /// the table aligned for a terminal (the caller prints it).
    pub fn run(&self) -> Result<Printout, Failure> {
        check_names("--kernel", "kernel", &self.kernel, &kernel_names())?;
        let axes = self.axes()?;
        if self.sample.is_some() && axes.iter().any(|(path, _)| path == "sample.windows") {
            let msg = "--sample sets sample.windows, which --set also gives; give the windows one way";
            return Err(ConfigError::new("--sample", msg).into());
        }
        let sampled = self.sample.map(|n| format!("sample.windows={n}"));
        // Resolve every config before simulating, so a bad value fails at once.
        let runs = self
            .points(&axes)?
            .into_iter()
            .map(|p| {
                let at = axes.iter().zip(&p.values).map(|((path, _), v)| format!("{path}={v}"));
                let sets = sampled.iter().cloned().chain(at).collect();
                let base = BaseArgs { preset: self.preset.clone(), config: self.config.clone(), sets };
                Ok(Run {
                    label: p.label(&axes),
                    kernel: p.kernel,
                    size: self.size,
                    seed: self.seed,
                    trace: p.trace.as_ref().map(|t| t.run.clone()),
                    profile_trace: p.trace.and_then(|t| t.profile),
                    max_cycles: None,
                    config: resolve_with(&base, self.policy.as_deref())?,
                })
            })
            .collect::<Result<Vec<_>, ConfigErrors>>()?;
        batch::run_or_plan(self, self.plan.plan.as_deref(), runs)
    }
}

/// One point's number for one `--metrics` key, with its 95 % interval where the point was
/// sampled and the estimate has one.
#[derive(Clone)]
pub struct Cell {
    value: String,
    interval: Option<(f64, f64)>,
}

/// One finished point's cells, and how it was simulated.
#[derive(Clone)]
pub struct Row {
    cells: Vec<Cell>,
    sampled: bool,
    /// Sampled inside launches that fit on the machine at once: biased beyond its intervals.
    one_wave: bool,
    /// Left with one sampled window: its estimates carry no interval, though not exact.
    lone: bool,
}

impl Batch for SweepCmd {
    type Digest = Row;

    /// The table of the points that have their cells, as CSV into `--out` if asked (an
    /// estimated metric's interval as two more columns, `KEY_low` and `KEY_high`), and aligned
    /// for a terminal (the interval beside the estimate); the points without them are named
    /// as unfinished.
    fn finish(&self, rows: Vec<Option<Row>>, _partial: &str) -> Result<Printout, Failure> {
        let axes = self.axes()?;
        let points = self.points(&axes)?;
        let metrics = self.metrics();
        let unfinished = points.iter().zip(&rows).filter(|(_, r)| r.is_none()).map(|(p, _)| p.label(&axes)).collect();
        let done: Vec<(&Point, Row)> = points.iter().zip(rows).filter_map(|(p, r)| Some((p, r?))).collect();
        let lone_any = done.iter().any(|(_, r)| r.lone);
        let estimated: Vec<bool> =
            (0..metrics.len()).map(|j| lone_any || done.iter().any(|(_, r)| r.cells[j].interval.is_some())).collect();
        let mut header = vec!["kernel".to_string()];
        header.extend(axes.iter().map(|(path, _)| path.clone()));
        let (mut text_rows, mut csv_rows) = (vec![header.clone()], Vec::new());
        text_rows[0].extend(metrics.iter().cloned());
        for (m, &e) in metrics.iter().zip(&estimated) {
            header.push(m.clone());
            if e {
                header.extend([format!("{m}_low"), format!("{m}_high")]);
            }
        }
        csv_rows.push(header);
        for (p, row) in &done {
            let mut cells = vec![p.kernel.clone()];
            cells.extend(p.values.iter().cloned());
            let (mut text, mut csv) = (cells.iter().map(|c| short(c)).collect::<Vec<_>>(), cells);
            for (c, &e) in row.cells.iter().zip(&estimated) {
                text.push(match c.interval {
                    Some((lo, hi)) => {
                        format!("{} ({}–{})", short(&c.value), short_as(lo, &c.value), short_as(hi, &c.value))
                    }
                    None if row.lone => format!("{} (no interval)", short(&c.value)),
                    None => short(&c.value),
                });
                csv.push(c.value.clone());
                if e {
                    let num = |x: f64| Value::from(x).to_string();
                    let (lo, hi) = c.interval.map_or((String::new(), String::new()), |(l, h)| (num(l), num(h)));
                    csv.extend([lo, hi]);
                }
            }
            text_rows.push(text);
            csv_rows.push(csv);
        }
        if let Some(out) = &self.out {
            let csv: String = csv_rows.iter().map(|r| r.join(",") + "\n").collect();
            std::fs::write(out, csv)
                .map_err(|e| ConfigError::new("--out", format!("cannot write {}: {e}", out.display())))?;
        }
        let mut text = String::new();
        let sampled = done.iter().filter(|(_, r)| r.sampled).count();
        if sampled > 0 {
            text += &format!(
                "ESTIMATED: {sampled} of {} points were sampled (sample.windows > 0; docs/sampling.md): their numbers are \
                 estimates, each with its 95 % interval, (low–high) here and KEY_low, KEY_high in a CSV; warp-type \
                 shares carry none.\n",
                done.len()
            );
        }
        let lone: Vec<String> = done.iter().filter(|(_, r)| r.lone).map(|(p, _)| p.label(&axes)).collect();
        if let Some(caution) = one_window_runs_caution(&lone) {
            text += &caution;
            text.push('\n');
        }
        let one_wave: Vec<String> = done.iter().filter(|(_, r)| r.one_wave).map(|(p, _)| p.label(&axes)).collect();
        if let Some(caution) = one_wave_runs_caution(&one_wave) {
            text += &caution;
            text.push('\n');
        }
        text += &columns(&text_rows);
        Ok(Printout { text, unfinished })
    }

    fn set_out(&mut self, out: PathBuf) {
        self.out = Some(out);
    }

    fn what(&self) -> String {
        "sweep".into()
    }

    fn threads(&self) -> usize {
        self.jobs.unwrap_or_else(parallel::hardware_threads)
    }

    fn quiet(&self) -> bool {
        self.quiet
    }

    fn digest(&self, doc: &Value) -> Result<Row, Failure> {
        let metrics = self.metrics();
        let Some(estimate) = doc.get("estimate") else {
            let cells = metric_cells(doc, &metrics)?.into_iter().map(|value| Cell { value, interval: None });
            return Ok(Row { cells: cells.collect(), sampled: false, one_wave: false, lone: false });
        };
        let cells = metrics.iter().map(|m| estimate_cell(doc, estimate, m)).collect::<Result<_, _>>()?;
        let one_wave = estimate.get("one_wave_launches_sampled").and_then(Value::as_u64).unwrap_or(0) > 0;
        let lone = estimate.get("one_window_sampled").and_then(Value::as_bool).unwrap_or(false);
        Ok(Row { cells, sampled: true, one_wave, lone })
    }
}

impl SweepCmd {
    fn metrics(&self) -> Vec<String> {
        if self.metrics.is_empty() {
            DEFAULT_METRICS.iter().map(|s| s.to_string()).collect()
        } else {
            self.metrics.clone()
        }
    }

    /// `(path, values)` per `--set`, in the order given; a path given twice is an error,
    /// since its later values would silently override the earlier ones.
    fn axes(&self) -> Result<Vec<(String, Vec<String>)>, ConfigError> {
        let mut axes: Vec<(String, Vec<String>)> = Vec::new();
        for s in &self.sets {
            let (path, values) = parse_axis("--set", s)?;
            if axes.iter().any(|(p, _)| *p == path) {
                return Err(ConfigError::new(
                    "--set",
                    format!("`{path}` is given twice; give all its values in one --set {path}=V1,V2,..."),
                ));
            }
            axes.push((path, values));
        }
        Ok(axes)
    }

    /// The cross product, kernels outermost, the first axis varying slowest.
    fn points(&self, axes: &[(String, Vec<String>)]) -> Result<Vec<Point>, ConfigError> {
        let mut combos: Vec<Vec<String>> = vec![Vec::new()];
        for (_, values) in axes {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push(v.clone());
                        c
                    })
                })
                .collect();
        }
        let workloads = self.kernel.iter().map(|k| (k.clone(), None)).chain(traces(&self.trace, &self.profile_trace)?);
        Ok(workloads
            .flat_map(|(kernel, trace)| {
                combos.iter().map(move |values| Point {
                    kernel: kernel.clone(),
                    trace: trace.clone(),
                    values: values.clone(),
                })
            })
            .collect())
    }
}

/// `PATH=V1,V2,...` given to `flag`: the path and its values, none empty.
pub fn parse_axis(flag: &str, s: &str) -> Result<(String, Vec<String>), ConfigError> {
    const FORM: &str = "PATH=V1,V2,... (e.g. core.max_ctas_per_sm=1,2,4)";
    let (path, values) = s.split_once('=').ok_or_else(|| ConfigError::new(flag, format!("`{s}` is not {FORM}")))?;
    check_path(flag, s, path.trim(), FORM)?;
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(ConfigError::new(flag, format!("`{s}` has an empty value")));
    }
    Ok((current_path(flag, path.trim()), values))
}

/// A dotted path's value in `v`.
fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, k| v.get(k))
}

/// A sampled point's estimate of `key`, a report key or a name of the figures' metrics (which
/// the estimates are; `REPORT_KEYS` pairs them), with its interval.
fn estimate_cell(doc: &Value, estimate: &Value, key: &str) -> Result<Cell, Failure> {
    let name = REPORT_KEYS.iter().find(|(_, k)| *k == key).map_or(key, |(name, _)| name);
    let Some(value) = at(estimate, name).filter(|v| v.is_number() || v.is_boolean()) else {
        let keys: Vec<&str> = REPORT_KEYS.iter().map(|(_, k)| *k).collect();
        let msg = format!("`{key}` is not estimated by a sampled run; a sampled point has {}", keys.join(", "));
        return Err(ConfigError::new("--metrics", msg).into());
    };
    let bound = |i: &Value, end: &str| i.get(end).and_then(Value::as_f64);
    let interval = doc["intervals"].get(name).and_then(|i| Some((bound(i, "low")?, bound(i, "high")?)));
    Ok(Cell { value: value.to_string(), interval })
}

/// One finished point's metric cells, from its report: a report key, or a name of the
/// figures' metrics the report carries (`figure_metrics`), as a sampled point's are.
fn metric_cells(report: &Value, metrics: &[String]) -> Result<Vec<String>, Failure> {
    metrics
        .iter()
        .map(|m| match at(report, m).or_else(|| at(&report["figure_metrics"], m)) {
            Some(Value::Number(n)) => Ok(n.to_string()),
            Some(Value::Bool(b)) => Ok(b.to_string()),
            Some(Value::String(s)) => Ok(s.clone()),
            _ => Err(ConfigError::new(
                "--metrics",
                format!("`{m}` is not a number in the report (see docs/report-keys.md)"),
            )
            .into()),
        })
        .collect()
}

/// A number shortened to 4 decimals for reading (the CSV keeps full precision).
fn short(c: &str) -> String {
    match c.parse::<f64>() {
        Ok(x) if c.contains('.') => format!("{x:.4}"),
        _ => c.to_string(),
    }
}

/// An interval's end written as its estimate is: whole where the estimate is a count, and ∞
/// where the interval has no end to speak of (an IPC whose interval of cycles reaches zero).
fn short_as(x: f64, estimate: &str) -> String {
    if !x.is_finite() || x.abs() >= 1e15 {
        "∞".to_string()
    } else if estimate.contains('.') {
        format!("{x:.4}")
    } else {
        format!("{}", x.round())
    }
}
