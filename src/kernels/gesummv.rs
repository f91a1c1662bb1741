//! PolyBench/GPU `gesummv` (y = αAx + βBx) on square N x N matrices, one kernel.
//!
//! Thread i runs `tmp[i] += A[i*N + j] * x[j]; y[i] += B[i*N + j] * x[j]` over j and
//! then `y[i] = α·tmp[i] + β·y[i]`: two row walks per iteration (32 lines per
//! warp-load each) plus x[j], one address for the warp, loaded once per iteration.
//!
//! Sizes (N; total warp-instructions): tiny 192 (~5.8k), small 1024 (~164k),
//! paper 8192 (~10.5M).

use super::addr::AddrSpace;
use super::matvec::{order, per_iter, per_thread, row_walk, MatVec};
use super::{Kernel, Size};

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let n = order(size);
    let a = mem.alloc("A", 4 * n as u64 * n as u64);
    let b = mem.alloc("B", 4 * n as u64 * n as u64);
    let x = mem.alloc("x", 4 * n as u64);
    let y = mem.alloc("y", 4 * n as u64);
    let tmp = mem.alloc("tmp", 4 * n as u64);
    let k = MatVec {
        name: "gesummv",
        threads: n,
        trips: n,
        head: vec![per_thread(1, "tmp", tmp), per_thread(2, "y", y)],
        body: vec![row_walk(3, "A", a, n), per_iter(4, "x", x), row_walk(5, "B", b, n)],
        alus: 2,
        tail: vec![per_thread(6, "tmp", tmp), per_thread(7, "y", y)],
    };
    vec![Box::new(k)]
}
