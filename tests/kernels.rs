//! Built-in kernels: every benchmark builds, its warps' instruction streams are
//! well-formed, bounded and deterministic, and the index arithmetic matches the
//! benchmark it reproduces.

use std::collections::{BTreeSet, HashMap, HashSet};
use warpscope::kernels::addr::AddrSpace;
use warpscope::kernels::{bfs, pvc, spmv, sssp};
use warpscope::kernels::{build, build_with_layout, Instr, Kernel, MemInstr, Size, StaticLoad};
use warpscope::kernels::{KERNELS, WARP_SIZE};
use warpscope::mem::AccessKind;

const SEED: u64 = 42;
const DATA_DEPENDENT: &[&str] = &["bfs", "sssp", "spmv", "streamcluster", "pvc"];

/// Every warp of one launch driven to its exit, in (cta, warp) order.
fn warp_streams(k: &dyn Kernel) -> Vec<Vec<Instr>> {
    let g = k.grid();
    let mut all = Vec::new();
    for cta in 0..g.ctas {
        for warp in 0..g.warps_per_cta() {
            let mut out = Vec::new();
            let mut step = 0;
            loop {
                let before = out.len();
                if !k.emit(cta, warp, step, &mut out) {
                    assert_eq!(out.len(), before, "{}: an exited warp appended", k.name());
                    break;
                }
                assert!(out.len() > before, "{}: chunk {step} is empty", k.name());
                step += 1;
                assert!(step < 1_000_000, "{}: warp never exits", k.name());
            }
            all.push(out);
        }
    }
    all
}

fn mems(stream: &[Instr]) -> impl Iterator<Item = &MemInstr> {
    stream.iter().filter_map(|i| match i {
        Instr::Mem(m) => Some(&**m),
        _ => None,
    })
}

fn lanes(m: &MemInstr) -> impl Iterator<Item = (usize, u64)> + '_ {
    (0..WARP_SIZE)
        .filter(move |l| m.mask >> l & 1 == 1)
        .map(move |l| (l, m.addrs[l]))
}

fn lines(m: &MemInstr) -> HashSet<u64> {
    lanes(m).map(|(_, a)| a / 128).collect()
}

/// The pc of launch `k`'s memory instruction on `array` of `kind` (the n-th such).
fn pc_of(k: &dyn Kernel, array: &str, kind: AccessKind, n: usize) -> u32 {
    let found: Vec<StaticLoad> = k
        .static_loads()
        .into_iter()
        .filter(|s| s.array == array && s.kind == kind)
        .collect();
    found
        .get(n)
        .unwrap_or_else(|| panic!("{}: no {kind:?} #{n} of {array}", k.name()))
        .pc
}

fn tiny(name: &str) -> (Vec<Box<dyn Kernel>>, AddrSpace) {
    let (b, mem) = build_with_layout(name, Size::Tiny, SEED).unwrap();
    (b.launches, mem)
}

#[test]
fn every_kernel_builds_at_every_size() {
    for (name, about) in KERNELS {
        assert!(!about.is_empty());
        for size in Size::NAMES.iter().map(|s| Size::parse(s).unwrap()) {
            let b = build(name, size, SEED).unwrap();
            assert_eq!((b.name.as_str(), b.size), (*name, size));
            assert!(!b.launches.is_empty(), "{name} {size:?}");
            for k in &b.launches {
                let g = k.grid();
                assert!(g.ctas > 0 && g.threads_per_cta > 0, "{}", k.name());
            }
        }
    }
}

#[test]
fn unknown_kernel_lists_the_valid_ones() {
    let err = build("nope", Size::Tiny, 1)
        .err()
        .expect("unknown name must fail");
    assert_eq!(err.field, "kernel");
    assert!(err
        .message
        .starts_with("unknown kernel `nope`; valid kernels are: atax, bicg"));
    for (name, _) in KERNELS {
        assert!(
            err.message.contains(name),
            "{name} missing from {}",
            err.message
        );
    }
}

#[test]
fn tiny_streams_are_well_formed_and_within_budget() {
    for (name, _) in KERNELS {
        let (launches, mem) = tiny(name);
        let (mut total, mut mem_total) = (0usize, 0usize);
        let mut pcs: HashMap<u32, StaticLoad> = HashMap::new();
        for k in &launches {
            let statics: HashMap<u32, StaticLoad> =
                k.static_loads().into_iter().map(|s| (s.pc, s)).collect();
            assert_eq!(
                statics.len(),
                k.static_loads().len(),
                "{}: repeated pc",
                k.name()
            );
            for s in statics.values() {
                let prev = pcs.entry(s.pc).or_insert_with(|| s.clone());
                let same = (prev.kind, prev.op, prev.in_loop, prev.after_barrier)
                    == (s.kind, s.op, s.in_loop, s.after_barrier);
                assert!(same, "{}: pc {} means two instructions", k.name(), s.pc);
            }
            let streams = warp_streams(k.as_ref());
            let per_cta = k.grid().warps_per_cta() as usize;
            for cta in streams.chunks(per_cta) {
                let barriers: BTreeSet<usize> = cta
                    .iter()
                    .map(|s| s.iter().filter(|i| matches!(i, Instr::Barrier)).count())
                    .collect();
                assert!(
                    barriers.len() <= 1,
                    "{}: warps disagree on barriers",
                    k.name()
                );
            }
            for m in streams.iter().flat_map(|s| mems(s)) {
                let s = statics
                    .get(&m.pc)
                    .unwrap_or_else(|| panic!("{}: pc {}", k.name(), m.pc));
                assert_eq!((m.kind, m.op), (s.kind, s.op), "{} pc {}", k.name(), m.pc);
                assert_ne!(m.mask, 0, "{} pc {}: no active lane", k.name(), m.pc);
                match m.kind {
                    AccessKind::Read => {
                        assert_eq!(m.dst.count_ones(), 1, "{} pc {}", k.name(), m.pc)
                    }
                    AccessKind::Write => assert_eq!(m.dst, 0, "{} pc {}", k.name(), m.pc),
                }
                for (_, a) in lanes(m) {
                    assert_eq!(
                        a % m.width as u64,
                        0,
                        "{} pc {}: unaligned {a:#x}",
                        k.name(),
                        m.pc
                    );
                    let arr = mem.array_at(a).filter(|x| x.contains(a, m.width as u64));
                    let arr = arr.map(|x| x.name);
                    assert_eq!(arr, Some(s.array), "{} pc {}: {a:#x}", k.name(), m.pc);
                }
            }
            total += streams.iter().map(Vec::len).sum::<usize>();
            mem_total += streams.iter().map(|s| mems(s).count()).sum::<usize>();
        }
        assert!(total <= 20_000, "{name}: {total} warp-instructions at tiny");
        assert!(
            mem_total <= 5_000,
            "{name}: {mem_total} memory instructions at tiny"
        );
    }
}

#[test]
fn streams_are_deterministic_per_seed() {
    let streams = |name: &str, seed: u64| -> Vec<Vec<Vec<Instr>>> {
        let b = build(name, Size::Tiny, seed).unwrap();
        b.launches
            .iter()
            .map(|k| warp_streams(k.as_ref()))
            .collect()
    };
    for (name, _) in KERNELS {
        let a = streams(name, 7);
        assert!(
            a == streams(name, 7),
            "{name}: same seed, different streams"
        );
        if DATA_DEPENDENT.contains(name) {
            assert!(
                a != streams(name, 8),
                "{name}: the seed does not change the data"
            );
        }
    }
}

/// Checks every full-warp load of `array` in launch `idx` touches `expect` lines.
fn check_lines(name: &str, idx: usize, array: &str, n: usize, expect: &[usize]) {
    let (launches, _) = tiny(name);
    let k = launches[idx].as_ref();
    let pc = pc_of(k, array, AccessKind::Read, n);
    let mut seen = 0;
    for m in warp_streams(k).iter().flat_map(|s| mems(s)) {
        if m.pc == pc && m.mask == u32::MAX {
            seen += 1;
            let got = lines(m).len();
            assert!(
                expect.contains(&got),
                "{}: {array} load touches {got} lines",
                k.name()
            );
        }
    }
    assert!(seen > 0, "{}: no full-warp {array} load", k.name());
}

#[test]
fn matrix_vector_kernels_stride_or_coalesce_as_their_benchmarks() {
    check_lines("atax", 0, "A", 0, &[32]);
    check_lines("atax", 0, "x", 0, &[1]);
    check_lines("atax", 1, "A", 0, &[1, 2]);
    check_lines("bicg", 0, "A", 0, &[1, 2]);
    check_lines("bicg", 1, "A", 0, &[32]);
    check_lines("mvt", 0, "A", 0, &[32]);
    check_lines("mvt", 1, "A", 0, &[1, 2]);
    check_lines("gesummv", 0, "A", 0, &[32]);
    check_lines("gesummv", 0, "B", 0, &[32]);
    check_lines("syrk", 0, "A", 0, &[1]);
    // At tiny, rows of A are M = 16 floats (64 B): two lanes' rows share a line.
    check_lines("syrk", 0, "A", 1, &[16]);
    check_lines("syrk", 0, "C", 0, &[1, 2]);
}

#[test]
fn kmeans_cluster_loads_are_one_address() {
    let (launches, _) = tiny("kmeans");
    let k = launches[0].as_ref();
    let pc = pc_of(k, "clusters", AccessKind::Read, 0);
    let streams = warp_streams(k);
    let loads: Vec<&MemInstr> = streams
        .iter()
        .flat_map(|s| mems(s))
        .filter(|m| m.pc == pc)
        .collect();
    assert!(!loads.is_empty());
    for m in loads {
        let addrs: HashSet<u64> = lanes(m).map(|(_, a)| a).collect();
        assert_eq!(addrs.len(), 1);
    }
    check_lines("kmeans", 0, "features", 0, &[1]);
}

/// Hop distances by a plain queue-based search, independent of the kernels' own.
fn reference_bfs(row: &[u32], col: &[u32], source: usize) -> Vec<Option<u32>> {
    let mut depth = vec![None; row.len() - 1];
    let mut queue = std::collections::VecDeque::from([source]);
    depth[source] = Some(0);
    while let Some(u) = queue.pop_front() {
        for &v in &col[row[u] as usize..row[u + 1] as usize] {
            if depth[v as usize].is_none() {
                depth[v as usize] = Some(depth[u].unwrap() + 1);
                queue.push_back(v as usize);
            }
        }
    }
    depth
}

/// Element indices (`(addr - base) / width`) of every active lane of `pc` in `k`.
fn touched(k: &dyn Kernel, pc: u32, base: u64) -> BTreeSet<u64> {
    let streams = warp_streams(k);
    let ms = streams.iter().flat_map(|s| mems(s)).filter(|m| m.pc == pc);
    ms.flat_map(|m| {
        lanes(m)
            .map(|(_, a)| (a - base) / m.width as u64)
            .collect::<Vec<_>>()
    })
    .collect()
}

#[test]
fn bfs_launches_follow_the_real_frontier() {
    let g = bfs::graph(Size::Tiny, SEED);
    let source = bfs::source(&g);
    let depth = reference_bfs(&g.row, &g.col, source);
    let levels = depth.iter().flatten().max().unwrap() + 1;
    let at = |d: u32| -> BTreeSet<u64> {
        (0..depth.len())
            .filter(|&v| depth[v] == Some(d))
            .map(|v| v as u64)
            .collect()
    };
    let (launches, mem) = tiny("bfs");
    assert!(levels > 2, "the tiny graph should need a few levels");
    assert_eq!(launches.len() as u32, 2 * levels);
    let (mask, visited, updating) = (
        mem.find("mask").unwrap().base,
        mem.find("visited").unwrap().base,
        mem.find("updating").unwrap().base,
    );
    let mut seen: BTreeSet<u64> = BTreeSet::from([source as u64]);
    for level in 0..levels {
        let k1 = launches[2 * level as usize].as_ref();
        let k2 = launches[2 * level as usize + 1].as_ref();
        let frontier = touched(k1, pc_of(k1, "mask", AccessKind::Write, 0), mask);
        assert_eq!(frontier, at(level), "level {level} frontier");
        if level == 0 {
            assert_eq!(frontier, BTreeSet::from([source as u64]));
        }
        let next = touched(k1, pc_of(k1, "updating", AccessKind::Write, 0), updating);
        assert_eq!(next, at(level + 1), "level {level} updates");
        seen.extend(touched(
            k2,
            pc_of(k2, "visited", AccessKind::Write, 0),
            visited,
        ));
    }
    let reachable: BTreeSet<u64> = (0..depth.len())
        .filter(|&v| depth[v].is_some())
        .map(|v| v as u64)
        .collect();
    assert_eq!(seen, reachable);
}

#[test]
fn sssp_relaxes_until_nothing_changes() {
    let (g, _) = sssp::graph(Size::Tiny, SEED);
    let source = (0..g.nodes())
        .max_by_key(|&v| (g.degree(v), std::cmp::Reverse(v)))
        .unwrap();
    let depth = reference_bfs(&g.row, &g.col, source);
    let (launches, mem) = tiny("sssp");
    assert!(launches.len() >= 3);
    let dist = mem.find("dist").unwrap().base;
    let changed = mem.find("changed").unwrap().base;
    let mut improved = BTreeSet::new();
    for (t, k) in launches.iter().enumerate() {
        let stores = touched(
            k.as_ref(),
            pc_of(k.as_ref(), "dist", AccessKind::Write, 0),
            dist,
        );
        let flags = touched(
            k.as_ref(),
            pc_of(k.as_ref(), "changed", AccessKind::Write, 0),
            changed,
        );
        let last = t + 1 == launches.len();
        assert_eq!(stores.is_empty(), last, "round {t}");
        assert_eq!(flags.is_empty(), last, "round {t}");
        improved.extend(stores);
    }
    let reached: BTreeSet<u64> = (0..depth.len())
        .filter(|&v| depth[v].is_some() && v != source)
        .map(|v| v as u64)
        .collect();
    assert_eq!(improved, reached);
}

#[test]
fn spmv_gathers_x_through_the_generated_csr() {
    let m = spmv::matrix(Size::Tiny, SEED);
    let (launches, mem) = tiny("spmv");
    let k = launches[0].as_ref();
    let (pc, x) = (
        pc_of(k, "x", AccessKind::Read, 0),
        mem.find("x").unwrap().base,
    );
    let mut gathers = 0;
    for (w, stream) in warp_streams(k).iter().enumerate() {
        let loads: Vec<&MemInstr> = mems(stream).filter(|i| i.pc == pc).collect();
        let rows: Vec<usize> = (w * 32..(w + 1) * 32).filter(|&r| r < m.nodes()).collect();
        assert_eq!(
            loads.len() as u32,
            rows.iter().map(|&r| m.degree(r)).max().unwrap_or(0)
        );
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
            assert_eq!(
                barriers,
                4,
                "{}: load barrier plus two per step but the last",
                k.name()
            );
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
    let (probe, count) = (
        pc_of(k, "table", AccessKind::Read, 0),
        pc_of(k, "table", AccessKind::Write, 0),
    );
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

#[test]
#[ignore = "prints instruction counts; run with --release -- --ignored --nocapture"]
fn instruction_counts() {
    for size in [Size::Tiny, Size::Small, Size::Paper] {
        for (name, _) in KERNELS {
            if std::env::var("KERNEL").is_ok_and(|k| k != *name) {
                continue;
            }
            let b = build(name, size, 1).unwrap();
            let (mut instrs, mut mem, mut warps) = (0u64, 0u64, 0u64);
            let mut out = Vec::new();
            for k in &b.launches {
                let g = k.grid();
                for cta in 0..g.ctas {
                    for warp in 0..g.warps_per_cta() {
                        warps += 1;
                        let mut step = 0;
                        while k.emit(cta, warp, step, &mut out) {
                            step += 1;
                            instrs += out.len() as u64;
                            mem += mems(&out).count() as u64;
                            out.clear();
                        }
                    }
                }
            }
            let launches = b.launches.len();
            println!("{size:?} {name}: {launches} launches, {warps} warps, {instrs} warp-instructions, {mem} memory");
        }
    }
}
