//! PolyBench/GPU `mvt` (x1 += A·y1, x2 += Aᵀ·y2) on a square N x N matrix.
//!
//! - `mvt_k1`: thread i runs `x1[i] += A[i*N + j] * y1[j]` over j: each lane walks its
//!   own row, 32 lines per warp-load.
//! - `mvt_k2`: thread i runs `x2[i] += A[j*N + i] * y2[j]` over j: the warp reads
//!   consecutive elements of row j, coalesced.
//!
//! Sizes (N; total warp-instructions): tiny 192 (~7k), small 1024 (~197k),
//! paper 8192 (~12.6M).

use super::addr::AddrSpace;
use super::matvec::{col_walk, order, per_iter, per_thread, row_walk, MatVec};
use super::{Kernel, Size};

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let n = order(size);
    let a = mem.alloc("A", 4 * n as u64 * n as u64);
    let x1 = mem.alloc("x1", 4 * n as u64);
    let x2 = mem.alloc("x2", 4 * n as u64);
    let y1 = mem.alloc("y1", 4 * n as u64);
    let y2 = mem.alloc("y2", 4 * n as u64);
    let k1 = MatVec {
        name: "mvt_k1",
        threads: n,
        trips: n,
        head: vec![per_thread(1, "x1", x1)],
        body: vec![row_walk(2, "A", a, n), per_iter(3, "y1", y1)],
        alus: 1,
        tail: vec![per_thread(4, "x1", x1)],
    };
    let k2 = MatVec {
        name: "mvt_k2",
        threads: n,
        trips: n,
        head: vec![per_thread(5, "x2", x2)],
        body: vec![col_walk(6, "A", a, n), per_iter(7, "y2", y2)],
        alus: 1,
        tail: vec![per_thread(8, "x2", x2)],
    };
    vec![Box::new(k1), Box::new(k2)]
}
