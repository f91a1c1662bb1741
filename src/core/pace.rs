//! The pace of functional warming in a sampled run: which resident warp executes next.
//!
//! Warming has no timing, but the order in which warps advance decides where each thread
//! block stands when a detailed window starts. Stepping every warp once per step left a
//! block's warps side by side, while the detailed machine's GTO scheduler lets the oldest
//! run ahead, and the windows' first thousands of cycles measured that difference. So
//! warming keeps a rough clock per SM: a warp is ready again after its instruction's
//! latency (the ALU latency; a load makes its register wait the L1 hit latency or, on an L1
//! miss, the mean memory latency the last window measured), and each cycle the SM's
//! schedulers issue from the ready warps, the one ready longest first; among warps ready
//! since the same cycle, the oldest under GTO, the least recently issued under LRR. (GTO's
//! own order, the oldest ready warp first, was tried in warming and moved the estimates
//! further from whole runs: docs/sampling-experiments.md.) No queue, port or bank is
//! modelled: that is what the detailed windows are for.

use crate::kernels::{reg_bits, Instr, RegMask};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Registers a warp's instructions name (`RegMask` bits).
const REGS: usize = RegMask::BITS as usize;

#[derive(Clone)]
pub(crate) struct Pace {
    /// This SM's warming clock in core cycles; detail's clock stands still meanwhile.
    clock: u64,
    /// Warps that may issue, as (cycle ready, priority, slot): soonest, then first in priority.
    queue: BinaryHeap<Reverse<(u64, u64, usize)>>,
    queued: Vec<bool>,
    /// Per slot, the cycle each register's load returns.
    regs: Vec<[u64; REGS]>,
    /// Per slot, when its warp last issued, counted in issues (LRR's priority).
    last_issue: Vec<u64>,
    issues: u64,
    round_robin: bool,
    width: usize,
    alu_latency: u64,
    hit_latency: u64,
    /// The clock when this stretch of warming began.
    began: u64,
    /// Warps may have arrived or been released from a barrier: look at every slot again.
    stale: bool,
}

impl Pace {
    pub fn new(slots: usize, width: usize, round_robin: bool, alu_latency: u64, hit_latency: u64) -> Self {
        Self {
            clock: 0,
            queue: BinaryHeap::new(),
            queued: vec![false; slots],
            regs: vec![[0; REGS]; slots],
            last_issue: vec![0; slots],
            issues: 0,
            round_robin,
            width: width.max(1),
            alu_latency,
            hit_latency,
            began: 0,
            stale: true,
        }
    }

    /// Instructions issued per warming cycle (the SM's schedulers).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Warming starts (again) after detailed cycles: every load has returned, and every slot
    /// is looked at afresh.
    pub fn begin(&mut self) {
        self.began = self.clock;
        self.queue.clear();
        self.queued.fill(false);
        for r in &mut self.regs {
            *r = [0; REGS];
        }
        self.stale = true;
    }

    /// A new warp holds `slot`: its registers owe nothing.
    pub fn launch(&mut self, slot: usize) {
        self.regs[slot] = [0; REGS];
        self.stale = true;
    }

    /// Some warp left the queue's view (a barrier, an exit): rescan before the next cycle.
    pub fn mark_stale(&mut self) {
        self.stale = true;
    }

    pub fn is_stale(&self) -> bool {
        self.stale
    }

    pub fn rescanned(&mut self) {
        self.stale = false;
    }

    /// Whether `slot` waits in the queue.
    pub fn is_queued(&self, slot: usize) -> bool {
        self.queued[slot]
    }

    /// Queues `slot`'s warp for its next instruction `next`, no sooner than `after`.
    pub fn enqueue(&mut self, slot: usize, age: u64, next: Option<&Instr>, after: u64) {
        let srcs = match next {
            Some(Instr::Alu { srcs }) => *srcs,
            Some(Instr::Mem(m)) => m.srcs,
            _ => 0,
        };
        let ready = reg_bits(srcs).map(|r| self.regs[slot][r]).fold(after, u64::max);
        let priority = if self.round_robin { self.last_issue[slot] } else { age };
        self.queue.push(Reverse((ready, priority, slot)));
        self.queued[slot] = true;
    }

    /// Warming cycles since `begin`.
    pub fn elapsed(&self) -> u64 {
        self.clock - self.began
    }

    /// The cycle this step issues at: the clock, or later if no queued warp is ready yet.
    /// `None` when no warp is queued, or when `release` cycles from now, no later than any
    /// queued warp is ready, a held warp may be let go: then the clock moves there and the
    /// caller asks its throttle again before anything issues then, as a detailed cycle does.
    pub fn cycle(&mut self, release: Option<u64>) -> Option<u64> {
        let ready = self.queue.peek().map(|Reverse((ready, _, _))| (*ready).max(self.clock));
        if let Some(at) = release.map(|r| self.clock + r) {
            if ready.is_none_or(|ready| at <= ready) {
                self.clock = at;
                return None;
            }
        }
        self.clock = ready?;
        Some(self.clock)
    }

    /// The first queued warp ready at `now`, taken off the queue.
    pub fn take_ready(&mut self, now: u64) -> Option<usize> {
        match self.queue.peek() {
            Some(Reverse((ready, _, _))) if *ready <= now => {
                let Reverse((_, _, slot)) = self.queue.pop()?;
                self.queued[slot] = false;
                self.issues += 1;
                self.last_issue[slot] = self.issues;
                Some(slot)
            }
            _ => None,
        }
    }

    /// The cycle after `now` is next.
    pub fn advance(&mut self, now: u64) {
        self.clock = now + 1;
    }

    /// When `slot` may issue again after an instruction issued at `now`: a load's register
    /// waits for its data (`missed`: in the L1, so `miss_latency`), an ALU instruction holds
    /// the warp for the ALU latency.
    pub fn issued(&mut self, slot: usize, now: u64, instr: &Instr, missed: bool, miss_latency: u64) -> u64 {
        match instr {
            Instr::Mem(m) => {
                let latency = if missed { miss_latency } else { self.hit_latency };
                for r in reg_bits(m.dst) {
                    self.regs[slot][r] = now + latency;
                }
                now + 1
            }
            Instr::Alu { .. } => now + self.alu_latency,
            Instr::Barrier => now + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_ready_warp_goes_first_and_a_load_holds_its_reader() {
        let mut p = Pace::new(3, 1, false, 4, 1);
        let alu = Instr::Alu { srcs: 0 };
        let reader = Instr::Alu { srcs: 0b10 };
        p.enqueue(2, 5, Some(&alu), 0);
        p.enqueue(1, 3, Some(&alu), 0);
        assert_eq!(p.cycle(None), Some(0));
        assert_eq!(p.take_ready(0), Some(1), "age 3 is older than age 5");
        assert_eq!(p.take_ready(0), Some(2));
        assert_eq!(p.take_ready(0), None);
        // Slot 1 loaded r1 at cycle 0 and missed: a reader of r1 waits the miss latency.
        let load = Instr::Mem(Box::new(crate::kernels::MemInstr {
            pc: 0,
            kind: crate::mem::AccessKind::Read,
            op: crate::mem::CacheOp::Ca,
            width: 4,
            mask: 1,
            addrs: [0; crate::kernels::WARP_SIZE],
            dst: 0b10,
            srcs: 0,
        }));
        let again = p.issued(1, 0, &load, true, 100);
        assert_eq!(again, 1);
        p.enqueue(1, 3, Some(&reader), again);
        p.advance(0);
        assert_eq!(p.cycle(Some(99)), None, "a throttle's release at the load's return comes first");
        assert_eq!(p.cycle(Some(5)), Some(100), "then the reader issues");
        assert_eq!(p.take_ready(100), Some(1));
    }

    #[test]
    fn under_round_robin_the_warp_that_waited_longest_goes_first() {
        let mut p = Pace::new(2, 1, true, 1, 1);
        let alu = Instr::Alu { srcs: 0 };
        p.enqueue(0, 0, Some(&alu), 0);
        p.enqueue(1, 1, Some(&alu), 0);
        assert_eq!(p.take_ready(0), Some(0));
        p.enqueue(0, 0, Some(&alu), 0);
        assert_eq!(p.take_ready(0), Some(1), "slot 0 issued last");
    }
}
