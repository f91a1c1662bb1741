//! `warpscope job DIR RUN_ID`: simulates one job of a plan, one run or the sampled runs that
//! share a warming, and writes each run's report to `DIR/out/ID.json`, whole or not at all; a
//! failure is written to `DIR/out/ID.err`. Runs whose report is already there are skipped, so
//! a plan can be submitted again.

use super::batch::{self, Run};
use super::failure::Failure;
use super::interrupt;
use super::plan::{Entry, Plan, Status};
use super::progress::Tracker;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope::config::parse_config_value;
use warpscope::ConfigError;

#[derive(clap::Args)]
pub struct JobCmd {
    /// A plan directory, written by `warpscope sweep|compare|figure ... --plan DIR`.
    dir: PathBuf,
    /// The job to run: an id from DIR/jobs.txt, or any run's id of DIR/manifest.jsonl, which
    /// runs the job that simulates it.
    run_id: String,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

impl JobCmd {
    pub fn run(&self) -> Result<ExitCode, Failure> {
        let plan = Plan::open(&self.dir, "DIR")?;
        let job = plan.find(&self.run_id)?.job;
        let all = plan.job_runs(&job)?;
        let n = all.len();
        let runs: Vec<Entry> = all.into_iter().filter(|e| !matches!(plan.status(&e.id), Status::Done(_))).collect();
        if runs.is_empty() {
            match n {
                1 => eprintln!("{job}: already done ({})", plan.report(&job).display()),
                _ => eprintln!("{job}: already done (its {n} runs' reports are in {})", plan.dir.join("out").display()),
            }
            return Ok(ExitCode::SUCCESS);
        }
        let ids: Vec<String> = runs.iter().map(|e| e.id.clone()).collect();
        let cannot =
            |e: std::io::Error| ConfigError::new("DIR", format!("cannot write in {}: {e}", plan.dir.display()));
        for id in &ids {
            plan.mark_started(id).map_err(cannot)?;
        }
        match self.simulate(&job, runs, &ids) {
            Ok(Some(texts)) => {
                for (id, text) in ids.iter().zip(texts) {
                    plan.write_report(id, &text).map_err(cannot)?;
                    super::write_out(&format!("wrote {}\n", plan.report(id).display()));
                }
                Ok(ExitCode::SUCCESS)
            }
            Ok(None) => {
                ids.iter().for_each(|id| plan.clear_started(id));
                Ok(interrupt::unfinished(&ids))
            }
            Err(f) => {
                for id in &ids {
                    plan.write_error(id, &f.to_string()).map_err(cannot)?;
                }
                Err(f)
            }
        }
    }

    /// The reports as the job writes them, in the order of `entries`, or None when Ctrl-C
    /// stopped the job.
    fn simulate(&self, job: &str, entries: Vec<Entry>, ids: &[String]) -> Result<Option<Vec<String>>, Failure> {
        let mut runs = Vec::with_capacity(entries.len());
        for e in entries {
            let run = Run {
                label: e.label,
                kernel: e.kernel,
                size: e.size,
                seed: e.seed,
                trace: e.trace,
                profile_trace: e.profile_trace,
                max_cycles: e.max_cycles,
                config: parse_config_value(e.config)?,
            };
            // The config must read back as it was planned, or this job would not be that run.
            if super::plan::run_id(&run).0 != e.id {
                let why = "its config does not read back as planned; plan again with this warpscope";
                return Err(ConfigError::new("RUN_ID", format!("run `{}`: {why}", e.id)).into());
            }
            runs.push(run);
        }
        interrupt::install();
        let tracker = Tracker::new(format!("job {job}"), runs.len(), self.quiet);
        let group: Vec<&Run> = runs.iter().collect();
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            batch::group_documents(&group, Some(ids), &tracker)
        }));
        tracker.finish();
        let docs = match ran {
            Ok(docs) => docs?,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "no message".into());
                return Err(Failure::Stopped(runs[0].label.clone(), format!("warpscope panicked: {why}")));
            }
        };
        let text = |doc: Value| serde_json::to_string_pretty(&doc).expect("reports serialize") + "\n";
        Ok(docs.into_iter().map(|d| d.map(text)).collect())
    }
}
