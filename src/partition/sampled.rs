//! What a sampled run needs of a partition (see `crate::sample`): functional warming of its
//! L2 and row buffers, and fresh counts where a window's measurement starts.

use super::Partition;
use crate::cache::l2::L2Stats;

impl Partition {
    /// Functional warming (sampled runs): one access at partition-local address `local`
    /// through the L2's tags to the DRAM row buffers, with no timing or statistics.
    /// Returns whether it counts as a hit for the reader's warp type: it hit in the L2, on
    /// a line not deemed still in flight.
    pub fn warm(&mut self, local: u64, is_write: bool) -> bool {
        let b = self.bank_of(local);
        let w = self.banks[b].warm(local, is_write);
        if w.to_dram {
            self.dram.warm(local);
        }
        if let Some(wb) = w.writeback {
            self.dram.warm(wb);
        }
        !w.to_dram && !w.pending
    }

    /// A detailed piece ends at L2 cycle `now`: each bank learns its MSHR occupancy for
    /// the warming that follows.
    pub fn learn_in_flight(&mut self, now: u64) {
        for bank in &mut self.banks {
            bank.learn_in_flight(now);
        }
    }

    /// Starts the counts afresh at L2 cycle `now` (a sampled run's measurement).
    pub fn reset_stats(&mut self, now: u64) {
        for bank in &mut self.banks {
            bank.restart_in_flight(now);
        }
        self.stats = L2Stats::default();
        self.requests = 0;
        self.dram.reset_stats();
    }
}
