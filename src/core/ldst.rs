//! The LD/ST unit: memory instructions wait here in issue order and send one line
//! request per cycle into the L1. A refused request stalls the unit until it retries
//! successfully (the in-order memory pipeline of a real SM).

use super::coalescer::Coalesced;
use crate::cache::l1::RsFail;
use crate::kernels::MemInstr;
use crate::queue::BoundedQueue;

#[derive(Debug)]
pub struct LdstEntry {
    pub slot: usize,
    pub instr: Box<MemInstr>,
    pub lines: Coalesced,
    pub next: usize,
    pub warp_load: u32,
}

#[derive(Debug)]
pub struct LdstUnit {
    pub queue: BoundedQueue<LdstEntry>,
    /// Cause of the last refusal while the head request waits to retry.
    pub stalled: Option<RsFail>,
}

impl LdstUnit {
    pub fn new(capacity: u32) -> Self {
        Self { queue: BoundedQueue::new(capacity), stalled: None }
    }
}
