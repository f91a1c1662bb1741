//! Dynamic thread-block bypassing (Xie et al., HPCA 2015, section 5): each thread block
//! is tagged `bg` (its `cm` loads bypass the L1) or `ba` (they use it) when it is
//! dispatched, and the target number of `bg` blocks, TB_bg, is learnt online.
//!
//! A sampling period starts at the dispatch that brings the number of active `bg`
//! blocks to TB_bg and lasts the lifetime of the block dispatched then. At its end the
//! Cache Hit Stall Score `CHSS = hits * l2_latency / (stall * warps)` is stored for that
//! TB_bg and TB_bg moves to the best of itself and its two neighbours.
//!
//! The paper leaves untried neighbours unspecified. Here an untried neighbour counts as
//! good as the current value and wins the tie, lower first: starting from TB_max the
//! learner walks down while CHSS improves and climbs back once a step makes it worse.

use super::super::L1Snapshot;

#[derive(Debug, Clone, Copy)]
struct Period {
    /// CTA slot whose lifetime is the period.
    slot: usize,
    start: u64,
    at_start: L1Snapshot,
    warp_cycles_at_start: u64,
}

#[derive(Debug, Clone)]
pub struct TbBypass {
    /// Whether this SM runs the learner (every SM when decentralized, SM 0 otherwise).
    learns: bool,
    l2_latency: f64,
    tb_max: u32,
    tb_bg: u32,
    cur_bg: u32,
    bg: Vec<bool>,
    chss: Vec<Option<f64>>,
    period: Option<Period>,
    /// Active warps integrated over core cycles, for the period's average warp count.
    warp_cycles: u64,
    warps: u32,
    last_change: u64,
    /// A TB_bg this learner chose and has not yet handed out for broadcast.
    decided: Option<u32>,
    /// (core cycle, TB_bg) at every launch start and every change.
    pub series: Vec<(u64, u32)>,
}

impl TbBypass {
    pub fn new(cta_slots: usize, learns: bool, l2_latency: f64) -> Self {
        Self {
            learns,
            l2_latency,
            tb_max: 0,
            tb_bg: 0,
            cur_bg: 0,
            bg: vec![false; cta_slots],
            chss: Vec::new(),
            period: None,
            warp_cycles: 0,
            warps: 0,
            last_change: 0,
            decided: None,
            series: Vec::new(),
        }
    }

    /// A new launch on an empty SM: TB_bg starts at TB_max and the CHSS table is cleared.
    pub fn begin_launch(&mut self, tb_max: u32, now: u64) {
        self.tb_max = tb_max;
        self.chss = vec![None; tb_max as usize + 1];
        self.period = None;
        self.cur_bg = 0;
        self.set_tb_bg(tb_max, now);
    }

    /// Adopts a TB_bg (a broadcast from the learning SM, or this SM's own choice).
    pub fn set_tb_bg(&mut self, tb_bg: u32, now: u64) {
        self.tb_bg = tb_bg.min(self.tb_max);
        if self.series.last().is_none_or(|&(_, v)| v != self.tb_bg) {
            self.series.push((now, self.tb_bg));
        }
    }

    /// The choice made at the end of the last period, once, for broadcasting.
    pub fn take_decision(&mut self) -> Option<u32> {
        self.decided.take()
    }

    pub fn is_bg(&self, slot: usize) -> bool {
        self.bg[slot]
    }

    fn account_warps(&mut self, now: u64, warps: u32) {
        self.warp_cycles += self.warps as u64 * now.saturating_sub(self.last_change);
        self.last_change = now;
        self.warps = warps;
    }

    /// Tags the block dispatched into `slot` (equation 2: `bg` while Cur_bg < TB_bg) and
    /// starts a sampling period when this dispatch brings Cur_bg to TB_bg, except in a
    /// sampled run's warming, whose L1 hits and stalls are not counted: a period there would
    /// score zero and walk TB_bg down to no bypassing at all.
    pub fn on_dispatch(&mut self, slot: usize, now: u64, warps_after: u32, l1: L1Snapshot, warming: bool) {
        self.account_warps(now, warps_after);
        let bg = self.cur_bg < self.tb_bg;
        self.bg[slot] = bg;
        self.cur_bg += bg as u32;
        if self.learns && !warming && self.period.is_none() && self.cur_bg == self.tb_bg {
            self.period = Some(Period { slot, start: now, at_start: l1, warp_cycles_at_start: self.warp_cycles });
        }
    }

    /// The SM's statistics start afresh (a sampled run's measurement): an open sampling
    /// period restarts now, so its L1 counts are taken over the same cycles as its length.
    pub fn rebase(&mut self, now: u64, warps: u32, l1: L1Snapshot) {
        self.account_warps(now, warps);
        if let Some(p) = &mut self.period {
            p.start = now;
            p.at_start = l1;
            p.warp_cycles_at_start = self.warp_cycles;
        }
    }

    /// The block in `slot` retired; ends the period if it was the period's block (one that
    /// retires in warming ends it unscored, its lifetime not measured).
    pub fn on_retire(&mut self, slot: usize, now: u64, warps_after: u32, l1: L1Snapshot, warming: bool) {
        self.account_warps(now, warps_after);
        self.cur_bg -= self.bg[slot] as u32;
        self.bg[slot] = false;
        let Some(p) = self.period.filter(|p| p.slot == slot) else { return };
        self.period = None;
        if warming {
            return;
        }
        let cycles = now.saturating_sub(p.start).max(1);
        let warps = (self.warp_cycles - p.warp_cycles_at_start) as f64 / cycles as f64;
        let hits = (l1.hits - p.at_start.hits) as f64;
        let stall = (l1.stall_cycles - p.at_start.stall_cycles).max(1) as f64;
        self.chss[self.tb_bg as usize] = Some(hits * self.l2_latency / (stall * warps.max(1.0)));
        let next = self.next_tb_bg();
        if next != self.tb_bg {
            self.set_tb_bg(next, now);
            self.decided = Some(next);
        }
    }

    /// The best of TB_bg and its neighbours; untried neighbours tie with the current
    /// value and win the tie, the lower one first.
    fn next_tb_bg(&self) -> u32 {
        let cur = self.tb_bg;
        let here = self.chss[cur as usize].unwrap_or(0.0);
        let candidates = [cur.checked_sub(1), Some(cur + 1).filter(|&c| c <= self.tb_max), Some(cur)];
        let mut best = (cur, here, false);
        for c in candidates.into_iter().flatten() {
            let (value, untried) = match self.chss[c as usize] {
                Some(v) => (v, false),
                None => (here, true),
            };
            if value > best.1 || (value == best.1 && untried && !best.2) {
                best = (c, value, untried);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(hits: u64, stall_cycles: u64) -> L1Snapshot {
        L1Snapshot { hits, stall_cycles }
    }

    #[test]
    fn blocks_are_tagged_bg_while_fewer_than_tb_bg_are_active() {
        let mut t = TbBypass::new(4, true, 100.0);
        t.begin_launch(4, 0);
        t.set_tb_bg(2, 0);
        for slot in 0..4 {
            t.on_dispatch(slot, 0, 8, snap(0, 0), false);
        }
        assert_eq!((0..4).map(|s| t.is_bg(s)).collect::<Vec<_>>(), [true, true, false, false]);
        // A bg block retires: the next block dispatched takes its place as bg.
        t.on_retire(0, 10, 6, snap(0, 0), false);
        t.on_dispatch(0, 11, 8, snap(0, 0), false);
        assert!(t.is_bg(0));
        t.on_retire(3, 12, 6, snap(0, 0), false);
        t.on_dispatch(3, 13, 8, snap(0, 0), false);
        assert!(!t.is_bg(3));
    }

    /// Runs one sampling period at the current TB_bg with the given hits and stalls.
    fn period(t: &mut TbBypass, now: &mut u64, hits: &mut u64, stall: &mut u64, dh: u64, ds: u64) {
        let slots: Vec<usize> = (0..t.bg.len()).collect();
        for &s in &slots {
            t.on_retire(s, *now, 0, snap(*hits, *stall), false);
        }
        t.period = None;
        for &s in &slots {
            t.on_dispatch(s, *now, 8, snap(*hits, *stall), false);
        }
        let p = t.period.expect("a full SM starts a period").slot;
        *now += 100;
        *hits += dh;
        *stall += ds;
        t.on_retire(p, *now, 6, snap(*hits, *stall), false);
    }

    #[test]
    fn the_learner_walks_down_while_chss_improves_and_steps_back_when_it_drops() {
        let mut t = TbBypass::new(4, true, 100.0);
        t.begin_launch(4, 0);
        let (mut now, mut hits, mut stall) = (0, 0, 0);
        // At TB_bg = 4: CHSS from 100 hits and 100 stalls; the untried 3 is explored.
        period(&mut t, &mut now, &mut hits, &mut stall, 100, 100);
        assert_eq!(t.tb_bg, 3);
        // Fewer stalls at 3: better, so 2 is explored next.
        period(&mut t, &mut now, &mut hits, &mut stall, 100, 50);
        assert_eq!(t.tb_bg, 2);
        // Much worse at 2: back to 3, the best of {1 (untried, counts as 2's), 2, 3}.
        period(&mut t, &mut now, &mut hits, &mut stall, 10, 100);
        assert_eq!(t.tb_bg, 3);
        // At 3 again, still the best of its neighbours: it stays.
        period(&mut t, &mut now, &mut hits, &mut stall, 100, 50);
        assert_eq!(t.tb_bg, 3);
        assert_eq!(t.series.iter().map(|&(_, v)| v).collect::<Vec<_>>(), [4, 3, 2, 3]);
        assert_eq!(t.take_decision(), Some(3));
        assert_eq!(t.take_decision(), None);
    }

    /// Warming counts no L1 hits or stalls: its blocks are tagged, but no period starts
    /// there, and one whose block retires there ends unscored.
    #[test]
    fn warming_tags_blocks_but_neither_starts_nor_scores_a_period() {
        let mut t = TbBypass::new(2, true, 100.0);
        t.begin_launch(2, 0);
        t.on_dispatch(0, 0, 8, snap(0, 0), true);
        t.on_dispatch(1, 0, 16, snap(0, 0), true);
        assert!(t.is_bg(0) && t.is_bg(1));
        assert!(t.period.is_none(), "no period starts in warming");
        t.on_retire(1, 10, 8, snap(0, 0), true);
        t.on_dispatch(1, 20, 16, snap(0, 0), false);
        let p = t.period.expect("a detailed dispatch that fills TB_bg starts one");
        t.on_retire(p.slot, 30, 8, snap(0, 0), true);
        assert!(t.period.is_none());
        assert_eq!((t.tb_bg, t.chss[2]), (2, None), "unscored: TB_bg stays");
    }

    #[test]
    fn chss_weighs_hits_against_stalls_per_warp() {
        let mut t = TbBypass::new(1, true, 120.0);
        t.begin_launch(1, 0);
        t.on_dispatch(0, 0, 8, snap(0, 0), false);
        t.on_retire(0, 100, 0, snap(50, 25), false);
        // 50 hits x 120 / (25 stall cycles x 8 warps on average).
        assert_eq!(t.chss[1], Some(30.0));
    }
}
