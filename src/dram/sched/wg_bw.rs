//! WG-Bw (SC'14 §IV-D): the selected warp-group's row miss may not close a bank's row
//! while that bank has row hits waiting and has not yet served its minimum efficient
//! row burst (`merb.rs`); the waiting hits (of any group) go first, so the miss's
//! precharge and activate overlap with data transfers of the other banks.

use super::merb::Merb;
use super::{QueuedReq, SchedView};

/// Banks with work: something in their command queue or in the served queue.
fn busy_banks(view: &SchedView<'_>) -> usize {
    let mut busy: u64 = 0;
    for (b, v) in view.banks.iter().enumerate() {
        if v.queued > 0 {
            busy |= 1 << (b % 64);
        }
    }
    for q in view.queue {
        busy |= 1 << (q.coord.bank % 64);
    }
    busy.count_ones() as usize
}

/// Whether row miss `q` must wait for its bank's pending row hits.
pub fn must_wait(m: &Merb, view: &SchedView<'_>, q: &QueuedReq) -> bool {
    if view.is_row_hit(q) {
        return false;
    }
    let bank = q.coord.bank;
    let hits = view.queue.iter().filter(|r| r.coord.bank == bank && view.is_row_hit(r)).count();
    hits > 0 && m.postpone(bank, hits, q.req.bytes, busy_banks(view))
}

/// The oldest schedulable row hit to `bank`.
pub fn oldest_hit(view: &SchedView<'_>, bank: u32) -> Option<usize> {
    view.queue.iter().position(|r| r.coord.bank == bank && view.is_row_hit(r) && view.has_room(r))
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::wg::Wg;
    use super::super::{BankView, TransactionPolicy};
    use crate::config::{preset, DramSchedulerKind};

    #[test]
    fn a_selected_miss_waits_behind_its_banks_row_hits() {
        let cfg = preset("sc14-gtx480").unwrap();
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        // Warp-group 7: a single row miss to bank 0 (score 3). Warp-group 8: three row
        // hits to bank 0 (score 3, more hits) would win the tie, so make 8 incomplete.
        let mut q = vec![queued(1, 0, 9, 95)];
        q[0].req.warp_load = 7;
        q[0].req.group_last = true;
        for id in 2..5 {
            let mut h = queued(id, 0, 1, 96);
            h.req.warp_load = 8;
            q.push(h);
        }
        for kind in [DramSchedulerKind::WgM, DramSchedulerKind::WgBw] {
            let mut wg = Wg::new(kind, &cfg.dram);
            for r in &q {
                wg.on_arrival(r, 95);
            }
            let want = if kind == DramSchedulerKind::WgBw { 1 } else { 0 };
            assert_eq!(wg.pick(&view(&q, &banks)), Some(want), "{kind:?}");
        }
    }
}
