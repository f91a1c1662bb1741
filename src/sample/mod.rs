//! Sampled simulation: a paper-size run estimated from detailed windows spread evenly over
//! its thread blocks, with functional warming of the caches between them (docs/sampling.md).
//!
//! For each of `sample.windows` windows, in run order: the run executes functionally up to
//! the window's start, its thread blocks resident on the SMs (their memory instructions
//! update the L1, L2 and DRAM row-buffer state, with no timing); the window then runs the
//! cycle-level machine from there for `sample.warmup_cycles`, measures
//! `sample.measure_cycles`, and stops issuing while its requests in flight complete, so the
//! next warming resumes where the warps are. Launch heads and tails run in detail whole; the
//! rest of the run is warmed, so every instruction is counted exactly.

mod check;
mod estimate;
mod parts;
mod shared;
mod tail;
mod text;

pub use crate::figures::Interval;
pub use check::{check, field, Bound, CheckRow, CHECKED};
pub use estimate::{estimate, Estimates, Events, Measured, WindowSample};
pub use parts::{parts, Curve, Parts, CURVE_EVERY};
pub use shared::warming_of;
pub use text::{one_wave_runs_caution, one_window_runs_caution, render_check, render_parts, render_text};

use crate::config::Config;
use crate::figures::{Metrics, Spread};
use crate::sim::Simulator;
use serde::Serialize;
use std::collections::BTreeMap;
use tail::TailPlan;

/// A sampled run's estimates and what was simulated in detail to get them.
#[derive(Debug, Clone, Serialize)]
pub struct SampledReport {
    pub version: &'static str,
    pub kernel: String,
    pub size: &'static str,
    pub seed: u64,
    /// False when an error stopped the run.
    pub completed: bool,
    pub error: Option<String>,
    /// Every warp instruction of the run, counted exactly.
    pub warp_instructions: u64,
    /// The estimates (`cycles` and `ipc` for the whole run).
    pub estimate: Metrics,
    /// 95 % confidence intervals, by `estimate` field.
    pub intervals: BTreeMap<String, Interval>,
    /// Core cycles simulated in detail (warm-up, measurement and finishing), and measured.
    pub detailed_cycles: u64,
    pub measured_cycles: u64,
    pub windows: Vec<WindowSample>,
    pub config: Config,
    /// How the estimates err window by window, for the figures' verdicts (`figure_metrics`).
    #[serde(skip)]
    pub spread: Spread,
}

impl SampledReport {
    /// The windows that were sampled, not simulated whole: their spread gives the intervals,
    /// so with fewer than two there are none.
    pub fn sampled_windows(&self) -> usize {
        self.windows.iter().filter(|w| !w.exact && w.measured()).count()
    }
}

/// Where a sampled run is, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SampleProgress {
    pub windows_done: u32,
    pub windows: u32,
}

/// What a sampled run does next.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// Functional warming up to the next window or launch tail.
    Warm,
    /// A window's detailed warm-up, until this core cycle.
    WarmUp {
        until: u64,
    },
    /// A window's measurement, until this core cycle; its first half is recorded too, at
    /// `half` (then `None`).
    Measure {
        until: u64,
        half: Option<u64>,
    },
    /// A launch's head, in detail from its first dispatch until its first CTA completes,
    /// from this core cycle; one that reaches the launch's tail goes on as the tail.
    Head {
        from: u64,
    },
    /// A launch's tail, in detail to the launch's end, from this core cycle (a long one
    /// may turn into windows: `tail`).
    Tail {
        from: u64,
    },
    /// No issue while the requests in flight complete.
    Quiesce,
    Done,
}

/// A sampled run, advanced a bounded piece at a time (`step`) so a caller can show
/// progress and stop it: the CLI between chunks, the page's worker between messages.
/// With `sample.warming_*` set, it is the run those name, which other runs follow
/// (`shared`).
#[derive(Clone)]
pub struct Sampler {
    sim: Simulator,
    phase: Phase,
    /// Windows placed by thread block so far.
    k: u64,
    /// The windows inside the current launch's tail, while it has some.
    tail: Option<TailPlan>,
    /// The last launch whose tail was judged for windows (once per launch, and once more
    /// per drain of its windows).
    tail_judged: Option<usize>,
    /// While a sampled tail's drain runs: its launch and the windows placed in that tail,
    /// so the drain's own plan, if it gets one, numbers its windows on.
    drain_of: Option<(usize, u32)>,
    /// Windows measured inside tails, and planned there.
    tail_windows: (u32, u32),
    /// The last launch that fit on the machine at once (its head was its tail).
    fit_at_once: Option<usize>,
    /// Launches that fit at once and were sampled inside (their estimates' known bias).
    one_wave_sampled: u32,
    /// Core cycle the current detailed stretch started at.
    stretch_from: u64,
    detailed: u64,
    book: Book,
    /// Core cycles an L1 miss holds a warp in functional warming: the memory latency the
    /// last piece measured (`Metrics::memory_latency`).
    miss_latency: u64,
    /// The runs that take this run's warming.
    shared: shared::Shared,
}

/// The warming's L1-miss latency before any piece has measured one: between the GTX 480
/// presets' idle L2-hit (125) and DRAM-read (about 250) latencies (docs/machine-checks.md).
/// Only the warming before the first window uses it.
const FIRST_MISS_LATENCY: u64 = 200;

impl Sampler {
    /// `sim`'s run, sampled; with `sample.warming_*` naming another run, with that run's
    /// warming (`shared`), which it then simulates too.
    pub fn new(sim: Simulator) -> Self {
        match warming_of(sim.config()) {
            Some(reference) if !shared::is_reference(sim.config(), &reference) => Self::sharing(vec![sim], &reference),
            _ => Self::plain(sim),
        }
    }

    fn plain(sim: Simulator) -> Self {
        Self {
            sim,
            phase: Phase::Warm,
            k: 0,
            tail: None,
            tail_judged: None,
            drain_of: None,
            tail_windows: (0, 0),
            fit_at_once: None,
            one_wave_sampled: 0,
            stretch_from: 0,
            detailed: 0,
            book: Book::default(),
            miss_latency: FIRST_MISS_LATENCY,
            shared: shared::Shared::default(),
        }
    }

    pub fn sim(&self) -> &Simulator {
        &self.sim
    }

    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// (windows measured, windows planned).
    pub fn windows(&self) -> (u32, u32) {
        let (done, planned) = self.tail_windows;
        (self.k as u32 + done, self.sim.config().sample.windows.max(1) + planned)
    }

    /// Advances by one phase, or by at most `cycles` detailed core cycles; returns true
    /// once the run is over (finished or failed).
    pub fn step(&mut self, cycles: u64) -> bool {
        if self.shared.followers.is_empty() {
            return self.advance(cycles);
        }
        let (pieces, was_warm) = (self.book.pieces.len(), self.phase == Phase::Warm);
        let done = self.advance(cycles);
        self.follow(pieces, was_warm);
        done
    }

    /// `step` of this run alone.
    fn advance(&mut self, cycles: u64) -> bool {
        let sim = &mut self.sim;
        let s = sim.config().sample.clone();
        let n = u64::from(s.windows.max(1));
        if sim.error().is_some() {
            self.phase = Phase::Done;
        }
        match self.phase {
            Phase::Warm if self.tail.is_some() => {
                let plan = self.tail.as_mut().expect("guarded");
                sim.warm_for(plan.next_start().saturating_sub(sim.instructions_executed()), self.miss_latency);
                self.stretch_from = sim.cycle();
                if sim.is_finished() {
                    self.phase = Phase::Done;
                } else if sim.launch_index() != plan.launch {
                    // The launch ended in warming: on to the next, placed by thread block.
                    self.tail = None;
                } else if plan.place() {
                    self.book.start(sim, Some(tail_slot(plan.launch, plan.placed())));
                    sim.reset_stats();
                    self.phase = Phase::WarmUp { until: sim.cycle() + s.warmup_cycles };
                } else {
                    // The drain, in detail, judged as a tail again.
                    self.drain_of = Some((plan.launch, plan.placed()));
                    self.tail_judged = None;
                    self.tail = None;
                    self.book.start(sim, None);
                    sim.reset_stats();
                    self.phase = Phase::Tail { from: sim.cycle() };
                }
            }
            Phase::Warm => {
                // Systematic: window k at the middle of the k-th n-th of the CTAs.
                let total = sim.total_ctas();
                let target = if self.k < n { (2 * self.k + 1) * total / (2 * n) } else { total };
                sim.warm_until(target, self.miss_latency);
                self.stretch_from = sim.cycle();
                self.phase = if sim.is_finished() {
                    Phase::Done
                } else if sim.at_launch_start() {
                    self.book.start(sim, None);
                    sim.reset_stats();
                    Phase::Head { from: sim.cycle() }
                } else if sim.in_launch_tail() {
                    self.book.start(sim, None);
                    sim.reset_stats();
                    Phase::Tail { from: sim.cycle() }
                } else {
                    self.book.start(sim, Some(self.k));
                    sim.reset_stats();
                    Phase::WarmUp { until: sim.cycle() + s.warmup_cycles }
                };
            }
            Phase::WarmUp { until } => {
                sim.run_until(until.min(sim.cycle().saturating_add(cycles)));
                if sim.is_finished() || sim.error().is_some() {
                    // The run ended before the window measured: all of it since the window
                    // began was simulated in detail, so it is known exactly.
                    self.book.make_exact();
                    self.book.record(sim);
                    self.phase = Phase::Quiesce;
                } else if sim.cycle() >= until {
                    self.book.record_warmup(sim);
                    sim.reset_stats();
                    let (half, until) = (sim.cycle() + s.measure_cycles / 2, sim.cycle() + s.measure_cycles);
                    self.phase = Phase::Measure { until, half: Some(half) };
                }
            }
            Phase::Measure { until, half } => {
                sim.run_until(half.unwrap_or(until).min(sim.cycle().saturating_add(cycles)));
                if half.is_some_and(|h| sim.cycle() >= h) {
                    self.book.record_half(sim);
                    self.phase = Phase::Measure { until, half: None };
                    return false;
                }
                if sim.cycle() >= until || sim.is_finished() || sim.error().is_some() {
                    self.book.record(sim);
                    self.phase = if self.tail.is_some() {
                        self.tail_windows.0 += 1;
                        Phase::Quiesce
                    } else if sim.in_launch_tail() {
                        self.k += 1;
                        self.book.start(sim, None);
                        sim.reset_stats();
                        Phase::Tail { from: sim.cycle() }
                    } else {
                        self.k += 1;
                        Phase::Quiesce
                    };
                }
            }
            Phase::Head { from } => {
                let launch = sim.launch_index();
                let until = sim.cycle().saturating_add(cycles);
                let in_head =
                    |s: &Simulator| s.launch_index() == launch && s.launch_ctas_completed() == 0 && !s.in_launch_tail();
                while in_head(sim) && !sim.run_until(sim.cycle() + 1) && sim.cycle() < until {}
                if sim.launch_index() == launch && !sim.is_finished() && sim.in_launch_tail() {
                    // The whole launch fits at once: its head is its tail, one piece.
                    self.fit_at_once = Some(launch);
                    self.phase = Phase::Tail { from };
                } else if !in_head(sim) || sim.is_finished() || sim.error().is_some() {
                    self.book.record(sim);
                    self.phase = Phase::Quiesce;
                }
            }
            Phase::Tail { from } => {
                let launch = sim.launch_index();
                // A tail (and each drain of its windows) is judged once, after one window's worth of detailed cycles.
                let judge_at = (self.tail_judged != Some(launch)).then(|| from + s.warmup_cycles + s.measure_cycles);
                let until = sim.cycle().saturating_add(cycles).min(judge_at.unwrap_or(u64::MAX));
                while sim.launch_index() == launch && !sim.run_until(sim.cycle() + 1) && sim.cycle() < until {}
                if sim.launch_index() != launch || sim.is_finished() || sim.error().is_some() {
                    self.book.record(sim);
                    self.phase = Phase::Quiesce;
                } else if judge_at.is_some_and(|at| sim.cycle() >= at) {
                    self.tail_judged = Some(launch);
                    let now = sim.instructions_executed();
                    let window =
                        (now - self.book.mark) * (s.warmup_cycles + s.measure_cycles) / (sim.cycle() - from).max(1);
                    let left = sim.launch_instructions_left();
                    let drain = self.drain_of.take().filter(|&(l, _)| l == launch);
                    let base = drain.map_or(0, |(_, placed)| placed);
                    if let Some(plan) = TailPlan::new(launch, now, left, window, s.windows, base) {
                        self.one_wave_sampled += u32::from(self.fit_at_once == Some(launch) && drain.is_none());
                        self.book.record(sim);
                        self.tail_windows.1 += plan.windows();
                        self.tail = Some(plan);
                        self.phase = Phase::Quiesce;
                    }
                }
            }
            Phase::Quiesce => {
                if let Some(latency) = self.book.last_memory_latency() {
                    self.miss_latency = latency;
                }
                sim.learn_in_flight();
                let ok = sim.quiesce(u64::MAX / 4);
                self.detailed += sim.cycle() - self.stretch_from;
                self.phase = if ok && !sim.is_finished() { Phase::Warm } else { Phase::Done };
            }
            Phase::Done => {}
        }
        self.phase == Phase::Done
    }

    /// The estimates from the windows measured so far (all of them once `step` is done):
    /// of the first run `shared` was given.
    pub fn report(&self) -> SampledReport {
        self.reports().swap_remove(0)
    }

    /// The report of this run (`follower` None) or of a run that takes its warming.
    fn report_of(&self, follower: Option<usize>) -> SampledReport {
        let sim = &self.sim;
        let (windows, reads, config, error, detailed) = match follower {
            None => (
                self.book.pieces(sim),
                sim.run_warp_l2().0,
                sim.config(),
                sim.error().map(|e| e.to_string()),
                self.detailed,
            ),
            Some(i) => {
                let f = &self.shared.followers[i];
                let (windows, reads) = self.follower_parts(i, self.book.pieces(sim));
                (windows, reads, &f.config, f.error.clone().or_else(|| sim.error().map(|e| e.to_string())), f.detailed)
            }
        };
        let measured = windows.iter().map(|w| w.cycles).sum();
        let completed = sim.is_finished() && error.is_none();
        let Estimates { mut metrics, mut intervals, mut spread } = estimate(&windows, completed);
        // A warp lives across windows, so its type is judged on all its L2 reads, detailed
        // and warmed, not on a window's few.
        let table = sim.run_warp_l2().1;
        let warps = crate::stats::warp_report(&reads, table, config.medic.sampled_warps as usize);
        metrics.warp_types = warps.types;
        metrics.warp_hit_ratio_histogram = warps.l2_hit_ratio_histogram;
        metrics.one_wave_launches_sampled = self.one_wave_sampled;
        intervals.retain(|k, _| !k.starts_with("warp_types.") && !k.starts_with("warp_hit_ratio_histogram"));
        spread.retain(|k| intervals.contains_key(k));
        let mut report = SampledReport {
            version: env!("CARGO_PKG_VERSION"),
            kernel: sim.benchmark().name.clone(),
            size: sim.benchmark().size_name(),
            seed: sim.seed(),
            completed,
            error,
            warp_instructions: sim.instructions_executed(),
            estimate: metrics,
            intervals,
            detailed_cycles: detailed,
            measured_cycles: measured,
            windows,
            config: config.clone(),
            spread,
        };
        report.estimate.one_window_sampled = report.sampled_windows() == 1;
        report
    }
}

impl SampledReport {
    /// What a figure plots of this run: the estimates, their intervals and how they err.
    pub fn figure_metrics(&self) -> Metrics {
        Metrics { intervals: self.intervals.clone(), spread: self.spread.clone(), ..self.estimate.clone() }
    }
}

/// Runs `sim` sampled to its end, calling `progress` after each step; `stop` is polled
/// between steps (an interrupted run reports the windows it has).
pub fn run_sampled(
    sim: Simulator,
    mut progress: impl FnMut(&Simulator, SampleProgress),
    mut stop: impl FnMut() -> bool,
) -> (SampledReport, Simulator) {
    let mut run = Sampler::new(sim);
    while !run.step(50_000) {
        let (windows_done, windows) = run.windows();
        progress(run.sim(), SampleProgress { windows_done, windows });
        if stop() {
            break;
        }
    }
    (run.report(), run.sim)
}

/// The slot of the `j`-th window (from 1) inside launch `launch`'s tail; the run's systematic
/// windows take slots 0, 1, ... (window k), below these. Two runs of one kernel place window
/// k at the same thread block, and tail windows of a launch at the same shares of its tail.
fn tail_slot(launch: usize, j: u32) -> u64 {
    1 << 62 | (launch as u64) << 24 | u64::from(j)
}

/// Which instructions each measured piece stands for: a launch tail, simulated whole,
/// for its own; a window for its own and every instruction executed functionally after
/// it up to the next piece (those before the first window go to the first window).
#[derive(Default, Clone)]
struct Book {
    pieces: Vec<WindowSample>,
    /// Instructions executed when the last piece started or ended.
    mark: u64,
    /// Instructions not yet given to a window.
    unowned: u64,
}

impl Book {
    /// Gives the instructions since the mark to the last window, or holds them.
    fn settle(&mut self, now: u64) {
        let delta = now - self.mark;
        self.mark = now;
        match self.pieces.iter_mut().rev().find(|p| !p.exact) {
            Some(w) => w.chunk_instructions += delta,
            None => self.unowned += delta,
        }
    }

    /// A piece starts at the simulator's current point: a window at its plan's `slot`, or
    /// with none, a piece simulated and measured whole (a head, a tail).
    fn start(&mut self, sim: &Simulator, slot: Option<u64>) {
        let now = sim.instructions_executed();
        self.settle(now);
        let start_cta = sim.next_global_cta();
        let (exact, slot) = (slot.is_none(), slot.unwrap_or_default());
        self.pieces.push(WindowSample { start_cta, exact, slot, ..WindowSample::default() });
    }

    /// The current window's warm-up is over: what it ran.
    fn record_warmup(&mut self, sim: &Simulator) {
        let m = Measured::of(sim);
        let p = self.pieces.last_mut().expect("a window was started");
        (p.warmup_cycles, p.warmup_instructions) = (m.cycles, m.instructions);
    }

    /// The mean memory latency the last piece measured, in whole core cycles.
    fn last_memory_latency(&self) -> Option<u64> {
        let l = self.pieces.last()?.metrics.memory_latency;
        (l.is_finite() && l >= 1.0).then(|| l.round() as u64)
    }

    /// The current piece turns out to be known exactly (the run ended inside it).
    fn make_exact(&mut self) {
        if let Some(p) = self.pieces.last_mut() {
            p.exact = true;
        }
    }

    /// The piece ends: what it measured.
    fn record(&mut self, sim: &Simulator) {
        let m = Measured::of(sim);
        let now = sim.instructions_executed();
        let p = self.pieces.last_mut().expect("a piece was started");
        (p.cycles, p.instructions, p.metrics, p.events) = (m.cycles, m.instructions, m.metrics, m.events);
        if p.exact {
            p.chunk_instructions = now - self.mark;
            self.mark = now;
        }
    }

    /// The current window's measurement is half done: what its first half measured.
    fn record_half(&mut self, sim: &Simulator) {
        self.pieces.last_mut().expect("a window was started").first_half = Some(Measured::of(sim));
    }

    /// The pieces so far, with the instructions since the last one given out.
    fn pieces(&self, sim: &Simulator) -> Vec<WindowSample> {
        let mut b = Self { pieces: self.pieces.clone(), ..*self };
        b.settle(sim.instructions_executed());
        if let Some(w) = b.pieces.iter_mut().find(|p| !p.exact) {
            w.chunk_instructions += b.unowned;
        } else if let Some(p) = b.pieces.first_mut() {
            p.chunk_instructions += b.unowned;
        }
        b.pieces
    }
}
