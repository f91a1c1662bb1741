//! Helpers shared by the integration tests: a seeded random-traffic kernel.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use warpscope::kernels::{Benchmark, Grid, Instr, Kernel, MemInstr, Size, StaticLoad, WARP_SIZE};
use warpscope::mem::{AccessKind, CacheOp};

/// Random loads and stores over `footprint` bytes: each step of each warp is one load
/// (lanes scattered over `lines_per_load` lines), an ALU op using it, and now and then
/// a store. Per-warp streams derive from the seed, so runs are reproducible.
pub struct RandomTraffic {
    pub ctas: u32,
    pub threads: u32,
    pub steps: u32,
    pub footprint: u64,
    pub lines_per_load: u32,
    pub store_every: u32,
    pub seed: u64,
}

impl RandomTraffic {
    pub fn benchmark(self) -> Benchmark {
        Benchmark { name: "random".into(), size: Some(Size::Tiny), launches: vec![Box::new(self)] }
    }
}

impl Kernel for RandomTraffic {
    fn name(&self) -> String {
        "random".into()
    }
    fn grid(&self) -> Grid {
        Grid { ctas: self.ctas, threads_per_cta: self.threads }
    }
    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![
            StaticLoad {
                pc: 1,
                array: "data",
                kind: AccessKind::Read,
                op: CacheOp::Ca,
                in_loop: true,
                after_barrier: false,
            },
            StaticLoad {
                pc: 2,
                array: "data",
                kind: AccessKind::Write,
                op: CacheOp::Ca,
                in_loop: true,
                after_barrier: false,
            },
        ]
    }
    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if step >= self.steps {
            return false;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ ((cta as u64) << 40) ^ ((warp as u64) << 20) ^ step as u64);
        let lanes_in_warp = (self.threads - warp * 32).min(32);
        let mask = if lanes_in_warp == 32 { u32::MAX } else { (1u32 << lanes_in_warp) - 1 };
        let lines = self.footprint / 128;
        let bases: Vec<u64> = (0..self.lines_per_load).map(|_| 0x1000_0000 + rng.gen_range(0..lines) * 128).collect();
        let mut addrs = [0u64; WARP_SIZE];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = bases[l % bases.len()] + 4 * (l as u64 / bases.len() as u64);
        }
        out.push(Instr::Mem(Box::new(MemInstr {
            pc: 1,
            kind: AccessKind::Read,
            op: CacheOp::Ca,
            width: 4,
            mask,
            addrs,
            dst: 1,
            srcs: 0,
        })));
        out.push(Instr::Alu { srcs: 1 });
        if self.store_every > 0 && step % self.store_every == 0 {
            let base = 0x1000_0000 + rng.gen_range(0..lines) * 128;
            let mut addrs = [0u64; WARP_SIZE];
            for (l, a) in addrs.iter_mut().enumerate() {
                *a = base + 4 * l as u64;
            }
            out.push(Instr::Mem(Box::new(MemInstr {
                pc: 2,
                kind: AccessKind::Write,
                op: CacheOp::Ca,
                width: 4,
                mask,
                addrs,
                dst: 0,
                srcs: 1,
            })));
        }
        true
    }
}
