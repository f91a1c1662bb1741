//! L2 bypass policies (`l2.bypass`): at a request's arrival in the memory partition,
//! before the bank arbiter, decide whether it looks up the L2 and may allocate, looks up
//! without allocating, or goes straight to the DRAM request queue (MeDiC's demultiplexer).
//!
//! Contract: `route` sees each arriving request once it is at the head of its port (it
//! may be asked again while the chosen queue is full, so it must answer the same);
//! writes are never sent to DRAM directly — policies that bypass a warp's reads make its
//! writes look up without allocating (fences and atomics would do the same). `on_lookup`
//! follows every L2 read lookup; `on_evict` every line the L2 evicts. A policy is one file
//! implementing `BypassPolicy` and one line in `registry!` below.

pub mod medic;
mod none;
pub mod pc_byp;
pub mod pcal;
pub mod rand;

pub use medic::MedicBypass;
pub use none::NoBypass;
pub use pc_byp::PcBypass;
pub use pcal::Pcal;
pub use rand::RandBypass;

use super::config::{L2Config, MedicConfig};
use super::warp_type::{WarpTypeTable, WarpView};
use crate::mem::{L2Route, MemReq};
use crate::settings::Checker;

impl L2Route {
    /// A read goes to DRAM, a write looks up without allocating.
    pub fn skip(req: &MemReq) -> L2Route {
        if req.is_write() {
            L2Route::NoAllocate
        } else {
            L2Route::Dram
        }
    }
}

/// What a policy may look at when routing.
pub struct RouteCtx<'a> {
    pub now_core: u64,
    /// The warp-type table's entry for the request's warp (`medic.warp_id`).
    pub warp_id: u32,
    pub warp: WarpView,
    pub table: &'a WarpTypeTable,
    /// The line's partition-qualified address (for filters).
    pub line: u64,
}

/// One bypass policy. Each policy file implements it, so what the policy decides and what
/// it needs from the machine are said beside it.
pub trait BypassPolicy: Sized {
    /// Whether it routes reads to `L2Route::Dram`: the partition's DRAM request queue then
    /// needs 2 entries and the L2 must not allocate store misses unread (config checks).
    const SENDS_READS_TO_DRAM: bool;

    /// The policy for config value `kind` (one of the kinds it is registered under).
    fn build(kind: L2BypassKind, l2: &L2Config, medic: &MedicConfig, seed: u64) -> Self;

    /// Where an arriving request goes.
    fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route;

    /// Follows one L2 read lookup.
    fn on_lookup(&mut self, _req: &MemReq, _hit: bool, _now_core: u64) {}

    /// Follows one line the L2 evicts (its partition-qualified address).
    fn on_evict(&mut self, _line: u64) {}
}

/// The family's registry: first the policies with parameters, each as its config name and
/// its file's `Params` (the `l2` section gets a field `l2.<name>` for each, in this order,
/// through `with_params!`); then each entry names the dispatch variant, the policy type it
/// holds and the config values (`L2BypassKind`) it runs, with their names and doc comments.
/// The config enum, the dispatch enum, its constructor and the per-kind properties follow;
/// the compiler checks every config value is registered.
macro_rules! registry {
    (
        params { $($p:ident: $pm:ident::Params,)* }
        $($var:ident($ty:ty) { $($(#[$m:meta])* $kind:ident = $s:literal,)+ })+
    ) => {
        crate::settings::policy_enum!(
            /// Which requests skip the L2 lookup or its allocation (`l2.bypass`).
            L2BypassKind { $($($(#[$m])* $kind => $s,)+)+ }
        );

        crate::settings::section_macro!(($) with_params $($p: crate::cache::l2::bypass::$pm::Params),*);

        /// Checks the parameters of every registered policy that has some (`l2.<name>`).
        pub(crate) fn check_params(l2: &L2Config, k: &mut Checker) {
            $(l2.$p.check(k);)*
        }

        /// The configured policy, dispatched by enum.
        #[derive(Debug, Clone)]
        pub enum L2Bypass { $($var($ty)),+ }

        impl L2Bypass {
            pub fn new(l2: &L2Config, medic: &MedicConfig, seed: u64) -> Self {
                let kind = l2.bypass;
                match kind {
                    $($(L2BypassKind::$kind)|+ => Self::$var(<$ty as BypassPolicy>::build(kind, l2, medic, seed)),)+
                }
            }

            pub fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route {
                match self { $(Self::$var(p) => p.route(req, ctx)),+ }
            }

            pub fn on_lookup(&mut self, req: &MemReq, hit: bool, now_core: u64) {
                match self { $(Self::$var(p) => p.on_lookup(req, hit, now_core)),+ }
            }

            pub fn on_evict(&mut self, line: u64) {
                match self { $(Self::$var(p) => p.on_evict(line)),+ }
            }
        }

        impl L2BypassKind {
            /// `BypassPolicy::SENDS_READS_TO_DRAM` of the policy this value runs.
            pub fn sends_reads_to_dram(self) -> bool {
                match self { $($(Self::$kind)|+ => <$ty as BypassPolicy>::SENDS_READS_TO_DRAM,)+ }
            }
        }
    };
}

registry! {
    params {
        rand: rand::Params,
        pcal: pcal::Params,
        pc_byp: pc_byp::Params,
        medic_reuse: medic::Params,
    }
    None(NoBypass) {
        /// Every request looks up the L2 and read misses allocate.
        None = "none",
    }
    Medic(MedicBypass) {
        /// MeDiC's WByp: reads of mostly-miss and all-miss warps go straight to DRAM.
        Medic = "medic",
        /// WByp, except lines in a Bloom filter of recently evicted (high-reuse) lines still use the L2.
        MedicReuse = "medic_reuse",
    }
    Pcal(Pcal) {
        /// PCAL: only warps holding one of `l2.pcal.tokens` tokens may allocate on a miss.
        Pcal = "pcal",
    }
    Rand(RandBypass) {
        /// A `l2.rand.share` of warps, redrawn every `medic.reset_interval`, send reads to DRAM.
        Rand = "rand",
    }
    PcByp(PcBypass) {
        /// Reads of static loads (PCs) whose L2 hit ratio is mostly-miss go to DRAM.
        PcByp = "pc_byp",
    }
}
