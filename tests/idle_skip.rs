//! Idle skipping is exact: jumping over quiet cycles, and skipping the warp schedulers'
//! scans while nothing they test has changed, gives the same report, to the byte, as
//! ticking every edge of every clock domain and scanning every cycle.

mod traffic;

use traffic::RandomTraffic;
use warpscope::config::{preset, L2BypassKind};
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

/// Random traffic that keeps every queue busy: 30 CTAs of 8-line loads with stores.
fn pressure(steps: u32) -> RandomTraffic {
    RandomTraffic { ctas: 30, threads: 128, steps, footprint: 8 << 20, lines_per_load: 8, store_every: 2, seed: 5 }
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
    let t = || pressure(20);
    assert!(report(&cfg, t().benchmark(), true) == report(&cfg, t().benchmark(), false));
}

#[test]
fn skipping_matches_ticking_every_cycle_with_bypassing() {
    use warpscope::config::{AllocationKind, BypassSlots, L1BypassKind as K};
    // Every registered L1 bypass policy that needs no profile (tests/coordinated_bypass.rs
    // runs those), with and without a slot limit and under both allocations.
    let kinds = K::NAMES.iter().map(|n| K::parse(n).expect("a registered name")).filter(|k| k.profile().is_none());
    for (i, bypass) in kinds.enumerate() {
        let (slots, allocation) = [(None, AllocationKind::OnMiss), (Some(4), AllocationKind::OnFill)][i % 2];
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
fn skipping_matches_ticking_every_cycle_under_every_warp_scheduler() {
    use warpscope::config::WarpSchedulerKind as K;
    // Every registered scheduler, so a new one is checked without editing this test.
    for kind in K::NAMES.iter().map(|n| K::parse(n).expect("a registered name")) {
        let mut cfg = preset("iwarp-fermi").unwrap();
        cfg.core.warp_scheduler = kind;
        cfg.core.swl.limit = 2;
        cfg.core.two_level.group = 2;
        // Short timeouts and quick decay, so releases by time happen inside these short runs.
        cfg.core.iwarp.timeout = 300;
        cfg.core.ccws.decay_cycles = 3;
        cfg.core.ccws.hit_score = 40;
        for k in ["atax", "bfs", "kmeans"] {
            let skip = report(&cfg, build(k, Size::Tiny, 3).unwrap(), true);
            let tick = report(&cfg, build(k, Size::Tiny, 3).unwrap(), false);
            assert!(skip == tick, "{kind:?}/{k}: idle skipping changed the report");
        }
    }
}

/// The config of `bundle` on top of the MeDiC preset, with short windows so that resets,
/// token regrants, random redraws and the boundary tuning all happen in a tiny run.
fn bundle(name: &str) -> Config {
    let mut doc = serde_json::to_value(preset("medic-gtx480").unwrap()).unwrap();
    warpscope::config::apply_bundle(&mut doc, name).unwrap();
    let mut cfg = warpscope::config::parse_config_value(doc).unwrap();
    cfg.medic.reset_interval = 3000;
    cfg.medic.profile_accesses = 8;
    cfg.l2.pcal.tokens = 16;
    cfg.l2.pc_byp.table = 4;
    cfg.l2.medic_reuse.filter_bits = 1024;
    cfg.l2.rand.share = 0.5;
    cfg.l2.size_kb = 96;
    cfg
}

#[test]
fn skipping_matches_ticking_every_cycle_under_medic_and_its_rivals() {
    // MeDiC whole, the insertion policies, and every registered L2 bypass policy alone.
    let bypasses = L2BypassKind::NAMES.iter().map(|n| L2BypassKind::parse(n).expect("a registered name"));
    let cases = ["medic", "wip", "eaf"].map(|b| (b, bundle(b))).into_iter().chain(bypasses.map(|kind| {
        let mut cfg = bundle("baseline");
        cfg.l2.bypass = kind;
        (kind.as_str(), cfg)
    }));
    for (name, cfg) in cases {
        for k in ["bfs", "pvc"] {
            let skip = report(&cfg, build(k, Size::Tiny, 3).unwrap(), true);
            let tick = report(&cfg, build(k, Size::Tiny, 3).unwrap(), false);
            assert!(skip == tick, "{name}/{k}: idle skipping changed the report");
        }
    }
    let mut cfg = bundle("medic");
    cfg.l2.dram_queue = 2;
    cfg.l2.mshrs = 4;
    let t = || pressure(20);
    assert!(report(&cfg, t().benchmark(), true) == report(&cfg, t().benchmark(), false));
}

#[test]
fn skipping_matches_ticking_every_cycle_with_dram_schedulers() {
    use warpscope::config::{DramIdealKind, DramSchedulerKind as K};
    // Every registered scheduler, so a new one is checked without editing this test.
    let kinds = K::NAMES.iter().map(|n| K::parse(n).expect("a registered name"));
    let cases = kinds.map(|k| (k, DramIdealKind::None)).chain([(K::Gmc, DramIdealKind::ZeroLatencyDivergence)]);
    for (kind, ideal) in cases {
        let mut cfg = preset("sc14-gtx480").unwrap();
        cfg.dram.scheduler = kind;
        cfg.dram.ideal = ideal;
        // A short timeout so that untagged groups time out inside the run.
        cfg.dram.age_threshold = 60;
        let skip = report(&cfg, build("spmv", Size::Tiny, 3).unwrap(), true);
        let tick = report(&cfg, build("spmv", Size::Tiny, 3).unwrap(), false);
        assert!(skip == tick, "{kind:?} {ideal:?}: idle skipping changed the report");
        let t = || pressure(10);
        cfg.dram.command_queue = 1;
        let (skip, tick) = (report(&cfg, t().benchmark(), true), report(&cfg, t().benchmark(), false));
        assert!(skip == tick, "{kind:?} {ideal:?}: idle skipping changed the report under pressure");
    }
}

#[test]
fn skipping_matches_ticking_every_cycle_with_several_reply_ports() {
    use warpscope::config::ReplyQueueKind;
    for (ports, queue) in [(2, ReplyQueueKind::PerPort), (3, ReplyQueueKind::Unified)] {
        let mut cfg = preset("medic-gtx480").unwrap();
        cfg.l2.reply_ports = ports;
        cfg.l2.reply_queue = queue;
        for k in ["bfs", "spmv"] {
            let skip = report(&cfg, build(k, Size::Tiny, 3).unwrap(), true);
            let tick = report(&cfg, build(k, Size::Tiny, 3).unwrap(), false);
            assert!(skip == tick, "{k}: idle skipping changed the report with {ports} reply ports, {queue:?}");
        }
    }
}

#[test]
fn skipping_matches_ticking_every_cycle_with_a_narrow_l2_data_port() {
    let mut cfg = preset("medic-gtx480").unwrap();
    cfg.l2.data_port_bytes = 32;
    let skip = report(&cfg, build("bfs", Size::Tiny, 3).unwrap(), true);
    let tick = report(&cfg, build("bfs", Size::Tiny, 3).unwrap(), false);
    assert!(skip == tick, "bfs: idle skipping changed the report with a 32 B L2 data port");
    let t = || pressure(20);
    assert!(report(&cfg, t().benchmark(), true) == report(&cfg, t().benchmark(), false), "under pressure");
}

#[test]
fn skipping_matches_ticking_every_cycle_with_rop_and_dram_path_latencies() {
    for bypass in [warpscope::config::L2BypassKind::None, warpscope::config::L2BypassKind::Medic] {
        let mut cfg = preset("medic-gtx480").unwrap();
        (cfg.l2.rop_latency, cfg.l2.dram_latency, cfg.l2.bypass) = (120, 100, bypass);
        let skip = report(&cfg, build("bfs", Size::Tiny, 3).unwrap(), true);
        let tick = report(&cfg, build("bfs", Size::Tiny, 3).unwrap(), false);
        assert!(skip == tick, "{bypass:?}: idle skipping changed the report");
    }
}
