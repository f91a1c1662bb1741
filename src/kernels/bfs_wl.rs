//! Lonestar-style data-driven breadth-first search: a resident grid strides over each
//! level's worklist, so a warp lives for the whole launch and gathers for many nodes.
//!
//! MeDiC's BFS is Lonestar's, whose kernels run a fixed grid of threads that loop
//! `for i in (tid..wl_in.len).step_by(threads)` rather than one thread per node (our
//! `bfs`, Rodinia's). Each launch (`bfs_wl_level{L}`) runs, per item:
//! `node = wl_in[i]; for e in row[node]..row[node+1] { dst = col[e]; if dist[dst] == INF
//! { dist[dst] = L + 1; pos = atomicAdd(&wl_out.len, 1); wl_out[pos] = dst } }`.
//! A first launch (`bfs_wl_init`) strides over the nodes storing `dist[v] = INF`.
//! The atomic is modelled as a store to the counter word.
//!
//! The host runs the search functionally first: each level's worklist is its frontier
//! in the order the previous level discovered it (items in worklist order, edges in
//! order), which is the order the atomics hand out on a machine that serialises them
//! by item. A node is pushed once, by its first discoverer. The input is `bfs`'s R-MAT
//! graph and source for the same size and seed, so the two searches compare directly.
//!
//! The grid is `nodes / 256` blocks of 256 threads, at most 90 (six per SM of a 15-SM
//! GTX 480, the 1536 threads it holds, so every thread is resident): at paper size
//! each lane expands many frontier nodes in the widest levels. `dist` is a 4-byte
//! `int` per node.

use super::addr::AddrSpace;
use super::builder::{alu, first_thread, in_grid, lanes_below, lanes_where, max_over};
use super::builder::{Access, R0, R1, R2, R3, R4, WORD};
use super::graph::Csr;
use super::{bfs, Grid, Instr, Kernel, Size, StaticLoad, WARP_SIZE};
use std::sync::Arc;

const BLOCK: u32 = 256;
const MAX_CTAS: u32 = 90;
/// Edge iterations per emitted chunk.
const CHUNK: u32 = 2;
const ST_INIT: Access = Access::store(1);
const LD_WL: Access = Access::load(2, R0);
const LD_ROW: Access = Access::load(3, R1).after(R0);
const LD_ROW_END: Access = Access::load(4, R2).after(R0);
const LD_COL: Access = Access::load(5, R3);
const LD_DIST: Access = Access::load(6, R4).after(R3);
const ST_DIST: Access = Access::store(7);
const ST_LEN: Access = Access::store(8);
const ST_WL: Access = Access::store(9);

struct Data {
    g: Csr,
    depth: Vec<u32>,
    /// `lists[L]`: level L's worklist (its frontier in discovery order).
    lists: Vec<Vec<u32>>,
    /// `pos[v]`: v's index in the worklist it was pushed to.
    pos: Vec<u32>,
    /// `found_by[v]`: (index of the item in the previous worklist, edge offset) that
    /// pushed v.
    found_by: Vec<(u32, u32)>,
    row: u64,
    col: u64,
    dist: u64,
    /// Two worklists, swapped every level, each with room for every node.
    wl: [u64; 2],
    len: [u64; 2],
}

impl Data {
    fn grid(&self) -> Grid {
        let ctas = (self.g.nodes() as u32 / 256).clamp(1, MAX_CTAS);
        Grid { ctas, threads_per_cta: BLOCK }
    }

    fn threads(&self) -> u64 {
        let g = self.grid();
        g.ctas as u64 * g.threads_per_cta as u64
    }
}

/// Lanes `l` for which thread `first + l` has an item `first + l + k * threads < n`.
fn lanes_with_item(first: u64, k: u64, threads: u64, n: u64) -> u32 {
    lanes_below(first + k * threads, n)
}

/// Stores `dist[v] = INF` over all nodes, grid-stride.
struct Init {
    d: Arc<Data>,
}

impl Kernel for Init {
    fn name(&self) -> String {
        "bfs_wl_init".to_string()
    }

    fn grid(&self) -> Grid {
        self.d.grid()
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![ST_INIT.info("dist", true, false)]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        let d = &*self.d;
        if !in_grid(d.grid(), cta, warp) {
            return false;
        }
        let first = first_thread(cta, warp, BLOCK);
        let lanes = lanes_with_item(first, step as u64, d.threads(), d.g.nodes() as u64);
        if lanes == 0 {
            return false;
        }
        alu(out, 2, 0);
        let base = first + step as u64 * d.threads();
        ST_INIT.emit(out, lanes, |l| d.dist + WORD * (base + l as u64));
        true
    }
}

/// One level: every thread strides over the worklist, expanding its items.
struct Expand {
    d: Arc<Data>,
    level: u32,
    /// Per warp of the grid: the step at which each of its items' rounds starts,
    /// plus one past the last (a round is a head and its edge chunks).
    starts: Vec<Vec<u32>>,
}

impl Expand {
    fn new(d: Arc<Data>, level: u32) -> Self {
        let grid = d.grid();
        let list = &d.lists[level as usize];
        let threads = d.threads();
        let warps = grid.ctas * grid.warps_per_cta();
        let starts = (0..warps)
            .map(|w| {
                let first = w as u64 * WARP_SIZE as u64;
                let mut s = vec![0u32];
                let mut k = 0u64;
                loop {
                    let lanes = lanes_with_item(first, k, threads, list.len() as u64);
                    if lanes == 0 {
                        break;
                    }
                    let base = (first + k * threads) as usize;
                    let trips = max_over(lanes, |l| d.g.degree(list[base + l] as usize));
                    s.push(s.last().unwrap() + 1 + trips.div_ceil(CHUNK));
                    k += 1;
                }
                s
            })
            .collect();
        Expand { d, level, starts }
    }
}

impl Kernel for Expand {
    fn name(&self) -> String {
        format!("bfs_wl_level{}", self.level)
    }

    fn grid(&self) -> Grid {
        self.d.grid()
    }

    fn static_loads(&self) -> Vec<StaticLoad> {
        let (wl_in, wl_out, len_out) = if self.level % 2 == 0 {
            ("worklist_a", "worklist_b", "worklist_b_len")
        } else {
            ("worklist_b", "worklist_a", "worklist_a_len")
        };
        vec![
            LD_WL.info(wl_in, true, false),
            LD_ROW.info("row", true, false),
            LD_ROW_END.info("row", true, false),
            LD_COL.info("col", true, false),
            LD_DIST.info("dist", true, false),
            ST_DIST.info("dist", true, false),
            ST_LEN.info(len_out, true, false),
            ST_WL.info(wl_out, true, false),
        ]
    }

    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        let d = &*self.d;
        let grid = d.grid();
        if !in_grid(grid, cta, warp) {
            return false;
        }
        let w = (cta * grid.warps_per_cta() + warp) as usize;
        let starts = &self.starts[w];
        let first = first_thread(cta, warp, BLOCK);
        let list = &d.lists[self.level as usize];
        let (wl_in, wl_out) = (self.level as usize % 2, (self.level as usize + 1) % 2);
        let end = *starts.last().expect("starts holds at least 0");
        if step > end {
            return false;
        }
        if step == end {
            // The bounds check that ends the stride loop.
            alu(out, 2, 0);
            return true;
        }
        let k = starts.partition_point(|&s| s <= step) - 1;
        let base = first as usize + k * d.threads() as usize;
        let lanes = lanes_with_item(first, k as u64, d.threads(), list.len() as u64);
        let node = |l: usize| list[base + l] as usize;
        let local = step - starts[k];
        if local == 0 {
            alu(out, 2, 0);
            LD_WL.emit(out, lanes, |l| d.wl[wl_in] + WORD * (base + l) as u64);
            LD_ROW.emit(out, lanes, |l| d.row + WORD * node(l) as u64);
            LD_ROW_END.emit(out, lanes, |l| d.row + WORD * (node(l) as u64 + 1));
            alu(out, 1, R1 | R2);
            return true;
        }
        let from = (local - 1) * CHUNK;
        let trips = max_over(lanes, |l| d.g.degree(node(l)));
        for it in from..(from + CHUNK).min(trips) {
            let edge = |l: usize| (d.g.row[node(l)] + it) as usize;
            let dst = |l: usize| d.g.col[edge(l)] as usize;
            let live = lanes_where(lanes, |l| it < d.g.degree(node(l)));
            LD_COL.emit(out, live, |l| d.col + WORD * edge(l) as u64);
            LD_DIST.emit(out, live, |l| d.dist + WORD * dst(l) as u64);
            alu(out, 1, R4);
            // The lanes that push: the node is one level deeper and this is the
            // edge that discovered it first.
            let fresh = lanes_where(live, |l| {
                let v = dst(l);
                d.depth[v] == self.level + 1 && d.found_by[v] == ((base + l) as u32, it)
            });
            ST_DIST.emit(out, fresh, |l| d.dist + WORD * dst(l) as u64);
            ST_LEN.emit(out, fresh, |_| d.len[wl_out]);
            ST_WL.emit(out, fresh, |l| d.wl[wl_out] + WORD * d.pos[dst(l)] as u64);
        }
        true
    }
}

/// The sequential search that fixes every worklist: (depth, worklists, pos, found_by).
type Search = (Vec<u32>, Vec<Vec<u32>>, Vec<u32>, Vec<(u32, u32)>);

fn search(g: &Csr, source: usize) -> Search {
    let n = g.nodes();
    let mut depth = vec![u32::MAX; n];
    let mut pos = vec![0u32; n];
    let mut found_by = vec![(u32::MAX, u32::MAX); n];
    let mut lists = Vec::new();
    if source < n {
        depth[source] = 0;
        lists.push(vec![source as u32]);
    }
    while let Some(list) = lists.last().filter(|l| !l.is_empty()) {
        let level = lists.len() as u32;
        let mut next = Vec::new();
        for (i, &u) in list.iter().enumerate() {
            for (it, &v) in g.neighbors(u as usize).iter().enumerate() {
                if depth[v as usize] == u32::MAX {
                    depth[v as usize] = level;
                    pos[v as usize] = next.len() as u32;
                    found_by[v as usize] = (i as u32, it as u32);
                    next.push(v);
                }
            }
        }
        lists.push(next);
    }
    lists.pop();
    (depth, lists, pos, found_by)
}

pub(super) fn build(size: Size, seed: u64, mem: &mut AddrSpace) -> Vec<Box<dyn Kernel>> {
    let g = bfs::graph(size, seed);
    let n = g.nodes() as u64;
    let (depth, lists, pos, found_by) = search(&g, bfs::source(&g));
    let levels = lists.len() as u32;
    let d = Arc::new(Data {
        row: mem.alloc("row", WORD * (n + 1)),
        col: mem.alloc("col", WORD * g.edges() as u64),
        dist: mem.alloc("dist", WORD * n),
        wl: [mem.alloc("worklist_a", WORD * n), mem.alloc("worklist_b", WORD * n)],
        len: [mem.alloc("worklist_a_len", WORD), mem.alloc("worklist_b_len", WORD)],
        g,
        depth,
        lists,
        pos,
        found_by,
    });
    let mut launches: Vec<Box<dyn Kernel>> = vec![Box::new(Init { d: d.clone() })];
    for level in 0..levels {
        launches.push(Box::new(Expand::new(d.clone(), level)));
    }
    launches
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::graph::bfs_depths;

    #[test]
    fn worklists_are_the_frontiers_in_discovery_order() {
        let g = bfs::graph(Size::Small, 5);
        let source = bfs::source(&g);
        let (depth, lists, pos, found_by) = search(&g, source);
        assert_eq!(depth, bfs_depths(&g, source));
        for (level, list) in lists.iter().enumerate() {
            assert!(!list.is_empty());
            for (i, &v) in list.iter().enumerate() {
                assert_eq!(depth[v as usize], level as u32);
                assert_eq!(pos[v as usize], i as u32);
                if level > 0 {
                    let (item, it) = found_by[v as usize];
                    let parent = lists[level - 1][item as usize] as usize;
                    assert_eq!(g.neighbors(parent)[it as usize], v);
                }
            }
        }
        let reached = depth.iter().filter(|&&x| x != u32::MAX).count();
        assert_eq!(lists.iter().map(Vec::len).sum::<usize>(), reached);
    }
}
