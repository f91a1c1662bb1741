//! Scalar CSR sparse matrix-vector product (SHOC `spmv_csr_scalar_kernel`, the
//! Parboil CSR baseline) on a square R-MAT sparsity pattern.
//!
//! Thread per row: `t = 0; for k in rowptr[i]..rowptr[i+1] { t += val[k] * x[col[k]] };
//! y[i] = t`. Rows of a warp have power-law lengths, so the warp runs for its longest
//! row with lanes masked off as theirs end; `val` and `col` are read at 32 unrelated
//! offsets and `x[col[k]]` is a data-dependent gather. Blocks have 128 threads.
//!
//! Sizes (rows = 2^scale, sampled nonzeros per row; total warp-instructions):
//! tiny 2^11, 2 (~6.0k), small 2^16, 4 (~534k), paper 2^20, 8 (~20.3M).

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, lanes_where, max_over, phase};
use super::builder::{tail, Access, Phase, R0, R1, R2, R3, R4, WORD};
use super::graph::{rmat, Csr};
use super::{Grid, Instr, Kernel, Size, StaticLoad};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const BLOCK: u32 = 128;
const CHUNK: u32 = 4;
const LD_START: Access = Access::load(1, R0);
const LD_END: Access = Access::load(2, R1);
const LD_VAL: Access = Access::load(3, R2);
const LD_COL: Access = Access::load(4, R3);
const LD_X: Access = Access::load(5, R4).after(R3);
const ST_Y: Access = Access::store(6);

/// (R-MAT scale, sampled nonzeros per row).
pub fn dims(size: Size) -> (u32, usize) {
    match size {
        Size::Tiny => (11, 2),
        Size::Small => (16, 4),
        Size::Paper => (20, 8),
    }
}

/// The benchmark's sparsity pattern for `seed`.
pub fn matrix(size: Size, seed: u64) -> Csr {
    let (scale, per_row) = dims(size);
    rmat(scale, per_row << scale, false, &mut ChaCha8Rng::seed_from_u64(seed))
}

struct Spmv {
    m: Csr,
    rowptr: u64,
    col: u64,
    val: u64,
    x: u64,
    y: u64,
}

impl Kernel for Spmv {
    fn name(&self) -> String {
        "spmv".into()
    }

    fn grid(&self) -> Grid {
        Grid { ctas: (self.m.nodes() as u32).div_ceil(BLOCK).max(1), threads_per_cta: BLOCK }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_START.info("rowptr", false, false),
            LD_END.info("rowptr", false, false),
            LD_VAL.info("val", true, false),
            LD_COL.info("col", true, false),
            LD_X.info("x", true, false),
            ST_Y.info("y", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let m = &self.m;
        let first = first_thread(cta, warp, BLOCK);
        let all = lanes_below(first, m.nodes() as u64);
        let row = |l: usize| first as usize + l;
        let trips = max_over(all, |l| m.degree(row(l)));
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                LD_START.emit(out, all, |l| self.rowptr + WORD * row(l) as u64);
                LD_END.emit(out, all, |l| self.rowptr + WORD * (row(l) as u64 + 1));
                alu(out, 1, R0 | R1);
                true
            }
            Phase::Loop { from, to, .. } => {
                for k in from..to {
                    let nz = |l: usize| (m.row[row(l)] + k) as u64;
                    let live = lanes_where(all, |l| k < m.degree(row(l)));
                    LD_VAL.emit(out, live, |l| self.val + WORD * nz(l));
                    LD_COL.emit(out, live, |l| self.col + WORD * nz(l));
                    LD_X.emit(out, live, |l| self.x + WORD * m.col[nz(l) as usize] as u64);
                    alu(out, 1, R2 | R4);
                }
                true
            }
            Phase::Tail => tail(out, |out| ST_Y.emit(out, all, |l| self.y + WORD * row(l) as u64)),
            Phase::Done => false,
        }
    }
}

pub(super) fn build(size: Size, seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let m = matrix(size, seed);
    let n = m.nodes() as u64;
    let nnz = m.edges() as u64;
    let k = Spmv {
        rowptr: mem.alloc("rowptr", WORD * (n + 1)),
        col: mem.alloc("col", WORD * nnz),
        val: mem.alloc("val", WORD * nnz),
        x: mem.alloc("x", WORD * n),
        y: mem.alloc("y", WORD * n),
        m,
    };
    vec![Box::new(k)]
}
