//! L1 bypass policies (`l1d.bypass`): which global loads skip the L1 and go straight to
//! the L2, each holding one of `l1d.bypass_slots` until its reply.
//!
//! Contract: `load_op` gives each warp-load its cache operator as it issues (a `.cg` load
//! always bypasses; a policy may retag loads, e.g. from a profile). For the line requests
//! of a load that is not `.cg`, `route` says whether the L1 caches it, bypasses it, or
//! bypasses it only when the L1 refuses it. `on_access` follows every read the L1 accepted
//! or refused, and `on_retries` the retries of a refused read that idle skipping did not
//! make one by one. `on_cta` follows the SM's thread blocks; `broadcast` hands a value from
//! SM 0's policy to every other SM's (`receive`) each core cycle. The properties say what
//! the rest of the machine must provide: `PER_WARP_QUEUES` (the LD/ST unit drains one queue
//! per warp) and `profile` (what the policy needs from a profiling pass before the run,
//! which `crate::coordinated` runs and hands over with `set_load_tags`). A policy is one
//! file implementing `L1BypassPolicy` and one entry in `registry!` below.

mod access_level;
pub mod coordinated;
mod mdb;
mod mrpb;
mod none;

pub use coordinated::{BypassReport, LoadTags, TbBgSeries};

use super::L1Setup;
use crate::mem::CacheOp;

/// How the L1 treats a line request of a load that is not `.cg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Cache,
    Bypass,
    /// Try the L1; bypass if it refuses, or with `assoc_only` only if it refuses for want
    /// of a line (an associativity stall).
    BypassOnFail {
        assoc_only: bool,
    },
}

/// L1 counters of the SM at one instant, for per-period differences.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct L1Snapshot {
    /// Hits and pending hits (data reused from the L1 or an in-flight fill).
    pub hits: u64,
    /// Core cycles the LD/ST unit was refused by the L1.
    pub stall_cycles: u64,
}

/// What happened to the SM's thread blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CtaEvent {
    /// A new launch begins on the (empty) SM, which holds at most `max_ctas` of its blocks.
    Launch { max_ctas: u32 },
    /// A block was dispatched into CTA slot `slot`.
    Dispatch { slot: usize },
    /// The block in `slot` retired.
    Retire { slot: usize },
    /// The SM's statistics start afresh (a sampled run's measurement).
    StatsReset,
}

/// The SM when a thread-block event happens.
#[derive(Debug, Clone, Copy)]
pub struct SmView {
    pub now: u64,
    /// Warps resident after the event.
    pub warps: u32,
    pub l1: L1Snapshot,
    /// The event happened in a sampled run's functional warming (no timing, no statistics).
    pub warming: bool,
}

/// What a policy needs from a profiling pass over the kernel's global loads before the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Algorithm 1's tags (ca, cg or cm per load).
    Tags,
    /// All or nothing per load: cached if its profiled hit share reaches the midpoint of
    /// the two thresholds, else bypassed.
    AllOrNothing,
    /// No measurement: every static load tagged `cm`.
    EveryLoadCm,
}

/// One L1 bypass policy. Each policy file implements it, so what the policy decides and
/// what it needs from the machine are said beside it.
pub trait L1BypassPolicy: Sized {
    /// Whether the LD/ST unit keeps one queue per warp and drains the lowest warp first.
    const PER_WARP_QUEUES: bool = false;

    /// The policy of SM `s.sm` for config value `kind` (one of the kinds it is registered under).
    fn build(kind: L1BypassKind, s: &L1Setup) -> Self;

    /// What config value `kind` needs from a profiling pass; None: no pass.
    fn profile(_kind: L1BypassKind) -> Option<Profile> {
        None
    }

    /// Takes the per-load tags the profiling pass chose.
    fn set_load_tags(&mut self, _tags: LoadTags) {}

    /// The operator a warp-load of `pc` runs with, given the kernel's `op` and the CTA slot
    /// of the issuing warp (None in functional warming, where no block is special).
    fn load_op(&self, _pc: u32, op: CacheOp, _cta: Option<usize>) -> CacheOp {
        op
    }

    /// How the L1 treats a line request of warp slot `warp` for a load that is not `.cg`.
    fn route(&self, _warp: usize) -> Route {
        Route::Cache
    }

    /// Follows one read of warp slot `warp` to `block` in L1 set `set`, accepted or refused.
    fn on_access(&mut self, _warp: usize, _block: u64, _set: usize, _accepted: bool) {}

    /// `cycles` more refusals of the last refused read, to set `set`.
    fn on_retries(&mut self, _set: usize, _cycles: u64) {}

    /// Follows one read of functional warming (a sampled run's stretch between windows) of
    /// warp slot `warp` to `block` in set `set`, cached or bypassed as `route` said.
    fn on_warm_access(&mut self, _warp: usize, _block: u64, _set: usize) {}

    /// Follows the SM's thread blocks.
    fn on_cta(&mut self, _event: CtaEvent, _sm: &SmView) {}

    /// A value SM 0's policy hands to every other SM's this cycle.
    fn broadcast(&mut self) -> Option<u32> {
        None
    }

    /// Takes SM 0's broadcast at core cycle `now`.
    fn receive(&mut self, _value: u32, _now: u64) {}

    /// What the policy decided, for the report's `bypass` section.
    fn report(&self) -> Option<BypassReport> {
        None
    }
}

/// The family's registry: each entry names the dispatch variant, the policy type it holds
/// and the config values (`L1BypassKind`) it runs, with their names and doc comments. The
/// config enum, the dispatch enum, its constructor and the per-kind properties follow; the
/// compiler checks every config value is registered.
macro_rules! registry {
    ($($var:ident($ty:ty) { $($(#[$m:meta])* $kind:ident = $s:literal,)+ })+) => {
        crate::settings::policy_enum!(
            /// Which loads skip the L1 (`l1d.bypass`).
            L1BypassKind { $($($(#[$m])* $kind => $s,)+)+ }
        );

        /// The configured policy of one SM, dispatched by enum.
        #[derive(Debug, Clone)]
        pub enum L1Bypass { $($var($ty)),+ }

        impl L1Bypass {
            pub fn new(s: &L1Setup) -> Self {
                let kind = s.l1.bypass;
                match kind {
                    $($(L1BypassKind::$kind)|+ => Self::$var(<$ty as L1BypassPolicy>::build(kind, s)),)+
                }
            }

            pub fn set_load_tags(&mut self, tags: LoadTags) {
                match self { $(Self::$var(p) => p.set_load_tags(tags)),+ }
            }

            #[inline]
            pub fn load_op(&self, pc: u32, op: CacheOp, cta: Option<usize>) -> CacheOp {
                match self { $(Self::$var(p) => p.load_op(pc, op, cta)),+ }
            }

            #[inline]
            pub fn route(&self, warp: usize) -> Route {
                match self { $(Self::$var(p) => p.route(warp)),+ }
            }

            #[inline]
            pub fn on_access(&mut self, warp: usize, block: u64, set: usize, accepted: bool) {
                match self { $(Self::$var(p) => p.on_access(warp, block, set, accepted)),+ }
            }

            pub fn on_retries(&mut self, set: usize, cycles: u64) {
                match self { $(Self::$var(p) => p.on_retries(set, cycles)),+ }
            }

            pub fn on_warm_access(&mut self, warp: usize, block: u64, set: usize) {
                match self { $(Self::$var(p) => p.on_warm_access(warp, block, set)),+ }
            }

            pub fn on_cta(&mut self, event: CtaEvent, sm: &SmView) {
                match self { $(Self::$var(p) => p.on_cta(event, sm)),+ }
            }

            #[inline]
            pub fn broadcast(&mut self) -> Option<u32> {
                match self { $(Self::$var(p) => p.broadcast()),+ }
            }

            pub fn receive(&mut self, value: u32, now: u64) {
                match self { $(Self::$var(p) => p.receive(value, now)),+ }
            }

            pub fn report(&self) -> Option<BypassReport> {
                match self { $(Self::$var(p) => p.report()),+ }
            }
        }

        impl L1BypassKind {
            /// `L1BypassPolicy::PER_WARP_QUEUES` of the policy this value runs.
            pub fn per_warp_queues(self) -> bool {
                match self { $($(Self::$kind)|+ => <$ty as L1BypassPolicy>::PER_WARP_QUEUES,)+ }
            }

            /// `L1BypassPolicy::profile` of this value.
            pub fn profile(self) -> Option<Profile> {
                match self { $($(Self::$kind)|+ => <$ty as L1BypassPolicy>::profile(self),)+ }
            }
        }
    };
}

registry! {
    None(none::NoBypass) {
        /// Only `.cg` loads.
        None = "none",
    }
    Mrpb(mrpb::Mrpb) {
        /// MRPB: per-warp request queues drained lowest warp first; a request refused by
        /// the L1 bypasses it instead of stalling.
        Mrpb = "mrpb",
    }
    Mdb(mdb::Mdb) {
        /// MDB: shadow tags per warp prefix pick how many warps keep the L1; the others bypass.
        Mdb = "mdb",
    }
    Coordinated(coordinated::Coordinated) {
        /// Xie et al.: profiled per-load tags (ca/cg/cm), and `cm` loads bypass in the
        /// thread blocks the online TB_bg learner tags `bg`.
        Coordinated = "coordinated",
        /// The profiled tags alone: `cm` loads use the L1.
        StaticOnly = "static_only",
        /// Every load treated as `cm`: thread-block bypassing alone.
        DynamicOnly = "dynamic_only",
        /// All or nothing per load: a load keeps the L1 if its profiled hit share is at
        /// least the midpoint of the two thresholds.
        InstructionLevel = "instruction_level",
    }
    AccessLevel(access_level::AccessLevel) {
        /// A load that meets an associativity stall (every way of its set reserved) bypasses.
        AccessLevel = "access_level",
    }
}
