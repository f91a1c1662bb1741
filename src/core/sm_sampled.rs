//! What a sampled run needs of an SM (see `crate::sample`): functional warming of its
//! caches, functional steps of its resident warps, a pause in issue while requests drain,
//! and fresh statistics where a window's measurement starts.

use super::{Sm, SmStats};
use crate::cache::l1::bypass::CtaEvent;
use crate::cache::l2::WarpL2Counters;
use crate::cache::vta::Owner;
use crate::core::coalescer::coalesce;
use crate::core::sched::Throttle;
use crate::kernels::{Instr, Kernel};
use crate::mem::{AccessKind, MemReq};

impl Sm {
    /// Functional warming (sampled runs): one warp memory instruction of a CTA that is not
    /// simulated in detail, applied to this SM's L1 (with its victim tags) and on to the
    /// partitions' L2 and DRAM row buffers in lane order, with no timing or statistics. Loads take the operator
    /// the bypass policy gives them outside any thread block (a `cm` load is cached, as in
    /// a block not tagged `bg`), and the route it gives warp slot `slot`.
    /// `partition(p, local, is_write, reader)` warms partition `p` with a line at its local
    /// address, for `reader` (the warp and PC, which the L2 bypass policy routes by), and says
    /// whether its L2 hit (the SM knows the address map, not the partitions). Each L2 read is
    /// counted for the warp's run-wide id in `reads` (warp types over a sampled run).
    /// Returns whether any of its lines missed in the L1.
    pub fn warm(
        &mut self,
        m: &crate::kernels::MemInstr,
        slot: usize,
        partition: &mut dyn FnMut(usize, u64, bool, &MemReq) -> bool,
        reads: &mut WarpL2Counters,
    ) -> bool {
        coalesce(m, self.line_bytes, &mut self.coalesced);
        if self.perfect_coalescing && m.kind == AccessKind::Read {
            self.coalesced.len = self.coalesced.len.min(1);
        }
        let op = match m.kind {
            AccessKind::Write => m.op,
            AccessKind::Read => self.l1.bypass.load_op(m.pc, m.op, None),
        };
        let who = Owner { key: slot as u32, gid: self.warps[slot].gid };
        let mut reader = MemReq::new(0, 0, m.kind, self.line_bytes);
        (reader.sm, reader.warp_slot, reader.warp, reader.pc) =
            (self.id as u16, slot as u16, self.warps[slot].gid, m.pc);
        let mut missed = false;
        for i in 0..self.coalesced.len {
            let line = self.coalesced.lines[i];
            if self.l1.warm(line, m.kind, op, who) {
                missed = true;
                let p = self.addr_map.partition(line) as usize;
                let hit = partition(p, self.addr_map.local(line), m.kind == AccessKind::Write, &reader);
                if m.kind == AccessKind::Read {
                    reads.record(self.warps[slot].gid, hit);
                }
            }
        }
        missed
    }

    /// Stops or resumes issuing instructions; requests in flight still complete.
    pub fn set_frozen(&mut self, on: bool) {
        self.frozen = on;
    }

    /// Whether no request of this SM is in flight here (it may still be in the networks or
    /// the partitions).
    pub fn is_quiet(&self) -> bool {
        self.ldst.is_empty()
            && self.l1.is_idle()
            && self.warps.iter().all(|w| !w.active || (w.pending == 0 && w.stores_out == 0 && w.in_ldst == 0))
    }

    /// Functional warming (re)starts: every warp is looked at afresh (`Pace::begin`).
    pub fn begin_warming(&mut self) {
        self.warming = true;
        self.pace.begin();
    }

    /// The throttle's clock at this point of warming.
    fn throttle_clock(&self) -> u64 {
        self.now + self.throttle_lag + self.pace.elapsed()
    }

    /// Queues `slot`'s warp for its next instruction, no sooner than `after`, unless the
    /// throttle holds it back (a change of the throttle's mind rescans every slot).
    fn pace_enqueue(&mut self, slot: usize, kernel: &dyn Kernel, after: u64) {
        let w = &mut self.warps[slot];
        let (age, next) = (w.age, w.peek(kernel));
        if throttle_lets(&self.throttle, slot, next) {
            self.pace.enqueue(slot, age, next, after);
        }
    }

    /// Hands the L1's feedback to the throttle at the warming clock, as a detailed cycle
    /// does. Returns in how many warming cycles time alone may change its mind.
    fn warm_throttle(&mut self) -> Option<u64> {
        if !self.throttle.is_active() {
            return None;
        }
        let at = self.throttle_clock();
        std::mem::swap(&mut self.events, &mut self.l1.events);
        if self.throttle.refresh(at, &self.events, &self.warps, std::mem::take(&mut self.roster_changed)) {
            self.pace.mark_stale();
        }
        self.events.clear();
        self.throttle.next_event(at).map(|t| t.saturating_sub(at).max(1))
    }

    /// One cycle of functional execution, once nothing is in flight: the SM's schedulers
    /// issue from the warps `Pace` holds ready, in its order (a memory instruction warms the
    /// caches as `warm` does; a barrier waits for the CTA's other warps as in detail); with
    /// none ready the SM's warming clock jumps to the next. Warps with nothing left retire as
    /// usual, their CTAs with them. So the thread blocks resident when a detailed window
    /// starts stand at staggered points of their work, and the warps of a block stand apart.
    /// An L1 miss holds its register `miss_latency` core cycles. A throttle (CCWS, iWarp)
    /// learns from the warming L1 and holds warps back as in detail, on the warming clock.
    /// Returns the warp instructions executed.
    pub fn warm_step(
        &mut self,
        kernel: &dyn Kernel,
        partition: &mut dyn FnMut(usize, u64, bool, &MemReq) -> bool,
        reads: &mut WarpL2Counters,
        miss_latency: u64,
    ) -> u64 {
        let release = self.warm_throttle();
        if self.pace.is_stale() {
            self.pace.rescanned();
            for slot in 0..self.warps.len() {
                let w = &self.warps[slot];
                if w.active && !w.at_barrier && !self.pace.is_queued(slot) {
                    self.pace_enqueue(slot, kernel, 0);
                }
            }
        }
        let Some(now) = self.pace.cycle(release) else { return 0 };
        let (mut n, mut issued) = (0, 0);
        while issued < self.pace.width() {
            let Some(slot) = self.pace.take_ready(now) else { break };
            // A warp the throttle holds leaves the queue without taking an issue slot.
            if !throttle_lets(&self.throttle, slot, self.warps[slot].peek(kernel)) {
                continue;
            }
            issued += 1;
            let Some(instr) = self.warps[slot].pop() else {
                self.try_exit(slot, kernel);
                self.pace.mark_stale();
                continue;
            };
            n += 1;
            let missed = match &instr {
                Instr::Mem(m) => self.warm(m, slot, partition, reads),
                Instr::Barrier => {
                    self.arrive_at_barrier(slot, kernel);
                    self.pace.mark_stale();
                    continue;
                }
                Instr::Alu { .. } => false,
            };
            let again = self.pace.issued(slot, now, &instr, missed, miss_latency);
            self.try_exit(slot, kernel);
            if self.warps[slot].active {
                self.pace_enqueue(slot, kernel, again);
            } else {
                self.pace.mark_stale();
            }
        }
        self.pace.advance(now);
        n
    }

    /// Instructions this SM's resident warps have yet to issue.
    pub fn instructions_left(&self, kernel: &dyn Kernel) -> u64 {
        self.warps.iter().filter(|w| w.active).map(|w| w.instructions_left(kernel)).sum()
    }

    /// Detailed simulation resumes after functional steps: the schedulers see every warp's
    /// new next instruction.
    pub fn resume_detail(&mut self) {
        self.warming = false;
        self.throttle_lag += self.pace.elapsed();
        for slot in 0..self.warps.len() {
            self.gates.forget_head(slot);
            self.gates.sync(slot, &self.warps[slot]);
        }
    }

    /// Starts the statistics afresh (a sampled run's measurement), keeping the count of
    /// completed CTAs that launches finish by.
    pub fn reset_stats(&mut self) {
        self.stats = SmStats { ctas_completed: self.stats.ctas_completed, ..SmStats::default() };
        self.l1.stats = Default::default();
        self.cta_event(CtaEvent::StatsReset, self.now);
    }
}

/// Whether the throttle lets `slot`'s warp issue `next` (a warp with nothing left may
/// always go on to exit).
fn throttle_lets(throttle: &Throttle, slot: usize, next: Option<&Instr>) -> bool {
    next.is_none_or(|i| throttle.allows(slot, matches!(i, Instr::Mem(_))))
}
