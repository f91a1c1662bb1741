//! Built-in kernels: every benchmark builds, its warps' instruction streams are
//! well-formed, bounded and deterministic, and the matrix kernels stride or coalesce
//! as their benchmarks do.

mod kernels_common;

use kernels_common::*;
use std::collections::{BTreeSet, HashMap, HashSet};
use warpscope::kernels::{build, Instr, MemInstr, Size, StaticLoad, KERNELS};
use warpscope::mem::AccessKind;

const DATA_DEPENDENT: &[&str] = &["bfs", "bfs_wl", "sssp", "spmv", "streamcluster", "pvc"];

#[test]
fn every_kernel_builds_at_every_size() {
    for (name, about) in KERNELS {
        assert!(!about.is_empty());
        for size in Size::NAMES.iter().map(|s| Size::parse(s).unwrap()) {
            let b = build(name, size, SEED).unwrap();
            assert_eq!((b.name.as_str(), b.size), (*name, Some(size)));
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
    let err = build("nope", Size::Tiny, 1).err().expect("unknown name must fail");
    assert_eq!(err.field, "kernel");
    assert!(err.message.starts_with("unknown kernel `nope`; valid kernels are: atax, bicg"));
    for (name, _) in KERNELS {
        assert!(err.message.contains(name), "{name} missing from {}", err.message);
    }
}

#[test]
fn tiny_streams_are_well_formed_and_within_budget() {
    for (name, _) in KERNELS {
        let (launches, mem) = tiny(name);
        let (mut total, mut mem_total) = (0usize, 0usize);
        let mut pcs: HashMap<u32, StaticLoad> = HashMap::new();
        for k in &launches {
            let statics: HashMap<u32, StaticLoad> = k.static_loads().into_iter().map(|s| (s.pc, s)).collect();
            assert_eq!(statics.len(), k.static_loads().len(), "{}: repeated pc", k.name());
            for s in statics.values() {
                let prev = pcs.entry(s.pc).or_insert_with(|| s.clone());
                let same = (prev.kind, prev.op, prev.in_loop, prev.after_barrier)
                    == (s.kind, s.op, s.in_loop, s.after_barrier);
                assert!(same, "{}: pc {} means two instructions", k.name(), s.pc);
            }
            let streams = warp_streams(k.as_ref());
            let per_cta = k.grid().warps_per_cta() as usize;
            for cta in streams.chunks(per_cta) {
                let barriers: BTreeSet<usize> =
                    cta.iter().map(|s| s.iter().filter(|i| matches!(i, Instr::Barrier)).count()).collect();
                assert!(barriers.len() <= 1, "{}: warps disagree on barriers", k.name());
            }
            for m in streams.iter().flat_map(|s| mems(s)) {
                let s = statics.get(&m.pc).unwrap_or_else(|| panic!("{}: pc {}", k.name(), m.pc));
                assert_eq!((m.kind, m.op), (s.kind, s.op), "{} pc {}", k.name(), m.pc);
                assert_ne!(m.mask, 0, "{} pc {}: no active lane", k.name(), m.pc);
                match m.kind {
                    AccessKind::Read => {
                        assert_eq!(m.dst.count_ones(), 1, "{} pc {}", k.name(), m.pc)
                    }
                    AccessKind::Write => assert_eq!(m.dst, 0, "{} pc {}", k.name(), m.pc),
                }
                for (_, a) in lanes(m) {
                    assert_eq!(a % m.width as u64, 0, "{} pc {}: unaligned {a:#x}", k.name(), m.pc);
                    let arr = mem.array_at(a).filter(|x| x.contains(a, m.width as u64));
                    let arr = arr.map(|x| x.name);
                    assert_eq!(arr, Some(s.array), "{} pc {}: {a:#x}", k.name(), m.pc);
                }
            }
            total += streams.iter().map(Vec::len).sum::<usize>();
            mem_total += streams.iter().map(|s| mems(s).count()).sum::<usize>();
        }
        assert!(total <= 20_000, "{name}: {total} warp-instructions at tiny");
        assert!(mem_total <= 5_000, "{name}: {mem_total} memory instructions at tiny");
    }
}

#[test]
fn streams_are_deterministic_per_seed() {
    let streams = |name: &str, seed: u64| -> Vec<Vec<Vec<Instr>>> {
        let b = build(name, Size::Tiny, seed).unwrap();
        b.launches.iter().map(|k| warp_streams(k.as_ref())).collect()
    };
    for (name, _) in KERNELS {
        let a = streams(name, 7);
        assert!(a == streams(name, 7), "{name}: same seed, different streams");
        if DATA_DEPENDENT.contains(name) {
            assert!(a != streams(name, 8), "{name}: the seed does not change the data");
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
            assert!(expect.contains(&got), "{}: {array} load touches {got} lines", k.name());
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
    let loads: Vec<&MemInstr> = streams.iter().flat_map(|s| mems(s)).filter(|m| m.pc == pc).collect();
    assert!(!loads.is_empty());
    for m in loads {
        let addrs: HashSet<u64> = lanes(m).map(|(_, a)| a).collect();
        assert_eq!(addrs.len(), 1);
    }
    check_lines("kmeans", 0, "features", 0, &[1]);
}
