//! What a sampled run needs of a partition (see `crate::sample`): functional warming of its
//! L2 and row buffers, and fresh counts where a window's measurement starts.

use super::Partition;
use crate::cache::l2::L2Stats;

impl Partition {
    /// Functional warming (sampled runs): one access at partition-local address `local`
    /// through the L2's tags to the DRAM row buffers, with no timing or statistics.
    /// Returns whether it hit in the L2.
    pub fn warm(&mut self, local: u64, is_write: bool) -> bool {
        let b = self.bank_of(local);
        let (to_dram, writeback) = self.banks[b].warm(local, is_write);
        if to_dram {
            self.dram.warm(local);
        }
        if let Some(w) = writeback {
            self.dram.warm(w);
        }
        !to_dram
    }

    /// Starts the counts afresh (a sampled run's measurement).
    pub fn reset_stats(&mut self) {
        self.stats = L2Stats::default();
        self.requests = 0;
        self.dram.reset_stats();
    }
}
