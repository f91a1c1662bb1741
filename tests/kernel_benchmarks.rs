//! Built-in kernels against their benchmarks' semantics: the graph kernels follow the
//! real search, spmv gathers through the generated CSR, stencils synchronise, pvc
//! probes like its hash table, and streamcluster's lanes split between its branches.

mod kernels_common;

use kernels_common::*;
use std::collections::{BTreeSet, HashMap};
use warpscope::kernels::{bfs, pvc, spmv, sssp, Instr, Kernel, MemInstr, Size};
use warpscope::mem::AccessKind;

/// The tiny bfs graph's source and its nodes by depth (the reference search's frontiers).
fn tiny_frontiers() -> (u64, Vec<BTreeSet<u64>>) {
    let g = bfs::graph(Size::Tiny, SEED);
    let source = bfs::source(&g);
    let depth = reference_bfs(&g.row, &g.col, source);
    let levels = depth.iter().flatten().max().unwrap() + 1;
    let at = |d: u32| (0..depth.len()).filter(|&v| depth[v] == Some(d)).map(|v| v as u64).collect();
    (source as u64, (0..levels).map(at).collect())
}

#[test]
fn bfs_launches_follow_the_real_frontier() {
    let (source, frontiers) = tiny_frontiers();
    let levels = frontiers.len() as u32;
    let at = |d: u32| frontiers.get(d as usize).cloned().unwrap_or_default();
    let (launches, mem) = tiny("bfs");
    assert!(levels > 2, "the tiny graph should need a few levels");
    assert_eq!(launches.len() as u32, 2 * levels);
    let (mask, visited, updating) =
        (mem.find("mask").unwrap().base, mem.find("visited").unwrap().base, mem.find("updating").unwrap().base);
    let mut seen: BTreeSet<u64> = BTreeSet::from([source]);
    for level in 0..levels {
        let k1 = launches[2 * level as usize].as_ref();
        let k2 = launches[2 * level as usize + 1].as_ref();
        let frontier = touched(k1, pc_of(k1, "mask", AccessKind::Write, 0), mask);
        assert_eq!(frontier, at(level), "level {level} frontier");
        if level == 0 {
            assert_eq!(frontier, BTreeSet::from([source]));
        }
        let next = touched(k1, pc_of(k1, "updating", AccessKind::Write, 0), updating);
        assert_eq!(next, at(level + 1), "level {level} updates");
        seen.extend(touched(k2, pc_of(k2, "visited", AccessKind::Write, 0), visited));
    }
    let reachable: BTreeSet<u64> = frontiers.into_iter().flatten().collect();
    assert_eq!(seen, reachable);
}

#[test]
fn bfs_wl_expands_every_reached_node_once_and_pushes_it_once() {
    let (_, frontiers) = tiny_frontiers();
    let levels = frontiers.len() as u32;
    let at = |d: u32| frontiers.get(d as usize).cloned().unwrap_or_default();
    let nodes = bfs::graph(Size::Tiny, SEED).nodes() as u64;
    let (launches, mem) = tiny("bfs_wl");
    assert_eq!(launches.len() as u32, 1 + levels, "an init launch, then one per level");
    let (row, dist) = (mem.find("row").unwrap().base, mem.find("dist").unwrap().base);
    let init = launches[0].as_ref();
    let all: BTreeSet<u64> = (0..nodes).collect();
    assert_eq!(touched(init, pc_of(init, "dist", AccessKind::Write, 0), dist), all);
    let lane_count = |k: &dyn Kernel, pc: u32| -> usize {
        warp_streams(k)
            .iter()
            .flat_map(|s| mems(s).filter(|m| m.pc == pc).map(|m| m.mask.count_ones() as usize).collect::<Vec<_>>())
            .sum()
    };
    for level in 0..levels {
        let k = launches[1 + level as usize].as_ref();
        let out = if level % 2 == 0 { "worklist_b" } else { "worklist_a" };
        let expanded = touched(k, pc_of(k, "row", AccessKind::Read, 0), row);
        assert_eq!(expanded, at(level), "level {level} expands its frontier");
        assert_eq!(lane_count(k, pc_of(k, "row", AccessKind::Read, 0)), at(level).len(), "level {level}: once each");
        let pushed = touched(k, pc_of(k, "dist", AccessKind::Write, 0), dist);
        assert_eq!(pushed, at(level + 1), "level {level} discovers the next frontier");
        let slots = touched(k, pc_of(k, out, AccessKind::Write, 0), mem.find(out).unwrap().base);
        assert_eq!(slots, (0..at(level + 1).len() as u64).collect(), "level {level} fills the worklist densely");
        assert_eq!(lane_count(k, pc_of(k, out, AccessKind::Write, 0)), at(level + 1).len(), "level {level}");
    }
}

#[test]
fn sssp_relaxes_until_nothing_changes() {
    let (g, _) = sssp::graph(Size::Tiny, SEED);
    let source = (0..g.nodes()).max_by_key(|&v| (g.degree(v), std::cmp::Reverse(v))).unwrap();
    let depth = reference_bfs(&g.row, &g.col, source);
    let (launches, mem) = tiny("sssp");
    assert!(launches.len() >= 3);
    let dist = mem.find("dist").unwrap().base;
    let changed = mem.find("changed").unwrap().base;
    let mut improved = BTreeSet::new();
    for (t, k) in launches.iter().enumerate() {
        let stores = touched(k.as_ref(), pc_of(k.as_ref(), "dist", AccessKind::Write, 0), dist);
        let flags = touched(k.as_ref(), pc_of(k.as_ref(), "changed", AccessKind::Write, 0), changed);
        let last = t + 1 == launches.len();
        assert_eq!(stores.is_empty(), last, "round {t}");
        assert_eq!(flags.is_empty(), last, "round {t}");
        improved.extend(stores);
    }
    let reached: BTreeSet<u64> =
        (0..depth.len()).filter(|&v| depth[v].is_some() && v != source).map(|v| v as u64).collect();
    assert_eq!(improved, reached);
}

#[test]
fn spmv_gathers_x_through_the_generated_csr() {
    let m = spmv::matrix(Size::Tiny, SEED);
    let (launches, mem) = tiny("spmv");
    let k = launches[0].as_ref();
    let (pc, x) = (pc_of(k, "x", AccessKind::Read, 0), mem.find("x").unwrap().base);
    let mut gathers = 0;
    for (w, stream) in warp_streams(k).iter().enumerate() {
        let loads: Vec<&MemInstr> = mems(stream).filter(|i| i.pc == pc).collect();
        let rows: Vec<usize> = (w * 32..(w + 1) * 32).filter(|&r| r < m.nodes()).collect();
        assert_eq!(loads.len() as u32, rows.iter().map(|&r| m.degree(r)).max().unwrap_or(0));
        for (k, load) in loads.iter().enumerate() {
            for &r in &rows {
                let l = r - w * 32;
                let live = (k as u32) < m.degree(r);
                assert_eq!(load.mask >> l & 1 == 1, live, "row {r} nonzero {k}");
                if live {
                    let col = m.col[m.row[r] as usize + k] as u64;
                    assert_eq!(load.addrs[l], x + 4 * col, "row {r} nonzero {k}");
                    gathers += 1;
                }
            }
        }
    }
    assert_eq!(gathers, m.edges());
}

#[test]
fn stencil_kernels_synchronise_every_warp() {
    let (launches, _) = tiny("hotspot");
    for k in &launches {
        for s in warp_streams(k.as_ref()) {
            let barriers = s.iter().filter(|i| matches!(i, Instr::Barrier)).count();
            assert_eq!(barriers, 4, "{}: load barrier plus two per step but the last", k.name());
        }
    }
    let (launches, _) = tiny("conv_separable");
    for k in &launches {
        for s in warp_streams(k.as_ref()) {
            assert_eq!(s.iter().filter(|i| matches!(i, Instr::Barrier)).count(), 1);
        }
    }
}

#[test]
fn pvc_probes_from_the_home_slot_until_the_key() {
    let log = pvc::log(Size::Tiny, SEED);
    let (launches, mem) = tiny("pvc");
    let k = launches[0].as_ref();
    let table = mem.find("table").unwrap().base;
    let (probe, count) = (pc_of(k, "table", AccessKind::Read, 0), pc_of(k, "table", AccessKind::Write, 0));
    let mut repeated = 0;
    for (w, stream) in warp_streams(k).iter().enumerate() {
        let mut probes: HashMap<usize, Vec<u64>> = HashMap::new();
        for m in mems(stream) {
            for (l, a) in lanes(m) {
                let url = log.entry_url[w * 32 + l] as usize;
                if m.pc == probe {
                    probes.entry(l).or_default().push(a);
                } else if m.pc == count {
                    let p = &probes[&l];
                    assert_eq!(p.len() as u32, log.probes[url]);
                    assert_eq!(p[0], table + 8 * log.home[url] as u64);
                    assert_eq!(a, p[p.len() - 1] + 4);
                    repeated += (p.len() > 1) as usize;
                }
            }
        }
    }
    assert!(repeated > 0, "some lookups should collide");
}

#[test]
fn streamcluster_lanes_take_one_branch_each() {
    let (launches, _) = tiny("streamcluster");
    let (mut switched, mut stayed) = (0, 0);
    for k in &launches {
        let sw = pc_of(k.as_ref(), "switch_membership", AccessKind::Write, 0);
        let assign = pc_of(k.as_ref(), "points", AccessKind::Read, 2);
        let weight = pc_of(k.as_ref(), "points", AccessKind::Read, 0);
        for s in warp_streams(k.as_ref()) {
            let mask = |pc| mems(&s).find(|m| m.pc == pc).map_or(0, |m| m.mask);
            let (a, b, all) = (mask(sw), mask(assign), mask(weight));
            assert_eq!((a & b, a | b), (0, all), "{}", k.name());
            switched += a.count_ones();
            stayed += b.count_ones();
        }
    }
    assert!(switched > 0 && stayed > 0);
}
