//! Rodinia `streamcluster`'s `pgain` kernel (`kernel_compute_cost`): for a candidate
//! center x, every point decides whether switching to x saves cost.
//!
//! Thread per point: `x_cost = d_dist(tid, x) * p[tid].weight` with `d_dist` summing
//! over dimensions i of `coord[i*num + tid] - coord[i*num + x]` (coalesced, and one
//! address per warp for x); then `if x_cost < p[tid].cost { switch_membership[tid] =
//! 1; lower[K] += x_cost - p[tid].cost } else { lower[center_table[p[tid].assign]] +=
//! p[tid].cost - x_cost }` with `lower = &work_mem[tid * (K+1)]`. `Point` is Rodinia's
//! 32-byte struct {weight, coord pointer, long assign, cost}, so each field load
//! spans eight lines per warp; the else branch gathers through two loaded indices.
//!
//! The host runs the local search functionally on generated points: K0 = 10 random
//! centers, each point assigned to its nearest; each launch tries a random candidate,
//! and the candidate opens (points that save cost move to it) when the saving exceeds
//! the facility cost, so later launches see more centers and changed assignments.
//! Coordinates are bytes and distances integers, so every platform agrees exactly.
//! Blocks have 512 threads.
//!
//! Sizes (points, dimensions, launches; total warp-instructions): tiny 2048, 4, 3
//! (~5.0k), small 16384, 64, 4 (~421k), paper 65536, 256, 5 (Rodinia's default
//! input size; ~8.0M).

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, lanes_where, phase, tail};
use super::builder::{Access, Phase, R0, R1, R2, R3, R4, R5, R6, R7, WORD};
use super::{Grid, Instr, Kernel, Size, StaticLoad};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const BLOCK: u32 = 512;
const CHUNK: u32 = 4;
/// Initial number of open centers (Rodinia's kmin).
pub const INITIAL_CENTERS: usize = 10;
/// Bytes of Rodinia's `Point` and the offsets of its fields.
const POINT: u64 = 32;
const WEIGHT_AT: u64 = 0;
const ASSIGN_AT: u64 = 16;
const COST_AT: u64 = 24;
const LD_COORD: Access = Access::load(1, R0);
const LD_COORD_X: Access = Access::load(2, R1);
const LD_WEIGHT: Access = Access::load(3, R2);
const LD_COST: Access = Access::load(4, R3);
const ST_SWITCH: Access = Access::store(5).width(1);
const LD_LOWER_K: Access = Access::load(6, R4);
const ST_LOWER_K: Access = Access::store(7);
const LD_ASSIGN: Access = Access::load(8, R5).width(8);
const LD_CENTER: Access = Access::load(9, R6).after(R5);
const LD_LOWER_C: Access = Access::load(10, R7).after(R6);
const ST_LOWER_C: Access = Access::store(11);

/// (points, dimensions, launches).
pub fn dims(size: Size) -> (u32, u32, u32) {
    match size {
        Size::Tiny => (2048, 4, 3),
        Size::Small => (16384, 64, 4),
        Size::Paper => (65536, 256, 5),
    }
}

struct Arrays {
    num: u32,
    dim: u32,
    coord: u64,
    points: u64,
    center_table: u64,
    switch: u64,
    work_mem: u64,
}

/// What one launch needs: the candidate, the open centers (sorted, so a center's
/// `center_table` slot is its rank), each point's center and whether it switches.
struct Pgain {
    a: Arc<Arrays>,
    launch: u32,
    x: u32,
    centers: Vec<u32>,
    assign: Vec<u32>,
    switch: Vec<u64>,
}

impl Kernel for Pgain {
    fn name(&self) -> String {
        format!("streamcluster_pgain{}", self.launch)
    }

    fn grid(&self) -> Grid {
        Grid { ctas: self.a.num.div_ceil(BLOCK).max(1), threads_per_cta: BLOCK }
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_COORD.info("coord", true, false),
            LD_COORD_X.info("coord", true, false),
            LD_WEIGHT.info("points", false, false),
            LD_COST.info("points", false, false),
            ST_SWITCH.info("switch_membership", false, false),
            LD_LOWER_K.info("work_mem", false, false),
            ST_LOWER_K.info("work_mem", false, false),
            LD_ASSIGN.info("points", false, false),
            LD_CENTER.info("center_table", false, false),
            LD_LOWER_C.info("work_mem", false, false),
            ST_LOWER_C.info("work_mem", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if !in_grid(self.grid(), cta, warp) {
            return false;
        }
        let a = &*self.a;
        let first = first_thread(cta, warp, BLOCK);
        let all = lanes_below(first, a.num as u64);
        let tid = |l: usize| first + l as u64;
        let trips = if all == 0 { 0 } else { a.dim };
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                true
            }
            Phase::Loop { from, to, .. } => {
                for i in from as u64..to as u64 {
                    let row = a.coord + WORD * i * a.num as u64;
                    LD_COORD.emit(out, all, |l| row + WORD * tid(l));
                    LD_COORD_X.emit(out, all, |_| row + WORD * self.x as u64);
                    alu(out, 1, R0 | R1);
                }
                true
            }
            Phase::Tail => tail(out, |out| {
                let point = |l: usize| a.points + POINT * tid(l);
                LD_WEIGHT.emit(out, all, |l| point(l) + WEIGHT_AT);
                alu(out, 1, R2);
                LD_COST.emit(out, all, |l| point(l) + COST_AT);
                alu(out, 1, R3);
                let k = self.centers.len() as u64;
                let lower = |l: usize| a.work_mem + WORD * tid(l) * (k + 1);
                let sw = lanes_where(all, |l| self.switch[tid(l) as usize / 64] >> (tid(l) % 64) & 1 == 1);
                ST_SWITCH.emit(out, sw, |l| a.switch + tid(l));
                LD_LOWER_K.emit(out, sw, |l| lower(l) + WORD * k);
                if sw != 0 {
                    alu(out, 1, R4);
                }
                ST_LOWER_K.emit(out, sw, |l| lower(l) + WORD * k);
                let stay = all & !sw;
                let center = |l: usize| self.assign[tid(l) as usize];
                let slot = |l: usize| self.centers.partition_point(|&c| c < center(l)) as u64;
                LD_ASSIGN.emit(out, stay, |l| point(l) + ASSIGN_AT);
                LD_CENTER.emit(out, stay, |l| a.center_table + WORD * center(l) as u64);
                LD_LOWER_C.emit(out, stay, |l| lower(l) + WORD * slot(l));
                if stay != 0 {
                    alu(out, 1, R7);
                }
                ST_LOWER_C.emit(out, stay, |l| lower(l) + WORD * slot(l));
            }),
            Phase::Done => false,
        }
    }
}

fn dist(coords: &[u8], dim: usize, p: usize, q: usize) -> u32 {
    let (a, b) = (&coords[p * dim..(p + 1) * dim], &coords[q * dim..(q + 1) * dim]);
    a.iter().zip(b).map(|(&x, &y)| (x as i32 - y as i32).unsigned_abs().pow(2)).sum()
}

pub(super) fn build(size: Size, seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let (num, dim, launches) = dims(size);
    let (n, d) = (num as usize, dim as usize);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut coords = vec![0u8; n * d];
    rng.fill(&mut coords[..]);
    let mut centers: Vec<u32> = Vec::new();
    while centers.len() < INITIAL_CENTERS.min(n) {
        let c = rng.gen_range(0..num);
        if !centers.contains(&c) {
            centers.push(c);
        }
    }
    let mut assign = vec![0u32; n];
    let mut cost = vec![0u32; n];
    for p in 0..n {
        let best = centers.iter().map(|&c| (dist(&coords, d, p, c as usize), c)).min();
        (cost[p], assign[p]) = best.unwrap_or((0, 0));
    }
    let max_centers = centers.len() as u64 + launches as u64;
    let a = Arc::new(Arrays {
        num,
        dim,
        coord: mem.alloc("coord", WORD * dim as u64 * num as u64),
        points: mem.alloc("points", POINT * num as u64),
        center_table: mem.alloc("center_table", WORD * num as u64),
        switch: mem.alloc("switch_membership", num as u64),
        work_mem: mem.alloc("work_mem", WORD * num as u64 * (max_centers + 1)),
    });
    let mut out: Vec<Box<dyn Kernel>> = Vec::new();
    for launch in 0..launches {
        let x = loop {
            let x = rng.gen_range(0..num);
            if !centers.contains(&x) || centers.len() >= n {
                break x;
            }
        };
        let x_cost: Vec<u32> = (0..n).map(|p| dist(&coords, d, p, x as usize)).collect();
        let mut switch = vec![0u64; n.div_ceil(64)];
        let mut saving = 0u64;
        for p in 0..n {
            if x_cost[p] < cost[p] {
                switch[p / 64] |= 1 << (p % 64);
                saving += (cost[p] - x_cost[p]) as u64;
            }
        }
        let mut sorted = centers.clone();
        sorted.sort_unstable();
        out.push(Box::new(Pgain { a: a.clone(), launch, x, centers: sorted, assign: assign.clone(), switch }));
        let facility = cost.iter().map(|&c| c as u64).sum::<u64>() / (2 * centers.len() as u64).max(1);
        if saving > facility && !centers.contains(&x) {
            centers.push(x);
            for p in 0..n {
                if x_cost[p] < cost[p] {
                    (cost[p], assign[p]) = (x_cost[p], x);
                }
            }
        }
    }
    out
}
