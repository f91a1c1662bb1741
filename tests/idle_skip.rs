//! Idle skipping is exact: jumping over quiet cycles gives the same report, to the
//! byte, as ticking every edge of every clock domain.

mod traffic;

use traffic::RandomTraffic;
use warpscope::config::preset;
use warpscope::kernels::{build, Benchmark};
use warpscope::stats::build_report;
use warpscope::{Config, Simulator, Size};

fn report(cfg: &Config, bench: Benchmark, skipping: bool) -> String {
    let mut sim = Simulator::with_benchmark(cfg.clone(), bench, 3);
    sim.set_idle_skipping(skipping);
    sim.run_until(u64::MAX);
    assert!(sim.error().is_none(), "{:?}", sim.error());
    serde_json::to_string(&build_report(&sim)).unwrap()
}

#[test]
fn skipping_matches_ticking_every_cycle_on_builtin_kernels() {
    for (p, k) in
        [("medic-gtx480", "bfs"), ("medic-gtx480", "atax"), ("sc14-gtx480", "spmv"), ("medic-gtx480", "hotspot")]
    {
        let cfg = preset(p).unwrap();
        let skip = report(&cfg, build(k, Size::Tiny, 3).unwrap(), true);
        let tick = report(&cfg, build(k, Size::Tiny, 3).unwrap(), false);
        assert!(skip == tick, "{p}/{k}: idle skipping changed the report");
    }
}

#[test]
fn skipping_matches_ticking_every_cycle_under_pressure() {
    let mut cfg = preset("medic-gtx480").unwrap();
    cfg.l1d.mshrs = 4;
    cfg.l2.mshrs = 4;
    cfg.l2.dram_queue = 2;
    cfg.dram.scheduler = warpscope::config::DramSchedulerKind::Fcfs;
    let t = || RandomTraffic {
        ctas: 30,
        threads: 128,
        steps: 20,
        footprint: 8 << 20,
        lines_per_load: 8,
        store_every: 2,
        seed: 5,
    };
    assert!(report(&cfg, t().benchmark(), true) == report(&cfg, t().benchmark(), false));
}

#[test]
fn skipping_matches_ticking_every_cycle_with_bypassing() {
    use warpscope::config::{AllocationKind, BypassSlots, L1BypassKind};
    for (bypass, slots, allocation) in
        [(L1BypassKind::Mrpb, None, AllocationKind::OnMiss), (L1BypassKind::Mdb, Some(4), AllocationKind::OnFill)]
    {
        let mut cfg = preset("medic-gtx480").unwrap();
        cfg.l1d.bypass = bypass;
        cfg.l1d.bypass_slots = BypassSlots(slots);
        cfg.l1d.allocation = allocation;
        cfg.l1d.mdb_interval = 64;
        let skip = report(&cfg, build("atax", Size::Tiny, 3).unwrap(), true);
        let tick = report(&cfg, build("atax", Size::Tiny, 3).unwrap(), false);
        assert!(skip == tick, "{bypass:?}: idle skipping changed the report");
    }
}

#[test]
fn skipping_matches_ticking_every_cycle_with_dram_schedulers() {
    use warpscope::config::{DramIdealKind, DramSchedulerKind as K};
    let kinds = [K::Gmc, K::Wg, K::WgM, K::WgBw, K::WgW, K::Sbwas, K::Wafcfs];
    let cases =
        kinds.map(|k| (k, DramIdealKind::None)).into_iter().chain([(K::Gmc, DramIdealKind::ZeroLatencyDivergence)]);
    for (kind, ideal) in cases {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.dram.scheduler = kind;
        cfg.dram.ideal = ideal;
        // A short timeout so that untagged groups time out inside the run.
        cfg.dram.age_threshold = 60;
        let skip = report(&cfg, build("spmv", Size::Tiny, 3).unwrap(), true);
        let tick = report(&cfg, build("spmv", Size::Tiny, 3).unwrap(), false);
        assert!(skip == tick, "{kind:?} {ideal:?}: idle skipping changed the report");
        let t = || RandomTraffic {
            ctas: 30,
            threads: 128,
            steps: 10,
            footprint: 8 << 20,
            lines_per_load: 8,
            store_every: 2,
            seed: 5,
        };
        cfg.dram.command_queue = 1;
        let (skip, tick) = (report(&cfg, t().benchmark(), true), report(&cfg, t().benchmark(), false));
        assert!(skip == tick, "{kind:?} {ideal:?}: idle skipping changed the report under pressure");
    }
}
