//! The per-SM L1 data cache: tag lookup, MSHR merging, the miss queue towards the
//! interconnect, and the `.cg` path that skips the L1.
//!
//! Loads allocate on miss (the reserved line waits for its fill) or on fill (only an MSHR
//! and a miss-queue entry are reserved; the victim is chosen when the data returns).
//! Global stores are write-evict / no-allocate and always go to the L2. Each refused
//! access counts one reservation failure by cause; the LD/ST unit retries it next cycle.
//!
//! Bypassing: `.cg` loads (including those the bypass policy turned into `.cg` as they
//! issued) and the loads the policy routes around the L1 (`bypass`: always, or only when
//! the L1 refuses them) go straight to the L2, each holding one of `l1d.bypass_slots`
//! until its reply. With every slot taken a bypass
//! is refused and counted, and the load takes the L1 path. A `.cg` load asks only for
//! the 32 B sectors its lanes touch (Fermi coalesces uncached loads into 32 B segments);
//! loads the L1 itself decides to bypass were coalesced as cached and ask for the line.
//! A miss that allocates fetches the whole line.

pub mod bypass;
pub mod config;
mod events;
mod warm;

pub use bypass::{L1Bypass, L1BypassKind};
pub use events::{Feedback, L1Event};

use super::mshr::MshrFull;
use super::vta::{MissClass, MissClassCounts, Owner, VictimTags};
use super::{MshrTable, Probe, TagArray};
use crate::mem::{AccessKind, CacheOp, MemReq, NO_WARP_LOAD};
use crate::queue::BoundedQueue;
use bypass::{CtaEvent, Route, SmView};
use config::{AllocationKind, L1Config};
use serde::Serialize;
use std::collections::VecDeque;

/// An access's outcome: on a reservation failure the request comes back, by value, for
/// the SM to retry.
pub type Offer = Result<(), (MemReq, RsFail)>;

/// Why the L1 refused an access this cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RsFail {
    /// Every way of the set is reserved for a pending fill.
    LineAlloc,
    MshrEntry,
    MshrMerge,
    MissQueue,
    /// A bypass refused because every bypass slot is taken (and the L1 path also failed).
    BypassSlot,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RsFailCounts {
    pub line_alloc: u64,
    pub mshr_entry: u64,
    pub mshr_merge: u64,
    pub miss_queue: u64,
    /// Bypasses refused for want of a slot (each then took the L1 path).
    pub bypass_slot: u64,
}

impl RsFailCounts {
    pub fn add(&mut self, cause: RsFail, n: u64) {
        match cause {
            RsFail::LineAlloc => self.line_alloc += n,
            RsFail::MshrEntry => self.mshr_entry += n,
            RsFail::MshrMerge => self.mshr_merge += n,
            RsFail::MissQueue => self.miss_queue += n,
            RsFail::BypassSlot => self.bypass_slot += n,
        }
    }

    /// Failures that stalled the memory pipeline (a refused bypass alone does not).
    pub fn total(&self) -> u64 {
        self.line_alloc + self.mshr_entry + self.mshr_merge + self.miss_queue
    }

    pub fn merge(&mut self, o: &RsFailCounts) {
        self.line_alloc += o.line_alloc;
        self.mshr_entry += o.mshr_entry;
        self.mshr_merge += o.mshr_merge;
        self.miss_queue += o.miss_queue;
        self.bypass_slot += o.bypass_slot;
    }
}

/// Counters of accepted accesses (a refused access is counted only in `rsfail`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct L1Stats {
    /// Loads looked up in the L1 (hits + pending hits + misses).
    pub accesses: u64,
    pub hits: u64,
    /// Loads merged into an outstanding miss to the same line.
    pub pending_hits: u64,
    /// Loads that sent a new request to the L2.
    pub misses: u64,
    /// Loads sent around the L1 (`.cg`, or chosen by the bypass policy).
    pub bypassed: u64,
    /// Core cycles x bypassed requests in flight (for the average).
    pub bypass_in_flight_cycles: u64,
    pub stores: u64,
    pub evictions: u64,
    pub rsfail: RsFailCounts,
    /// Misses that sent a request, by cause (from the per-warp victim tags).
    pub miss_classes: MissClassCounts,
}

impl L1Stats {
    /// Adds another SM's counters.
    pub fn merge(&mut self, o: &L1Stats) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.pending_hits += o.pending_hits;
        self.misses += o.misses;
        self.bypassed += o.bypassed;
        self.bypass_in_flight_cycles += o.bypass_in_flight_cycles;
        self.stores += o.stores;
        self.evictions += o.evictions;
        self.rsfail.merge(&o.rsfail);
        self.miss_classes.merge(&o.miss_classes);
    }
}

#[derive(Clone)]
pub struct L1D {
    tags: TagArray,
    mshr: MshrTable<MemReq>,
    /// Requests for the L2, read here; the SM takes the head with `pop_miss`.
    pub miss_queue: BoundedQueue<MemReq>,
    hit_pipe: VecDeque<(u64, MemReq)>,
    line_shift: u32,
    hit_latency: u64,
    allocation: AllocationKind,
    /// The `l1d.bypass` policy: which loads skip the L1.
    pub bypass: L1Bypass,
    slots: Option<u32>,
    in_flight_bypass: u32,
    /// What the last refused access counted, so skipped retry cycles count the same.
    last_refusal: Option<Refusal>,
    /// Nothing that decides an access (tags, MSHRs, miss queue, bypass slots and policy)
    /// has changed since `last_refusal`, so the same request would be refused the same way.
    unchanged: bool,
    /// Whether `repeat_refusal` may answer without a lookup (off in exactness tests).
    repeats: bool,
    vta: VictimTags,
    feedback: Feedback,
    /// The DRAM controllers group reads by warp-load (SC'14): a tag the L1 absorbs with
    /// nothing left to pass it to leaves as a tag-only packet.
    group_tags: bool,
    /// Tag-only packets waiting for a miss-queue slot (the queue was full when their
    /// request was answered); they move in as the SM sends the queue's head.
    pending_tags: VecDeque<MemReq>,
    /// Warp-groups (warp slot, warp-load, partition) with a request sent and their
    /// tagged request not yet looked up (kept only with group tags on).
    sent_groups: Vec<(u16, u32, u16)>,
    /// Scheduler feedback waiting for the SM to drain it.
    pub events: Vec<L1Event>,
    pub stats: L1Stats,
}

#[derive(Debug, Clone, Copy)]
struct Refusal {
    cause: RsFail,
    bypass_refused: bool,
    set: usize,
    /// A load's refusal reaches the bypass policy; a store's does not.
    load: bool,
}

/// What an SM's L1 is built from: its section and what it and its bypass policy read of the
/// rest of the machine, which the simulator gathers from the whole config.
#[derive(Debug, Clone, Copy)]
pub struct L1Setup<'a> {
    pub l1: &'a L1Config,
    /// The SM it belongs to.
    pub sm: usize,
    /// Warp slots and thread-block slots of an SM.
    pub warps: u32,
    pub ctas: u32,
    /// Coordinated bypassing: each SM learns its own TB_bg (otherwise SM 0 learns for all).
    pub decentralized: bool,
    /// The L2's hit latency in core cycles (coordinated bypassing's CHSS constant).
    pub l2_hit_latency: f64,
}

impl L1D {
    pub fn new(s: &L1Setup) -> Self {
        let (cfg, warps) = (s.l1, s.warps);
        Self {
            allocation: cfg.allocation,
            bypass: L1Bypass::new(s),
            slots: cfg.bypass_slots.0,
            in_flight_bypass: 0,
            last_refusal: None,
            unchanged: false,
            repeats: true,
            tags: TagArray::new(cfg.sets(), cfg.ways, cfg.line_bytes, cfg.set_index),
            mshr: MshrTable::new(cfg.mshrs, cfg.mshr_merge),
            miss_queue: BoundedQueue::new(cfg.miss_queue),
            hit_pipe: VecDeque::new(),
            line_shift: cfg.line_bytes.trailing_zeros(),
            hit_latency: cfg.hit_latency as u64,
            vta: VictimTags::new(warps as usize, cfg.vta_entries as usize),
            feedback: Feedback::None,
            group_tags: false,
            pending_tags: VecDeque::new(),
            sent_groups: Vec::new(),
            events: Vec::new(),
            stats: L1Stats::default(),
        }
    }

    /// Asks the L1 to queue scheduler feedback in `events`.
    pub fn set_feedback(&mut self, f: Feedback) {
        self.feedback = f;
    }

    /// Asks the L1 to make sure every warp-group tag reaches its DRAM controller.
    pub fn set_group_tags(&mut self, on: bool) {
        self.group_tags = on;
    }

    /// The L1's view of the warp that sent `req`.
    fn owner(req: &MemReq) -> Owner {
        Owner { key: req.warp_slot as u32, gid: req.warp }
    }

    /// Files the victim of an allocation under its owner, evicted by `by`.
    fn evicted(&mut self, ev: Option<super::tags::Evicted>, by: Owner) {
        if let Some(ev) = ev {
            self.stats.evictions += 1;
            self.vta.record(ev.owner, ev.block, by);
        }
    }

    /// Offers one request to the L1 at core cycle `now`. On refusal the request comes
    /// back with the cause and nothing has changed except the failure counts.
    pub fn access(&mut self, req: MemReq, now: u64) -> Offer {
        let refused_bypasses = self.stats.rsfail.bypass_slot;
        if req.kind == AccessKind::Write {
            let set = self.tags.set_of(req.addr >> self.line_shift);
            let r = self.store(req);
            return self.count(r, refused_bypasses, set, false);
        }
        let route = match req.op {
            CacheOp::Cg => Route::Bypass,
            _ => self.bypass.route(req.warp_slot as usize),
        };
        let block = req.addr >> self.line_shift;
        let (set, warp) = (self.tags.set_of(block), req.warp_slot as usize);
        let requester = Self::owner(&req);
        let req_is_read = req.warp_load != NO_WARP_LOAD;
        let member = (req.id, req.warp_slot, req.warp_load, req.partition);
        let tagged = req.group_last;
        let tag_packet = (tagged && self.group_tags).then(|| Self::tag_packet(&req));
        let r = match route {
            Route::Cache => self.load(req, now),
            Route::Bypass => match self.bypass(req) {
                Err((req, RsFail::BypassSlot)) => self.load(req, now),
                r => r,
            },
            Route::BypassOnFail { assoc_only } => match self.load(req, now) {
                Err((req, cause)) if !assoc_only || cause == RsFail::LineAlloc => match self.bypass(req) {
                    Err((req, RsFail::BypassSlot)) => Err((req, cause)),
                    r => r,
                },
                ok => ok,
            },
        };
        if r.is_ok() && req_is_read {
            self.follow_group(member, tagged, tag_packet);
        }
        self.bypass.on_access(warp, block, set, r.is_ok());
        if self.feedback == Feedback::VtaHitsAndAccesses && r.is_ok() && route != Route::Bypass {
            self.events.push(L1Event::Access { warp: requester, set: set as u32 });
        }
        self.count(r, refused_bypasses, set, true)
    }

    fn count(&mut self, r: Offer, bypasses_before: u64, set: usize, load: bool) -> Offer {
        self.last_refusal = match &r {
            Ok(()) => None,
            Err((_, cause)) => {
                self.stats.rsfail.add(*cause, 1);
                let bypass_refused = self.stats.rsfail.bypass_slot > bypasses_before;
                Some(Refusal { cause: *cause, bypass_refused, set, load })
            }
        };
        self.unchanged = r.is_err();
        r
    }

    /// Counts `cycles` retries of the last refused access, as if each had been made.
    pub fn account_retries(&mut self, cycles: u64) {
        let Some(f) = self.last_refusal else { return };
        self.stats.rsfail.add(f.cause, cycles);
        if f.bypass_refused {
            self.stats.rsfail.bypass_slot += cycles;
        }
        if f.load {
            self.bypass.on_retries(f.set, cycles);
        }
    }

    /// Retrying the last refused access, if nothing it depends on has changed since:
    /// counts the refusal again without probing (a stalled LD/ST unit retries every cycle,
    /// which in memory-bound runs is most of the L1's work). False if it must be retried.
    pub fn repeat_refusal(&mut self) -> bool {
        if self.repeats && self.unchanged && self.last_refusal.is_some() {
            self.account_retries(1);
            true
        } else {
            false
        }
    }

    /// Turns off (or on) answering repeated refusals without a lookup.
    pub fn set_repeat_skipping(&mut self, on: bool) {
        self.repeats = on;
    }

    /// Tells the bypass policy what happened to the SM's thread blocks.
    pub fn on_cta(&mut self, event: CtaEvent, sm: &SmView) {
        self.unchanged = false;
        self.bypass.on_cta(event, sm);
    }

    /// A value another SM's bypass policy broadcast (coordinated bypassing's TB_bg).
    pub fn receive(&mut self, value: u32, now: u64) {
        self.unchanged = false;
        self.bypass.receive(value, now);
    }

    fn store(&mut self, req: MemReq) -> Offer {
        if !self.miss_queue.has_room(1) {
            return Err((req, RsFail::MissQueue));
        }
        self.tags.invalidate(req.addr >> self.line_shift);
        self.stats.stores += 1;
        self.miss_queue.push(req);
        Ok(())
    }

    /// Sends a load around the L1 if a bypass slot is free. A refusal for want of a slot
    /// is counted here and leaves the choice of the L1 path to the caller.
    fn bypass(&mut self, mut req: MemReq) -> Offer {
        if self.slots.is_some_and(|n| self.in_flight_bypass >= n) {
            self.stats.rsfail.bypass_slot += 1;
            return Err((req, RsFail::BypassSlot));
        }
        if !self.miss_queue.has_room(1) {
            return Err((req, RsFail::MissQueue));
        }
        req.l1_bypassed = true;
        self.in_flight_bypass += 1;
        self.stats.bypassed += 1;
        self.miss_queue.push(req);
        Ok(())
    }

    fn load(&mut self, req: MemReq, now: u64) -> Offer {
        let block = req.addr >> self.line_shift;
        match self.tags.probe(block) {
            Probe::Hit { set, way } => {
                self.tags.touch(set, way);
                self.stats.accesses += 1;
                self.stats.hits += 1;
                self.hit_pipe.push_back((now + self.hit_latency, req));
                Ok(())
            }
            Probe::HitReserved { .. } => match self.mshr.add(block, req) {
                Ok(_) => {
                    self.stats.accesses += 1;
                    self.stats.pending_hits += 1;
                    Ok(())
                }
                Err((MshrFull::Merge, req)) => Err((req, RsFail::MshrMerge)),
                Err((MshrFull::Entries, req)) => Err((req, RsFail::MshrEntry)),
            },
            Probe::Miss { set, victim } => {
                let on_fill = self.allocation == AllocationKind::OnFill;
                if let Err(e) = self.mshr.check(block) {
                    let cause = if e == MshrFull::Merge { RsFail::MshrMerge } else { RsFail::MshrEntry };
                    return Err((req, cause));
                }
                if on_fill && self.mshr.contains(block) {
                    let _ = self.mshr.add(block, req);
                    self.stats.accesses += 1;
                    self.stats.pending_hits += 1;
                    return Ok(());
                }
                let way = match (on_fill, victim) {
                    (true, _) => None,
                    (false, Some(way)) => Some(way),
                    (false, None) => return Err((req, RsFail::LineAlloc)),
                };
                if !self.miss_queue.has_room(1) {
                    return Err((req, RsFail::MissQueue));
                }
                let who = Self::owner(&req);
                let class = self.classify(who, block, set);
                self.stats.miss_classes.add(class);
                if let Some(way) = way {
                    let ev = self.tags.allocate(set, way, block, true, 0);
                    self.tags.set_owner(set, way, who);
                    self.evicted(ev, who);
                }
                // A cached miss fetches the whole line.
                let mut fetch = req.clone();
                fetch.bytes = 1 << self.line_shift;
                self.miss_queue.push(fetch);
                // Checked above: the entry is free, so this opens it.
                let _ = self.mshr.add(block, req);
                self.stats.accesses += 1;
                self.stats.misses += 1;
                Ok(())
            }
        }
    }

    /// Why a miss of `who` missed, from its victim tags; victim-tag hits go to the
    /// scheduler's feedback.
    fn classify(&mut self, who: Owner, block: u64, set: usize) -> MissClass {
        let class = self.vta.classify(who, block);
        if self.feedback == Feedback::None {
            return class;
        }
        let evictor = match class {
            MissClass::IntraWarp => who,
            MissClass::InterWarp { aggressor } => aggressor,
            MissClass::Other => return class,
        };
        self.events.push(L1Event::VtaHit { warp: who, evictor, set: set as u32 });
        class
    }

    /// A warp-group's tagged request (its warp-load's last to a partition) that the L1
    /// answers itself would never tell the DRAM controller that the group is complete:
    /// the tag moves to the youngest request of the same warp-load and partition still
    /// waiting in the miss queue. If none waits but one already left (`sent_groups`),
    /// `packet` carries the tag alone (when group tags are on); if none left at all, the
    /// controller never sees the group and needs no tag.
    fn follow_group(&mut self, member: (u64, u16, u32, u16), tagged: bool, packet: Option<MemReq>) {
        let (id, slot, warp_load, partition) = member;
        let group = (slot, warp_load, partition);
        let sent = self.miss_queue.iter().any(|q| q.id == id);
        let open = self.sent_groups.iter().position(|g| *g == group);
        if !tagged {
            if sent && open.is_none() && self.group_tags {
                self.sent_groups.push(group);
            }
            return;
        }
        if let Some(i) = open {
            self.sent_groups.swap_remove(i);
        }
        if sent {
            return;
        }
        let same = |q: &&mut MemReq| q.warp_slot == slot && q.warp_load == warp_load && q.partition == partition;
        if let Some(q) = self.miss_queue.iter_mut().rev().find(same) {
            q.group_last = true;
            return;
        }
        if let (Some(p), Some(_)) = (packet, open) {
            self.pending_tags.push_back(p);
            self.move_tags();
        }
    }

    /// The SM sends the miss queue's head: waiting tag-only packets take the free slot.
    pub fn pop_miss(&mut self) -> Option<MemReq> {
        let r = self.miss_queue.pop();
        self.move_tags();
        r
    }

    fn move_tags(&mut self) {
        self.unchanged = false;
        while self.miss_queue.has_room(1) {
            let Some(p) = self.pending_tags.pop_front() else { break };
            self.miss_queue.push(p);
        }
    }

    /// A one-flit packet carrying only `req`'s warp-group tag to its partition, where
    /// the DRAM controller learns that the group's requests have all been sent.
    fn tag_packet(req: &MemReq) -> MemReq {
        let mut p = MemReq::new(req.id, req.addr, AccessKind::Read, 0);
        p.tag_only = true;
        p.group_last = true;
        (p.sm, p.warp_slot, p.warp, p.cta, p.pc) = (req.sm, req.warp_slot, req.warp, req.cta, req.pc);
        (p.warp_load, p.partition, p.local) = (req.warp_load, req.partition, req.local);
        p
    }

    /// A hit whose latency has elapsed by `now`.
    pub fn pop_hit(&mut self, now: u64) -> Option<MemReq> {
        match self.hit_pipe.front() {
            Some(&(ready, _)) if ready <= now => self.hit_pipe.pop_front().map(|(_, r)| r),
            _ => None,
        }
    }

    /// Takes a reply from the L2 and returns the requests it completes, each with
    /// whether it travelled to the L2 itself: the merged loads of a filled line, or
    /// the reply alone for stores and `.cg` loads.
    pub fn fill(&mut self, reply: MemReq, out: &mut Vec<(MemReq, bool)>) {
        self.unchanged = false;
        if reply.kind == AccessKind::Write || reply.l1_bypassed {
            self.in_flight_bypass -= reply.l1_bypassed as u32;
            out.push((reply, true));
            return;
        }
        let block = reply.addr >> self.line_shift;
        match self.allocation {
            AllocationKind::OnMiss => {
                self.tags.fill(block);
            }
            AllocationKind::OnFill => {
                if let Probe::Miss { set, victim: Some(way) } = self.tags.probe(block) {
                    let who = Self::owner(&reply);
                    let ev = self.tags.allocate(set, way, block, false, 0);
                    self.tags.set_owner(set, way, who);
                    self.evicted(ev, who);
                }
            }
        }
        self.mshr.take(block, |mut r| {
            if r.id == reply.id {
                out.push((reply.clone(), true));
            } else {
                r.l2_hit = reply.l2_hit;
                r.dram_served = reply.dram_served;
                out.push((r, false));
            }
        });
    }

    pub fn next_event(&self) -> Option<u64> {
        self.hit_pipe.front().map(|e| e.0)
    }

    /// Outstanding MSHR entries and reserved lines (both zero after a clean run).
    pub fn outstanding(&self) -> (usize, usize) {
        (self.mshr.len(), self.tags.reserved_lines())
    }

    pub fn is_idle(&self) -> bool {
        self.hit_pipe.is_empty()
            && self.miss_queue.is_empty()
            && self.pending_tags.is_empty()
            && self.mshr.is_empty()
            && self.in_flight_bypass == 0
    }

    /// Adds `cycles` core cycles of the current bypass occupancy to its running sum.
    #[inline]
    pub fn account_bypass_occupancy(&mut self, cycles: u64) {
        self.stats.bypass_in_flight_cycles += self.in_flight_bypass as u64 * cycles;
    }
}

#[cfg(test)]
mod tests;
