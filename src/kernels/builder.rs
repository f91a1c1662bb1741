//! Shared pieces of every built-in kernel: building a warp memory instruction from a
//! per-lane address closure, lane masks, and splitting a warp's program into lazily
//! emitted chunks (head, bounded groups of loop iterations, tail).

use super::{Grid, Instr, MemInstr, RegMask, StaticLoad, WARP_SIZE};
use crate::mem::{AccessKind, CacheOp};

pub const R0: RegMask = 1 << 0;
pub const R1: RegMask = 1 << 1;
pub const R2: RegMask = 1 << 2;
pub const R3: RegMask = 1 << 3;
pub const R4: RegMask = 1 << 4;
pub const R5: RegMask = 1 << 5;
pub const R6: RegMask = 1 << 6;
pub const R7: RegMask = 1 << 7;

/// Bytes of a `float` or `int` element.
pub const WORD: u64 = 4;

/// A static memory instruction: everything but the lane addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    pub pc: u32,
    pub kind: AccessKind,
    pub width: u8,
    pub dst: RegMask,
    pub srcs: RegMask,
}

impl Access {
    /// A 4-byte `ca` load writing register `dst`.
    pub const fn load(pc: u32, dst: RegMask) -> Self {
        Self { pc, kind: AccessKind::Read, width: 4, dst, srcs: 0 }
    }

    /// A 4-byte `ca` store.
    pub const fn store(pc: u32) -> Self {
        Self { pc, kind: AccessKind::Write, width: 4, dst: 0, srcs: 0 }
    }

    pub const fn width(self, width: u8) -> Self {
        Self { width, ..self }
    }

    /// The registers its address depends on (a gather through a loaded index).
    pub const fn after(self, srcs: RegMask) -> Self {
        Self { srcs, ..self }
    }

    /// Appends the instruction for the lanes in `mask`; a warp with no active lane
    /// branches around it, so nothing is appended.
    #[inline]
    pub fn emit(self, out: &mut Vec<Instr>, mask: u32, mut addr: impl FnMut(usize) -> u64) {
        if mask == 0 {
            return;
        }
        let mut addrs = [0u64; WARP_SIZE];
        let mut m = mask;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            addrs[lane] = addr(lane);
            m &= m - 1;
        }
        out.push(Instr::Mem(Box::new(MemInstr {
            pc: self.pc,
            kind: self.kind,
            op: CacheOp::Ca,
            width: self.width,
            mask,
            addrs,
            dst: self.dst,
            srcs: self.srcs,
        })));
    }

    /// Its entry in a launch's `static_loads()`.
    pub fn info(self, array: &'static str, in_loop: bool, after_barrier: bool) -> StaticLoad {
        StaticLoad { pc: self.pc, array, kind: self.kind, op: CacheOp::Ca, in_loop, after_barrier }
    }
}

/// Appends `n` arithmetic (or shared-memory) instructions waiting on `srcs`.
#[inline]
pub fn alu(out: &mut Vec<Instr>, n: u32, srcs: RegMask) {
    for _ in 0..n {
        out.push(Instr::Alu { srcs });
    }
}

/// Lanes `l` whose thread `first + l` is below `n` (the kernel's bounds check).
#[inline]
pub fn lanes_below(first: u64, n: u64) -> u32 {
    match n.saturating_sub(first) {
        0 => 0,
        c if c >= WARP_SIZE as u64 => u32::MAX,
        c => (1u32 << c) - 1,
    }
}

/// The lanes of `mask` for which `keep` holds.
#[inline]
pub fn lanes_where(mask: u32, mut keep: impl FnMut(usize) -> bool) -> u32 {
    let mut out = 0;
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros() as usize;
        if keep(lane) {
            out |= 1 << lane;
        }
        m &= m - 1;
    }
    out
}

/// The largest `f(lane)` over the lanes of `mask` (0 for an empty mask): a warp runs a
/// loop for its longest-running lane.
#[inline]
pub fn max_over(mask: u32, mut f: impl FnMut(usize) -> u32) -> u32 {
    let mut best = 0;
    let mut m = mask;
    while m != 0 {
        best = best.max(f(m.trailing_zeros() as usize));
        m &= m - 1;
    }
    best
}

/// Whether `(cta, warp)` names a warp of the grid; the SM never asks for others, but
/// answering "exited" keeps a stray call from reading past the data.
#[inline]
pub fn in_grid(grid: Grid, cta: u32, warp: u32) -> bool {
    cta < grid.ctas && warp < grid.warps_per_cta()
}

/// Global id of lane 0 of `warp` in `cta` for a 1D block of `threads_per_cta`.
#[inline]
pub fn first_thread(cta: u32, warp: u32, threads_per_cta: u32) -> u64 {
    cta as u64 * threads_per_cta as u64 + warp as u64 * WARP_SIZE as u64
}

/// Which part of a warp's program chunk `step` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Step 0: index arithmetic and the loads before the first loop.
    Head,
    /// Iterations `from..to` of loop `which`.
    Loop {
        which: usize,
        from: u32,
        to: u32,
    },
    /// The code after the last loop.
    Tail,
    Done,
}

/// Maps `step` onto a program of a head, the loops with `trips` iterations each (cut
/// into chunks of `per_chunk` iterations), and a tail.
pub fn phase(step: u32, trips: &[u32], per_chunk: u32) -> Phase {
    if step == 0 {
        return Phase::Head;
    }
    let per_chunk = per_chunk.max(1);
    let mut s = step - 1;
    for (which, &t) in trips.iter().enumerate() {
        let chunks = t.div_ceil(per_chunk);
        if s < chunks {
            let from = s * per_chunk;
            return Phase::Loop { which, from, to: (from + per_chunk).min(t) };
        }
        s -= chunks;
    }
    if s == 0 {
        Phase::Tail
    } else {
        Phase::Done
    }
}

/// Appends a tail's instructions with `f` and reports whether the warp was still
/// running (a tail with nothing to do means the warp has exited).
#[inline]
pub fn tail(out: &mut Vec<Instr>, f: impl FnOnce(&mut Vec<Instr>)) -> bool {
    let before = out.len();
    f(out);
    out.len() > before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_cover_head_loops_and_tail() {
        let got: Vec<Phase> = (0..7).map(|s| phase(s, &[5, 0, 2], 2)).collect();
        assert_eq!(
            got,
            vec![
                Phase::Head,
                Phase::Loop { which: 0, from: 0, to: 2 },
                Phase::Loop { which: 0, from: 2, to: 4 },
                Phase::Loop { which: 0, from: 4, to: 5 },
                Phase::Loop { which: 2, from: 0, to: 2 },
                Phase::Tail,
                Phase::Done,
            ]
        );
    }

    #[test]
    fn lane_masks() {
        assert_eq!(lanes_below(0, 100), u32::MAX);
        assert_eq!(lanes_below(96, 100), 0b1111);
        assert_eq!(lanes_below(128, 100), 0);
        assert_eq!(lanes_where(0b1111, |l| l % 2 == 0), 0b0101);
        assert_eq!(max_over(0b1010, |l| l as u32 * 10), 30);
        assert_eq!(max_over(0, |_| 7), 0);
    }

    #[test]
    fn emit_skips_empty_masks_and_fills_active_lanes() {
        let mut out = Vec::new();
        Access::load(1, R0).emit(&mut out, 0, |_| 0);
        assert!(out.is_empty());
        Access::store(2).width(1).emit(&mut out, 0b101, |l| 100 + l as u64);
        match &out[0] {
            Instr::Mem(m) => {
                assert_eq!((m.pc, m.width, m.mask), (2, 1, 0b101));
                assert_eq!((m.addrs[0], m.addrs[2]), (100, 102));
            }
            other => panic!("expected a memory instruction, got {other:?}"),
        }
    }
}
