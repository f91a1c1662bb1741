//! Rand (MeDiC §5): a fixed share of warps (`l2.rand.share`), drawn anew every
//! `medic.reset_interval` core cycles, bypass the L2. The draw is a counter-based generator keyed by the run's seed,
//! the window and the warp, so it is the same natively and in wasm and needs no state.

use super::{BypassPolicy, L2BypassKind, RouteCtx};
use crate::cache::l2::config::{L2Config, MedicConfig};
use crate::mem::{L2Route, MemReq};
use crate::settings::Checker;

crate::settings::params! {
    /// `l2.rand`.
    pub struct Params {
        /// Share of warps that bypass the L2 in each window.
        pub share: f64 = 0.25,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.fraction("l2.rand.share", self.share);
    }
}

#[derive(Debug, Clone)]
pub struct RandBypass {
    seed: u64,
    interval: u64,
    /// Bypass when the draw is below this (share x 2^64).
    threshold: u64,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl RandBypass {
    pub fn new(m: &MedicConfig, p: &Params, seed: u64) -> Self {
        let threshold = if p.share >= 1.0 { u64::MAX } else { (p.share * 2f64.powi(64)) as u64 };
        Self { seed, interval: m.reset_interval.max(1), threshold }
    }

    pub fn bypasses(&self, warp: u32, now_core: u64) -> bool {
        let window = now_core / self.interval;
        mix(mix(self.seed ^ mix(window)) ^ warp as u64) < self.threshold
    }
}

impl BypassPolicy for RandBypass {
    const SENDS_READS_TO_DRAM: bool = true;

    fn build(_kind: L2BypassKind, l2: &L2Config, medic: &MedicConfig, seed: u64) -> Self {
        Self::new(medic, &l2.rand, seed)
    }

    fn route(&mut self, req: &MemReq, ctx: &RouteCtx<'_>) -> L2Route {
        if self.bypasses(ctx.warp_id, ctx.now_core) {
            L2Route::skip(req)
        } else {
            L2Route::Cache
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_of_warps_redrawn_each_window() {
        let m = MedicConfig { reset_interval: 100, ..MedicConfig::default() };
        let r = RandBypass::new(&m, &Params { share: 0.3 }, 7);
        let n = (0..10_000).filter(|&w| r.bypasses(w, 0)).count();
        assert!((2800..3200).contains(&n), "{n}");
        let moved = (0..10_000).filter(|&w| r.bypasses(w, 0) != r.bypasses(w, 100)).count();
        assert!(moved > 3000, "{moved}");
        assert!((0..10_000).all(|w| r.bypasses(w, 5) == r.bypasses(w, 99)));
    }
}
