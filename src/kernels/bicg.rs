//! PolyBench/GPU `bicg` (the BiCG sub-kernel: s = Aᵀr, q = Ap) on a square N x N matrix.
//!
//! - `bicg_k1`: thread j sets `s[j] = 0` and runs `s[j] += A[i*N + j] * r[i]` over i:
//!   A read coalesced, r[i] one address per warp.
//! - `bicg_k2`: thread i sets `q[i] = 0` and runs `q[i] += A[i*N + j] * p[j]` over j:
//!   each lane walks its own row, 32 lines per warp-load.
//!
//! The accumulators start at zero, so neither kernel loads them before its loop.
//!
//! Sizes (N; total warp-instructions): tiny 192 (~7k), small 1024 (~197k),
//! paper 8192 (~12.6M).

use super::addr::AddrSpace;
use super::matvec::{col_walk, order, per_iter, per_thread, row_walk, MatVec};
use super::{Kernel, Size};

pub(super) fn build(size: Size, _seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let n = order(size);
    let a = mem.alloc("A", 4 * n as u64 * n as u64);
    let r = mem.alloc("r", 4 * n as u64);
    let s = mem.alloc("s", 4 * n as u64);
    let p = mem.alloc("p", 4 * n as u64);
    let q = mem.alloc("q", 4 * n as u64);
    let k1 = MatVec {
        name: "bicg_k1",
        threads: n,
        trips: n,
        head: vec![],
        body: vec![col_walk(1, "A", a, n), per_iter(2, "r", r)],
        alus: 1,
        tail: vec![per_thread(3, "s", s)],
    };
    let k2 = MatVec {
        name: "bicg_k2",
        threads: n,
        trips: n,
        head: vec![],
        body: vec![row_walk(4, "A", a, n), per_iter(5, "p", p)],
        alus: 1,
        tail: vec![per_thread(6, "q", q)],
    };
    vec![Box::new(k1), Box::new(k2)]
}
