//! One bank of an L2 slice: its request queue, tag array, MSHRs and the pipeline of
//! finished lookups. The partition owns the banks and moves requests between them,
//! the interconnect and the DRAM channel.
//!
//! Reads allocate on fill (no reserved lines, so a full set never blocks a lookup).
//! Write-back: a store hit marks the line dirty, a store miss allocates it dirty
//! (GPU stores cover whole lines here) and a dirty victim is written back.
//! Write-through: stores update a present line and always go on to DRAM.
//! A hit holds the bank's access port, and a fill its fill port, for as many cycles as
//! the data array's port width needs to move the data.
//! A request the bypass policy marked no-allocate never allocates: a read miss's fill
//! only answers it, a write-back store miss goes on to DRAM. A bypassed read never
//! enters a bank; its DRAM reply only passes through the bank's return path.

mod bloom;
pub mod bypass;
pub mod config;
mod in_flight;
pub mod insertion;
mod shared;
mod stats;
pub mod warp_type;

pub use shared::{line_key, L2Shared};
pub use stats::{L2RsFail, L2Stats, WarpL2Counters};
pub use warp_type::{WarpType, WarpView};

use in_flight::InFlight;
use insertion::L2Insertion;

use super::vta::{Owner, VictimTags};
use super::{MshrTable, Probe, TagArray};
use crate::clock::Now;
use crate::mem::{AccessKind, L2Route, MemReq};
use crate::queue::BoundedQueue;
use config::{BankOccupancy, L2Config, WritePolicy};
use std::collections::VecDeque;

/// Where a bank sends requests bound for DRAM: (ready L2 cycle, request).
pub type DramQueue = BoundedQueue<(u64, MemReq)>;

/// What the head of a bank queue waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocked {
    Mshr,
    DramQueue,
    Response,
}

/// What a warming access did (`L2Bank::warm`).
pub struct Warmed {
    /// It went on to DRAM (a miss, or a write-through store).
    pub to_dram: bool,
    /// The local address of a dirty victim to write back.
    pub writeback: Option<u64>,
    /// A read hit on a line warming deems still on its way from DRAM: in detail a pending
    /// hit, which counts as a miss for the reader's warp type.
    pub pending: bool,
}

#[derive(Clone)]
pub struct L2Bank {
    pub queue: BoundedQueue<MemReq>,
    blocked: Option<Blocked>,
    /// A fill from DRAM waits for room to write its dirty victim back.
    fill_blocked: bool,
    tags: TagArray,
    mshr: MshrTable<MemReq>,
    /// Lookups in flight: (ready L2 cycle, reply).
    pipe: VecDeque<(u64, MemReq)>,
    /// Replies ready to leave the partition, oldest first. Lookups keep their replies
    /// within `response_cap` (with the pipe); a fill also needs room for all its merged
    /// readers and a bypassed read's data for itself, up to one MSHR table more.
    pub responses: BoundedQueue<MemReq>,
    /// Warp-group tags (SC'14) of reads this bank answered itself (hit or MSHR merge),
    /// for the partition to pass to its DRAM controller at once.
    pub absorbed_tags: Vec<MemReq>,
    response_cap: usize,
    line_shift: u32,
    banks: u64,
    tag_latency: u64,
    /// L2 cycles from a hit's lookup to its reply: the tag latency when pipelined; one when
    /// serialized, where (as in the MeDiC authors' model) a hit answers at once and the
    /// latency is paid as the bank's occupancy and by requests bound for DRAM.
    hit_latency: u64,
    write_policy: WritePolicy,
    line_bytes: u32,
    /// Per-warp victim tags (keyed by SM and warp slot) for miss classification.
    vta: VictimTags,
    warps_per_sm: u32,
    ways: usize,
    insertion: L2Insertion,
    /// Bytes the data array moves per L2 cycle through each of its two ports.
    port_bytes: u32,
    /// L2 cycles every access holds the bank (`l2.bank_occupancy = serialized`); 1 when
    /// lookups are pipelined.
    access_cycles: u64,
    /// Per access port (one, or `l2.bank_ports` when serialized), the first L2 cycle it is
    /// free again; a lookup takes the earliest.
    port_free: Vec<u64>,
    /// First L2 cycle the fill port is free again after writing a line.
    fill_free: u64,
    /// The MSHRs' occupancy, measured in detail and stood in for in warming.
    in_flight: InFlight,
}

impl L2Bank {
    /// A bank of one of `partitions` partitions' slices, which `sms` SMs of `warps_per_sm`
    /// warps each share.
    pub fn new(l2: &L2Config, partitions: u32, sms: u32, warps_per_sm: u32) -> Self {
        let mshrs_per_bank = l2.mshrs.div_ceil(l2.banks_per_partition);
        Self {
            queue: BoundedQueue::new(l2.bank_queue),
            blocked: None,
            fill_blocked: false,
            tags: TagArray::new(l2.sets_per_bank(partitions), l2.ways, l2.line_bytes, l2.set_index),
            mshr: MshrTable::new(mshrs_per_bank, l2.mshr_merge),
            pipe: VecDeque::new(),
            responses: BoundedQueue::new(l2.return_queue + mshrs_per_bank * l2.mshr_merge),
            absorbed_tags: Vec::new(),
            response_cap: l2.return_queue as usize,
            line_shift: l2.line_bytes.trailing_zeros(),
            banks: l2.banks_per_partition as u64,
            tag_latency: l2.tag_latency as u64,
            hit_latency: match l2.bank_occupancy {
                BankOccupancy::Pipelined => l2.tag_latency as u64,
                BankOccupancy::Serialized => 1,
            },
            write_policy: l2.write_policy,
            line_bytes: l2.line_bytes,
            vta: VictimTags::new((sms * warps_per_sm) as usize, l2.vta_entries as usize),
            warps_per_sm,
            ways: l2.ways as usize,
            insertion: L2Insertion::new(l2.insertion, l2.sets_per_bank(partitions) * l2.ways),
            port_bytes: l2.data_port_bytes,
            access_cycles: match l2.bank_occupancy {
                BankOccupancy::Pipelined => 1,
                BankOccupancy::Serialized => ((l2.tag_latency.max(1) - 1) / l2.pipeline_stages.max(1) + 1) as u64,
            },
            port_free: match l2.bank_occupancy {
                BankOccupancy::Pipelined => vec![0],
                BankOccupancy::Serialized => vec![0; l2.bank_ports.max(1) as usize],
            },
            fill_free: 0,
            in_flight: InFlight::default(),
        }
    }

    /// L2 cycles a data-array port is held to move `bytes` (at least the one of the access).
    fn port_cycles(&self, bytes: u32) -> u64 {
        bytes.div_ceil(self.port_bytes).max(1) as u64
    }

    /// L2 cycles an access moving `bytes` through the data array holds the bank's access
    /// port: the data's cycles, and with serialized lookups at least the lookup's.
    fn access_port_cycles(&self, bytes: u32) -> u64 {
        let data = if bytes == 0 { 1 } else { self.port_cycles(bytes) };
        data.max(self.access_cycles)
    }

    /// The access port that frees first (the lowest-numbered of those tied).
    fn free_port(&self) -> usize {
        (0..self.port_free.len()).min_by_key(|&i| self.port_free[i]).unwrap_or(0)
    }

    /// The L2's view of the warp behind a request (writebacks have none).
    fn owner(&self, r: &MemReq) -> Owner {
        if r.writeback {
            return Owner::NONE;
        }
        Owner { key: r.sm as u32 * self.warps_per_sm + r.warp_slot as u32, gid: r.warp }
    }

    /// Allocates `block` at recency position `pos` for `by`'s request, filing the victim
    /// under its owner.
    fn allocate(&mut self, set: usize, way: usize, block: u64, by: Owner, pos: usize) -> Option<super::tags::Evicted> {
        let ev = self.tags.allocate(set, way, block, false, pos);
        self.tags.set_owner(set, way, by);
        if let Some(e) = ev {
            self.vta.record(e.owner, e.block, by);
        }
        ev
    }

    /// Puts `block` into (set, way) for `cause` where the insertion policy says, and deals
    /// with the victim: both policies hear of the eviction, and a dirty victim is queued for
    /// DRAM, ready at L2 cycle `ready`.
    #[allow(clippy::too_many_arguments)]
    fn install(
        &mut self,
        set: usize,
        way: usize,
        block: u64,
        cause: &MemReq,
        ready: u64,
        dram_q: &mut DramQueue,
        next_id: &mut u64,
        stats: &mut L2Stats,
        shared: &mut L2Shared,
    ) {
        let pos = self.insertion.position(cause.warp_type, block, self.ways);
        let Some(ev) = self.allocate(set, way, block, self.owner(cause), pos) else { return };
        stats.evictions += 1;
        self.insertion.on_evict(ev.block);
        let bank = (cause.local >> self.line_shift) % self.banks;
        shared.on_evict(line_key(cause.partition, ev.block * self.banks + bank));
        if ev.dirty {
            dram_q.push((ready, self.writeback(ev.block, cause, next_id)));
            stats.writebacks += 1;
        }
    }

    /// Functional warming (sampled runs): applies one access to the tags and recency order,
    /// with no timing or statistics. The insertion policy places the line as for a warp not
    /// yet typed (MRU under MeDiC's; EAF's filter decides under EAF, and learns the
    /// evictions).
    pub fn warm(&mut self, local: u64, is_write: bool) -> Warmed {
        let block = self.block(local);
        let through = is_write && self.write_policy == WritePolicy::WriteThrough;
        let mut out = Warmed { to_dram: through, writeback: None, pending: false };
        match self.tags.probe(block) {
            Probe::Hit { set, way } => {
                self.tags.touch(set, way);
                if is_write && !through {
                    self.tags.set_dirty(set, way);
                }
                out.pending = !is_write && self.in_flight.pending(block);
            }
            Probe::HitReserved { .. } => {}
            Probe::Miss { .. } if through => {}
            Probe::Miss { set, victim } => {
                out.to_dram = true;
                let Some(way) = victim else { return out };
                let pos = self.insertion.position(WarpType::Unknown, block, self.ways);
                let ev = self.tags.allocate(set, way, block, false, pos);
                if let Some(e) = &ev {
                    self.insertion.on_evict(e.block);
                }
                // Under `write_back_fetch` a store miss goes on to DRAM and the line is
                // fetched to fill clean, as in detail; a plain write-back allocates it dirty.
                if is_write && self.write_policy == WritePolicy::WriteBack {
                    self.tags.set_dirty(set, way);
                } else {
                    self.in_flight.missed(block);
                }
                let bank = (local >> self.line_shift) % self.banks;
                out.writeback = ev.filter(|e| e.dirty).map(|e| ((e.block * self.banks) + bank) << self.line_shift);
            }
        }
        out
    }

    /// Whether a line with data for partition-local address `local` is here (warming).
    pub fn holds(&self, local: u64) -> bool {
        matches!(self.tags.probe(self.block(local)), Probe::Hit { .. })
    }

    /// A detailed piece's measurement starts at L2 cycle `now` (sampled runs).
    pub fn restart_in_flight(&mut self, now: u64) {
        self.in_flight.restart(now);
    }

    /// A detailed piece ends at L2 cycle `now`: the warming after it deems in flight as
    /// many misses as the MSHRs held on average (`in_flight.rs`).
    pub fn learn_in_flight(&mut self, now: u64) {
        self.in_flight.learn(now, self.mshr.len());
    }

    /// The bank's block number of a partition-local address.
    fn block(&self, local: u64) -> u64 {
        (local >> self.line_shift) / self.banks
    }

    fn room_for_reply(&self) -> bool {
        self.pipe.len() + self.responses.len() < self.response_cap
    }

    /// Looks up the head of the bank queue, if it can proceed. Returns true on progress.
    /// `now` is the L2 cycle, `now_core` the core cycle (MeDiC's windows count those).
    #[allow(clippy::too_many_arguments)]
    pub fn lookup(
        &mut self,
        now: u64,
        now_core: u64,
        dram_q: &mut DramQueue,
        next_id: &mut u64,
        stats: &mut L2Stats,
        warps: &mut WarpL2Counters,
        shared: &mut L2Shared,
    ) -> bool {
        let port = self.free_port();
        if now < self.port_free[port] {
            return false;
        }
        let Some(head) = self.queue.front() else { return false };
        let block = self.block(head.local);
        let probe = self.tags.probe(block);
        let is_write = head.kind == AccessKind::Write;
        let hit = matches!(probe, Probe::Hit { .. });
        // Decide whether every resource the outcome needs is free before touching state.
        let blocked = if !self.room_for_reply() && (hit || is_write) {
            Some(Blocked::Response)
        } else if is_write {
            let through = self.write_policy == WritePolicy::WriteThrough || head.l2_route == L2Route::NoAllocate;
            let fetch = !hit && !through && self.write_policy == WritePolicy::WriteBackFetch;
            if fetch {
                // The store goes on to DRAM and, unless a fetch of its line is pending, a
                // fetch goes with it.
                let room = if self.mshr.contains(block) { 1 } else { 2 };
                if self.mshr.check(block).is_err() {
                    Some(Blocked::Mshr)
                } else {
                    (!dram_q.has_room(room)).then_some(Blocked::DramQueue)
                }
            } else {
                let needs_dram =
                    through || matches!(probe, Probe::Miss { set, victim: Some(way) } if self.tags.is_dirty(set, way));
                (needs_dram && !dram_q.has_room(1)).then_some(Blocked::DramQueue)
            }
        } else if hit {
            None
        } else if self.mshr.check(block).is_err() {
            Some(Blocked::Mshr)
        } else if !self.mshr.contains(block) && !dram_q.has_room(1) {
            Some(Blocked::DramQueue)
        } else {
            None
        };
        self.blocked = blocked;
        if let Some(b) = blocked {
            Self::count_blocked(b, 1, stats);
            return false;
        }
        let mut req = self.queue.pop().expect("head exists");
        req.trip.looked_up = req.since_issue(now_core);
        stats.record_lookup(&req, now);
        // Requests for DRAM leave after the lookup's latency; replies after a hit's.
        let (ready, reply_ready) = (now + self.tag_latency, now + self.hit_latency);
        if is_write {
            stats.writes += 1;
            let array_bytes = self.write(req, probe, (ready, reply_ready), dram_q, next_id, stats, shared);
            self.port_free[port] = now + self.access_port_cycles(array_bytes);
            return true;
        }
        self.port_free[port] = now + self.access_port_cycles(if hit { req.bytes } else { 0 });
        stats.reads += 1;
        warps.record(req.warp, hit);
        shared.on_lookup(&req, hit, now_core);
        let absorbed = hit || self.mshr.contains(block);
        if absorbed && req.group_last {
            self.absorbed_tags.push(req.clone());
        }
        if let Probe::Hit { set, way } = probe {
            self.tags.touch(set, way);
            stats.read_hits += 1;
            req.l2_hit = true;
            self.pipe.push_back((reply_ready, req));
        } else if self.mshr.contains(block) {
            stats.pending_hits += 1;
            let _ = self.mshr.add(block, req);
        } else {
            self.in_flight.note(now, self.mshr.len());
            stats.read_misses += 1;
            stats.miss_classes.add(self.vta.classify(self.owner(&req), block));
            // The fill is a whole line, whatever part of it the first reader wanted.
            let mut fetch = req.clone();
            fetch.bytes = self.line_bytes;
            dram_q.push((ready, fetch));
            let _ = self.mshr.add(block, req);
        }
        true
    }

    /// Applies a store, sending what it makes for DRAM at `ready` and its ack at
    /// `ack_ready`; returns the bytes it wrote into the data array (none on a miss that
    /// does not allocate).
    #[allow(clippy::too_many_arguments)]
    fn write(
        &mut self,
        req: MemReq,
        probe: Probe,
        (ready, ack_ready): (u64, u64),
        dram_q: &mut DramQueue,
        next_id: &mut u64,
        stats: &mut L2Stats,
        shared: &mut L2Shared,
    ) -> u32 {
        let block = self.block(req.local);
        let through = self.write_policy == WritePolicy::WriteThrough || req.l2_route == L2Route::NoAllocate;
        let hit = matches!(probe, Probe::Hit { .. });
        let allocated = match (through, probe) {
            (false, Probe::Hit { set, way }) => {
                stats.write_hits += 1;
                self.tags.touch(set, way);
                self.tags.set_dirty(set, way);
                false
            }
            (false, Probe::Miss { .. }) if self.write_policy == WritePolicy::WriteBackFetch => {
                self.write_around_and_fetch(&req, block, ready, dram_q, next_id, stats);
                false
            }
            (false, Probe::Miss { set, victim: Some(way) }) => {
                self.install(set, way, block, &req, ready, dram_q, next_id, stats, shared);
                self.tags.set_dirty(set, way);
                true
            }
            (true, p) => {
                if let Probe::Hit { set, way } = p {
                    stats.write_hits += 1;
                    self.tags.touch(set, way);
                }
                let mut w = req.clone();
                w.id = *next_id;
                *next_id += 1;
                w.writeback = true;
                dram_q.push((ready, w));
                false
            }
            (false, _) => false,
        };
        let array_bytes = if hit || allocated { req.bytes } else { 0 };
        let mut ack = req;
        ack.l2_hit = hit;
        self.pipe.push_back((ack_ready, ack));
        array_bytes
    }

    /// A store miss under `write_back_fetch`: the store goes on to DRAM, and the line is
    /// fetched (unless a fetch is already pending) to fill clean; the store waits in the
    /// MSHR without a reply, as its ack leaves now.
    fn write_around_and_fetch(
        &mut self,
        req: &MemReq,
        block: u64,
        ready: u64,
        dram_q: &mut DramQueue,
        next_id: &mut u64,
        stats: &mut L2Stats,
    ) {
        let mut w = req.clone();
        w.id = *next_id;
        *next_id += 1;
        w.writeback = true;
        dram_q.push((ready, w));
        if !self.mshr.contains(block) {
            // `ready` is the lookup's cycle plus the tag latency.
            self.in_flight.note(ready - self.tag_latency, self.mshr.len());
            let mut fetch = req.clone();
            fetch.id = *next_id;
            *next_id += 1;
            fetch.kind = AccessKind::Read;
            fetch.bytes = self.line_bytes;
            dram_q.push((ready, fetch));
            stats.write_fetches += 1;
        }
        let _ = self.mshr.add(block, req.clone());
    }

    /// A write-back request for an evicted dirty block of this bank.
    fn writeback(&self, bank_block: u64, cause: &MemReq, next_id: &mut u64) -> MemReq {
        let bank = (cause.local >> self.line_shift) % self.banks;
        let local = ((bank_block * self.banks) + bank) << self.line_shift;
        let mut w = MemReq::new(*next_id, 0, AccessKind::Write, self.line_bytes);
        *next_id += 1;
        w.partition = cause.partition;
        w.local = local;
        w.writeback = true;
        w
    }

    /// Fills a line returned by DRAM and queues the replies of every merged read.
    /// Returns false (doing nothing) while the fill port is busy or when a dirty victim
    /// cannot be written back yet. A bypassed read's reply only passes through.
    pub fn fill(
        &mut self,
        now: &Now,
        reply: &MemReq,
        dram_q: &mut DramQueue,
        next_id: &mut u64,
        stats: &mut L2Stats,
        shared: &mut L2Shared,
    ) -> bool {
        self.fill_blocked = false;
        if reply.l2_route == L2Route::Dram {
            if !self.responses.has_room(1) {
                return false;
            }
            let mut r = reply.clone();
            r.l2_hit = false;
            r.dram_served = true;
            r.trip.replied = r.since_issue(now.core);
            self.responses.push(r);
            return true;
        }
        let block = self.block(reply.local);
        if !self.responses.has_room(self.mshr.waiting(block)) {
            return false;
        }
        match self.tags.probe(block) {
            Probe::Miss { .. } if reply.l2_route == L2Route::NoAllocate => {}
            Probe::Miss { set, victim: Some(way) } => {
                if now.l2 < self.fill_free {
                    return false;
                }
                self.fill_blocked = self.tags.is_dirty(set, way) && !dram_q.has_room(1);
                if self.fill_blocked {
                    stats.rsfail.dram_queue += 1;
                    return false;
                }
                self.fill_free = now.l2 + self.port_cycles(self.line_bytes);
                self.install(set, way, block, reply, 0, dram_q, next_id, stats, shared);
            }
            Probe::Hit { set, way } => self.tags.touch(set, way),
            _ => {}
        }
        stats.fills += 1;
        self.in_flight.note(now.l2, self.mshr.len());
        // Stores that waited for their line's fetch were acknowledged at lookup.
        let responses = &mut self.responses;
        self.mshr.take(block, |mut r| {
            if r.kind == AccessKind::Read {
                r.l2_hit = false;
                r.dram_served = true;
                r.trip.replied = r.since_issue(now.core);
                responses.push(r);
            }
        });
        true
    }

    /// Moves finished lookups into the response queue.
    pub fn drain_pipe(&mut self, now: u64, now_core: u64) -> bool {
        let mut progress = false;
        while let Some(&(ready, _)) = self.pipe.front() {
            if ready > now {
                break;
            }
            let (_, mut r) = self.pipe.pop_front().expect("front exists");
            r.trip.replied = r.since_issue(now_core);
            self.responses.push(r);
            progress = true;
        }
        progress
    }

    fn count_blocked(b: Blocked, n: u64, stats: &mut L2Stats) {
        match b {
            Blocked::Mshr => stats.rsfail.mshr += n,
            Blocked::DramQueue => stats.rsfail.dram_queue += n,
            Blocked::Response => stats.rsfail.response += n,
        }
    }

    /// Counts the retries a blocked head would have made in `cycles` skipped cycles.
    pub fn account_skipped(&self, cycles: u64, stats: &mut L2Stats) {
        if let (Some(b), false) = (self.blocked, self.queue.is_empty()) {
            Self::count_blocked(b, cycles, stats);
        }
        if self.fill_blocked {
            stats.rsfail.dram_queue += cycles;
        }
    }

    /// The next L2 cycle after `now` at which this bank can move on its own: a lookup
    /// leaving the pipeline, or a busy port freeing for a waiting lookup or fill.
    pub fn next_event(&self, now: u64, fill_waiting: bool) -> Option<u64> {
        let free = self.port_free[self.free_port()];
        let port = (!self.queue.is_empty() && free > now).then_some(free);
        let fill = (fill_waiting && self.fill_free > now).then_some(self.fill_free);
        [self.pipe.front().map(|e| e.0), port, fill].into_iter().flatten().min()
    }

    pub fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.pipe.is_empty() && self.responses.is_empty() && self.mshr.is_empty()
    }

    pub fn mshr_entries(&self) -> usize {
        self.mshr.len()
    }
}

#[cfg(test)]
mod tests;
