//! Counters of one DRAM channel. Ratios (row-buffer hit rate, bus utilization,
//! average latency and occupancy) are computed at report time from these sums.

use serde::Serialize;

/// All times are in DRAM command-clock cycles.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DramStats {
    /// Read column commands issued.
    pub reads: u64,
    /// Write column commands issued.
    pub writes: u64,
    /// Column accesses that found their row open.
    pub row_hits: u64,
    /// Column accesses that needed an ACT.
    pub row_misses: u64,
    pub activates: u64,
    pub precharges: u64,
    pub refreshes: u64,
    /// Cycles the data bus carried data.
    pub data_bus_busy: u64,
    /// Sum over reads of arrival at the channel -> last data beat.
    pub read_latency_sum: u64,
    /// Sum over cycles of the read queue's occupancy.
    pub read_queue_occupancy_sum: u64,
    /// Cycles covered by ticks: the latest tick's cycle + 1, idle-skipped cycles included,
    /// so it equals the ticks seen when the channel is ticked every cycle from 0.
    pub cycles: u64,
}
