//! The L2 state every partition shares: MeDiC's warp metadata (the warp-type table)
//! and the bypass policy that reads it. Requests carry their warp's type from here
//! (`MemReq::warp_type`) to the insertion policy and the DRAM scheduler.

use super::bypass::{L2Bypass, Route, RouteCtx};
use super::warp_type::{WarpType, WarpTypeTable};
use crate::config::Config;
use crate::mem::MemReq;

#[derive(Debug, Clone)]
pub struct L2Shared {
    pub table: WarpTypeTable,
    pub bypass: L2Bypass,
}

impl L2Shared {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        Self { table: WarpTypeTable::new(&cfg.medic), bypass: L2Bypass::new(cfg, seed) }
    }

    /// The type of the request's warp and where the demultiplexer sends it. Asking
    /// again for the same request in the same cycle gives the same answer.
    pub fn decide(&mut self, req: &MemReq, now_core: u64, line: u64) -> (WarpType, Route) {
        let warp = self.table.view(req.warp, now_core);
        let ctx = RouteCtx { now_core, warp, table: &self.table, line };
        (warp.wtype, self.bypass.route(req, &ctx))
    }

    /// Follows one tag lookup: reads train the warp-type table and the bypass policy.
    pub fn on_lookup(&mut self, req: &MemReq, hit: bool, now_core: u64) {
        if req.is_write() {
            return;
        }
        self.table.record(req.warp, hit, now_core);
        self.bypass.on_lookup(req, hit, now_core);
    }

    pub fn on_evict(&mut self, line: u64) {
        self.bypass.on_evict(line);
    }
}

/// A partition-qualified line address (partitions number at most 256).
pub fn line_key(partition: u16, local_line: u64) -> u64 {
    (local_line << 8) | partition as u64
}
