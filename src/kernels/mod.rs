//! Built-in kernels: each reproduces a benchmark's per-thread index arithmetic on
//! data generated from the run's seed, and hands the SM one warp's instructions at a
//! time, lazily, so paper-sized inputs need no trace in memory.

pub mod addr;
pub mod atax;
pub mod bfs;
pub mod bfs_wl;
pub mod bicg;
pub mod builder;
pub mod conv_separable;
pub mod gesummv;
pub mod graph;
pub mod hotspot;
pub mod inspect;
pub mod kmeans;
pub mod matvec;
pub mod mvt;
pub mod pvc;
mod recent;
mod registry;
pub mod spmv;
pub mod sssp;
pub mod streamcluster;
pub mod syrk;

pub use recent::build_shared;
pub use registry::{build, build_with_layout, KERNELS};

crate::settings::policy_enum!(
    /// Input size of a built-in benchmark (`--size`, `coordinated.profile_size`).
    Size {
        /// Seconds or less: tests.
        Tiny => "tiny",
        /// Browser demos.
        Small => "small",
        /// Closer to the papers' inputs: CLI runs.
        Paper => "paper",
    }
);

pub use crate::mem::WARP_SIZE;

use crate::mem::{AccessKind, CacheOp};
use serde::Serialize;

/// A bit mask of the registers a warp's loads write and its instructions read: 32 bits, so a
/// traced `Rn` shares its bit only with registers 32 apart (docs/traces.md).
pub type RegMask = u32;

/// The registers set in `mask`, lowest first.
pub fn reg_bits(mut mask: RegMask) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let r = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (r < RegMask::BITS as usize).then_some(r)
    })
}

/// One warp-wide global memory instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct MemInstr {
    /// Static instruction id, unique within the benchmark (names a `StaticLoad`).
    pub pc: u32,
    pub kind: AccessKind,
    pub op: CacheOp,
    /// Bytes each active lane reads or writes.
    pub width: u8,
    /// Active lanes (bit i = lane i).
    pub mask: u32,
    /// Byte address of each lane; inactive lanes are ignored.
    pub addrs: [u64; WARP_SIZE],
    /// Register a load writes (bit mask with one bit), 0 for stores.
    pub dst: RegMask,
    /// Registers whose pending loads must return before this instruction issues.
    pub srcs: RegMask,
}

/// One warp instruction.
#[derive(Debug, Clone, PartialEq)]
pub enum Instr {
    /// Arithmetic (or shared-memory) work: waits for `srcs`, then occupies the warp for
    /// `core.alu_latency` cycles.
    Alu {
        srcs: RegMask,
    },
    Mem(Box<MemInstr>),
    /// CTA-wide barrier (`__syncthreads`).
    Barrier,
}

/// Launch geometry of one kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Grid {
    pub ctas: u32,
    pub threads_per_cta: u32,
}

impl Grid {
    pub fn warps_per_cta(&self) -> u32 {
        self.threads_per_cta.div_ceil(WARP_SIZE as u32)
    }
}

/// A static global memory instruction of a kernel, as later bypass policies see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StaticLoad {
    pub pc: u32,
    /// The array it reads or writes.
    pub array: &'static str,
    pub kind: AccessKind,
    pub op: CacheOp,
    pub in_loop: bool,
    pub after_barrier: bool,
}

/// One kernel launch. (`Any`, so a launch can be asked whether it is a replayed trace,
/// `crate::trace::TraceKernel::of`, without this module knowing traces.)
pub trait Kernel: std::any::Any {
    /// Launch name, e.g. `atax_k1` or `bfs_level3`.
    fn name(&self) -> String;
    fn grid(&self) -> Grid;
    fn static_loads(&self) -> Vec<StaticLoad>;
    /// Appends chunk `step` (0, 1, 2, ...) of warp `warp` of CTA `cta` to `out` and
    /// returns true, or returns false (appending nothing) once the warp has exited.
    /// Every chunk that returns true appends at least one instruction.
    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool;
    /// Instructions of warp `warp` of CTA `cta` from chunk `step` on. By default the chunks
    /// are fetched into scratch space, which a kernel whose `emit` consumes what it hands
    /// out (a trace) must not allow: it counts instead.
    fn instructions_left(&self, cta: u32, warp: u32, step: u32) -> u64 {
        let (mut n, mut scratch) = (0, Vec::new());
        for s in step.. {
            if !self.emit(cta, warp, s, &mut scratch) {
                break;
            }
            n += scratch.len() as u64;
            scratch.clear();
        }
        n
    }
    /// What stopped the launch reading its instructions (a replayed trace's malformed or
    /// truncated file, with its file and line), if anything did: the run is then not valid.
    fn read_error(&self) -> Option<String> {
        None
    }
}

/// A benchmark: its kernel launches, run in order.
pub struct Benchmark {
    pub name: String,
    /// The input size; None for a replayed trace, which has none.
    pub size: Option<Size>,
    pub launches: Vec<Box<dyn Kernel>>,
}

impl Benchmark {
    /// The size reports name: `trace` for a replayed trace, which has no input size.
    pub fn size_name(&self) -> &'static str {
        self.size.map_or("trace", Size::as_str)
    }

    /// The first launch's read error (`Kernel::read_error`), if one has one.
    pub fn read_error(&self) -> Option<String> {
        self.launches.iter().find_map(|k| k.read_error())
    }
}
