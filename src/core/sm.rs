//! One SM: CTA slots, warps and their schedulers, the LD/ST unit, the L1D, and the
//! warp-load table that turns returning requests into scoreboard releases.
//!
//! Tick order within a core cycle: accept one reply from the interconnect (fill),
//! deliver L1 hits whose latency has passed, send one LD/ST request into the L1,
//! move one miss into the interconnect, then let each scheduler issue one instruction.

use super::coalescer::{coalesce, Coalesced};
use super::config::CoreConfig;
use super::issue_gate::{Head, IssueGates};
use super::latency::LoadStats;
use super::ldst::{LdstUnit, Pending};
use super::pace::Pace;
use super::sched::{Throttle, WarpScheduler};
use super::warp::Warp;
use super::warp_load::WarpLoadTable;
use crate::cache::l1::bypass::{CtaEvent, L1Snapshot, LoadTags, SmView};
use crate::cache::l1::config::{CgGranularity, L1Config};
use crate::cache::l1::{L1Event, L1D};
use crate::dram::AddressMap;
use crate::icnt::{Crossbar, PartitionNodes};
use crate::kernels::{Grid, Instr, Kernel, WARP_SIZE};
use crate::mem::{AccessKind, CacheOp, MemReq, NO_WARP_LOAD};
use serde::Serialize;
use std::collections::BTreeMap;

#[path = "sm_sampled.rs"]
mod sampled;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SmStats {
    pub warp_instructions: u64,
    pub loads: u64,
    pub stores: u64,
    /// Line requests produced by the coalescer.
    pub requests: u64,
    /// Core cycles the LD/ST unit spent refused by the L1 (L1 congestion).
    pub l1_stall_cycles: u64,
    pub ctas_completed: u64,
}

#[derive(Debug, Clone, Copy, Default)]
struct CtaSlot {
    active: bool,
    live_warps: u32,
    at_barrier: u32,
    threads: u32,
    warps: u32,
}

/// The SM's ends of the two networks: requests leave by one, replies arrive by the other.
pub struct Ports<'a> {
    pub req_net: &'a mut Crossbar,
    pub reply_net: &'a mut Crossbar,
}

#[derive(Clone)]
pub struct Sm {
    pub id: usize,
    warps: Vec<Warp>,
    /// Dispatch order per warp slot; `u64::MAX` for an empty slot.
    ages: Vec<u64>,
    /// Slots whose warp waits at a barrier (as `Warp::at_barrier`), beside `ages` so the
    /// schedulers' age view can leave them out while `ready` borrows the warps: SWL must not
    /// spend its slots on warps that wait for warps outside them.
    barrier_wait: Vec<bool>,
    /// What the schedulers test of each slot every cycle, and which of them may skip their scan.
    gates: IssueGates,
    sched_slots: Vec<Vec<usize>>,
    schedulers: Vec<WarpScheduler>,
    /// CCWS / iWarp state fed by the L1's events.
    throttle: Throttle,
    /// A warp slot was filled or emptied since the throttle last looked.
    roster_changed: bool,
    /// Warming cycles the throttle has lived through (sampled runs): its clock runs on
    /// detail's cycles plus these, so scores decay and pairs time out in warming too.
    throttle_lag: u64,
    events: Vec<L1Event>,
    ctas: Vec<CtaSlot>,
    threads_used: u32,
    warps_used: u32,
    max_threads: u32,
    max_warps: u32,
    pub l1: L1D,
    ldst: LdstUnit,
    wl: WarpLoadTable,
    addr_map: AddressMap,
    alu_latency: u64,
    /// Loads become one request each (`core.perfect_coalescing`).
    perfect_coalescing: bool,
    line_bytes: u32,
    /// `.cg` loads ask for the sectors they touch (`l1d.cg_granularity`).
    cg_sectors: bool,
    /// Request-network nodes of the partitions; an SM sends to each partition's node `id`
    /// (modulo their number).
    partition_nodes: PartitionNodes,
    next_req: u64,
    fills: Vec<(MemReq, bool)>,
    coalesced: Coalesced,
    max_ctas: u32,
    /// Per-PC (L1 accesses, L1 hits including hits on a pending line) when profiling.
    pc_counts: Option<BTreeMap<u32, (u64, u64)>>,
    /// The core cycle being ticked.
    now: u64,
    /// No instruction issues (a sampled run lets the memory system drain).
    frozen: bool,
    /// Between `begin_warming` and `resume_detail`: thread blocks come and go with no
    /// timing, which a learning bypass policy must not learn from.
    warming: bool,
    /// Which warp executes next in functional warming (sampled runs).
    pace: Pace,
    pub stats: SmStats,
}

impl Sm {
    /// SM `id` around its L1 (`l1d` its section), routing requests by `addr_map` to the
    /// request network's nodes.
    pub fn new(
        c: &CoreConfig,
        l1d: &L1Config,
        mut l1: L1D,
        addr_map: AddressMap,
        partition_nodes: PartitionNodes,
        id: usize,
    ) -> Self {
        let n_sched = c.schedulers_per_sm as usize;
        let max_warps = c.max_warps_per_sm as usize;
        let throttle = Throttle::new(c);
        l1.set_feedback(throttle.feedback());
        Self {
            id,
            warps: (0..max_warps).map(|_| Warp::default()).collect(),
            ages: vec![u64::MAX; max_warps],
            barrier_wait: vec![false; max_warps],
            gates: IssueGates::new(max_warps, n_sched),
            sched_slots: (0..n_sched).map(|i| IssueGates::slots_of(i, n_sched, max_warps)).collect(),
            schedulers: (0..n_sched).map(|_| WarpScheduler::new(c)).collect(),
            throttle,
            roster_changed: false,
            throttle_lag: 0,
            events: Vec::new(),
            ctas: vec![CtaSlot::default(); c.max_ctas_per_sm as usize],
            pace: Pace::new(
                max_warps,
                n_sched,
                c.warp_scheduler.round_robin_warming(),
                c.alu_latency as u64,
                l1d.hit_latency as u64,
            ),
            threads_used: 0,
            warps_used: 0,
            max_threads: c.max_threads_per_sm,
            max_warps: c.max_warps_per_sm,
            l1,
            ldst: match l1d.bypass.per_warp_queues() {
                true => LdstUnit::reorder(c.max_warps_per_sm, l1d.mrpb_queue),
                false => LdstUnit::in_order(c.ldst_queue),
            },
            wl: WarpLoadTable::default(),
            addr_map,
            alu_latency: c.alu_latency as u64,
            perfect_coalescing: c.perfect_coalescing,
            line_bytes: l1d.line_bytes,
            cg_sectors: l1d.cg_granularity == CgGranularity::Sector,
            partition_nodes,
            next_req: (id as u64) << 40,
            fills: Vec::new(),
            coalesced: Coalesced::default(),
            max_ctas: c.max_ctas_per_sm,
            pc_counts: None,
            now: 0,
            frozen: false,
            warming: false,
            stats: SmStats::default(),
        }
    }

    /// Hands the bypass policy the per-load tags its profiling pass chose.
    pub fn set_load_tags(&mut self, tags: LoadTags) {
        self.l1.bypass.set_load_tags(tags);
    }

    /// Starts counting L1 accesses and hits per load PC (for profiling runs).
    pub fn count_pcs(&mut self) {
        self.pc_counts = Some(BTreeMap::new());
    }

    /// (L1 accesses, L1 hits and pending hits) per load PC, when counting.
    pub fn pc_counts(&self) -> Option<&BTreeMap<u32, (u64, u64)>> {
        self.pc_counts.as_ref()
    }

    /// A new launch begins on this (empty) SM.
    pub fn begin_launch(&mut self, grid: &Grid, now: u64) {
        let by_threads = self.max_threads / grid.threads_per_cta.max(1);
        let by_warps = self.max_warps / grid.warps_per_cta().max(1);
        let max_ctas = self.max_ctas.min(by_threads).min(by_warps);
        self.cta_event(CtaEvent::Launch { max_ctas }, now);
    }

    /// (L1 accesses, hits and pending hits) so far, for per-PC profiling counts.
    fn l1_counts(&self) -> (u64, u64) {
        (self.l1.stats.accesses, self.l1.stats.hits + self.l1.stats.pending_hits)
    }

    /// Tells the bypass policy what happened to the thread blocks at core cycle `now`.
    fn cta_event(&mut self, event: CtaEvent, now: u64) {
        let l1 = L1Snapshot { hits: self.l1_counts().1, stall_cycles: self.stats.l1_stall_cycles };
        self.l1.on_cta(event, &SmView { now, warps: self.warps_used, l1, warming: self.warming });
    }

    /// Whether a CTA of this grid fits now.
    pub fn can_dispatch(&self, grid: &Grid) -> bool {
        self.ctas.iter().any(|c| !c.active)
            && self.threads_used + grid.threads_per_cta <= self.max_threads
            && self.warps_used + grid.warps_per_cta() <= self.max_warps
    }

    /// Starts CTA `cta` with dynamic warp ids from `gid_base + cta * warps_per_cta`.
    pub fn dispatch(&mut self, cta: u32, grid: &Grid, gid_base: u32, age: &mut u64, now: u64) {
        let wpc = grid.warps_per_cta();
        let slot = self.ctas.iter().position(|c| !c.active).expect("caller checked can_dispatch");
        self.ctas[slot] =
            CtaSlot { active: true, live_warps: wpc, at_barrier: 0, threads: grid.threads_per_cta, warps: wpc };
        self.threads_used += grid.threads_per_cta;
        self.warps_used += wpc;
        let mut w = 0;
        for s in 0..self.warps.len() {
            if w == wpc {
                break;
            }
            if !self.warps[s].active {
                self.warps[s] = Warp::launch(slot, cta, w, gid_base + cta * wpc + w, *age);
                self.ages[s] = *age;
                self.roster_changed = true;
                self.pace.launch(s);
                self.gates.forget_head(s);
                self.gates.sync(s, &self.warps[s]);
                *age += 1;
                w += 1;
            }
        }
        self.cta_event(CtaEvent::Dispatch { slot }, now);
    }

    pub fn is_idle(&self) -> bool {
        self.warps_used == 0 && self.l1.is_idle() && self.ldst.is_empty()
    }

    /// One core cycle. Returns true if anything changed.
    pub fn tick(&mut self, now: u64, kernel: &dyn Kernel, net: &mut Ports, stats: &mut LoadStats) -> bool {
        if self.is_idle() && net.reply_net.peek(self.id).is_none() {
            return false;
        }
        let mut progress = false;
        self.now = now;
        self.l1.account_bypass_occupancy(1);
        if let Some(reply) = net.reply_net.pop(self.id) {
            let mut fills = std::mem::take(&mut self.fills);
            self.l1.fill(reply, &mut fills);
            for (r, left) in fills.drain(..) {
                self.deliver(r, left, now, kernel, stats);
            }
            self.fills = fills;
            progress = true;
        }
        while let Some(r) = self.l1.pop_hit(now) {
            self.deliver(r, false, now, kernel, stats);
            progress = true;
        }
        progress |= self.ldst_cycle(now, kernel);
        if let Some(head) = self.l1.miss_queue.front() {
            let flits = match head.kind {
                AccessKind::Read => net.req_net.flits_for(0),
                AccessKind::Write => net.req_net.flits_for(head.bytes),
            };
            if net.req_net.can_push(self.id, flits) {
                let mut r = self.l1.pop_miss().expect("head exists");
                r.t_issue = now;
                let dst = self.partition_nodes.node(r.partition as usize, self.id);
                net.req_net.push(self.id, dst, r, flits);
                progress = true;
            }
        }
        std::mem::swap(&mut self.events, &mut self.l1.events);
        let at = now + self.throttle_lag;
        if self.throttle.refresh(at, &self.events, &self.warps, std::mem::take(&mut self.roster_changed)) {
            self.gates.wake();
            progress = true;
        }
        self.events.clear();
        if !self.frozen {
            for i in 0..self.schedulers.len() {
                progress |= self.schedule(i, now, kernel);
            }
        }
        progress
    }

    fn ldst_cycle(&mut self, now: u64, kernel: &dyn Kernel) -> bool {
        if self.ldst.stalled.is_some() && self.l1.repeat_refusal() {
            self.stats.l1_stall_cycles += 1;
            return false;
        }
        let Some(p) = self.ldst.head() else { return false };
        let had_room = self.ldst.has_room(p.slot);
        let w = &self.warps[p.slot];
        // With `l1d.cg_granularity = sector` a `.cg` load asks for the 32 B sectors its lanes
        // touch (Fermi's uncached transactions); other loads ask for the line, whatever the
        // L1 decides.
        let sectors = p.kind == AccessKind::Write || (p.op == CacheOp::Cg && self.cg_sectors);
        let bytes = if sectors { p.bytes } else { self.line_bytes };
        let mut req = MemReq::new(self.next_req, p.line, p.kind, bytes);
        req.op = p.op;
        req.sm = self.id as u16;
        req.warp_slot = p.slot as u16;
        req.warp = w.gid;
        req.cta = w.cta;
        req.pc = p.pc;
        req.warp_load = p.warp_load;
        req.group_last = p.group_last;
        req.partition = p.partition;
        req.local = p.local;
        req.t_issue = now;
        let before = self.pc_counts.is_some().then(|| self.l1_counts());
        match self.l1.access(req, now) {
            Ok(()) => {
                if let Some((a0, h0)) = before {
                    let (a1, h1) = self.l1_counts();
                    let e = self.pc_counts.as_mut().expect("counting").entry(p.pc).or_default();
                    e.0 += a1 - a0;
                    e.1 += h1 - h0;
                }
                self.next_req += 1;
                self.ldst.stalled = None;
                let p = self.ldst.pop().expect("the head was just sent");
                // A scan tests the unit's room only as yes or no: only a change to yes can
                // let a sleeping scheduler issue.
                if !had_room && self.ldst.has_room(p.slot) {
                    self.gates.wake();
                }
                if p.last {
                    self.warps[p.slot].in_ldst -= 1;
                    self.try_exit(p.slot, kernel);
                }
                true
            }
            Err((_, cause)) => {
                self.ldst.stalled = Some(cause);
                self.stats.l1_stall_cycles += 1;
                false
            }
        }
    }

    fn deliver(&mut self, r: MemReq, left_sm: bool, now: u64, kernel: &dyn Kernel, stats: &mut LoadStats) {
        let slot = r.warp_slot as usize;
        if r.kind == AccessKind::Write {
            self.warps[slot].stores_out -= 1;
        } else if let Some((slot, dst)) = self.wl.complete(&r, self.addr_map.decode(r.local).bank, now, left_sm, stats)
        {
            self.warps[slot].complete_load(dst);
            self.gates.sync(slot, &self.warps[slot]);
        }
        self.try_exit(slot, kernel);
    }

    fn schedule(&mut self, i: usize, now: u64, kernel: &dyn Kernel) -> bool {
        if self.gates.asleep(i, now) {
            return false;
        }
        let ldst = &self.ldst;
        let throttle = &self.throttle;
        let warps = &mut self.warps;
        let ages = &self.ages;
        let barrier_wait = &self.barrier_wait;
        let gates = &mut self.gates;
        let ready = |s: usize| match gates.open(s, now, || Head::of(warps[s].peek(kernel))) {
            Some(Head::Mem(_)) => ldst.has_room(s) && throttle.allows(s, true),
            Some(_) => throttle.allows(s, false),
            None => false,
        };
        let age = |s: usize| (ages[s] != u64::MAX && !barrier_wait[s]).then_some(ages[s]);
        let Some(slot) = self.schedulers[i].pick(&self.sched_slots[i], ready, age) else {
            // Every policy picks nothing without side effects, and a throttle's changed
            // permissions wake the schedulers (`tick`).
            self.gates.sleep(i, &self.sched_slots[i], now);
            return false;
        };
        self.issue(slot, now, kernel);
        true
    }

    fn issue(&mut self, slot: usize, now: u64, kernel: &dyn Kernel) {
        let instr = self.warps[slot].pop().expect("picked warps have an instruction");
        self.gates.forget_head(slot);
        self.stats.warp_instructions += 1;
        self.warps[slot].ready_at = now + 1;
        match instr {
            Instr::Alu { .. } => self.warps[slot].ready_at = now + self.alu_latency,
            Instr::Barrier => self.arrive_at_barrier(slot, kernel),
            Instr::Mem(m) => {
                coalesce(&m, self.line_bytes, &mut self.coalesced);
                if self.perfect_coalescing && m.kind == AccessKind::Read {
                    self.coalesced.len = self.coalesced.len.min(1);
                }
                let n = self.coalesced.len as u32;
                if n > 0 {
                    self.stats.requests += n as u64;
                    let warp_load = if m.kind == AccessKind::Read {
                        self.stats.loads += 1;
                        self.warps[slot].add_pending(m.dst);
                        self.wl.open(slot, m.dst, n, now)
                    } else {
                        self.stats.stores += 1;
                        self.warps[slot].stores_out += n;
                        NO_WARP_LOAD
                    };
                    self.warps[slot].in_ldst += 1;
                    let op = match m.kind {
                        AccessKind::Read => self.l1.bypass.load_op(m.pc, m.op, Some(self.warps[slot].cta_slot)),
                        AccessKind::Write => m.op,
                    };
                    let (c, map) = (&self.coalesced, &self.addr_map);
                    let n = c.len;
                    let mut parts = [0u16; WARP_SIZE];
                    for (p, &line) in parts.iter_mut().zip(&c.lines[..n]) {
                        *p = map.partition(line) as u16;
                    }
                    let read = warp_load != NO_WARP_LOAD;
                    self.ldst.push(c.iter().enumerate().map(|(i, (line, bytes))| Pending {
                        slot,
                        line,
                        partition: parts[i],
                        local: map.local(line),
                        bytes,
                        kind: m.kind,
                        op,
                        pc: m.pc,
                        warp_load,
                        group_last: read && !parts[i + 1..n].contains(&parts[i]),
                        last: i + 1 == n,
                    }));
                }
            }
        }
        self.gates.sync(slot, &self.warps[slot]);
        self.try_exit(slot, kernel);
    }

    /// Turns off (or on) skipping the schedulers' scans that cannot find a ready warp and
    /// the L1 lookups that would repeat a refusal.
    pub fn set_scan_skipping(&mut self, on: bool) {
        self.gates.set_skipping(on);
        self.l1.set_repeat_skipping(on);
    }

    /// Releases the CTA's warps once every live warp has arrived, and retires those
    /// that have nothing left to do (a barrier may be a warp's last instruction).
    /// The warp in `slot` reached a barrier: it waits until its CTA's live warps all have.
    fn arrive_at_barrier(&mut self, slot: usize, kernel: &dyn Kernel) {
        let cta = self.warps[slot].cta_slot;
        self.warps[slot].at_barrier = true;
        self.barrier_wait[slot] = true;
        self.ctas[cta].at_barrier += 1;
        self.release_barrier(cta, kernel);
    }

    fn release_barrier(&mut self, cta: usize, kernel: &dyn Kernel) {
        let c = &mut self.ctas[cta];
        if c.at_barrier < c.live_warps {
            return;
        }
        c.at_barrier = 0;
        let mut released = Vec::new();
        for (s, w) in self.warps.iter_mut().enumerate() {
            if w.active && w.cta_slot == cta && w.at_barrier {
                w.at_barrier = false;
                self.barrier_wait[s] = false;
                released.push(s);
            }
        }
        for s in released {
            self.gates.sync(s, &self.warps[s]);
            self.try_exit(s, kernel);
        }
    }

    fn try_exit(&mut self, slot: usize, kernel: &dyn Kernel) {
        let w = &mut self.warps[slot];
        if !w.active || w.at_barrier {
            return;
        }
        w.peek(kernel);
        if !w.can_exit() {
            return;
        }
        w.active = false;
        let cta = w.cta_slot;
        self.ages[slot] = u64::MAX;
        self.roster_changed = true;
        self.gates.sync(slot, &self.warps[slot]);
        let c = &mut self.ctas[cta];
        c.live_warps -= 1;
        if c.live_warps == 0 {
            c.active = false;
            self.threads_used -= c.threads;
            self.warps_used -= c.warps;
            self.stats.ctas_completed += 1;
            self.cta_event(CtaEvent::Retire { slot: cta }, self.now);
        } else {
            self.release_barrier(cta, kernel);
        }
    }

    /// Earliest core cycle after `now` at which this SM moves without outside help.
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let lag = self.throttle_lag;
        let throttle = self.throttle.next_event(now + lag).map(|t| t.saturating_sub(lag));
        [self.gates.next_issue_time(now), self.l1.next_event(), throttle].into_iter().flatten().min()
    }

    /// Accounts for `cycles` skipped: the L1's bypass occupancy always, and the LD/ST
    /// unit's stall if it waited on a refusal.
    pub fn account_skipped(&mut self, cycles: u64) {
        self.l1.account_bypass_occupancy(cycles);
        if self.ldst.stalled.is_some() {
            self.l1.account_retries(cycles);
            self.stats.l1_stall_cycles += cycles;
        }
    }

    /// In-flight warp-loads, L1 MSHR entries and reserved lines (all zero when drained).
    pub fn outstanding(&self) -> (usize, usize, usize) {
        let (mshr, reserved) = self.l1.outstanding();
        (self.wl.in_flight(), mshr, reserved)
    }

    pub fn describe(&self) -> String {
        let waits: Vec<String> = self
            .warps
            .iter()
            .filter(|w| w.active)
            .take(4)
            .map(|w| {
                format!(
                    "warp {} (pending regs {:#x}, stores {}, ready at {}, done issuing {})",
                    w.gid,
                    w.pending,
                    w.stores_out,
                    w.ready_at,
                    w.finished_issuing()
                )
            })
            .collect();
        let active = self.warps.iter().filter(|w| w.active).count();
        let barrier = self.warps.iter().filter(|w| w.active && w.at_barrier).count();
        let (wl, mshr, _) = self.outstanding();
        format!(
            "SM {}: {} active warps ({} at a barrier), LD/ST unit {}{}, miss queue {}/{}, {} warp-loads and {} L1 MSHRs outstanding; {}",
            self.id,
            active,
            barrier,
            self.ldst.describe(),
            self.ldst.stalled.map(|c| format!(" (stalled: {c:?})")).unwrap_or_default(),
            self.l1.miss_queue.len(),
            self.l1.miss_queue.capacity(),
            wl,
            mshr,
            waits.join(", ")
        )
    }
}
