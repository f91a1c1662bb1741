//! What a sampled run (`crate::sample`) needs of the simulator: functional warming of the
//! CTAs between detailed windows, letting a window's resident CTAs finish, and starting
//! the statistics afresh where a window's measurement begins.

use super::Simulator;
use crate::cache::l2::warp_type::WarpTypeTable;
use crate::cache::l2::WarpL2Counters;
use crate::config::Config;
use crate::core::latency::LoadStats;
use crate::dram::sched::DramSchedulerKind;
use crate::mem::MemReq;
use crate::partition::CoordinationNetwork;
use std::rc::Rc;

impl Simulator {
    /// The run-wide index of the next CTA to dispatch (launches in order).
    pub(crate) fn next_global_cta(&self) -> u64 {
        if self.finished {
            return self.total_ctas;
        }
        let before: u64 = self.launches.iter().rev().skip(1).map(|l| l.ctas as u64).sum();
        before + self.next_cta as u64
    }

    pub(crate) fn total_ctas(&self) -> u64 {
        self.total_ctas
    }

    /// Executes functionally, with the clocks stopped, until CTA `target` is the next to
    /// dispatch (or the run ends): CTAs are dispatched to the SMs by the same rule as in
    /// detail, and each step every SM issues one cycle's instructions from its ready warps
    /// (`Sm::warm_step`), so the SMs stay full of thread blocks at staggered points of their
    /// work. An L1 miss holds its warp's register for `miss_latency` core cycles of the SM's
    /// warming clock. Stops early where a launch begins (`at_launch_start`) and where its
    /// last CTA is dispatched (`in_launch_tail`). Nothing may be in flight: call `quiesce`
    /// after detailed cycles.
    pub(crate) fn warm_until(&mut self, target: u64, miss_latency: u64) {
        self.warm_while(miss_latency, |s| s.next_global_cta() < target && !s.in_launch_tail() && !s.at_launch_start());
    }

    /// Executes functionally, as `warm_until` does, until `count` more warp instructions
    /// have executed or the launch's warps have all finished: the stretches between the
    /// windows a sampled run places inside a long launch tail.
    pub(crate) fn warm_for(&mut self, count: u64, miss_latency: u64) {
        let (end, launch) = (self.instructions_executed().saturating_add(count), self.launch);
        self.warm_while(miss_latency, |s| s.instructions_executed() < end && s.launch == launch);
    }

    /// Warming steps while `go` holds (and the run lasts); a launch whose CTAs all finish
    /// hands over to the next, as in detail.
    fn warm_while(&mut self, miss_latency: u64, go: impl Fn(&Self) -> bool) {
        let bench = Rc::clone(&self.bench);
        let now = self.cycle();
        for sm in &mut self.sms {
            sm.begin_warming();
        }
        while !self.finished && go(self) {
            self.dispatch(now);
            let kernel = &*bench.launches[self.launch];
            let (partitions, shared) = (&mut self.partitions, &mut self.l2_shared);
            let mut partition = |p: usize, local: u64, write: bool, reader: &MemReq| match write {
                true => partitions[p].warm(local, true),
                false => partitions[p].warm_read(local, reader, shared, now),
            };
            for sm in &mut self.sms {
                self.instructions_uncounted +=
                    sm.warm_step(kernel, &mut partition, &mut self.warp_l2_run, miss_latency);
            }
            if self.ctas_done() == self.ctas_done_before + self.grid.ctas as u64 {
                self.start_launch(self.launch + 1);
            }
        }
        for sm in &mut self.sms {
            sm.resume_detail();
        }
    }

    /// Warp instructions the current launch has yet to issue, once all its CTAs are
    /// dispatched (`in_launch_tail`): those of its resident warps.
    pub(crate) fn launch_instructions_left(&self) -> u64 {
        let kernel = &*self.bench.launches[self.launch];
        self.sms.iter().map(|sm| sm.instructions_left(kernel)).sum()
    }

    /// Whether every CTA of the current launch has been dispatched: the launch's tail,
    /// where the SMs empty out and IPC falls, which a sampled run simulates whole.
    pub(crate) fn in_launch_tail(&self) -> bool {
        !self.finished && self.next_cta >= self.grid.ctas
    }

    /// Whether the current launch has dispatched nothing yet: its head, where every SM fills
    /// at once and the warps start in step, which a sampled run simulates whole.
    pub(crate) fn at_launch_start(&self) -> bool {
        !self.finished && self.next_cta == 0
    }

    /// CTAs of the current launch completed so far.
    pub(crate) fn launch_ctas_completed(&self) -> u64 {
        self.ctas_done() - self.ctas_done_before
    }

    /// The launch running now (an index into the benchmark's launches).
    pub(crate) fn launch_index(&self) -> usize {
        self.launch
    }

    /// A detailed piece ends: the L2 banks learn their MSHR occupancy, which warming
    /// stands in for until the next piece.
    pub(crate) fn learn_in_flight(&mut self) {
        let now_l2 = self.clocks.now().l2;
        for p in &mut self.partitions {
            p.learn_in_flight(now_l2);
        }
    }

    /// Ends a window's detailed cycles: no instruction issues and no CTA is dispatched
    /// while the requests in flight complete. Returns false if the memory system did not
    /// empty within `max_core_cycles` or the run failed.
    pub(crate) fn quiesce(&mut self, max_core_cycles: u64) -> bool {
        self.dispatching = false;
        for sm in &mut self.sms {
            sm.set_frozen(true);
        }
        let limit = self.cycle() + max_core_cycles;
        let quiet = |s: &Self| {
            s.sms.iter().all(|m| m.is_quiet())
                && s.req_net.is_empty()
                && s.reply_net.is_empty()
                && s.partitions.iter().all(|p| p.is_idle())
        };
        while self.error.is_none() && !self.finished && !quiet(self) && self.cycle() < limit {
            self.edge();
        }
        for sm in &mut self.sms {
            sm.set_frozen(false);
        }
        self.dispatching = true;
        self.error.is_none() && (self.finished || quiet(self))
    }

    /// Runs from here on as a run of `cfg` would, in the settings warming never reads (the
    /// DRAM scheduler and the ROP skip), where they differ (`crate::sample::shared`).
    pub(crate) fn switch_unwarmed_settings(&mut self, cfg: &Config) {
        if cfg.dram.scheduler != self.cfg.dram.scheduler {
            self.set_dram_scheduler(cfg.dram.scheduler);
        }
        if cfg.l2.rop_skip != self.cfg.l2.rop_skip {
            self.cfg.l2.rop_skip = cfg.l2.rop_skip;
            for p in &mut self.partitions {
                p.set_rop_skip(&self.cfg.l2);
            }
        }
    }

    /// Runs DRAM transaction scheduler `kind` from here on, as a run configured with it
    /// would: the controllers' policies, their coordination network and the L1s' warp-group
    /// tags.
    fn set_dram_scheduler(&mut self, kind: DramSchedulerKind) {
        self.cfg.dram.scheduler = kind;
        for p in &mut self.partitions {
            p.dram.set_scheduler(&self.cfg.dram);
        }
        self.coord = CoordinationNetwork::new(&self.cfg);
        for sm in &mut self.sms {
            sm.l1.set_group_tags(kind.needs_group_tags());
        }
    }

    /// Starts every statistic afresh at the current cycle (a window's measurement).
    pub(crate) fn reset_stats(&mut self) {
        self.instructions_uncounted += self.warp_instructions();
        for sm in &mut self.sms {
            sm.reset_stats();
        }
        let now_l2 = self.clocks.now().l2;
        for p in &mut self.partitions {
            p.reset_stats(now_l2);
        }
        self.req_net.stats = Default::default();
        self.reply_net.stats = Default::default();
        self.loads = LoadStats::default();
        self.warp_l2_run.merge(&std::mem::take(&mut self.warp_l2));
        self.coord.delivered = 0;
        self.series.restart_totals();
        self.stats_from = self.clocks.now();
    }

    /// Every warp's L2 read counters so far, detailed and warmed, with the warp-type table
    /// that judges them (a sampled run's warp report).
    pub(crate) fn run_warp_l2(&self) -> (WarpL2Counters, &WarpTypeTable) {
        let mut all = self.warp_l2_run.clone();
        all.merge(&self.warp_l2);
        (all, &self.l2_shared.table)
    }

    /// Every warp instruction executed so far: in detail, and by warming.
    pub(crate) fn instructions_executed(&self) -> u64 {
        self.instructions_uncounted + self.warp_instructions()
    }

    /// (core, icnt, DRAM) cycles since the statistics started.
    pub(crate) fn measured_cycles(&self) -> (u64, u64) {
        let now = self.clocks.now();
        let core = if self.finished { self.end_cycle } else { now.core };
        (core.saturating_sub(self.stats_from.core), now.dram.saturating_sub(self.stats_from.dram))
    }
}
