//! One warming shared by runs that differ only in settings warming never reads, their DRAM
//! transaction scheduler and their ROP skip (`sample.warming_scheduler`,
//! `sample.warming_rop_skip`), after TurboSMARTS's live-points (Wenisch et al., 2005): the
//! warmed state a detailed piece starts from is the same for each of them, so it is
//! computed once.
//!
//! The run those fields name (the reference) is sampled as usual. Where it starts a
//! detailed piece, each other run takes a copy of the whole machine, switches the copy to
//! its own settings, and simulates the piece (and the quiescing after it) from there; the
//! copy is then dropped and the reference goes on. Each run's estimate comes from its own
//! pieces, standing for the reference's chunks of the run. A run with this setting is the
//! same alone or grouped: alone, it simulates the reference too without reporting it.
//!
//! What a run then does not have of its own: the state its settings would have left in the
//! caches and rows between pieces (the warming's, and the pieces', follow the reference),
//! the memory latency warming's pace holds a miss for (the reference's last piece's), and
//! the choice of where a launch's tail is cut into windows.

use super::{Phase, SampledReport, Sampler, WindowSample};
use crate::cache::l2::WarpL2Counters;
use crate::config::Config;
use crate::sim::Simulator;

/// A run that takes the reference's warming: its settings and what its pieces measured.
#[derive(Clone)]
pub(super) struct Follower {
    pub config: Config,
    /// One per reference piece, in order.
    pub pieces: Vec<WindowSample>,
    /// L2 reads per warp in its pieces, which stand in for the reference's.
    pub reads: WarpL2Counters,
    /// Core cycles it simulated in detail.
    pub detailed: u64,
    pub error: Option<String>,
}

/// The runs following a reference, and what the reference's own pieces read of the L2
/// (which theirs replace in their warp types).
#[derive(Clone, Default)]
pub(super) struct Shared {
    /// Where the reference's report goes among the runs', or None when it runs only to
    /// warm the others.
    pub reference_at: Option<usize>,
    pub followers: Vec<Follower>,
    /// L2 reads per warp in the reference's detailed stretches.
    reads: WarpL2Counters,
    /// The count when the reference's current detailed stretch began.
    open: Option<WarpL2Counters>,
}

/// The reference run's config of a sampled run that takes a shared warming: runs whose
/// references are equal, of one kernel, size and seed, can share it (`Sampler::shared`).
pub fn warming_of(cfg: &Config) -> Option<Config> {
    let s = &cfg.sample;
    if s.is_off() || (s.warming_scheduler.is_none() && s.warming_rop_skip.is_none()) {
        return None;
    }
    let mut c = cfg.clone();
    c.dram.scheduler = s.warming_scheduler.unwrap_or(c.dram.scheduler);
    c.l2.rop_skip = s.warming_rop_skip.unwrap_or(c.l2.rop_skip);
    Some(c)
}

/// Whether a run of `cfg` is the reference run `reference` (`warming_of`) itself.
pub(super) fn is_reference(cfg: &Config, reference: &Config) -> bool {
    (cfg.dram.scheduler, cfg.l2.rop_skip) == (reference.dram.scheduler, reference.l2.rop_skip)
}

impl Sampler {
    /// Runs sampled with one warming, that of the run their `sample.warming_*` fields name;
    /// `reports` gives theirs in this order. Fails unless they are built-in kernel runs
    /// that differ in `dram.scheduler` and `l2.rop_skip` alone (`warming_of`).
    pub fn shared(sims: Vec<Simulator>) -> Result<Self, String> {
        let first = sims.first().ok_or("no runs to share a warming")?;
        let key = warming_of(first.config())
            .ok_or("neither sample.warming_scheduler nor sample.warming_rop_skip is set (or sampling is off)")?;
        let same = |s: &Simulator| {
            warming_of(s.config()).as_ref() == Some(&key)
                && s.seed() == first.seed()
                && s.benchmark().name == first.benchmark().name
                && s.benchmark().size == first.benchmark().size
        };
        if first.benchmark().size.is_none() || !sims.iter().all(same) {
            return Err("runs share a warming only when they run one built-in kernel, size and seed, and differ \
                        in dram.scheduler and l2.rop_skip alone"
                .to_string());
        }
        Ok(Self::sharing(sims, &key))
    }

    /// `shared`'s runs, checked, with the warming of `reference`'s run.
    pub(super) fn sharing(mut sims: Vec<Simulator>, reference: &Config) -> Self {
        let at = sims.iter().position(|s| is_reference(s.config(), reference));
        let reference = match at {
            Some(i) => sims.remove(i),
            None => {
                // A fresh machine switched to the reference's settings is that run's machine.
                let mut r = sims[0].clone();
                r.switch_unwarmed_settings(reference);
                r
            }
        };
        let followers = sims
            .into_iter()
            .map(|s| Follower {
                config: s.config().clone(),
                pieces: Vec::new(),
                reads: WarpL2Counters::default(),
                detailed: 0,
                error: None,
            })
            .collect();
        let mut run = Sampler::plain(reference);
        run.shared = Shared { reference_at: at, followers, ..Shared::default() };
        run
    }

    /// After a step of the reference: each follower simulates the piece it started, and
    /// the reference's detailed stretches are counted.
    pub(super) fn follow(&mut self, pieces_before: usize, was_warm: bool) {
        let warm = matches!(self.phase, Phase::Warm | Phase::Done);
        if was_warm && !warm && self.shared.open.is_none() {
            self.shared.open = Some(self.sim.run_warp_l2().0);
        }
        if warm {
            if let Some(open) = self.shared.open.take() {
                self.shared.reads.merge(&self.sim.run_warp_l2().0.since(&open));
            }
        }
        let n = self.book.pieces.len();
        if n == pieces_before {
            return;
        }
        // Taken out while the machine is copied, so the copies carry none of it.
        let mut shared = std::mem::take(&mut self.shared);
        for f in &mut shared.followers {
            let mut copy = self.clone();
            copy.sim.switch_unwarmed_settings(&f.config);
            let (reads, from) = (copy.sim.run_warp_l2().0, copy.sim.cycle());
            // Its piece, and the quiescing after it; a piece that runs straight into the
            // next (a window into a launch's tail) ends where that one starts.
            while !copy.advance(u64::MAX / 4) && copy.phase != Phase::Warm && copy.book.pieces.len() == n {}
            f.reads.merge(&copy.sim.run_warp_l2().0.since(&reads));
            f.detailed += copy.sim.cycle() - from;
            if let Some(e) = copy.sim.error() {
                f.error.get_or_insert_with(|| e.to_string());
            }
            f.pieces.resize_with(n - 1, WindowSample::default);
            f.pieces.push(copy.book.pieces[n - 1].clone());
        }
        self.shared = shared;
    }

    /// How many runs it reports (`reports`).
    pub fn runs(&self) -> usize {
        match self.shared.followers.len() {
            0 => 1,
            n => n + usize::from(self.shared.reference_at.is_some()),
        }
    }

    /// Every run's report, in the order `shared` was given them (one for a plain run).
    pub fn reports(&self) -> Vec<SampledReport> {
        let own = self.report_of(None);
        if self.shared.followers.is_empty() {
            return vec![own];
        }
        let mut all: Vec<SampledReport> = (0..self.shared.followers.len()).map(|i| self.report_of(Some(i))).collect();
        if let Some(at) = self.shared.reference_at {
            all.insert(at, own);
        }
        all
    }

    /// Follower `i`'s pieces over the reference's chunks, and its L2 reads per warp: the
    /// reference's, its detailed stretches' replaced by the follower's.
    pub(super) fn follower_parts(&self, i: usize, base: Vec<WindowSample>) -> (Vec<WindowSample>, WarpL2Counters) {
        let f = &self.shared.followers[i];
        let pieces = base.iter().zip(&f.pieces).map(|(r, p)| over_chunk(r, p)).collect();
        let mut reads = self.sim.run_warp_l2().0;
        reads.remove(&self.shared.reads);
        if let Some(open) = &self.shared.open {
            reads.remove(&self.sim.run_warp_l2().0.since(open));
        }
        reads.merge(&f.reads);
        (pieces, reads)
    }
}

/// A follower's piece `p` standing for the reference piece `r`'s chunk: a piece simulated
/// whole covers the chunk at its own pace, even where the follower's run of it executed
/// a little more or less.
fn over_chunk(r: &WindowSample, p: &WindowSample) -> WindowSample {
    let mut w = p.clone();
    (w.start_cta, w.slot, w.exact, w.chunk_instructions) = (r.start_cta, r.slot, r.exact, r.chunk_instructions);
    if r.exact && p.instructions > 0 && p.instructions != r.chunk_instructions {
        w.cycles = (p.cycles as f64 * r.chunk_instructions as f64 / p.instructions as f64).round() as u64;
        w.instructions = r.chunk_instructions;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::preset;
    use crate::dram::sched::DramSchedulerKind;
    use crate::kernels::Size;

    fn sim(scheduler: DramSchedulerKind, tweak: impl Fn(&mut Config)) -> Simulator {
        let mut cfg = preset("sc14-gtx480").expect("a preset");
        cfg.dram.scheduler = scheduler;
        cfg.sample.windows = 6;
        cfg.sample.warming_scheduler = Some(DramSchedulerKind::Gmc);
        tweak(&mut cfg);
        Simulator::new(cfg, "bfs", Size::Small, 3).expect("builds")
    }

    fn reports(mut run: Sampler) -> Vec<serde_json::Value> {
        while !run.step(50_000) {}
        run.reports().iter().map(|r| serde_json::to_value(r).expect("serializes")).collect()
    }

    use DramSchedulerKind::{FrFcfs, Gmc, MedicWms, Wg, WgM};

    #[test]
    fn a_run_reports_the_same_alone_and_sharing_its_warming() {
        let group =
            reports(Sampler::shared(vec![sim(Gmc, |_| ()), sim(Wg, |_| ()), sim(WgM, |_| ())]).expect("shares"));
        assert_eq!(group.len(), 3);
        assert_eq!(reports(Sampler::new(sim(Wg, |_| ()))), [group[1].clone()], "WG alone");
        assert_eq!(reports(Sampler::new(sim(Gmc, |_| ()))), [group[0].clone()], "GMC alone is the warming's run");
        let without = reports(Sampler::shared(vec![sim(WgM, |_| ()), sim(Wg, |_| ())]).expect("shares"));
        assert_eq!(without, [group[2].clone(), group[1].clone()], "the warming's run unreported");
        for (r, scheduler) in group.iter().zip(["gmc", "wg", "wg_m"]) {
            assert_eq!(r["config"]["dram"]["scheduler"], scheduler);
            assert_eq!(r["completed"], true);
            assert_eq!(r["warp_instructions"], group[0]["warp_instructions"], "every run executes the kernel whole");
            assert_eq!(r["windows"].as_array().map(Vec::len), group[0]["windows"].as_array().map(Vec::len));
        }
        let cycles = |r: &serde_json::Value| {
            r["windows"].as_array().expect("windows").iter().map(|w| w["cycles"].clone()).collect::<Vec<_>>()
        };
        assert_ne!(cycles(&group[1]), cycles(&group[0]), "WG's pieces are its own");
    }

    #[test]
    fn a_run_following_a_copy_of_its_own_scheduler_reports_what_the_warming_run_does() {
        // Each piece starts from the warming run's state with a fresh GMC, which holds nothing
        // once the requests in flight have drained: the pieces, and so every estimate and the
        // warp types (the warming run's warmed reads plus the follower's detailed ones), agree.
        let group = reports(Sampler::shared(vec![sim(Gmc, |_| ()), sim(Gmc, |_| ())]).expect("shares"));
        assert_eq!(group[0], group[1]);
    }

    #[test]
    fn runs_that_differ_in_their_rop_skip_share_a_warming_too() {
        // medic-fig11's Baseline, the skip alone and WMS: warming never reads either setting.
        use crate::config::RopSkip::{All, Bypassed};
        let medic = |skip, scheduler| {
            let mut cfg = preset("medic-gtx480").expect("a preset");
            (cfg.l2.rop_skip, cfg.dram.scheduler) = (skip, scheduler);
            cfg.sample.windows = 6;
            (cfg.sample.warming_scheduler, cfg.sample.warming_rop_skip) = (Some(FrFcfs), Some(Bypassed));
            Simulator::new(cfg, "bfs", Size::Small, 3).expect("builds")
        };
        let group = reports(
            Sampler::shared(vec![medic(Bypassed, FrFcfs), medic(All, FrFcfs), medic(Bypassed, MedicWms)])
                .expect("shares"),
        );
        assert_eq!(reports(Sampler::new(medic(All, FrFcfs))), [group[1].clone()], "the skip alone");
        assert_eq!(group[1]["config"]["l2"]["rop_skip"], "all");
        assert_eq!(group[2]["config"]["dram"]["scheduler"], "medic_wms");
        let latency = |r: &serde_json::Value| r["estimate"]["memory_latency"].as_f64().expect("a latency");
        assert!(latency(&group[1]) < latency(&group[0]), "the skip's pieces are its own: shorter latencies");
    }

    #[test]
    fn only_runs_that_differ_in_what_warming_never_reads_share_a_warming() {
        let other_l2 = sim(Wg, |c| c.l2.size_kb /= 2);
        assert!(Sampler::shared(vec![sim(Gmc, |_| ()), other_l2]).is_err());
        let other_skip = sim(Wg, |c| c.l2.rop_skip = crate::config::RopSkip::All);
        assert!(Sampler::shared(vec![sim(Gmc, |_| ()), other_skip]).is_err(), "without warming_rop_skip named");
        let unset = sim(Wg, |c| c.sample.warming_scheduler = None);
        assert!(Sampler::shared(vec![sim(Gmc, |_| ()), unset]).is_err());
        let mut cfg = preset("sc14-gtx480").expect("a preset");
        cfg.sample.windows = 6;
        cfg.sample.warming_scheduler = Some(Gmc);
        let other_seed = Simulator::new(cfg, "bfs", Size::Small, 4).expect("builds");
        assert!(Sampler::shared(vec![sim(Gmc, |_| ()), other_seed]).is_err());
    }
}
