//! Warp schedulers: each SM scheduler slot picks at most one ready warp per cycle.
//!
//! Contract: `pick` sees this scheduler's warp slots and two queries — whether a slot
//! can issue now, and its age (dispatch order) — and returns the slot to issue.
//! `ready` may be costly (it fetches instructions), so policies call it sparingly.

mod gto;
mod lrr;

pub use gto::Gto;
pub use lrr::Lrr;

use crate::config::WarpSchedulerKind;

#[derive(Debug, Clone)]
pub enum WarpScheduler {
    Lrr(Lrr),
    Gto(Gto),
}

impl WarpScheduler {
    pub fn new(kind: WarpSchedulerKind) -> Self {
        match kind {
            WarpSchedulerKind::Lrr => WarpScheduler::Lrr(Lrr::default()),
            WarpSchedulerKind::Gto => WarpScheduler::Gto(Gto::default()),
        }
    }

    #[inline]
    pub fn pick(
        &mut self,
        slots: &[usize],
        ready: impl FnMut(usize) -> bool,
        age: impl Fn(usize) -> u64,
    ) -> Option<usize> {
        match self {
            WarpScheduler::Lrr(s) => s.pick(slots, ready),
            WarpScheduler::Gto(s) => s.pick(slots, ready, age),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lrr_rotates_and_gto_sticks_with_its_warp() {
        let slots = [0, 2, 4, 6];
        let mut lrr = WarpScheduler::new(WarpSchedulerKind::Lrr);
        let picks: Vec<_> = (0..5).map(|_| lrr.pick(&slots, |_| true, |s| s as u64).unwrap()).collect();
        assert_eq!(picks, vec![0, 2, 4, 6, 0]);

        let mut gto = WarpScheduler::new(WarpSchedulerKind::Gto);
        let age = |s: usize| 100 - s as u64; // slot 6 is the oldest
        assert_eq!(gto.pick(&slots, |_| true, age), Some(6));
        assert_eq!(gto.pick(&slots, |_| true, age), Some(6), "greedy: same warp again");
        assert_eq!(gto.pick(&slots, |s| s != 6, age), Some(4), "then the oldest ready");
        assert_eq!(gto.pick(&slots, |_| true, age), Some(4), "and stays there");
        assert_eq!(gto.pick(&slots, |_| false, age), None);
    }
}
