//! The coalescer: a warp's lane addresses become one request per distinct line.

use crate::kernels::{MemInstr, WARP_SIZE};

/// Sector granularity of the bytes a store moves.
const SECTOR: u32 = 32;

/// The line requests of one warp memory instruction, in order of first lane.
#[derive(Debug, Clone)]
pub struct Coalesced {
    pub len: usize,
    /// Line-aligned byte addresses.
    pub lines: [u64; WARP_SIZE],
    /// Bytes the lanes touch in each line, rounded up to whole 32 B sectors.
    pub bytes: [u32; WARP_SIZE],
}

impl Default for Coalesced {
    fn default() -> Self {
        Self { len: 0, lines: [0; WARP_SIZE], bytes: [0; WARP_SIZE] }
    }
}

impl Coalesced {
    pub fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.lines[..self.len].iter().copied().zip(self.bytes[..self.len].iter().copied())
    }
}

/// Groups the active lanes of `instr` by `line_bytes`-sized line (a power of two).
pub fn coalesce(instr: &MemInstr, line_bytes: u32, out: &mut Coalesced) {
    let mask = !(line_bytes as u64 - 1);
    let mut sectors = [0u32; WARP_SIZE];
    out.len = 0;
    for lane in 0..WARP_SIZE {
        if instr.mask & (1 << lane) == 0 {
            continue;
        }
        let addr = instr.addrs[lane];
        let line = addr & mask;
        let sector = 1u32 << (((addr - line) / SECTOR as u64) as u32 & 31);
        // Lanes mostly walk lines in order, so the newest line is tried first.
        let newest = out.len.checked_sub(1).filter(|&i| out.lines[i] == line);
        match newest.or_else(|| out.lines[..out.len].iter().position(|&l| l == line)) {
            Some(i) => sectors[i] |= sector,
            None => {
                out.lines[out.len] = line;
                sectors[out.len] = sector;
                out.len += 1;
            }
        }
    }
    for (bytes, sectors) in out.bytes.iter_mut().zip(&sectors).take(out.len) {
        *bytes = (sectors.count_ones() * SECTOR).min(line_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::{AccessKind, CacheOp};

    fn instr(f: impl Fn(usize) -> u64, mask: u32) -> MemInstr {
        let mut addrs = [0; WARP_SIZE];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = f(l);
        }
        MemInstr { pc: 0, kind: AccessKind::Read, op: CacheOp::Ca, width: 4, mask, addrs, dst: 1, srcs: 0 }
    }

    #[test]
    fn consecutive_floats_make_one_line() {
        let mut c = Coalesced::default();
        coalesce(&instr(|l| 0x1000 + 4 * l as u64, u32::MAX), 128, &mut c);
        assert_eq!(c.len, 1);
        assert_eq!((c.lines[0], c.bytes[0]), (0x1000, 128));
    }

    #[test]
    fn misaligned_run_spans_two_lines() {
        let mut c = Coalesced::default();
        coalesce(&instr(|l| 0x1040 + 4 * l as u64, u32::MAX), 128, &mut c);
        assert_eq!(&c.lines[..c.len], &[0x1000, 0x1080]);
        assert_eq!(&c.bytes[..c.len], &[64, 64]);
    }

    #[test]
    fn row_stride_makes_one_line_per_lane_and_masked_lanes_are_skipped() {
        let mut c = Coalesced::default();
        coalesce(&instr(|l| 0x10000 + 8192 * l as u64, 0x0000_FFFF), 128, &mut c);
        assert_eq!(c.len, 16);
        assert!(c.bytes[..c.len].iter().all(|&b| b == 32));
    }

    #[test]
    fn broadcast_is_one_request() {
        let mut c = Coalesced::default();
        coalesce(&instr(|_| 0x2004, u32::MAX), 128, &mut c);
        assert_eq!(c.len, 1);
    }
}
