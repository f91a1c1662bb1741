//! Traces at the command line: `run --trace` reads a trace folder on disk (the parser in
//! `warpscope::trace` only sees readers), and `trace export` writes a built-in kernel as one.

use super::Failure;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use warpscope::trace::{self, Selection, Source, TraceInput};
use warpscope::{Config, ConfigError, Simulator, Size};

/// A trace folder on disk; `kernel-1.traceg` may also be stored as `kernel-1.traceg.gz`.
struct Folder(PathBuf);

impl Source for Folder {
    fn open(&self, name: &str) -> Result<Box<dyn Read>, String> {
        let path = self.0.join(name);
        let gz = self.0.join(format!("{name}.gz"));
        let path = if !path.exists() && gz.exists() { gz } else { path };
        File::open(&path).map(|f| Box::new(f) as Box<dyn Read>).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// What `run` simulates: a built-in kernel or a trace, with the trace a profiling pass reads
/// (`--profile-trace`; the replayed trace itself without one).
pub enum Workload {
    Kernel { name: String, size: Size, seed: u64 },
    Trace { run: TraceInput, profile: TraceInput, seed: u64 },
}

fn input(flag: &str, msg: impl Into<String>) -> Failure {
    ConfigError::new(flag, msg.into()).into()
}

impl Workload {
    /// `--trace` (a folder or its `kernelslist.g`) with `--kernels` and `--profile-trace`
    /// (whose kernels `--kernels` chooses too), else the built-in kernel.
    pub fn new(
        kernel: String,
        size: Size,
        seed: u64,
        trace: Option<PathBuf>,
        kernels: Option<&str>,
        profile_trace: Option<PathBuf>,
    ) -> Result<Self, Failure> {
        let Some(path) = trace else {
            return Ok(Workload::Kernel { name: kernel, size, seed });
        };
        let select = kernels.map(Selection::parse).transpose().map_err(|e| input("--kernels", e))?;
        let at = |path: &Path, flag: &str| -> Result<TraceInput, ConfigError> {
            let (folder, list, name) = split(path, flag)?;
            Ok(TraceInput { source: Rc::new(Folder(folder)), list, name, select: select.clone() })
        };
        let run = at(&path, "--trace")?;
        let profile = match profile_trace {
            Some(p) => {
                // Its list and kernel headers are read now, so a bad path fails before the run.
                let t = at(&p, "--profile-trace")?;
                t.open().map_err(|e| input("--profile-trace", e.to_string()))?;
                t
            }
            None => run.clone(),
        };
        Ok(Workload::Trace { run, profile, seed })
    }

    /// What progress and messages call the run.
    pub fn label(&self) -> String {
        match self {
            Workload::Kernel { name, .. } => name.clone(),
            Workload::Trace { run, .. } => format!("{} (trace)", run.name),
        }
    }

    /// A fresh simulator of the workload on `cfg`.
    pub fn simulator(&self, cfg: Config) -> Result<Simulator, Failure> {
        match self {
            Workload::Kernel { name, size, seed } => {
                Ok(Simulator::new(cfg, name, *size, *seed).map_err(super::kernel_flag)?)
            }
            Workload::Trace { run, profile, seed } => {
                let bench = run.open().map_err(|e| input("--trace", e.to_string()))?;
                Ok(trace::simulator(cfg, bench, *seed, profile)?)
            }
        }
    }
}

/// A trace path given with `flag` as a folder, its list file's name and the trace's name
/// (the folder's).
fn split(path: &Path, flag: &str) -> Result<(PathBuf, String, String), ConfigError> {
    let (folder, list) = if path.is_dir() {
        (path.to_path_buf(), "kernelslist.g".to_string())
    } else {
        let list = path.file_name().map(|f| f.to_string_lossy().into_owned());
        let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let list =
            list.ok_or_else(|| ConfigError::new(flag, format!("{} is not a trace folder or list", path.display())))?;
        (folder, list)
    };
    let folder = if folder.as_os_str().is_empty() { PathBuf::from(".") } else { folder };
    let dir = folder.canonicalize().unwrap_or_else(|_| folder.clone());
    let name = dir.file_name().map_or("trace".into(), |n| n.to_string_lossy().into_owned());
    Ok((folder, list, name))
}

/// A trace of `compare` or `sweep` as its runs find it: its list file, and the one its
/// profiling pass reads instead (`--profile-trace`), both absolute.
#[derive(Clone)]
pub struct TracePaths {
    pub run: PathBuf,
    pub profile: Option<PathBuf>,
}

/// The `--trace`s of `compare` and `sweep` with their `--profile-trace`s (none, or one each in
/// the same order): each one's name as their tables show it and its paths, made absolute so a
/// plan's jobs find them from any directory. Each list and kernel header is read now, so a bad
/// trace fails before anything runs.
pub fn traces(paths: &[PathBuf], profiles: &[PathBuf]) -> Result<Vec<(String, Option<TracePaths>)>, ConfigError> {
    if !profiles.is_empty() && profiles.len() != paths.len() {
        let why = format!("give one per --trace, in the same order ({} for {} traces)", profiles.len(), paths.len());
        return Err(ConfigError::new("--profile-trace", why));
    }
    let mut out: Vec<(String, Option<TracePaths>)> = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let (name, run) = checked(path, "--trace")?;
        let shown = format!("{name} (trace)");
        if out.iter().any(|(n, _)| *n == shown) {
            let why =
                format!("two traces are named {name} (their folders' names); give them folders of different names");
            return Err(ConfigError::new("--trace", why));
        }
        let profile = profiles.get(i).map(|p| checked(p, "--profile-trace")).transpose()?.map(|(_, p)| p);
        out.push((shown, Some(TracePaths { run, profile })));
    }
    Ok(out)
}

/// The trace at `path` (given with `flag`) once its list and kernel headers read: its name
/// and its list file's absolute path.
fn checked(path: &Path, flag: &str) -> Result<(String, PathBuf), ConfigError> {
    let (folder, list, name) = split(path, flag)?;
    let source: Rc<dyn Source> = Rc::new(Folder(folder.clone()));
    trace::open(source, &list, &name, None).map_err(|e| ConfigError::new(flag, e.to_string()))?;
    Ok((name, folder.canonicalize().unwrap_or(folder).join(list)))
}

/// The error that stopped reading a trace during `sim`'s run, as a failure.
pub fn read_error(sim: &Simulator) -> Option<Failure> {
    let e = sim.benchmark().read_error()?;
    Some(input("--trace", e))
}

#[derive(clap::Subcommand)]
pub enum TraceCmd {
    /// Write a built-in kernel as an Accel-Sim trace folder: kernelslist.g and one
    /// kernel-N.traceg per launch, for `run --trace` or other trace-driven simulators.
    Export {
        #[arg(long)]
        kernel: String,
        #[arg(long, value_parser = super::size_parser(), default_value = "tiny")]
        size: Size,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The folder to write (created if missing).
        #[arg(long)]
        out: PathBuf,
        /// List every active lane's address (format 0) instead of base+stride or base+deltas.
        #[arg(long)]
        list_addresses: bool,
    },
}

pub fn run(cmd: TraceCmd) -> Result<(), Failure> {
    let TraceCmd::Export { kernel, size, seed, out, list_addresses } = cmd;
    let bench = warpscope::kernels::build(&kernel, size, seed).map_err(|e| super::kernel_flag(e.into()))?;
    let fail = |e: String| input("--out", format!("{}: {e}", out.display()));
    std::fs::create_dir_all(&out).map_err(|e| fail(e.to_string()))?;
    let (mut files, mut instructions) = (Vec::new(), 0);
    for (i, k) in bench.launches.iter().enumerate() {
        let file = format!("kernel-{}.traceg", i + 1);
        let mut w = BufWriter::new(File::create(out.join(&file)).map_err(|e| fail(e.to_string()))?);
        instructions += trace::export::write_kernel(k.as_ref(), i as u32 + 1, !list_addresses, &mut w).map_err(fail)?;
        w.flush().map_err(|e| fail(e.to_string()))?;
        files.push(file);
    }
    let mut list = File::create(out.join("kernelslist.g")).map_err(|e| fail(e.to_string()))?;
    trace::export::write_list(&files, &mut list).map_err(|e| fail(e.to_string()))?;
    eprintln!("wrote {} kernels ({instructions} warp instructions) of {kernel} to {}", files.len(), out.display());
    Ok(())
}
