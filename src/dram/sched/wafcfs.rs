//! WAFCFS: warp-groups first-come first-served. The group whose oldest read arrived
//! first is served completely before the next; within it, the oldest request whose
//! bank has room. If none of its requests can go now, the next group's may, so a full
//! command queue does not stall the channel. Writes use GMC.

use super::gmc::Gmc;
use super::warp_groups::key_of;
use super::{DramSchedulerKind, QueuedReq, Registered, SchedView, TransactionPolicy};
use crate::dram::config::DramConfig;
use crate::mem::AccessKind;

#[derive(Debug, Clone)]
pub struct Wafcfs {
    gmc: Gmc,
}

impl Wafcfs {
    pub fn new(d: &DramConfig) -> Self {
        Self { gmc: Gmc::new(d) }
    }
}

impl Registered for Wafcfs {
    fn build(_kind: DramSchedulerKind, d: &DramConfig) -> Self {
        Self::new(d)
    }
}

impl TransactionPolicy for Wafcfs {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        if view.kind == AccessKind::Write {
            return self.gmc.pick(view);
        }
        // Groups in order of their oldest request: a request's group is older than its
        // own position when an earlier request shares its key.
        let mut tried: Vec<Option<(u16, u32)>> = Vec::new();
        for q in view.queue {
            let key = key_of(&q.req);
            if key.is_some() && tried.contains(&key) {
                continue;
            }
            tried.push(key);
            let found = view
                .queue
                .iter()
                .enumerate()
                .find(|(_, r)| (key.is_some() && key_of(&r.req) == key || std::ptr::eq(*r, q)) && view.has_room(r));
            if let Some((i, _)) = found {
                return Some(i);
            }
        }
        None
    }

    fn on_scheduled(&mut self, q: &QueuedReq, row_hit: bool, _now: u64) {
        self.gmc.note_scheduled(q, row_hit);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;
    use crate::config::preset;

    #[test]
    fn oldest_group_completes_before_younger_row_hits() {
        let cfg = preset("sc14-gtx480").unwrap();
        let mut banks = [BankView { open_row: Some(1), planned_row: Some(1), queued: 0, score: 0 }; 3];
        let mut q = vec![queued(1, 0, 9, 90), queued(2, 1, 1, 91), queued(3, 2, 9, 92)];
        for (r, wl) in q.iter_mut().zip([1, 2, 1]) {
            r.req.warp_load = wl;
        }
        let mut w = Wafcfs::new(&cfg.dram);
        assert_eq!(w.pick(&view(&q, &banks)), Some(0));
        banks[0].queued = 2;
        assert_eq!(w.pick(&view(&q, &banks)), Some(2), "the rest of the first group");
        banks[2].queued = 2;
        assert_eq!(w.pick(&view(&q, &banks)), Some(1), "blocked group lets the next one go");
    }
}
