//! The static half of coordinated L1 bypassing (Xie et al., HPCA 2015, section 4):
//! profiling runs measure each global load's locality alone and in its group, and
//! Algorithm 1 tags every load `ca` (cache), `cg` (bypass) or `cm` (left to the
//! thread-block learner).
//!
//! Groups stand in for the paper's inter-instruction locality graph: two loads can share
//! lines if they read the same array and a path joins them without a loop or a barrier.
//! From a built-in kernel's static description that means the same kernel function, the
//! same array, both in a loop or both outside one, and the same side of the barrier.

use crate::cache::l1::bypass::{LoadTags, Profile};
use crate::config::{Config, L1BypassKind};
use crate::kernels::{self, Size};
use crate::mem::{AccessKind, CacheOp};
use crate::{ConfigError, ConfigErrors, Simulator};
use serde::Serialize;
use std::collections::BTreeMap;

/// What profiling found for one static load, and its tag.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadClass {
    pub pc: u32,
    pub array: &'static str,
    pub in_loop: bool,
    pub after_barrier: bool,
    /// Index of its group (loads that may share lines).
    pub group: usize,
    /// L1 accesses of the load when it alone uses the L1: access(i).
    pub accesses: u64,
    /// Its L1 hits then: hit(i).
    pub hits: u64,
    /// Hits of its whole group when the group alone uses the L1: hit(g).
    pub group_hits: u64,
    /// Algorithm 1's `Hit = hit(i) + extra(g) / size(g)` over `access(i)`.
    pub hit_share: f64,
    pub tag: CacheOp,
}

/// The profile of a benchmark: how it was measured and each load's class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Classification {
    pub kernel: String,
    pub profile_size: Size,
    pub profile_seed: u64,
    /// Simulations the profile took: one per load and one per group of two or more.
    pub profiling_runs: usize,
    pub loads: Vec<LoadClass>,
}

impl Classification {
    pub fn tags(&self) -> LoadTags {
        LoadTags::new(self.loads.iter().map(|l| (l.pc, l.tag)))
    }

    /// All-or-nothing per load (the instruction-level comparison): a load keeps the L1
    /// when its hit share reaches the midpoint of the two thresholds.
    pub fn all_or_nothing(&self, cfg: &Config) -> LoadTags {
        let mid = (cfg.coordinated.high_thres + cfg.coordinated.low_thres) / 2.0;
        LoadTags::new(self.loads.iter().map(|l| (l.pc, if l.hit_share >= mid { CacheOp::Ca } else { CacheOp::Cg })))
    }
}

/// A static global load of the benchmark (deduplicated by PC over its launches).
#[derive(Debug, Clone, Copy)]
struct Load {
    pc: u32,
    /// The first launch it appears in: loads of one kernel function share it.
    function: usize,
    array: &'static str,
    in_loop: bool,
    after_barrier: bool,
}

/// The per-load tags the configured L1 bypass policy runs with, profiling if it needs to.
pub fn load_tags(cfg: &Config, kernel: &str, seed: u64) -> Result<LoadTags, ConfigErrors> {
    Ok(match cfg.l1d.bypass.profile() {
        Some(Profile::Tags) => classify(cfg, kernel, seed)?.tags(),
        Some(Profile::AllOrNothing) => classify(cfg, kernel, seed)?.all_or_nothing(cfg),
        Some(Profile::EveryLoadCm) => {
            let bench = kernels::build_shared(kernel, cfg.coordinated.profile_size, seed)?;
            LoadTags::new(static_loads(&bench).iter().map(|l| (l.pc, CacheOp::Cm)))
        }
        None => LoadTags::default(),
    })
}

/// Profiles `kernel` on the configured machine at `coordinated.profile_size` with seed
/// `seed + 1` (a different input than the run it serves) and classifies its loads.
pub fn classify(cfg: &Config, kernel: &str, seed: u64) -> Result<Classification, ConfigErrors> {
    let size = cfg.coordinated.profile_size;
    let profile_seed = seed.wrapping_add(1);
    let bench = kernels::build_shared(kernel, size, profile_seed)?;
    let loads = static_loads(&bench);
    let groups = groups(&loads);
    // A profiling run caches the loads under test and bypasses the others: static_only
    // with those tags.
    let mut base = cfg.clone();
    base.l1d.bypass = L1BypassKind::StaticOnly;

    let mut runs = 0;
    let mut profile = |cached: &[u32]| -> Result<BTreeMap<u32, (u64, u64)>, ConfigErrors> {
        runs += 1;
        let tags = loads.iter().map(|l| (l.pc, if cached.contains(&l.pc) { CacheOp::Ca } else { CacheOp::Cg }));
        profile_run(&base, kernel, size, profile_seed, LoadTags::new(tags))
    };
    let mut alone = BTreeMap::new();
    for l in &loads {
        alone.insert(l.pc, profile(&[l.pc])?.get(&l.pc).copied().unwrap_or_default());
    }
    let mut group_hits = vec![0; groups.len()];
    for (g, members) in groups.iter().enumerate() {
        group_hits[g] = if members.len() == 1 {
            alone[&loads[members[0]].pc].1
        } else {
            let pcs: Vec<u32> = members.iter().map(|&i| loads[i].pc).collect();
            let counts = profile(&pcs)?;
            pcs.iter().map(|pc| counts.get(pc).map_or(0, |c| c.1)).sum()
        };
    }

    let group_of = |i: usize| groups.iter().position(|m| m.contains(&i)).expect("every load has a group");
    let measured: Vec<(u64, u64)> = loads.iter().map(|l| alone[&l.pc]).collect();
    let shares = hit_shares(&measured, &groups, &group_hits);
    let (high, low) = (cfg.coordinated.high_thres, cfg.coordinated.low_thres);
    let classes = loads
        .iter()
        .enumerate()
        .map(|(i, l)| LoadClass {
            pc: l.pc,
            array: l.array,
            in_loop: l.in_loop,
            after_barrier: l.after_barrier,
            group: group_of(i),
            accesses: measured[i].0,
            hits: measured[i].1,
            group_hits: group_hits[group_of(i)],
            hit_share: shares[i],
            tag: tag(shares[i], measured[i].0, high, low),
        })
        .collect();
    Ok(Classification {
        kernel: kernel.to_string(),
        profile_size: size,
        profile_seed,
        profiling_runs: runs,
        loads: classes,
    })
}

/// One profiling simulation with the given tags; (L1 accesses, hits) per PC over all SMs.
fn profile_run(
    cfg: &Config,
    kernel: &str,
    size: Size,
    seed: u64,
    tags: LoadTags,
) -> Result<BTreeMap<u32, (u64, u64)>, ConfigErrors> {
    let bench = kernels::build_shared(kernel, size, seed)?;
    Simulator::check_fits(cfg, &bench)?;
    let mut sim = Simulator::with_benchmark(cfg.clone(), bench, seed);
    sim.profile_loads(tags);
    sim.run_until(u64::MAX);
    if let Some(e) = sim.error() {
        return Err(ConfigError::new("l1d.bypass", format!("the profiling run of {kernel} failed: {e}")).into());
    }
    Ok(sim.pc_counts())
}

/// The benchmark's global loads, once per PC, in PC order.
fn static_loads(bench: &kernels::Benchmark) -> Vec<Load> {
    let mut by_pc = BTreeMap::new();
    for (function, k) in bench.launches.iter().enumerate() {
        for s in k.static_loads().into_iter().filter(|s| s.kind == AccessKind::Read) {
            by_pc.entry(s.pc).or_insert(Load {
                pc: s.pc,
                function,
                array: s.array,
                in_loop: s.in_loop,
                after_barrier: s.after_barrier,
            });
        }
    }
    by_pc.into_values().collect()
}

/// Loads (by index) that may share lines: same kernel function, same array, same loop
/// nesting, same side of the barrier.
fn groups(loads: &[Load]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, l) in loads.iter().enumerate() {
        let same = |j: &usize| {
            let o = &loads[*j];
            o.function == l.function
                && o.array == l.array
                && o.in_loop == l.in_loop
                && o.after_barrier == l.after_barrier
        };
        match groups.iter_mut().find(|g| g.iter().any(same)) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
}

/// Algorithm 1, lines 2-7: each load's `Hit = hit(v) + extra(g) / size(g)` with
/// `extra(g) = hit(g) - sum of hit(v)`, as a share of its accesses.
fn hit_shares(measured: &[(u64, u64)], groups: &[Vec<usize>], group_hits: &[u64]) -> Vec<f64> {
    let mut shares = vec![0.0; measured.len()];
    for (members, &hit_g) in groups.iter().zip(group_hits) {
        let alone: u64 = members.iter().map(|&i| measured[i].1).sum();
        let extra = hit_g as f64 - alone as f64;
        for &i in members {
            let (access, hit) = measured[i];
            let h = hit as f64 + extra / members.len() as f64;
            shares[i] = if access == 0 { 0.0 } else { h / access as f64 };
        }
    }
    shares
}

/// Algorithm 1, lines 8-14. A load the profile never saw keeps the L1 (`ca`).
fn tag(share: f64, accesses: u64, high: f64, low: f64) -> CacheOp {
    if accesses == 0 || share >= high {
        CacheOp::Ca
    } else if share <= low {
        CacheOp::Cg
    } else {
        CacheOp::Cm
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(pc: u32, function: usize, array: &'static str, in_loop: bool) -> Load {
        Load { pc, function, array, in_loop, after_barrier: false }
    }

    #[test]
    fn loads_of_one_array_on_a_loop_free_path_form_a_group() {
        let loads = [
            load(1, 0, "row", false),
            load(2, 0, "row", false),
            load(3, 0, "col", true),
            load(4, 0, "row", true),
            load(5, 1, "row", false),
        ];
        assert_eq!(groups(&loads), vec![vec![0, 1], vec![2], vec![3], vec![4]]);
    }

    #[test]
    fn built_in_kernels_are_classified_like_the_paper_where_the_code_matches() {
        let cfg = crate::config::preset("xie-fermi").unwrap();
        // hotspot: both loads stream through once (the paper tags its 2 loads cg).
        let c = classify(&cfg, "hotspot", 1).unwrap();
        assert!(c.loads.iter().all(|l| l.tag == CacheOp::Cg), "{c:?}");
        // conv_separable: each tap alone never hits, the 10 taps together share lines,
        // so the group's extra hits make every tap cm (the paper: CVR 0/10/0).
        let c = classify(&cfg, "conv_separable", 1).unwrap();
        let taps: Vec<&LoadClass> = c.loads.iter().filter(|l| l.array == "src").collect();
        assert_eq!(taps.len(), 10);
        assert!(taps.iter().all(|l| l.hits == 0 && l.group_hits > 0 && l.tag == CacheOp::Cm), "{taps:?}");
        assert_eq!(c.profiling_runs, c.loads.len() + 2, "one run per load and per shared group");
    }

    #[test]
    fn algorithm_1_shares_a_groups_extra_hits_among_its_loads() {
        // Loads 0 and 1 alone: 10 and 20 hits of 100; together 90 hits, so 60 extra,
        // 30 each: shares 0.4 and 0.5. Load 2 alone: 80 of 100.
        let measured = [(100, 10), (100, 20), (100, 80)];
        let shares = hit_shares(&measured, &[vec![0, 1], vec![2]], &[90, 80]);
        assert_eq!(shares, vec![0.4, 0.5, 0.8]);
        let tags: Vec<CacheOp> = shares.iter().map(|&s| tag(s, 100, 0.7, 0.3)).collect();
        assert_eq!(tags, [CacheOp::Cm, CacheOp::Cm, CacheOp::Ca]);
        assert_eq!(tag(0.3, 100, 0.7, 0.3), CacheOp::Cg, "LowThres itself bypasses");
        assert_eq!(tag(0.7, 100, 0.7, 0.3), CacheOp::Ca, "HighThres itself caches");
        assert_eq!(tag(0.0, 0, 0.7, 0.3), CacheOp::Ca, "an unseen load keeps the L1");
    }
}
