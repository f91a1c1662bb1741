//! The simulator: builds the machine from a config, runs a benchmark's launches in
//! order, and advances the clock domains edge by edge.
//!
//! The tick order, the one place it is written: per edge, the domains due tick DRAM,
//! L2, icnt, core — downstream first, so a request moves at most one hop per edge. Within
//! a domain: DRAM — coordination messages due, every channel (then its finished reads into
//! return queues), the channels' new messages and releases; L2 — every partition's port
//! arbiter, banks, fills and DRAM hand-off; icnt — the request network, partition replies
//! into the reply network, the reply network; core — CTA dispatch, then every SM (see
//! `core::sm`). `drain` runs the same memory-side functions as `edge`, without the core.
//!
//! Idle skipping: once every domain has ticked without progress, the clocks jump to
//! the earliest event any component knows of. If none knows of one while work
//! remains, the run is deadlocked and ends with an error naming the stuck queues;
//! the watchdog also ends a run that makes no progress for `stats.watchdog_cycles`.

pub mod coordinated;
mod series;
mod warm;

pub use series::Series;

use crate::cache::l1::bypass::LoadTags;
use crate::cache::l1::{L1Setup, L1D};
use crate::cache::l2::{L2Shared, WarpL2Counters};
use crate::clock::{Clocks, Now, CORE, DRAM, ICNT, L2};
use crate::config::{Config, ConfigError, ConfigErrors, CoordinatedMode};
use crate::core::latency::LoadStats;
use crate::core::sm::Ports;
use crate::core::Sm;
use crate::dram::AddressMap;
use crate::icnt::{Crossbar, PartitionNodes};
use crate::kernels::{self, Benchmark, Grid, Size};
use crate::mem::MemReq;
use crate::partition::{CoordinationNetwork, Partition};
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Why a run stopped before its benchmark finished.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
pub enum SimError {
    #[error("deadlock at core cycle {cycle}: nothing can move and no event is pending; {detail}")]
    Deadlock { cycle: u64, detail: String },
    #[error("watchdog: no progress for {cycles} core cycles (at cycle {cycle}); {detail}")]
    Watchdog { cycle: u64, cycles: u64, detail: String },
}

/// Where a run is, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Progress {
    pub cycle: u64,
    pub warp_instructions: u64,
    pub ipc: f64,
    /// Completed CTAs over all CTAs of all launches.
    pub fraction: f64,
    pub finished: bool,
}

/// A launch as it ran, for the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LaunchRecord {
    pub name: String,
    pub ctas: u32,
    pub threads_per_cta: u32,
    pub start_cycle: u64,
    pub end_cycle: u64,
}

#[derive(Clone)]
pub struct Simulator {
    pub(crate) cfg: Config,
    pub(crate) seed: u64,
    /// Shared with later runs of the same input (see `kernels::build_shared`).
    pub(crate) bench: Rc<Benchmark>,
    pub(crate) clocks: Clocks,
    pub(crate) sms: Vec<Sm>,
    pub(crate) partitions: Vec<Partition>,
    /// Links between the DRAM controllers (WG-M messages, zero-divergence releases).
    pub(crate) coord: CoordinationNetwork,
    pub(crate) req_net: Crossbar,
    pub(crate) reply_net: Crossbar,
    pub(crate) loads: LoadStats,
    pub(crate) warp_l2: WarpL2Counters,
    pub(crate) l2_shared: L2Shared,
    pub(crate) series: Series,
    pub(crate) launches: Vec<LaunchRecord>,
    launch: usize,
    grid: Grid,
    next_cta: u32,
    ctas_done_before: u64,
    gid_base: u32,
    age: u64,
    dispatch_rr: usize,
    next_id: u64,
    total_ctas: u64,
    quiet: u8,
    idle_skipping: bool,
    /// False while a sampled run lets its requests in flight complete (`quiesce`): no CTA
    /// is dispatched.
    dispatching: bool,
    /// CTAs completed by functional warming, not on an SM.
    ctas_warmed: u64,
    /// Warp instructions of those CTAs, and of detailed cycles before the last stats reset.
    instructions_uncounted: u64,
    /// Where the statistics start (the last `reset_stats`); zero in a whole run.
    stats_from: Now,
    /// Every warp's L2 reads before the last stats reset and by warming (warp types over a
    /// sampled run).
    warp_l2_run: WarpL2Counters,
    last_progress: u64,
    pub(crate) finished: bool,
    pub(crate) end_cycle: u64,
    error: Option<SimError>,
}

/// Stamps a request the request network hands to its partition's port.
fn arrive_at_partition(r: &mut MemReq, now: &Now) {
    r.t_l2_arrive = now.l2;
    r.trip.arrived = r.since_issue(now.core);
}

/// What SM `sm`'s L1 is built from.
pub(crate) fn l1_setup(cfg: &Config, sm: usize) -> L1Setup<'_> {
    L1Setup {
        l1: &cfg.l1d,
        sm,
        warps: cfg.core.max_warps_per_sm,
        ctas: cfg.core.max_ctas_per_sm,
        decentralized: cfg.coordinated.mode == CoordinatedMode::Decentralized,
        l2_hit_latency: cfg.l2.tag_latency as f64 * cfg.clocks.core_mhz / cfg.clocks.l2_mhz,
    }
}

/// SM `id` of `cfg` with its L1, which sends on the warp-group tags the DRAM scheduler waits for.
fn build_sm(cfg: &Config, id: usize) -> Sm {
    let mut l1 = L1D::new(&l1_setup(cfg, id));
    l1.set_group_tags(cfg.dram.scheduler.needs_group_tags());
    let addr_map = AddressMap::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes);
    let nodes = PartitionNodes::new(cfg.icnt.nodes_per_partition as usize);
    Sm::new(&cfg.core, &cfg.l1d, l1, addr_map, nodes, id)
}

impl Simulator {
    /// Fails unless every launch's CTA fits on one SM of `cfg`'s machine.
    pub fn check_fits(cfg: &Config, bench: &Benchmark) -> Result<(), ConfigErrors> {
        for k in &bench.launches {
            let g = k.grid();
            if g.threads_per_cta > cfg.core.max_threads_per_sm {
                let msg = format!("{} needs {} threads per CTA, more than this SM holds", k.name(), g.threads_per_cta);
                return Err(ConfigError::new("core.max_threads_per_sm", msg).into());
            }
            if g.warps_per_cta() > cfg.core.max_warps_per_sm {
                let msg = format!("{} needs {} warps per CTA, more than this SM holds", k.name(), g.warps_per_cta());
                return Err(ConfigError::new("core.max_warps_per_sm", msg).into());
            }
        }
        Ok(())
    }

    /// Builds the machine and the benchmark; fails on an unknown kernel or a CTA that
    /// cannot fit on an SM of this machine.
    pub fn new(cfg: Config, kernel: &str, size: Size, seed: u64) -> Result<Self, ConfigErrors> {
        let bench = kernels::build_shared(kernel, size, seed)?;
        Self::check_fits(&cfg, &bench)?;
        let tags = coordinated::load_tags(&cfg, kernel, seed)?;
        let mut sim = Self::with_benchmark(cfg, bench, seed);
        sim.set_load_tags(&tags);
        Ok(sim)
    }

    /// Hands every SM's L1 bypass policy the per-load tags its profiling pass chose.
    pub fn set_load_tags(&mut self, tags: &LoadTags) {
        for sm in &mut self.sms {
            sm.set_load_tags(tags.clone());
        }
    }

    /// Makes this a profiling run: loads run with `tags` (under an `l1d.bypass` that takes
    /// tags, as the profiler's `static_only`), and L1 accesses and hits are counted per load
    /// PC (see `pc_counts`).
    pub fn profile_loads(&mut self, tags: LoadTags) {
        for sm in &mut self.sms {
            sm.set_load_tags(tags.clone());
            sm.count_pcs();
        }
    }

    /// (L1 accesses, L1 hits and pending hits) per load PC over all SMs, in a profiling run.
    pub fn pc_counts(&self) -> BTreeMap<u32, (u64, u64)> {
        let mut total: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for (&pc, &(a, h)) in self.sms.iter().filter_map(|s| s.pc_counts()).flatten() {
            let e = total.entry(pc).or_default();
            e.0 += a;
            e.1 += h;
        }
        total
    }

    /// Builds the machine around an already built benchmark (tests use custom kernels).
    pub fn with_benchmark(cfg: Config, bench: impl Into<Rc<Benchmark>>, seed: u64) -> Self {
        let bench = bench.into();
        let sms_n = cfg.core.num_sms as usize;
        let parts = cfg.mem.partitions as usize;
        let req_nodes = PartitionNodes::new(cfg.icnt.nodes_per_partition as usize);
        let reply_nodes = PartitionNodes::new(cfg.l2.reply_ports as usize);
        let ic = &cfg.icnt;
        let total_ctas = bench.launches.iter().map(|k| k.grid().ctas as u64).sum();
        let mut sim = Self {
            clocks: Clocks::new(&cfg.clocks),
            sms: (0..sms_n).map(|i| build_sm(&cfg, i)).collect(),
            partitions: (0..parts).map(|i| Partition::new(&cfg, i)).collect(),
            coord: CoordinationNetwork::new(&cfg),
            req_net: Crossbar::new(
                sms_n,
                req_nodes.count(parts),
                ic.latency,
                ic.flit_bytes,
                ic.input_buffer_flits,
                ic.output_buffer_flits,
            )
            .with_header(ic.header_bytes),
            reply_net: Crossbar::new(
                reply_nodes.count(parts),
                sms_n,
                ic.latency,
                ic.flit_bytes,
                ic.input_buffer_flits,
                ic.output_buffer_flits,
            )
            .with_header(ic.header_bytes),
            loads: LoadStats::default(),
            warp_l2: WarpL2Counters::default(),
            l2_shared: L2Shared::new(&cfg.l2, &cfg.medic, cfg.core.max_warps_per_sm, seed),
            series: Series::new(cfg.stats.sample_interval),
            launches: Vec::new(),
            launch: 0,
            grid: Grid { ctas: 0, threads_per_cta: 0 },
            next_cta: 0,
            ctas_done_before: 0,
            gid_base: 0,
            age: 0,
            dispatch_rr: 0,
            next_id: 1 << 56,
            total_ctas,
            quiet: 0,
            idle_skipping: true,
            dispatching: true,
            ctas_warmed: 0,
            instructions_uncounted: 0,
            stats_from: Now::default(),
            warp_l2_run: WarpL2Counters::default(),
            last_progress: 0,
            finished: false,
            end_cycle: 0,
            error: None,
            cfg,
            seed,
            bench,
        };
        sim.start_launch(0);
        sim
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn benchmark(&self) -> &Benchmark {
        &self.bench
    }

    /// Turns idle skipping off or on. Off, every edge of every domain is ticked, every
    /// warp scheduler scans every cycle and every refused L1 access is looked up again:
    /// slower, and the same report (tests use this to check that skipping is exact).
    pub fn set_idle_skipping(&mut self, on: bool) {
        self.idle_skipping = on;
        for sm in &mut self.sms {
            sm.set_scan_skipping(on);
        }
    }

    pub fn error(&self) -> Option<&SimError> {
        self.error.as_ref()
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Current core cycle.
    pub fn cycle(&self) -> u64 {
        self.clocks.now().core
    }

    pub fn warp_instructions(&self) -> u64 {
        self.sms.iter().map(|s| s.stats.warp_instructions).sum()
    }

    /// CTAs completed, on SMs or by functional warming.
    fn ctas_done(&self) -> u64 {
        self.ctas_warmed + self.sms.iter().map(|s| s.stats.ctas_completed).sum::<u64>()
    }

    pub fn progress(&self) -> Progress {
        let done = self.ctas_done();
        let cycle = if self.finished { self.end_cycle } else { self.cycle() };
        let wi = self.warp_instructions();
        Progress {
            cycle,
            warp_instructions: wi,
            ipc: if cycle == 0 { 0.0 } else { wi as f64 / cycle as f64 },
            fraction: if self.total_ctas == 0 { 1.0 } else { done as f64 / self.total_ctas as f64 },
            finished: self.finished,
        }
    }

    fn start_launch(&mut self, i: usize) {
        let now = self.cycle();
        if let Some(prev) = self.launches.last_mut() {
            prev.end_cycle = now;
        }
        self.launch = i;
        if i >= self.bench.launches.len() {
            self.finished = true;
            self.end_cycle = now;
            return;
        }
        let k = &self.bench.launches[i];
        self.gid_base += self.grid.ctas * self.grid.warps_per_cta();
        self.grid = k.grid();
        self.next_cta = 0;
        for sm in &mut self.sms {
            sm.begin_launch(&self.grid, now);
        }
        self.ctas_done_before = self.ctas_done();
        self.launches.push(LaunchRecord {
            name: k.name(),
            ctas: self.grid.ctas,
            threads_per_cta: self.grid.threads_per_cta,
            start_cycle: now,
            end_cycle: now,
        });
        if self.grid.ctas == 0 {
            self.start_launch(i + 1);
        }
    }

    /// Runs until the benchmark finishes, an error stops it, or the core clock reaches
    /// `until_cycle`. Returns whether the run is over (finished or failed).
    pub fn run_until(&mut self, until_cycle: u64) -> bool {
        while !self.finished && self.error.is_none() && self.cycle() < until_cycle {
            self.edge();
        }
        self.finished || self.error.is_some()
    }

    fn edge(&mut self) {
        let (mask, now) = self.clocks.next_edge();
        let mut progress = self.memory_edge(mask, &now);
        if mask & (1 << CORE) != 0 {
            progress |= self.core_cycle(now.core);
        }
        self.clocks.advance(mask);
        if progress {
            self.quiet = 0;
            self.last_progress = now.core;
        } else {
            self.quiet |= mask;
            if self.quiet == 0b1111 && self.idle_skipping {
                self.quiet = 0;
                self.skip_idle();
            }
            let stalled = self.cycle().saturating_sub(self.last_progress);
            if !self.finished && self.error.is_none() && stalled > self.cfg.stats.watchdog_cycles {
                let mut detail = self.describe_stuck();
                let slow = crate::config::latencies_past_watchdog(&self.cfg);
                if !slow.is_empty() {
                    detail = format!(
                        "{detail}; the machine may be only slow: {} is longer than a quarter of \
                         stats.watchdog_cycles ({}), so raise stats.watchdog_cycles",
                        slow.join(", "),
                        self.cfg.stats.watchdog_cycles
                    );
                }
                self.error = Some(SimError::Watchdog { cycle: self.cycle(), cycles: stalled, detail });
            }
        }
    }

    /// The memory-side domains due at this edge (`mask`), in the tick order (module doc).
    fn memory_edge(&mut self, mask: u8, now: &Now) -> bool {
        let mut progress = false;
        if mask & (1 << DRAM) != 0 {
            progress |= self.dram_cycle(now);
        }
        if mask & (1 << L2) != 0 {
            progress |= self.l2_cycle(now);
        }
        if mask & (1 << ICNT) != 0 {
            progress |= self.icnt_cycle(now);
        }
        progress
    }

    fn dram_cycle(&mut self, now: &Now) -> bool {
        let mut progress = self.coord.deliver(&mut self.partitions, now.dram);
        for p in &mut self.partitions {
            progress |= p.tick_dram(now);
        }
        progress | self.coord.collect(&mut self.partitions, now.dram, now.core)
    }

    fn l2_cycle(&mut self, now: &Now) -> bool {
        let mut progress = false;
        for p in &mut self.partitions {
            progress |= p.tick_l2(now, &mut self.req_net, &mut self.next_id, &mut self.warp_l2, &mut self.l2_shared);
        }
        progress
    }

    fn icnt_cycle(&mut self, now: &Now) -> bool {
        let mut progress = self.req_net.tick(now.icnt, |r| arrive_at_partition(r, now));
        for p in &mut self.partitions {
            progress |= p.tick_icnt(now.core, &mut self.reply_net);
        }
        progress | self.reply_net.tick(now.icnt, |r| r.trip.delivered = r.since_issue(now.core))
    }

    fn core_cycle(&mut self, now: u64) -> bool {
        let mut progress = self.dispatch(now);
        let kernel = &*self.bench.launches[self.launch];
        let mut ports = Ports { req_net: &mut self.req_net, reply_net: &mut self.reply_net };
        for sm in &mut self.sms {
            progress |= sm.tick(now, kernel, &mut ports, &mut self.loads);
        }
        self.broadcast(now);
        self.sample_series(now);
        if self.ctas_done() == self.ctas_done_before + self.grid.ctas as u64 {
            self.start_launch(self.launch + 1);
            progress = true;
        }
        progress
    }

    /// What SM 0's L1 bypass policy broadcasts reaches every SM's (centralized
    /// coordinated bypassing's TB_bg).
    fn broadcast(&mut self, now: u64) {
        let Some(v) = self.sms[0].l1.bypass.broadcast() else { return };
        for sm in &mut self.sms[1..] {
            sm.l1.receive(v, now);
        }
    }

    /// Closes the time-series windows that end by core cycle `through`.
    fn sample_series(&mut self, through: u64) {
        if self.series.due(through) {
            let wi = self.sms.iter().map(|s| s.stats.warp_instructions).sum();
            let (acc, hits) =
                self.partitions.iter().fold((0, 0), |(a, h), p| (a + p.stats.reads, h + p.stats.read_hits));
            self.series.sample_through(through, wi, acc, hits);
        }
    }

    /// Starts at most one CTA per SM per cycle, rotating the first SM offered one.
    fn dispatch(&mut self, now: u64) -> bool {
        let n = self.sms.len();
        let mut any = false;
        for k in 0..n {
            if self.next_cta >= self.grid.ctas || !self.dispatching {
                break;
            }
            let i = (self.dispatch_rr + k) % n;
            if self.sms[i].can_dispatch(&self.grid) {
                self.sms[i].dispatch(self.next_cta, &self.grid, self.gid_base, &mut self.age, now);
                self.next_cta += 1;
                any = true;
            }
        }
        if any {
            self.dispatch_rr = (self.dispatch_rr + 1) % n;
        }
        any
    }

    /// Jumps to the earliest pending event, or reports a deadlock when there is none.
    /// Components answer relative to the last cycle their domain ticked.
    fn skip_idle(&mut self) {
        let c = &self.clocks;
        let next = c.now();
        let now = &Now {
            core: next.core.saturating_sub(1),
            icnt: next.icnt.saturating_sub(1),
            l2: next.l2.saturating_sub(1),
            dram: next.dram.saturating_sub(1),
        };
        let mut wake: Option<u64> = None;
        let mut consider = |t: Option<u64>| {
            if let Some(t) = t {
                wake = Some(wake.map_or(t, |w: u64| w.min(t)));
            }
        };
        for sm in &self.sms {
            consider(sm.next_event(now.core).map(|t| c.fs_of(CORE, t)));
        }
        consider(self.req_net.next_event(now.icnt).map(|t| c.fs_of(ICNT, t)));
        consider(self.reply_net.next_event(now.icnt).map(|t| c.fs_of(ICNT, t)));
        consider(self.coord.next_event().map(|t| c.fs_of(DRAM, t)));
        for p in &self.partitions {
            let (l2, dram) = p.next_event(now);
            consider(l2.map(|t| c.fs_of(L2, t)));
            consider(dram.map(|t| c.fs_of(DRAM, t)));
        }
        match wake {
            Some(t) => {
                let skipped = self.clocks.skip_to(t);
                if skipped[CORE] > 0 {
                    self.sample_series(self.clocks.now().core - 1);
                }
                for sm in &mut self.sms {
                    sm.account_skipped(skipped[CORE]);
                }
                for p in &mut self.partitions {
                    p.account_skipped(skipped[L2]);
                }
            }
            None if !self.finished && self.dispatching => {
                self.error = Some(SimError::Deadlock { cycle: now.core, detail: self.describe_stuck() });
            }
            None => {}
        }
    }

    /// The occupancy of every non-empty component, for deadlock and watchdog errors.
    fn describe_stuck(&self) -> String {
        let mut parts: Vec<String> = self.sms.iter().filter(|s| !s.is_idle()).map(Sm::describe).collect();
        if !self.req_net.is_empty() {
            parts.push(format!("request network: {}", self.req_net.describe()));
        }
        if !self.reply_net.is_empty() {
            parts.push(format!("reply network: {}", self.reply_net.describe()));
        }
        parts.extend(self.partitions.iter().filter(|p| !p.is_idle()).map(Partition::describe));
        if parts.is_empty() {
            parts.push(format!(
                "launch {} has {} of {} CTAs undispatched",
                self.launch,
                self.grid.ctas - self.next_cta,
                self.grid.ctas
            ));
        }
        parts.join("; ")
    }

    /// Runs the memory system (no new CTAs, no SM cycles) until every queue is empty, e.g.
    /// to let write-backs reach DRAM before checking conservation, ticking every edge in
    /// the same order as a run. Returns false on timeout.
    pub fn drain(&mut self, max_core_cycles: u64) -> bool {
        let limit = self.cycle() + max_core_cycles;
        while !self.is_drained() {
            if self.cycle() >= limit {
                return false;
            }
            let (mask, now) = self.clocks.next_edge();
            self.memory_edge(mask, &now);
            self.clocks.advance(mask);
        }
        true
    }

    /// Whether no request is anywhere in the machine.
    pub fn is_drained(&self) -> bool {
        self.sms.iter().all(Sm::is_idle)
            && self.req_net.is_empty()
            && self.reply_net.is_empty()
            && self.partitions.iter().all(Partition::is_idle)
    }

    /// (warp-loads in flight, L1 MSHR entries, reserved L1 lines, L2 MSHR entries), summed.
    pub fn outstanding(&self) -> (usize, usize, usize, usize) {
        let mut t = (0, 0, 0, 0);
        for s in &self.sms {
            let (a, b, c) = s.outstanding();
            t = (t.0 + a, t.1 + b, t.2 + c, t.3);
        }
        t.3 = self.partitions.iter().map(Partition::mshr_entries).sum();
        t
    }
}
