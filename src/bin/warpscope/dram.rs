//! `warpscope dram`: a request trace through the GDDR5 channels alone (the library's
//! `dram::trace` does the work; this is its command line).

use std::path::PathBuf;
use warpscope::config::{Config, DramSchedulerKind};
use warpscope::dram::trace::{parse_trace, run_trace};
use warpscope::dram::AddressMap;
use warpscope::{ConfigError, ConfigErrors};

#[derive(clap::Args)]
pub struct DramCmd {
    /// `<cycle> <R|W> <address>` or `<address> <READ|WRITE> <cycle>` per line, in cycle order;
    /// an address is hex with 0x or decimal; `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    pub trace: PathBuf,
    /// Transaction scheduler (overrides `dram.scheduler`; see `warpscope list policies`).
    #[arg(long, value_name = "NAME")]
    pub scheduler: Option<String>,
}

impl DramCmd {
    /// The report as pretty JSON.
    pub fn run(&self, mut cfg: Config) -> Result<String, ConfigErrors> {
        if let Some(name) = &self.scheduler {
            cfg.dram.scheduler = DramSchedulerKind::parse(name).ok_or_else(|| {
                let valid = DramSchedulerKind::NAMES.join(", ");
                ConfigError::new("--scheduler", format!("unknown scheduler `{name}`; valid schedulers are: {valid}"))
            })?;
        }
        let trace_err = |msg: String| ConfigError::new("--trace", msg);
        let text = super::read_input(&self.trace).map_err(trace_err)?;
        let trace = parse_trace(&text, &AddressMap::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes))
            .map_err(|e| trace_err(e.to_string()))?;
        Ok(serde_json::to_string_pretty(&run_trace(
            &cfg.mem,
            &cfg.dram,
            cfg.l2.line_bytes,
            cfg.clocks.dram_mhz,
            &trace,
        ))
        .expect("reports serialize"))
    }
}
