//! The thread blocks of a kernel trace, read one at a time: `#BEGIN_TB`, `thread block =
//! x,y,z`, then per warp `warp = N`, `insts = M` and M instruction lines, then `#END_TB`.

use super::header::Header;
use super::inst::{parse_inst, Inst};
use super::packed::Packed;
use super::translate::{OpcodeTable, Translator};
use super::{Lines, TraceError};
use crate::kernels::WARP_SIZE;

pub struct Blocks {
    lines: Lines,
    grid: [u32; 3],
    warps: usize,
    version: u32,
    inst: Inst,
}

impl Blocks {
    /// Reads the blocks after `header` from `lines`.
    pub fn new(lines: Lines, header: &Header) -> Self {
        let warps = header.threads_per_cta().div_ceil(WARP_SIZE as u64) as usize;
        Self { lines, grid: header.grid, warps, version: header.version, inst: Inst::default() }
    }

    /// The next thread block's linear id and its warps' instructions (in `warps`, one packed
    /// list per warp of the CTA), or None at the end of the file.
    pub fn next(&mut self, table: &mut OpcodeTable, warps: &mut Vec<Packed>) -> Result<Option<u32>, TraceError> {
        loop {
            match self.lines.next_nonblank()? {
                None => return Ok(None),
                Some("#BEGIN_TB") => break,
                Some(l) if l.starts_with('#') => continue,
                Some(l) => {
                    let what = format!("expected #BEGIN_TB, found `{l}`");
                    return Err(self.lines.error(what));
                }
            }
        }
        warps.clear();
        warps.resize_with(self.warps, Packed::default);
        let mut seen = vec![false; self.warps];
        let mut id = None;
        loop {
            let Some(line) = self.lines.next_nonblank()? else {
                return Err(self.lines.error("the file ends inside a thread block (no #END_TB): is it truncated?"));
            };
            if line == "#END_TB" {
                break;
            }
            let line = line.to_string();
            if let Some(rest) = line.strip_prefix("thread block") {
                id = Some(self.block_id(rest).map_err(|e| self.lines.error(e))?);
            } else if let Some(rest) = line.strip_prefix("warp") {
                if id.is_none() {
                    return Err(self.lines.error("expected `thread block = x,y,z` before the first warp"));
                }
                let w = value(rest).filter(|&w| (w as usize) < self.warps).ok_or_else(|| {
                    self.lines.error(format!("expected `warp = N` with N below {}, found `{line}`", self.warps))
                })?;
                if std::mem::replace(&mut seen[w as usize], true) {
                    return Err(self.lines.error(format!("warp {w} appears twice in this thread block")));
                }
                self.warp(table, &mut warps[w as usize])?;
            } else {
                let what = format!("expected `thread block = x,y,z`, `warp = N` or #END_TB, found `{line}`");
                return Err(self.lines.error(what));
            }
        }
        id.map(Some).ok_or_else(|| self.lines.error("a thread block without a `thread block = x,y,z` line"))
    }

    /// `insts = M` and the warp's M instruction lines.
    fn warp(&mut self, table: &mut OpcodeTable, out: &mut Packed) -> Result<(), TraceError> {
        let count = match self.lines.next_nonblank()? {
            Some(l) => l.strip_prefix("insts").and_then(value),
            None => None,
        };
        let count = count.ok_or_else(|| self.lines.error("expected `insts = M` after `warp = N`"))?;
        let mut regs = Translator::default();
        for i in 0..count {
            let Some(line) = self.lines.next_nonblank()? else {
                let what = format!("the file ends after {i} of the warp's {count} instructions: is it truncated?");
                return Err(self.lines.error(what));
            };
            if let Err(e) = parse_inst(line, self.version, &mut self.inst) {
                return Err(self.lines.error(e));
            }
            if let Some(instr) = regs.translate(&self.inst, table) {
                out.push(&instr);
            }
        }
        Ok(())
    }

    /// ` = x,y,z` as a linear CTA id (x fastest), within the grid.
    fn block_id(&self, rest: &str) -> Result<u32, String> {
        let bad =
            || format!("expected `thread block = x,y,z` within the grid {:?}, found `thread block{rest}`", self.grid);
        let coords = rest.trim().strip_prefix('=').ok_or_else(bad)?;
        let mut xyz = [0u32; 3];
        let mut parts = coords.split(',');
        for (d, g) in xyz.iter_mut().zip(self.grid) {
            *d = parts.next().and_then(|p| p.trim().parse().ok()).filter(|&v| v < g).ok_or_else(bad)?;
        }
        if parts.next().is_some() {
            return Err(bad());
        }
        let [gx, gy, _] = self.grid.map(u64::from);
        let [x, y, z] = xyz.map(u64::from);
        Ok((x + gx * (y + gy * z)) as u32)
    }
}

/// ` = N`.
fn value(rest: &str) -> Option<u32> {
    rest.trim().strip_prefix('=')?.trim().parse().ok()
}
