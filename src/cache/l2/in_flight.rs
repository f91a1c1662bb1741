//! Functional warming's stand-in for an L2 bank's MSHRs (sampled runs).
//!
//! In detail, a read of a line whose miss is still outstanding merges into its MSHR and
//! counts as a miss for the reading warp's type (a pending hit); warming has no timing, so
//! the line is already there and the read would count as a hit. By Little's law a bank
//! holds on average as many outstanding misses as its MSHR occupancy, so warming deems its
//! last that-many read misses still in flight, with the occupancy the last detailed piece
//! measured.

use std::collections::VecDeque;

#[derive(Debug, Clone, Default)]
pub(crate) struct InFlight {
    /// MSHR entries x L2 cycles since `from`, added up where the count changes.
    area: u64,
    last: u64,
    from: u64,
    /// Blocks of warming's latest read misses, deemed in flight; at most `cap`.
    recent: VecDeque<u64>,
    cap: usize,
}

impl InFlight {
    /// The MSHRs held `entries` from the last change until `now` (L2 cycles), when the
    /// count is about to change.
    pub fn note(&mut self, now: u64, entries: usize) {
        self.area += entries as u64 * now.saturating_sub(self.last);
        self.last = now;
    }

    /// Starts measuring afresh at `now` (a detailed piece's measurement starts).
    pub fn restart(&mut self, now: u64) {
        (self.area, self.last, self.from) = (0, now, now);
    }

    /// Ends a detailed piece at `now`, with `entries` held: warming from here deems as
    /// many of its misses in flight as the piece's mean occupancy, rounded.
    pub fn learn(&mut self, now: u64, entries: usize) {
        self.note(now, entries);
        let span = now.saturating_sub(self.from);
        if let Some(mean) = (self.area + span / 2).checked_div(span) {
            self.cap = mean as usize;
        }
        self.recent.clear();
    }

    /// Warming read `block` and missed: it is in flight until `cap` later misses.
    pub fn missed(&mut self, block: u64) {
        if self.cap == 0 {
            return;
        }
        if self.recent.len() == self.cap {
            self.recent.pop_front();
        }
        self.recent.push_back(block);
    }

    /// Whether warming deems `block` still on its way from DRAM.
    pub fn pending(&self, block: u64) -> bool {
        self.recent.contains(&block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupancy_is_the_time_weighted_mean_of_the_entries() {
        let mut f = InFlight::default();
        f.restart(100);
        f.note(110, 0); // empty for 10 cycles
        f.note(130, 2); // 2 entries for 20 cycles
        f.learn(140, 5); // 5 entries for 10 cycles: (0 + 40 + 50) / 40 = 2.25
        assert_eq!(f.cap, 2);
        f.missed(1);
        f.missed(2);
        f.missed(3);
        assert!(!f.pending(1) && f.pending(2) && f.pending(3));
    }

    #[test]
    fn an_idle_piece_deems_nothing_in_flight() {
        let mut f = InFlight::default();
        f.restart(0);
        f.learn(1000, 0);
        f.missed(7);
        assert!(!f.pending(7));
    }
}
