//! The L2 state every partition shares: MeDiC's warp metadata (the warp-type table)
//! and the bypass policy that reads it. Requests carry their warp's type from here
//! (`MemReq::warp_type`) to the insertion policy and the DRAM scheduler.

use super::bypass::{L2Bypass, RouteCtx};
use super::config::{L2Config, MedicConfig, WarpIdKind};
use super::warp_type::{WarpTypeTable, WarpView};
use crate::mem::{L2Route, MemReq};

#[derive(Debug, Clone)]
pub struct L2Shared {
    pub table: WarpTypeTable,
    pub bypass: L2Bypass,
    warp_id: WarpIdKind,
    warps_per_sm: u32,
}

impl L2Shared {
    pub fn new(l2: &L2Config, medic: &MedicConfig, warps_per_sm: u32, seed: u64) -> Self {
        Self {
            table: WarpTypeTable::new(medic),
            bypass: L2Bypass::new(l2, medic, seed),
            warp_id: medic.warp_id,
            warps_per_sm,
        }
    }

    /// The table entry of the request's warp (`medic.warp_id`).
    fn key(&self, req: &MemReq) -> u32 {
        match self.warp_id {
            WarpIdKind::Context => req.sm as u32 * self.warps_per_sm + req.warp_slot as u32,
            WarpIdKind::Dynamic => req.warp,
        }
    }

    /// The request's warp-table entry (type, profiling) and where the demultiplexer sends it. Asking
    /// again for the same request in the same cycle gives the same answer.
    pub fn decide(&mut self, req: &MemReq, now_core: u64, line: u64) -> (WarpView, L2Route) {
        let warp_id = self.key(req);
        let warp = self.table.view(warp_id, now_core);
        let ctx = RouteCtx { now_core, warp_id, warp, table: &self.table, line };
        (warp, self.bypass.route(req, &ctx))
    }

    /// Counts a request the partition has accepted under the `view` its `decide` returned,
    /// `bypassed` when it went straight to DRAM (reads only: writes do not type warps).
    pub fn count_accepted(&mut self, req: &MemReq, view: WarpView, bypassed: bool, now_core: u64) {
        if !req.is_write() {
            self.table.count_routed(view);
            if bypassed {
                self.table.record_bypass(now_core);
            }
        }
    }

    /// Follows one tag lookup: reads train the warp-type table and the bypass policy.
    pub fn on_lookup(&mut self, req: &MemReq, hit: bool, now_core: u64) {
        if req.is_write() {
            return;
        }
        self.table.record(self.key(req), hit, now_core);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::l2::warp_type::WarpType;
    use crate::config::preset;
    use crate::mem::AccessKind;

    /// Two dynamic warps that run one after the other in SM 1's slot 3.
    fn reads() -> (MemReq, MemReq) {
        let mut a = MemReq::new(1, 0, AccessKind::Read, 128);
        (a.sm, a.warp_slot, a.warp) = (1, 3, 100);
        let mut b = a.clone();
        b.warp = 900;
        (a, b)
    }

    #[test]
    fn a_warp_context_keeps_its_type_for_the_next_warp_in_the_slot() {
        let cfg = preset("medic-gtx480").unwrap();
        assert_eq!(cfg.medic.warp_id, WarpIdKind::Context);
        let mut s = L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, 1);
        let (a, b) = reads();
        for _ in 0..cfg.medic.profile_accesses {
            s.on_lookup(&a, false, 10);
        }
        assert_eq!(s.decide(&b, 20, 0).0.wtype, WarpType::AllMiss);
        assert_eq!(s.key(&b), cfg.core.max_warps_per_sm + 3);
    }

    #[test]
    fn accepted_reads_count_under_the_type_the_demultiplexer_saw() {
        let cfg = preset("medic-gtx480").unwrap();
        let mut s = L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, 1);
        let (a, b) = reads();
        let profile = cfg.medic.profile_accesses as u64;
        // Each read is routed, then looked up (a miss): the first `profile` are profiled.
        for _ in 0..profile + 2 {
            let v = s.decide(&a, 10, 0).0;
            s.count_accepted(&a, v, false, 10);
            s.on_lookup(&a, false, 10);
        }
        assert_eq!(s.table.reads_by_type, [profile, 0, 0, 0, 0, 2]);
        // b runs in a's slot: it inherits the context's all-miss type. Its write is not counted.
        let mut w = b.clone();
        w.kind = AccessKind::Write;
        let v = s.decide(&b, 20, 0).0;
        s.count_accepted(&b, v, false, 20);
        s.count_accepted(&w, v, false, 20);
        assert_eq!(s.table.reads_by_type, [profile, 0, 0, 0, 0, 3]);
        // A new window profiles again, though the type is kept.
        let v = s.decide(&b, 10 + cfg.medic.reset_interval, 0).0;
        s.count_accepted(&b, v, false, 20);
        assert_eq!(s.table.reads_by_type[0], profile + 1);
    }

    #[test]
    fn a_dynamic_warp_starts_unprofiled() {
        let mut cfg = preset("medic-gtx480").unwrap();
        cfg.medic.warp_id = WarpIdKind::Dynamic;
        let mut s = L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, 1);
        let (a, b) = reads();
        for _ in 0..cfg.medic.profile_accesses {
            s.on_lookup(&a, false, 10);
        }
        assert_eq!(s.decide(&a, 20, 0).0.wtype, WarpType::AllMiss);
        assert_eq!(s.decide(&b, 20, 0).0.wtype, WarpType::Unknown);
    }
}
