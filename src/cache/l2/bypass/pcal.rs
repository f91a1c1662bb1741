//! PCAL (Li et al., HPCA 2015) applied to the L2 as MeDiC evaluates it (§5): each window
//! of `medic.reset_interval` core cycles hands out `l2.pcal.tokens` tokens, first to
//! the warps that hit most in the L2 in the previous window, then to warps in order of
//! arrival. A warp without a token still looks up the L2, but its misses do not allocate.

use super::{BypassPolicy, L2BypassKind, RouteCtx};
use crate::cache::l2::config::{L2Config, MedicConfig};
use crate::mem::{L2Route, MemReq};
use crate::settings::Checker;

crate::settings::params! {
    /// `l2.pcal`.
    pub struct Params {
        /// Warps per window that may allocate lines in the L2.
        pub tokens: u32 = 256,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.positive("l2.pcal.tokens", self.tokens as u64);
    }
}

#[derive(Debug, Clone)]
pub struct Pcal {
    tokens: u32,
    interval: u64,
    window: Option<u64>,
    holders: Vec<bool>,
    held: u32,
}

impl Pcal {
    pub fn new(m: &MedicConfig, p: &Params) -> Self {
        Self { tokens: p.tokens, interval: m.reset_interval.max(1), window: None, holders: Vec::new(), held: 0 }
    }

    fn give(&mut self, warp: u32) {
        let w = warp as usize;
        if w >= self.holders.len() {
            self.holders.resize(w + 1, false);
        }
        if !self.holders[w] {
            self.holders[w] = true;
            self.held += 1;
        }
    }

    /// New window: tokens to the previous window's heaviest L2 users first.
    fn regrant(&mut self, ctx: &RouteCtx<'_>, w: u64) {
        self.holders.iter_mut().for_each(|h| *h = false);
        self.held = 0;
        if w > 0 {
            let mut users: Vec<(u32, u32)> =
                (0..ctx.table.warps()).map(|id| (ctx.table.hits_in(id, w - 1), id)).filter(|&(h, _)| h > 0).collect();
            users.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for &(_, id) in users.iter().take(self.tokens as usize) {
                self.give(id);
            }
        }
        self.window = Some(w);
    }
}

impl BypassPolicy for Pcal {
    const SENDS_READS_TO_DRAM: bool = false;

    fn build(_kind: L2BypassKind, l2: &L2Config, medic: &MedicConfig, _seed: u64) -> Self {
        Self::new(medic, &l2.pcal)
    }

    fn route(&mut self, _req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route {
        let w = ctx.now_core / self.interval;
        if self.window != Some(w) {
            self.regrant(ctx, w);
        }
        let has = self.holders.get(ctx.warp_id as usize).copied().unwrap_or(false);
        if has || self.held < self.tokens {
            self.give(ctx.warp_id);
            L2Route::Cache
        } else {
            L2Route::NoAllocate
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::RouteCtx;
    use super::*;
    use crate::cache::l2::warp_type::{WarpType, WarpTypeTable, WarpView};

    #[test]
    fn tokens_go_to_last_windows_hitters_then_by_arrival() {
        let m = MedicConfig { reset_interval: 100, ..MedicConfig::default() };
        let mut table = WarpTypeTable::new(&m);
        let mut p = Pcal::new(&m, &Params { tokens: 2 });
        let read = MemReq::new(1, 0, crate::mem::AccessKind::Read, 128);
        fn ctx(t: &WarpTypeTable, now: u64, warp_id: u32) -> RouteCtx<'_> {
            let warp = WarpView { wtype: WarpType::Unknown, profiling: true };
            RouteCtx { now_core: now, warp_id, warp, table: t, line: 0 }
        }
        assert_eq!(p.route(&read, &ctx(&table, 0, 5)), L2Route::Cache);
        assert_eq!(p.route(&read, &ctx(&table, 0, 6)), L2Route::Cache);
        assert_eq!(p.route(&read, &ctx(&table, 0, 7)), L2Route::NoAllocate);
        for _ in 0..3 {
            table.record(7, true, 50);
        }
        table.record(9, true, 50);
        table.record(5, false, 50);
        let t = table.clone();
        assert_eq!(p.route(&read, &ctx(&t, 100, 5)), L2Route::NoAllocate);
        assert_eq!(p.route(&read, &ctx(&t, 100, 9)), L2Route::Cache);
        assert_eq!(p.route(&read, &ctx(&t, 100, 7)), L2Route::Cache);
    }
}
