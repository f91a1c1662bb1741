//! The LD/ST unit: the line requests of issued memory instructions wait here and go
//! into the L1 one per cycle. A request the L1 refuses stalls the unit until it is
//! accepted on a retry (the in-order memory pipeline of a real SM).
//!
//! Two drain orders: `InOrder` serves instructions in issue order (at most `ldst_queue`
//! of them waiting); `Reorder` (MRPB) keeps one FIFO per warp slot and always serves
//! the lowest-numbered warp with a request, which shrinks the working set the L1 sees.

use crate::cache::l1::RsFail;
use crate::kernels::WARP_SIZE;
use crate::mem::{AccessKind, CacheOp};
use std::collections::VecDeque;

/// One line request waiting for the L1.
#[derive(Debug, Clone)]
pub struct Pending {
    pub slot: usize,
    pub line: u64,
    /// Memory partition and partition-local address, mapped once when queued.
    pub partition: u16,
    pub local: u64,
    pub bytes: u32,
    pub kind: AccessKind,
    pub op: CacheOp,
    pub pc: u32,
    pub warp_load: u32,
    /// The last of its warp-load's requests to its partition (the warp-group tag).
    pub group_last: bool,
    /// The last request of its instruction: sending it completes the instruction.
    pub last: bool,
}

#[derive(Clone, Debug)]
enum Order {
    InOrder { queue: VecDeque<Pending>, instructions: u32, capacity: u32 },
    Reorder { queues: Vec<VecDeque<Pending>>, capacity: usize, waiting: usize },
}

#[derive(Clone, Debug)]
pub struct LdstUnit {
    order: Order,
    /// Cause of the last refusal while the head request waits to retry.
    pub stalled: Option<RsFail>,
}

impl LdstUnit {
    pub fn in_order(instructions: u32) -> Self {
        let order = Order::InOrder { queue: VecDeque::new(), instructions: 0, capacity: instructions };
        Self { order, stalled: None }
    }

    pub fn reorder(warps: u32, per_warp: u32) -> Self {
        let queues = (0..warps).map(|_| VecDeque::new()).collect();
        Self { order: Order::Reorder { queues, capacity: per_warp as usize, waiting: 0 }, stalled: None }
    }

    /// Whether warp `slot` may issue a memory instruction now (of up to a warp's lines).
    #[inline]
    pub fn has_room(&self, slot: usize) -> bool {
        match &self.order {
            Order::InOrder { instructions, capacity, .. } => instructions < capacity,
            Order::Reorder { queues, capacity, .. } => queues[slot].len() + WARP_SIZE <= *capacity,
        }
    }

    /// Queues the requests of one instruction (the last one marked `last`).
    pub fn push(&mut self, requests: impl Iterator<Item = Pending>) {
        match &mut self.order {
            Order::InOrder { queue, instructions, .. } => {
                queue.extend(requests);
                *instructions += 1;
            }
            Order::Reorder { queues, waiting, .. } => {
                // A lower warp slot's request may now be the head: it must be tried.
                self.stalled = None;
                for r in requests {
                    queues[r.slot].push_back(r);
                    *waiting += 1;
                }
            }
        }
    }

    /// The request to send next.
    pub fn head(&self) -> Option<&Pending> {
        match &self.order {
            Order::InOrder { queue, .. } => queue.front(),
            Order::Reorder { queues, waiting, .. } => {
                if *waiting == 0 {
                    return None;
                }
                queues.iter().find_map(|q| q.front())
            }
        }
    }

    /// Removes the head once the L1 accepted it.
    pub fn pop(&mut self) -> Option<Pending> {
        match &mut self.order {
            Order::InOrder { queue, instructions, .. } => {
                let p = queue.pop_front()?;
                *instructions -= p.last as u32;
                Some(p)
            }
            Order::Reorder { queues, waiting, .. } => {
                let p = queues.iter_mut().find(|q| !q.is_empty())?.pop_front()?;
                *waiting -= 1;
                Some(p)
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.head().is_none()
    }

    /// Requests waiting, for the watchdog.
    pub fn describe(&self) -> String {
        match &self.order {
            Order::InOrder { queue, instructions, capacity } => {
                format!("{instructions}/{capacity} instructions ({} requests)", queue.len())
            }
            Order::Reorder { waiting, .. } => format!("{waiting} requests in per-warp queues"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(slot: usize, line: u64, last: bool) -> Pending {
        Pending {
            slot,
            line,
            partition: 0,
            local: line,
            bytes: 128,
            kind: AccessKind::Read,
            op: CacheOp::Ca,
            pc: 0,
            warp_load: 0,
            group_last: last,
            last,
        }
    }

    #[test]
    fn in_order_serves_issue_order_and_counts_instructions() {
        let mut u = LdstUnit::in_order(2);
        u.push([req(5, 1, false), req(5, 2, true)].into_iter());
        u.push([req(1, 3, true)].into_iter());
        assert!(!u.has_room(0));
        let lines: Vec<u64> = std::iter::from_fn(|| u.pop()).map(|p| p.line).collect();
        assert_eq!(lines, vec![1, 2, 3]);
        assert!(u.has_room(0) && u.is_empty());
    }

    #[test]
    fn reorder_serves_the_lowest_warp_first() {
        let mut u = LdstUnit::reorder(8, 64);
        u.push([req(5, 1, false), req(5, 2, true)].into_iter());
        u.push([req(1, 3, true)].into_iter());
        assert_eq!(u.head().map(|p| p.line), Some(3));
        let lines: Vec<u64> = std::iter::from_fn(|| u.pop()).map(|p| p.line).collect();
        assert_eq!(lines, vec![3, 1, 2]);
        assert!(u.has_room(5));
        u.push((0..40).map(|i| req(5, i, i == 39)));
        assert!(!u.has_room(5), "40 + 32 exceeds 64");
    }
}
