//! FCFS: strictly in arrival order. The oldest request waits for room in its bank's
//! command queue and blocks younger ones meanwhile (the paper's naive baseline).

use super::{DramSchedulerKind, Registered, SchedView, TransactionPolicy};
use crate::dram::config::DramConfig;

#[derive(Debug, Clone, Default)]
pub struct Fcfs;

impl Registered for Fcfs {
    fn build(_kind: DramSchedulerKind, _d: &DramConfig) -> Self {
        Self
    }
}

impl TransactionPolicy for Fcfs {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        let head = view.queue.first()?;
        view.has_room(head).then_some(0)
    }

    fn could_pick(&self, view: &SchedView<'_>) -> bool {
        view.queue.first().is_some_and(|q| view.has_room(q))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;

    #[test]
    fn takes_the_oldest_even_when_a_younger_hits() {
        let banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 2];
        let q = [queued(1, 0, 9, 1), queued(2, 0, 1, 2)];
        assert_eq!(Fcfs.pick(&view(&q, &banks)), Some(0));
    }

    #[test]
    fn waits_when_the_oldest_bank_is_full() {
        let mut banks = [BankView::default(); 2];
        banks[0].queued = 2;
        let q = [queued(1, 0, 9, 1), queued(2, 1, 1, 2)];
        let v = view(&q, &banks);
        assert_eq!(Fcfs.pick(&v), None);
        assert!(!Fcfs.could_pick(&v));
    }
}
