//! Channel-wide timing state: the constraints shared by all banks (tRRD, tFAW, tCCD,
//! data bus, read/write turnaround). Each is kept as "earliest legal cycle", so checking
//! a command and predicting when it becomes legal are the same computation.

use super::config::DramConfig;

/// Timing parameters in DRAM cycles, widened once for cycle arithmetic.
#[derive(Debug, Clone)]
pub(crate) struct Params {
    pub rcd: u64,
    pub rp: u64,
    pub ras: u64,
    pub rc: u64,
    pub cl: u64,
    pub wl: u64,
    pub ccds: u64,
    pub ccdl: u64,
    pub rrd: u64,
    pub faw: u64,
    pub wtr: u64,
    pub rtw: u64,
    pub rtp: u64,
    pub wr: u64,
    pub burst: u64,
    /// 0 disables refresh.
    pub refi: u64,
    pub rfc: u64,
    burst_bytes: u64,
}

impl Params {
    pub fn new(d: &DramConfig) -> Self {
        let t = &d.timing;
        Self {
            rcd: t.t_rcd as u64,
            rp: t.t_rp as u64,
            ras: t.t_ras as u64,
            rc: t.t_rc as u64,
            cl: t.t_cl as u64,
            wl: t.t_wl as u64,
            ccds: t.t_ccds as u64,
            ccdl: t.t_ccdl as u64,
            rrd: t.t_rrd as u64,
            faw: t.t_faw as u64,
            wtr: t.t_wtr as u64,
            rtw: t.t_rtw as u64,
            rtp: t.t_rtp as u64,
            wr: t.t_wr as u64,
            burst: t.t_burst as u64,
            refi: t.t_refi as u64,
            rfc: t.t_rfc as u64,
            burst_bytes: d.burst_bytes.max(1) as u64,
        }
    }

    /// Data-bus cycles of one column command moving `bytes` (at least one burst).
    pub fn bus_cycles(&self, bytes: u32) -> u64 {
        bursts(bytes, self.burst_bytes as u32) as u64 * self.burst.max(1)
    }
}

/// Bursts (data transfers of tBURST) a column command moving `bytes` takes: at least one.
pub(crate) fn bursts(bytes: u32, burst_bytes: u32) -> u32 {
    bytes.div_ceil(burst_bytes.max(1)).max(1)
}

/// Earliest legal cycles of commands, as far as channel-wide constraints go.
#[derive(Debug, Clone)]
pub(crate) struct ChannelTiming {
    /// Last four ACT cycles (ring, `faw_next` is the oldest) for tFAW.
    acts: [u64; 4],
    faw_next: usize,
    acts_seen: usize,
    act_rrd: u64,
    col_any: u64,
    col_group: Vec<u64>,
    /// Cycle after the last data beat on the bus.
    pub bus_free: u64,
    rd_wtr: u64,
    wr_rtw: u64,
}

impl ChannelTiming {
    pub fn new(bank_groups: u32) -> Self {
        Self {
            acts: [0; 4],
            faw_next: 0,
            acts_seen: 0,
            act_rrd: 0,
            col_any: 0,
            col_group: vec![0; bank_groups.max(1) as usize],
            bus_free: 0,
            rd_wtr: 0,
            wr_rtw: 0,
        }
    }

    /// Earliest ACT to any bank: tRRD after the last ACT, tFAW after the fourth-last.
    pub fn act_ready(&self, p: &Params) -> u64 {
        let faw = if self.acts_seen < 4 { 0 } else { self.acts[self.faw_next] + p.faw };
        self.act_rrd.max(faw)
    }

    fn col_ready(&self, group: u32) -> u64 {
        let g = self.col_group.get(group as usize).copied().unwrap_or(0);
        self.col_any.max(g)
    }

    /// Earliest RD: tCCD, tWTR, and its data may not start before the bus is free.
    pub fn rd_ready(&self, p: &Params, group: u32) -> u64 {
        self.col_ready(group).max(self.rd_wtr).max(self.bus_free.saturating_sub(p.cl))
    }

    /// Earliest WR: tCCD, tRTW, and its data may not start before the bus is free.
    pub fn wr_ready(&self, p: &Params, group: u32) -> u64 {
        self.col_ready(group).max(self.wr_rtw).max(self.bus_free.saturating_sub(p.wl))
    }

    pub fn record_act(&mut self, p: &Params, now: u64) {
        self.acts[self.faw_next] = now;
        self.faw_next = (self.faw_next + 1) % 4;
        self.acts_seen = (self.acts_seen + 1).min(4);
        self.act_rrd = now + p.rrd;
    }

    /// A column command issued at `now`; returns the cycle after its last data beat.
    pub fn record_col(&mut self, p: &Params, now: u64, group: u32, write: bool, bus: u64) -> u64 {
        self.col_any = now + p.ccds;
        if let Some(g) = self.col_group.get_mut(group as usize) {
            *g = now + p.ccdl;
        }
        let start = now + if write { p.wl } else { p.cl };
        self.bus_free = start + bus;
        if write {
            self.rd_wtr = self.rd_wtr.max(self.bus_free + p.wtr);
        } else {
            self.wr_rtw = self.wr_rtw.max(now + p.rtw);
        }
        self.bus_free
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;

    fn params() -> Params {
        Params::new(&preset("sc14-gtx480").unwrap().dram)
    }

    #[test]
    fn bus_cycles_round_up_to_bursts() {
        let p = params();
        assert_eq!(p.bus_cycles(128), 4);
        assert_eq!(p.bus_cycles(64), 2);
        assert_eq!(p.bus_cycles(65), 4);
        assert_eq!(p.bus_cycles(0), 2);
    }

    #[test]
    fn faw_window_counts_the_fourth_last_act() {
        let p = params();
        let mut c = ChannelTiming::new(4);
        for t in [0, 9, 18, 27] {
            assert!(c.act_ready(&p) <= t);
            c.record_act(&p, t);
        }
        assert_eq!(c.act_ready(&p), 36.max(p.faw));
        c.record_act(&p, 40);
        assert_eq!(c.act_ready(&p), (9 + p.faw).max(40 + p.rrd));
    }

    #[test]
    fn ccd_depends_on_bank_group() {
        let p = params();
        let mut c = ChannelTiming::new(4);
        c.record_col(&p, 100, 1, false, 2);
        assert_eq!(c.rd_ready(&p, 1), 103);
        assert_eq!(c.rd_ready(&p, 2), 102);
        assert_eq!(c.wr_ready(&p, 2), 100 + p.rtw);
    }
}
