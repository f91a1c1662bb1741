//! Warp schedulers: each SM scheduler slot picks at most one ready warp per cycle.
//!
//! Contract: `pick` sees this scheduler's warp slots and two queries — whether a slot
//! can issue now, and its age (dispatch order; `None` for an empty slot) — and returns
//! the slot to issue. `ready` may be costly (it fetches instructions), so policies call
//! it sparingly.
//!
//! Policies that learn from the L1 (CCWS, iWarp) keep their state SM-wide in a
//! [`Throttle`]: the L1 queues [`L1Event`]s, the SM hands them over once per cycle, and
//! the throttle answers whether a warp may issue; GTO picks among the warps it allows.

mod ccws;
mod gto;
mod iwarp;
mod lrr;
mod swl;
mod two_level;

pub use ccws::Ccws;
pub use gto::Gto;
pub use iwarp::Iwarp;
pub use lrr::Lrr;
pub use swl::Swl;
pub use two_level::TwoLevel;

use super::warp::Warp;
use crate::cache::l1::{Feedback, L1Event};
use crate::config::{CoreConfig, WarpSchedulerKind};

#[derive(Debug, Clone)]
pub enum WarpScheduler {
    Lrr(Lrr),
    Gto(Gto),
    TwoLevel(TwoLevel),
    Swl(Swl),
}

impl WarpScheduler {
    /// The per-scheduler picker of `c.warp_scheduler` (CCWS and iWarp pick by GTO).
    pub fn new(c: &CoreConfig) -> Self {
        match c.warp_scheduler {
            WarpSchedulerKind::Lrr => WarpScheduler::Lrr(Lrr::default()),
            WarpSchedulerKind::Gto | WarpSchedulerKind::Ccws | WarpSchedulerKind::Iwarp => {
                WarpScheduler::Gto(Gto::default())
            }
            WarpSchedulerKind::TwoLevel => WarpScheduler::TwoLevel(TwoLevel::new(c.two_level_group)),
            WarpSchedulerKind::Swl => WarpScheduler::Swl(Swl::new(c.swl_limit)),
        }
    }

    #[inline]
    pub fn pick(
        &mut self,
        slots: &[usize],
        ready: impl FnMut(usize) -> bool,
        age: impl Fn(usize) -> Option<u64>,
    ) -> Option<usize> {
        match self {
            WarpScheduler::Lrr(s) => s.pick(slots, ready),
            WarpScheduler::Gto(s) => s.pick(slots, ready, |w| age(w).unwrap_or(u64::MAX)),
            WarpScheduler::TwoLevel(s) => s.pick(slots, ready),
            WarpScheduler::Swl(s) => s.pick(slots, ready, age),
        }
    }
}

/// SM-wide issue restrictions learnt from the L1.
#[derive(Debug, Clone)]
pub enum Throttle {
    None,
    Ccws(Ccws),
    Iwarp(Iwarp),
}

impl Throttle {
    pub fn new(c: &CoreConfig) -> Self {
        match c.warp_scheduler {
            WarpSchedulerKind::Ccws => Throttle::Ccws(Ccws::new(c)),
            WarpSchedulerKind::Iwarp => Throttle::Iwarp(Iwarp::new(c)),
            _ => Throttle::None,
        }
    }

    /// What the L1 must report.
    pub fn feedback(&self) -> Feedback {
        match self {
            Throttle::None => Feedback::None,
            Throttle::Ccws(_) => Feedback::VtaHits,
            Throttle::Iwarp(_) => Feedback::VtaHitsAndAccesses,
        }
    }

    /// Takes this cycle's L1 events and brings the state to `now`; true if a warp's
    /// permission changed.
    pub fn refresh(&mut self, now: u64, events: &[L1Event], warps: &[Warp]) -> bool {
        match self {
            Throttle::None => false,
            Throttle::Ccws(t) => t.refresh(now, events, warps),
            Throttle::Iwarp(t) => t.refresh(now, events, warps),
        }
    }

    #[inline]
    pub fn allows(&self, slot: usize, is_mem: bool) -> bool {
        match self {
            Throttle::None => true,
            Throttle::Ccws(t) => t.allows(slot, is_mem),
            Throttle::Iwarp(t) => t.allows(slot),
        }
    }

    /// The next cycle at which time alone changes a permission.
    pub fn next_event(&self, now: u64) -> Option<u64> {
        match self {
            Throttle::None => None,
            Throttle::Ccws(t) => t.next_event(now),
            Throttle::Iwarp(t) => t.next_event(),
        }
    }

    /// Warps held back right now.
    pub fn held(&self) -> usize {
        match self {
            Throttle::None => 0,
            Throttle::Ccws(t) => t.held(),
            Throttle::Iwarp(t) => t.held(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(kind: WarpSchedulerKind, f: impl FnOnce(&mut CoreConfig)) -> WarpScheduler {
        let mut c = crate::config::preset("medic-gtx480").unwrap().core;
        c.warp_scheduler = kind;
        f(&mut c);
        WarpScheduler::new(&c)
    }

    #[test]
    fn lrr_rotates_and_gto_sticks_with_its_warp() {
        let slots = [0, 2, 4, 6];
        let mut lrr = sched(WarpSchedulerKind::Lrr, |_| {});
        let picks: Vec<_> = (0..5).map(|_| lrr.pick(&slots, |_| true, |s| Some(s as u64)).unwrap()).collect();
        assert_eq!(picks, vec![0, 2, 4, 6, 0]);

        let mut gto = sched(WarpSchedulerKind::Gto, |_| {});
        let age = |s: usize| Some(100 - s as u64); // slot 6 is the oldest
        assert_eq!(gto.pick(&slots, |_| true, age), Some(6));
        assert_eq!(gto.pick(&slots, |_| true, age), Some(6), "greedy: same warp again");
        assert_eq!(gto.pick(&slots, |s| s != 6, age), Some(4), "then the oldest ready");
        assert_eq!(gto.pick(&slots, |_| true, age), Some(4), "and stays there");
        assert_eq!(gto.pick(&slots, |_| false, age), None);
    }

    #[test]
    fn two_level_stays_in_its_group_until_no_warp_there_can_issue() {
        let slots = [0, 1, 2, 3, 4, 5];
        let mut tl = sched(WarpSchedulerKind::TwoLevel, |c| c.two_level_group = 3);
        let age = |s: usize| Some(s as u64);
        let picks: Vec<_> = (0..4).map(|_| tl.pick(&slots, |_| true, age).unwrap()).collect();
        assert_eq!(picks, vec![0, 1, 2, 0], "round robin inside group 0");
        assert_eq!(tl.pick(&slots, |s| s >= 3, age), Some(3), "group 0 stalled: group 1 takes over");
        assert_eq!(tl.pick(&slots, |_| true, age), Some(4), "and keeps the turn");
        assert_eq!(tl.pick(&slots, |s| s == 2, age), Some(2));
    }

    #[test]
    fn swl_issues_only_from_its_oldest_live_warps() {
        let slots = [0, 1, 2, 3];
        let mut swl = sched(WarpSchedulerKind::Swl, |c| c.swl_limit = 2);
        let age = |s: usize| [Some(30), Some(10), None, Some(20)][s];
        assert_eq!(swl.pick(&slots, |_| true, age), Some(1), "oldest first (GTO)");
        assert_eq!(swl.pick(&slots, |s| s != 1, age), Some(3));
        assert_eq!(swl.pick(&slots, |s| s == 0, age), None, "slot 0 is beyond the limit");
        let age = |s: usize| [Some(30), None, None, Some(20)][s];
        assert_eq!(swl.pick(&slots, |s| s == 0, age), Some(0), "an exit lets the next oldest in");
    }
}
