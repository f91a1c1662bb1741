//! The warp-group table shared by the warp-aware schedulers: which queued reads belong
//! to the same warp-load, whether the group is complete (its tagged last request for
//! this controller arrived), and the lowest score other controllers reported for it.

use super::{QueuedReq, SchedView};
use crate::mem::{MemReq, NO_WARP_LOAD};
use std::collections::HashMap;

/// A warp-load as controllers name it: (SM, warp-load id). The id's generation bits keep
/// it unique long after the warp-load is done; it is the same in every channel (WG-M
/// messages carry it).
pub type GroupKey = (u16, u32);

/// The key of a read, or `None` for requests no warp waits on as a group.
pub fn key_of(req: &MemReq) -> Option<GroupKey> {
    (!req.is_write() && req.warp_load != NO_WARP_LOAD).then_some((req.sm, req.warp_load))
}

#[derive(Debug, Clone, Default)]
struct Entry {
    /// Requests of the group still in the read queue.
    queued: u32,
    /// The tagged last request, or a tag forwarded for it, arrived.
    tagged: bool,
    first_arrival: u64,
    /// When `queued` last fell to zero (or a tag came with nothing queued): a tagged
    /// entry stays this long after, so a request overtaken on its way here by its group's
    /// tag (the L2 serves its two banks in any order) finds its group complete.
    idle_since: u64,
    /// Lowest score another controller broadcast for this warp (WG-M).
    remote: Option<u32>,
}

/// One warp-group as found in the read queue this cycle.
#[derive(Debug, Clone)]
pub struct Group {
    pub key: Option<GroupKey>,
    /// Indices into the queue, oldest first.
    pub reqs: Vec<usize>,
    pub complete: bool,
    pub remote: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct WarpGroups {
    entries: HashMap<GroupKey, Entry>,
    /// DRAM cycles after which an untagged group counts as complete (a safety net: the
    /// L1 and the L2 pass on every tag they absorb), and after which an idle tagged
    /// entry is forgotten.
    timeout: u64,
    /// Next cycle at which idle entries are swept out.
    next_sweep: u64,
}

impl WarpGroups {
    pub fn new(timeout: u32) -> Self {
        Self { entries: HashMap::new(), timeout: timeout as u64, next_sweep: 0 }
    }

    pub fn on_arrival(&mut self, q: &QueuedReq, now: u64) {
        let Some(key) = key_of(&q.req) else { return };
        self.sweep(now);
        let e = self.entries.entry(key).or_default();
        if e.queued == 0 {
            // Warp-load ids are unique while remembered: a waiting tag or a drained
            // tagged group is this request's own warp-load.
            e.first_arrival = now;
        }
        e.queued += 1;
        e.tagged |= q.req.group_last;
    }

    pub fn on_scheduled(&mut self, q: &QueuedReq, now: u64) {
        let Some(key) = key_of(&q.req) else { return };
        if let Some(e) = self.entries.get_mut(&key) {
            e.queued -= 1;
            if e.queued > 0 {
                return;
            }
            if e.tagged {
                e.idle_since = now;
            } else {
                self.entries.remove(&key);
            }
        }
    }

    /// The group's tagged request was answered before DRAM (in the L1 or the L2).
    pub fn on_tag(&mut self, req: &MemReq, now: u64) {
        let Some(key) = key_of(req) else { return };
        self.sweep(now);
        // The tag may come before the group's misses reach this controller: it waits.
        let e = self.entries.entry(key).or_insert_with(|| Entry { first_arrival: now, ..Entry::default() });
        e.tagged = true;
        if e.queued == 0 {
            e.idle_since = now;
        }
    }

    /// Forgets idle entries older than the timeout, once per timeout period.
    fn sweep(&mut self, now: u64) {
        if now < self.next_sweep {
            return;
        }
        let t = self.timeout;
        self.entries.retain(|_, e| e.queued > 0 || now < e.idle_since + t);
        self.next_sweep = now + t;
    }

    /// Some request of `req`'s group is still in the read queue.
    pub fn is_queued(&self, req: &MemReq) -> bool {
        key_of(req).and_then(|k| self.entries.get(&k)).is_some_and(|e| e.queued > 0)
    }

    /// A controller picked this warp's group with score `rc`; only groups known here match.
    pub fn on_remote(&mut self, key: GroupKey, rc: u32) {
        if let Some(e) = self.entries.get_mut(&key) {
            e.remote = Some(e.remote.map_or(rc, |r| r.min(rc)));
        }
    }

    /// The queue's warp-groups in order of their oldest request. Requests without a key
    /// are groups of one, complete on arrival.
    pub fn groups(&self, view: &SchedView<'_>) -> Vec<Group> {
        let mut out: Vec<Group> = Vec::new();
        for (i, q) in view.queue.iter().enumerate() {
            let key = key_of(&q.req);
            if let Some(g) = key.and_then(|k| out.iter_mut().find(|g| g.key == Some(k))) {
                g.reqs.push(i);
                continue;
            }
            let e = key.and_then(|k| self.entries.get(&k));
            let complete = e.is_none_or(|e| e.tagged || view.now >= e.first_arrival + self.timeout);
            out.push(Group { key, reqs: vec![i], complete, remote: e.and_then(|e| e.remote) });
        }
        out
    }

    /// The earliest cycle after `now` at which a queued incomplete group times out.
    pub fn next_timeout(&self, now: u64) -> Option<u64> {
        self.entries
            .values()
            .filter(|e| !e.tagged && e.queued > 0)
            .map(|e| e.first_arrival + self.timeout)
            .filter(|&t| t > now)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{queued, view};
    use super::super::BankView;
    use super::*;

    fn member(id: u64, sm: u16, wl: u32, last: bool, t: u64) -> QueuedReq {
        let mut q = queued(id, 0, 1, t);
        q.req.sm = sm;
        q.req.warp_load = wl;
        q.req.group_last = last;
        q
    }

    #[test]
    fn group_completes_on_its_tag_or_after_the_timeout() {
        let mut t = WarpGroups::new(50);
        let q = [member(1, 0, 7, false, 90), member(2, 1, 3, true, 91), member(3, 0, 7, false, 92)];
        for r in &q {
            t.on_arrival(r, r.req.t_dram_arrive);
        }
        let banks = [BankView::default()];
        let v = view(&q, &banks);
        let g = t.groups(&v);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].reqs, vec![0, 2]);
        assert!(!g[0].complete && g[1].complete);
        assert_eq!(t.next_timeout(100), Some(140));
        let late = SchedView { now: 140, ..v };
        assert!(t.groups(&late)[0].complete);
    }

    #[test]
    fn remote_scores_match_only_queued_groups_and_keep_the_lowest() {
        let mut t = WarpGroups::new(50);
        let r = member(1, 2, 4, true, 0);
        t.on_arrival(&r, 0);
        t.on_remote((2, 4), 9);
        t.on_remote((2, 4), 5);
        t.on_remote((2, 5), 1);
        let q = [r.clone()];
        let banks = [BankView::default()];
        assert_eq!(t.groups(&view(&q, &banks))[0].remote, Some(5));
        t.on_scheduled(&r, 10);
        t.on_remote((2, 4), 1);
        assert_eq!(t.next_timeout(0), None);
    }

    #[test]
    fn a_tag_forwarded_before_the_group_arrives_waits_for_it() {
        let mut t = WarpGroups::new(50);
        let first = member(1, 3, 9, false, 100);
        t.on_tag(&member(2, 3, 9, true, 0).req, 95);
        assert!(!t.is_queued(&first.req));
        t.on_arrival(&first, 100);
        let q = [first.clone()];
        let banks = [BankView::default()];
        assert!(t.groups(&view(&q, &banks))[0].complete);
    }

    #[test]
    fn a_request_overtaken_by_its_tag_finds_its_group_complete_until_the_entry_is_forgotten() {
        let mut t = WarpGroups::new(50);
        let (tagged, late) = (member(1, 3, 9, true, 100), member(2, 3, 9, false, 120));
        t.on_arrival(&tagged, 100);
        t.on_scheduled(&tagged, 110);
        t.on_arrival(&late, 120);
        let q = [late.clone()];
        let banks = [BankView::default()];
        assert!(t.groups(&view(&q, &banks))[0].complete, "the straggler of a tagged group");
        t.on_scheduled(&late, 130);
        t.on_arrival(&member(3, 0, 1, false, 200), 200);
        t.on_arrival(&late, 200);
        assert!(!t.groups(&view(&q, &banks))[0].complete, "forgotten 50 cycles after it drained");
    }
}
