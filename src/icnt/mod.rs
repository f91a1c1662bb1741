//! A crossbar carrying packets one way (SMs to partition ports, or back).
//!
//! Input-queued: each source has an injection buffer (in flits) served in order; each
//! cycle every free destination takes the head packet of one source, rotating which
//! source it looks at first. A packet of k flits occupies its source and destination
//! for k cycles and arrives `latency + k - 1` cycles after it leaves. Space in the
//! destination's ejection buffer is reserved at departure, which is the back-pressure.

use crate::mem::MemReq;
use crate::queue::BoundedQueue;
use std::collections::VecDeque;

#[derive(Debug, Clone)]
struct Packet {
    dst: usize,
    flits: u32,
    req: MemReq,
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct CrossbarStats {
    pub packets: u64,
    pub flits: u64,
    /// Cycles a free destination had a packet ready for it (at the head of a free source)
    /// but no room for it in its ejection buffer.
    pub ejection_full_cycles: u64,
}

#[derive(Debug, Clone)]
pub struct Crossbar {
    latency: u64,
    flit_bytes: u32,
    header_bytes: u32,
    inputs: Vec<VecDeque<Packet>>,
    input_flits: Vec<u32>,
    input_cap: u32,
    src_busy_until: Vec<u64>,
    dst_busy_until: Vec<u64>,
    /// Per destination: packets in flight (arrival cycle ascending), then arrived ones.
    in_flight: Vec<VecDeque<(u64, MemReq, u32)>>,
    outputs: Vec<BoundedQueue<(MemReq, u32)>>,
    output_flits: Vec<u32>,
    output_cap: u32,
    next_src: Vec<usize>,
    /// Scratch for `tick`: per destination, the chosen source and its distance from
    /// `next_src`.
    offers: Vec<Option<(usize, usize)>>,
    queued: usize,
    flying: usize,
    pub stats: CrossbarStats,
}

impl Crossbar {
    pub fn new(
        sources: usize,
        dests: usize,
        latency: u32,
        flit_bytes: u32,
        input_flits: u32,
        output_flits: u32,
    ) -> Self {
        Self {
            latency: latency as u64,
            flit_bytes,
            header_bytes: 0,
            inputs: vec![VecDeque::new(); sources],
            input_flits: vec![0; sources],
            input_cap: input_flits,
            src_busy_until: vec![0; sources],
            dst_busy_until: vec![0; dests],
            in_flight: vec![VecDeque::new(); dests],
            outputs: (0..dests).map(|_| BoundedQueue::new(output_flits)).collect(),
            output_flits: vec![0; dests],
            output_cap: output_flits,
            next_src: vec![0; dests],
            offers: vec![None; dests],
            queued: 0,
            flying: 0,
            stats: CrossbarStats::default(),
        }
    }

    /// Gives every packet `bytes` of header besides its data (`icnt.header_bytes`).
    pub fn with_header(mut self, bytes: u32) -> Self {
        self.header_bytes = bytes;
        self
    }

    /// Flits for a packet carrying `data_bytes` (0 for a read request or a write ack) and
    /// the header; at least one.
    pub fn flits_for(&self, data_bytes: u32) -> u32 {
        1.max((data_bytes + self.header_bytes).div_ceil(self.flit_bytes))
    }

    /// Injection links (sources).
    pub fn sources(&self) -> usize {
        self.inputs.len()
    }

    pub fn can_push(&self, src: usize, flits: u32) -> bool {
        self.input_flits[src] + flits <= self.input_cap
    }

    pub fn push(&mut self, src: usize, dst: usize, req: MemReq, flits: u32) {
        debug_assert!(self.can_push(src, flits));
        self.input_flits[src] += flits;
        self.inputs[src].push_back(Packet { dst, flits, req });
        self.queued += 1;
    }

    /// Moves arrived packets to the ejection buffers (calling `on_arrive` on each, e.g.
    /// to stamp the arrival in the receiver's clock) and starts new transfers.
    pub fn tick(&mut self, now: u64, mut on_arrive: impl FnMut(&mut MemReq)) -> bool {
        let mut progress = false;
        if self.flying > 0 {
            for dst in 0..self.in_flight.len() {
                while let Some(&(arrive, _, _)) = self.in_flight[dst].front() {
                    if arrive > now {
                        break;
                    }
                    let (_, mut req, flits) = self.in_flight[dst].pop_front().expect("front exists");
                    on_arrive(&mut req);
                    self.outputs[dst].push((req, flits));
                    self.flying -= 1;
                    progress = true;
                }
            }
        }
        if self.queued == 0 {
            return progress;
        }
        // A source offers only its head packet, to that packet's destination, so no two
        // destinations compete for a source: one pass over the sources finds, for every free
        // destination, the first ready source at or after its round-robin pointer.
        let n_src = self.inputs.len();
        self.offers.fill(None);
        for src in 0..n_src {
            let Some(head) = self.inputs[src].front() else { continue };
            let dst = head.dst;
            if self.src_busy_until[src] > now || self.dst_busy_until[dst] > now {
                continue;
            }
            let dist = (src + n_src - self.next_src[dst]) % n_src;
            if self.offers[dst].is_none_or(|(best, _)| dist < best) {
                self.offers[dst] = Some((dist, src));
            }
        }
        for dst in 0..self.offers.len() {
            let Some((_, src)) = self.offers[dst] else { continue };
            let flits = self.inputs[src].front().expect("offered heads exist").flits;
            if self.output_flits[dst] + flits > self.output_cap {
                self.stats.ejection_full_cycles += 1;
                continue;
            }
            let p = self.inputs[src].pop_front().expect("offered heads exist");
            self.queued -= 1;
            self.input_flits[src] -= p.flits;
            let f = p.flits as u64;
            self.src_busy_until[src] = now + f;
            self.dst_busy_until[dst] = now + f;
            self.output_flits[dst] += p.flits;
            self.in_flight[dst].push_back((now + self.latency + f - 1, p.req, p.flits));
            self.flying += 1;
            self.next_src[dst] = (src + 1) % n_src;
            self.stats.packets += 1;
            self.stats.flits += f;
            progress = true;
        }
        progress
    }

    pub fn peek(&self, dst: usize) -> Option<&MemReq> {
        self.outputs[dst].front().map(|(r, _)| r)
    }

    pub fn pop(&mut self, dst: usize) -> Option<MemReq> {
        let (req, flits) = self.outputs[dst].pop()?;
        self.output_flits[dst] -= flits;
        Some(req)
    }

    /// Earliest cycle after `now` at which a tick could move something without outside help.
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let mut next = self.in_flight.iter().filter_map(|q| q.front().map(|e| e.0)).min();
        if self.queued > 0 {
            for (src, q) in self.inputs.iter().enumerate() {
                if let Some(p) = q.front() {
                    let t = self.src_busy_until[src].max(self.dst_busy_until[p.dst]).max(now + 1);
                    next = Some(next.map_or(t, |n: u64| n.min(t)));
                }
            }
        }
        next
    }

    pub fn is_empty(&self) -> bool {
        self.queued == 0 && self.flying == 0 && self.outputs.iter().all(|o| o.is_empty())
    }

    /// Packets waiting, flying and delivered, for the watchdog.
    pub fn describe(&self) -> String {
        let delivered: usize = self.outputs.iter().map(|o| o.len()).sum();
        format!("{} queued, {} in flight, {} awaiting pickup", self.queued, self.flying, delivered)
    }
}

/// How a crossbar numbers the partitions' nodes (request-network destinations, or
/// reply-network sources): each partition's `per_partition` nodes are consecutive. SMs and
/// partitions ask this for a node rather than knowing the layout.
#[derive(Debug, Clone, Copy)]
pub struct PartitionNodes {
    per_partition: usize,
}

impl PartitionNodes {
    pub fn new(per_partition: usize) -> Self {
        Self { per_partition }
    }

    /// Node `k` of partition `partition`, `k` taken modulo the partition's nodes (an SM
    /// passes its id, an input port its number).
    pub fn node(self, partition: usize, k: usize) -> usize {
        partition * self.per_partition + k % self.per_partition
    }

    /// Nodes of `partitions` partitions: the crossbar's width on their side.
    pub fn count(self, partitions: usize) -> usize {
        partitions * self.per_partition
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::AccessKind;

    fn req(id: u64) -> MemReq {
        MemReq::new(id, id * 128, AccessKind::Read, 128)
    }

    fn run_until_delivered(x: &mut Crossbar, dst: usize, from: u64) -> u64 {
        for t in from..from + 1000 {
            x.tick(t, |_| {});
            if x.peek(dst).is_some() {
                return t;
            }
        }
        panic!("not delivered");
    }

    #[test]
    fn single_flit_arrives_after_latency() {
        let mut x = Crossbar::new(2, 2, 5, 32, 8, 8);
        x.push(0, 1, req(1), 1);
        assert_eq!(run_until_delivered(&mut x, 1, 0), 5);
        assert_eq!(x.pop(1).unwrap().id, 1);
        assert!(x.is_empty());
    }

    #[test]
    fn multi_flit_packet_serializes_on_the_destination() {
        let mut x = Crossbar::new(2, 1, 3, 32, 16, 16);
        x.push(0, 0, req(1), 4);
        x.push(1, 0, req(2), 4);
        assert_eq!(run_until_delivered(&mut x, 0, 0), 3 + 3);
        x.pop(0);
        // The second packet could only leave once the first released the destination at cycle 4.
        assert_eq!(run_until_delivered(&mut x, 0, 7), 4 + 3 + 3);
    }

    #[test]
    fn full_output_buffer_applies_back_pressure() {
        let mut x = Crossbar::new(1, 1, 1, 32, 8, 4);
        x.push(0, 0, req(1), 4);
        x.push(0, 0, req(2), 4);
        for t in 0..20 {
            x.tick(t, |_| {});
        }
        assert_eq!(x.pop(0).unwrap().id, 1);
        assert!(x.peek(0).is_none(), "second packet must wait for space");
        for t in 20..30 {
            x.tick(t, |_| {});
        }
        assert_eq!(x.pop(0).unwrap().id, 2);
    }

    #[test]
    fn input_buffer_is_bounded() {
        let mut x = Crossbar::new(1, 1, 1, 32, 5, 8);
        assert!(x.can_push(0, 4));
        x.push(0, 0, req(1), 4);
        assert!(!x.can_push(0, 4));
        assert!(x.can_push(0, 1));
    }

    #[test]
    fn next_event_points_at_the_arrival() {
        let mut x = Crossbar::new(1, 1, 10, 32, 8, 8);
        x.push(0, 0, req(1), 1);
        x.tick(0, |_| {});
        assert_eq!(x.next_event(0), Some(10));
    }
}
