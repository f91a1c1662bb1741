//! PCAL (Li et al., HPCA 2015) applied to the L2 as MeDiC evaluates it (§5): each window
//! of `medic.reset_interval` core cycles hands out `medic.pcal_tokens` tokens, first to
//! the warps that hit most in the L2 in the previous window, then to warps in order of
//! arrival. A warp without a token still looks up the L2, but its misses do not allocate.

use super::{Route, RouteCtx};
use crate::config::MedicConfig;
use crate::mem::MemReq;

#[derive(Debug, Clone)]
pub struct Pcal {
    tokens: u32,
    interval: u64,
    window: Option<u64>,
    holders: Vec<bool>,
    held: u32,
}

impl Pcal {
    pub fn new(m: &MedicConfig) -> Self {
        Self { tokens: m.pcal_tokens, interval: m.reset_interval.max(1), window: None, holders: Vec::new(), held: 0 }
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

    pub fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> Route {
        let w = ctx.now_core / self.interval;
        if self.window != Some(w) {
            self.regrant(ctx, w);
        }
        let has = self.holders.get(req.warp as usize).copied().unwrap_or(false);
        if has || self.held < self.tokens {
            self.give(req.warp);
            Route::Cache
        } else {
            Route::NoAllocate
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
    fn tokens_go_to_last_windows_hitters_then_by_arrival() {
        let m = MedicConfig { pcal_tokens: 2, reset_interval: 100, ..MedicConfig::default() };
        let mut table = WarpTypeTable::new(&m);
        let mut p = Pcal::new(&m);
        let read = |w: u32| {
            let mut r = MemReq::new(1, 0, AccessKind::Read, 128);
            r.warp = w;
            r
        };
        fn ctx(t: &WarpTypeTable, now: u64) -> RouteCtx<'_> {
            RouteCtx { now_core: now, warp: WarpView { wtype: WarpType::Unknown, profiling: true }, table: t, line: 0 }
        }
        assert_eq!(p.route(&read(5), &ctx(&table, 0)), Route::Cache);
        assert_eq!(p.route(&read(6), &ctx(&table, 0)), Route::Cache);
        assert_eq!(p.route(&read(7), &ctx(&table, 0)), Route::NoAllocate);
        for _ in 0..3 {
            table.record(7, true, 50);
        }
        table.record(9, true, 50);
        table.record(5, false, 50);
        let t = table.clone();
        assert_eq!(p.route(&read(5), &ctx(&t, 100)), Route::NoAllocate);
        assert_eq!(p.route(&read(9), &ctx(&t, 100)), Route::Cache);
        assert_eq!(p.route(&read(7), &ctx(&t, 100)), Route::Cache);
    }
}
