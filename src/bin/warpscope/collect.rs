//! `warpscope collect DIR`: reads the reports a plan's jobs wrote and prints the output of the
//! command that made the plan, with that command's own code (`Batch::finish`), so a complete
//! plan prints what the command run in one process prints. Jobs with runs lacking a report are
//! listed by id with the reason; collecting again at any time picks up what has finished since.

use super::batch::Batch;
use super::failure::Failure;
use super::plan::{Plan, Status};
use super::{Cli, Command};
use clap::Parser;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use warpscope::ConfigError;

/// The exit status when some jobs have no report yet.
pub const INCOMPLETE: u8 = 4;

#[derive(clap::Args)]
pub struct CollectCmd {
    /// A plan directory, written by `warpscope sweep|compare|figure ... --plan DIR`.
    dir: PathBuf,
    /// Write the planned command's file (the CSV of sweep or compare, a figure's SVG, PNG or
    /// CSV) here instead of at the `--out` it was planned with.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also rewrite DIR/jobs.txt, commands.txt and slurm.sh to hold only the jobs still without
    /// a report, so submitting them again runs only those.
    #[arg(long)]
    resume: bool,
}

impl CollectCmd {
    pub fn run(&self) -> Result<ExitCode, Failure> {
        let plan = Plan::open(&self.dir, "DIR")?;
        let argv = std::iter::once("warpscope").chain(plan.command.iter().map(String::as_str));
        let cli = Cli::try_parse_from(argv).map_err(|e| {
            let first = e.to_string().lines().next().unwrap_or_default().to_string();
            ConfigError::new(
                "DIR",
                format!("{}/plan.json holds a command that does not parse: {first}", plan.dir.display()),
            )
        })?;
        match cli.command {
            Command::Sweep(c) => self.gather(c, &plan),
            Command::Compare { cmd, .. } => self.gather(cmd, &plan),
            Command::Figure(c) => self.gather(c, &plan),
            _ => Err(ConfigError::new(
                "DIR",
                format!("{}/plan.json holds a command that makes no plan", plan.dir.display()),
            )
            .into()),
        }
    }

    fn gather<B: Batch>(&self, mut b: B, plan: &Plan) -> Result<ExitCode, Failure>
    where
        B::Digest: Clone,
    {
        if let Some(out) = &self.out {
            b.set_out(out.clone());
        }
        let entries = plan.entries()?;
        // Each run read once, in plan order: its digest, or why it has none; the runs without
        // one gathered by the job that simulates them, with their labels.
        let mut seen: HashMap<&str, Option<B::Digest>> = HashMap::new();
        let mut lacking: Vec<(&str, String, Vec<&str>)> = Vec::new();
        let mut done = Vec::with_capacity(entries.len());
        for e in &entries {
            if !seen.contains_key(e.id.as_str()) {
                let status = plan.status(&e.id);
                let digest = match &status {
                    Status::Done(doc) => Some(b.digest(doc)?),
                    other => {
                        if !lacking.iter().any(|l| l.0 == e.job) {
                            lacking.push((&e.job, other.why().unwrap_or_default(), Vec::new()));
                        }
                        None
                    }
                };
                seen.insert(&e.id, digest);
            }
            let digest = seen[e.id.as_str()].clone();
            if digest.is_none() {
                if let Some(l) = lacking.iter_mut().find(|l| l.0 == e.job) {
                    l.2.push(&e.label);
                }
            }
            done.push(digest);
        }
        let printout = b.finish(done, "Runs with reports so far")?;
        super::write_out(&printout.text);
        let dir = plan.dir.display();
        if lacking.is_empty() {
            eprintln!("collect: all {} runs of {dir} have their reports", entries.len());
        } else {
            let runs: usize = lacking.iter().map(|l| l.2.len()).sum();
            eprintln!("collect: {runs} of {} runs have no report yet, from {} jobs:", entries.len(), lacking.len());
            for (id, why, labels) in &lacking {
                eprintln!("  {id} ({}): {why}", labels.join("; "));
            }
            if !self.resume {
                eprintln!(
                    "submit the plan again (jobs with a report are skipped), or first `warpscope collect {dir} \
                     --resume` to list only these jobs"
                );
            }
        }
        if self.resume {
            let todo: Vec<&str> = lacking.iter().map(|l| l.0).collect();
            plan.write_jobs(&todo)?;
            eprintln!("resume: {dir}/jobs.txt, commands.txt and slurm.sh now hold the {} jobs to run", todo.len());
        }
        Ok(if lacking.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(INCOMPLETE) })
    }
}
