//! WG (SC'14 §IV-B): reads are handled as warp-groups, and among the complete groups
//! the one with the shortest expected completion goes first, all of its requests before
//! any other group's (shortest-job-first). A request scores 1 for a row hit and 3 for a
//! row miss, plus the scores already queued in its bank; a group scores the maximum over
//! its requests; ties go to the group with more row hits.
//!
//! The same engine runs the later steps, switched on by `Features`: WG-M lowers a score
//! to what another controller reported (`wg_m.rs`), WG-Bw lets a bank finish its MERB
//! before a row miss closes its row (`merb.rs`, `wg_bw.rs`), WG-W serves single-request
//! groups first as the write queue nears its drain (`wg_w.rs`). Writes, and reads older
//! than the age threshold, keep the GMC rules.

use super::gmc::Gmc;
use super::merb::Merb;
use super::warp_groups::{key_of, Group, GroupKey, WarpGroups};
use super::{
    wg_bw, wg_m, wg_w, DramSchedulerKind, QueuedReq, Registered, SchedView, TransactionPolicy, HIT_SCORE, MISS_SCORE,
};
use crate::dram::config::DramConfig;
use crate::mem::{AccessKind, MemReq};

/// Which of the paper's steps are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    pub coordinate: bool,
    pub merb: bool,
    pub write_aware: bool,
}

impl Features {
    pub fn of(kind: DramSchedulerKind) -> Self {
        use DramSchedulerKind::*;
        let level = match kind {
            WgM => 1,
            WgBw => 2,
            WgW => 3,
            _ => 0,
        };
        Self { coordinate: level >= 1, merb: level >= 2, write_aware: level >= 3 }
    }
}

#[derive(Debug, Clone)]
pub struct Wg {
    features: Features,
    groups: WarpGroups,
    /// GMC for writes and for reads past the age threshold.
    gmc: Gmc,
    merb: Option<Merb>,
    age_threshold: u64,
    /// The group being served; `None` between groups.
    current: Option<GroupKey>,
    /// (warp-group, score) of groups picked since the network last collected them.
    outbox: Vec<(GroupKey, u32)>,
}

/// How a complete group ranks, lowest first: not a single-request group near a write
/// drain (WG-W), score, fewer row hits, age order.
type Rank = (bool, u32, u32, usize);

/// What `choose` decided: the request, and the group newly selected (with its score).
struct Choice {
    index: usize,
    selected: Option<(GroupKey, u32)>,
}

impl Wg {
    pub fn new(kind: DramSchedulerKind, d: &DramConfig) -> Self {
        let features = Features::of(kind);
        Self {
            features,
            groups: WarpGroups::new(d.age_threshold),
            gmc: Gmc::new(d),
            merb: features.merb.then(|| Merb::new(d)),
            age_threshold: d.age_threshold as u64,
            current: None,
            outbox: Vec::new(),
        }
    }

    pub fn features(&self) -> Features {
        self.features
    }

    /// Coordination messages to broadcast, oldest first (WG-M and later).
    pub fn take_messages(&mut self) -> Vec<(GroupKey, u32)> {
        std::mem::take(&mut self.outbox)
    }

    /// A (warp-group, score) message from another controller.
    pub fn receive(&mut self, key: GroupKey, score: u32) {
        if self.features.coordinate {
            self.groups.on_remote(key, score);
        }
    }

    /// The group's expected completion score and its row hits.
    fn score(view: &SchedView<'_>, g: &Group) -> (u32, u32) {
        // Per bank touched: (bank, running score, row it will have open).
        let mut banks: Vec<(u32, u32, Option<u32>)> = Vec::new();
        let (mut max, mut hits) = (0, 0);
        for &i in &g.reqs {
            let c = view.queue[i].coord;
            let slot = match banks.iter().position(|b| b.0 == c.bank) {
                Some(p) => p,
                None => {
                    let b = view.banks.get(c.bank as usize).copied().unwrap_or_default();
                    banks.push((c.bank, b.score, b.planned_row));
                    banks.len() - 1
                }
            };
            let b = &mut banks[slot];
            let hit = b.2 == Some(c.row);
            hits += hit as u32;
            b.1 += if hit { HIT_SCORE } else { MISS_SCORE };
            b.2 = Some(c.row);
            max = max.max(b.1);
        }
        (max, hits)
    }

    /// The request of `g` to send now: the oldest with room whose bank need not first
    /// finish its row burst; with WG-Bw, a row hit of that bank when all of `g` waits.
    fn request_in(&self, view: &SchedView<'_>, g: &Group) -> Option<usize> {
        let mut postponed = None;
        for &i in &g.reqs {
            let q = &view.queue[i];
            if !view.has_room(q) {
                continue;
            }
            match &self.merb {
                Some(m) if wg_bw::must_wait(m, view, q) => {
                    postponed.get_or_insert(q.coord.bank);
                }
                _ => return Some(i),
            }
        }
        postponed.and_then(|bank| wg_bw::oldest_hit(view, bank))
    }

    fn choose(&self, view: &SchedView<'_>) -> Option<Choice> {
        let groups = self.groups.groups(view);
        let oldest = view.oldest_ready()?;
        if view.now >= view.queue[oldest].req.t_dram_arrive + self.age_threshold {
            return Some(Choice { index: oldest, selected: None });
        }
        if let Some(cur) = self.current {
            if let Some(g) = groups.iter().find(|g| g.key == Some(cur)) {
                return self.request_in(view, g).map(|index| Choice { index, selected: None });
            }
        }
        let near_drain = self.features.write_aware && wg_w::near_drain(view);
        let mut best: Option<(Rank, &Group, usize)> = None;
        for (order, g) in groups.iter().enumerate().filter(|(_, g)| g.complete) {
            let Some(index) = self.request_in(view, g) else { continue };
            let (local, hits) = Self::score(view, g);
            let score = wg_m::effective(local, g.remote);
            let single_first = !(near_drain && g.reqs.len() == 1);
            let rank = (single_first, score, u32::MAX - hits, order);
            if best.as_ref().is_none_or(|b| rank < b.0) {
                best = Some((rank, g, index));
            }
        }
        let ((_, score, _, _), g, index) = best?;
        Some(Choice { index, selected: g.key.map(|k| (k, score)) })
    }
}

impl Registered for Wg {
    fn build(kind: DramSchedulerKind, d: &DramConfig) -> Self {
        Self::new(kind, d)
    }

    /// Groups are scheduled once complete, which only their tags tell.
    fn needs_group_tags(_kind: DramSchedulerKind) -> bool {
        true
    }
}

impl TransactionPolicy for Wg {
    fn pick(&mut self, view: &SchedView<'_>) -> Option<usize> {
        if view.kind == AccessKind::Write {
            return self.gmc.pick(view);
        }
        let c = self.choose(view)?;
        if let Some((key, score)) = c.selected {
            self.current = Some(key);
            if self.features.coordinate {
                self.outbox.push((key, score));
            }
        }
        Some(c.index)
    }

    fn could_pick(&self, view: &SchedView<'_>) -> bool {
        match view.kind {
            AccessKind::Write => view.oldest_ready().is_some(),
            AccessKind::Read => self.choose(view).is_some(),
        }
    }

    /// An untagged group timing out, or the oldest ready read reaching the age threshold
    /// (`choose` then takes it whatever the groups).
    fn next_event(&self, view: &SchedView<'_>) -> Option<u64> {
        let aged = view.oldest_ready().map(|i| view.queue[i].req.t_dram_arrive + self.age_threshold);
        [self.groups.next_timeout(view.now.saturating_sub(1)), aged.filter(|&t| t >= view.now)]
            .into_iter()
            .flatten()
            .min()
    }

    fn on_arrival(&mut self, q: &QueuedReq, now: u64) {
        self.groups.on_arrival(q, now);
    }

    fn on_group_tag(&mut self, req: &MemReq, now: u64) {
        self.groups.on_tag(req, now);
    }

    fn take_messages(&mut self) -> Vec<(GroupKey, u32)> {
        Wg::take_messages(self)
    }

    fn receive(&mut self, key: GroupKey, score: u32) {
        Wg::receive(self, key, score)
    }

    fn on_removed(&mut self, q: &QueuedReq, now: u64) {
        self.groups.on_scheduled(q, now);
        if self.current.is_some() && self.current == key_of(&q.req) && !self.groups.is_queued(&q.req) {
            self.current = None;
        }
    }

    fn on_scheduled(&mut self, q: &QueuedReq, row_hit: bool, now: u64) {
        self.gmc.note_scheduled(q, row_hit);
        if let Some(m) = &mut self.merb {
            m.note_scheduled(q.coord.bank, row_hit, q.req.bytes);
        }
        self.groups.on_scheduled(q, now);
        if self.current.is_some() && self.current == key_of(&q.req) && !self.groups.is_queued(&q.req) {
            self.current = None;
        }
    }
}
