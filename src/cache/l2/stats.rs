//! Typed L2 counters, filled by the banks as an observer would.

use crate::cache::vta::MissClassCounts;
use crate::histogram::Histogram;
use crate::mem::MemReq;
use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct L2RsFail {
    pub mshr: u64,
    pub dram_queue: u64,
    pub response: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct L2Stats {
    pub reads: u64,
    pub read_hits: u64,
    /// Reads merged into an outstanding miss (counted as misses in the miss rate).
    pub pending_hits: u64,
    pub read_misses: u64,
    pub writes: u64,
    pub write_hits: u64,
    pub fills: u64,
    pub evictions: u64,
    pub writebacks: u64,
    /// Lines fetched from DRAM for store misses (`l2.write_policy = write_back_fetch`).
    pub write_fetches: u64,
    pub rsfail: L2RsFail,
    /// Read misses that went to DRAM, by cause (from the per-warp victim tags).
    pub miss_classes: MissClassCounts,
    /// Reads the bypass policy sent straight to DRAM.
    pub bypassed: u64,
    /// Requests that looked up the L2 under a no-allocate decision.
    pub no_allocate: u64,
    /// L2 cycles from arrival at the partition to tag lookup, per request.
    pub queue_latency: Histogram,
}

impl Default for L2Stats {
    fn default() -> Self {
        Self {
            reads: 0,
            read_hits: 0,
            pending_hits: 0,
            read_misses: 0,
            writes: 0,
            write_hits: 0,
            fills: 0,
            evictions: 0,
            writebacks: 0,
            write_fetches: 0,
            rsfail: L2RsFail::default(),
            miss_classes: MissClassCounts::default(),
            bypassed: 0,
            no_allocate: 0,
            queue_latency: Histogram::new(4, 64),
        }
    }
}

impl L2Stats {
    pub fn record_lookup(&mut self, req: &MemReq, now: u64) {
        self.queue_latency.add(now.saturating_sub(req.t_l2_arrive));
    }

    pub fn merge(&mut self, o: &L2Stats) {
        self.reads += o.reads;
        self.read_hits += o.read_hits;
        self.pending_hits += o.pending_hits;
        self.read_misses += o.read_misses;
        self.writes += o.writes;
        self.write_hits += o.write_hits;
        self.fills += o.fills;
        self.evictions += o.evictions;
        self.writebacks += o.writebacks;
        self.write_fetches += o.write_fetches;
        self.rsfail.mshr += o.rsfail.mshr;
        self.rsfail.dram_queue += o.rsfail.dram_queue;
        self.rsfail.response += o.rsfail.response;
        self.miss_classes.merge(&o.miss_classes);
        self.bypassed += o.bypassed;
        self.no_allocate += o.no_allocate;
        self.queue_latency.merge(&o.queue_latency);
    }

    pub fn accesses(&self) -> u64 {
        self.reads + self.writes
    }

    pub fn hits(&self) -> u64 {
        self.read_hits + self.write_hits
    }
}

/// Per dynamic warp: L2 read accesses and hits (MeDiC's per-warp hit ratio).
#[derive(Debug, Clone, Default)]
pub struct WarpL2Counters {
    pub accesses: Vec<u32>,
    pub hits: Vec<u32>,
}

impl WarpL2Counters {
    pub fn record(&mut self, warp: u32, hit: bool) {
        let w = warp as usize;
        if w >= self.accesses.len() {
            self.accesses.resize(w + 1, 0);
            self.hits.resize(w + 1, 0);
        }
        self.accesses[w] += 1;
        self.hits[w] += hit as u32;
    }

    /// Adds another count of the same warps (a sampled run's pieces).
    pub fn merge(&mut self, o: &WarpL2Counters) {
        if o.accesses.len() > self.accesses.len() {
            self.accesses.resize(o.accesses.len(), 0);
            self.hits.resize(o.accesses.len(), 0);
        }
        for (i, (&a, &h)) in o.accesses.iter().zip(&o.hits).enumerate() {
            self.accesses[i] += a;
            self.hits[i] += h;
        }
    }

    /// The counts since `earlier`, an earlier count of the same warps (a sampled run's
    /// detailed stretch).
    pub fn since(&self, earlier: &WarpL2Counters) -> WarpL2Counters {
        let before = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
        WarpL2Counters {
            accesses: self.accesses.iter().enumerate().map(|(i, &a)| a - before(&earlier.accesses, i)).collect(),
            hits: self.hits.iter().enumerate().map(|(i, &h)| h - before(&earlier.hits, i)).collect(),
        }
    }

    /// Takes away counts this includes (`since`'s result for a stretch of this run).
    pub fn remove(&mut self, o: &WarpL2Counters) {
        for (i, (&a, &h)) in o.accesses.iter().zip(&o.hits).enumerate() {
            self.accesses[i] -= a;
            self.hits[i] -= h;
        }
    }
}
