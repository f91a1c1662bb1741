//! Lonestar-style topology-driven single-source shortest paths (Bellman-Ford) on an
//! undirected R-MAT graph with random integer weights.
//!
//! Each launch (`sssp_iter{T}`) is one round over all nodes, thread per node:
//! `d = dist[node]; if d != INF { for e in row[node]..row[node+1] { v = col[e];
//! nd = d + weight[e]; if nd < dist[v] { dist[v] = nd (atomicMin); changed = true } } }`
//! and, if a thread improved anything, `*changed_flag = true`. The host repeats rounds
//! until one changes nothing; that last round is launched too. The atomic minimum is
//! modelled as a store.
//!
//! The rounds are computed functionally on the host: round T reads the distances
//! left by round T-1 (a synchronous update), so each launch knows which lanes are
//! reached and which relaxations improve. Each round keeps exactly that, one bit per node
//! and one per edge, so a warp's instructions come from a few words rather than from
//! distances looked up at random (which took a tenth of a sampled run). Blocks have 256
//! threads.
//!
//! Sizes (nodes = 2^scale, sampled undirected edges per node; total
//! warp-instructions): tiny 2^8, 1 (~4.0k, one block: every round relaxes every
//! reached edge, so a bigger graph exceeds the test budget), small 2^13, 2 (~510k),
//! paper 2^17, 4 (~22M).

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, lanes_where, max_over, phase};
use super::builder::{tail, Access, Phase, R0, R1, R2, R3, R4, R5, WORD};
use super::graph::{hub, rmat, Csr};
use super::{Grid, Instr, Kernel, Size, StaticLoad};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const BLOCK: u32 = 256;
const CHUNK: u32 = 2;
/// Edge weights are drawn from `1..=MAX_WEIGHT`.
pub const MAX_WEIGHT: u32 = 100;
const INF: u32 = u32::MAX;
const LD_DIST: Access = Access::load(1, R0);
const LD_ROW: Access = Access::load(2, R1);
const LD_ROW_END: Access = Access::load(3, R2);
const LD_COL: Access = Access::load(4, R3);
const LD_WEIGHT: Access = Access::load(5, R4);
const LD_DIST_V: Access = Access::load(6, R5).after(R3);
const ST_DIST_V: Access = Access::store(7);
const ST_CHANGED: Access = Access::store(8);

/// (R-MAT scale, sampled undirected edges per node).
pub fn dims(size: Size) -> (u32, usize) {
    match size {
        Size::Tiny => (8, 1),
        Size::Small => (13, 2),
        Size::Paper => (17, 4),
    }
}

/// The benchmark's graph and per-edge weights (aligned with `col`) for `seed`.
pub fn graph(size: Size, seed: u64) -> (Csr, Vec<u32>) {
    let (scale, per_node) = dims(size);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let g = rmat(scale, per_node << scale, true, &mut rng);
    let w = (0..g.edges()).map(|_| rng.gen_range(1..=MAX_WEIGHT)).collect();
    (g, w)
}

struct Data {
    g: Csr,
    rounds: Vec<Round>,
    row: u64,
    col: u64,
    weight: u64,
    dist: u64,
    changed: u64,
}

impl Data {
    fn grid(&self) -> Grid {
        Grid { ctas: (self.g.nodes() as u32).div_ceil(BLOCK).max(1), threads_per_cta: BLOCK }
    }
}

/// What one round's threads find, from the distances it reads.
struct Round {
    /// Per warp, the lanes whose node is reached (its distance is finite).
    reached: Vec<u32>,
    /// Per edge (bit `e`), whether relaxing it improves its target's distance.
    better: Vec<u64>,
    /// Per warp, the lanes that improved some distance.
    improved: Vec<u32>,
}

impl Round {
    fn better(&self, e: usize) -> bool {
        self.better[e / 64] >> (e % 64) & 1 != 0
    }
}

/// Runs the synchronous rounds until one changes nothing; also returns the distances
/// they converge to.
fn rounds(g: &Csr, w: &[u32], source: usize) -> (Vec<Round>, Vec<u32>) {
    let n = g.nodes();
    let warps = n.div_ceil(32);
    let mut cur = vec![INF; n];
    if source < n {
        cur[source] = 0;
    }
    let mut out = Vec::new();
    loop {
        let mut next = cur.clone();
        let mut round =
            Round { reached: vec![0; warps], better: vec![0; g.edges().div_ceil(64)], improved: vec![0; warps] };
        for u in 0..n {
            if cur[u] == INF {
                continue;
            }
            round.reached[u / 32] |= 1 << (u % 32);
            for (e, &v) in (g.row[u] as usize..).zip(g.neighbors(u)) {
                let nd = cur[u].saturating_add(w[e]);
                if nd < cur[v as usize] {
                    round.better[e / 64] |= 1 << (e % 64);
                    round.improved[u / 32] |= 1 << (u % 32);
                    next[v as usize] = next[v as usize].min(nd);
                }
            }
        }
        let done = round.improved.iter().all(|&m| m == 0);
        out.push(round);
        cur = next;
        if done {
            return (out, cur);
        }
    }
}

/// One Bellman-Ford round's launch.
struct Launch {
    d: Arc<Data>,
    t: u32,
}

impl Kernel for Launch {
    fn name(&self) -> String {
        format!("sssp_iter{}", self.t)
    }

    fn grid(&self) -> Grid {
        self.d.grid()
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            LD_DIST.info("dist", false, false),
            LD_ROW.info("row", false, false),
            LD_ROW_END.info("row", false, false),
            LD_COL.info("col", true, false),
            LD_WEIGHT.info("weight", true, false),
            LD_DIST_V.info("dist", true, false),
            ST_DIST_V.info("dist", true, false),
            ST_CHANGED.info("changed", false, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        let grid = self.grid();
        if !in_grid(grid, cta, warp) {
            return false;
        }
        let (d, round) = (&*self.d, &self.d.rounds[self.t as usize]);
        let first = first_thread(cta, warp, BLOCK);
        let all = lanes_below(first, d.g.nodes() as u64);
        let node = |l: usize| first as usize + l;
        let reached = round.reached[first as usize / 32];
        let trips = max_over(reached, |l| d.g.degree(node(l)));
        match phase(step, &[trips], CHUNK) {
            Phase::Head => {
                alu(out, 1, 0);
                LD_DIST.emit(out, all, |l| d.dist + WORD * node(l) as u64);
                alu(out, 1, R0);
                LD_ROW.emit(out, reached, |l| d.row + WORD * node(l) as u64);
                LD_ROW_END.emit(out, reached, |l| d.row + WORD * (node(l) as u64 + 1));
                if reached != 0 {
                    alu(out, 1, R1 | R2);
                }
                true
            }
            Phase::Loop { from, to, .. } => {
                for it in from..to {
                    let edge = |l: usize| (d.g.row[node(l)] + it) as usize;
                    let v = |l: usize| d.g.col[edge(l)] as usize;
                    let live = lanes_where(reached, |l| it < d.g.degree(node(l)));
                    LD_COL.emit(out, live, |l| d.col + WORD * edge(l) as u64);
                    LD_WEIGHT.emit(out, live, |l| d.weight + WORD * edge(l) as u64);
                    LD_DIST_V.emit(out, live, |l| d.dist + WORD * v(l) as u64);
                    alu(out, 1, R4 | R5);
                    let better = lanes_where(live, |l| round.better(edge(l)));
                    ST_DIST_V.emit(out, better, |l| d.dist + WORD * v(l) as u64);
                }
                true
            }
            Phase::Tail => tail(out, |out| {
                let lanes = round.improved.get(first as usize / 32);
                ST_CHANGED.emit(out, lanes.copied().unwrap_or(0), |_| d.changed);
            }),
            Phase::Done => false,
        }
    }
}

pub(super) fn build(size: Size, seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let (g, w) = graph(size, seed);
    let n = g.nodes() as u64;
    let (rounds, _) = rounds(&g, &w, hub(&g));
    let count = rounds.len() as u32;
    let d = Arc::new(Data {
        row: mem.alloc("row", WORD * (n + 1)),
        col: mem.alloc("col", WORD * g.edges() as u64),
        weight: mem.alloc("weight", WORD * g.edges() as u64),
        dist: mem.alloc("dist", WORD * n),
        changed: mem.alloc("changed", WORD),
        g,
        rounds,
    });
    (0..count).map(|t| Box::new(Launch { d: d.clone(), t }) as Box<dyn Kernel>).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dijkstra's distances, to check the synchronous rounds converge to them.
    fn dijkstra(g: &Csr, w: &[u32], source: usize) -> Vec<u32> {
        let mut dist = vec![INF; g.nodes()];
        let mut heap = std::collections::BinaryHeap::from([std::cmp::Reverse((0u32, source))]);
        dist[source] = 0;
        while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            for (e, &v) in (g.row[u] as usize..).zip(g.neighbors(u)) {
                if d + w[e] < dist[v as usize] {
                    dist[v as usize] = d + w[e];
                    heap.push(std::cmp::Reverse((d + w[e], v as usize)));
                }
            }
        }
        dist
    }

    #[test]
    fn rounds_converge_to_shortest_paths() {
        for size in [Size::Tiny, Size::Small] {
            let (g, w) = graph(size, 3);
            let source = hub(&g);
            let (r, got) = rounds(&g, &w, source);
            assert!(r.last().unwrap().improved.iter().all(|&m| m == 0), "the last round changes nothing");
            assert_eq!(got, dijkstra(&g, &w, source));
            assert_eq!(r[0].reached[source / 32], 1 << (source % 32), "round 0 reaches the source only");
        }
    }
}
