//! Per-warp-load and per-request latency statistics, fed by the SMs' warp-load tables.

use super::warp_load::WarpLoadSummary;
use crate::histogram::Histogram;
use crate::mem::MemReq;
use serde::{Deserialize, Serialize};

/// The stages of a read's trip, in the order it passes them.
pub const TRIP_STAGES: [&str; 7] =
    ["request_net", "port_wait", "l2_queue", "l2_or_dram", "reply_queue", "reply_net", "sm_eject"];

/// Summed time of returned reads in each stage of their trip, in core cycles.
#[derive(Debug, Clone, Copy, Default)]
pub struct TripSums {
    pub reads: u64,
    pub stages: [u64; 7],
}

impl TripSums {
    /// Adds a read whose data is back at core cycle `now`.
    pub fn add(&mut self, req: &MemReq, now: u64) {
        let t = &req.trip;
        let marks = [0, t.arrived, t.accepted, t.looked_up, t.replied, t.sent, t.delivered, req.since_issue(now)];
        debug_assert!(marks.windows(2).all(|w| w[0] <= w[1]), "request {} trip {marks:?}", req.id);
        for (s, w) in self.stages.iter_mut().zip(marks.windows(2)) {
            *s += w[1].saturating_sub(w[0]) as u64;
        }
        self.reads += 1;
    }

    pub fn report(&self) -> TripReport {
        let mean = |i: usize| if self.reads == 0 { 0.0 } else { self.stages[i] as f64 / self.reads as f64 };
        TripReport {
            reads: self.reads,
            request_net: mean(0),
            port_wait: mean(1),
            l2_queue: mean(2),
            l2_or_dram: mean(3),
            reply_queue: mean(4),
            reply_net: mean(5),
            sm_eject: mean(6),
        }
    }
}

/// Where the average read's time went from leaving its SM to its data being back:
/// the request network, waiting at the partition's port for room in its bank queue
/// (or in the DRAM queue), the bank queue, the tag lookup (a hit) or the trip through
/// DRAM (a miss or bypass), waiting for a reply port, the reply network, and waiting
/// in the SM's ejection buffer. The stages add up to the read's latency: the L2
/// queuing MeDiC targets is `l2_queue`, and a full bank queue pushes its backlog into
/// `port_wait`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TripReport {
    pub reads: u64,
    pub request_net: f64,
    pub port_wait: f64,
    pub l2_queue: f64,
    pub l2_or_dram: f64,
    pub reply_queue: f64,
    pub reply_net: f64,
    pub sm_eject: f64,
}

impl TripReport {
    /// (stage name, mean core cycles) in trip order.
    pub fn stages(&self) -> [(&'static str, f64); 7] {
        let v = [
            self.request_net,
            self.port_wait,
            self.l2_queue,
            self.l2_or_dram,
            self.reply_queue,
            self.reply_net,
            self.sm_eject,
        ];
        std::array::from_fn(|i| (TRIP_STAGES[i], v[i]))
    }
}

#[derive(Debug, Clone)]
pub struct LoadStats {
    pub warp_loads: u64,
    /// Issue of the load to its last returned request.
    pub warp_load_latency: Histogram,
    /// The same over warp-loads DRAM served at least one request of (SC'14's effective
    /// main-memory latency).
    pub dram_warp_load_latency: Histogram,
    /// Last minus first return, over warp-loads of two or more requests.
    pub divergence: Histogram,
    /// The same over the requests DRAM served, for warp-loads with two or more of them.
    pub dram_divergence: Histogram,
    /// Slowest minus fastest L2 hit of warp-loads whose requests all hit in the L2.
    pub inter_bank_divergence: Histogram,
    /// A request's trip from leaving the SM to its data being back.
    pub request_latency: Histogram,
    /// The same split by stage, for reads the L2 served and for reads DRAM served.
    pub trip_l2_hit: TripSums,
    pub trip_dram: TripSums,
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
            dram_warp_load_latency: Histogram::new(50, 80),
            divergence: Histogram::new(50, 80),
            dram_divergence: Histogram::new(50, 80),
            inter_bank_divergence: Histogram::new(10, 50),
            request_latency: Histogram::new(50, 80),
            trip_l2_hit: TripSums::default(),
            trip_dram: TripSums::default(),
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
            self.dram_warp_load_latency.add(s.latency);
            self.dram_channels_per_warp_load.add(s.dram_channels as u64);
            self.dram_banks_per_warp_load.add(s.dram_banks as u64);
        }
        if s.channels > 0 {
            self.channels_per_warp_load.add(s.channels as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::{AccessKind, Trip};

    #[test]
    fn a_trip_splits_into_its_stages_and_they_add_up() {
        let mut req = MemReq::new(1, 0, AccessKind::Read, 128);
        req.t_issue = 100;
        req.trip = Trip { arrived: 10, accepted: 30, looked_up: 34, replied: 54, sent: 90, delivered: 106 };
        let mut sums = TripSums::default();
        sums.add(&req, 207);
        sums.add(&req, 209);
        let r = sums.report();
        assert_eq!(r.reads, 2);
        let got: Vec<f64> = r.stages().iter().map(|s| s.1).collect();
        assert_eq!(got, vec![10.0, 20.0, 4.0, 20.0, 36.0, 16.0, 2.0]);
        assert_eq!(got.iter().sum::<f64>(), 108.0, "issue 100 to back at 207 and 209");
        assert_eq!(TripSums::default().report(), TripReport::default());
    }
}
