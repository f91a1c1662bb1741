//! `warpscope compare`: runs every kernel under a baseline and several policy bundles and
//! prints each run's IPC speedup over the baseline, with the harmonic mean per bundle
//! (MeDiC's metric), then the L2 miss rate and L2 queuing latency of every run.

use super::parallel;
use std::path::PathBuf;
use warpscope::config::ConfigError;
use warpscope::kernels::Size;
use warpscope::stats::Report;
use warpscope::{Config, ConfigErrors};

#[derive(clap::Args)]
pub struct CompareCmd {
    /// Bundle the speedups are over (`baseline` is the preset as it is).
    #[arg(long, default_value = "baseline")]
    pub baseline: String,
    /// Comma-separated policy bundles (see `warpscope list bundles`).
    #[arg(long, value_delimiter = ',', required = true)]
    pub policies: Vec<String>,
    /// Comma-separated built-in kernels.
    #[arg(long, value_delimiter = ',', required = true)]
    pub kernels: Vec<String>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Runs simulated at once (each on its own thread).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Also write every run's numbers as CSV to this file.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// One finished run's numbers.
#[derive(Debug, Clone)]
struct Row {
    ipc: f64,
    cycles: u64,
    completed: bool,
    l2_miss_rate: f64,
    queue_latency: f64,
    row_hit_rate: f64,
    bypassed: u64,
}

impl Row {
    fn of(r: &Report) -> Self {
        Self {
            ipc: r.ipc,
            cycles: r.cycles,
            completed: r.completed,
            l2_miss_rate: r.l2.miss_rate,
            queue_latency: r.l2.avg_queue_latency,
            row_hit_rate: r.dram.row_buffer_hit_rate,
            bypassed: r.l2.bypassed,
        }
    }
}

/// Harmonic mean of positive values (0 when any is not positive).
pub fn harmonic_mean(xs: &[f64]) -> f64 {
    if xs.is_empty() || xs.iter().any(|&x| x <= 0.0 || !x.is_finite()) {
        return 0.0;
    }
    xs.len() as f64 / xs.iter().map(|x| 1.0 / x).sum::<f64>()
}

impl CompareCmd {
    /// `resolve(bundle)` gives the machine of one bundle; returns the text to print.
    pub fn run(
        &self,
        size: Size,
        resolve: impl Fn(&str) -> Result<Config, ConfigErrors>,
    ) -> Result<String, ConfigErrors> {
        let mut bundles = vec![self.baseline.clone()];
        bundles.extend(self.policies.iter().filter(|p| **p != self.baseline).cloned());
        let configs = bundles.iter().map(|b| resolve(b)).collect::<Result<Vec<_>, _>>()?;
        let mut jobs = Vec::new();
        for k in &self.kernels {
            for (b, cfg) in bundles.iter().zip(&configs) {
                jobs.push(Job { kernel: k.clone(), bundle: b.clone(), cfg: cfg.clone(), size, seed: self.seed });
            }
        }
        let rows = parallel::map(&jobs, self.jobs, |j| j.run().map(|row| (j.kernel.clone(), j.bundle.clone(), row)))
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let get = |k: &str, b: &str| rows.iter().find(|r| r.0 == k && r.1 == b).map(|r| &r.2).expect("every run done");
        let mut text = String::new();
        let width = bundles.iter().map(|b| b.len()).max().unwrap_or(8).max(9);
        let header = |title: &str| {
            let mut h = format!("{title:<16}");
            for b in &bundles {
                h += &format!(" {b:>width$}");
            }
            h + "\n"
        };
        text += &format!("IPC speedup over `{}` (its IPC in the first column)\n", self.baseline);
        text += &header("kernel");
        let mut speedups: Vec<Vec<f64>> = vec![Vec::new(); bundles.len()];
        for k in &self.kernels {
            let base = get(k, &self.baseline).ipc;
            text += &format!("{k:<16}");
            for (i, b) in bundles.iter().enumerate() {
                let r = get(k, b);
                let v = if i == 0 { r.ipc } else { speedup(r.ipc, base) };
                let mark = if r.completed { "" } else { "*" };
                text += &format!(" {:>width$}", format!("{v:.3}{mark}"));
                speedups[i].push(speedup(r.ipc, base));
            }
            text += "\n";
        }
        text += &format!("{:<16}", "hmean");
        for s in &speedups {
            text += &format!(" {:>width$.3}", harmonic_mean(s));
        }
        text += "\n";
        for (title, f) in [
            ("\nL2 miss rate\n", (|r: &Row| r.l2_miss_rate) as fn(&Row) -> f64),
            ("\nL2 queuing latency (L2 cycles, mean)\n", |r: &Row| r.queue_latency),
            ("\nDRAM row-buffer hit rate\n", |r: &Row| r.row_hit_rate),
        ] {
            text += title;
            text += &header("kernel");
            for k in &self.kernels {
                text += &format!("{k:<16}");
                for b in &bundles {
                    text += &format!(" {:>width$.3}", f(get(k, b)));
                }
                text += "\n";
            }
        }
        if rows.iter().any(|r| !r.2.completed) {
            text += "\n* the run did not complete\n";
        }
        if let Some(path) = &self.out {
            let mut csv = String::from(
                "kernel,policy,ipc,speedup,cycles,completed,l2_miss_rate,l2_avg_queue_latency,dram_row_buffer_hit_rate,l2_bypassed\n",
            );
            for (k, b, r) in &rows {
                let s = speedup(r.ipc, get(k, &self.baseline).ipc);
                csv += &format!(
                    "{k},{b},{},{s},{},{},{},{},{},{}\n",
                    r.ipc, r.cycles, r.completed, r.l2_miss_rate, r.queue_latency, r.row_hit_rate, r.bypassed
                );
            }
            std::fs::write(path, csv)
                .map_err(|e| ConfigError::new("--out", format!("cannot write {}: {e}", path.display())))?;
        }
        Ok(text)
    }
}

fn speedup(ipc: f64, base: f64) -> f64 {
    if base > 0.0 {
        ipc / base
    } else {
        0.0
    }
}

struct Job {
    kernel: String,
    bundle: String,
    cfg: Config,
    size: Size,
    seed: u64,
}

impl Job {
    fn run(&self) -> Result<Row, ConfigErrors> {
        let r = warpscope::run(self.cfg.clone(), &self.kernel, self.size, self.seed, None)?;
        match &r.error {
            Some(e) => Err(ConfigError::new("compare", format!("{} under {}: {e}", self.kernel, self.bundle)).into()),
            None => Ok(Row::of(&r)),
        }
    }
}
