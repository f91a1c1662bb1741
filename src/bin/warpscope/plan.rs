//! A plan: a command's runs written as independent jobs in one directory, for GNU Parallel,
//! a Slurm job array or any launcher that can run a command line (docs/sweeps-on-clusters.md).
//!
//! - `plan.json`: the plan format, the warpscope version and the command line that made the
//!   plan, which `warpscope collect` parses again to build the same output.
//! - `manifest.jsonl`: one line per run in the command's order: index, id, the job that runs
//!   it, label, kernel, size, seed, cycle limit, report path and the full resolved config.
//! - `jobs.txt`: the ids of the jobs still without a report, one a line; `commands.txt`: the
//!   command that runs each; `slurm.sh`: a job array over `jobs.txt`.
//! - `out/ID.json`: a run's report, renamed into place only once whole; `out/ID.err`: why its
//!   job failed; `out/ID.started`: the host and process of its job under way (or killed).
//!   `logs/`: the Slurm tasks' output.
//!
//! A job is one run, or the sampled runs that share one warming (`batch::warming_groups`):
//! it is named by its first run's id, and writes each of its runs' reports.
//!
//! A run's id is its kernel and a 64-bit FNV-1a hash of its content: the canonical JSON (keys
//! sorted, no spaces) of its resolved config, kernel, size, seed and cycle limit. It depends on
//! nothing else (not the directory, the machine, the order of the runs or the flags that made
//! the config), so a plan gives the same ids wherever it is made, and two runs with the same id
//! would write the same report: they share one job.

use super::batch::{warming_groups, Run};
use super::failure::Failure;
use super::interrupt::Printout;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use warpscope::figures::Metrics;
use warpscope::kernels::Size;
use warpscope::ConfigError;

/// The layout of plan directories this build reads and writes.
const FORMAT: u64 = 2;
const VERSION: &str = env!("CARGO_PKG_VERSION");
const HEADER: &str = "plan.json";
const MANIFEST: &str = "manifest.jsonl";
const JOBS: &str = "jobs.txt";
const COMMANDS: &str = "commands.txt";
const SLURM: &str = "slurm.sh";

/// `--plan DIR`, shared by sweep, compare and figure.
#[derive(clap::Args)]
pub struct PlanArg {
    /// Write the runs as independent jobs into DIR instead of running them: a manifest, one
    /// `warpscope job DIR RUN_ID` command per job (DIR/commands.txt, for GNU Parallel) and a
    /// Slurm array script (DIR/slurm.sh); `warpscope collect DIR` then prints this command's
    /// output. An existing plan in DIR is replaced, keeping the reports it still uses.
    #[arg(long, value_name = "DIR")]
    pub plan: Option<PathBuf>,
}

#[derive(Serialize, Deserialize)]
struct Header {
    warpscope_plan: u64,
    warpscope: String,
    /// The command line that made the plan, without the program's name.
    command: Vec<String>,
    runs: usize,
    jobs: usize,
}

/// One run of the manifest.
#[derive(Serialize, Deserialize)]
pub struct Entry {
    pub index: usize,
    pub id: String,
    /// The job that simulates it: its own id, or the first id of the runs sharing its warming.
    pub job: String,
    pub label: String,
    pub kernel: String,
    pub size: Size,
    pub seed: u64,
    /// The trace a run replays: the path the job reads it from, on whichever machine it runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// The trace its profiling pass reads instead (`--profile-trace`), found the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_trace: Option<PathBuf>,
    pub max_cycles: Option<u64>,
    /// The report's path inside the plan directory.
    pub out: String,
    pub config: Value,
}

/// Where a job stands.
pub enum Status {
    /// Its report, read and checked.
    Done(Value),
    /// Why it has no report: its recorded error, or what is wrong with its report file.
    Failed(String),
    /// It started (on the host and process named) and left no report.
    Started(String),
    NotRun,
}

impl Status {
    /// Why the job has no report, in words; None when it has one.
    pub fn why(&self) -> Option<String> {
        match self {
            Status::Done(_) => None,
            Status::Failed(e) => Some(format!("failed: {e}")),
            Status::Started(at) => Some(format!("started ({at}) and left no report: killed, crashed or still running")),
            Status::NotRun => Some("not run yet".into()),
        }
    }
}

/// An opened plan directory.
pub struct Plan {
    /// Absolute, so the commands it writes work from any directory.
    pub dir: PathBuf,
    pub command: Vec<String>,
    runs: usize,
    jobs: usize,
}

impl Plan {
    /// The plan in `dir`, refused (under `flag`) when `dir` is not a plan or another
    /// version of warpscope wrote it.
    pub fn open(dir: &Path, flag: &str) -> Result<Plan, ConfigError> {
        let fail = |msg: String| ConfigError::new(flag, msg);
        let shown = dir.display();
        if !dir.is_dir() {
            return Err(fail(format!("{shown} is not a directory; give the DIR that `--plan DIR` wrote")));
        }
        let text = match std::fs::read_to_string(dir.join(HEADER)) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(fail(format!(
                    "{shown} is not a warpscope plan: it has no {HEADER} (`warpscope sweep|compare|figure ... \
                     --plan DIR` writes one)"
                )))
            }
            Err(e) => return Err(fail(format!("cannot read {}: {e}", dir.join(HEADER).display()))),
        };
        let damaged = |why: String| fail(format!("{shown}/{HEADER} is not a warpscope plan header: {why}"));
        let doc: Value = serde_json::from_str(&text).map_err(|e| damaged(e.to_string()))?;
        let (Some(format), Some(version)) =
            (doc.get("warpscope_plan").and_then(Value::as_u64), doc.get("warpscope").and_then(Value::as_str))
        else {
            return Err(damaged("it has no warpscope_plan format and warpscope version".into()));
        };
        if version != VERSION || format != FORMAT {
            return Err(fail(format!(
                "{shown} was planned by warpscope {version} (plan format {format}); this is warpscope {VERSION} \
                 (format {FORMAT}): plan it again with this warpscope, or run and collect it with warpscope {version}"
            )));
        }
        let h: Header = serde_json::from_value(doc).map_err(|e| damaged(e.to_string()))?;
        let dir = dir.canonicalize().map_err(|e| fail(format!("cannot resolve {shown}: {e}")))?;
        Ok(Plan { dir, command: h.command, runs: h.runs, jobs: h.jobs })
    }

    /// Every run of the manifest, in order.
    pub fn entries(&self) -> Result<Vec<Entry>, ConfigError> {
        let text = self.manifest()?;
        text.lines().enumerate().map(|(i, line)| self.entry(i, line)).collect()
    }

    /// The run with this id, read without parsing the whole manifest.
    pub fn find(&self, id: &str) -> Result<Entry, ConfigError> {
        let text = self.manifest()?;
        let needle = format!("\"id\":{}", Value::String(id.to_string()));
        for (i, line) in text.lines().enumerate() {
            if line.contains(&needle) {
                let e = self.entry(i, line)?;
                if e.id == id {
                    return Ok(e);
                }
            }
        }
        let example = match text.lines().next() {
            Some(line) => format!(", such as `{}`", self.entry(0, line)?.id),
            None => String::new(),
        };
        Err(ConfigError::new(
            "RUN_ID",
            format!(
                "unknown run `{id}`: the plan in {} has {} runs as {} jobs{example}; {MANIFEST} there lists every id",
                self.dir.display(),
                self.runs,
                self.jobs
            ),
        ))
    }

    /// The runs job `job` simulates, each once, in plan order, parsing only their lines.
    pub fn job_runs(&self, job: &str) -> Result<Vec<Entry>, ConfigError> {
        let text = self.manifest()?;
        let needle = format!("\"job\":{}", Value::String(job.to_string()));
        let mut runs: Vec<Entry> = Vec::new();
        for (i, line) in text.lines().enumerate().filter(|(_, line)| line.contains(&needle)) {
            let e = self.entry(i, line)?;
            if e.job == job && !runs.iter().any(|r| r.id == e.id) {
                runs.push(e);
            }
        }
        Ok(runs)
    }

    fn manifest(&self) -> Result<String, ConfigError> {
        let path = self.dir.join(MANIFEST);
        std::fs::read_to_string(&path)
            .map_err(|e| ConfigError::new("DIR", format!("cannot read {}: {e}", path.display())))
    }

    fn entry(&self, i: usize, line: &str) -> Result<Entry, ConfigError> {
        serde_json::from_str(line).map_err(|e| {
            let path = self.dir.join(MANIFEST);
            ConfigError::new("DIR", format!("{} line {} is damaged ({e}); plan again", path.display(), i + 1))
        })
    }

    pub fn report(&self, id: &str) -> PathBuf {
        self.dir.join("out").join(format!("{id}.json"))
    }

    fn error_file(&self, id: &str) -> PathBuf {
        self.dir.join("out").join(format!("{id}.err"))
    }

    fn started_file(&self, id: &str) -> PathBuf {
        self.dir.join("out").join(format!("{id}.started"))
    }

    /// Where the job stands, from its files in `out/`.
    pub fn status(&self, id: &str) -> Status {
        let path = self.report(id);
        match std::fs::read_to_string(&path) {
            Ok(text) => match check_report(&text, id) {
                Ok(doc) => Status::Done(doc),
                Err(why) => Status::Failed(format!("out/{id}.json {why}")),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Ok(err) = std::fs::read_to_string(self.error_file(id)) {
                    Status::Failed(err.trim().to_string())
                } else if let Ok(at) = std::fs::read_to_string(self.started_file(id)) {
                    Status::Started(at.trim().to_string())
                } else {
                    Status::NotRun
                }
            }
            Err(e) => Status::Failed(format!("cannot read out/{id}.json: {e}")),
        }
    }

    /// Notes that this process runs the job, for `collect` to name if it dies.
    pub fn mark_started(&self, id: &str) -> std::io::Result<()> {
        write_atomic(&self.started_file(id), format!("host {}, pid {}\n", host(), std::process::id()).as_bytes())
    }

    /// Puts the job's whole report in place, then clears its error and its start.
    pub fn write_report(&self, id: &str, text: &str) -> std::io::Result<()> {
        write_atomic(&self.report(id), text.as_bytes())?;
        let _ = std::fs::remove_file(self.error_file(id));
        let _ = std::fs::remove_file(self.started_file(id));
        Ok(())
    }

    /// Records why the job failed, for `collect` to list.
    pub fn write_error(&self, id: &str, error: &str) -> std::io::Result<()> {
        write_atomic(&self.error_file(id), format!("{error}\n").as_bytes())?;
        let _ = std::fs::remove_file(self.started_file(id));
        Ok(())
    }

    /// Forgets that the job started (it was interrupted and left nothing).
    pub fn clear_started(&self, id: &str) {
        let _ = std::fs::remove_file(self.started_file(id));
    }

    /// Writes `jobs.txt`, `commands.txt` and `slurm.sh` for these job ids.
    pub fn write_jobs(&self, ids: &[&str]) -> Result<(), ConfigError> {
        let dir = self.dir.display().to_string();
        let lines = |f: &dyn Fn(&str) -> String| ids.iter().map(|id| f(id) + "\n").collect::<String>();
        let jobs = lines(&|id| id.to_string());
        let commands = lines(&|id| format!("warpscope job {} {id}", shell_quote(&dir)));
        let written = |name: &str, text: &str| {
            let path = self.dir.join(name);
            write_atomic(&path, text.as_bytes())
                .map_err(|e| ConfigError::new("DIR", format!("cannot write {}: {e}", path.display())))
        };
        written(JOBS, &jobs)?;
        written(COMMANDS, &commands)?;
        written(SLURM, &slurm_script(&dir, ids.len()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(self.dir.join(SLURM), std::fs::Permissions::from_mode(0o755));
        }
        Ok(())
    }
}

/// A report file's document when it is whole and is this job's, or what is wrong with it.
fn check_report(text: &str, id: &str) -> Result<Value, String> {
    let doc: Value =
        serde_json::from_str(text).map_err(|e| format!("is not a whole report (cut short or damaged: {e})"))?;
    let Some(obj) = doc.as_object() else {
        return Err("is not a report: not a JSON object".into());
    };
    match obj.get("run_id").and_then(Value::as_str) {
        Some(r) if r == id => {}
        Some(r) => return Err(format!("is the report of run `{r}`")),
        None => return Err("has no run_id: `warpscope job` did not write it".into()),
    }
    match obj.get("version").and_then(Value::as_str) {
        Some(VERSION) => {}
        v => return Err(format!("was written by warpscope {}, not {VERSION}", v.unwrap_or("of no version"))),
    }
    // A sampled run's report holds estimates where a whole run's holds its counts.
    let keys: &[&str] = if obj.contains_key("estimate") {
        &["kernel", "completed", "estimate", "windows", "figure_metrics"]
    } else {
        &["kernel", "completed", "cycles", "ipc", "figure_metrics"]
    };
    if let Some(key) = keys.iter().find(|k| !obj.contains_key(**k)) {
        return Err(format!("lacks `{key}`"));
    }
    if let Some(e) = obj.get("error").and_then(Value::as_str) {
        return Err(format!("records a run that stopped: {e}"));
    }
    Metrics::deserialize(&doc["figure_metrics"]).map_err(|e| format!("has damaged figure_metrics: {e}"))?;
    Ok(doc)
}

/// Writes `runs` as a plan into `dir` (made if missing) and says how to run it.
pub fn write(dir: &Path, runs: &[Run]) -> Result<Printout, Failure> {
    let command =
        std::env::args_os().skip(1).map(|a| a.into_string()).collect::<Result<Vec<String>, _>>().map_err(|a| {
            ConfigError::new("--plan", format!("the argument {a:?} is not UTF-8; a plan keeps its command as text"))
        })?;
    let dir = prepare(dir)?;
    let mut contents: HashMap<String, String> = HashMap::new();
    let mut ids: Vec<String> = Vec::new();
    let mut distinct: Vec<Run> = Vec::new();
    let mut run_ids: Vec<String> = Vec::new();
    for r in runs {
        let (id, content) = run_id(r);
        run_ids.push(id.clone());
        match contents.get(&id) {
            Some(c) if *c != content => {
                return Err(ConfigError::new(
                    "--plan",
                    format!("two different runs hash to the id `{id}`; please report it"),
                )
                .into())
            }
            Some(_) => {}
            None => {
                contents.insert(id.clone(), content);
                ids.push(id);
                distinct.push(r.clone());
            }
        }
    }
    let groups = warming_groups(&distinct);
    let mut job_of: HashMap<&str, &str> = HashMap::new();
    for g in &groups {
        for &i in g {
            job_of.insert(&ids[i], &ids[g[0]]);
        }
    }
    let mut manifest = String::new();
    for (index, (r, id)) in runs.iter().zip(run_ids).enumerate() {
        let e = Entry {
            index,
            out: format!("out/{id}.json"),
            job: job_of[id.as_str()].to_string(),
            id,
            label: r.label.clone(),
            kernel: r.kernel.clone(),
            size: r.size,
            seed: r.seed,
            trace: r.trace.clone(),
            profile_trace: r.profile_trace.clone(),
            max_cycles: r.max_cycles,
            config: serde_json::to_value(&r.config).expect("configs serialize"),
        };
        manifest += &serde_json::to_string(&e).expect("entries serialize");
        manifest.push('\n');
    }
    let plan = Plan { dir, command, runs: runs.len(), jobs: groups.len() };
    let header = Header {
        warpscope_plan: FORMAT,
        warpscope: VERSION.into(),
        command: plan.command.clone(),
        runs: plan.runs,
        jobs: plan.jobs,
    };
    let fail = |name: &str, e: std::io::Error| {
        ConfigError::new("--plan", format!("cannot write {}: {e}", plan.dir.join(name).display()))
    };
    write_atomic(&plan.dir.join(MANIFEST), manifest.as_bytes()).map_err(|e| fail(MANIFEST, e))?;
    let header = serde_json::to_string_pretty(&header).expect("headers serialize") + "\n";
    write_atomic(&plan.dir.join(HEADER), header.as_bytes()).map_err(|e| fail(HEADER, e))?;
    let todo: Vec<&str> = groups
        .iter()
        .filter(|g| g.iter().any(|&i| !matches!(plan.status(&ids[i]), Status::Done(_))))
        .map(|g| ids[g[0]].as_str())
        .collect();
    plan.write_jobs(&todo)?;
    let d = plan.dir.display();
    let mut why = Vec::new();
    if runs.len() > ids.len() {
        why.push(format!(
            "{} runs repeat another's config, kernel, size and seed and share its job",
            runs.len() - ids.len()
        ));
    }
    if ids.len() > groups.len() {
        let jobs = groups.iter().filter(|g| g.len() > 1).count();
        why.push(format!(
            "{} sampled runs that differ only in their DRAM scheduler or ROP skip share a warming, as {jobs} jobs",
            groups.iter().filter(|g| g.len() > 1).map(Vec::len).sum::<usize>()
        ));
    }
    let shared = if why.is_empty() { String::new() } else { format!(" ({})", why.join("; ")) };
    let text = format!(
        "planned {} runs as {} jobs in {d}{shared}; {} already have reports, {} to run:\n\
         \x20 GNU Parallel:  parallel -a {d}/{COMMANDS}\n\
         \x20 Slurm:         sbatch {d}/{SLURM}\n\
         \x20 then:          warpscope collect {d}\n",
        runs.len(),
        groups.len(),
        groups.len() - todo.len(),
        todo.len()
    );
    Ok(Printout { text, unfinished: Vec::new() })
}

/// Makes `dir` ready for a plan and returns its absolute path: a new or empty directory, or
/// one holding a plan of this version (replaced; its reports stay and count where ids match).
fn prepare(dir: &Path) -> Result<PathBuf, ConfigError> {
    let fail = |msg: String| ConfigError::new("--plan", msg);
    let shown = dir.display();
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if dir.join(HEADER).exists() {
                Plan::open(dir, "--plan")?;
            } else if entries.next().is_some() {
                return Err(fail(format!("{shown} is not empty and holds no plan; give a new or empty directory")));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(fail(format!("cannot use {shown}: {e}"))),
    }
    for sub in ["out", "logs"] {
        std::fs::create_dir_all(dir.join(sub))
            .map_err(|e| fail(format!("cannot make {}: {e}", dir.join(sub).display())))?;
    }
    dir.canonicalize().map_err(|e| fail(format!("cannot resolve {shown}: {e}")))
}

/// The run's id and the canonical text it hashes.
pub fn run_id(r: &Run) -> (String, String) {
    let mut content = json!({
        "config": serde_json::to_value(&r.config).expect("configs serialize"),
        "kernel": r.kernel,
        "size": r.size.as_str(),
        "seed": r.seed,
        "max_cycles": r.max_cycles,
    });
    if let Some(trace) = &r.trace {
        content["trace"] = Value::from(trace.to_string_lossy());
    }
    if let Some(profile) = &r.profile_trace {
        content["profile_trace"] = Value::from(profile.to_string_lossy());
    }
    let mut text = String::new();
    canonical(&content, &mut text);
    // A trace's name may hold any character; an id is a file name and a shell word.
    let name: String =
        r.kernel.chars().map(|c| if c.is_ascii_alphanumeric() || "_.-".contains(c) { c } else { '_' }).collect();
    (format!("{name}-{:016x}", fnv1a(text.as_bytes())), text)
}

/// JSON with every object's keys sorted and no whitespace, whatever order the maps keep.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// 64-bit FNV-1a: fixed by its definition, so the same on every machine and Rust version
/// (the standard library's hasher promises neither).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Writes `path` whole or not at all: into a file beside it, named for this host and process,
/// flushed to disk, then renamed over it. Two writers of one file each rename a whole file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let host: String = host().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let tmp = path.with_file_name(format!(
        ".{name}.{host}.{}.{nanos}.{}.tmp",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// This machine's name, as a job's start and its temporary files give it.
fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown-host".into())
}

/// `s` as one shell word.
fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A Slurm array script over `jobs.txt`: task i runs its lines i*CHUNK+1 to (i+1)*CHUNK.
fn slurm_script(dir: &str, jobs: usize) -> String {
    let tasks = |chunk: usize| jobs.div_ceil(chunk).max(1) - 1;
    let q = shell_quote(dir);
    format!(
        r#"#!/bin/bash
# A Slurm job array over the warpscope plan in {dir} ({jobs} jobs in jobs.txt).
# Task i runs lines i*CHUNK+1 to (i+1)*CHUNK of jobs.txt, one `warpscope job` after another,
# and logs to logs/ARRAYJOB_TASK.out. Submit it from any directory, one task per job:
#   sbatch {q}/slurm.sh
# or ten or a hundred jobs per task (Slurm allows array indices up to 1000 by default):
#   sbatch --array=0-{t10} --export=ALL,WARPSCOPE_CHUNK=10 {q}/slurm.sh
#   sbatch --array=0-{t100} --export=ALL,WARPSCOPE_CHUNK=100 {q}/slurm.sh
# Add your cluster's options (--time, --partition, --mem) on the sbatch line. A node needs only
# the warpscope binary (on its PATH, or WARPSCOPE=/path/to/warpscope) and this directory at the
# same path. A job that has its report is skipped, so submitting again runs only what is missing.
# Written by warpscope {VERSION}; see docs/sweeps-on-clusters.md.
#SBATCH --job-name=warpscope
#SBATCH --array=0-{t1}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output={dir}/logs/%A_%a.out
set -u
plan={q}
chunk="${{WARPSCOPE_CHUNK:-1}}"
warpscope="${{WARPSCOPE:-warpscope}}"
first=$(( ${{SLURM_ARRAY_TASK_ID:?run this script with sbatch}} * chunk + 1 ))
last=$(( first + chunk - 1 ))
status=0
for id in $(sed -n "${{first}},${{last}}p" "$plan/jobs.txt"); do
  "$warpscope" job "$plan" "$id" || status=$?
done
exit "$status"
"#,
        t1 = tasks(1),
        t10 = tasks(10),
        t100 = tasks(100),
    )
}
