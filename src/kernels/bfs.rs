//! Rodinia `bfs` on an undirected R-MAT graph, launched level by level.
//!
//! Kernel 1 (`bfs_k1_level{L}`), thread per node: `if mask[tid] { mask[tid] = false;
//! for e in row[tid]..row[tid+1] { id = col[e]; if !visited[id] { cost[id] =
//! cost[tid] + 1; updating[id] = true } } }`. Every warp loads its mask flags; only
//! frontier lanes walk their edges, each warp for as long as its largest-degree
//! frontier node, and the `visited`/`cost`/`updating` accesses gather through `col`.
//! `cost[tid]` is reloaded in the loop because the stores to `cost[id]` may alias it.
//!
//! Kernel 2 (`bfs_k2_level{L}`), thread per node: `if updating[tid] { mask[tid] =
//! true; visited[tid] = true; over = true; updating[tid] = false }`.
//!
//! The host runs the search functionally first, so each launch knows its real
//! frontier: level L's frontier is the nodes at depth L and a neighbour is unvisited
//! iff its depth exceeds L. The source is the largest-degree node. Flags are `bool`
//! (1 byte), the rest 4-byte `int`s; blocks have 512 threads as in Rodinia.
//!
//! Sizes (nodes = 2^scale, sampled undirected edges per node; total
//! warp-instructions): tiny 2^10, 1 (~7.0k), small 2^15, 4 (~705k), paper 2^19, 4
//! (~13.5M). The tiny graph fills only two 512-thread blocks: more nodes would
//! exceed the test budget, since every level scans every node twice.

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, lanes_where, max_over, phase};
use super::builder::{Access, Phase, R0, R1, R2, R3, R4, R5, WORD};
use super::graph::{bfs_depths, hub, rmat, Csr};
use super::{Grid, Instr, Kernel, Size, StaticLoad};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const BLOCK: u32 = 512;
const CHUNK: u32 = 2;
const LD_MASK: Access = Access::load(1, R0).width(1);
const ST_MASK: Access = Access::store(2).width(1);
const LD_ROW: Access = Access::load(3, R1);
const LD_ROW_END: Access = Access::load(4, R2);
const LD_COL: Access = Access::load(5, R3);
const LD_VISITED: Access = Access::load(6, R4).width(1).after(R3);
const LD_COST: Access = Access::load(7, R5);
const ST_COST: Access = Access::store(8);
const ST_UPDATING: Access = Access::store(9).width(1);
const LD_UPDATING: Access = Access::load(10, R0).width(1);
const ST_MASK2: Access = Access::store(11).width(1);
const ST_VISITED: Access = Access::store(12).width(1);
const ST_OVER: Access = Access::store(13).width(1);
const ST_UPDATING2: Access = Access::store(14).width(1);

/// (R-MAT scale, sampled undirected edges per node).
pub fn dims(size: Size) -> (u32, usize) {
    match size {
        Size::Tiny => (10, 1),
        Size::Small => (15, 4),
        Size::Paper => (19, 4),
    }
}

/// The benchmark's input graph for `seed`.
pub fn graph(size: Size, seed: u64) -> Csr {
    let (scale, per_node) = dims(size);
    rmat(scale, per_node << scale, true, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// The search root: the largest-degree node.
pub fn source(g: &Csr) -> usize {
    hub(g)
}

struct Data {
    g: Csr,
    depth: Vec<u32>,
    row: u64,
    col: u64,
    mask: u64,
    updating: u64,
    visited: u64,
    cost: u64,
    over: u64,
}

impl Data {
    fn grid(&self) -> Grid {
        let n = self.g.nodes() as u32;
        let threads = n.clamp(1, BLOCK);
        Grid { ctas: n.div_ceil(threads).max(1), threads_per_cta: threads }
    }
}

/// Kernel 1 of one level: expand the frontier.
struct Expand {
    d: Arc<Data>,
    level: u32,
}

impl Kernel for Expand {
    fn name(&self) -> String {
        format!("bfs_k1_level{}", self.level)
    }

    fn grid(&self) -> Grid {
        self.d.grid()
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_MASK.info("mask", false, false),
            ST_MASK.info("mask", false, false),
            LD_ROW.info("row", false, false),
            LD_ROW_END.info("row", false, false),
            LD_COL.info("col", true, false),
            LD_VISITED.info("visited", true, false),
            LD_COST.info("cost", true, false),
            ST_COST.info("cost", true, false),
            ST_UPDATING.info("updating", true, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        let grid = self.grid();
        if !in_grid(grid, cta, warp) {
            return false;
        }
        let d = &*self.d;
        let first = first_thread(cta, warp, grid.threads_per_cta);
        let all = lanes_below(first, d.g.nodes() as u64);
        let tid = |l: usize| first as usize + l;
        let front = lanes_where(all, |l| d.depth[tid(l)] == self.level);
        let trips = max_over(front, |l| d.g.degree(tid(l)));
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                LD_MASK.emit(out, all, |l| d.mask + tid(l) as u64);
                alu(out, 1, R0);
                ST_MASK.emit(out, front, |l| d.mask + tid(l) as u64);
                LD_ROW.emit(out, front, |l| d.row + WORD * tid(l) as u64);
                LD_ROW_END.emit(out, front, |l| d.row + WORD * (tid(l) as u64 + 1));
                if front != 0 {
                    alu(out, 1, R1 | R2);
                }
                true
            }
            Phase::Loop { from, to, .. } => {
                for it in from..to {
                    let edge = |l: usize| (d.g.row[tid(l)] + it) as usize;
                    let id = |l: usize| d.g.col[edge(l)] as usize;
                    let live = lanes_where(front, |l| it < d.g.degree(tid(l)));
                    LD_COL.emit(out, live, |l| d.col + WORD * edge(l) as u64);
                    LD_VISITED.emit(out, live, |l| d.visited + id(l) as u64);
                    alu(out, 1, R4);
                    let fresh = lanes_where(live, |l| d.depth[id(l)] > self.level);
                    LD_COST.emit(out, fresh, |l| d.cost + WORD * tid(l) as u64);
                    if fresh != 0 {
                        alu(out, 1, R5);
                    }
                    ST_COST.emit(out, fresh, |l| d.cost + WORD * id(l) as u64);
                    ST_UPDATING.emit(out, fresh, |l| d.updating + id(l) as u64);
                }
                true
            }
            Phase::Tail | Phase::Done => false,
        }
    }
}

/// Kernel 2 of one level: turn the updated nodes into the next frontier.
struct Update {
    d: Arc<Data>,
    level: u32,
}

impl Kernel for Update {
    fn name(&self) -> String {
        format!("bfs_k2_level{}", self.level)
    }

    fn grid(&self) -> Grid {
        self.d.grid()
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_UPDATING.info("updating", false, false),
            ST_MASK2.info("mask", false, false),
            ST_VISITED.info("visited", false, false),
            ST_OVER.info("over", false, false),
            ST_UPDATING2.info("updating", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        let grid = self.grid();
        if step > 0 || !in_grid(grid, cta, warp) {
            return false;
        }
        let d = &*self.d;
        let first = first_thread(cta, warp, grid.threads_per_cta);
        let all = lanes_below(first, d.g.nodes() as u64);
        let node = |l: usize| first + l as u64;
        let next = lanes_where(all, |l| d.depth[node(l) as usize] == self.level + 1);
        alu(out, 1, 0);
        LD_UPDATING.emit(out, all, |l| d.updating + node(l));
        alu(out, 1, R0);
        ST_MASK2.emit(out, next, |l| d.mask + node(l));
        ST_VISITED.emit(out, next, |l| d.visited + node(l));
        ST_OVER.emit(out, next, |_| d.over);
        ST_UPDATING2.emit(out, next, |l| d.updating + node(l));
        true
    }
}

pub(super) fn build(size: Size, seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let g = graph(size, seed);
    let n = g.nodes() as u64;
    let depth = bfs_depths(&g, source(&g));
    let levels = depth.iter().filter(|&&x| x != u32::MAX).max().map_or(0, |m| m + 1);
    let d = Arc::new(Data {
        row: mem.alloc("row", WORD * (n + 1)),
        col: mem.alloc("col", WORD * g.edges() as u64),
        mask: mem.alloc("mask", n),
        updating: mem.alloc("updating", n),
        visited: mem.alloc("visited", n),
        cost: mem.alloc("cost", WORD * n),
        over: mem.alloc("over", 1),
        g,
        depth,
    });
    let mut launches: Vec<Box<dyn Kernel>> = Vec::new();
    for level in 0..levels {
        launches.push(Box::new(Expand { d: d.clone(), level }));
        launches.push(Box::new(Update { d: d.clone(), level }));
    }
    launches
}
