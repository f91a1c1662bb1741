//! Minimum Efficient Row Burst (SC'14 §IV-D): how many row hits a bank should serve
//! before a row miss may close its row, so the miss's tRTP + tRP + tRCD is hidden behind
//! data transfers of the other banks with work. Indexed by the number of such banks.

use crate::config::DramTiming;

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
    /// Row hits scheduled to each bank since its row was opened (5-bit, saturating).
    hits: Vec<u32>,
}

impl Merb {
    pub fn new(t: &DramTiming, banks: u32) -> Self {
        Self { table: MerbTable::new(t, banks), hits: vec![0; banks.max(1) as usize] }
    }

    pub fn note_scheduled(&mut self, bank: u32, row_hit: bool) {
        if let Some(h) = self.hits.get_mut(bank as usize) {
            *h = if row_hit { (*h + 1).min(MERB_MAX) } else { 0 };
        }
    }

    /// Whether a row miss to `bank` must wait while `pending_hits` row hits to its open
    /// row wait, with `busy_banks` banks having work: until the bank served MERB hits,
    /// and past that while only one or two hits would be left orphaned (at most MERB + 2).
    pub fn postpone(&self, bank: u32, pending_hits: usize, busy_banks: usize) -> bool {
        if pending_hits == 0 {
            return false;
        }
        let served = self.hits.get(bank as usize).copied().unwrap_or(MERB_MAX);
        let merb = self.table.get(busy_banks);
        served < merb || (pending_hits <= 2 && served < (merb + 2).min(MERB_MAX))
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
        let mut m = Merb::new(&cfg.dram.timing, 16);
        assert!(m.postpone(3, 5, 4), "0 of MERB(4) = 7 hits served");
        for _ in 0..7 {
            m.note_scheduled(3, true);
        }
        assert!(!m.postpone(3, 5, 4), "burst served, three hits would remain");
        assert!(m.postpone(3, 2, 4), "orphan control: serve the last two");
        m.note_scheduled(3, true);
        m.note_scheduled(3, true);
        assert!(!m.postpone(3, 1, 4), "at most MERB + 2");
        m.note_scheduled(3, false);
        assert!(m.postpone(3, 1, 4));
        assert!(!m.postpone(3, 0, 4));
    }
}
