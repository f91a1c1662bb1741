//! The header of a `kernel-N.traceg` file: the `-key = value` lines before the first
//! thread block, of which the launch geometry and the tracer version matter here.

use super::{Lines, TraceError};

/// Tracer versions whose instruction lines this reader knows. Before version 3 each line
/// starts with its thread block and warp ids; from 3 on the `#BEGIN_TB` structure says them.
pub const VERSIONS: std::ops::RangeInclusive<u32> = 1..=3;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic plus static shared memory per CTA, bytes (reported, not modelled).
    pub shmem: u32,
    pub nregs: u32,
    pub version: u32,
}

impl Header {
    pub fn ctas(&self) -> u64 {
        self.grid.iter().map(|&d| d as u64).product()
    }

    pub fn threads_per_cta(&self) -> u64 {
        self.block.iter().map(|&d| d as u64).product()
    }
}

/// Reads header lines up to the first line that is not one (left for the block reader).
pub fn parse_header(lines: &mut Lines) -> Result<Header, TraceError> {
    let (mut name, mut grid, mut block, mut version) = (None, None, None, None);
    let (mut shmem, mut nregs) = (0, 0);
    while let Some(line) = lines.next_nonblank()? {
        let line = line.to_string();
        let Some(entry) = line.strip_prefix('-') else {
            lines.hold();
            break;
        };
        let Some((key, value)) = entry.split_once('=') else {
            return Err(lines.error(format!("expected a header line `-key = value`, found `{line}`")));
        };
        let (key, value) = (key.trim(), value.trim());
        let number =
            |what: &str| value.parse::<u32>().map_err(|_| format!("expected {what} = <number>, found `{line}`"));
        let parsed = match key {
            "kernel name" => {
                name = Some(value.to_string());
                Ok(())
            }
            "grid dim" => {
                dims(value).map(|d| grid = Some(d)).ok_or(format!("expected -grid dim = (x,y,z), found `{line}`"))
            }
            "block dim" => {
                dims(value).map(|d| block = Some(d)).ok_or(format!("expected -block dim = (x,y,z), found `{line}`"))
            }
            "shmem" => number("-shmem").map(|n| shmem = n),
            "nregs" => number("-nregs").map(|n| nregs = n),
            "accelsim tracer version" => number("-accelsim tracer version").map(|n| version = Some(n)),
            _ => Ok(()),
        };
        parsed.map_err(|what| lines.error(what))?;
    }
    let missing = |what: &str| TraceError::in_file(lines.file(), format!("the header has no `-{what}` line"));
    let header = Header {
        name: name.ok_or_else(|| missing("kernel name"))?,
        grid: grid.ok_or_else(|| missing("grid dim"))?,
        block: block.ok_or_else(|| missing("block dim"))?,
        shmem,
        nregs,
        version: version.ok_or_else(|| missing("accelsim tracer version"))?,
    };
    if !VERSIONS.contains(&header.version) {
        let what = format!(
            "unknown accelsim tracer version {} (this reader knows versions {} to {})",
            header.version,
            VERSIONS.start(),
            VERSIONS.end()
        );
        return Err(TraceError::in_file(lines.file(), what));
    }
    if header.ctas() == 0 || header.ctas() > u32::MAX as u64 {
        return Err(TraceError::in_file(
            lines.file(),
            format!("grid dim {:?} has no thread blocks or too many", header.grid),
        ));
    }
    if header.threads_per_cta() == 0 || header.threads_per_cta() > 1 << 16 {
        return Err(TraceError::in_file(lines.file(), format!("block dim {:?} is not a valid block", header.block)));
    }
    Ok(header)
}

/// `(x,y,z)`.
fn dims(value: &str) -> Option<[u32; 3]> {
    let inner = value.strip_prefix('(')?.strip_suffix(')')?;
    let mut out = [0; 3];
    let mut parts = inner.split(',');
    for d in &mut out {
        *d = parts.next()?.trim().parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}
