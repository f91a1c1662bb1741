//! PC-Byp (MeDiC §5): the hit ratio of each static load, kept in a table of
//! `l2.pc_byp.table` entries indexed by a hash of the PC (different loads may share an
//! entry, as in hardware), reset every `medic.reset_interval` core cycles. Once an
//! entry has seen `profile_accesses` reads and its hit ratio is at most the mostly-miss
//! boundary, the reads of that PC go straight to DRAM.

use super::{BypassPolicy, L2BypassKind, RouteCtx};
use crate::cache::l2::config::{L2Config, MedicConfig};
use crate::mem::{L2Route, MemReq};
use crate::settings::Checker;

crate::settings::params! {
    /// `l2.pc_byp`.
    pub struct Params {
        /// Entries of the per-PC hit-ratio table (PCs alias when there are more loads).
        pub table: u32 = 64,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.positive("l2.pc_byp.table", self.table as u64);
        k.at_most("l2.pc_byp.table", self.table as u64, 1 << 20, "simulator limit");
    }
}

#[derive(Debug, Clone)]
pub struct PcBypass {
    /// (hits, accesses) per entry, halved like MeDiC's warp counters.
    entries: Vec<(u32, u32)>,
    window: u64,
    interval: u64,
    profile: u32,
    top_bit: u32,
    miss_ratio: f64,
}

impl PcBypass {
    pub fn new(m: &MedicConfig, p: &Params) -> Self {
        Self {
            entries: vec![(0, 0); p.table.max(1) as usize],
            window: 0,
            interval: m.reset_interval.max(1),
            profile: m.profile_accesses,
            top_bit: 1 << (m.counter_bits.clamp(2, 16) - 1),
            miss_ratio: m.mostly_miss_ratio,
        }
    }

    fn index(&self, pc: u32) -> usize {
        let h = (pc as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32;
        (h % self.entries.len() as u64) as usize
    }

    fn roll(&mut self, now_core: u64) {
        let w = now_core / self.interval;
        if w != self.window {
            self.entries.iter_mut().for_each(|e| *e = (0, 0));
            self.window = w;
        }
    }
}

impl BypassPolicy for PcBypass {
    const SENDS_READS_TO_DRAM: bool = true;

    fn build(_kind: L2BypassKind, l2: &L2Config, medic: &MedicConfig, _seed: u64) -> Self {
        Self::new(medic, &l2.pc_byp)
    }

    fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route {
        self.roll(ctx.now_core);
        let (hits, acc) = self.entries[self.index(req.pc)];
        if acc >= self.profile && hits as f64 <= self.miss_ratio * acc as f64 {
            L2Route::skip(req)
        } else {
            L2Route::Cache
        }
    }

    fn on_lookup(&mut self, req: &MemReq, hit: bool, now_core: u64) {
        if req.is_write() {
            return;
        }
        self.roll(now_core);
        let i = self.index(req.pc);
        let e = &mut self.entries[i];
        e.0 += hit as u32;
        e.1 += 1;
        if e.1 & self.top_bit != 0 {
            e.0 >>= 1;
            e.1 >>= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::RouteCtx;
    use super::*;
    use crate::cache::l2::warp_type::{WarpType, WarpTypeTable, WarpView};
    use crate::mem::AccessKind;

    #[test]
    fn missing_pc_bypasses_after_profiling_and_aliases_share_an_entry() {
        let m = MedicConfig { reset_interval: 1000, ..MedicConfig::default() };
        let table = WarpTypeTable::new(&m);
        let mut p = PcBypass::new(&m, &Params { table: 1 });
        let read = |pc: u32| {
            let mut r = MemReq::new(1, 0, AccessKind::Read, 128);
            r.pc = pc;
            r
        };
        let ctx = RouteCtx {
            now_core: 0,
            warp_id: 0,
            warp: WarpView { wtype: WarpType::AllHit, profiling: false },
            table: &table,
            line: 0,
        };
        for i in 0..30 {
            assert_eq!(p.route(&read(8), &ctx), L2Route::Cache);
            p.on_lookup(&read(8), i < 3, 0);
        }
        assert_eq!(p.route(&read(8), &ctx), L2Route::Dram);
        assert_eq!(p.route(&read(16), &ctx), L2Route::Dram, "one entry: every PC aliases");
        let later = RouteCtx { now_core: 1000, ..ctx };
        assert_eq!(p.route(&read(8), &later), L2Route::Cache, "reset re-profiles");
    }
}
