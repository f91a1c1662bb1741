//! L2 bypass policies (`l2.bypass`): at a request's arrival in the memory partition,
//! before the bank arbiter, decide whether it looks up the L2 and may allocate, looks up
//! without allocating, or goes straight to the DRAM request queue (MeDiC's demultiplexer).
//!
//! Contract: `route` sees each arriving request once it is at the head of its port (it
//! may be asked again while the chosen queue is full, so it must answer the same);
//! writes are never sent to DRAM directly — policies that bypass a warp's reads make its
//! writes look up without allocating (fences and atomics would do the same). `on_lookup`
//! follows every L2 read lookup; `on_evict` every line the L2 evicts.

mod medic;
mod pc_byp;
mod pcal;
mod rand;

pub use medic::MedicBypass;
pub use pc_byp::PcBypass;
pub use pcal::Pcal;
pub use rand::RandBypass;

use super::warp_type::{WarpTypeTable, WarpView};
use crate::config::{Config, L2BypassKind};
use crate::mem::{L2Route, MemReq};

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

#[derive(Debug, Clone)]
pub enum L2Bypass {
    None,
    Medic(MedicBypass),
    Pcal(Pcal),
    Rand(RandBypass),
    PcByp(PcBypass),
}

impl L2Bypass {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        let m = &cfg.medic;
        match cfg.l2.bypass {
            L2BypassKind::None => Self::None,
            L2BypassKind::Medic => Self::Medic(MedicBypass::new(None)),
            L2BypassKind::MedicReuse => Self::Medic(MedicBypass::new(Some(m.reuse_filter_bits))),
            L2BypassKind::Pcal => Self::Pcal(Pcal::new(m)),
            L2BypassKind::Rand => Self::Rand(RandBypass::new(m, seed)),
            L2BypassKind::PcByp => Self::PcByp(PcBypass::new(m)),
        }
    }

    pub fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route {
        match self {
            Self::None => L2Route::Cache,
            Self::Medic(p) => p.route(req, ctx),
            Self::Pcal(p) => p.route(ctx),
            Self::Rand(p) => p.route(req, ctx),
            Self::PcByp(p) => p.route(req, ctx),
        }
    }

    pub fn on_lookup(&mut self, req: &MemReq, hit: bool, now_core: u64) {
        if let Self::PcByp(p) = self {
            p.on_lookup(req, hit, now_core);
        }
    }

    pub fn on_evict(&mut self, line: u64) {
        if let Self::Medic(p) = self {
            p.on_evict(line);
        }
    }
}
