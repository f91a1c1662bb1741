//! The static half of coordinated L1 bypassing (Xie et al., HPCA 2015, section 4):
//! profiling runs measure each global load's locality alone and in its group, and
//! Algorithm 1 tags every load `ca` (cache), `cg` (bypass) or `cm` (left to the
//! thread-block learner).
//!
//! Groups stand in for the paper's inter-instruction locality graph: two loads can share
//! lines if they read the same array and a path joins them without a loop or a barrier.
//! From a built-in kernel's static description that means the same kernel function, the
//! same array, both in a loop or both outside one, and the same side of the barrier; a
//! trace implies the same facts by its instructions (`traced`).
//!
//! The profile is measured on a second input: for a built-in kernel the same kernel at
//! `coordinated.profile_size` with the next seed; for a trace, a second trace of the same
//! program (the paper profiles on a smaller input) or, by default, the measured trace
//! itself, which makes the tags an oracle's.
//!
//! It is part of `sim` because building a coordinated-bypass machine (`Simulator::new`) runs
//! these profiling simulations first: the two call each other.

mod traced;

use crate::cache::l1::bypass::{LoadTags, Profile};
use crate::config::{Config, L1BypassKind};
use crate::kernels::{self, Benchmark, Size};
use crate::mem::{AccessKind, CacheOp};
use crate::{ConfigError, ConfigErrors, Simulator};
use serde::Serialize;
use std::collections::BTreeMap;
use std::rc::Rc;

/// What profiling found for one static load, and its tag.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadClass {
    pub pc: u32,
    /// The array it reads (for a trace: the span of the overlapping address ranges).
    pub array: String,
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
    /// Algorithm 1's tags of `loads`.
    fn tags(loads: &[LoadClass]) -> LoadTags {
        LoadTags::new(loads.iter().map(|l| (l.pc, l.tag)))
    }

    /// All-or-nothing per load (the instruction-level comparison): a load keeps the L1
    /// when its hit share reaches the midpoint of the two thresholds.
    fn all_or_nothing(loads: &[LoadClass], cfg: &Config) -> LoadTags {
        let mid = (cfg.coordinated.high_thres + cfg.coordinated.low_thres) / 2.0;
        LoadTags::new(loads.iter().map(|l| (l.pc, if l.hit_share >= mid { CacheOp::Ca } else { CacheOp::Cg })))
    }
}

/// A static global load of the benchmark (deduplicated by PC over its launches).
#[derive(Debug, Clone)]
struct Load {
    pc: u32,
    /// The first launch it appears in: loads of one kernel function share it.
    function: usize,
    array: String,
    in_loop: bool,
    after_barrier: bool,
}

/// The input a profiling pass runs, opened afresh for every profiling run (a trace's
/// kernels are read as they run).
pub struct ProfileInput<'a> {
    /// What errors call it.
    name: &'a str,
    open: &'a dyn Fn() -> Result<Rc<Benchmark>, ConfigErrors>,
    /// The seed of the profiling runs (for randomised policies).
    seed: u64,
    /// How its loads are found: a built-in kernel lists them, a trace is read through.
    loads: fn(&Benchmark) -> Result<Vec<Load>, ConfigErrors>,
}

impl<'a> ProfileInput<'a> {
    /// A trace, named `name` in errors, that `open` opens, profiled with seed `seed`.
    pub fn trace(name: &'a str, open: &'a dyn Fn() -> Result<Rc<Benchmark>, ConfigErrors>, seed: u64) -> Self {
        Self { name, open, seed, loads: traced_loads }
    }
}

/// The per-load tags the configured L1 bypass policy runs with on built-in `kernel` with
/// seed `seed`, profiling if it needs to.
pub fn load_tags(cfg: &Config, kernel: &str, seed: u64) -> Result<LoadTags, ConfigErrors> {
    let size = cfg.coordinated.profile_size;
    if cfg.l1d.bypass.profile() == Some(Profile::EveryLoadCm) {
        return every_load_cm(listed_loads(&*kernels::build_shared(kernel, size, seed)?)?);
    }
    let profile_seed = seed.wrapping_add(1);
    let open = || Ok(kernels::build_shared(kernel, size, profile_seed)?);
    input_load_tags(cfg, &ProfileInput { name: kernel, open: &open, seed: profile_seed, loads: listed_loads })
}

/// The per-load tags the configured L1 bypass policy runs with when `input` is its
/// profiling input (for a trace: the loads are the traced PCs).
pub fn input_load_tags(cfg: &Config, input: &ProfileInput<'_>) -> Result<LoadTags, ConfigErrors> {
    let kind = match cfg.l1d.bypass.profile() {
        None => return Ok(LoadTags::default()),
        Some(Profile::EveryLoadCm) => return every_load_cm((input.loads)(&*(input.open)()?)?),
        Some(kind) => kind,
    };
    let loads = profile(cfg, input)?.0;
    Ok(match kind {
        Profile::AllOrNothing => Classification::all_or_nothing(&loads, cfg),
        _ => Classification::tags(&loads),
    })
}

/// Every static load tagged `cm` (no measurement).
fn every_load_cm(loads: Vec<Load>) -> Result<LoadTags, ConfigErrors> {
    Ok(LoadTags::new(loads.iter().map(|l| (l.pc, CacheOp::Cm))))
}

/// Profiles `kernel` on the configured machine at `coordinated.profile_size` with seed
/// `seed + 1` (a different input than the run it serves) and classifies its loads.
pub fn classify(cfg: &Config, kernel: &str, seed: u64) -> Result<Classification, ConfigErrors> {
    let size = cfg.coordinated.profile_size;
    let profile_seed = seed.wrapping_add(1);
    let open = || Ok(kernels::build_shared(kernel, size, profile_seed)?);
    let input = ProfileInput { name: kernel, open: &open, seed: profile_seed, loads: listed_loads };
    let (loads, profiling_runs) = profile(cfg, &input)?;
    Ok(Classification { kernel: kernel.to_string(), profile_size: size, profile_seed, profiling_runs, loads })
}

/// Profiles the loads of `input` on the configured machine and classifies them; also
/// returns the number of profiling runs.
fn profile(cfg: &Config, input: &ProfileInput<'_>) -> Result<(Vec<LoadClass>, usize), ConfigErrors> {
    let loads = (input.loads)(&*(input.open)()?)?;
    let groups = groups(&loads);
    // A profiling run caches the loads under test and bypasses the others: static_only
    // with those tags.
    let mut base = cfg.clone();
    base.l1d.bypass = L1BypassKind::StaticOnly;

    let mut runs = 0;
    let mut measure = |cached: &[u32]| -> Result<BTreeMap<u32, (u64, u64)>, ConfigErrors> {
        runs += 1;
        let tags = loads.iter().map(|l| (l.pc, if cached.contains(&l.pc) { CacheOp::Ca } else { CacheOp::Cg }));
        profile_run(&base, input, LoadTags::new(tags))
    };
    let mut alone = BTreeMap::new();
    for l in &loads {
        alone.insert(l.pc, measure(&[l.pc])?.get(&l.pc).copied().unwrap_or_default());
    }
    let mut group_hits = vec![0; groups.len()];
    for (g, members) in groups.iter().enumerate() {
        group_hits[g] = if members.len() == 1 {
            alone[&loads[members[0]].pc].1
        } else {
            let pcs: Vec<u32> = members.iter().map(|&i| loads[i].pc).collect();
            let counts = measure(&pcs)?;
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
            array: l.array.clone(),
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
    Ok((classes, runs))
}

/// One profiling simulation with the given tags; (L1 accesses, hits) per PC over all SMs.
fn profile_run(
    cfg: &Config,
    input: &ProfileInput<'_>,
    tags: LoadTags,
) -> Result<BTreeMap<u32, (u64, u64)>, ConfigErrors> {
    let bench = (input.open)()?;
    Simulator::check_fits(cfg, &bench)?;
    let mut sim = Simulator::with_benchmark(cfg.clone(), bench, input.seed);
    sim.profile_loads(tags);
    sim.run_until(u64::MAX);
    let name = input.name;
    if let Some(e) = sim.error() {
        return Err(ConfigError::new("l1d.bypass", format!("the profiling run of {name} failed: {e}")).into());
    }
    read_error(sim.benchmark(), name)?;
    Ok(sim.pc_counts())
}

/// A problem reading a trace of the profiling input, as an error.
fn read_error(bench: &Benchmark, name: &str) -> Result<(), ConfigError> {
    match bench.read_error() {
        Some(e) => Err(ConfigError::new("l1d.bypass", format!("the profiling pass cannot read {name}: {e}"))),
        None => Ok(()),
    }
}

/// A trace's global loads, once per PC, in PC order, read through it once.
fn traced_loads(bench: &Benchmark) -> Result<Vec<Load>, ConfigErrors> {
    let mut found = traced::Found::default();
    for (function, k) in bench.launches.iter().enumerate() {
        found.scan(k.as_ref(), function);
    }
    read_error(bench, &bench.name)?;
    Ok(found.loads())
}

/// A built-in benchmark's global loads, once per PC, in PC order, as its kernels list them.
fn listed_loads(bench: &Benchmark) -> Result<Vec<Load>, ConfigErrors> {
    let mut by_pc = BTreeMap::new();
    for (function, k) in bench.launches.iter().enumerate() {
        for s in k.static_loads().into_iter().filter(|s| s.kind == AccessKind::Read) {
            by_pc.entry(s.pc).or_insert(Load {
                pc: s.pc,
                function,
                array: s.array.to_string(),
                in_loop: s.in_loop,
                after_barrier: s.after_barrier,
            });
        }
    }
    Ok(by_pc.into_values().collect())
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
        Load { pc, function, array: array.to_string(), in_loop, after_barrier: false }
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

    /// A built-in kernel written as a trace has the same loads, in the same groups, as its
    /// static description gives (the arrays are named by their address spans instead). A
    /// trace shows a loop only where a warp runs a load twice: at tiny, bfs_wl's worklist
    /// loop runs once per warp, so three of its loads look loop-free (in the same groups).
    #[test]
    fn a_trace_implies_the_groups_its_kernel_states() {
        use crate::trace::{export, Files, TraceInput};
        for (kernel, _) in kernels::KERNELS {
            let bench = kernels::build(kernel, Size::Tiny, 1).unwrap();
            let (mut files, mut names) = (Files::default(), Vec::new());
            for (i, k) in bench.launches.iter().enumerate() {
                let mut text = Vec::new();
                export::write_kernel(k.as_ref(), i as u32 + 1, true, &mut text).unwrap();
                names.push(format!("kernel-{}.traceg", i + 1));
                files = files.with(&names[i], text);
            }
            let mut list = Vec::new();
            export::write_list(&names, &mut list).unwrap();
            let source = std::rc::Rc::new(files.with("kernelslist.g", list));
            let input = TraceInput { source, list: "kernelslist.g".into(), name: kernel.to_string(), select: None };
            let want = listed_loads(&bench).unwrap();
            let got = traced_loads(&input.open().unwrap()).unwrap();
            let facts = |l: &Load| (l.pc, l.function, l.after_barrier, l.in_loop || *kernel == "bfs_wl");
            assert!(got.iter().map(facts).eq(want.iter().map(facts)), "{kernel}: {got:?}");
            let loop_free = got.iter().zip(&want).filter(|(g, w)| g.in_loop != w.in_loop).map(|(g, _)| g.pc);
            assert_eq!(loop_free.collect::<Vec<_>>(), if *kernel == "bfs_wl" { vec![2, 3, 4] } else { vec![] });
            assert_eq!(groups(&got), groups(&want), "{kernel}");
        }
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
