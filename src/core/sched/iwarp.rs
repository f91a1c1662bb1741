//! iWarp (Gao and Jung, draft), the SM-wide half: stalling the warp that interferes.
//!
//! Detection (paper §4.1): a miss of warp V that hits V's L1 victim tags, on a line
//! another warp A's allocation evicted, marks the pair (victim V, aggressor A). Since a
//! line that leaves the L1 was fetched through the L2, the same pair competes for L2
//! space, so holding A back keeps V's data in both caches.
//!
//! Stalling and release (our design; the draft's §4.2 is empty): A may not issue at all
//! while a pair names it. The pair ends when the first of these holds:
//! - the victim is done: it exited, finished issuing, or waits at a barrier (which may
//!   need A, so holding A would deadlock);
//! - the victim left the contended set: `core.iwarp.quiet_accesses` of its L1 loads in a
//!   row went to other sets than the one the last detection saw;
//! - timeout: `core.iwarp.timeout` core cycles passed since the last detection of the pair.
//!
//! A new detection of the same pair re-arms it. To keep stalls from chaining, a warp
//! that is itself stalled is not protected, and a warp a pair protects is not stalled.

use super::ThrottlePolicy;
use crate::cache::l1::{Feedback, L1Event};
use crate::cache::vta::Owner;
use crate::core::config::CoreConfig;
use crate::core::warp::Warp;
use crate::settings::Checker;

crate::settings::params! {
    /// `core.iwarp`.
    pub struct Params {
        /// Core cycles after its last detection that a stalled warp is released anyway.
        pub timeout: u32 = 10_000,
        /// L1 accesses of the victim outside the contended set that release its aggressor.
        pub quiet_accesses: u32 = 64,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.positive("core.iwarp.timeout", self.timeout as u64);
        k.positive("core.iwarp.quiet_accesses", self.quiet_accesses as u64);
    }
}

#[derive(Debug, Clone, Copy)]
struct Pair {
    victim: Owner,
    aggressor: Owner,
    set: u32,
    armed_at: u64,
    quiet: u32,
}

#[derive(Debug, Clone)]
pub struct Iwarp {
    timeout: u64,
    quiet_limit: u32,
    pairs: Vec<Pair>,
    /// Per warp slot: pairs naming it as aggressor.
    stalls: Vec<u32>,
    /// Pairs formed over the run.
    pub detections: u64,
}

impl Iwarp {
    fn live(warps: &[Warp], w: Owner) -> bool {
        let x = &warps[w.key as usize];
        x.active && x.gid == w.gid
    }

    fn protects(&self, w: Owner) -> bool {
        self.pairs.iter().any(|p| p.victim == w)
    }
}

impl ThrottlePolicy for Iwarp {
    /// Victim-tag hits name the pairs; every access counts towards leaving a set.
    const FEEDBACK: Feedback = Feedback::VtaHitsAndAccesses;

    fn build(c: &CoreConfig) -> Self {
        Self {
            timeout: c.iwarp.timeout as u64,
            quiet_limit: c.iwarp.quiet_accesses,
            pairs: Vec::new(),
            stalls: vec![0; c.max_warps_per_sm as usize],
            detections: 0,
        }
    }

    /// Applies this cycle's L1 events, then ends the pairs whose release condition holds
    /// at `now`. Returns whether any warp's stall changed.
    fn refresh(&mut self, now: u64, events: &[L1Event], warps: &[Warp], _roster_changed: bool) -> bool {
        let mut changed = false;
        for ev in events {
            match *ev {
                L1Event::VtaHit { warp, evictor, set } if warp != evictor => {
                    if !Self::live(warps, warp) || !Self::live(warps, evictor) {
                        continue;
                    }
                    if let Some(p) = self.pairs.iter_mut().find(|p| p.victim == warp && p.aggressor == evictor) {
                        p.armed_at = now;
                        p.set = set;
                        p.quiet = 0;
                    } else if self.stalls[warp.key as usize] == 0 && !self.protects(evictor) {
                        self.pairs.push(Pair { victim: warp, aggressor: evictor, set, armed_at: now, quiet: 0 });
                        self.stalls[evictor.key as usize] += 1;
                        self.detections += 1;
                        changed = true;
                    }
                }
                L1Event::Access { warp, set } => {
                    for p in self.pairs.iter_mut().filter(|p| p.victim == warp) {
                        p.quiet = if p.set == set { 0 } else { p.quiet + 1 };
                    }
                }
                L1Event::VtaHit { .. } => {}
            }
        }
        let (timeout, quiet_limit) = (self.timeout, self.quiet_limit);
        let stalls = &mut self.stalls;
        self.pairs.retain(|p| {
            let v = &warps[p.victim.key as usize];
            let victim_done = !Self::live(warps, p.victim) || v.at_barrier || v.finished_issuing();
            let end =
                victim_done || !Self::live(warps, p.aggressor) || p.quiet >= quiet_limit || now >= p.armed_at + timeout;
            if end {
                stalls[p.aggressor.key as usize] -= 1;
                changed = true;
            }
            !end
        });
        changed
    }

    /// Loads, stores and ALU work alike.
    fn allows(&self, slot: usize, _is_mem: bool) -> bool {
        self.stalls[slot] == 0
    }

    /// The earliest timeout of a pair.
    fn next_event(&self, _now: u64) -> Option<u64> {
        self.pairs.iter().map(|p| p.armed_at + self.timeout).min()
    }

    /// Warps currently stalled.
    fn held(&self) -> usize {
        self.stalls.iter().filter(|&&n| n > 0).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    fn setup(timeout: u32, quiet: u32) -> (Iwarp, Vec<Warp>) {
        let mut c = preset("iwarp-fermi").unwrap().core;
        c.iwarp = Params { timeout, quiet_accesses: quiet };
        let warps = (0..c.max_warps_per_sm).map(|s| Warp::launch(0, 0, s, 100 + s, s as u64)).collect();
        (Iwarp::build(&c), warps)
    }

    fn w(slot: u32) -> Owner {
        Owner { key: slot, gid: 100 + slot }
    }

    fn hit(victim: u32, evictor: u32, set: u32) -> L1Event {
        L1Event::VtaHit { warp: w(victim), evictor: w(evictor), set }
    }

    #[test]
    fn an_inter_warp_victim_tag_hit_stalls_the_aggressor_until_the_timeout() {
        let (mut iw, warps) = setup(100, 64);
        assert!(iw.refresh(10, &[hit(0, 3, 5)], &warps, false));
        assert!(!iw.allows(3, true) && iw.allows(0, true), "W3 evicted W0's line: W3 stops");
        assert!(!iw.refresh(11, &[hit(1, 1, 5)], &warps, false), "intra-warp hits stall nobody");
        assert_eq!(iw.next_event(0), Some(110));
        assert!(!iw.refresh(109, &[], &warps, false));
        assert!(iw.refresh(110, &[], &warps, false) && iw.allows(3, true), "released at the timeout");
        assert_eq!((iw.detections, iw.held()), (1, 0));
    }

    #[test]
    fn a_victim_that_leaves_the_contended_set_releases_its_aggressor() {
        let (mut iw, warps) = setup(10_000, 3);
        iw.refresh(0, &[hit(0, 3, 5)], &warps, false);
        let acc = |set| L1Event::Access { warp: w(0), set };
        iw.refresh(1, &[acc(6), acc(7), acc(5)], &warps, false);
        assert!(!iw.allows(3, true), "touching set 5 again restarts the count");
        assert!(iw.refresh(2, &[acc(6), acc(7), acc(8)], &warps, false));
        assert!(iw.allows(3, true));
    }

    #[test]
    fn a_victim_at_a_barrier_or_done_releases_and_stalls_do_not_chain() {
        let (mut iw, mut warps) = setup(10_000, 64);
        iw.refresh(0, &[hit(0, 3, 5), hit(3, 4, 5), hit(2, 0, 5)], &warps, false);
        assert!(!iw.allows(3, true));
        assert!(iw.allows(4, true), "a stalled warp is not protected");
        assert!(iw.allows(0, true), "a protected warp is not stalled");
        warps[0].at_barrier = true;
        assert!(iw.refresh(1, &[], &warps, false) && iw.allows(3, true));
        warps[0].at_barrier = false;
        iw.refresh(2, &[hit(0, 3, 5)], &warps, false);
        warps[0].active = false;
        assert!(iw.refresh(3, &[], &warps, false) && iw.allows(3, true), "the victim exited");
    }
}
