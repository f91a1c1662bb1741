//! `warpscope cache`: one cache on its own over an address trace (the library's
//! `cache::teach` does the work; this is its command line).

use std::path::PathBuf;
use warpscope::cache::teach::{parse_trace, simulate, CacheArgs};
use warpscope::{ConfigError, ConfigErrors};

#[derive(clap::Args)]
pub struct CacheCmd {
    /// Number of sets (a power of two; 1 = fully associative).
    #[arg(long)]
    sets: Option<u32>,
    /// Capacity in bytes: gives the set count when --sets is absent, must agree when present.
    #[arg(long, value_name = "BYTES")]
    size: Option<u64>,
    /// Associativity (1 = direct-mapped).
    #[arg(long)]
    ways: u32,
    /// Line (block) size in bytes.
    #[arg(long, value_name = "BYTES")]
    line: u32,
    /// linear, bxor, pmod, a_prime, d_prime, ipoly or fermi.
    #[arg(long, value_name = "NAME", default_value = "linear")]
    set_index: String,
    /// Replacement policy.
    #[arg(long, default_value = "lru")]
    policy: String,
    /// On a write miss: allocate (like a read miss) or no-allocate.
    #[arg(long, default_value = "allocate")]
    write: String,
    /// One access per line, `[R|W] ADDRESS` (hex 0x... or decimal), `#` comments; `-` reads stdin.
    #[arg(long, value_name = "FILE")]
    trace: PathBuf,
}

impl CacheCmd {
    /// The report as pretty JSON.
    pub fn run(&self) -> Result<String, ConfigErrors> {
        let spec = CacheArgs {
            sets: self.sets,
            size: self.size,
            ways: self.ways,
            line: self.line,
            set_index: &self.set_index,
            policy: &self.policy,
            write: &self.write,
        }
        .spec()
        .map_err(|e| self.blame_size(e))?;
        let trace_err = |msg: String| ConfigError::new("--trace", msg);
        let text = super::read_input(&self.trace).map_err(trace_err)?;
        let accesses = parse_trace(&text).map_err(|e| trace_err(e.to_string()))?;
        Ok(serde_json::to_string_pretty(&simulate(&spec, &accesses)).expect("reports serialize"))
    }

    /// Without `--sets` the set count comes from `--size`, so a bad count is that flag's fault.
    fn blame_size(&self, e: ConfigError) -> ConfigError {
        match self.size {
            Some(size) if self.sets.is_none() && e.field == "--sets" => ConfigError::new(
                "--size",
                format!("{size} B over {} ways x {} B lines: {}", self.ways, self.line, e.message),
            ),
            _ => e,
        }
    }
}
