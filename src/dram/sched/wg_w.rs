//! WG-W (SC'14 §IV-E): a write drain stalls every read, so just before one starts
//! (write queue within 8 entries of the high watermark) warp-groups of a single request
//! go first, whatever their score: they finish a warp before the drain rather than
//! leaving it waiting through it.

use super::SchedView;

/// Entries below the high watermark at which single-request groups take priority.
pub const DRAIN_WINDOW: usize = 8;

/// The write queue is about to trigger a drain.
pub fn near_drain(view: &SchedView<'_>) -> bool {
    !view.draining && view.write_len + DRAIN_WINDOW >= view.write_high_watermark as usize
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::wg::Wg;
    use super::super::{BankView, SchedView, TransactionPolicy};
    use super::*;
    use crate::config::{preset, DramSchedulerKind};

    #[test]
    fn single_request_groups_first_near_the_watermark() {
        let cfg = preset("sc14-gtx480").unwrap();
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 4];
        // Group 1: two row hits (score 2). Group 2: one row miss (score 3).
        let mut q = vec![queued(1, 0, 1, 90), queued(2, 0, 1, 90), queued(3, 1, 7, 91)];
        for (r, wl) in q.iter_mut().zip([1, 1, 2]) {
            r.req.warp_load = wl;
            r.req.group_last = true;
        }
        let run = |writes: usize| {
            let mut wg = Wg::new(DramSchedulerKind::WgW, &cfg.dram);
            for r in &q {
                wg.on_arrival(r, 90);
            }
            let v = SchedView { write_len: writes, ..view(&q, &banks) };
            wg.pick(&v)
        };
        assert_eq!(run(23), Some(0), "far from the watermark: lowest score");
        assert_eq!(run(24), Some(2), "within 8 of 32: the single request");
        assert!(near_drain(&SchedView { write_len: 30, ..view(&q, &banks) }));
    }
}
