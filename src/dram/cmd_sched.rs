//! The command scheduler: owns the banks, issues at most one command per cycle, in
//! queue order within a bank, and enforces every timing constraint.
//!
//! Banks are visited GDDR5 style (SC'14 §II-C): round robin over bank groups first, then
//! over the banks of a group, so consecutive column commands tend to alternate groups
//! and pay tCCDS rather than tCCDL. The first bank whose head command is legal issues.
//!
//! Refresh (when `t_refi > 0`): from its due cycle no ACT issues; open banks are
//! precharged (after a head that already spent its ACT gets its column access), then a
//! REF blocks all banks for tRFC and the next refresh is due tREFI after it.

use super::bank::{Bank, Txn};
use super::command::{CommandRecord, DramCommand};
use super::config::{ColumnCommand, DramConfig};
use super::sched::{BankView, QueuedReq, HIT_SCORE, MISS_SCORE};
use super::stats::DramStats;
use super::timing::{bursts, ChannelTiming, Params};
use crate::mem::MemReq;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Act,
    Pre,
    Col,
}

/// A read whose data is complete at `done`.
pub(crate) struct ReadDone {
    pub done: u64,
    pub req: MemReq,
}

#[derive(Debug, Clone)]
pub(crate) struct CommandScheduler {
    banks: Vec<Bank>,
    /// Mirror of each bank's `view()`, kept in sync so policies get a plain slice.
    views: Vec<BankView>,
    queued: usize,
    p: Params,
    /// Each burst of a request is its own column command (`dram.column_command = burst`).
    per_burst: bool,
    burst_bytes: u32,
    chan: ChannelTiming,
    groups: usize,
    per_group: usize,
    rr_group: usize,
    rr_bank: Vec<usize>,
    refresh_due: u64,
    /// Cycle of the last command issued, so replayed refresh commands come after it.
    last_issue: Option<u64>,
    /// Cycles `[from, until)` in which `step` is known to issue nothing: set when a step
    /// finds no legal command (from `next_event`, exact per bank), cleared by every change
    /// of bank or channel state. A lightly loaded channel waits out tRCD, tRP or the bus
    /// for many cycles, and rescanning its banks each of them is most of its cost.
    quiet: (u64, u64),
    pub log: Option<Vec<CommandRecord>>,
}

impl CommandScheduler {
    pub fn new(d: &DramConfig) -> Self {
        let banks = d.banks.max(1) as usize;
        let groups = (d.bank_groups as usize).clamp(1, banks);
        let p = Params::new(d);
        Self {
            banks: vec![Bank::default(); banks],
            views: vec![BankView::default(); banks],
            queued: 0,
            refresh_due: p.refi,
            last_issue: None,
            quiet: (0, 0),
            p,
            per_burst: d.column_command == ColumnCommand::Burst,
            burst_bytes: d.burst_bytes,
            chan: ChannelTiming::new(groups as u32),
            groups,
            per_group: banks.div_ceil(groups),
            rr_group: 0,
            rr_bank: vec![0; groups],
            log: None,
        }
    }

    pub fn views(&self) -> &[BankView] {
        &self.views
    }

    /// No transaction waits in any command queue.
    pub fn idle(&self) -> bool {
        self.queued == 0
    }

    pub fn queue_lens(&self) -> impl Iterator<Item = usize> + '_ {
        self.banks.iter().map(|b| b.cmdq.len())
    }

    /// Functional warming: the bank's row buffer holds `row`, if no command waits on it.
    pub fn warm_row(&mut self, bank: usize, row: u32) {
        if let Some(b) = self.banks.get_mut(bank).filter(|b| b.cmdq.is_empty()) {
            b.open_row = Some(row);
            self.views[bank] = b.view();
            self.quiet = (0, 0);
        }
    }

    /// Appends a scheduled request to its bank's command queue (the caller checked room).
    pub fn enqueue(&mut self, q: QueuedReq) {
        let b = q.coord.bank as usize;
        if let Some(bank) = self.banks.get_mut(b) {
            let score = if self.views[b].planned_row == Some(q.coord.row) { HIT_SCORE } else { MISS_SCORE };
            bank.score += score;
            let cols_left = if self.per_burst { bursts(q.req.bytes, self.burst_bytes) } else { 1 };
            bank.cmdq.push_back(Txn { q, activated: false, score, cols_left });
            self.views[b] = bank.view();
            self.queued += 1;
            self.quiet = (0, 0);
        }
    }

    /// Zero-divergence bound: data of a read that skips the banks, placed after the
    /// bus's last beat. Returns the cycle after its last beat.
    pub fn reserve_bus(&mut self, now: u64, bytes: u32, stats: &mut DramStats) -> u64 {
        let bus = self.p.bus_cycles(bytes);
        let start = self.chan.bus_free.max(now + 1);
        self.chan.bus_free = start + bus;
        self.quiet = (0, 0);
        stats.data_bus_busy += bus;
        self.chan.bus_free
    }

    fn refreshing(&self, now: u64) -> bool {
        self.p.refi > 0 && now >= self.refresh_due
    }

    /// Cycle REF may issue: all banks closed and past tRP / tRC / a previous tRFC.
    fn ref_ready(&self) -> Option<u64> {
        if self.banks.iter().any(|b| b.open_row.is_some()) {
            return None;
        }
        self.banks.iter().map(|b| b.act_ready).max()
    }

    fn col_ready(&self, bank: &Bank, t: &Txn) -> u64 {
        let g = t.q.coord.bank_group;
        let chan = if t.q.req.is_write() { self.chan.wr_ready(&self.p, g) } else { self.chan.rd_ready(&self.p, g) };
        bank.col_ready.max(chan)
    }

    /// The next command bank `b` wants and the earliest cycle it is legal.
    fn next(&self, b: usize, refreshing: bool) -> Option<(Next, u64)> {
        let bank = &self.banks[b];
        if refreshing {
            if bank.head_waits_on_open_row() {
                let head = bank.cmdq.front()?;
                return Some((Next::Col, self.col_ready(bank, head)));
            }
            return bank.open_row.map(|_| (Next::Pre, bank.pre_ready));
        }
        let head = bank.cmdq.front()?;
        Some(match bank.open_row {
            Some(r) if r == head.q.coord.row => (Next::Col, self.col_ready(bank, head)),
            Some(_) => (Next::Pre, bank.pre_ready),
            None => (Next::Act, bank.act_ready.max(self.chan.act_ready(&self.p))),
        })
    }

    /// Issues at most one command at `now`. Returns whether one issued, and the read it
    /// completed if it was a RD.
    pub fn step(&mut self, now: u64, stats: &mut DramStats) -> (bool, Option<ReadDone>) {
        if (self.quiet.0..self.quiet.1).contains(&now) {
            return (false, None);
        }
        let refreshing = self.refreshing(now);
        if refreshing && self.ref_ready().is_some_and(|t| t <= now) {
            self.issue_ref(now, stats);
            return (true, None);
        }
        // The soonest any bank's head command is legal, found on the way: with nothing to
        // issue, it bounds the quiet stretch without a second scan.
        let mut soonest: Option<u64> = None;
        // Round robin as two ranges from the pointer on: this scan runs every busy DRAM
        // cycle, and the ranges spare it two divisions per bank visited.
        let from = |start: usize, n: usize| (start..n).chain(0..start);
        for g in from(self.rr_group, self.groups) {
            for k in from(self.rr_bank[g], self.per_group) {
                let b = g + k * self.groups;
                if b >= self.banks.len() {
                    continue;
                }
                if let Some((cmd, t)) = self.next(b, refreshing) {
                    if t <= now {
                        self.rr_group = if g + 1 == self.groups { 0 } else { g + 1 };
                        self.rr_bank[g] = if k + 1 == self.per_group { 0 } else { k + 1 };
                        self.quiet = (0, 0);
                        return (true, self.issue(b, cmd, now, stats));
                    }
                    soonest = Some(soonest.map_or(t, |s| s.min(t)));
                }
            }
        }
        // A refresh falling due next cycle changes what the banks want: scan again then.
        let next = if refreshing == self.refreshing(now + 1) {
            self.event_after(now, refreshing, soonest)
        } else {
            self.next_event(now)
        };
        self.quiet = (now + 1, next.unwrap_or(u64::MAX));
        (false, None)
    }

    fn record(
        &mut self,
        at: u64,
        cmd: DramCommand,
        bank: Option<u32>,
        row: u32,
        req: Option<u64>,
        data_done: Option<u64>,
    ) {
        self.last_issue = Some(at);
        if let Some(log) = self.log.as_mut() {
            log.push(CommandRecord { at, cmd, bank, row, req, data_done });
        }
    }

    fn issue(&mut self, b: usize, cmd: Next, now: u64, stats: &mut DramStats) -> Option<ReadDone> {
        let p = &self.p;
        let bank = &mut self.banks[b];
        let mut done = None;
        match cmd {
            Next::Act => {
                let head = bank.cmdq.front_mut()?;
                head.activated = true;
                let row = head.q.coord.row;
                bank.open_row = Some(row);
                bank.col_ready = now + p.rcd;
                bank.pre_ready = bank.pre_ready.max(now + p.ras);
                bank.act_ready = bank.act_ready.max(now + p.rc);
                self.chan.record_act(p, now);
                stats.activates += 1;
                self.record(now, DramCommand::Act, Some(b as u32), row, None, None);
            }
            Next::Pre => {
                let row = bank.open_row.take().unwrap_or(0);
                bank.act_ready = bank.act_ready.max(now + p.rp);
                stats.precharges += 1;
                self.record(now, DramCommand::Pre, Some(b as u32), row, None, None);
            }
            Next::Col if bank.cmdq.front()?.cols_left > 1 => {
                // One burst of a request whose bursts are separate commands; the request
                // stays at the head until its last.
                let head = bank.cmdq.front_mut()?;
                head.cols_left -= 1;
                let (write, group, row, id) =
                    (head.q.req.is_write(), head.q.coord.bank_group, head.q.coord.row, head.q.req.id);
                let end = self.chan.record_col(p, now, group, write, p.burst);
                let after = if write { end + p.wr } else { now + p.rtp };
                bank.pre_ready = bank.pre_ready.max(after);
                stats.data_bus_busy += p.burst;
                let kind = if write { DramCommand::Wr } else { DramCommand::Rd };
                self.record(now, kind, Some(b as u32), row, Some(id), Some(end));
            }
            Next::Col => {
                let txn = bank.cmdq.pop_front()?;
                bank.score -= txn.score;
                self.queued -= 1;
                let write = txn.q.req.is_write();
                let bus = if self.per_burst { p.burst } else { p.bus_cycles(txn.q.req.bytes) };
                let end = self.chan.record_col(p, now, txn.q.coord.bank_group, write, bus);
                // A read of several bursts is several internal reads; tRTP counts from the last.
                let after = if write { end + p.wr } else { now + bus.saturating_sub(p.burst) + p.rtp };
                bank.pre_ready = bank.pre_ready.max(after);
                stats.data_bus_busy += bus;
                if txn.activated {
                    stats.row_misses += 1;
                } else {
                    stats.row_hits += 1;
                }
                let kind = if write {
                    stats.writes += 1;
                    DramCommand::Wr
                } else {
                    stats.reads += 1;
                    stats.read_latency_sum += end.saturating_sub(txn.q.req.t_dram_arrive);
                    DramCommand::Rd
                };
                let (row, id) = (txn.q.coord.row, Some(txn.q.req.id));
                self.record(now, kind, Some(b as u32), row, id, Some(end));
                if !write {
                    done = Some(ReadDone { done: end, req: txn.q.req });
                }
            }
        }
        self.views[b] = self.banks[b].view();
        done
    }

    fn issue_ref(&mut self, now: u64, stats: &mut DramStats) {
        self.quiet = (0, 0);
        for bank in &mut self.banks {
            bank.act_ready = bank.act_ready.max(now + self.p.rfc);
        }
        self.refresh_due = now + self.p.refi;
        stats.refreshes += 1;
        self.record(now, DramCommand::Ref, None, 0, None, None);
    }

    /// Earliest cycle > `now` at which `step` could issue something; `None` if no bank
    /// has a command to give. Exact for each bank's head command, so never late.
    pub fn next_event(&self, now: u64) -> Option<u64> {
        let refreshing = self.refreshing(now + 1);
        let banks = (0..self.banks.len()).filter_map(|b| self.next(b, refreshing)).map(|(_, t)| t).min();
        self.event_after(now, refreshing, banks)
    }

    /// `next_event` given the soonest cycle a bank's head command is legal (`banks`), with
    /// the refresh state as of `now + 1`.
    fn event_after(&self, now: u64, refreshing: bool, banks: Option<u64>) -> Option<u64> {
        let refresh = if refreshing {
            self.ref_ready()
        } else if self.p.refi > 0 {
            Some(self.refresh_due)
        } else {
            None
        };
        refresh.into_iter().chain(banks).min().map(|t| t.max(now + 1))
    }

    /// Replays the refreshes an idle controller would have done (ticks are skipped while
    /// the controller is empty) on the cycles before `now`, when work arrives: PRE of the
    /// open banks and a REF, then one REF every tREFI. Only the last of those periodic
    /// REFs is issued; the others are counted. What cannot finish before `now` is left to
    /// `step`.
    pub fn catch_up_refresh(&mut self, now: u64, stats: &mut DramStats) {
        let refi = self.p.refi;
        if refi == 0 {
            return;
        }
        let mut t = self.refresh_due.max(self.last_issue.map_or(0, |l| l + 1));
        loop {
            if t >= now {
                return;
            }
            let due = self.refresh_due;
            self.step(t, stats);
            if self.refresh_due != due {
                break;
            }
            match self.next_event(t) {
                Some(n) => t = n,
                None => return,
            }
        }
        if self.refresh_due < now {
            let more = (now - 1 - self.refresh_due) / refi;
            stats.refreshes += more;
            self.issue_ref(self.refresh_due + more * refi, stats);
        }
    }
}
