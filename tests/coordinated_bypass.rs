//! Coordinated static and dynamic L1 bypassing (Xie et al., HPCA 2015): profiled load
//! tags, thread-block tagging with the TB_bg learner, and the comparison policies.

use warpscope::config::{preset, CoordinatedMode, L1BypassKind};
use warpscope::mem::CacheOp;
use warpscope::stats::build_report;
use warpscope::{Config, Report, Simulator, Size};

/// The CLI's runner of independent simulations on all cores.
#[path = "../src/bin/warpscope/parallel.rs"]
mod parallel;

fn run(cfg: &Config, kernel: &str, skipping: bool) -> Report {
    let mut sim = Simulator::new(cfg.clone(), kernel, Size::Tiny, 3).unwrap();
    sim.set_idle_skipping(skipping);
    sim.run_until(u64::MAX);
    assert!(sim.error().is_none(), "{:?}", sim.error());
    build_report(&sim)
}

fn with_bypass(kind: L1BypassKind) -> Config {
    let mut cfg = preset("xie-fermi").unwrap();
    cfg.l1d.bypass = kind;
    cfg
}

#[test]
fn idle_skipping_stays_exact_under_every_bypass_policy() {
    for kind in [
        L1BypassKind::Coordinated,
        L1BypassKind::DynamicOnly,
        L1BypassKind::InstructionLevel,
        L1BypassKind::AccessLevel,
    ] {
        let mut cfg = with_bypass(kind);
        cfg.coordinated.mode = CoordinatedMode::Decentralized;
        let skip = serde_json::to_string(&run(&cfg, "conv_separable", true)).unwrap();
        let tick = serde_json::to_string(&run(&cfg, "conv_separable", false)).unwrap();
        assert!(skip == tick, "{kind:?}: idle skipping changed the report");
    }
}

#[test]
fn the_tb_bg_learner_starts_at_tb_max_and_moves() {
    // One SM, so the tiny input gives SM 0 enough blocks for several sampling periods.
    let mut cfg = with_bypass(L1BypassKind::DynamicOnly);
    cfg.core.num_sms = 1;
    let r = run(&cfg, "conv_separable", true);
    let b = r.bypass.expect("a bypass section");
    let s = &b.tb_bg_series;
    // conv_rows: 64-thread blocks, so the 8-block limit binds: TB_max = 8.
    assert_eq!(s.tb_bg.first(), Some(&8), "{s:?}");
    assert!(s.tb_bg.len() > 3 && s.tb_bg.iter().any(|&v| v < 8), "the learner never moved: {s:?}");
    assert!(s.cycle.windows(2).all(|w| w[0] <= w[1]));
    assert!(b.load_tags.values().all(|&op| op == CacheOp::Cm), "dynamic-only treats every load as cm");
    assert!(r.l1d.bypassed > 0);
}

#[test]
fn static_tags_route_loads_and_cm_loads_use_the_l1_without_the_learner() {
    let r = run(&with_bypass(L1BypassKind::StaticOnly), "hotspot", true);
    let b = r.bypass.unwrap();
    assert!(b.load_tags.values().all(|&op| op == CacheOp::Cg), "{:?}", b.load_tags);
    assert!(b.tb_bg_series.tb_bg.is_empty(), "no thread-block tagging in static-only");
    assert_eq!(r.l1d.accesses, 0, "every hotspot load bypasses the L1");
    assert_eq!(r.l1d.bypassed + r.l1d.stores, r.core.requests, "every request bypassed or was a store");
}

/// A hotspot warp loads two 16-float half-rows at unaligned offsets, two to four lines
/// of which it touches 64 B in all per row: as `.cg` loads they ask for those sectors
/// under `sector` and for whole lines under `line`, so the same work moves less reply
/// data and finishes sooner.
#[test]
fn cg_loads_ask_only_for_the_sectors_they_touch() {
    let mut cfg = with_bypass(L1BypassKind::StaticOnly);
    let sector = run(&cfg, "hotspot", true);
    cfg.l1d.cg_granularity = warpscope::config::CgGranularity::Line;
    let line = run(&cfg, "hotspot", true);
    assert_eq!(sector.l1d.bypassed, line.l1d.bypassed);
    assert_eq!(sector.warp_instructions, line.warp_instructions);
    assert!(sector.cycles < line.cycles, "{} vs {}", sector.cycles, line.cycles);
}

#[test]
fn centralized_and_decentralized_modes_differ_only_in_who_learns() {
    let mut cfg = with_bypass(L1BypassKind::Coordinated);
    let central = run(&cfg, "spmv", true);
    cfg.coordinated.mode = CoordinatedMode::Decentralized;
    let local = run(&cfg, "spmv", true);
    assert_eq!(central.bypass.as_ref().unwrap().load_tags, local.bypass.as_ref().unwrap().load_tags);
    assert!(central.completed && local.completed);
}

#[test]
fn access_level_bypasses_only_on_associativity_stalls() {
    // On GPGPU-Sim 3.2.1's long memory latency atax's L1 stalls are all for MSHRs;
    // conv_separable's column pass still meets sets whose every line is reserved.
    let none = run(&with_bypass(L1BypassKind::None), "conv_separable", true);
    let access = run(&with_bypass(L1BypassKind::AccessLevel), "conv_separable", true);
    assert!(none.l1d.rsfail_by_cause.line_alloc > 0, "conv_separable meets associativity stalls");
    assert!(access.l1d.bypassed > 0);
    assert!(
        access.l1d.rsfail_by_cause.line_alloc < none.l1d.rsfail_by_cause.line_alloc / 10,
        "bypassing takes the place of the associativity stall: {} vs {}",
        access.l1d.rsfail_by_cause.line_alloc,
        none.l1d.rsfail_by_cause.line_alloc
    );
}

#[test]
fn classify_prints_each_loads_numbers_and_tag() {
    let out = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
    };
    let o = out(&["classify", "--preset", "xie-fermi", "--kernel", "hotspot", "--format", "json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let loads = v["loads"].as_array().unwrap();
    assert_eq!(loads.len(), 2);
    for l in loads {
        assert_eq!(l["tag"], "cg", "{l}");
        assert!(l["accesses"].as_u64().unwrap() > 0);
    }
    let o = out(&["classify", "--kernel", "hotspot", "--set", "coordinated.high_thres=2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("coordinated.high_thres"));
    let o = out(&["classify", "--kernel", "hotspot", "--set", "coordinated.mode=sideways"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("coordinated.mode") && err.contains("centralized"), "{err}");
}

/// The paper's fig. 10 claim on our cache-sensitive kernels at `small`: coordinated
/// bypassing beats always-cache in the geometric mean at 16 KB, and by less at 32 and
/// 48 KB, where more of the loads' working sets fit.
#[test]
fn coordinated_bypassing_gains_most_on_the_smallest_l1() {
    let kernels = ["bfs", "spmv", "pvc", "streamcluster", "conv_separable", "hotspot"];
    let sizes = [(16, 4), (32, 4), (48, 6)];
    let points: Vec<(usize, usize, L1BypassKind)> = (0..sizes.len())
        .flat_map(|s| {
            (0..kernels.len()).flat_map(move |k| [(s, k, L1BypassKind::None), (s, k, L1BypassKind::Coordinated)])
        })
        .collect();
    let ipc = parallel::map(&points, parallel::hardware_threads(), |&(size, k, kind)| {
        let mut cfg = with_bypass(kind);
        (cfg.l1d.size_kb, cfg.l1d.ways) = sizes[size];
        let r = warpscope::run(cfg, kernels[k], Size::Small, 1, None).unwrap();
        assert!(r.completed, "{} {kind:?}: {:?}", kernels[k], r.error);
        r.ipc
    });
    let geomean: Vec<f64> = (0..sizes.len())
        .map(|s| {
            let at = |k: usize, c: usize| ipc[(s * kernels.len() + k) * 2 + c];
            let logs: f64 = (0..kernels.len()).map(|k| (at(k, 1) / at(k, 0)).ln()).sum();
            (logs / kernels.len() as f64).exp()
        })
        .collect();
    eprintln!("coordinated over always-cache, geometric mean at 16, 32, 48 KB: {geomean:.3?}");
    assert!(geomean[0] > 1.0, "no gain at 16 KB: {geomean:?}");
    assert!(geomean[0] > geomean[1] && geomean[1] > geomean[2], "the gain does not shrink: {geomean:?}");
}
