//! PolyBench/GPU `syrk` (C = α·A·Aᵀ + β·C) with A N x M and C N x N, one kernel on a
//! 2D grid of 32 x 8 blocks.
//!
//! Thread (row i = y, column j = x) runs `C[i*N + j] *= β` and then
//! `C[i*N + j] += α * A[i*M + k] * A[j*M + k]` over k. A warp is one block row: i is
//! fixed, so `A[i*M + k]` is one address per warp, while `A[j*M + k]` walks 32
//! different rows (32 lines per warp-load); C is read and written coalesced.
//!
//! Sizes (N, M; total warp-instructions): tiny 64, 16 (~6.8k), small 256, 64 (~401k),
//! paper 512, 512 (~12.6M).

use super::addr::AddrSpace;
use super::builder::{alu, in_grid, lanes_below, phase, tail, Access, Phase, R0, R1, R6, WORD};
use super::{Grid, Instr, Kernel, Size, StaticLoad, WARP_SIZE};

const BLOCK_X: u32 = 32;
const BLOCK_Y: u32 = 8;
const CHUNK: u32 = 4;
const LD_C: Access = Access::load(1, R6);
const LD_AI: Access = Access::load(2, R0);
const LD_AJ: Access = Access::load(3, R1);
const ST_C: Access = Access::store(4);

/// (N, M): C is N x N, A is N x M.
pub fn dims(size: Size) -> (u32, u32) {
    match size {
        Size::Tiny => (64, 16),
        Size::Small => (256, 64),
        Size::Paper => (512, 512),
    }
}

struct Syrk {
    n: u32,
    m: u32,
    a: u64,
    c: u64,
}

impl Syrk {
    fn blocks_x(&self) -> u32 {
        self.n.div_ceil(BLOCK_X)
    }
}

impl Kernel for Syrk {
    fn name(&self) -> String {
        "syrk".into()
    }

    fn grid(&self) -> Grid {
        let ctas = self.blocks_x() * self.n.div_ceil(BLOCK_Y);
        Grid { ctas, threads_per_cta: BLOCK_X * BLOCK_Y }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_C.info("C", false, false),
            LD_AI.info("A", true, false),
            LD_AJ.info("A", true, false),
            ST_C.info("C", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let (n, m) = (self.n as u64, self.m as u64);
        let i = ((cta / self.blocks_x()) * BLOCK_Y + warp) as u64;
        let j0 = ((cta % self.blocks_x()) * BLOCK_X) as u64;
        let mask = if i < n { lanes_below(j0, n) } else { 0 };
        let trips = if mask == 0 { 0 } else { self.m };
        let c_addr = |l: usize| self.c + WORD * (i * n + j0 + l as u64);
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                LD_C.emit(out, mask, c_addr);
                if mask != 0 {
                    alu(out, 1, R6);
                }
                true
            }
            Phase::Loop { from, to, .. } => {
                for k in from as u64..to as u64 {
                    LD_AI.emit(out, mask, |_| self.a + WORD * (i * m + k));
                    LD_AJ.emit(out, mask, |l| self.a + WORD * ((j0 + l as u64) * m + k));
                    alu(out, 1, R0 | R1);
                }
                true
            }
            Phase::Tail => tail(out, |out| ST_C.emit(out, mask, c_addr)),
            Phase::Done => false,
        }
    }
}

const _: () = assert!(BLOCK_X as usize == WARP_SIZE);

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let (n, m) = dims(size);
    let a = mem.alloc("A", 4 * n as u64 * m as u64);
    let c = mem.alloc("C", 4 * n as u64 * n as u64);
    vec![Box::new(Syrk { n, m, a, c })]
}
