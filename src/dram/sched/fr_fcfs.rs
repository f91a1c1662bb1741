//! FR-FCFS (Rixner et al.): the oldest request that hits the row its bank will have
//! open first, otherwise the oldest request; both among requests whose bank command
//! queue has room. Maximizes row-buffer hits; can starve row misses under hit streams.

use super::{DramSchedulerKind, Registered, SchedView, TransactionPolicy};
use crate::dram::config::DramConfig;

#[derive(Debug, Clone, Default)]
pub struct FrFcfs;

impl Registered for FrFcfs {
    fn build(_kind: DramSchedulerKind, _d: &DramConfig) -> Self {
        Self
    }
}

impl TransactionPolicy for FrFcfs {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        let mut oldest = None;
        for (i, q) in view.queue.iter().enumerate() {
            if !view.has_room(q) {
                continue;
            }
            if view.is_row_hit(q) {
                return Some(i);
            }
            oldest.get_or_insert(i);
        }
        oldest
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;

    #[test]
    fn younger_row_hit_before_older_miss() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        let q = [queued(1, 0, 9, 1), queued(2, 0, 1, 2), queued(3, 1, 1, 3)];
        assert_eq!(FrFcfs.pick(&view(&q, &banks)), Some(1));
    }

    #[test]
    fn hit_judged_against_planned_row() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(9), queued: 1, score: 1 }];
        let q = [queued(1, 0, 1, 1), queued(2, 0, 9, 2)];
        assert_eq!(FrFcfs.pick(&view(&q, &banks)), Some(1));
    }

    #[test]
    fn oldest_with_room_when_no_hit() {
        let mut banks = [BankView::default(); 2];
        banks[0].queued = 2;
        let q = [queued(1, 0, 9, 1), queued(2, 1, 4, 2), queued(3, 1, 5, 3)];
        assert_eq!(FrFcfs.pick(&view(&q, &banks)), Some(1));
        banks[1].queued = 2;
        assert_eq!(FrFcfs.pick(&view(&q, &banks)), None);
    }
}
