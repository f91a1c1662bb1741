//! `warpscope figure`: one of the papers' headline figures, its runs simulated on all cores
//! and drawn as SVG or PNG or written as CSV, with our verdict on the paper's claim. The
//! figures are defined once in `warpscope::figures`, which the web gallery also uses.

use super::batch::{self, Batch, Run};
use super::interrupt::Printout;
use super::plan::PlanArg;
use super::{check_size, columns, jobs_parser, parallel, size_parser};
use serde_json::Value;
use std::path::{Path, PathBuf};
use warpscope::figures::{figure, figures, Figure, Metrics, Outcome, PlannedRun};
#[cfg(not(target_arch = "wasm32"))]
use warpscope::plot::figure_png;
use warpscope::plot::{figure_svg, BarSeries};

/// The CLI never runs as wasm; the test build of that target still compiles it.
#[cfg(target_arch = "wasm32")]
fn figure_png(_: &warpscope::plot::BarFigure, _: &Path, _: u32, _: u32) -> Result<(), String> {
    Err("PNG output needs the native build".into())
}
use super::failure::Failure;
use warpscope::{ConfigError, Size};

#[derive(clap::Args)]
pub struct FigureCmd {
    /// The figure (see `warpscope figure --list`).
    #[arg(required_unless_present = "list")]
    name: Option<String>,
    /// List the figures (or only the one named) with the paper each reproduces and its claim.
    #[arg(long)]
    list: bool,
    #[arg(long, value_parser = size_parser(), default_value = "small")]
    size: Size,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Estimate every run from this many detailed windows (sampled simulation,
    /// docs/sampling.md): `--size paper --sample 30` runs a paper-size figure in minutes.
    #[arg(long, value_name = "WINDOWS")]
    sample: Option<u32>,
    /// The file to write: `.svg` or `.png` draws the figure, `.csv` writes its numbers.
    #[arg(long)]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 900)]
    width: u32,
    #[arg(long, default_value_t = 520)]
    height: u32,
    /// Simulations run at once (default: the machine's hardware threads).
    #[arg(long, value_parser = jobs_parser())]
    jobs: Option<usize>,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    plan: PlanArg,
}

/// What `--out`'s extension asks for.
enum Output {
    Svg,
    Png,
    Csv,
}

fn output_of(path: &Path) -> Result<Output, ConfigError> {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("svg") => Ok(Output::Svg),
        Some("png") => Ok(Output::Png),
        Some("csv") => Ok(Output::Csv),
        _ => Err(ConfigError::new(
            "--out",
            format!("cannot tell the format of {}; end the name in .svg, .png or .csv", path.display()),
        )),
    }
}

impl FigureCmd {
    /// The text to print: the listing, or the figure's verdict and numbers (or its plan,
    /// with `--plan`).
    pub fn run(&self) -> Result<Printout, Failure> {
        // Checked before anything else, so a bad name fails even with `--list`.
        let named = self.name.as_deref().map(figure).transpose().map_err(|e| ConfigError::new("NAME", e))?;
        if self.list {
            let text = named.map_or_else(|| listing(&figures()), |f| listing(&[f]));
            return Ok(Printout { text, unfinished: Vec::new() });
        }
        let fig = named.expect("clap requires NAME without --list");
        // Checked before simulating, so bad output arguments cost nothing.
        self.out.as_deref().map(output_of).transpose()?;
        check_size(self.width, self.height)?;
        if self.sample == Some(1) {
            let msg = "1 window gives estimates with no interval: use at least 2 (20 to 100 is the useful range)";
            return Err(ConfigError::new("--sample", msg).into());
        }
        let runs = fig
            .plan(self.size, self.seed)?
            .into_iter()
            .map(|r| {
                let config = self.sample.map_or_else(|| r.config.clone(), |n| r.sampled_config(n));
                Run {
                    label: label(&r),
                    kernel: r.kernel.to_string(),
                    size: self.size,
                    seed: r.seed,
                    trace: None,
                    profile_trace: None,
                    max_cycles: r.max_cycles,
                    config,
                }
            })
            .collect();
        batch::run_or_plan(self, self.plan.plan.as_deref(), runs)
    }
}

impl Batch for FigureCmd {
    type Digest = Metrics;

    /// The figure's verdict and numbers, and its file; with runs missing, the runs that
    /// finished instead, and no file: a figure needs all its runs.
    fn finish(&self, done: Vec<Option<Metrics>>, partial: &str) -> Result<Printout, Failure> {
        let name = self.name.as_deref().unwrap_or_default();
        let fig = figure(name).map_err(|e| ConfigError::new("NAME", e))?;
        let output = self.out.as_deref().map(output_of).transpose()?;
        let plan = fig.plan(self.size, self.seed)?;
        let mut metrics = Vec::with_capacity(plan.len());
        let mut unfinished = Vec::new();
        for (r, m) in plan.iter().zip(done) {
            match m {
                Some(m) => metrics.push((r, m)),
                None => unfinished.push(label(r)),
            }
        }
        if !unfinished.is_empty() {
            return Ok(Printout { text: finished_runs(&metrics, partial), unfinished });
        }
        let metrics = metrics.into_iter().map(|(_, m)| m).collect();
        let outcome = fig.build(metrics).map_err(|e| ConfigError::new("NAME", e))?;
        if let (Some(path), Some(kind)) = (&self.out, output) {
            self.write(&outcome, path, kind)?;
        }
        let mut text = describe(fig.name, fig.claim, &outcome);
        if let Some(n) = self.sample.filter(|&n| n > 0) {
            text = format!(
                "ESTIMATED: every run sampled with {n} detailed windows (docs/sampling.md), except runs \
                 over a cycle window, which are simulated whole; a check counts only where it holds across \
                 the runs' 95 % intervals, and each number that moves in those draws is given with the central \
                 95 % of its values there (≈1.234 (1.100–1.380); whiskers in the SVG and PNG, two more columns in \
                 the CSV); warp-type shares carry no interval.\n{text}"
            );
        }
        Ok(Printout { text, unfinished })
    }

    fn set_out(&mut self, out: PathBuf) {
        self.out = Some(out);
    }

    fn what(&self) -> String {
        format!("figure {}", self.name.as_deref().unwrap_or_default())
    }

    fn threads(&self) -> usize {
        self.jobs.unwrap_or_else(parallel::hardware_threads)
    }

    fn quiet(&self) -> bool {
        self.quiet
    }

    fn digest(&self, doc: &Value) -> Result<Metrics, Failure> {
        let text = doc["figure_metrics"].to_string();
        let m = Metrics::list_from_json_text(&format!("[{text}]")).map(|mut l| l.remove(0));
        Ok(m.map_err(|e| ConfigError::new("report", format!("figure_metrics: {e}")))?)
    }
}

impl FigureCmd {
    fn write(&self, o: &Outcome, path: &Path, kind: Output) -> Result<(), ConfigError> {
        let fail = |e: String| ConfigError::new("--out", e);
        let write = |text: String| {
            std::fs::write(path, text).map_err(|e| fail(format!("cannot write {}: {e}", path.display())))
        };
        match kind {
            Output::Svg => write(figure_svg(&o.figure, self.width, self.height).map_err(fail)?),
            Output::Csv => write(o.figure.table().to_csv()),
            Output::Png => write_png(o, path, self.width, self.height).map_err(fail),
        }
    }
}

/// Draws into a sibling file renamed over `path` once complete: plotters writes its
/// buffer even when drawing fails, which would leave a partial PNG behind.
fn write_png(o: &Outcome, path: &Path, width: u32, height: u32) -> Result<(), String> {
    let partial = path.with_extension("partial.png");
    let done = figure_png(&o.figure, &partial, width, height)
        .and_then(|()| std::fs::rename(&partial, path).map_err(|e| format!("cannot write {}: {e}", path.display())));
    if done.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    done
}

/// A run as errors, progress and Ctrl-C name it, e.g. `bfs (MeDiC)`.
fn label(r: &PlannedRun) -> String {
    format!("{} ({})", r.kernel, r.series)
}

/// The runs that finished (before Ctrl-C, or so far), one per line.
fn finished_runs(done: &[(&PlannedRun, Metrics)], title: &str) -> String {
    let mut table = vec![["category", "series", "kernel", "ipc", "cycles"].map(String::from).to_vec()];
    table.extend(done.iter().map(|(r, m)| {
        vec![r.category.clone(), r.series.clone(), r.kernel.to_string(), format!("{:.3}", m.ipc), m.cycles.to_string()]
    }));
    format!("{title}\n{}", columns(&table))
}

fn listing(figs: &[Figure]) -> String {
    let mut out = String::new();
    for f in figs {
        out.push_str(&format!("{:<12} {} — {}\n{:<12} {}\n", f.name, f.paper.citation(), f.title, "", f.claim));
    }
    out
}

/// A series' value at category `i`: `1.234`, or with the range its figure's draws give it,
/// `≈1.234 (1.100–1.380)`.
fn cell(s: &BarSeries, i: usize) -> String {
    let Some(v) = s.values.get(i) else { return String::new() };
    match (s.low.get(i), s.high.get(i)) {
        (Some(lo), Some(hi)) if lo.is_finite() && hi.is_finite() => format!("≈{v:.3} ({lo:.3}–{hi:.3})"),
        _ => format!("{v:.3}"),
    }
}

/// The claim, the verdict and the numbers (one column per series) as aligned text.
fn describe(name: &str, claim: &str, o: &Outcome) -> String {
    let f = &o.figure;
    let mut rows =
        vec![std::iter::once(f.x_label.clone()).chain(f.series.iter().map(|s| s.label.clone())).collect::<Vec<_>>()];
    rows.extend(
        f.categories
            .iter()
            .enumerate()
            .map(|(i, c)| std::iter::once(c.clone()).chain(f.series.iter().map(|s| cell(s, i))).collect()),
    );
    let mut out = format!(
        "{name}: {}\npaper:  {claim}\nours:   {} — {}\n\n{}:\n",
        f.title,
        o.verdict.agreement.word(),
        o.verdict.summary,
        f.y_label
    );
    out.push_str(&columns(&rows));
    out
}
