//! The warp-load table: one entry per in-flight load instruction, gathering the
//! return times of its requests so latency and divergence are measured per warp-load.

use super::latency::LoadStats;
use crate::kernels::RegMask;
use crate::mem::MemReq;

#[derive(Debug, Clone, Default)]
pub struct WarpLoad {
    pub slot: usize,
    pub dst: RegMask,
    requests: u32,
    remaining: u32,
    t_issue: u64,
    first: u64,
    last: u64,
    dram_n: u32,
    dram_first: u64,
    dram_last: u64,
    /// Requests answered by the L2 (hit), for the inter-bank divergence of all-hit loads.
    l2_hits: u32,
    l2_hit_first: u64,
    l2_hit_last: u64,
    /// Requests that left the SM.
    went_out: u32,
    partitions: u64,
    /// Channels of the DRAM-served requests.
    dram_channels: u64,
    /// Distinct (channel, bank) pairs of the DRAM-served requests (at most one per request).
    dram_banks: Vec<(u16, u32)>,
}

/// Low bits of a warp-load id: its slab index; the high bits count the slot's reuses,
/// so a DRAM controller that still remembers a finished warp-load (its warp-group tag)
/// does not take the slot's next warp-load for it.
const INDEX_BITS: u32 = 16;
const INDEX_MASK: u32 = (1 << INDEX_BITS) - 1;
/// Generations wrap below `NO_WARP_LOAD`.
const GENERATIONS: u32 = 1 << (31 - INDEX_BITS);

/// A slab of warp-loads with a free list; ids (index and generation) travel in
/// `MemReq::warp_load`.
#[derive(Clone, Debug, Default)]
pub struct WarpLoadTable {
    entries: Vec<WarpLoad>,
    /// Generation of each slab entry's current warp-load.
    generation: Vec<u32>,
    free: Vec<u32>,
}

impl WarpLoadTable {
    pub fn open(&mut self, slot: usize, dst: RegMask, requests: u32, now: u64) -> u32 {
        let e = WarpLoad { slot, dst, requests, remaining: requests, t_issue: now, ..Default::default() };
        let i = match self.free.pop() {
            Some(i) => {
                self.entries[i as usize] = e;
                let g = &mut self.generation[i as usize];
                *g = (*g + 1) % GENERATIONS;
                i
            }
            None => {
                self.entries.push(e);
                self.generation.push(0);
                (self.entries.len() - 1) as u32
            }
        };
        debug_assert!(i <= INDEX_MASK, "more warp-loads in flight than ids");
        i | (self.generation[i as usize] << INDEX_BITS)
    }

    /// Records one returned request (served, if by DRAM, in `bank`) at core cycle `now`; when it is the load's last,
    /// closes the entry, reports it to `stats` and returns (warp slot, register).
    pub fn complete(
        &mut self,
        req: &MemReq,
        bank: u32,
        now: u64,
        left_sm: bool,
        stats: &mut LoadStats,
    ) -> Option<(usize, RegMask)> {
        let index = req.warp_load & INDEX_MASK;
        let e = &mut self.entries[index as usize];
        if e.remaining == e.requests {
            e.first = now;
        }
        e.last = e.last.max(now);
        if left_sm {
            e.went_out += 1;
            e.partitions |= 1 << (req.partition % 64);
            stats.request_latency.add(now - req.t_issue);
            let trip = if req.dram_served { &mut stats.trip_dram } else { &mut stats.trip_l2_hit };
            trip.add(req, now);
            if req.dram_served {
                if e.dram_n == 0 {
                    e.dram_first = now;
                }
                e.dram_n += 1;
                e.dram_last = now;
                e.dram_channels |= 1 << (req.partition % 64);
                if !e.dram_banks.contains(&(req.partition, bank)) {
                    e.dram_banks.push((req.partition, bank));
                }
            } else if req.l2_hit {
                if e.l2_hits == 0 {
                    e.l2_hit_first = now;
                }
                e.l2_hits += 1;
                e.l2_hit_last = now;
            }
        }
        e.remaining -= 1;
        if e.remaining > 0 {
            return None;
        }
        let e = std::mem::take(e);
        self.free.push(index);
        stats.record_warp_load(&WarpLoadSummary {
            requests: e.requests,
            latency: e.last - e.t_issue,
            divergence: e.last - e.first,
            dram_requests: e.dram_n,
            dram_divergence: e.dram_last - e.dram_first,
            all_l2_hits: e.went_out >= 2 && e.l2_hits == e.went_out,
            l2_hit_divergence: e.l2_hit_last - e.l2_hit_first,
            channels: e.partitions.count_ones(),
            dram_channels: e.dram_channels.count_ones(),
            dram_banks: e.dram_banks.len() as u32,
        });
        Some((e.slot, e.dst))
    }

    pub fn in_flight(&self) -> usize {
        self.entries.len() - self.free.len()
    }
}

/// What a finished warp-load contributes to the statistics (core cycles).
#[derive(Debug, Clone, Copy)]
pub struct WarpLoadSummary {
    pub requests: u32,
    pub latency: u64,
    pub divergence: u64,
    pub dram_requests: u32,
    pub dram_divergence: u64,
    pub all_l2_hits: bool,
    pub l2_hit_divergence: u64,
    pub channels: u32,
    /// Channels and banks its DRAM-served requests went to.
    pub dram_channels: u32,
    pub dram_banks: u32,
}
