//! The per-SM L1 data cache: tag lookup, MSHR merging, the miss queue towards the
//! interconnect, and the `.cg` path that skips the L1.
//!
//! Loads allocate on miss (the reserved line waits for its fill); global stores are
//! write-evict / no-allocate and always go to the L2. Each refused access counts one
//! reservation failure by cause; the LD/ST unit retries it next cycle.

use super::mshr::MshrFull;
use super::{MshrTable, Probe, TagArray};
use crate::config::L1Config;
use crate::mem::{AccessKind, CacheOp, MemReq};
use crate::queue::BoundedQueue;
use serde::Serialize;
use std::collections::VecDeque;

/// Why the L1 refused an access this cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RsFail {
    /// Every way of the set is reserved for a pending fill.
    LineAlloc,
    MshrEntry,
    MshrMerge,
    MissQueue,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RsFailCounts {
    pub line_alloc: u64,
    pub mshr_entry: u64,
    pub mshr_merge: u64,
    pub miss_queue: u64,
}

impl RsFailCounts {
    pub fn add(&mut self, cause: RsFail, n: u64) {
        match cause {
            RsFail::LineAlloc => self.line_alloc += n,
            RsFail::MshrEntry => self.mshr_entry += n,
            RsFail::MshrMerge => self.mshr_merge += n,
            RsFail::MissQueue => self.miss_queue += n,
        }
    }

    pub fn total(&self) -> u64 {
        self.line_alloc + self.mshr_entry + self.mshr_merge + self.miss_queue
    }

    pub fn merge(&mut self, o: &RsFailCounts) {
        self.line_alloc += o.line_alloc;
        self.mshr_entry += o.mshr_entry;
        self.mshr_merge += o.mshr_merge;
        self.miss_queue += o.miss_queue;
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
    /// `.cg` loads sent straight to the L2.
    pub uncached: u64,
    pub stores: u64,
    pub evictions: u64,
    pub rsfail: RsFailCounts,
}

impl L1Stats {
    /// Adds another SM's counters.
    pub fn merge(&mut self, o: &L1Stats) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.pending_hits += o.pending_hits;
        self.misses += o.misses;
        self.uncached += o.uncached;
        self.stores += o.stores;
        self.evictions += o.evictions;
        self.rsfail.merge(&o.rsfail);
    }
}

pub struct L1D {
    tags: TagArray,
    mshr: MshrTable<MemReq>,
    pub miss_queue: BoundedQueue<MemReq>,
    hit_pipe: VecDeque<(u64, MemReq)>,
    line_shift: u32,
    hit_latency: u64,
    pub stats: L1Stats,
}

impl L1D {
    pub fn new(cfg: &L1Config) -> Self {
        Self {
            tags: TagArray::new(cfg.sets(), cfg.ways, cfg.line_bytes, cfg.set_index),
            mshr: MshrTable::new(cfg.mshrs, cfg.mshr_merge),
            miss_queue: BoundedQueue::new(cfg.miss_queue),
            hit_pipe: VecDeque::new(),
            line_shift: cfg.line_bytes.trailing_zeros(),
            hit_latency: cfg.hit_latency as u64,
            stats: L1Stats::default(),
        }
    }

    /// Offers one request to the L1 at core cycle `now`. On refusal the request comes
    /// back with the cause and nothing has changed except the failure count.
    pub fn access(&mut self, req: MemReq, now: u64) -> Result<(), (MemReq, RsFail)> {
        let r = match (req.kind, req.op) {
            (AccessKind::Write, _) => self.store(req),
            (AccessKind::Read, CacheOp::Cg) => self.uncached(req),
            (AccessKind::Read, _) => self.load(req, now),
        };
        if let Err((_, cause)) = &r {
            self.stats.rsfail.add(*cause, 1);
        }
        r
    }

    fn store(&mut self, req: MemReq) -> Result<(), (MemReq, RsFail)> {
        if !self.miss_queue.has_room(1) {
            return Err((req, RsFail::MissQueue));
        }
        self.tags.invalidate(req.addr >> self.line_shift);
        self.stats.stores += 1;
        self.miss_queue.push(req);
        Ok(())
    }

    fn uncached(&mut self, req: MemReq) -> Result<(), (MemReq, RsFail)> {
        if !self.miss_queue.has_room(1) {
            return Err((req, RsFail::MissQueue));
        }
        self.stats.uncached += 1;
        self.miss_queue.push(req);
        Ok(())
    }

    fn load(&mut self, req: MemReq, now: u64) -> Result<(), (MemReq, RsFail)> {
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
                let Some(way) = victim else { return Err((req, RsFail::LineAlloc)) };
                if let Err(e) = self.mshr.check(block) {
                    let cause = if e == MshrFull::Merge { RsFail::MshrMerge } else { RsFail::MshrEntry };
                    return Err((req, cause));
                }
                if !self.miss_queue.has_room(1) {
                    return Err((req, RsFail::MissQueue));
                }
                if self.tags.allocate(set, way, block, true, 0).is_some() {
                    self.stats.evictions += 1;
                }
                self.miss_queue.push(req.clone());
                // Checked above: the entry is free, so this opens it.
                let _ = self.mshr.add(block, req);
                self.stats.accesses += 1;
                self.stats.misses += 1;
                Ok(())
            }
        }
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
        if reply.kind == AccessKind::Write || reply.op == CacheOp::Cg {
            out.push((reply, true));
            return;
        }
        let block = reply.addr >> self.line_shift;
        self.tags.fill(block);
        for mut r in self.mshr.take(block) {
            if r.id == reply.id {
                out.push((reply.clone(), true));
            } else {
                r.l2_hit = reply.l2_hit;
                r.dram_served = reply.dram_served;
                out.push((r, false));
            }
        }
    }

    pub fn next_event(&self) -> Option<u64> {
        self.hit_pipe.front().map(|e| e.0)
    }

    /// Outstanding MSHR entries and reserved lines (both zero after a clean run).
    pub fn outstanding(&self) -> (usize, usize) {
        (self.mshr.len(), self.tags.reserved_lines())
    }

    pub fn is_idle(&self) -> bool {
        self.hit_pipe.is_empty() && self.miss_queue.is_empty() && self.mshr.is_empty()
    }
}

#[cfg(test)]
mod tests;
