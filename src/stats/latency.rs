//! Per-warp-load and per-request latency statistics, fed by the SMs' warp-load tables.

use super::Histogram;
use crate::core::warp_load::WarpLoadSummary;

#[derive(Debug, Clone)]
pub struct LoadStats {
    pub warp_loads: u64,
    /// Issue of the load to its last returned request.
    pub warp_load_latency: Histogram,
    /// Last minus first return, over warp-loads of two or more requests.
    pub divergence: Histogram,
    /// The same over the requests DRAM served, for warp-loads with two or more of them.
    pub dram_divergence: Histogram,
    /// Slowest minus fastest L2 hit of warp-loads whose requests all hit in the L2.
    pub inter_bank_divergence: Histogram,
    /// A request's trip from leaving the SM to its data being back.
    pub request_latency: Histogram,
    /// Memory partitions (channels) touched per warp-load that left the SM.
    pub channels_per_warp_load: Histogram,
    /// DRAM channels, and (channel, bank) pairs, the DRAM-served requests of a warp-load
    /// went to, over warp-loads with at least one.
    pub dram_channels_per_warp_load: Histogram,
    pub dram_banks_per_warp_load: Histogram,
}

impl Default for LoadStats {
    fn default() -> Self {
        Self {
            warp_loads: 0,
            warp_load_latency: Histogram::new(50, 80),
            divergence: Histogram::new(50, 80),
            dram_divergence: Histogram::new(50, 80),
            inter_bank_divergence: Histogram::new(10, 50),
            request_latency: Histogram::new(50, 80),
            channels_per_warp_load: Histogram::new(1, 33),
            dram_channels_per_warp_load: Histogram::new(1, 33),
            dram_banks_per_warp_load: Histogram::new(1, 33),
        }
    }
}

impl LoadStats {
    pub fn record_warp_load(&mut self, s: &WarpLoadSummary) {
        self.warp_loads += 1;
        self.warp_load_latency.add(s.latency);
        if s.requests >= 2 {
            self.divergence.add(s.divergence);
        }
        if s.dram_requests >= 2 {
            self.dram_divergence.add(s.dram_divergence);
        }
        if s.all_l2_hits {
            self.inter_bank_divergence.add(s.l2_hit_divergence);
        }
        if s.dram_requests > 0 {
            self.dram_channels_per_warp_load.add(s.dram_channels as u64);
            self.dram_banks_per_warp_load.add(s.dram_banks as u64);
        }
        if s.channels > 0 {
            self.channels_per_warp_load.add(s.channels as u64);
        }
    }
}
