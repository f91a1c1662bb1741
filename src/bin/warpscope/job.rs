//! `warpscope job DIR RUN_ID`: simulates one run of a plan and writes its report to
//! `DIR/out/RUN_ID.json`, whole or not at all; a failure is written to `DIR/out/RUN_ID.err`.
//! A job whose report is already there is skipped, so a plan can be submitted again.

use super::batch::{self, Run};
use super::failure::Failure;
use super::interrupt;
use super::plan::{Entry, Plan, Status};
use super::progress::Tracker;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope::config::parse_config_value;
use warpscope::ConfigError;

#[derive(clap::Args)]
pub struct JobCmd {
    /// A plan directory, written by `warpscope sweep|compare|figure ... --plan DIR`.
    dir: PathBuf,
    /// The run to simulate: an id from DIR/jobs.txt (or any id of DIR/manifest.jsonl).
    run_id: String,
    /// No progress on stderr.
    #[arg(long)]
    quiet: bool,
}

impl JobCmd {
    pub fn run(&self) -> Result<ExitCode, Failure> {
        let plan = Plan::open(&self.dir, "DIR")?;
        let entry = plan.find(&self.run_id)?;
        let id = &entry.id.clone();
        let report = plan.report(id);
        if let Status::Done(_) = plan.status(id) {
            eprintln!("{id}: already done ({})", report.display());
            return Ok(ExitCode::SUCCESS);
        }
        let cannot =
            |e: std::io::Error| ConfigError::new("DIR", format!("cannot write in {}: {e}", plan.dir.display()));
        plan.mark_started(id).map_err(cannot)?;
        match self.simulate(entry) {
            Ok(Some(text)) => {
                plan.write_report(id, &text).map_err(cannot)?;
                super::write_out(&format!("wrote {}\n", report.display()));
                Ok(ExitCode::SUCCESS)
            }
            Ok(None) => {
                plan.clear_started(id);
                Ok(interrupt::unfinished(&[id.to_string()]))
            }
            Err(f) => {
                plan.write_error(id, &f.to_string()).map_err(cannot)?;
                Err(f)
            }
        }
    }

    /// The report as the job writes it, or None when Ctrl-C stopped the run.
    fn simulate(&self, e: Entry) -> Result<Option<String>, Failure> {
        let config = parse_config_value(e.config)?;
        let run = Run {
            label: e.label,
            kernel: e.kernel,
            size: e.size,
            seed: e.seed,
            trace: e.trace,
            profile_trace: e.profile_trace,
            max_cycles: e.max_cycles,
            config,
        };
        // The config must read back as it was planned, or this job would not be that run.
        if super::plan::run_id(&run).0 != e.id {
            let why = "its config does not read back as planned; plan again with this warpscope";
            return Err(ConfigError::new("RUN_ID", format!("run `{}`: {why}", e.id)).into());
        }
        interrupt::install();
        let tracker = Tracker::new(format!("job {}", e.id), 1, self.quiet);
        let ran =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| batch::run_document(&run, &tracker, Some(&e.id))));
        tracker.finish();
        let doc = match ran {
            Ok(doc) => doc?,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "no message".into());
                return Err(Failure::Stopped(run.label, format!("warpscope panicked: {why}")));
            }
        };
        let Some(doc) = doc else { return Ok(None) };
        Ok(Some(serde_json::to_string_pretty(&doc).expect("reports serialize") + "\n"))
    }
}
