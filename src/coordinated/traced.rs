//! The global loads of a kernel that has no static list of them (a trace), found by reading
//! every warp's instructions once: a load is its traced PC, as a built-in kernel's is its
//! load id. What the built-in kernels state, a trace implies: a load is in a loop if a warp
//! runs it more than once, after the barrier if the first warp to run it has passed one by
//! then, and two loads read the same array if the address ranges they touch overlap
//! (directly or through other loads), since distinct allocations do not.

use super::Load;
use crate::kernels::{Instr, Kernel};
use crate::mem::AccessKind;
use std::collections::BTreeMap;

/// What reading found of each load PC so far.
#[derive(Default)]
pub(super) struct Found(BTreeMap<u32, Seen>);

struct Seen {
    function: usize,
    in_loop: bool,
    after_barrier: bool,
    /// Lowest and one past the highest byte its lanes touched.
    range: (u64, u64),
}

impl Found {
    /// Reads the loads of launch `function` (an index in the benchmark); a PC already seen in
    /// an earlier launch keeps that launch as its function.
    pub(super) fn scan(&mut self, kernel: &dyn Kernel, function: usize) {
        let seen = &mut self.0;
        let grid = kernel.grid();
        let mut instrs = Vec::new();
        let mut runs: BTreeMap<u32, u32> = BTreeMap::new();
        for cta in 0..grid.ctas {
            for warp in 0..grid.warps_per_cta() {
                runs.clear();
                let mut barrier = false;
                let mut step = 0;
                instrs.clear();
                while kernel.emit(cta, warp, step, &mut instrs) {
                    step += 1;
                }
                for i in &instrs {
                    let m = match i {
                        Instr::Barrier => {
                            barrier = true;
                            continue;
                        }
                        Instr::Mem(m) if m.kind == AccessKind::Read => m,
                        _ => continue,
                    };
                    let n = runs.entry(m.pc).or_default();
                    *n += 1;
                    let lanes = (0..32).filter(|l| m.mask & (1 << l) != 0).map(|l| m.addrs[l]);
                    let (lo, hi) = lanes.fold((u64::MAX, 0), |(lo, hi), a| (lo.min(a), hi.max(a + m.width as u64)));
                    let s = seen.entry(m.pc).or_insert(Seen {
                        function,
                        in_loop: false,
                        after_barrier: barrier,
                        range: (lo, hi),
                    });
                    s.in_loop |= *n > 1;
                    s.range = (s.range.0.min(lo), s.range.1.max(hi));
                }
            }
        }
    }

    /// The loads found, in PC order, each with its array: the overlapping ranges it belongs to,
    /// named by their span.
    pub(super) fn loads(self) -> Vec<Load> {
        let seen = self.0;
        let mut spans: Vec<(u64, u64)> = seen.values().map(|s| s.range).filter(|r| r.0 < r.1).collect();
        spans.sort_unstable();
        let mut arrays: Vec<(u64, u64)> = Vec::new();
        for (lo, hi) in spans {
            match arrays.last_mut() {
                Some(a) if lo < a.1 => a.1 = a.1.max(hi),
                _ => arrays.push((lo, hi)),
            }
        }
        seen.into_iter()
            .map(|(pc, s)| {
                let array = arrays.iter().find(|a| a.0 <= s.range.0 && s.range.1 <= a.1);
                Load {
                    pc,
                    function: s.function,
                    array: array.map_or_else(|| "none".to_string(), |a| format!("{:#x}..{:#x}", a.0, a.1)),
                    in_loop: s.in_loop,
                    after_barrier: s.after_barrier,
                }
            })
            .collect()
    }
}
