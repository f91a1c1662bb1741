//! Minimum Efficient Row Burst (SC'14 §IV-D): how many row hits a bank should serve
//! before a row miss may close its row, so the miss's tRTP + tRP + tRCD is hidden behind
//! data transfers of the other banks with work. Indexed by the number of such banks.
//!
//! The paper counts data transfers of tBURST, one per request on its machine; a request
//! here may move several bursts (a 128 B line is two of 64 B), so the counters count
//! bursts and orphan control allows two more requests' worth.

use crate::dram::config::{DramConfig, DramTiming};
use crate::dram::timing::bursts;

/// The limit of the paper's 5-bit per-bank row-hit counter.
pub const MERB_MAX: u32 = 31;

/// MERB for 1..=`banks` banks with pending work, computed from the timings at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MerbTable(Vec<u32>);

impl MerbTable {
    pub fn new(t: &DramTiming, banks: u32) -> Self {
        let burst = t.t_burst.max(1);
        let switch = t.t_rtp + t.t_rp + t.t_rcd;
        // max(tRRD, tFAW / 4) / tBURST, rounded up without leaving integers.
        let act_rate = (4 * t.t_rrd).max(t.t_faw).div_ceil(4 * burst);
        let table = (1..=banks.max(1))
            .map(|b| if b == 1 { MERB_MAX } else { switch.div_ceil((b - 1) * burst).max(act_rate).min(MERB_MAX) })
            .collect();
        Self(table)
    }

    /// MERB with `pending` banks having work (clamped to 1..=banks).
    pub fn get(&self, pending: usize) -> u32 {
        self.0[pending.clamp(1, self.0.len()) - 1]
    }
}

/// Per-bank row-hit counters and the postponement rule of WG-Bw.
#[derive(Debug, Clone)]
pub struct Merb {
    table: MerbTable,
    burst_bytes: u32,
    /// Row-hit bursts scheduled to each bank since its row was opened (5-bit, saturating).
    hits: Vec<u32>,
}

impl Merb {
    pub fn new(d: &DramConfig) -> Self {
        let table = MerbTable::new(&d.timing, d.banks);
        Self { table, burst_bytes: d.burst_bytes, hits: vec![0; d.banks.max(1) as usize] }
    }

    /// Data transfers (bursts) of a request moving `bytes`.
    pub fn transfers(&self, bytes: u32) -> u32 {
        bursts(bytes, self.burst_bytes)
    }

    pub fn note_scheduled(&mut self, bank: u32, row_hit: bool, bytes: u32) {
        let n = self.transfers(bytes);
        if let Some(h) = self.hits.get_mut(bank as usize) {
            *h = if row_hit { (*h + n).min(MERB_MAX) } else { 0 };
        }
    }

    /// Whether a row miss to `bank` must wait while `pending_hits` row hits (of `bytes`
    /// each) to its open row wait, with `busy_banks` banks having work: until the bank
    /// served MERB transfers, and past that while only one or two hits would be left
    /// orphaned (at most MERB + two requests).
    pub fn postpone(&self, bank: u32, pending_hits: usize, bytes: u32, busy_banks: usize) -> bool {
        if pending_hits == 0 {
            return false;
        }
        let served = self.hits.get(bank as usize).copied().unwrap_or(MERB_MAX);
        let merb = self.table.get(busy_banks);
        let cap = (merb + 2 * self.transfers(bytes)).min(MERB_MAX);
        served < merb || (pending_hits <= 2 && served < cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    #[test]
    fn merb_table_from_sc14_gddr5_timings() {
        let cfg = preset("sc14-gtx480").unwrap();
        let t = MerbTable::new(&cfg.dram.timing, cfg.dram.banks);
        let got: Vec<u32> = (1..=16).map(|b| t.get(b)).collect();
        assert_eq!(&got[..6], &[31, 20, 10, 7, 5, 5]);
        assert!(got[6..].iter().all(|&m| m == 5), "{got:?}");
    }

    #[test]
    fn merb_postpones_a_miss_until_the_burst_and_orphans_are_served() {
        let cfg = preset("sc14-gtx480").unwrap();
        let mut m = Merb::new(&cfg.dram);
        // 128 B requests are two 64 B bursts: MERB(4) = 7 transfers takes four hits.
        assert_eq!(m.transfers(128), 2);
        assert!(m.postpone(3, 5, 128, 4), "0 of MERB(4) = 7 transfers served");
        for _ in 0..4 {
            assert!(m.postpone(3, 5, 128, 4) || m.hits[3] >= 7);
            m.note_scheduled(3, true, 128);
        }
        assert!(!m.postpone(3, 5, 128, 4), "burst served, three hits would remain");
        assert!(m.postpone(3, 2, 128, 4), "orphan control: serve the last two");
        m.note_scheduled(3, true, 128);
        m.note_scheduled(3, true, 128);
        assert!(!m.postpone(3, 1, 128, 4), "at most MERB + two requests");
        m.note_scheduled(3, false, 128);
        assert!(m.postpone(3, 1, 128, 4));
        assert!(!m.postpone(3, 0, 128, 4));
    }
}
