//! A command of many independent runs (sweep, compare, figure) as data: the list of runs it
//! needs, and how each run's report becomes its output. The list is built once and either
//! simulated here on threads or written as a plan of jobs (`--plan DIR`); `warpscope collect`
//! turns the jobs' reports into the output with the same `digest` and `finish`, so the two
//! print the same bytes.

use super::failure::Failure;
use super::interrupt::Printout;
use super::progress::Tracker;
use super::trace_cmd::Workload;
use super::{parallel, plan, simulate};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use warpscope::figures::Metrics;
use warpscope::kernels::Size;
use warpscope::sample::{warming_of, SampledReport};
use warpscope::{Config, Report};

/// One simulation a command needs: everything that decides its report, and its name.
#[derive(Clone)]
pub struct Run {
    /// How progress, errors and listings name it, e.g. `bfs at l1d.size_kb=16`.
    pub label: String,
    /// The built-in kernel, or with `trace` the trace's name.
    pub kernel: String,
    pub size: Size,
    pub seed: u64,
    /// An Accel-Sim trace (its folder or list file) replayed instead of a built-in kernel.
    pub trace: Option<PathBuf>,
    /// The trace coordinated bypassing profiles instead of `trace` (`--profile-trace`).
    pub profile_trace: Option<PathBuf>,
    pub max_cycles: Option<u64>,
    pub config: Config,
}

impl Run {
    /// What the run simulates.
    pub fn workload(&self) -> Result<Workload, Failure> {
        Workload::new(self.kernel.clone(), self.size, self.seed, self.trace.clone(), None, self.profile_trace.clone())
    }
}

/// A command whose runs are independent of each other.
pub trait Batch: Sync {
    /// What the output keeps of one run: a table row, a figure's numbers.
    type Digest: Send;
    /// What progress lines start with, e.g. `sweep`.
    fn what(&self) -> String;
    /// Simulations run at once in-process.
    fn threads(&self) -> usize;
    fn quiet(&self) -> bool;
    /// A finished run's numbers, read from its report document (`document`).
    fn digest(&self, doc: &Value) -> Result<Self::Digest, Failure>;
    /// The output from every run's digest, in the order of the runs; None where a run has
    /// none (stopped by Ctrl-C, or without a report when collecting). `partial` titles a
    /// listing of the runs that have one, where the command prints such a listing.
    fn finish(&self, done: Vec<Option<Self::Digest>>, partial: &str) -> Result<Printout, Failure>;
    /// Writes the output file here instead (`warpscope collect --out`).
    fn set_out(&mut self, out: PathBuf);
}

/// How an in-process command titles the runs that finished before Ctrl-C.
pub const INTERRUPTED: &str = "Runs finished before the interrupt";

/// A run's report as a job writes it: the report as `warpscope run --format json` prints
/// it, then the job's id and the few numbers the figures plot (which a report alone cannot
/// be read back into).
#[derive(Serialize)]
pub struct Document<'a> {
    #[serde(flatten)]
    report: &'a Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    run_id: Option<&'a str>,
    figure_metrics: Metrics,
}

pub fn document<'a>(report: &'a Report, run_id: Option<&'a str>) -> Document<'a> {
    Document { report, run_id, figure_metrics: Metrics::of(report) }
}

/// A run's document as a job writes it and `digest` reads it: for a full run, `document`;
/// for a sampled run (`sample.windows` > 0), the sampled report with its estimates (with
/// their intervals and spread) as the figure metrics. None when Ctrl-C stopped the run.
pub fn run_document(r: &Run, tracker: &Tracker, run_id: Option<&str>) -> Result<Option<Value>, Failure> {
    if !r.config.sample.is_off() {
        let Some(s) = simulate::run_sampled(&r.config, &r.workload()?, tracker, r.label.clone())? else {
            return Ok(None);
        };
        return sampled_document(r, &s, run_id).map(Some);
    }
    let Some(report) = simulate::run(&r.config, &r.workload()?, r.max_cycles, tracker, r.label.clone())? else {
        return Ok(None);
    };
    stopped(r, &report)?;
    Ok(Some(serde_json::to_value(document(&report, run_id)).expect("reports serialize")))
}

/// A sampled run's document: its report, with its estimates as the figure metrics.
fn sampled_document(r: &Run, s: &SampledReport, run_id: Option<&str>) -> Result<Value, Failure> {
    if let Some(e) = &s.error {
        return Err(Failure::Stopped(r.label.clone(), e.clone()));
    }
    let mut doc = serde_json::to_value(s).expect("reports serialize");
    let text = s.figure_metrics().to_json_text();
    doc["figure_metrics"] = serde_json::from_str(&text).expect("metrics read back");
    if let Some(id) = run_id {
        doc["run_id"] = Value::from(id);
    }
    Ok(doc)
}

/// The runs that can share one warming (`warpscope::sample::warming_of`), as lists of
/// indices into `runs` in order; every other run is a list of its own. A run's report is
/// the same either way: grouping only saves the warming's repeats. A plan makes each list
/// one job.
pub fn warming_groups(runs: &[Run]) -> Vec<Vec<usize>> {
    let mut groups: Vec<(Option<Config>, Vec<usize>)> = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        let built_in = r.trace.is_none() && r.profile_trace.is_none() && r.max_cycles.is_none();
        let key = warming_of(&r.config).filter(|_| built_in);
        let same = |g: &Run| (g.kernel.as_str(), g.size, g.seed) == (r.kernel.as_str(), r.size, r.seed);
        match groups.iter_mut().find(|(k, g)| key.is_some() && *k == key && same(&runs[g[0]])) {
            Some((_, g)) => g.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The documents of `group`, runs of one of `warming_groups`' lists, in its order, each
/// with its plan's run id when `ids` are given; None for each when Ctrl-C stopped them.
pub fn group_documents(
    group: &[&Run],
    ids: Option<&[String]>,
    tracker: &Tracker,
) -> Result<Vec<Option<Value>>, Failure> {
    let id = |k: usize| ids.map(|ids| ids[k].as_str());
    let first = group[0];
    if group.len() == 1 {
        return Ok(vec![run_document(first, tracker, id(0))?]);
    }
    let cfgs: Vec<Config> = group.iter().map(|r| r.config.clone()).collect();
    let label = format!("{} ({} runs sharing one warming)", first.kernel, group.len());
    let Some(reports) = simulate::run_sampled_shared(&cfgs, &first.workload()?, tracker, label)? else {
        return Ok(group.iter().map(|_| None).collect());
    };
    group.iter().zip(&reports).enumerate().map(|(k, (r, s))| sampled_document(r, s, id(k)).map(Some)).collect()
}

/// The error of a run that stopped on a deadlock or the watchdog.
pub fn stopped(run: &Run, report: &Report) -> Result<(), Failure> {
    match &report.error {
        Some(e) => Err(Failure::Stopped(run.label.clone(), e.to_string())),
        None => Ok(()),
    }
}

/// Simulates `runs` here, or writes them as a plan when `plan_dir` is given.
pub fn run_or_plan<B: Batch>(b: &B, plan_dir: Option<&Path>, runs: Vec<Run>) -> Result<Printout, Failure> {
    match plan_dir {
        Some(dir) => plan::write(dir, &runs),
        None => b.finish(execute(b, &runs)?, INTERRUPTED),
    }
}

/// Every run on `b.threads()` threads, digested as it finishes; None for runs Ctrl-C stopped.
fn execute<B: Batch>(b: &B, runs: &[Run]) -> Result<Vec<Option<B::Digest>>, Failure> {
    let tracker = Tracker::new(b.what(), runs.len(), b.quiet());
    let groups = warming_groups(runs);
    let done = parallel::map(&groups, b.threads(), |g| -> Result<Vec<Option<B::Digest>>, Failure> {
        let group: Vec<&Run> = g.iter().map(|&i| &runs[i]).collect();
        group_documents(&group, None, &tracker)?.iter().map(|d| d.as_ref().map(|d| b.digest(d)).transpose()).collect()
    });
    tracker.finish();
    let mut out: Vec<Option<B::Digest>> = runs.iter().map(|_| None).collect();
    for (g, digests) in groups.iter().zip(done) {
        for (&i, d) in g.iter().zip(digests?) {
            out[i] = d;
        }
    }
    Ok(out)
}
