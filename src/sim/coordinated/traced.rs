//! The global loads of a kernel that has no static list of them (a trace), found by reading
//! every warp's instructions once: a load is its traced PC, as a built-in kernel's is its
//! load id. What the built-in kernels state, a trace implies: a load is in a loop if a warp
//! runs it more than once, after the barrier if the first warp to run it has passed one by
//! then, and two loads read the same array if the address ranges they touch overlap
//! (directly or through other loads), since distinct allocations do not.
//!
//! Plain vectors, not maps: a kernel has few load PCs, and the page carries this code.

use super::Load;
use crate::kernels::{Instr, Kernel};
use crate::mem::AccessKind;

/// What reading found of each load PC so far, in PC order.
#[derive(Default)]
pub(super) struct Found(Vec<Seen>);

struct Seen {
    pc: u32,
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
        let grid = kernel.grid();
        let (mut instrs, mut ran) = (Vec::new(), Vec::new());
        for cta in 0..grid.ctas {
            for warp in 0..grid.warps_per_cta() {
                let (mut barrier, mut step) = (false, 0);
                instrs.clear();
                ran.clear();
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
                    let again = ran.contains(&m.pc);
                    if !again {
                        ran.push(m.pc);
                    }
                    let (mut lo, mut hi) = (u64::MAX, 0);
                    for lane in (0..32).filter(|l| m.mask & (1 << l) != 0) {
                        (lo, hi) = (lo.min(m.addrs[lane]), hi.max(m.addrs[lane] + m.width as u64));
                    }
                    let at = match self.0.binary_search_by_key(&m.pc, |s| s.pc) {
                        Ok(at) => at,
                        Err(at) => {
                            let s =
                                Seen { pc: m.pc, function, in_loop: false, after_barrier: barrier, range: (lo, hi) };
                            self.0.insert(at, s);
                            at
                        }
                    };
                    let s = &mut self.0[at];
                    s.in_loop |= again;
                    s.range = (s.range.0.min(lo), s.range.1.max(hi));
                }
            }
        }
    }

    /// The loads found, in PC order, each with its array: the overlapping ranges it belongs
    /// to, named by their span.
    pub(super) fn loads(self) -> Vec<Load> {
        let mut arrays: Vec<(u64, u64)> = Vec::new();
        for s in self.0.iter().filter(|s| s.range.0 < s.range.1) {
            let mut r = s.range;
            while let Some(i) = arrays.iter().position(|a| a.0 < r.1 && r.0 < a.1) {
                let a = arrays.swap_remove(i);
                r = (r.0.min(a.0), r.1.max(a.1));
            }
            arrays.push(r);
        }
        self.0
            .into_iter()
            .map(|s| {
                let array = arrays.iter().find(|a| a.0 <= s.range.0 && s.range.1 <= a.1);
                Load {
                    pc: s.pc,
                    function: s.function,
                    array: array.map_or_else(|| "none".to_string(), |a| format!("{:#x}..{:#x}", a.0, a.1)),
                    in_loop: s.in_loop,
                    after_barrier: s.after_barrier,
                }
            })
            .collect()
    }
}
