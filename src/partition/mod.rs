//! A memory partition: an L2 slice of banks behind input ports (optionally behind a
//! fixed-latency ROP pipeline per port), the DRAM request queue (optionally followed by a
//! fixed-latency path to the controller), its GDDR5 channel, per-bank return queues and the
//! queue back to the interconnect. It works in three clock domains, one `tick_*` each.

mod coord;
mod sampled;

pub use coord::CoordinationNetwork;

use crate::cache::l2::config::L2Config;
use crate::cache::l2::{line_key, DramQueue, L2Bank, L2Shared, L2Stats, WarpL2Counters, WarpView};
use crate::clock::Now;
use crate::config::{Config, ReplyQueueKind, RopSkip};
use crate::dram::DramChannel;
use crate::icnt::{Crossbar, PartitionNodes};
use crate::mem::{AccessKind, L2Route, MemReq};
use crate::queue::{BoundedQueue, DelayLine};

#[derive(Clone)]
pub struct Partition {
    pub id: usize,
    banks: Vec<L2Bank>,
    line_shift: u32,
    ports: usize,
    /// Request-network nodes of each partition (`icnt.nodes_per_partition`); input port
    /// `p` takes the packets of this partition's node `p` (modulo their number).
    nodes: PartitionNodes,
    port_rr: usize,
    bank_rr: usize,
    out_rr: usize,
    /// Reply ports (`l2.reply_ports`).
    reply_ports: usize,
    reply_queue: ReplyQueueKind,
    /// The first reply port whose queue the banks fill this cycle (after the last one filled).
    fill_rr: usize,
    /// The first reply port the unified queue's head tries (after the last one used).
    reply_rr: usize,
    dram_queue: DramQueue,
    /// Per input port, the ROP pipeline (`l2.rop_latency`); empty when there is none or
    /// every request skips it.
    rop: Vec<DelayLine<MemReq>>,
    /// Reads the bypass policy sends to DRAM skip the ROP pipeline.
    bypass_skips_rop: bool,
    /// Every request now skips the ROP pipeline, whose lines still hold some (`set_rop_skip`).
    rop_draining: bool,
    /// The fixed path from the DRAM request queue to the controller (`l2.dram_latency`).
    dram_path: Option<DelayLine<MemReq>>,
    pub dram: DramChannel,
    returns: Vec<BoundedQueue<MemReq>>,
    /// The L2-to-icnt queues: one per reply port (each port an injection point of the reply
    /// network), or one the ports share (`l2.reply_queue`).
    out_queues: Vec<BoundedQueue<MemReq>>,
    pub stats: L2Stats,
    /// Requests that arrived from the SMs (the partition-camping measure).
    pub requests: u64,
}

impl Partition {
    pub fn new(cfg: &Config, id: usize) -> Self {
        let l2 = &cfg.l2;
        let banks = l2.banks_per_partition as usize;
        Self {
            id,
            banks: (0..banks)
                .map(|_| L2Bank::new(l2, cfg.mem.partitions, cfg.core.num_sms, cfg.core.max_warps_per_sm))
                .collect(),
            line_shift: l2.line_bytes.trailing_zeros(),
            ports: l2.ports as usize,
            nodes: PartitionNodes::new(cfg.icnt.nodes_per_partition as usize),
            port_rr: 0,
            bank_rr: 0,
            out_rr: 0,
            reply_ports: l2.reply_ports as usize,
            reply_queue: l2.reply_queue,
            fill_rr: 0,
            reply_rr: 0,
            dram_queue: BoundedQueue::new(l2.dram_queue),
            rop: rop_lines(l2),
            bypass_skips_rop: l2.rop_skip == RopSkip::Bypassed,
            rop_draining: false,
            dram_path: (l2.dram_latency > 0).then(|| DelayLine::new(l2.dram_latency)),
            dram: DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, id as u32),
            returns: (0..banks).map(|_| BoundedQueue::new(l2.return_queue)).collect(),
            out_queues: match l2.reply_queue {
                ReplyQueueKind::PerPort => (0..l2.reply_ports).map(|_| BoundedQueue::new(l2.return_queue)).collect(),
                ReplyQueueKind::Unified => vec![BoundedQueue::new(l2.return_queue.saturating_mul(l2.reply_ports))],
            },
            stats: L2Stats::default(),
            requests: 0,
        }
    }

    /// Takes `l2.rop_skip` from here on (a sampled run's follower, `crate::sample::shared`).
    /// When every request is to skip the ROP pipeline, those already in it finish their
    /// latency there, and a port whose line still holds some takes none from the network.
    pub fn set_rop_skip(&mut self, l2: &L2Config) {
        self.bypass_skips_rop = l2.rop_skip == RopSkip::Bypassed;
        let lines = rop_lines(l2);
        self.rop_draining = false;
        if !lines.is_empty() {
            if self.rop.is_empty() {
                self.rop = lines;
            }
        } else if self.rop.iter().all(DelayLine::is_empty) {
            self.rop = lines;
        } else {
            self.rop_draining = true;
        }
    }

    /// The request-network node input port `p` reads from.
    fn node_of_port(&self, p: usize) -> usize {
        self.nodes.node(self.id, p)
    }

    fn bank_of(&self, local: u64) -> usize {
        ((local >> self.line_shift) % self.banks.len() as u64) as usize
    }

    /// L2 clock: port arbitration, tag lookups, fills, replies, and hand-off to DRAM.
    pub fn tick_l2(
        &mut self,
        now: &Now,
        req_net: &mut Crossbar,
        next_id: &mut u64,
        warps: &mut WarpL2Counters,
        shared: &mut L2Shared,
    ) -> bool {
        let mut progress = self.arbitrate(now, req_net, shared);
        let nb = self.banks.len();
        for b in 0..nb {
            let bank = &mut self.banks[b];
            progress |= bank.drain_pipe(now.l2, now.core);
            progress |= bank.lookup(now.l2, now.core, &mut self.dram_queue, next_id, &mut self.stats, warps, shared);
            for tag in bank.absorbed_tags.drain(..) {
                self.dram.forward_tag(&tag, now.dram);
            }
            if let Some(reply) = self.returns[b].front() {
                if bank.fill(now, reply, &mut self.dram_queue, next_id, &mut self.stats, shared) {
                    self.returns[b].pop();
                    progress = true;
                }
            }
        }
        progress |= self.queue_replies();
        progress | self.hand_to_dram(now)
    }

    /// The head of the DRAM request queue, once ready, to the controller: at once, or
    /// through the fixed-latency path when there is one.
    fn hand_to_dram(&mut self, now: &Now) -> bool {
        let mut progress = false;
        if let Some(path) = &mut self.dram_path {
            if let Some(head) = path.ready(now.l2) {
                if self.dram.can_accept(head.kind) {
                    self.dram.push(path.pop().expect("ready"), now.dram);
                    progress = true;
                }
            }
        }
        if let Some(&(ready, ref head)) = self.dram_queue.front() {
            let open = match &self.dram_path {
                Some(path) => path.has_room(),
                None => self.dram.can_accept(head.kind),
            };
            if ready <= now.l2 && open {
                let (_, req) = self.dram_queue.pop().expect("head exists");
                match &mut self.dram_path {
                    Some(path) => path.push(now.l2, req),
                    None => self.dram.push(req, now.dram),
                }
                progress = true;
            }
        }
        progress
    }

    /// Banks move up to one reply per reply port into the queues each L2 cycle, taking banks
    /// and ports in turn, so that one reply a cycle alternates between per-port queues.
    fn queue_replies(&mut self) -> bool {
        let (nb, n) = (self.banks.len(), self.out_queues.len());
        let mut progress = false;
        let (ports, first) = (self.reply_ports, self.fill_rr);
        for k in 0..ports {
            let i = (first + k) % ports;
            let q = &mut self.out_queues[i % n];
            if !q.has_room(1) {
                continue;
            }
            for j in 0..nb {
                let b = (self.out_rr + j) % nb;
                if let Some(r) = self.banks[b].responses.pop() {
                    q.push(r);
                    self.out_rr = (b + 1) % nb;
                    self.fill_rr = (i + 1) % ports;
                    progress = true;
                    break;
                }
            }
        }
        progress
    }

    /// The demultiplexer, then the bank arbiter, over each port's head: the network's, or
    /// with a ROP pipeline the pipeline's once its latency has passed. A tag-only packet at
    /// a head goes to the DRAM controller at once. A head the bypass policy sends to DRAM
    /// moves into the DRAM request queue (one cycle through port and demultiplexer) or
    /// waits; it leaves the queue's last entry to the banks, so a stream of bypassed reads
    /// cannot starve the banks' misses and write-throughs. Then at most one request per
    /// remaining port and per bank moves into the bank queues, rotating the first bank
    /// and port examined each cycle. Every request leaves stamped with its warp's type.
    fn arbitrate(&mut self, now: &Now, req_net: &mut Crossbar, shared: &mut L2Shared) -> bool {
        let (nb, np) = (self.banks.len(), self.ports);
        let mut rop = std::mem::take(&mut self.rop);
        let mut progress = false;
        let mut heads = if rop.is_empty() {
            Heads::Net(req_net)
        } else if self.rop_draining {
            Heads::Draining(&mut rop, req_net)
        } else {
            progress |= self.enter_rop(now, req_net, shared, &mut rop);
            Heads::Rop(&mut rop)
        };
        let mut port_used = 0u64;
        for pi in 0..np {
            let p = (self.port_rr + pi) % np;
            match self.around_banks(&mut heads, p, now, shared, true) {
                Around::Banks => {}
                Around::Sent => {
                    port_used |= 1 << p;
                    progress = true;
                }
                Around::Held => port_used |= 1 << p,
            }
        }
        for bi in 0..nb {
            let b = (self.bank_rr + bi) % nb;
            for pi in 0..np {
                let p = (self.port_rr + pi) % np;
                if port_used & (1 << p) != 0 {
                    continue;
                }
                let dst = self.node_of_port(p);
                let Some(head) = heads.peek(dst, p, now.l2) else { continue };
                if self.bank_of(head.local) != b || !self.banks[b].queue.has_room(1) {
                    continue;
                }
                let mut req = heads.pop(dst, p);
                let (view, route) = shared.decide(&req, now.core, self.line(req.local));
                shared.count_accepted(&req, view, false, now.core);
                req.warp_type = view.wtype;
                // Ports that share a crossbar node peek one queue, so this head can be one
                // `around_banks` never saw this cycle (it came up behind a head another port
                // took). A DRAM route is only taken there: here it looks up the banks and
                // allocates like `Cache`, which the reports (MeDiC as run) have always shown.
                req.l2_route = match route {
                    L2Route::Dram => L2Route::Cache,
                    r => r,
                };
                req.trip.accepted = req.since_issue(now.core);
                self.stats.no_allocate += (route == L2Route::NoAllocate) as u64;
                self.requests += 1;
                self.banks[b].queue.push(req);
                port_used |= 1 << p;
                progress = true;
                break;
            }
        }
        self.bank_rr = (self.bank_rr + 1) % nb;
        self.port_rr = (self.port_rr + 1) % np;
        if self.rop_draining && rop.iter().all(DelayLine::is_empty) {
            (rop, self.rop_draining) = (Vec::new(), false);
        }
        self.rop = rop;
        progress
    }

    /// Requests from the network into the ROP pipelines, one per port per L2 cycle. A
    /// tag-only packet goes straight to DRAM; with `l2.rop_skip = bypassed` so does a read the
    /// bypass policy sends there, which otherwise waits at the port for the queue's room.
    fn enter_rop(
        &mut self,
        now: &Now,
        req_net: &mut Crossbar,
        shared: &mut L2Shared,
        rop: &mut [DelayLine<MemReq>],
    ) -> bool {
        let np = self.ports;
        let mut progress = false;
        let mut net = Heads::Net(req_net);
        for pi in 0..np {
            let p = (self.port_rr + pi) % np;
            match self.around_banks(&mut net, p, now, shared, self.bypass_skips_rop) {
                Around::Sent => progress = true,
                Around::Held => {}
                Around::Banks => {
                    let dst = self.node_of_port(p);
                    if net.peek(dst, p, now.l2).is_some() && rop[p].has_room() {
                        let mut req = net.pop(dst, p);
                        // L2 queuing is the wait beyond the pipeline's fixed latency.
                        req.t_l2_arrive += rop[p].latency();
                        rop[p].push(now.l2, req);
                        progress = true;
                    }
                }
            }
        }
        progress
    }

    /// Sends port `p`'s head around the banks when it must go there: a tag-only packet (a
    /// warp-group tag the L1 could not attach to a request) straight to the DRAM controller,
    /// and, when `bypass`, a read the bypass policy routes to DRAM into the DRAM request
    /// queue, leaving the queue's last entry to the banks.
    fn around_banks(&mut self, heads: &mut Heads, p: usize, now: &Now, shared: &mut L2Shared, bypass: bool) -> Around {
        let dst = self.node_of_port(p);
        let Some(head) = heads.peek(dst, p, now.l2) else { return Around::Banks };
        if head.tag_only {
            let tag = heads.pop(dst, p);
            self.dram.forward_tag(&tag, now.dram);
            return Around::Sent;
        }
        if !bypass {
            return Around::Banks;
        }
        let (view, route) = shared.decide(head, now.core, self.line(head.local));
        if route != L2Route::Dram {
            return Around::Banks;
        }
        if !self.dram_queue.has_room(2) {
            return Around::Held;
        }
        let req = heads.pop(dst, p);
        self.send_around(req, view, now, shared);
        Around::Sent
    }

    /// A read the bypass policy routed to DRAM, into the DRAM request queue (the caller
    /// checked its room), stamped with its warp's type.
    fn send_around(&mut self, mut req: MemReq, view: WarpView, now: &Now, shared: &mut L2Shared) {
        shared.count_accepted(&req, view, true, now.core);
        req.warp_type = view.wtype;
        req.l2_route = L2Route::Dram;
        req.trip.accepted = req.since_issue(now.core);
        req.trip.looked_up = req.trip.accepted;
        self.requests += 1;
        self.stats.bypassed += 1;
        self.dram_queue.push((now.l2 + 1, req));
    }

    fn line(&self, local: u64) -> u64 {
        line_key(self.id as u16, local >> self.line_shift)
    }

    /// DRAM clock: the channel's own work, then finished reads into the return queues.
    pub fn tick_dram(&mut self, now: &Now) -> bool {
        let mut progress = self.dram.tick(now.dram);
        // Data leaves the channel in order; only the head's own bank queue must have room.
        while let Some(r) = self.dram.peek_done(now.dram) {
            let b = self.bank_of(r.local);
            if !self.returns[b].has_room(1) {
                break;
            }
            let r = self.dram.pop_done(now.dram).expect("peeked");
            self.returns[b].push(r);
            progress = true;
        }
        progress
    }

    /// Icnt clock: at most one reply per reply port into the reply network. Port `p` takes
    /// the head of its own queue or, with a unified queue, of that one, trying the ports in
    /// turn from the one after the last that sent.
    pub fn tick_icnt(&mut self, now_core: u64, reply_net: &mut Crossbar) -> bool {
        let ports = self.reply_ports;
        let unified = self.reply_queue == ReplyQueueKind::Unified;
        let (mut progress, first, n) = (false, self.reply_rr, self.out_queues.len());
        for k in 0..ports {
            let p = if unified { (first + k) % ports } else { k };
            let q = &mut self.out_queues[p % n];
            let Some(head) = q.front() else { continue };
            let flits = match head.kind {
                AccessKind::Read => reply_net.flits_for(head.bytes),
                AccessKind::Write => reply_net.flits_for(0),
            };
            let src = PartitionNodes::new(ports).node(self.id, p);
            if reply_net.can_push(src, flits) {
                let mut r = q.pop().expect("head exists");
                r.trip.sent = r.since_issue(now_core);
                let dst = r.sm as usize;
                reply_net.push(src, dst, r, flits);
                progress = true;
                if unified {
                    self.reply_rr = (p + 1) % ports;
                }
            }
        }
        progress
    }

    /// Earliest (L2 cycle, DRAM cycle) at which this partition moves on its own.
    pub fn next_event(&self, now: &Now) -> (Option<u64>, Option<u64>) {
        let mut l2 =
            (self.banks.iter().zip(&self.returns)).filter_map(|(b, r)| b.next_event(now.l2, !r.is_empty())).min();
        let lines = self.rop.iter().chain(&self.dram_path).filter_map(DelayLine::next_ready);
        for ready in self.dram_queue.front().map(|&(ready, _)| ready).into_iter().chain(lines) {
            let t = ready.max(now.l2 + 1);
            l2 = Some(l2.map_or(t, |x| x.min(t)));
        }
        (l2, self.dram.next_event(now.dram))
    }

    pub fn is_idle(&self) -> bool {
        self.banks.iter().all(L2Bank::is_idle)
            && self.rop.iter().all(DelayLine::is_empty)
            && self.dram_path.as_ref().is_none_or(DelayLine::is_empty)
            && self.dram_queue.is_empty()
            && self.dram.is_empty()
            && self.returns.iter().all(|q| q.is_empty())
            && self.out_queues.iter().all(|q| q.is_empty())
    }

    /// Accounts for `cycles` skipped L2 cycles: the arbiter's rotation, and the retries
    /// blocked banks would have made.
    pub fn account_skipped(&mut self, cycles: u64) {
        self.bank_rr = ((self.bank_rr as u64 + cycles) % self.banks.len() as u64) as usize;
        self.port_rr = ((self.port_rr as u64 + cycles) % self.ports as u64) as usize;
        for b in &self.banks {
            b.account_skipped(cycles, &mut self.stats);
        }
    }

    pub fn mshr_entries(&self) -> usize {
        self.banks.iter().map(L2Bank::mshr_entries).sum()
    }

    /// Queue occupancies, for the deadlock watchdog.
    pub fn describe(&self) -> String {
        let bq: Vec<String> = self.banks.iter().map(|b| format!("{}/{}", b.queue.len(), b.queue.capacity())).collect();
        let rq: Vec<String> = self.returns.iter().map(|q| q.len().to_string()).collect();
        format!(
            "partition {}: bank queues [{}], L2 MSHRs {}, DRAM queue {}/{}, return queues [{}], out queues {}/{}, DRAM: {}",
            self.id,
            bq.join(", "),
            self.mshr_entries(),
            self.dram_queue.len(),
            self.dram_queue.capacity(),
            rq.join(", "),
            self.out_queues.iter().map(|q| q.len()).sum::<usize>(),
            self.out_queues.iter().map(|q| q.capacity()).sum::<usize>(),
            self.dram.describe()
        )
    }
}

/// A partition's ROP pipeline, one delay line per L2 port; none where every request skips it.
fn rop_lines(l2: &L2Config) -> Vec<DelayLine<MemReq>> {
    match (l2.rop_latency, l2.rop_skip) {
        (0, _) | (_, RopSkip::All) => Vec::new(),
        (n, _) => (0..l2.ports).map(|_| DelayLine::new(n)).collect(),
    }
}

/// Where a port's head went in `around_banks`: nowhere yet (it is for the banks, or there
/// is none), around the banks, or held at the port for the DRAM request queue's room.
enum Around {
    Banks,
    Sent,
    Held,
}

/// Where the arbiter finds each port's next request: at the network's port, or at the exit
/// of the port's ROP pipeline once the head's latency has passed.
/// Or, while a pipeline every request now skips drains, at its exit until it is empty and
/// then at the network's port.
enum Heads<'a> {
    Net(&'a mut Crossbar),
    Rop(&'a mut [DelayLine<MemReq>]),
    Draining(&'a mut [DelayLine<MemReq>], &'a mut Crossbar),
}

impl Heads<'_> {
    fn peek(&self, dst: usize, port: usize, now_l2: u64) -> Option<&MemReq> {
        match self {
            Heads::Net(net) => net.peek(dst),
            Heads::Rop(rop) => rop[port].ready(now_l2),
            Heads::Draining(rop, _) if !rop[port].is_empty() => rop[port].ready(now_l2),
            Heads::Draining(_, net) => net.peek(dst),
        }
    }

    fn pop(&mut self, dst: usize, port: usize) -> MemReq {
        match self {
            Heads::Net(net) => net.pop(dst),
            Heads::Rop(rop) => rop[port].pop(),
            Heads::Draining(rop, _) if !rop[port].is_empty() => rop[port].pop(),
            Heads::Draining(_, net) => net.pop(dst),
        }
        .expect("peeked")
    }
}

#[cfg(test)]
mod tests;
