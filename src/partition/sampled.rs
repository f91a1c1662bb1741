//! What a sampled run needs of a partition (see `crate::sample`): functional warming of its
//! L2 and row buffers, and fresh counts where a window's measurement starts.

use super::Partition;
use crate::cache::l2::{L2Shared, L2Stats};
use crate::mem::{L2Route, MemReq};

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

    /// A read in functional warming, where the L2 bypass policy sends it as the demultiplexer
    /// would in detail for `reader` (its warp and PC) at core cycle `now_core`, training
    /// nothing: to DRAM it only opens its row; not allocating, it touches a line it hits and
    /// otherwise only opens its row. Warming that allocated every read undid a bypassing
    /// policy's work between windows (PC-Byp on `pvc` sampled a sixth of its gain).
    pub fn warm_read(&mut self, local: u64, reader: &MemReq, shared: &mut L2Shared, now_core: u64) -> bool {
        let route = shared.decide(reader, now_core, self.line(local)).1;
        let cached = match route {
            L2Route::Cache => true,
            L2Route::NoAllocate => self.banks[self.bank_of(local)].holds(local),
            L2Route::Dram => false,
        };
        if cached {
            return self.warm(local, false);
        }
        self.dram.warm(local);
        false
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
