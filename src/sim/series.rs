//! IPC and L2 hit rate over the run, sampled every `stats.sample_interval` core
//! cycles. At `MAX_POINTS` samples, neighbours are merged and the interval doubles,
//! so long runs keep a bounded, evenly spaced series.

use serde::Serialize;

const MAX_POINTS: usize = 512;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Series {
    /// Core cycles between samples.
    pub interval: u64,
    /// Core cycle at the end of each sample window.
    pub cycle: Vec<u64>,
    /// Warp instructions per core cycle within each window.
    pub ipc: Vec<f64>,
    /// L2 read hits over L2 reads within each window (0 when there were none).
    pub l2_hit_rate: Vec<f64>,
    #[serde(skip)]
    acc: Vec<(u64, u64, u64, u64)>,
    #[serde(skip)]
    last: (u64, u64, u64, u64),
}

impl Series {
    pub fn new(interval: u64) -> Self {
        Self {
            interval,
            cycle: Vec::new(),
            ipc: Vec::new(),
            l2_hit_rate: Vec::new(),
            acc: Vec::new(),
            last: (0, 0, 0, 0),
        }
    }

    #[inline]
    pub fn due(&self, now: u64) -> bool {
        now >= self.last.0 + self.interval
    }

    /// The running totals start again from zero (a sampled window's measurement resets
    /// the statistics they are read from); the open window keeps its start.
    pub fn restart_totals(&mut self) {
        (self.last.1, self.last.2, self.last.3) = (0, 0, 0);
    }

    /// Closes every window that ends at or before `now`, given running totals. Windows
    /// end exactly on multiples of the interval; one crossed by an idle skip sees the
    /// totals unchanged, since nothing happened while skipping.
    pub fn sample_through(&mut self, now: u64, warp_instr: u64, l2_reads: u64, l2_hits: u64) {
        while self.due(now) {
            let end = self.last.0 + self.interval;
            self.sample(end, warp_instr, l2_reads, l2_hits);
        }
    }

    fn sample(&mut self, now: u64, warp_instr: u64, l2_reads: u64, l2_hits: u64) {
        let (c0, w0, a0, h0) = self.last;
        self.push(now, warp_instr - w0, now - c0, l2_reads - a0, l2_hits - h0);
        self.last = (now, warp_instr, l2_reads, l2_hits);
        if self.cycle.len() >= MAX_POINTS {
            self.halve();
        }
    }

    fn push(&mut self, now: u64, wi: u64, cycles: u64, reads: u64, hits: u64) {
        self.cycle.push(now);
        self.ipc.push(if cycles == 0 { 0.0 } else { wi as f64 / cycles as f64 });
        self.l2_hit_rate.push(if reads == 0 { 0.0 } else { hits as f64 / reads as f64 });
        self.acc.push((wi, cycles, reads, hits));
    }

    fn halve(&mut self) {
        let acc = std::mem::take(&mut self.acc);
        let cycles = std::mem::take(&mut self.cycle);
        self.ipc.clear();
        self.l2_hit_rate.clear();
        for (i, pair) in acc.chunks(2).enumerate() {
            let wi: u64 = pair.iter().map(|p| p.0).sum();
            let cy: u64 = pair.iter().map(|p| p.1).sum();
            let reads: u64 = pair.iter().map(|p| p.2).sum();
            let hits: u64 = pair.iter().map(|p| p.3).sum();
            let end = cycles[(2 * i + pair.len() - 1).min(cycles.len() - 1)];
            self.push(end, wi, cy, reads, hits);
        }
        self.interval *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_report_interval_rates_and_halve_when_full() {
        let mut s = Series::new(10);
        assert!(!s.due(9) && s.due(10));
        s.sample_through(10, 20, 4, 1);
        s.sample_through(25, 50, 8, 4);
        assert_eq!(s.ipc, vec![2.0, 3.0]);
        assert_eq!(s.l2_hit_rate, vec![0.25, 0.75]);
        let mut s = Series::new(1);
        for c in 1..=MAX_POINTS as u64 {
            s.sample_through(c, c, 0, 0);
        }
        assert_eq!(s.cycle.len(), MAX_POINTS / 2);
        assert_eq!(s.interval, 2);
        assert!(s.ipc.iter().all(|&x| (x - 1.0).abs() < 1e-12));
        assert_eq!(*s.cycle.last().unwrap(), MAX_POINTS as u64);
    }
}
