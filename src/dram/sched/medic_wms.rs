//! WMS (MeDiC §4.4): two FR-FCFS queues, the high one holding requests whose warp was
//! mostly-hit or all-hit when they reached the L2 (`MemReq::warp_type`). The high queue
//! is always served first; the low one only when no high request can be scheduled.
//! Both share the channel's read (or write) queue capacity here, where the paper gives
//! each its own queue.

use super::{DramSchedulerKind, Registered, SchedView, TransactionPolicy};
use crate::dram::config::DramConfig;

#[derive(Debug, Clone, Default)]
pub struct MedicWms;

/// FR-FCFS among the requests whose mostly-hit bit equals `high`.
fn fr_fcfs(view: &SchedView<'_>, high: bool) -> Option<usize> {
    let mut oldest = None;
    for (i, q) in view.queue.iter().enumerate() {
        if q.req.warp_type.mostly_hit() != high || !view.has_room(q) {
            continue;
        }
        if view.is_row_hit(q) {
            return Some(i);
        }
        oldest.get_or_insert(i);
    }
    oldest
}

impl Registered for MedicWms {
    fn build(_kind: DramSchedulerKind, _d: &DramConfig) -> Self {
        Self
    }
}

impl TransactionPolicy for MedicWms {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        fr_fcfs(view, true).or_else(|| fr_fcfs(view, false))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;
    use crate::cache::l2::WarpType;

    #[test]
    fn mostly_hit_requests_first_each_queue_fr_fcfs() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        let mut q = vec![queued(1, 0, 1, 1), queued(2, 0, 9, 2), queued(3, 1, 7, 3), queued(4, 1, 1, 4)];
        q[1].req.warp_type = WarpType::MostlyHit;
        q[2].req.warp_type = WarpType::AllHit;
        q[3].req.warp_type = WarpType::AllHit;
        assert_eq!(MedicWms.pick(&view(&q, &banks)), Some(3), "row hit among the high queue");
        q[3].req.warp_type = WarpType::Balanced;
        assert_eq!(MedicWms.pick(&view(&q, &banks)), Some(1), "oldest high beats a low row hit");
        for r in &mut q {
            r.req.warp_type = WarpType::MostlyMiss;
        }
        assert_eq!(MedicWms.pick(&view(&q, &banks)), Some(0), "plain FR-FCFS with no high request");
    }

    #[test]
    fn low_served_when_high_cannot_be_scheduled() {
        let mut banks = [BankView::default(); 2];
        banks[0].queued = 2;
        let mut q = vec![queued(1, 0, 1, 1), queued(2, 1, 4, 2)];
        q[0].req.warp_type = WarpType::MostlyHit;
        assert_eq!(MedicWms.pick(&view(&q, &banks)), Some(1));
    }
}
