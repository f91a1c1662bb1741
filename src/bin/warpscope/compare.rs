//! `warpscope compare`: runs every kernel under a baseline and several policy bundles and
//! prints each run's IPC speedup over the baseline, with the harmonic mean per bundle
//! (MeDiC's metric), then the L2 miss rate and L2 queuing latency of every run.
//! A `--tune`d bundle runs once per value of one field and keeps, per kernel, its
//! fastest run: MeDiC compares against Rand tuned this way. Sampled runs (`--sample N`) give
//! estimates: each number with its 95 % interval, and each speedup with the range its two
//! runs' IPC intervals allow.

use super::batch::{self, Batch};
use super::failure::Failure;
use super::interrupt::Printout;
use super::plan::PlanArg;
use super::sweep::parse_axis;
use super::trace_cmd::{traces, TracePaths};
use super::{check_names, columns, jobs_parser, kernel_names};
use serde_json::Value;
use std::path::PathBuf;
use warpscope::config::{bundle_names, ConfigError};
use warpscope::kernels::Size;
use warpscope::sample::{one_wave_runs_caution, one_window_runs_caution};
use warpscope::speedup::harmonic_mean;
use warpscope::{Config, ConfigErrors};

#[path = "compare/row.rs"]
mod row;
use row::{speedup_of, Row, Sampled};

#[derive(clap::Args)]
pub struct CompareCmd {
    /// Bundle the speedups are over (`baseline` is the preset as it is).
    #[arg(long, default_value = "baseline")]
    pub baseline: String,
    /// Comma-separated policy bundles (see `warpscope list bundles`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub policies: Vec<String>,
    /// Comma-separated built-in kernels.
    #[arg(long, value_delimiter = ',', required_unless_present = "trace")]
    pub kernels: Vec<String>,
    /// An Accel-Sim trace to compare on as well: its folder or a kernelslist file (which can
    /// list a subset of its kernels). Repeatable.
    #[arg(long, value_name = "DIR|kernelslist.g")]
    pub trace: Vec<PathBuf>,
    /// The trace coordinated bypassing profiles for each `--trace`, in the same order (default:
    /// the replayed trace itself, an oracle's profile; docs/traces.md). Repeatable.
    #[arg(long, value_name = "DIR|kernelslist.g", requires = "trace")]
    pub profile_trace: Vec<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Estimate every run from this many detailed windows (sets `sample.windows`;
    /// docs/sampling.md): `--size paper --sample 30`. Each number then comes with its 95 %
    /// interval, and each speedup with the range its runs' intervals allow.
    #[arg(long, value_name = "WINDOWS")]
    pub sample: Option<u32>,
    /// Runs simulated at once (each on its own thread).
    #[arg(long, default_value_t = 1, value_parser = jobs_parser())]
    pub jobs: usize,
    /// Also write every run's numbers as CSV to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// `BUNDLE:PATH=V1,V2,...`: run that bundle once per value of the field and keep its
    /// fastest run on each kernel, e.g. `rand:l2.rand.share=0.05,0.1,0.25,0.5`. Repeatable.
    #[arg(long)]
    pub tune: Vec<String>,
    /// No progress on stderr.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub plan: PlanArg,
}

/// One `--tune`: the bundle, the field and the values tried.
#[derive(Debug, Clone)]
struct Tuning {
    bundle: String,
    path: String,
    values: Vec<String>,
}

impl Tuning {
    fn parse(s: &str, policies: &[String]) -> Result<Self, ConfigError> {
        let bad = || {
            ConfigError::new("--tune", format!("`{s}` is not BUNDLE:PATH=V1,V2,... (e.g. rand:l2.rand.share=0.1,0.25)"))
        };
        let (bundle, axis) = s.split_once(':').filter(|(_, a)| a.contains('=')).ok_or_else(bad)?;
        let (path, values) = parse_axis("--tune", axis)?;
        if !policies.iter().any(|p| p == bundle.trim()) {
            return Err(ConfigError::new(
                "--tune",
                format!("`{bundle}` is not one of the compared bundles: {}", policies.join(", ")),
            ));
        }
        Ok(Self { bundle: bundle.trim().to_string(), path, values })
    }
}

/// A number and, when estimated, its range, as a table cell: `≈1.034 (0.950–1.120)`, or
/// `≈1.034 (no interval)` where nothing bounds it (a run with one sampled window).
fn cell(v: Option<f64>, range: Option<(f64, f64)>) -> String {
    let end = |x: f64| if x.is_finite() && x < 1e6 { format!("{x:.3}") } else { "∞".into() };
    match (v, range) {
        (Some(v), Some((lo, hi))) if lo <= 0.0 && end(hi) == "∞" => format!("≈{v:.3} (no interval)"),
        (Some(v), Some((lo, hi))) => format!("≈{v:.3} ({}–{})", end(lo), end(hi)),
        (v, _) => three_places(v),
    }
}

/// What a comparison runs: its bundles (baseline first), their tunings, and every job in
/// run order, kernels outermost.
struct Layout {
    /// The built-in kernels, then the traces (by name with ` (trace)`).
    kernels: Vec<String>,
    bundles: Vec<String>,
    tunings: Vec<Tuning>,
    /// Each bundle's settings: `[""]`, or one `PATH=VALUE` per value of its tuned field.
    variants: Vec<(String, Vec<String>)>,
    jobs: Vec<Job>,
}

impl CompareCmd {
    /// `resolve(bundle, set)` gives the machine of one bundle, with one more `PATH=VALUE`
    /// override when `set` is not empty; returns the text to print (or plans the runs with
    /// `--plan`).
    pub fn run(
        &self,
        size: Size,
        resolve: impl Fn(&str, &str) -> Result<Config, ConfigErrors>,
    ) -> Result<Printout, Failure> {
        let layout = self.layout()?;
        // Each bundle's machines, resolved once: one, or one per value of its tuned field.
        let mut machines: Vec<((&str, &str), Config)> = Vec::new();
        for (b, settings) in &layout.variants {
            for s in settings {
                machines.push(((b, s), resolve(b, s)?));
            }
        }
        let runs = layout
            .jobs
            .iter()
            .map(|j| {
                let (_, cfg) =
                    machines.iter().find(|(key, _)| *key == (&j.bundle, &j.setting)).expect("resolved above");
                batch::Run {
                    label: j.label(),
                    kernel: j.kernel.clone(),
                    size,
                    seed: self.seed,
                    trace: j.trace.as_ref().map(|t| t.run.clone()),
                    profile_trace: j.trace.as_ref().and_then(|t| t.profile.clone()),
                    max_cycles: None,
                    config: cfg.clone(),
                }
            })
            .collect();
        batch::run_or_plan(self, self.plan.plan.as_deref(), runs)
    }

    /// The bundles, tunings and jobs, after checking every name.
    fn layout(&self) -> Result<Layout, ConfigError> {
        self.check_names()?;
        let mut bundles = vec![self.baseline.clone()];
        bundles.extend(self.policies.iter().filter(|p| **p != self.baseline).cloned());
        let tunings = self.tunings(&bundles)?;
        let variants: Vec<(String, Vec<String>)> = bundles
            .iter()
            .map(|b| {
                let settings = match tunings.iter().find(|t| t.bundle == *b) {
                    None => vec![String::new()],
                    Some(t) => t.values.iter().map(|v| format!("{}={v}", t.path)).collect(),
                };
                (b.clone(), settings)
            })
            .collect();
        let mut jobs = Vec::new();
        let workloads: Vec<_> =
            self.kernels.iter().map(|k| (k.clone(), None)).chain(traces(&self.trace, &self.profile_trace)?).collect();
        let kernels = workloads.iter().map(|(k, _)| k.clone()).collect();
        for (kernel, trace) in workloads {
            for (b, settings) in &variants {
                for setting in settings {
                    let (kernel, trace, bundle, setting) = (kernel.clone(), trace.clone(), b.clone(), setting.clone());
                    jobs.push(Job { kernel, trace, bundle, setting });
                }
            }
        }
        Ok(Layout { kernels, bundles, tunings, variants, jobs })
    }
}

impl Batch for CompareCmd {
    type Digest = Row;

    /// The tables of speedups and L2 and DRAM numbers, and every run's numbers as CSV into
    /// `--out` if asked; with runs missing, the runs that finished and the CSV of those.
    fn finish(&self, rows: Vec<Option<Row>>, partial: &str) -> Result<Printout, Failure> {
        let Layout { kernels, bundles, tunings, jobs, .. } = self.layout()?;
        let unfinished: Vec<String> =
            jobs.iter().zip(&rows).filter(|(_, r)| r.is_none()).map(|(j, _)| j.label()).collect();
        let rows: Vec<Run> = jobs
            .into_iter()
            .zip(rows)
            .filter_map(|(j, row)| Some(Run { kernel: j.kernel, bundle: j.bundle, setting: j.setting, row: row? }))
            .collect();
        // The fastest finished run of a kernel under a bundle.
        let kept = |k: &str, b: &str| {
            rows.iter().filter(|r| r.kernel == k && r.bundle == b).reduce(|best, r| {
                if r.row.ipc > best.row.ipc {
                    r
                } else {
                    best
                }
            })
        };
        if let Some(path) = &self.out {
            self.write_csv(path, &rows, kept)?;
        }
        if !unfinished.is_empty() {
            return Ok(Printout { text: finished_runs(&rows, partial), unfinished });
        }
        let kept = |k: &str, b: &str| kept(k, b).expect("every run done");
        let get = |k: &str, b: &str| &kept(k, b).row;
        let mut text = String::new();
        let sampled = rows.iter().filter(|r| r.row.sampled.is_some()).count();
        if sampled > 0 {
            text += &format!(
                "ESTIMATED: {sampled} of {} runs were sampled (sample.windows > 0; docs/sampling.md): their numbers are \
                 estimates with their 95 % intervals, and a speedup with one in it carries the range its two runs' IPC \
                 intervals allow taken as independent (wider than the matched windows of `warpscope figure --sample`); \
                 a range that holds 1.000 is not a gain. A sampled run does not estimate the L2 miss rate counting \
                 bypassed reads (n/a).\n",
                rows.len()
            );
        }
        // The sampled runs a caution names: those with `flag` set.
        let named = |flag: fn(&Sampled) -> bool| -> Vec<String> {
            let flagged = rows.iter().filter(|r| r.row.sampled.as_ref().is_some_and(flag));
            flagged.map(|r| format!("{} under {}", r.kernel, r.bundle)).collect()
        };
        let cautions = [one_wave_runs_caution(&named(|s| s.one_wave)), one_window_runs_caution(&named(|s| s.lone))];
        for caution in cautions.into_iter().flatten() {
            text += &caution;
            text.push('\n');
        }
        let cells: Vec<Vec<String>> = kernels
            .iter()
            .map(|k| {
                let base = get(k, &self.baseline);
                bundles
                    .iter()
                    .enumerate()
                    .map(|(i, b)| {
                        let r = get(k, b);
                        let mark = if r.completed { "" } else { "*" };
                        let shown = match i {
                            0 => cell(Some(r.ipc), r.sampled.as_ref().map(|s| s.ipc)),
                            _ => {
                                let (s, range) = speedup_of(r, base);
                                cell(s, range)
                            }
                        };
                        format!("{shown}{mark}")
                    })
                    .collect()
            })
            .collect();
        type Shown = fn(&Row) -> (Option<f64>, Option<(f64, f64)>);
        let tables: [(&str, Shown); 4] = [
            ("\nL2 miss rate\n", |r| (Some(r.l2_miss_rate), r.sampled.as_ref().map(|s| s.l2_miss_rate))),
            ("\nL2 miss rate counting bypassed reads as misses\n", |r| (r.l2_miss_rate_with_bypass, None)),
            ("\nL2 queuing latency (L2 cycles, mean)\n", |r| {
                (Some(r.queue_latency), r.sampled.as_ref().map(|s| s.queue_latency))
            }),
            ("\nDRAM row-buffer hit rate\n", |r| (Some(r.row_hit_rate), r.sampled.as_ref().map(|s| s.row_hit_rate))),
        ];
        let table_cells: Vec<Vec<Vec<String>>> = tables
            .iter()
            .map(|(_, f)| {
                let row = |k: &String| bundles.iter().map(|b| f(get(k, b))).map(|(v, r)| cell(v, r)).collect();
                kernels.iter().map(row).collect()
            })
            .collect();
        let widest = cells.iter().chain(table_cells.iter().flatten()).flatten().map(|c| c.chars().count()).max();
        let width = bundles.iter().map(|b| b.len()).max().unwrap_or(8).max(9).max(widest.unwrap_or(0));
        let header = |title: &str| {
            let mut h = format!("{title:<16}");
            for b in &bundles {
                h += &format!(" {b:>width$}");
            }
            h + "\n"
        };
        text += &format!("IPC speedup over `{}` (its IPC in the first column)\n", self.baseline);
        text += &header("kernel");
        // Each bundle's speedups over the kernels, and their ranges' ends where estimated.
        let mut speedups: Vec<[Vec<f64>; 3]> = vec![Default::default(); bundles.len()];
        let mut estimated = vec![false; bundles.len()];
        for (k, row) in kernels.iter().zip(&cells) {
            text += &format!("{k:<16}");
            for (i, b) in bundles.iter().enumerate() {
                text += &format!(" {:>width$}", row[i]);
                let (s, range) = speedup_of(get(k, b), get(k, &self.baseline));
                let s = s.unwrap_or(f64::NAN);
                let (lo, hi) = range.unwrap_or((s, s));
                estimated[i] |= range.is_some();
                for (list, x) in speedups[i].iter_mut().zip([s, lo, hi]) {
                    list.push(x);
                }
            }
            text += "\n";
        }
        text += &format!("{:<16}", "hmean");
        for (s, &e) in speedups.iter().zip(&estimated) {
            // The harmonic mean grows with each speedup, so its range is the means of the ends.
            let range = e.then(|| (harmonic_mean(&s[1]).unwrap_or(0.0), harmonic_mean(&s[2]).unwrap_or(f64::INFINITY)));
            text += &format!(" {:>width$}", cell(harmonic_mean(&s[0]), range));
        }
        text += "\n";
        for ((title, _), rows) in tables.iter().zip(&table_cells) {
            text += title;
            text += &header("kernel");
            for (k, row) in kernels.iter().zip(rows) {
                text += &format!("{k:<16}");
                for c in row {
                    text += &format!(" {c:>width$}");
                }
                text += "\n";
            }
        }
        if !tunings.is_empty() {
            text += "\nTuned bundles: the value of their field that ran fastest on each kernel";
            text += if sampled > 0 { " (by the estimates)\n" } else { "\n" };
            let labels: Vec<String> = tunings.iter().map(|t| format!("{}:{}", t.bundle, t.path)).collect();
            text += &format!("{:<16}", "kernel");
            for l in &labels {
                text += &format!(" {l:>width$}");
            }
            text += "\n";
            for k in &kernels {
                text += &format!("{k:<16}");
                for (t, l) in tunings.iter().zip(&labels) {
                    let setting = &kept(k, &t.bundle).setting;
                    let value = setting.split_once('=').map_or("", |(_, v)| v);
                    text += &format!(" {value:>w$}", w = l.len().max(width));
                }
                text += "\n";
            }
        }
        if rows.iter().any(|r| !r.row.completed) {
            text += "\n* the run did not complete\n";
        }
        Ok(Printout { text, unfinished })
    }

    fn set_out(&mut self, out: PathBuf) {
        self.out = Some(out);
    }

    fn what(&self) -> String {
        "compare".into()
    }

    fn threads(&self) -> usize {
        self.jobs
    }

    fn quiet(&self) -> bool {
        self.quiet
    }

    fn digest(&self, doc: &Value) -> Result<Row, Failure> {
        Ok(Row::of(doc)?)
    }
}

impl CompareCmd {
    /// Every finished run's numbers as CSV; after Ctrl-C, a speedup is left empty when its
    /// kernel's baseline run did not finish.
    fn write_csv<'a>(
        &self,
        path: &std::path::Path,
        rows: &'a [Run],
        kept: impl Fn(&str, &str) -> Option<&'a Run>,
    ) -> Result<(), ConfigError> {
        // Sampled runs add their IPC's interval and the speedup's range as four last columns.
        let sampled = rows.iter().any(|r| r.row.sampled.is_some());
        let mut csv = String::from(
            "kernel,policy,ipc,speedup,cycles,completed,l2_miss_rate,l2_miss_rate_with_bypass,l2_avg_queue_latency,dram_row_buffer_hit_rate,l2_bypassed,setting,kept",
        );
        csv += if sampled { ",ipc_low,ipc_high,speedup_low,speedup_high\n" } else { "\n" };
        // An end nothing bounds (a run with one sampled window) is left empty.
        let num = |x: f64| if x.is_finite() { Value::from(x).to_string() } else { String::new() };
        for run in rows {
            let (k, b, r) = (&run.kernel, &run.bundle, &run.row);
            let (s, range) = kept(k, &self.baseline).map_or((None, None), |base| speedup_of(r, &base.row));
            let is_kept = kept(k, b).is_some_and(|best| std::ptr::eq(best, run));
            csv += &format!(
                "{k},{b},{},{},{},{},{},{},{},{},{},{},{is_kept}",
                r.ipc,
                s.map_or(String::new(), |s| s.to_string()),
                r.cycles,
                r.completed,
                r.l2_miss_rate,
                r.l2_miss_rate_with_bypass.map_or(String::new(), |x| x.to_string()),
                r.queue_latency,
                r.row_hit_rate,
                r.bypassed,
                run.setting
            );
            if sampled {
                let ends =
                    |v: Option<(f64, f64)>| v.map_or(",".to_string(), |(lo, hi)| format!("{},{}", num(lo), num(hi)));
                csv += &format!(",{},{}", ends(r.sampled.as_ref().map(|s| s.ipc)), ends(range));
            }
            csv.push('\n');
        }
        std::fs::write(path, csv)
            .map_err(|e| ConfigError::new("--out", format!("cannot write {}: {e}", path.display())))
    }

    /// Every bundle and kernel known and none repeated, checked before any run, each
    /// error naming the flag that gave the name.
    fn check_names(&self) -> Result<(), ConfigError> {
        let bundles = bundle_names();
        check_names("--baseline", "bundle", std::slice::from_ref(&self.baseline), &bundles)?;
        check_names("--policies", "bundle", &self.policies, &bundles)?;
        check_names("--kernels", "kernel", &self.kernels, &kernel_names())
    }

    /// The `--tune`s, each of a compared bundle other than the baseline, at most one per bundle.
    fn tunings(&self, bundles: &[String]) -> Result<Vec<Tuning>, ConfigError> {
        let tunable = &bundles[1..];
        let mut out: Vec<Tuning> = Vec::new();
        for s in &self.tune {
            let t = Tuning::parse(s, tunable)?;
            if out.iter().any(|o| o.bundle == t.bundle) {
                return Err(ConfigError::new(
                    "--tune",
                    format!("`{}` is tuned twice; tune one field per bundle", t.bundle),
                ));
            }
            out.push(t);
        }
        Ok(out)
    }
}

struct Job {
    /// A built-in kernel, or a trace's name with ` (trace)`.
    kernel: String,
    trace: Option<TracePaths>,
    bundle: String,
    /// `PATH=VALUE` of a tuned bundle's run, empty otherwise.
    setting: String,
}

/// A finished job.
struct Run {
    kernel: String,
    bundle: String,
    setting: String,
    row: Row,
}

impl Job {
    /// The run as errors, progress and Ctrl-C name it, e.g. `bfs under rand (l2.rand.share=0.1)`.
    fn label(&self) -> String {
        if self.setting.is_empty() {
            format!("{} under {}", self.kernel, self.bundle)
        } else {
            format!("{} under {} ({})", self.kernel, self.bundle, self.setting)
        }
    }
}

/// The runs that finished (before Ctrl-C, or so far), one per line: too few to compare, still
/// worth keeping.
fn finished_runs(rows: &[Run], title: &str) -> String {
    let mut table = vec![["kernel", "policy", "setting", "ipc", "cycles", "l2_miss_rate"].map(String::from).to_vec()];
    table.extend(rows.iter().map(|r| {
        vec![
            r.kernel.clone(),
            r.bundle.clone(),
            r.setting.clone(),
            format!("{:.3}", r.row.ipc),
            r.row.cycles.to_string(),
            format!("{:.3}", r.row.l2_miss_rate),
        ]
    }));
    format!("{title}\n{}", columns(&table))
}

/// A table cell to three places, or `n/a` where a failed run left no number.
fn three_places(v: Option<f64>) -> String {
    v.map_or("n/a".into(), |v| format!("{v:.3}"))
}
