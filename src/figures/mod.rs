//! The figure gallery: each paper's headline figures, one definition apiece — the runs a
//! figure needs and how their numbers become bars and a verdict on the paper's claim. The
//! CLI (`warpscope figure`) and the web gallery both plan and build figures through here, so
//! a figure is the same wherever it is drawn.

mod grid;
mod iwarp;
mod medic;
pub(crate) mod metrics;
mod noise;
mod sc14;
mod sound;
mod xie;

pub use metrics::{Interval, Metrics, Spread, FRACTIONS, ONE_WAVE_IPC_MISS, REPORT_KEYS};

use crate::config::{apply_bundle, apply_set, parse_config_value, preset, ConfigError, ConfigErrors, RopSkip};
use crate::dram::sched::DramSchedulerKind;
use crate::kernels::Size;
use crate::plot::BarFigure;
use crate::Config;
use serde::{Deserialize, Serialize};

/// One figure of one paper.
pub struct Figure {
    /// Stable name: CLI argument, URL parameter, file stem.
    pub name: &'static str,
    pub paper: Paper,
    /// What the figure shows, for its card and page.
    pub title: &'static str,
    /// The paper's claim in one sentence.
    pub claim: &'static str,
    plan: fn() -> Vec<RunSpec>,
    build: fn(&[(RunSpec, Metrics)]) -> Outcome,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paper {
    Medic,
    Sound,
    Iwarp,
    Xie,
    Sc14,
}

impl Paper {
    pub fn citation(self) -> &'static str {
        match self {
            Paper::Medic => "Ausavarungnirun et al., MeDiC (HPCA 2015)",
            Paper::Sound => "A sound GPU baseline (WDDD 2017)",
            Paper::Iwarp => "iWarp: intra-warp locality (draft)",
            Paper::Xie => "Xie et al., coordinated static and dynamic cache bypassing (HPCA 2015)",
            Paper::Sc14 => "Chatterjee et al., managing DRAM latency divergence (SC 2014)",
        }
    }
}

/// One simulation a figure needs: where its bar goes and the machine it runs on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSpec {
    /// The x-axis group the run's bar belongs to (usually the kernel).
    pub category: String,
    /// The bar's series within the group (usually the policy).
    pub series: String,
    pub preset: &'static str,
    pub kernel: &'static str,
    /// A policy bundle applied before `sets` (see `warpscope list bundles`).
    pub bundle: Option<&'static str>,
    /// `--set` overrides, applied in order.
    pub sets: Vec<(&'static str, String)>,
    /// Stop after this many core cycles (a window into the run).
    pub max_cycles: Option<u64>,
    /// Sampled, the DRAM scheduler and the ROP skip of the run whose warming it takes
    /// (`sample.warming_scheduler`, `sample.warming_rop_skip`), so the figure's runs that
    /// differ only in those warm once.
    pub warming_scheduler: Option<DramSchedulerKind>,
    pub warming_rop_skip: Option<RopSkip>,
}

impl RunSpec {
    pub(crate) fn new(
        category: impl Into<String>,
        series: impl Into<String>,
        preset: &'static str,
        kernel: &'static str,
    ) -> Self {
        Self {
            category: category.into(),
            series: series.into(),
            preset,
            kernel,
            bundle: None,
            sets: Vec::new(),
            max_cycles: None,
            warming_scheduler: None,
            warming_rop_skip: None,
        }
    }

    pub(crate) fn warming_of(mut self, scheduler: DramSchedulerKind) -> Self {
        self.warming_scheduler = Some(scheduler);
        self
    }

    pub(crate) fn warming_rop_skip_of(mut self, skip: RopSkip) -> Self {
        self.warming_rop_skip = Some(skip);
        self
    }

    pub(crate) fn bundle(mut self, b: &'static str) -> Self {
        self.bundle = Some(b);
        self
    }

    pub(crate) fn set(mut self, path: &'static str, value: impl ToString) -> Self {
        self.sets.push((path, value.to_string()));
        self
    }

    /// The machine this run simulates.
    pub fn config(&self) -> Result<Config, ConfigErrors> {
        let cfg =
            preset(self.preset).ok_or_else(|| ConfigError::new("preset", format!("no preset `{}`", self.preset)))?;
        let mut doc = crate::config::config_document(&cfg);
        if let Some(b) = self.bundle {
            apply_bundle(&mut doc, b)?;
        }
        for (path, value) in &self.sets {
            apply_set(&mut doc, path, value)?;
        }
        parse_config_value(doc)
    }
}

/// A planned run, as the browser's workers take it.
#[derive(Debug, Clone, Serialize)]
pub struct PlannedRun {
    pub category: String,
    pub series: String,
    pub kernel: &'static str,
    pub size: &'static str,
    pub seed: u64,
    pub max_cycles: Option<u64>,
    pub config: Config,
    /// What `config.sample.warming_scheduler` and `warming_rop_skip` become when the run
    /// is sampled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warming_scheduler: Option<DramSchedulerKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warming_rop_skip: Option<RopSkip>,
}

impl PlannedRun {
    /// Its config sampled with `windows` windows, or whole when it is a window into the run
    /// (sound-fig10's first 20 000 cycles), which is shorter than one sampled window.
    pub fn sampled_config(&self, windows: u32) -> Config {
        let mut c = self.config.clone();
        if self.max_cycles.is_none() {
            c.sample.windows = windows;
            c.sample.warming_scheduler = self.warming_scheduler;
            c.sample.warming_rop_skip = self.warming_rop_skip;
        }
        c
    }
}

/// How a figure's verdict is made, as the gallery page and `warpscope figure --help` say it.
pub const VERDICT_RULES: &str = "\
How a verdict is made: each figure states its checks in its code before it runs. Direction: \
each finding the paper's claim makes must point the paper's way (for example, that MeDiC's \
harmonic-mean speedup is above 1, or that WG-M lowers latency on most kernels); where a change \
could be noise, a check asks for more than 1 %. Size: each effect whose size the claim states \
(MeDiC's +41.5 %, WG-M's −16.9 %, BXOR's 1.58x) must be within a factor of 2 of it, measured \
as a change from no effect, so 1.2x against the paper's 1.4x is half its size and holds, while \
4.88x against 1.88x is 4.4 times it and does not. A figure agrees when every check holds, \
partly agrees when some do, and differs when none does.

Figures whose claim states no size (medic-fig3, medic-fig14, sound-fig10, sound-fig12, \
sc14-fig10) are judged by direction only, and iwarp-fig2's checks are already thresholds \
near the paper's shares. The sentence beside a verdict gives our numbers, the paper's and, \
where sizes are checked, ours as a multiple of the paper's.

Sampled runs (paper, sampled) give estimates with 95 % intervals, and a difference inside \
the noise is not a gain: the figure is rebuilt 400 times with every sampled number drawn \
within its interval, and a check counts only if it holds at the estimates and in at least \
95 % of the draws. Runs of one kernel are drawn window by window, each window of the plan \
moving alike in every run, so what a baseline and a policy measure alike is not noise in \
their difference. The verdict's last sentence says how many checks survived.

Input sizes: tiny runs in seconds but leaves the caches cold, far from the papers' regime: \
use it to see a figure work, not to judge it. small is the demos' size; paper is the \
papers' inputs (minutes to hours). A verdict can change between sizes.";

/// Whether our numbers point the way the paper's do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Agreement {
    Agrees,
    Partly,
    Differs,
}

impl Agreement {
    pub fn word(self) -> &'static str {
        match self {
            Agreement::Agrees => "agrees",
            Agreement::Partly => "partly agrees",
            Agreement::Differs => "differs",
        }
    }

    /// `Agrees` when every check holds, `Differs` when none does.
    pub(crate) fn of(checks: &[bool]) -> Self {
        match checks.iter().filter(|&&c| c).count() {
            n if n == checks.len() => Agreement::Agrees,
            0 => Agreement::Differs,
            _ => Agreement::Partly,
        }
    }
}

/// An effect whose size the paper's claim states, against ours. Both are changes from no
/// effect (a ratio minus 1), so a +41.5 % speedup is 0.415 and a 9.1 % cut is −0.091.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SizeCheck {
    /// What the effect is, as the figure's bars name it ("MeDiC", "WG-M").
    pub what: String,
    pub ours: f64,
    pub paper: f64,
}

impl SizeCheck {
    /// How far from the paper's size ours may be, either way: one rule for every figure.
    pub const FACTOR: f64 = 2.0;

    /// A check of `ours` against `paper`, both given as ratios to no effect (1.415 for +41.5 %).
    pub(crate) fn of_ratios(what: &str, ours: f64, paper: f64) -> Self {
        Self { what: what.to_string(), ours: ours - 1.0, paper: paper - 1.0 }
    }

    /// Ours as a multiple of the paper's size; negative when it points the other way.
    pub fn multiple(&self) -> f64 {
        self.ours / self.paper
    }

    /// Same direction, and within `FACTOR` of the paper's size.
    pub fn holds(&self) -> bool {
        let m = self.multiple();
        m.is_finite() && (1.0 / Self::FACTOR..=Self::FACTOR).contains(&m)
    }

    fn describe(&self) -> String {
        let m = self.multiple();
        if !m.is_finite() {
            format!("{} n/a", self.what)
        } else if m < 0.0 {
            format!("{} the other way", self.what)
        } else {
            format!("{} {m:.2}x", self.what)
        }
    }
}

/// What a figure's runs showed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub agreement: Agreement,
    /// Our numbers against the paper's, in a sentence or two.
    pub summary: String,
    /// The sizes the claim states, against ours (empty where it states none).
    #[serde(default)]
    pub sizes: Vec<SizeCheck>,
    /// Every check the agreement counts, direction checks first, then sizes: what the
    /// interval judgement (`noise`) re-reads under draws within sampled runs' intervals.
    #[serde(skip)]
    checks: Vec<bool>,
}

/// A built figure: its bars and the verdict on the paper's claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub figure: BarFigure,
    pub verdict: Verdict,
}

impl Outcome {
    /// The figure with the verdict its direction checks and the claim's sizes give; the
    /// summary gains a sentence with each size as a multiple of the paper's.
    pub(crate) fn new(figure: BarFigure, directions: &[bool], sizes: Vec<SizeCheck>, mut summary: String) -> Self {
        let mut checks = directions.to_vec();
        checks.extend(sizes.iter().map(SizeCheck::holds));
        if !sizes.is_empty() {
            let held = sizes.iter().filter(|s| s.holds()).count();
            let each: Vec<String> = sizes.iter().map(SizeCheck::describe).collect();
            summary.push_str(&format!(
                " Size, ours as a multiple of the paper's: {} ({held} of {} within {}x).",
                each.join(", "),
                sizes.len(),
                SizeCheck::FACTOR
            ));
        }
        Self { figure, verdict: Verdict { agreement: Agreement::of(&checks), summary, sizes, checks } }
    }
}

impl Figure {
    /// The runs in the order `build` expects their metrics.
    pub fn specs(&self) -> Vec<RunSpec> {
        (self.plan)()
    }

    /// Every run resolved to its machine at `size` and `seed`.
    pub fn plan(&self, size: Size, seed: u64) -> Result<Vec<PlannedRun>, ConfigErrors> {
        self.specs()
            .into_iter()
            .map(|s| {
                Ok(PlannedRun {
                    config: s.config()?,
                    category: s.category,
                    series: s.series,
                    kernel: s.kernel,
                    size: size.as_str(),
                    seed,
                    max_cycles: s.max_cycles,
                    warming_scheduler: s.warming_scheduler,
                    warming_rop_skip: s.warming_rop_skip,
                })
            })
            .collect()
    }

    /// The figure from its runs' metrics, in plan order.
    pub fn build(&self, metrics: Vec<Metrics>) -> Result<Outcome, String> {
        let specs = self.specs();
        if specs.len() != metrics.len() {
            return Err(format!("figure `{}` needs {} runs, got {}", self.name, specs.len(), metrics.len()));
        }
        let runs: Vec<(RunSpec, Metrics)> = specs.into_iter().zip(metrics).collect();
        Ok(noise::judge((self.build)(&runs), &runs, self.build))
    }
}

/// Every figure, in gallery order.
pub fn figures() -> Vec<Figure> {
    let mut all = medic::figures();
    all.extend(sound::figures());
    all.extend(iwarp::figures());
    all.extend(xie::figures());
    all.extend(sc14::figures());
    all
}

/// The figure called `name`; an unknown name gets an error listing the valid ones.
pub fn figure(name: &str) -> Result<Figure, String> {
    let all = figures();
    let names: Vec<&str> = all.iter().map(|f| f.name).collect();
    let names = names.join(", ");
    all.into_iter()
        .find(|f| f.name == name)
        .ok_or_else(|| format!("unknown figure `{name}`; valid figures are: {names}"))
}

#[cfg(test)]
mod tests;
