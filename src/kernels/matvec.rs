//! The shape shared by PolyBench/GPU's matrix-vector kernels (atax, bicg, mvt,
//! gesummv): a 1D grid of 256-thread blocks, thread `t` loads its accumulators, runs
//! a loop over `k` reading a few row-major operands whose element index is linear in
//! `t` and `k`, and stores its results once.
//!
//! Accumulators are kept in registers as if the pointers were `__restrict__`, so each
//! iteration costs only the operand loads and the multiply-adds: the traffic the
//! papers' divergence analyses are about.

use super::builder::{alu, first_thread, in_grid, lanes_below, phase, tail, Access, Phase};
use super::builder::{R0, R1, R2, R3, R6, R7, WORD};
use super::{Grid, Instr, Kernel, RegMask, Size, StaticLoad};

/// Matrix order N of the PolyBench mat-vec kernels (atax, bicg, gesummv, mvt) at each size.
pub fn order(size: Size) -> u32 {
    match size {
        Size::Tiny => 192,
        Size::Small => 1024,
        Size::Paper => 8192,
    }
}

/// Threads per block (`DIM_THREAD_BLOCK_X` in PolyBench/GPU).
pub const BLOCK: u32 = 256;
/// Loop iterations per emitted chunk.
const CHUNK: u32 = 4;
const HEAD_REGS: [RegMask; 2] = [R6, R7];
const BODY_REGS: [RegMask; 4] = [R0, R1, R2, R3];

/// One array access: element `t_coef * t + k_coef * k` of `array` for thread `t` in
/// iteration `k` (`A[i*N + j]` with thread i is `(N, 1)`, with thread j `(1, N)`).
#[derive(Debug, Clone, Copy)]
pub struct Operand {
    pub pc: u32,
    pub array: &'static str,
    pub base: u64,
    pub t_coef: u64,
    pub k_coef: u64,
}

impl Operand {
    #[inline]
    fn addr(&self, t: u64, k: u64) -> u64 {
        self.base + WORD * (self.t_coef * t + self.k_coef * k)
    }
}

/// One matrix-vector launch.
#[derive(Debug, Clone)]
pub struct MatVec {
    pub name: &'static str,
    /// Threads doing work (the bounds check `t < threads`).
    pub threads: u32,
    pub trips: u32,
    /// Accumulators loaded before the loop (at most 2).
    pub head: Vec<Operand>,
    /// Operands loaded every iteration (at most 4).
    pub body: Vec<Operand>,
    /// Multiply-adds per iteration.
    pub alus: u32,
    /// Results stored after the loop.
    pub tail: Vec<Operand>,
}

impl MatVec {
    fn head_regs(&self) -> RegMask {
        HEAD_REGS.iter().take(self.head.len()).fold(0, |m, r| m | r)
    }

    fn body_regs(&self) -> RegMask {
        BODY_REGS.iter().take(self.body.len()).fold(0, |m, r| m | r)
    }
}

impl Kernel for MatVec {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn grid(&self) -> Grid {
        Grid { ctas: self.threads.div_ceil(BLOCK), threads_per_cta: BLOCK }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        let heads = self.head.iter().zip(HEAD_REGS);
        let bodies = self.body.iter().zip(BODY_REGS);
        let mut v: Vec<StaticLoad> = heads.map(|(o, r)| Access::load(o.pc, r).info(o.array, false, false)).collect();
        v.extend(bodies.map(|(o, r)| Access::load(o.pc, r).info(o.array, true, false)));
        v.extend(self.tail.iter().map(|o| Access::store(o.pc).info(o.array, false, false)));
        v
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let first = first_thread(cta, warp, BLOCK);
        let mask = lanes_below(first, self.threads as u64);
        let trips = if mask == 0 { 0 } else { self.trips };
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                for (o, r) in self.head.iter().zip(HEAD_REGS) {
                    Access::load(o.pc, r).emit(out, mask, |l| o.addr(first + l as u64, 0));
                }
                true
            }
            Phase::Loop { from, to, .. } => {
                let srcs = self.body_regs() | self.head_regs();
                for k in from as u64..to as u64 {
                    for (o, r) in self.body.iter().zip(BODY_REGS) {
                        Access::load(o.pc, r).emit(out, mask, |l| o.addr(first + l as u64, k));
                    }
                    alu(out, self.alus, srcs);
                }
                true
            }
            Phase::Tail => tail(out, |out| {
                for o in &self.tail {
                    Access::store(o.pc).emit(out, mask, |l| o.addr(first + l as u64, 0));
                }
            }),
            Phase::Done => false,
        }
    }
}

/// `base[t]`: a per-thread vector element.
pub fn per_thread(pc: u32, array: &'static str, base: u64) -> Operand {
    Operand { pc, array, base, t_coef: 1, k_coef: 0 }
}

/// `base[k]`: the same vector element for every lane.
pub fn per_iter(pc: u32, array: &'static str, base: u64) -> Operand {
    Operand { pc, array, base, t_coef: 0, k_coef: 1 }
}

/// `base[t*n + k]`: each lane walks its own row (32 lines per warp-load).
pub fn row_walk(pc: u32, array: &'static str, base: u64, n: u32) -> Operand {
    Operand { pc, array, base, t_coef: n as u64, k_coef: 1 }
}

/// `base[k*n + t]`: the warp reads consecutive elements of row k (coalesced).
pub fn col_walk(pc: u32, array: &'static str, base: u64, n: u32) -> Operand {
    Operand { pc, array, base, t_coef: 1, k_coef: n as u64 }
}
