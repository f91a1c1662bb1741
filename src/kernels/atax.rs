//! PolyBench/GPU `atax` (y = Aᵀ(Ax)) as its two kernels on a square N x N matrix.
//!
//! - `atax_k1`: thread i runs `tmp[i] += A[i*N + j] * x[j]` over j. Neighbouring lanes
//!   walk neighbouring rows, so every warp-load of A touches 32 different lines while
//!   x[j] is one address for the whole warp.
//! - `atax_k2`: thread j runs `y[j] += A[i*N + j] * tmp[i]` over i: the same matrix read
//!   coalesced, one or two lines per warp-load.
//!
//! Sizes (N; total warp-instructions): tiny 192 (~7k), small 1024 (~197k),
//! paper 8192 (~12.6M).

use super::addr::AddrSpace;
use super::matvec::{col_walk, order, per_iter, per_thread, row_walk, MatVec};
use super::{Kernel, Size};

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let n = order(size);
    let a = mem.alloc("A", 4 * n as u64 * n as u64);
    let x = mem.alloc("x", 4 * n as u64);
    let tmp = mem.alloc("tmp", 4 * n as u64);
    let y = mem.alloc("y", 4 * n as u64);
    let k1 = MatVec {
        name: "atax_k1",
        threads: n,
        trips: n,
        head: vec![per_thread(1, "tmp", tmp)],
        body: vec![row_walk(2, "A", a, n), per_iter(3, "x", x)],
        alus: 1,
        tail: vec![per_thread(4, "tmp", tmp)],
    };
    let k2 = MatVec {
        name: "atax_k2",
        threads: n,
        trips: n,
        head: vec![per_thread(5, "y", y)],
        body: vec![col_walk(6, "A", a, n), per_iter(7, "tmp", tmp)],
        alus: 1,
        tail: vec![per_thread(8, "y", y)],
    };
    vec![Box::new(k1), Box::new(k2)]
}
