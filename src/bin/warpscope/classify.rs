//! `warpscope classify`: the static half of coordinated bypassing on one benchmark —
//! each global load's profiled locality and the tag Algorithm 1 gives it.

use super::{resolve, size_parser, Format, MachineArgs};
use warpscope::sim::coordinated::{classify, Classification};
use warpscope::{ConfigErrors, Size};

#[derive(clap::Args)]
pub struct ClassifyCmd {
    #[command(flatten)]
    machine: MachineArgs,
    #[arg(long)]
    kernel: String,
    /// Input size of the profiling runs (default: the config's `coordinated.profile_size`).
    #[arg(long, value_parser = size_parser())]
    size: Option<Size>,
    /// Seed of the run the tags serve; the profile runs on seed + 1.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

impl ClassifyCmd {
    pub fn run(&self) -> Result<String, ConfigErrors> {
        let mut cfg = resolve(&self.machine)?;
        if let Some(size) = self.size {
            cfg.coordinated.profile_size = size;
        }
        let c = classify(&cfg, &self.kernel, self.seed)?;
        Ok(match self.format {
            Format::Json => serde_json::to_string_pretty(&c).expect("classifications serialize") + "\n",
            Format::Text => text(&c, cfg.coordinated.high_thres, cfg.coordinated.low_thres),
        })
    }
}

fn text(c: &Classification, high: f64, low: f64) -> String {
    let mut s = format!(
        "{}: {} global loads profiled at size {} (seed {}) in {} runs; ca at Hit >= {high} x access, cg at <= {low}\n",
        c.kernel,
        c.loads.len(),
        c.profile_size.as_str(),
        c.profile_seed,
        c.profiling_runs
    );
    s += &format!(
        "{:>4}  {:<14} {:<7} {:>5} {:>10} {:>10} {:>10} {:>6}  tag\n",
        "pc", "array", "where", "group", "access(i)", "hit(i)", "hit(g)", "Hit/acc"
    );
    for l in &c.loads {
        let place = match (l.in_loop, l.after_barrier) {
            (true, true) => "loop+b",
            (true, false) => "loop",
            (false, true) => "barrier",
            (false, false) => "-",
        };
        s += &format!(
            "{:>4}  {:<14} {:<7} {:>5} {:>10} {:>10} {:>10} {:>6.3}  {}\n",
            l.pc,
            l.array,
            place,
            l.group,
            l.accesses,
            l.hits,
            l.group_hits,
            l.hit_share,
            serde_json::to_value(l.tag).expect("ops serialize").as_str().unwrap_or_default()
        );
    }
    s
}
