//! The links between DRAM controllers. WG-M's coordination network (SC'14 §IV-C): a
//! controller that selects a warp-group broadcasts (warp, score) to every other one;
//! each message arrives `dram.coordination_latency` DRAM cycles later. Its capacity is
//! bounded by construction: a controller selects at most one group per cycle, so at most
//! channels x latency messages are ever in flight.
//!
//! The same place carries the zero-latency-divergence bound's releases (`dram.ideal`):
//! when a warp-load's first DRAM read completes, every channel is told at once.

use super::Partition;
use crate::config::{Config, DramIdealKind};
use crate::dram::sched::{GroupKey, TransactionPolicy};
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Message {
    /// DRAM cycle it reaches the receivers.
    at: u64,
    from: usize,
    key: GroupKey,
    score: u32,
}

#[derive(Debug, Clone)]
pub struct CoordinationNetwork {
    latency: u64,
    in_flight: VecDeque<Message>,
    ideal: bool,
    /// Messages delivered (for the report).
    pub delivered: u64,
}

impl CoordinationNetwork {
    pub fn new(cfg: &Config) -> Self {
        Self {
            latency: cfg.dram.coordination_latency.max(1) as u64,
            in_flight: VecDeque::new(),
            ideal: cfg.dram.ideal == DramIdealKind::ZeroLatencyDivergence,
            delivered: 0,
        }
    }

    /// Before the DRAM tick at `now`: hands every message due to the other controllers.
    pub fn deliver(&mut self, parts: &mut [Partition], now: u64) -> bool {
        let mut any = false;
        while let Some(m) = self.in_flight.front().copied().filter(|m| m.at <= now) {
            self.in_flight.pop_front();
            for p in parts.iter_mut().filter(|p| p.id != m.from) {
                p.dram.scheduler_mut().receive(m.key, m.score);
            }
            self.delivered += 1;
            any = true;
        }
        any
    }

    /// After the DRAM tick at `now` (core cycle `core_now`): takes the controllers'
    /// broadcasts into the network, and passes zero-divergence releases on at once.
    pub fn collect(&mut self, parts: &mut [Partition], now: u64, core_now: u64) -> bool {
        let mut any = false;
        for p in parts.iter_mut() {
            for (key, score) in p.dram.scheduler_mut().take_messages() {
                self.in_flight.push_back(Message { at: now + self.latency, from: p.id, key, score });
            }
        }
        if self.ideal {
            let released: Vec<GroupKey> = parts.iter_mut().flat_map(|p| p.dram.take_releases()).collect();
            for key in released {
                for p in parts.iter_mut() {
                    any |= p.dram.release(key, core_now, now);
                }
            }
        }
        any
    }

    /// DRAM cycle of the next delivery.
    pub fn next_event(&self) -> Option<u64> {
        self.in_flight.front().map(|m| m.at)
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{preset, DramSchedulerKind};

    #[test]
    fn messages_arrive_after_the_latency_at_every_other_controller() {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.dram.scheduler = DramSchedulerKind::WgM;
        cfg.dram.coordination_latency = 3;
        let mut parts: Vec<Partition> = (0..3).map(|i| Partition::new(&cfg, i)).collect();
        let mut net = CoordinationNetwork::new(&cfg);
        net.in_flight.push_back(Message { at: 13, from: 1, key: (0, 5), score: 2 });
        assert_eq!(net.next_event(), Some(13));
        assert!(!net.deliver(&mut parts, 12));
        assert!(net.deliver(&mut parts, 13));
        assert!(net.is_empty());
        assert_eq!(net.delivered, 1);
        assert!(!net.collect(&mut parts, 13, 6));
        assert!(net.is_empty(), "no controller picked anything");
    }
}
