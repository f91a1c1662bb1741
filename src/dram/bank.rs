//! One bank: its row buffer, its command queue, and the per-bank timing constraints.

use super::sched::{BankView, QueuedReq};
use std::collections::VecDeque;

/// A scheduled request in a bank's command queue. Its commands (PRE, ACT, then RD/WR)
/// are derived from the bank state when it reaches the head.
#[derive(Debug, Clone)]
pub(crate) struct Txn {
    pub q: QueuedReq,
    /// An ACT was issued for this transaction (its column access is a row miss).
    pub activated: bool,
    /// Expected service cost when it was queued (`sched::HIT_SCORE` or `MISS_SCORE`).
    pub score: u32,
    /// Column commands still to issue (more than one when each burst is its own command).
    pub cols_left: u32,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Bank {
    pub open_row: Option<u32>,
    pub cmdq: VecDeque<Txn>,
    /// Sum of the queued transactions' scores.
    pub score: u32,
    /// Earliest ACT: tRP after PRE, tRC after ACT, tRFC after REF.
    pub act_ready: u64,
    /// Earliest PRE: tRAS after ACT, tRTP after RD, tWR after write data.
    pub pre_ready: u64,
    /// Earliest column command: tRCD after ACT.
    pub col_ready: u64,
}

impl Bank {
    /// The head transaction already spent an ACT on the open row and still needs its
    /// column access; closing the row now would waste that ACT.
    pub fn head_waits_on_open_row(&self) -> bool {
        self.cmdq.front().is_some_and(|t| t.activated && self.open_row == Some(t.q.coord.row))
    }

    pub fn view(&self) -> BankView {
        BankView {
            open_row: self.open_row,
            planned_row: self.cmdq.back().map(|t| t.q.coord.row).or(self.open_row),
            queued: self.cmdq.len() as u32,
            score: self.score,
        }
    }
}
