//! What the warp schedulers test of each warp every cycle, kept densely per slot, and the
//! skipping of scans that cannot find a ready warp.
//!
//! Most cycles most warps wait for loads. Testing such a warp through its `Warp` and its
//! instruction buffer costs two or three cache misses, so each slot's gate (when it may
//! issue, its pending registers, its next instruction) is mirrored here. A scheduler
//! whose scan found nothing sleeps until one of its warps' ALU latency ends or the SM
//! reports a change a scan would see (`sync`, `wake`).

use super::warp::Warp;
use crate::kernels::{Instr, RegMask};
use std::cell::Cell;

/// What issuing needs to know of a warp's next instruction; `Unknown` until it is next
/// read from the warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Head {
    #[default]
    Unknown,
    /// Nothing left to issue.
    Done,
    Alu(RegMask),
    Mem(RegMask),
    Barrier,
}

impl Head {
    pub fn of(instr: Option<&Instr>) -> Self {
        match instr {
            None => Head::Done,
            Some(Instr::Alu { srcs }) => Head::Alu(*srcs),
            Some(Instr::Mem(m)) => Head::Mem(m.srcs),
            Some(Instr::Barrier) => Head::Barrier,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Gate {
    /// Earliest cycle the warp may issue; `u64::MAX` for an empty slot or a warp at a barrier.
    issue_at: u64,
    /// Registers with loads in flight (`Warp::pending`).
    pending: RegMask,
    head: Head,
}

#[derive(Debug, Clone)]
pub struct IssueGates {
    gates: Vec<Gate>,
    /// Per scheduler: none of its warps can issue before this cycle (0: scan).
    asleep_until: Vec<u64>,
    /// Off, every scheduler scans every cycle (tests compare the two).
    skipping: bool,
    /// `next_issue_time`'s last answer and the cycle it was asked at, until a gate's
    /// `issue_at` changes: idle skipping asks every SM each time the machine pauses.
    next_issue: Cell<Option<(u64, Option<u64>)>>,
}

impl IssueGates {
    pub fn new(slots: usize, schedulers: usize) -> Self {
        let empty = Gate { issue_at: u64::MAX, pending: 0, head: Head::Unknown };
        Self {
            gates: vec![empty; slots],
            asleep_until: vec![0; schedulers],
            skipping: true,
            next_issue: Cell::new(None),
        }
    }

    /// The warp slots scheduler `i` of `schedulers` issues from: every `schedulers`-th,
    /// from slot `i` on.
    pub fn slots_of(i: usize, schedulers: usize, slots: usize) -> Vec<usize> {
        (i..slots).step_by(schedulers).collect()
    }

    /// Rederives the slot's gate from its warp after the warp's waits changed, and wakes
    /// the one scheduler that scans the slot (`slots_of`): the others' scans cannot see it.
    pub fn sync(&mut self, slot: usize, w: &Warp) {
        let g = &mut self.gates[slot];
        g.issue_at = if w.active && !w.at_barrier { w.ready_at } else { u64::MAX };
        g.pending = w.pending;
        self.next_issue.set(None);
        let i = self.scheduler_of(slot);
        self.asleep_until[i] = 0;
    }

    /// The scheduler whose `slots_of` hold `slot`.
    fn scheduler_of(&self, slot: usize) -> usize {
        slot % self.asleep_until.len()
    }

    /// The slot's next instruction has changed (issued, or a new warp launched).
    pub fn forget_head(&mut self, slot: usize) {
        self.gates[slot].head = Head::Unknown;
    }

    /// The slot's next instruction if the warp may issue it at `now` as far as time and
    /// its registers go; `fetch` reads it from the warp when it is not known yet.
    pub fn open(&mut self, slot: usize, now: u64, fetch: impl FnOnce() -> Head) -> Option<Head> {
        let g = &mut self.gates[slot];
        if g.issue_at > now {
            return None;
        }
        if g.head == Head::Unknown {
            g.head = fetch();
        }
        match g.head {
            Head::Alu(srcs) | Head::Mem(srcs) if srcs & g.pending != 0 => None,
            Head::Done | Head::Unknown => None,
            h => Some(h),
        }
    }

    /// Whether scheduler `i` may skip its scan at `now`.
    pub fn asleep(&self, i: usize, now: u64) -> bool {
        now < self.asleep_until[i]
    }

    /// After an empty scan of `slots`, lets scheduler `i` skip its scans until one of those
    /// warps' ALU latency runs out or something wakes it. Exact only if a scan that finds
    /// nothing changes nothing, and if everything else a scan tests wakes the schedulers.
    pub fn sleep(&mut self, i: usize, slots: &[usize], now: u64) {
        if self.skipping {
            let next = slots.iter().map(|&s| self.gates[s].issue_at).filter(|&t| t > now).min();
            self.asleep_until[i] = next.unwrap_or(u64::MAX);
        }
    }

    /// Something a scan tests has changed: every scheduler scans again.
    pub fn wake(&mut self) {
        self.asleep_until.fill(0);
    }

    pub fn set_skipping(&mut self, on: bool) {
        self.skipping = on;
        self.wake();
    }

    /// The earliest cycle after `now` at which a warp's ALU latency ends.
    pub fn next_issue_time(&self, now: u64) -> Option<u64> {
        // The earliest `issue_at` after `asked` is still the earliest after any later `now`
        // before it.
        if let Some((asked, next)) = self.next_issue.get() {
            if asked <= now && next.is_none_or(|t| t > now) {
                return next;
            }
        }
        let next = self.gates.iter().map(|g| g.issue_at).filter(|&t| t > now && t != u64::MAX).min();
        self.next_issue.set(Some((now, next)));
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warp(ready_at: u64, pending: RegMask) -> Warp {
        let mut w = Warp::launch(0, 0, 0, 0, 0);
        w.ready_at = ready_at;
        w.add_pending(pending);
        w
    }

    #[test]
    fn a_gate_opens_when_time_and_registers_allow() {
        let mut g = IssueGates::new(2, 1);
        g.sync(0, &warp(10, 0b10));
        assert_eq!(g.open(0, 9, || Head::Alu(0)), None, "before its ALU latency ends");
        assert_eq!(g.open(0, 10, || Head::Mem(0b10)), None, "its source is pending");
        assert_eq!(g.open(0, 10, || unreachable!("the head is cached")), None);
        g.sync(0, &warp(10, 0));
        assert_eq!(g.open(0, 10, || unreachable!("the head is cached")), Some(Head::Mem(0b10)));
        g.forget_head(0);
        assert_eq!(g.open(0, 10, || Head::Done), None, "nothing left to issue");
        assert_eq!(g.open(1, 0, || unreachable!("an empty slot is never read")), None);
    }

    #[test]
    fn schedulers_take_alternate_slots() {
        assert_eq!(IssueGates::slots_of(0, 2, 6), [0, 2, 4]);
        assert_eq!(IssueGates::slots_of(1, 2, 6), [1, 3, 5]);
        assert_eq!(IssueGates::slots_of(0, 1, 3), [0, 1, 2]);
    }

    #[test]
    fn a_scheduler_sleeps_until_an_alu_latency_ends_or_a_change() {
        let mut g = IssueGates::new(4, 2);
        g.sync(0, &warp(20, 0));
        g.sync(2, &warp(0, 0b1));
        g.sync(1, &warp(5, 0));
        g.sleep(0, &[0, 2], 3);
        assert!(g.asleep(0, 19) && !g.asleep(0, 20), "slot 0 may issue at 20");
        assert!(!g.asleep(1, 3), "the other scheduler did not scan");
        g.sleep(1, &[1, 3], 5);
        assert!(g.asleep(1, u64::MAX - 1), "nothing of its will issue by time alone");
        g.sync(2, &warp(0, 0));
        assert!(!g.asleep(0, 4), "a load of one of its warps came back");
        assert!(g.asleep(1, 4), "the other scheduler's warps did not change");
        g.wake();
        assert!(!g.asleep(1, 4), "a change every scan sees");
        g.set_skipping(false);
        g.sleep(0, &[0, 2], 3);
        assert!(!g.asleep(0, 4));
        assert_eq!(g.next_issue_time(3), Some(5));
        assert_eq!(g.next_issue_time(4), Some(5), "the remembered answer");
        assert_eq!(g.next_issue_time(5), Some(20), "asked again once it has passed");
        g.sync(1, &warp(7, 0));
        assert_eq!(g.next_issue_time(5), Some(7), "asked again after a gate changed");
    }
}
