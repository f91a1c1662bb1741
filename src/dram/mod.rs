//! GDDR5 DRAM channel: read and write queues with write drain, a transaction scheduler
//! (the policy), per-bank command queues, and a timing-checked command scheduler.
//!
//! Tick order within one DRAM command cycle:
//! 1. write-drain mode is updated: entered when the write queue reaches the high
//!    watermark, left when it falls to the low one;
//! 2. the transaction scheduler moves at most one request from the served queue (writes
//!    while draining or when no read waits, reads otherwise) into its bank's command queue;
//! 3. the command scheduler issues at most one command (ACT, PRE, RD, WR or REF).
//!
//! A read is done when its last data beat has crossed the bus; the partition collects
//! it with `pop_done`. Writes complete silently when their WR issues.

mod addr_map;
mod bank;
mod cmd_sched;
mod command;
pub mod config;
pub mod partition_mapping;
mod queues;
pub mod sched;
mod stats;
mod timing;
pub mod trace;

pub use addr_map::{AddressMap, DramCoord};
pub use command::{CommandRecord, DramCommand};
pub use sched::{DramScheduler, TransactionPolicy};
pub use stats::DramStats;

use crate::mem::{AccessKind, MemReq};
use cmd_sched::CommandScheduler;
use config::{DramConfig, DramIdealKind, MemConfig};
use queues::Queues;
use sched::warp_groups::key_of;
use sched::GroupKey;
use sched::QueuedReq;
use std::collections::HashMap;
use std::collections::VecDeque;

/// One DRAM channel and its controller; all times are DRAM command cycles.
#[derive(Debug, Clone)]
pub struct DramChannel {
    id: u32,
    map: AddressMap,
    queues: Queues,
    command_queue: u32,
    sched: DramScheduler,
    cmd: CommandScheduler,
    /// Issued reads in data-completion order (the bus serializes them).
    in_flight: VecDeque<(u64, MemReq)>,
    stats: DramStats,
    /// Read-queue occupancy is integrated up to (not including) this cycle.
    occupancy_until: u64,
    /// The zero-latency-divergence bound is on.
    ideal: bool,
    /// Zero-divergence bound: warp-loads whose first DRAM read completed, with the core
    /// cycle of the release; their reads issued before it return right behind.
    released: HashMap<GroupKey, u64>,
    /// Warp-loads whose first DRAM read this channel just completed.
    releases_out: Vec<GroupKey>,
}

impl DramChannel {
    /// `line_bytes` is the L2's line, which `AddressMap::new` keeps within one channel.
    pub fn new(mem: &MemConfig, d: &DramConfig, line_bytes: u32, channel: u32) -> Self {
        Self {
            id: channel,
            map: AddressMap::new(mem, d, line_bytes),
            queues: Queues::new(d),
            command_queue: d.command_queue,
            sched: DramScheduler::new(d.scheduler, d),
            cmd: CommandScheduler::new(d),
            in_flight: VecDeque::new(),
            stats: DramStats::default(),
            occupancy_until: 0,
            ideal: d.ideal == DramIdealKind::ZeroLatencyDivergence,
            released: HashMap::new(),
            releases_out: Vec::new(),
        }
    }

    /// Functional warming (sampled runs): leaves the row of `local` open in its bank, as a
    /// column access to it would.
    pub fn warm(&mut self, local: u64) {
        let c = self.map.decode(local);
        self.cmd.warm_row(c.bank as usize, c.row);
    }

    /// Starts the counts afresh (a sampled run's measurement); the covered cycles stay.
    pub fn reset_stats(&mut self) {
        self.stats = DramStats { cycles: self.stats.cycles, ..DramStats::default() };
    }

    /// Room in the read queue (reads) or the write queue (writes).
    pub fn can_accept(&self, kind: AccessKind) -> bool {
        self.queues.can_accept(kind)
    }

    /// Queues a request arriving at `now`; the caller checked `can_accept`.
    pub fn push(&mut self, mut req: MemReq, now: u64) {
        debug_assert!(self.can_accept(req.kind), "push into a full DRAM queue");
        if self.controller_idle() {
            self.cmd.catch_up_refresh(now, &mut self.stats);
        }
        self.account(now);
        req.t_dram_arrive = now;
        if self.is_released(&req) {
            self.serve_released(req, now);
            return;
        }
        let q = QueuedReq { coord: self.map.decode(req.local), req };
        self.sched.on_arrival(&q, now);
        self.queues.push(q);
    }

    /// One DRAM command cycle; true if a request was scheduled or a command issued.
    pub fn tick(&mut self, now: u64) -> bool {
        self.account(now + 1);
        self.stats.cycles = self.stats.cycles.max(now + 1);
        if self.controller_idle() {
            return false;
        }
        self.queues.draining = self.queues.drain_next();
        let scheduled = self.schedule_transaction(now);
        let (issued, read) = self.cmd.step(now, &mut self.stats);
        if let Some(r) = read {
            self.in_flight.push_back((r.done, r.req));
        }
        scheduled || issued
    }

    /// The oldest read whose data is complete by `now`.
    /// The oldest finished read, if its data is back by `now`.
    pub fn peek_done(&self, now: u64) -> Option<&MemReq> {
        self.in_flight.front().filter(|(t, _)| *t <= now).map(|(_, r)| r)
    }

    pub fn pop_done(&mut self, now: u64) -> Option<MemReq> {
        if self.in_flight.front()?.0 > now {
            return None;
        }
        let (_, mut req) = self.in_flight.pop_front()?;
        req.dram_served = true;
        if self.ideal && !self.is_released(&req) {
            self.releases_out.extend(key_of(&req));
        }
        self.sched.on_read_done(&req, now);
        Some(req)
    }

    /// Earliest cycle > `now` at which `tick` or `pop_done` could make progress; never
    /// later than real progress, possibly earlier. `None` when the channel is empty.
    pub fn next_event(&self, now: u64) -> Option<u64> {
        if self.is_empty() {
            return None;
        }
        let soon = now + 1;
        let view = self.queues.view(self.cmd.views(), self.command_queue, soon, self.queues.drain_next());
        if !view.queue.is_empty() && self.sched.could_pick(&view) {
            return Some(soon);
        }
        let timed = if view.queue.is_empty() { None } else { self.sched.next_event(&view) };
        let done = [self.in_flight.front().map(|&(t, _)| t.max(soon)), timed].into_iter().flatten().min();
        // An idle controller does nothing in tick (refresh is replayed on the next push).
        let cmd = if self.controller_idle() { None } else { self.cmd.next_event(now) };
        Some(match (done, cmd) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => soon,
        })
    }

    /// Nothing queued, in a command queue, in flight, or done but not popped.
    pub fn is_empty(&self) -> bool {
        self.controller_idle() && self.in_flight.is_empty()
    }

    pub fn stats(&self) -> &DramStats {
        &self.stats
    }

    /// Queue occupancies in one line, for the deadlock watchdog.
    pub fn describe(&self) -> String {
        let cmdq: Vec<String> = self.cmd.queue_lens().map(|n| n.to_string()).collect();
        format!(
            "dram channel {}: {}, command queues [{}] of {}, reads in flight {}",
            self.id,
            self.queues.describe(),
            cmdq.join(" "),
            self.command_queue,
            self.in_flight.len()
        )
    }

    pub fn address_map(&self) -> &AddressMap {
        &self.map
    }

    pub fn read_queue_len(&self) -> usize {
        self.queues.read.len()
    }

    pub fn write_queue_len(&self) -> usize {
        self.queues.write.len()
    }

    /// In write-drain mode (as of the last tick).
    pub fn draining(&self) -> bool {
        self.queues.draining
    }

    pub fn scheduler(&self) -> &DramScheduler {
        &self.sched
    }

    /// For policies that exchange state across channels (WG-M's coordination messages).
    /// Runs transaction scheduler `kind` from now on (a sampled run's piece under another
    /// scheduler, `crate::sample::shared`): it starts empty and learns the requests already
    /// queued, the reads and then the writes, each queue in arrival order and at their
    /// arrival cycles.
    pub fn set_scheduler(&mut self, d: &DramConfig) {
        self.sched = DramScheduler::new(d.scheduler, d);
        for q in self.queues.read.iter().chain(&self.queues.write) {
            self.sched.on_arrival(q, q.req.t_dram_arrive);
        }
    }

    pub fn scheduler_mut(&mut self) -> &mut DramScheduler {
        &mut self.sched
    }

    /// Starts (clearing it) or stops recording every issued command; off by default.
    pub fn set_command_log(&mut self, on: bool) {
        self.cmd.log = on.then(Vec::new);
    }

    /// Commands issued since the log was switched on (empty when it is off).
    pub fn command_log(&self) -> &[CommandRecord] {
        self.cmd.log.as_deref().unwrap_or(&[])
    }

    /// A warp-group tag that did not come with a request to this controller: the L2
    /// answered the tagged request (hit or merge), or the L1 did and sent the tag alone.
    pub fn forward_tag(&mut self, req: &MemReq, now: u64) {
        if req.group_last {
            self.sched.on_group_tag(req, now);
        }
    }

    /// Zero-divergence bound: warp-loads whose first DRAM read completed here since the
    /// last call, for the other channels to release.
    pub fn take_releases(&mut self) -> Vec<GroupKey> {
        std::mem::take(&mut self.releases_out)
    }

    /// Zero-divergence bound: the warp-load's first DRAM read completed (core cycle
    /// `core_now`); its reads waiting here leave the read queue and return right behind,
    /// each taking its data-bus cycles. True if any did.
    pub fn release(&mut self, key: GroupKey, core_now: u64, now: u64) -> bool {
        self.released.insert(key, core_now);
        let mut any = false;
        let mut i = 0;
        while i < self.queues.read.len() {
            if self.is_released(&self.queues.read[i].req) {
                self.account(now);
                let q = self.queues.remove(AccessKind::Read, i);
                self.sched.on_removed(&q, now);
                self.serve_released(q.req, now);
                any = true;
            } else {
                i += 1;
            }
        }
        any
    }

    fn is_released(&self, req: &MemReq) -> bool {
        key_of(req).and_then(|k| self.released.get(&k)).is_some_and(|&t| req.t_issue < t)
    }

    /// A released read: its data follows the bus's current last beat.
    fn serve_released(&mut self, req: MemReq, now: u64) {
        let done = self.cmd.reserve_bus(now, req.bytes, &mut self.stats);
        self.stats.reads += 1;
        self.stats.read_latency_sum += done - req.t_dram_arrive;
        self.in_flight.push_back((done, req));
    }

    /// Nothing waits in the read, write or command queues.
    fn controller_idle(&self) -> bool {
        self.queues.is_empty() && self.cmd.idle()
    }

    /// Adds the read-queue occupancy of cycles [occupancy_until, upto).
    fn account(&mut self, upto: u64) {
        if upto > self.occupancy_until {
            let cycles = upto - self.occupancy_until;
            self.stats.read_queue_occupancy_sum += self.queues.read.len() as u64 * cycles;
            self.occupancy_until = upto;
        }
    }

    /// Step 2 of the tick: the policy moves at most one request into a command queue.
    fn schedule_transaction(&mut self, now: u64) -> bool {
        let view = self.queues.view(self.cmd.views(), self.command_queue, now, self.queues.draining);
        if view.queue.is_empty() {
            return false;
        }
        let Some(i) = self.sched.pick(&view) else {
            return false;
        };
        let Some(q) = view.queue.get(i).filter(|q| view.has_room(q)) else {
            return false;
        };
        let (kind, row_hit) = (view.kind, view.is_row_hit(q));
        let q = self.queues.remove(kind, i);
        self.sched.on_scheduled(&q, row_hit, now);
        self.cmd.enqueue(q);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    /// Ticks `ch` from cycle `from` until a read completes: that read and its cycle.
    fn first_done(ch: &mut DramChannel, from: u64) -> (MemReq, u64) {
        let mut now = from;
        loop {
            ch.tick(now);
            if let Some(r) = ch.pop_done(now) {
                return (r, now);
            }
            now += 1;
        }
    }

    #[test]
    fn empty_channel_is_idle() {
        let cfg = preset("sc14-gtx480").unwrap();
        let mut ch = DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, 2);
        assert!(ch.is_empty());
        assert!(!ch.tick(5));
        assert_eq!(ch.next_event(5), None);
        assert_eq!(ch.pop_done(5), None);
        assert_eq!(ch.stats().cycles, 6);
        assert!(ch.describe().starts_with("dram channel 2: read queue 0/64"));
    }

    #[test]
    fn queues_refuse_past_capacity_and_stamp_arrival() {
        let cfg = preset("sc14-gtx480").unwrap();
        let mut ch = DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, 0);
        for id in 0..64 {
            assert!(ch.can_accept(AccessKind::Read));
            ch.push(MemReq::new(id, 0, AccessKind::Read, 128), 7);
        }
        assert!(!ch.can_accept(AccessKind::Read));
        assert!(ch.can_accept(AccessKind::Write));
        assert_eq!(ch.next_event(7), Some(8));
        ch.set_command_log(true);
        let (first, now) = first_done(&mut ch, 7);
        assert!(first.dram_served);
        assert_eq!(first.t_dram_arrive, 7);
        assert_eq!(now - 7, 18 + 3 + 18 + 2, "ACT, tRCD, two bursts tCCDL apart, tCL, the last burst");
        assert_eq!(ch.command_log()[0].cmd, DramCommand::Act);
    }

    #[test]
    fn zero_divergence_bound_returns_the_rest_of_a_warp_load_behind_its_first() {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.dram.ideal = DramIdealKind::ZeroLatencyDivergence;
        let mut ch = DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, 0);
        let map = ch.address_map().clone();
        // Eight reads of warp-load (SM 1, slot 7) to eight rows of bank 0: row misses in
        // series, more than the bank's command queue (4) holds.
        for row in 0..8 {
            let mut r = MemReq::new(row as u64, 0, AccessKind::Read, 128);
            r.local = map.encode(0, row, 0);
            r.sm = 1;
            r.warp_load = 7;
            r.t_issue = 10;
            ch.push(r, 0);
        }
        let (first, now) = first_done(&mut ch, 0);
        assert_eq!(first.id, 0);
        assert_eq!(ch.take_releases(), vec![(1, 7)]);
        let waiting = ch.read_queue_len();
        assert!(waiting >= 3, "{waiting} reads still in the read queue");
        assert!(ch.release((1, 7), 11, now));
        assert_eq!(ch.read_queue_len(), 0);
        let released_by = now + 1 + 4 * waiting as u64;
        let mut done = 0;
        for t in now..=released_by {
            ch.tick(t);
            while ch.pop_done(t).is_some() {
                done += 1;
            }
        }
        assert!(done >= waiting, "{done} of the {waiting} released reads back by cycle {released_by}");
        assert!(ch.stats().data_bus_busy >= 4 * (1 + waiting as u64), "released reads still use the bus");
        let mut late = MemReq::new(9, 0, AccessKind::Read, 128);
        (late.sm, late.warp_load, late.t_issue) = (1, 7, 10);
        ch.push(late, now);
        assert!(ch.take_releases().is_empty());
        assert_eq!(ch.read_queue_len(), 0, "a late read of a released warp-load skips the queue");
    }
}
