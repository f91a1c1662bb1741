//! MDB, model-driven bypassing: shadow LRU tag arrays, array i seeing only the accesses
//! of warps 0..=i, estimate the hits the L1 would get if only the first i+1 warps used
//! it. Every `interval` sampled accesses the number of warps that keep the L1 becomes
//! the i maximising hits_i - predicted_rsfail_i / 2, where reservation failures are
//! predicted to grow with the cube of the warps using the cache; warps at or above that
//! number bypass. Only every `SAMPLE`-th set is shadowed, and the counters halve after
//! each decision so the choice follows phase changes.
//!
//! A decision waits for `interval` accesses to shadowed sets, far more than a sampled run's
//! detailed window holds, so functional warming feeds the shadow tags too. Warming has no
//! timing and so no reservation failures: each of its accesses is charged the failures per
//! access last measured in detail.

use super::{L1BypassKind, L1BypassPolicy, Route};
use crate::cache::l1::L1Setup;
use crate::cache::set_index::SetIndexKind;
use crate::cache::{Probe, TagArray};

/// One set in this many is shadowed.
const SAMPLE: usize = 8;

#[derive(Debug, Clone)]
pub struct Mdb {
    shadows: Vec<TagArray>,
    hits: Vec<u32>,
    /// Reservation failures since the last decision (fractional: warming charges a rate).
    rsfails: f64,
    sampled: u32,
    /// Failures and accepted accesses on shadowed sets in detail, halved at each decision:
    /// the rate warming charges.
    detail_fails: f64,
    detail_accesses: f64,
    interval: u32,
    /// Warps with a slot at or above this bypass the L1.
    keep: usize,
}

impl Mdb {
    pub fn new(warps: u32, sets: u32, ways: u32, interval: u32) -> Self {
        let shadow_sets = (sets as usize).div_ceil(SAMPLE).next_power_of_two() as u32;
        Self {
            // Shadow sets are addressed directly (`probe_at`), so the index function and line size are unused.
            shadows: (0..warps).map(|_| TagArray::new(shadow_sets, ways, 128, SetIndexKind::Linear)).collect(),
            hits: vec![0; warps as usize],
            rsfails: 0.0,
            sampled: 0,
            detail_fails: 0.0,
            detail_accesses: 0.0,
            interval,
            keep: warps as usize,
        }
    }

    /// Whether a load of this warp slot should bypass the L1.
    #[inline]
    pub fn bypasses(&self, warp: usize) -> bool {
        warp >= self.keep
    }

    /// The number of warp slots currently allowed to use the L1.
    pub fn keep(&self) -> usize {
        self.keep
    }

    fn sampled_set(set: usize) -> Option<usize> {
        (set % SAMPLE == 0).then_some(set / SAMPLE)
    }

    /// `n` reservation failures of an access to `set`.
    pub fn note_rsfail(&mut self, set: usize, n: u64) {
        if Self::sampled_set(set).is_some() {
            self.rsfails += n as f64;
            self.detail_fails += n as f64;
        }
    }

    /// An accepted load of `warp` to `block` in L1 set `set` (cached or bypassed).
    pub fn observe(&mut self, warp: usize, block: u64, set: usize) {
        let Some(sset) = Self::sampled_set(set) else { return };
        for i in warp.min(self.shadows.len())..self.shadows.len() {
            let t = &mut self.shadows[i];
            match t.probe_at(sset, block) {
                Probe::Hit { set, way } => {
                    t.touch(set, way);
                    self.hits[i] += 1;
                }
                Probe::Miss { set, victim: Some(way) } => {
                    t.allocate(set, way, block, false, 0);
                }
                _ => {}
            }
        }
        self.sampled += 1;
        if self.sampled >= self.interval {
            self.decide();
        }
    }

    fn decide(&mut self) {
        let n = self.shadows.len() as f64;
        let mut best = (f64::MIN, self.keep);
        for (i, &h) in self.hits.iter().enumerate() {
            let warps = (i + 1) as f64;
            let score = h as f64 - self.rsfails * warps.powi(3) / n.powi(3) / 2.0;
            if score > best.0 {
                best = (score, i + 1);
            }
        }
        self.keep = best.1;
        for h in &mut self.hits {
            *h /= 2;
        }
        // Rounded down, so a run with no warming decides on whole counts, as MDB counts them.
        self.rsfails = (self.rsfails / 2.0).floor();
        self.detail_fails /= 2.0;
        self.detail_accesses /= 2.0;
        self.sampled = 0;
    }
}

impl L1BypassPolicy for Mdb {
    fn build(_kind: L1BypassKind, s: &L1Setup) -> Self {
        Self::new(s.warps, s.l1.sets(), s.l1.ways, s.l1.mdb_interval)
    }

    fn route(&self, warp: usize) -> Route {
        if self.bypasses(warp) {
            Route::Bypass
        } else {
            Route::Cache
        }
    }

    fn on_access(&mut self, warp: usize, block: u64, set: usize, accepted: bool) {
        if accepted {
            if Self::sampled_set(set).is_some() {
                self.detail_accesses += 1.0;
            }
            self.observe(warp, block, set);
        } else {
            self.note_rsfail(set, 1);
        }
    }

    fn on_retries(&mut self, set: usize, cycles: u64) {
        self.note_rsfail(set, cycles);
    }

    fn on_warm_access(&mut self, warp: usize, block: u64, set: usize) {
        if Self::sampled_set(set).is_some() && self.detail_accesses > 0.0 {
            self.rsfails += self.detail_fails / self.detail_accesses;
        }
        self.observe(warp, block, set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thrashing_warps_are_told_to_bypass() {
        // 4 warps, one sampled set of 2 ways. Warps 0 and 1 reuse one block each; warps 2
        // and 3 stream new blocks that would evict them.
        let mut m = Mdb::new(4, 8, 2, 64);
        let mut next = 1000;
        for _ in 0..32 {
            m.observe(0, 0, 0);
            m.observe(1, 8, 0);
            for w in [2, 3] {
                m.observe(w, next, 0);
                next += 8;
            }
        }
        assert_eq!(m.keep(), 2);
        assert!(!m.bypasses(1) && m.bypasses(2));
    }

    #[test]
    fn many_reservation_failures_shrink_the_cached_warps() {
        let mut m = Mdb::new(4, 8, 4, 16);
        m.note_rsfail(0, 200);
        for k in 0..16 {
            m.observe((k % 4) as usize, (k % 4) as u64, 0);
        }
        assert!(m.keep() < 4, "keep {}", m.keep());
    }

    #[test]
    fn warming_decides_with_the_failure_rate_detail_measured() {
        // Detail measures 4 failures per access on the shadowed set; warming's 12 accesses,
        // each warp hitting its own line, reach the decision charged at that rate (64 failures
        // in all): keeping one warp scores 3 - 64/64/2 = 2.5, all four 12 - 64/2 = -20.
        let mut m = Mdb::new(4, 8, 4, 16);
        for w in 0..4 {
            m.on_access(w, w as u64, 0, true);
            m.on_retries(0, 4);
        }
        assert_eq!(m.keep(), 4, "no decision yet");
        for k in 0..12 {
            m.on_warm_access(k % 4, (k % 4) as u64, 0);
        }
        assert!(m.keep() < 4, "keep {}", m.keep());
        let mut quiet = Mdb::new(4, 8, 4, 16);
        for k in 0..16 {
            quiet.on_warm_access(k % 4, (k % 4) as u64, 0);
        }
        assert_eq!(quiet.keep(), 4, "with no failures measured, warming charges none");
    }

    #[test]
    fn unsampled_sets_are_ignored() {
        let mut m = Mdb::new(2, 16, 2, 1);
        m.observe(0, 1, 3);
        m.note_rsfail(3, 1);
        assert_eq!(m.keep(), 2);
    }
}
