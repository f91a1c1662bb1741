//! The warpscope command line: runs, listings, charts of saved reports, the speed benchmark
//! and the single-cache teaching mode.

#[path = "warpscope/batch.rs"]
mod batch;
#[path = "warpscope/bench.rs"]
mod bench;
#[path = "warpscope/cache.rs"]
mod cache;
#[path = "warpscope/classify.rs"]
mod classify;
#[path = "warpscope/collect.rs"]
mod collect;
#[path = "warpscope/compare.rs"]
mod compare;
#[path = "warpscope/dram.rs"]
mod dram;
#[path = "warpscope/failure.rs"]
mod failure;
#[path = "warpscope/figure.rs"]
mod figure;
#[path = "warpscope/flags.rs"]
mod flags;
#[path = "warpscope/interrupt.rs"]
mod interrupt;
#[path = "warpscope/job.rs"]
mod job;
#[path = "warpscope/listing.rs"]
mod listing;
#[path = "warpscope/parallel.rs"]
mod parallel;
#[path = "warpscope/plan.rs"]
mod plan;
#[path = "warpscope/plot_cmd.rs"]
mod plot_cmd;
#[path = "warpscope/progress.rs"]
mod progress;
#[path = "warpscope/sampled.rs"]
mod sampled;
#[path = "warpscope/simulate.rs"]
mod simulate;
#[path = "warpscope/sweep.rs"]
mod sweep;
#[path = "warpscope/trace_cmd.rs"]
mod trace_cmd;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use failure::Failure;
use flags::{check_names, check_path, check_size, current_path, read_input, resolve_doc, resolve_with};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use warpscope::config::{
    self, apply_bundle, apply_set, parse_config_value, parse_dram_config_value, preset, preset_names, ConfigError,
    ConfigErrors,
};
use warpscope::kernels::{Size, KERNELS};
use warpscope::plot::{self, Chart};
use warpscope::stats::{build_report, render_text};
use warpscope::Config;

/// Writes to stdout; a closed pipe (`warpscope ... | head`) ends the program quietly
/// instead of panicking.
fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

macro_rules! out {
    ($($arg:tt)*) => { write_out(&format!($($arg)*)) };
}

macro_rules! outln {
    ($($arg:tt)*) => { write_out(&format!("{}\n", format_args!($($arg)*))) };
}

#[derive(Parser)]
#[command(
    name = "warpscope",
    version,
    about = "Cycle-level GPU memory-system simulator: memory divergence, caches, warp and DRAM scheduling",
    after_help = "run, sweep, compare and figure show their progress on stderr (--quiet hides it). Ctrl-C stops \
them cleanly: they print what finished, name what did not and exit with status 130; a second Ctrl-C stops at once."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--size`: the library's own names, so the flag cannot drift from the config's.
fn size_parser() -> impl TypedValueParser<Value = Size> {
    PossibleValuesParser::new(Size::NAMES.iter().copied()).map(|name| Size::parse(&name).expect("one of Size::NAMES"))
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
    Text,
}

#[derive(Clone, Copy, ValueEnum)]
enum Listing {
    Presets,
    Kernels,
    Policies,
    /// Named policy bundles for `--policy`.
    Bundles,
}

#[derive(clap::Args)]
struct MachineArgs {
    #[command(flatten)]
    base: BaseArgs,
    /// A named policy bundle applied on top of the preset, before `--set` (see
    /// `warpscope list bundles`), e.g. `--policy medic`.
    #[arg(long)]
    policy: Option<String>,
}

#[derive(clap::Args, Clone)]
struct BaseArgs {
    /// Preset machine to start from (see `warpscope list presets`).
    #[arg(long, default_value = "medic-gtx480", conflicts_with = "config")]
    preset: String,
    /// A complete config file (JSON) to start from instead of the preset.
    #[arg(long)]
    config: Option<std::path::PathBuf>,
    /// Override one field by its dotted path, e.g. `--set l1d.size_kb=32`. Repeatable.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    sets: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate one benchmark and print its report.
    Run {
        #[command(flatten)]
        machine: MachineArgs,
        /// Built-in benchmark (see `warpscope list kernels`).
        #[arg(long, default_value = "bfs")]
        kernel: String,
        #[arg(long, value_parser = size_parser(), default_value = "small")]
        size: Size,
        /// Seed of the generated input data.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Replay an Accel-Sim trace instead: its folder or its kernelslist.g (docs/traces.md).
        #[arg(long, value_name = "DIR|kernelslist.g")]
        trace: Option<PathBuf>,
        /// With `--trace`: only these kernels (1-based in list order), e.g. `1,3-5`.
        #[arg(long, requires = "trace")]
        kernels: Option<String>,
        /// With `--trace`: the trace coordinated bypassing profiles its loads on, e.g. the same
        /// program on a smaller input (default: the replayed trace itself, an oracle's profile).
        #[arg(long, value_name = "DIR|kernelslist.g", requires = "trace")]
        profile_trace: Option<PathBuf>,
        /// Stop after this many core cycles (the report then says `completed: false`).
        #[arg(long, conflicts_with = "sample")]
        max_cycles: Option<u64>,
        /// Estimate the run from this many detailed windows with functional warming between
        /// them, each metric with a 95 % interval (sets `sample.windows`; docs/sampling.md).
        #[arg(long, value_name = "WINDOWS")]
        sample: Option<u32>,
        /// With `--sample`: also run in full and print each estimate beside the full run's
        /// value, its error and whether it meets the bound docs/sampling.md sets.
        #[arg(long, requires = "sample")]
        check: bool,
        /// With `--sample`: check against the full run recorded in FILE instead of running it
        /// again: the JSON output of an earlier `--check`, or a whole run's report from
        /// `job` or `batch` (gzipped or not), with the same kernel, size, seed and config.
        #[arg(long, value_name = "FILE", requires = "sample", conflicts_with = "check")]
        check_against: Option<PathBuf>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// No progress on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Print the fully resolved config (a preset plus overrides) as JSON.
    Config {
        #[command(flatten)]
        machine: MachineArgs,
    },
    /// List presets, kernels or policy families.
    List {
        #[arg(value_enum)]
        what: Listing,
    },
    /// Describe a benchmark without simulating it: launches, static loads, instruction counts.
    Inspect {
        #[arg(long)]
        kernel: String,
        #[arg(long, value_parser = size_parser(), default_value = "small")]
        size: Size,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Draw charts of saved reports as SVG (or their numbers as CSV); several reports are
    /// compared in each chart, each labelled by its file stem.
    Plot {
        #[arg(long, help = chart_help())]
        chart: String,
        /// The file to write (.svg, or .csv with `--csv`), or a directory to write one file per
        /// chart into (always so with `--chart all`).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 800)]
        width: u32,
        #[arg(long, default_value_t = 500)]
        height: u32,
        /// Write each chart's numbers as CSV instead of drawing it.
        #[arg(long)]
        csv: bool,
        /// Reports written by `warpscope run --format json`.
        #[arg(required = true, value_name = "REPORT.json")]
        reports: Vec<PathBuf>,
    },
    /// Run an address trace through one cache on its own; print hits and misses (per set) as JSON.
    Cache(cache::CacheCmd),
    /// Profile a benchmark's global loads and tag each ca, cg or cm (coordinated bypassing).
    Classify(classify::ClassifyCmd),
    /// Run the cross product of config values (`--set PATH=V1,V2,...`) over kernels; one row
    /// per point, as CSV.
    Sweep(sweep::SweepCmd),
    /// Run kernels under a baseline and several policy bundles; print IPC speedups over
    /// the baseline per kernel with their harmonic mean, and L2 miss rates and queuing latencies.
    Compare {
        #[command(flatten)]
        base: BaseArgs,
        #[arg(long, value_parser = size_parser(), default_value = "small")]
        size: Size,
        #[command(flatten)]
        cmd: compare::CompareCmd,
    },
    /// Run a request trace through the DRAM channels alone; print latency, bandwidth and row hits as JSON.
    Dram {
        #[command(flatten)]
        machine: MachineArgs,
        #[command(flatten)]
        dram: dram::DramCmd,
    },
    /// Reproduce one of the papers' headline figures: run it, write it as SVG, PNG or CSV, and
    /// say whether our numbers agree with the paper's claim (`--list` names the figures).
    #[command(after_help = warpscope::figures::VERDICT_RULES)]
    Figure(figure::FigureCmd),
    /// Simulate one job of a plan (`--plan DIR`) and write its report to DIR/out/RUN_ID.json.
    ///
    /// The report is written whole or not at all, and a failure is written to DIR/out/RUN_ID.err
    /// instead. A job whose report is there already is skipped, so a plan can be submitted again.
    /// Exits 0 when the report is there, 1 on bad input, 3 when the simulation stopped.
    Job(job::JobCmd),
    /// Print a plan's table, CSV or figure from its jobs' reports, and list the jobs without one.
    ///
    /// The output is the planned command's own (the same bytes as running it in one process).
    /// The jobs without a report are listed on stderr by id with the reason: not run yet, started
    /// and never finished (killed, crashed or still running), or failed with its error. Collect
    /// as often as you like. Exits 0 when every run has its report, 4 when some have none, 1 on
    /// bad input.
    Collect(collect::CollectCmd),
    /// Accel-Sim traces: `trace export` writes a built-in kernel as one (`run --trace` replays).
    #[command(subcommand)]
    Trace(trace_cmd::TraceCmd),
    /// Measure simulation speed on a fixed set of runs.
    Bench {
        /// Repetitions per run; the fastest is reported.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn dispatch(cmd: Command) -> Result<ExitCode, Failure> {
    match cmd {
        Command::Run {
            mut machine,
            kernel,
            size,
            seed,
            trace,
            kernels,
            profile_trace,
            max_cycles,
            sample,
            check,
            check_against,
            format,
            quiet,
        } => {
            if let Some(n) = sample {
                machine.base.sets.push(format!("sample.windows={n}"));
            }
            let cfg = resolve(&machine)?;
            let work = trace_cmd::Workload::new(kernel, size, seed, trace, kernels.as_deref(), profile_trace)?;
            let mut sim = work.simulator(cfg)?;
            interrupt::install();
            if !sim.config().sample.is_off() {
                let full = match (check, check_against) {
                    (_, Some(path)) => sampled::Full::Recorded(path),
                    (true, None) => sampled::Full::Run,
                    (false, None) => sampled::Full::None,
                };
                return sampled::run(sim, &work, full, format, quiet);
            }
            let kernel = work.label();
            let tracker = progress::Tracker::new(format!("run {kernel}"), 1, quiet);
            let finished = simulate::chunks(&mut sim, max_cycles, tracker.start(kernel.clone()));
            tracker.finish();
            if let Some(e) = trace_cmd::read_error(&sim) {
                return Err(e);
            }
            let report = build_report(&sim);
            match (format, finished) {
                (Format::Json, true) => {
                    outln!("{}", serde_json::to_string_pretty(&report).expect("reports serialize"))
                }
                (Format::Json, false) => {
                    let mut doc = serde_json::to_value(&report).expect("reports serialize");
                    doc["interrupted"] = Value::Bool(true);
                    outln!("{}", serde_json::to_string_pretty(&doc).expect("reports serialize"))
                }
                (Format::Text, true) => out!("{}", render_text(&report)),
                (Format::Text, false) => out!("{}", interrupted_text(&render_text(&report))),
            }
            if let Some(e) = sim.error() {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(3));
            }
            if !finished {
                return Ok(interrupt::unfinished(&[format!("{kernel} (its report covers {} cycles)", report.cycles)]));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Config { machine } => {
            let cfg = resolve(&machine)?;
            outln!("{}", serde_json::to_string_pretty(&cfg).expect("configs serialize"));
            Ok(ExitCode::SUCCESS)
        }
        Command::List { what } => {
            listing::list(what);
            Ok(ExitCode::SUCCESS)
        }
        Command::Inspect { kernel, size, seed, format } => {
            let bench = warpscope::kernels::build(&kernel, size, seed).map_err(|e| kernel_flag(e.into()))?;
            let launches = warpscope::kernels::inspect::summarize(&bench);
            match format {
                Format::Json => outln!("{}", serde_json::to_string_pretty(&launches).expect("summaries serialize")),
                Format::Text => listing::print_inspection(&bench.name, &launches),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Plot { chart, out, width, height, csv, reports } => {
            plot_cmd::plot_reports(&chart, &out, (width, height), csv, &reports)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Cache(c) => {
            outln!("{}", c.run()?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Classify(c) => {
            out!("{}", c.run()?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Sweep(c) => {
            interrupt::install();
            Ok(print_output(c.run()?))
        }
        Command::Compare { mut base, size, cmd } => {
            if let Some(n) = cmd.sample {
                if base.sets.iter().any(|s| s.trim_start().starts_with("sample.windows")) {
                    let msg = "--sample sets sample.windows, which --set also gives; give the windows one way";
                    return Err(ConfigError::new("--sample", msg).into());
                }
                base.sets.insert(0, format!("sample.windows={n}"));
            }
            let resolve = |bundle: &str, set: &str| {
                let mut base = base.clone();
                base.sets.extend((!set.is_empty()).then(|| set.to_string()));
                resolve_with(&base, Some(bundle))
            };
            interrupt::install();
            Ok(print_output(cmd.run(size, resolve)?))
        }
        Command::Dram { machine, dram } => {
            let doc = resolve_doc(&machine.base, machine.policy.as_deref())?;
            outln!("{}", dram.run(parse_dram_config_value(doc)?)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Figure(c) => {
            interrupt::install();
            Ok(print_output(c.run()?))
        }
        Command::Job(c) => c.run(),
        Command::Collect(c) => c.run(),
        Command::Trace(c) => {
            trace_cmd::run(c)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench { repeat } => {
            bench::bench(repeat)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints what a command of many runs finished; after Ctrl-C, names the runs it left.
fn print_output(o: interrupt::Printout) -> ExitCode {
    out!("{}", o.text);
    if o.unfinished.is_empty() {
        ExitCode::SUCCESS
    } else {
        interrupt::unfinished(&o.unfinished)
    }
}

/// A text report of a run stopped by Ctrl-C: its status line says so instead of blaming
/// `--max-cycles`, the only other way a run ends early without an error.
fn interrupted_text(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("status ") {
                "status      interrupted by Ctrl-C\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect()
}

/// The library names a bad kernel `kernel` (the page's field); here it is the `--kernel` flag.
fn kernel_flag(mut e: ConfigErrors) -> ConfigErrors {
    for err in e.0.iter_mut().filter(|err| err.field == "kernel") {
        err.field = "--kernel".into();
    }
    e
}

fn resolve(m: &MachineArgs) -> Result<Config, ConfigErrors> {
    resolve_with(&m.base, m.policy.as_deref())
}

/// `--chart`'s help, listing the charts from the list the code draws.
fn chart_help() -> String {
    let names: Vec<&str> = Chart::ALL.iter().map(|c| c.name()).collect();
    format!("A chart ({}) or `all`", names.join(", "))
}

/// A `--jobs` count: zero is a parse error rather than quietly one thread.
fn jobs_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..)
}

/// The built-in kernels' names, for checking names before any run.
fn kernel_names() -> Vec<&'static str> {
    KERNELS.iter().map(|(name, _)| *name).collect()
}

/// Rows as text columns, each padded to its widest cell (in characters), two spaces apart.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..n).map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
            cells.join("  ").trim_end().to_string() + "\n"
        })
        .collect()
}
