//! Helpers shared by the kernel integration tests: driving warps to their exit and
//! picking memory instructions apart.

// Each test crate that includes this module uses a different subset of it.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};
use warpscope::kernels::addr::AddrSpace;
use warpscope::kernels::{build_with_layout, Instr, Kernel, MemInstr, Size, StaticLoad, WARP_SIZE};
use warpscope::mem::AccessKind;

pub const SEED: u64 = 42;

/// Every warp of one launch driven to its exit, in (cta, warp) order.
pub fn warp_streams(k: &dyn Kernel) -> Vec<Vec<Instr>> {
    let g = k.grid();
    let mut all = Vec::new();
    for cta in 0..g.ctas {
        for warp in 0..g.warps_per_cta() {
            let mut out = Vec::new();
            let mut step = 0;
            loop {
                let before = out.len();
                if !k.emit(cta, warp, step, &mut out) {
                    assert!(!k.emit(cta, warp, step + 1, &mut out), "{}: warp came back", k.name());
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
    let mut out = Vec::new();
    assert!(!k.emit(g.ctas, 0, 0, &mut out), "{}: a CTA beyond the grid ran", k.name());
    assert!(!k.emit(0, g.warps_per_cta(), 0, &mut out), "{}: a warp beyond the CTA ran", k.name());
    assert!(out.is_empty());
    all
}

pub fn mems(stream: &[Instr]) -> impl Iterator<Item = &MemInstr> {
    stream.iter().filter_map(|i| match i {
        Instr::Mem(m) => Some(&**m),
        _ => None,
    })
}

pub fn lanes(m: &MemInstr) -> impl Iterator<Item = (usize, u64)> + '_ {
    (0..WARP_SIZE).filter(move |l| m.mask >> l & 1 == 1).map(move |l| (l, m.addrs[l]))
}

pub fn lines(m: &MemInstr) -> HashSet<u64> {
    lanes(m).map(|(_, a)| a / 128).collect()
}

/// The pc of launch `k`'s memory instruction on `array` of `kind` (the n-th such).
pub fn pc_of(k: &dyn Kernel, array: &str, kind: AccessKind, n: usize) -> u32 {
    let found: Vec<StaticLoad> = k.static_loads().into_iter().filter(|s| s.array == array && s.kind == kind).collect();
    found.get(n).unwrap_or_else(|| panic!("{}: no {kind:?} #{n} of {array}", k.name())).pc
}

pub fn tiny(name: &str) -> (Vec<Box<dyn Kernel>>, AddrSpace) {
    let (b, mem) = build_with_layout(name, Size::Tiny, SEED).unwrap();
    (b.launches, mem)
}

/// Hop distances by a plain queue-based search, independent of the kernels' own.
pub fn reference_bfs(row: &[u32], col: &[u32], source: usize) -> Vec<Option<u32>> {
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
pub fn touched(k: &dyn Kernel, pc: u32, base: u64) -> BTreeSet<u64> {
    let streams = warp_streams(k);
    let ms = streams.iter().flat_map(|s| mems(s)).filter(|m| m.pc == pc);
    ms.flat_map(|m| lanes(m).map(|(_, a)| (a - base) / m.width as u64).collect::<Vec<_>>()).collect()
}
