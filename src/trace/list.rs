//! `kernelslist.g`: the trace's kernel files in launch order, with the host-to-device
//! copies between them (read and counted; the model starts every launch with cold caches
//! and has no host, so copies are not simulated).

use super::{Lines, TraceError};

/// One line of `kernelslist.g`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A kernel launch: the trace file's name, relative to the folder.
    Kernel(String),
    /// `MemcpyHtoD,0x<device address>,<bytes>`: the bytes copied.
    Memcpy { bytes: u64 },
}

/// Reads every line of a kernel list.
pub fn parse_list(lines: &mut Lines) -> Result<Vec<Command>, TraceError> {
    let mut out = Vec::new();
    while let Some(line) = lines.next_nonblank()? {
        let line = line.to_string();
        if line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("Memcpy") {
            let command = memcpy(rest)
                .ok_or_else(|| lines.error(format!("expected `MemcpyHtoD,0x<address>,<bytes>`, found `{line}`")))?;
            out.push(command);
        } else if line.starts_with("kernel") && !line.contains(char::is_whitespace) {
            out.push(Command::Kernel(line));
        } else {
            return Err(lines.error(format!(
                "expected a kernel trace file name (kernel-N.traceg) or a MemcpyHtoD line, found `{line}`"
            )));
        }
    }
    Ok(out)
}

fn memcpy(rest: &str) -> Option<Command> {
    let mut parts = rest.split(',');
    let _direction = parts.next()?;
    let addr = parts.next()?.trim();
    u64::from_str_radix(addr.strip_prefix("0x").unwrap_or(addr), 16).ok()?;
    let bytes = parts.next()?.trim().parse().ok()?;
    parts.next().is_none().then_some(Command::Memcpy { bytes })
}

/// Kernel numbers chosen with `--kernels 1,3-5` (1-based positions among the list's
/// kernel lines), as a predicate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection(Vec<(u32, u32)>);

impl Selection {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = |part: &str| format!("`{part}` is not a kernel number or range (e.g. 1,3-5)");
        let mut ranges = Vec::new();
        for part in text.split(',').map(str::trim) {
            let num = |s: &str| s.trim().parse::<u32>().ok().filter(|&n| n > 0);
            let range = match part.split_once('-') {
                Some((a, b)) => num(a).zip(num(b)).filter(|(a, b)| a <= b),
                None => num(part).map(|n| (n, n)),
            };
            ranges.push(range.ok_or_else(|| bad(part))?);
        }
        Ok(Self(ranges))
    }

    pub fn contains(&self, n: u32) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&n))
    }

    /// The largest number named, to say when it is past the list's end.
    pub fn max(&self) -> u32 {
        self.0.iter().map(|r| r.1).max().unwrap_or(0)
    }
}
