//! Cache-conscious wavefront scheduling (Rogers et al., MICRO 2012), the SM-wide half:
//! lost-locality scores and the cutoff that holds warps back.
//!
//! Every live warp scores `core.ccws.base_score`; each hit in its own L1 victim tags (a
//! line it lost and wants again) adds `hit_score`, and the gain decays by one point per
//! `decay_cycles` core cycles. Warps are ranked by score (older first on ties) and
//! their scores stacked; those whose stack top passes `live warps x base` may not issue
//! loads until the scores decay (the highest-scoring warp always may). ALU work still
//! issues, so throttled warps reach their next load ready to go.

use super::ThrottlePolicy;
use crate::cache::l1::{Feedback, L1Event};
use crate::core::config::CoreConfig;
use crate::core::warp::Warp;
use crate::settings::Checker;

crate::settings::params! {
    /// `core.ccws`.
    pub struct Params {
        /// Lost-locality score every warp starts with; the cutoff is this times the live warps.
        pub base_score: u32 = 100,
        /// Points a warp gains per hit in its own L1 victim tags.
        pub hit_score: u32 = 8,
        /// Core cycles per point of decay of the gained score (back towards the base).
        pub decay_cycles: u32 = 32,
    }
}

impl Params {
    pub(crate) fn check(&self, k: &mut Checker) {
        k.positive("core.ccws.base_score", self.base_score as u64);
        k.at_most("core.ccws.base_score", self.base_score as u64, 1 << 20, "simulator limit");
        k.at_most("core.ccws.hit_score", self.hit_score as u64, 1 << 20, "simulator limit");
        k.positive("core.ccws.decay_cycles", self.decay_cycles as u64);
    }
}

#[derive(Debug, Clone)]
pub struct Ccws {
    base: u64,
    hit: u64,
    decay: u64,
    /// Score gained above the base, per warp slot, as of `epoch`.
    gain: Vec<u64>,
    gid: Vec<u32>,
    epoch: u64,
    held: Vec<bool>,
    was_held: Vec<bool>,
    /// Scratch: (score, age, slot) of the live warps.
    rank: Vec<(u64, u64, usize)>,
}

impl ThrottlePolicy for Ccws {
    /// Hits in each warp's victim tags raise its score.
    const FEEDBACK: Feedback = Feedback::VtaHits;

    fn build(c: &CoreConfig) -> Self {
        let n = c.max_warps_per_sm as usize;
        Self {
            base: c.ccws.base_score as u64,
            hit: c.ccws.hit_score as u64,
            decay: c.ccws.decay_cycles.max(1) as u64,
            gain: vec![0; n],
            gid: vec![u32::MAX; n],
            epoch: 0,
            held: vec![false; n],
            was_held: vec![false; n],
            rank: Vec::new(),
        }
    }

    /// Decays the gains to `now`, adds this cycle's victim-tag hits and recomputes who is
    /// held. Returns whether the held set changed.
    fn refresh(&mut self, now: u64, events: &[L1Event], warps: &[Warp], roster_changed: bool) -> bool {
        let epoch = now / self.decay;
        let steps = epoch - self.epoch.min(epoch);
        self.epoch = epoch;
        // Who is held follows from the gains and the live warps' ages alone, so it stands
        // until a gain decays or grows or a warp comes or goes (most cycles, none does).
        let hits = events.iter().any(|e| matches!(e, L1Event::VtaHit { .. }));
        if !roster_changed && !hits && (steps == 0 || self.gain.iter().all(|&g| g == 0)) {
            return false;
        }
        for (s, g) in self.gain.iter_mut().enumerate() {
            *g = g.saturating_sub(steps);
            if !warps[s].active || warps[s].gid != self.gid[s] {
                *g = 0;
            }
        }
        for ev in events {
            if let L1Event::VtaHit { warp, .. } = *ev {
                let s = warp.key as usize;
                if warps[s].active && warps[s].gid == warp.gid {
                    if self.gid[s] != warp.gid {
                        self.gid[s] = warp.gid;
                        self.gain[s] = 0;
                    }
                    self.gain[s] += self.hit;
                }
            }
        }
        std::mem::swap(&mut self.held, &mut self.was_held);
        self.held.iter_mut().for_each(|h| *h = false);
        if self.gain.iter().any(|&g| g > 0) {
            self.rank.clear();
            self.rank.extend(
                warps.iter().enumerate().filter(|(_, w)| w.active).map(|(s, w)| (self.base + self.gain[s], w.age, s)),
            );
            self.rank.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let cutoff = self.base * self.rank.len() as u64;
            let mut stacked = 0;
            for (i, &(score, _, s)) in self.rank.iter().enumerate() {
                stacked += score;
                self.held[s] = i > 0 && stacked > cutoff;
            }
        }
        self.was_held != self.held
    }

    fn allows(&self, slot: usize, is_mem: bool) -> bool {
        !(is_mem && self.held[slot])
    }

    /// The next decay step while any warp has a gain (it may let a held warp go).
    fn next_event(&self, now: u64) -> Option<u64> {
        self.gain.iter().any(|&g| g > 0).then(|| (now / self.decay + 1) * self.decay)
    }

    /// Warps currently held back.
    fn held(&self) -> usize {
        self.held.iter().filter(|&&h| h).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::vta::Owner;
    use crate::config::preset;

    /// CCWS over four live warps (slot = gid = age), base 100, +60 per hit, a point per 10 cycles.
    fn four_warps() -> (Ccws, Vec<Warp>) {
        let mut c = preset("iwarp-fermi").unwrap().core;
        c.max_warps_per_sm = 4;
        c.ccws = Params { base_score: 100, hit_score: 60, decay_cycles: 10 };
        (Ccws::build(&c), (0..4).map(|s| Warp::launch(0, 0, s, s, s as u64)).collect())
    }

    /// Warp `s` hits a line it evicted itself.
    fn hit(s: u32) -> L1Event {
        L1Event::VtaHit { warp: Owner { key: s, gid: s }, evictor: Owner { key: s, gid: s }, set: 0 }
    }

    #[test]
    fn warps_that_lose_locality_keep_issuing_loads_and_push_the_others_past_the_cutoff() {
        let (mut cc, warps) = four_warps();
        assert!(!cc.refresh(0, &[], &warps, true));
        assert!((0..4).all(|s| cc.allows(s, true)), "all at the base: nobody held");
        assert!(cc.refresh(5, &[hit(2), hit(2), hit(1)], &warps, false));
        // Scores 220, 160, 100, 100 stack to 220, 380, 480, 580 against a cutoff of 400.
        assert!(cc.allows(2, true) && cc.allows(1, true));
        assert!(!cc.allows(0, true) && !cc.allows(3, true) && cc.allows(0, false), "held from loads only");
        assert_eq!(cc.next_event(5), Some(10));
        // Sixty decay steps later warp 1 is back at the base and warp 2 at 160.
        cc.refresh(600, &[], &warps, false);
        assert_eq!(cc.held(), 1, "stack 160, 260, 360, 460: only the last is held");
        cc.refresh(10_000, &[], &warps, false);
        assert_eq!((cc.held(), cc.next_event(10_000)), (0, None));
    }

    #[test]
    fn the_held_set_stands_until_a_score_or_the_live_warps_change() {
        let (mut cc, mut warps) = four_warps();
        cc.refresh(5, &[hit(2), hit(2), hit(1)], &warps, true);
        assert!(!cc.refresh(6, &[], &warps, false), "no hit, no decay step, no warp came or went");
        assert!(!cc.allows(0, true) && !cc.allows(3, true));
        warps[2].active = false;
        // Warp 2's gain goes with it: 160, 100, 100 stack to 160, 260, 360 against 300.
        assert!(cc.refresh(7, &[], &warps, true));
        assert!(cc.allows(0, true) && !cc.allows(3, true), "only the youngest is held now");
    }
}
