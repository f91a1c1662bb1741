//! WG-M (SC'14 §IV-C): when a controller selects a warp-group it broadcasts (warp,
//! score) to the other controllers over a dedicated network (`partition::coord`). A
//! receiver holding requests of the same warp whose local score LC exceeds the remote
//! score RC lowers LC by LC - RC, so the warp's requests finish at about the same time
//! in every channel instead of waiting for the slowest one.

/// The score a group competes with, given the lowest score another controller sent.
pub fn effective(local: u32, remote: Option<u32>) -> u32 {
    match remote {
        Some(rc) if local > rc => local - (local - rc),
        _ => local,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::wg::Wg;
    use super::super::{BankView, TransactionPolicy};
    use super::*;
    use crate::config::{preset, DramSchedulerKind};

    #[test]
    fn a_lower_remote_score_lowers_the_local_one_only() {
        assert_eq!(effective(9, Some(4)), 4);
        assert_eq!(effective(3, Some(4)), 3);
        assert_eq!(effective(7, None), 7);
    }

    fn member(id: u64, wl: u32, bank: u32, row: u32) -> crate::dram::sched::QueuedReq {
        let mut q = queued(id, bank, row, 90 + id);
        q.req.warp_load = wl;
        q.req.group_last = true;
        q
    }

    #[test]
    fn remote_message_reorders_groups_and_picks_are_broadcast() {
        let cfg = preset("sc14-gtx480").unwrap();
        let mut banks = [BankView::default(); 4];
        banks[0] = BankView { open_row: Some(1), planned_row: Some(1), queued: 1, score: 1 };
        // Group 1: one row hit on a lightly loaded bank (score 2). Group 2: a miss (score 3).
        let q = [member(1, 1, 0, 1), member(2, 2, 1, 5)];
        let mut wg = Wg::new(DramSchedulerKind::WgM, &cfg.dram);
        for r in &q {
            wg.on_arrival(r, 90);
        }
        wg.receive((0, 2), 1);
        assert_eq!(wg.pick(&view(&q, &banks)), Some(1), "remote score 1 beats local 2");
        assert_eq!(wg.take_messages(), vec![((0, 2), 1)]);
        let mut plain = Wg::new(DramSchedulerKind::Wg, &cfg.dram);
        for r in &q {
            plain.on_arrival(r, 90);
        }
        plain.receive((0, 2), 1);
        assert_eq!(plain.pick(&view(&q, &banks)), Some(0), "WG ignores coordination");
        assert!(plain.take_messages().is_empty());
    }
}
