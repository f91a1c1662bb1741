//! Shared helpers for the DRAM tests: a cycle-by-cycle probe around one channel, and
//! a protocol checker that replays a command log against every timing constraint.

#![allow(dead_code)]

use warpscope::config::{preset, Config};
use warpscope::dram::{CommandRecord, DramChannel, DramCommand};
use warpscope::mem::{AccessKind, MemReq};

/// `sc14-gtx480`'s channel with each request one column command, so a probe sees one RD
/// or WR per request (`sc14_bursts` keeps the preset's command per 64 B burst).
pub fn sc14() -> Config {
    let mut cfg = sc14_bursts();
    cfg.dram.column_command = warpscope::config::ColumnCommand::Line;
    cfg
}

pub fn sc14_bursts() -> Config {
    preset("sc14-gtx480").unwrap()
}

/// One channel ticked every cycle, recording each read's completion cycle.
pub struct Probe {
    pub ch: DramChannel,
    pub now: u64,
    next_id: u64,
    /// (request id, cycle `pop_done` first returned it)
    pub done: Vec<(u64, u64)>,
}

impl Probe {
    pub fn new(cfg: &Config) -> Self {
        let mut ch = DramChannel::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, 0);
        ch.set_command_log(true);
        Self { ch, now: 0, next_id: 1, done: Vec::new() }
    }

    /// Pushes a request for (bank, row, byte column) now; returns its id.
    pub fn push(&mut self, kind: AccessKind, bank: u32, row: u32, col: u32, bytes: u32) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let mut req = MemReq::new(id, 0, kind, bytes);
        req.local = self.ch.address_map().encode(bank, row, col);
        assert!(self.ch.can_accept(kind));
        self.ch.push(req, self.now);
        id
    }

    pub fn read(&mut self, bank: u32, row: u32, col: u32) -> u64 {
        self.push(AccessKind::Read, bank, row, col, 128)
    }

    pub fn write(&mut self, bank: u32, row: u32, col: u32) -> u64 {
        self.push(AccessKind::Write, bank, row, col, 128)
    }

    /// One cycle: tick, then collect completed reads.
    pub fn step(&mut self) {
        self.ch.tick(self.now);
        while let Some(r) = self.ch.pop_done(self.now) {
            assert!(r.dram_served);
            self.done.push((r.id, self.now));
        }
        self.now += 1;
    }

    pub fn run(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step();
        }
    }

    pub fn run_until_empty(&mut self) {
        let limit = self.now + 100_000;
        while !self.ch.is_empty() {
            assert!(self.now < limit, "channel never drained: {}", self.ch.describe());
            self.step();
        }
    }

    /// Runs until a command of `cmd` kind for request `id` (or any, for None) is logged.
    pub fn run_until(&mut self, cmd: DramCommand, id: Option<u64>) -> CommandRecord {
        let limit = self.now + 100_000;
        loop {
            if let Some(r) = self.ch.command_log().iter().find(|r| r.cmd == cmd && (id.is_none() || r.req == id)) {
                return *r;
            }
            assert!(self.now < limit, "no {cmd:?} issued");
            self.step();
        }
    }

    pub fn cmds(&self, cmd: DramCommand) -> Vec<CommandRecord> {
        self.ch.command_log().iter().filter(|r| r.cmd == cmd).copied().collect()
    }

    /// The column command (RD or WR) that served request `id`.
    pub fn col_of(&self, id: u64) -> CommandRecord {
        *self.ch.command_log().iter().find(|r| r.req == Some(id)).expect("request was never served")
    }

    pub fn done_at(&self, id: u64) -> u64 {
        self.done.iter().find(|d| d.0 == id).expect("read never completed").1
    }
}

/// Replays `log` and asserts that no command broke a timing rule of `cfg` or the bank
/// state machine (columns only to the open row, ACT only to a closed bank, REF only
/// with every bank closed), and that the data bus never carried two bursts at once.
pub fn check_protocol(cfg: &Config, log: &[CommandRecord]) {
    let t = &cfg.dram.timing;
    let (rcd, rp, ras, rc) = (t.t_rcd as u64, t.t_rp as u64, t.t_ras as u64, t.t_rc as u64);
    let groups = cfg.dram.bank_groups;
    let banks = cfg.dram.banks as usize;
    let mut open: Vec<Option<u32>> = vec![None; banks];
    let mut last_act: Vec<Option<u64>> = vec![None; banks];
    let mut last_pre: Vec<Option<u64>> = vec![None; banks];
    let mut pre_after: Vec<u64> = vec![0; banks];
    let mut acts: Vec<u64> = Vec::new();
    let mut last_col: Option<u64> = None;
    let mut group_col: Vec<Option<u64>> = vec![None; groups as usize];
    let (mut bus_free, mut rd_after, mut wr_after) = (0u64, 0u64, 0u64);
    let mut ref_end = 0u64;
    let mut prev_at: Option<u64> = None;
    for r in log {
        let ctx = format!("{r:?}");
        if let Some(p) = prev_at {
            assert!(r.at > p, "two commands in one cycle: {ctx}");
        }
        prev_at = Some(r.at);
        let b = r.bank.map(|b| b as usize);
        match r.cmd {
            DramCommand::Act => {
                let b = b.unwrap();
                assert!(open[b].is_none(), "ACT to an open bank: {ctx}");
                assert!(r.at >= ref_end, "ACT during refresh: {ctx}");
                if let Some(a) = last_act[b] {
                    assert!(r.at >= a + rc, "tRC: {ctx}");
                }
                if let Some(p) = last_pre[b] {
                    assert!(r.at >= p + rp, "tRP: {ctx}");
                }
                if let Some(&a) = acts.last() {
                    assert!(r.at >= a + t.t_rrd as u64, "tRRD: {ctx}");
                }
                if acts.len() >= 4 {
                    assert!(r.at >= acts[acts.len() - 4] + t.t_faw as u64, "tFAW: {ctx}");
                }
                acts.push(r.at);
                open[b] = Some(r.row);
                last_act[b] = Some(r.at);
                pre_after[b] = pre_after[b].max(r.at + ras);
            }
            DramCommand::Pre => {
                let b = b.unwrap();
                assert!(open[b].is_some(), "PRE to a closed bank: {ctx}");
                assert!(r.at >= pre_after[b], "tRAS/tRTP/tWR: {ctx}");
                open[b] = None;
                last_pre[b] = Some(r.at);
            }
            DramCommand::Rd | DramCommand::Wr => {
                let b = b.unwrap();
                let write = r.cmd == DramCommand::Wr;
                assert_eq!(open[b], Some(r.row), "column to a row that is not open: {ctx}");
                assert!(r.at >= last_act[b].unwrap() + rcd, "tRCD: {ctx}");
                let g = b % groups as usize;
                if let Some(c) = last_col {
                    assert!(r.at >= c + t.t_ccds as u64, "tCCDS: {ctx}");
                }
                if let Some(c) = group_col[g] {
                    assert!(r.at >= c + t.t_ccdl as u64, "tCCDL: {ctx}");
                }
                let start = r.at + if write { t.t_wl } else { t.t_cl } as u64;
                let end = r.data_done.unwrap();
                assert!(start >= bus_free, "data bus overlap: {ctx}");
                assert!(end > start);
                if write {
                    assert!(r.at >= wr_after, "tRTW: {ctx}");
                    rd_after = rd_after.max(end + t.t_wtr as u64);
                    pre_after[b] = pre_after[b].max(end + t.t_wr as u64);
                } else {
                    assert!(r.at >= rd_after, "tWTR: {ctx}");
                    wr_after = wr_after.max(r.at + t.t_rtw as u64);
                    pre_after[b] = pre_after[b].max(r.at + t.t_rtp as u64);
                }
                bus_free = end;
                last_col = Some(r.at);
                group_col[g] = Some(r.at);
            }
            DramCommand::Ref => {
                assert!(open.iter().all(|o| o.is_none()), "REF with an open bank: {ctx}");
                for b in 0..banks {
                    if let Some(p) = last_pre[b] {
                        assert!(r.at >= p + rp, "tRP before REF: {ctx}");
                    }
                    if let Some(a) = last_act[b] {
                        assert!(r.at >= a + rc, "tRC before REF: {ctx}");
                    }
                }
                ref_end = r.at + t.t_rfc as u64;
            }
        }
    }
}
