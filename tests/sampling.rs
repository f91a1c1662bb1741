//! Sampled simulation (docs/sampling.md): every instruction counted, determinism, every
//! kernel and policy family runs sampled, and a validation subset against full runs.

use warpscope::config::{apply_bundle, parse_config_value, preset};
use warpscope::kernels::{Size, KERNELS};
use warpscope::sample::{run_sampled, SampledReport};
use warpscope::stats::build_report;
use warpscope::{Config, Simulator};

fn sampled(cfg: &Config, kernel: &str, size: Size, seed: u64) -> SampledReport {
    let sim = Simulator::new(cfg.clone(), kernel, size, seed).unwrap();
    run_sampled(sim, |_, _| {}, || false).0
}

fn full(cfg: &Config, kernel: &str, size: Size, seed: u64) -> warpscope::Report {
    let mut c = cfg.clone();
    c.sample.windows = 0;
    let mut sim = Simulator::new(c, kernel, size, seed).unwrap();
    sim.run_until(u64::MAX);
    build_report(&sim)
}

fn with_windows(name: &str, windows: u32) -> Config {
    let mut c = preset(name).unwrap();
    c.sample.windows = windows;
    c
}

fn with_bundle(name: &str, bundle: &str, windows: u32) -> Config {
    let mut doc = serde_json::to_value(preset(name).unwrap()).unwrap();
    apply_bundle(&mut doc, bundle).unwrap();
    let mut c = parse_config_value(doc).unwrap();
    c.sample.windows = windows;
    c
}

#[test]
fn a_sampled_run_counts_every_instruction_of_the_full_run() {
    // Functional warming executes what detail does not, so the count is exact: one launch
    // (spmv), many launches (bfs), barriers (hotspot), two launches of different shapes (atax).
    let cfg = with_windows("medic-gtx480", 8);
    for k in ["spmv", "bfs", "hotspot", "atax"] {
        let s = sampled(&cfg, k, Size::Small, 1);
        let f = full(&cfg, k, Size::Small, 1);
        assert!(s.completed, "{k}: {:?}", s.error);
        assert_eq!(s.warp_instructions, f.warp_instructions, "{k}");
        let chunks: u64 = s.windows.iter().map(|w| w.chunk_instructions).sum();
        assert_eq!(chunks, f.warp_instructions, "{k}: the windows stand for every instruction once");
    }
}

#[test]
fn a_one_wave_launch_is_sampled_inside_its_tail_and_its_drain_simulated_in_detail() {
    // atax at small: two launches of one wave each, 9.4 M cycles, all tail. The first
    // launch's head is its tail: the first piece is exact, then windows inside the tail,
    // and the drain in detail, with under a quarter of the cycles in detail. (How close the
    // estimate comes is the validation's business, docs/sampling.md: one-wave kernels are
    // the known weak spot, and this one's windows measure about 100 instructions each.)
    let cfg = with_windows("medic-gtx480", 8);
    let s = sampled(&cfg, "atax", Size::Small, 1);
    let f = full(&cfg, "atax", Size::Small, 1);
    assert!(s.windows[0].exact && s.windows[0].start_cta == 0, "{:?}", s.windows[0]);
    let windows = s.windows.iter().filter(|w| !w.exact).count();
    assert_eq!(windows, 8, "the windows inside the first launch's tail");
    assert!(s.windows.last().unwrap().exact, "the last drain is simulated in detail");
    assert!(s.detailed_cycles * 4 < f.cycles, "{} of {} cycles in detail", s.detailed_cycles, f.cycles);
    // Its estimates carry the one-wave bias the intervals leave out, and the report says so.
    assert_eq!(s.estimate.one_wave_launches_sampled, 1);
    let text = warpscope::sample::render_text(&s);
    assert!(text.contains("CAUTION: 1 launch fit on the machine at once and was sampled inside"), "{text}");
}

#[test]
fn a_one_wave_launchs_drain_is_judged_again_and_its_windows_number_on() {
    // With four windows, the first launch's drain holds three times their worth at its own pace:
    // head and tail (exact), four windows, the drain's first window's worth (exact), four
    // windows of its own, its drain (exact); then the second launch, one wave too (the
    // matrix read coalesced), judged after its first window's worth (exact) and sampled:
    // four windows and its drain (exact). Two one-wave launches sampled, and every
    // instruction counted once.
    let cfg = with_windows("medic-gtx480", 4);
    let s = sampled(&cfg, "atax", Size::Small, 1);
    let shape: String = s.windows.iter().map(|w| if w.exact { 'E' } else { 'w' }).collect();
    assert_eq!(shape, "EwwwwEwwwwEEwwwwE");
    let mut slots: Vec<u64> = s.windows.iter().filter(|w| !w.exact).map(|w| w.slot).collect();
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), 12, "the drain's windows take slots of their own: {slots:?}");
    assert_eq!(s.estimate.one_wave_launches_sampled, 2);
    let chunks: u64 = s.windows.iter().map(|w| w.chunk_instructions).sum();
    assert_eq!(chunks, s.warp_instructions);
}

#[test]
fn a_launch_head_is_simulated_in_detail_until_its_first_thread_block_completes() {
    // spmv at small: one launch of 512 thread blocks, more than the SMs hold at once. Its
    // head, where every SM fills at once and the warps start in step, is one exact piece
    // from cycle 0 to the cycle the first thread block completes in the full run.
    let cfg = with_windows("medic-gtx480", 8);
    let mut c = cfg.clone();
    c.sample.windows = 0;
    let mut sim = Simulator::new(c, "spmv", Size::Small, 1).unwrap();
    while sim.progress().fraction == 0.0 && !sim.run_until(sim.cycle() + 1) {}
    let first_done = sim.cycle();
    let s = sampled(&cfg, "spmv", Size::Small, 1);
    let head = &s.windows[0];
    assert!(head.exact && head.start_cta == 0, "{head:?}");
    assert_eq!(head.cycles, first_done);
    assert!(!s.windows[1].exact, "windows follow the head");
    assert_eq!(s.estimate.one_wave_launches_sampled, 0, "a launch of many waves carries no one-wave caution");
    assert!(!warpscope::sample::render_text(&s).contains("CAUTION"));
}

#[test]
fn the_same_config_and_seed_give_the_same_sampled_report() {
    let cfg = with_windows("sc14-gtx480", 6);
    let a = serde_json::to_string(&sampled(&cfg, "kmeans", Size::Small, 3)).unwrap();
    let b = serde_json::to_string(&sampled(&cfg, "kmeans", Size::Small, 3)).unwrap();
    assert_eq!(a, b);
}

#[test]
fn every_kernel_runs_sampled_on_every_preset() {
    for p in warpscope::config::preset_names() {
        let cfg = with_windows(p, 4);
        for &(k, _) in KERNELS {
            let s = sampled(&cfg, k, Size::Tiny, 1);
            assert!(s.completed, "{p} {k}: {:?}", s.error);
            assert!(s.estimate.cycles > 0 && s.estimate.ipc > 0.0, "{p} {k}");
            within_what_can_be(&s, &format!("{p} {k}"));
        }
    }
}

/// A sampled run's intervals stay where its numbers can be, however few windows it has: a
/// share between 0 and 1, and no fewer cycles than it simulated in detail.
fn within_what_can_be(s: &SampledReport, what: &str) {
    for f in warpscope::figures::FRACTIONS {
        if let Some(i) = s.intervals.get(*f) {
            assert!(0.0 <= i.low && i.low <= i.high && i.high <= 1.0, "{what}: {f} {i:?}");
        }
    }
    if let Some(c) = s.intervals.get("cycles") {
        let detailed: u64 = s.windows.iter().map(|w| w.cycles + w.warmup_cycles).sum();
        assert!(
            c.low >= (detailed as f64).min(s.estimate.cycles as f64) - 0.5 && c.low <= s.estimate.cycles as f64 + 0.5,
            "{what}: {c:?}, {detailed} in detail"
        );
        let ipc = s.intervals["ipc"];
        assert!(
            ipc.low <= s.estimate.ipc * (1.0 + 1e-9) && s.estimate.ipc <= ipc.high * (1.0 + 1e-9),
            "{what}: {ipc:?}"
        );
        assert!(
            ipc.high.is_finite() && ipc.high * c.low <= s.warp_instructions as f64 * (1.0 + 1e-9),
            "{what}: {ipc:?}"
        );
    }
}

#[test]
fn with_one_window_sampled_the_estimates_carry_no_interval_and_say_so() {
    // bfs at small with two windows: one of them falls in a launch head simulated whole, so
    // one window stands for every sampled chunk and no spread can be measured.
    let s = sampled(&with_windows("medic-gtx480", 2), "bfs", Size::Small, 1);
    assert_eq!(s.sampled_windows(), 1);
    assert!(!s.intervals.contains_key("ipc") && !s.intervals.contains_key("l2_miss_rate"), "{:?}", s.intervals);
    let text = warpscope::sample::render_text(&s);
    assert!(text.contains("CAUTION: only one window was sampled"), "{text}");
    assert!(
        text.contains("IPC (warp instructions per cycle)") && text.contains("(none: one sampled window)"),
        "{text}"
    );
    // With more windows the spread gives intervals, bounded by what the run can be.
    let s = sampled(&with_windows("medic-gtx480", 5), "bfs", Size::Small, 1);
    assert!(s.sampled_windows() >= 2 && s.intervals.contains_key("ipc"));
    within_what_can_be(&s, "bfs, 5 windows");
    assert!(!warpscope::sample::render_text(&s).contains("CAUTION: only one window"));
}

#[test]
fn every_policy_bundle_runs_sampled() {
    for b in warpscope::config::bundle_names() {
        let cfg = with_bundle("medic-gtx480", b, 4);
        for k in ["bfs", "kmeans"] {
            let s = sampled(&cfg, k, Size::Tiny, 1);
            assert!(s.completed, "{b} {k}: {:?}", s.error);
        }
    }
}

#[test]
fn warp_schedulers_that_hold_warps_back_run_sampled_and_count_every_instruction() {
    // CCWS and iWarp throttle in warming too (docs/sampling.md, "Policies with history"):
    // warming must neither lose instructions nor stall with every warp held. `small`, so
    // that the runs have windows and warming between them; hotspot waits at barriers,
    // which iWarp's release must respect.
    for sched in ["ccws", "iwarp"] {
        let mut doc = serde_json::to_value(preset("iwarp-fermi").unwrap()).unwrap();
        doc["core"]["warp_scheduler"] = serde_json::json!(sched);
        let mut cfg = parse_config_value(doc).unwrap();
        cfg.sample.windows = 6;
        for k in ["hotspot", "spmv", "bfs"] {
            let s = sampled(&cfg, k, Size::Small, 1);
            let f = full(&cfg, k, Size::Small, 1);
            assert!(s.completed, "{sched} {k}: {:?}", s.error);
            assert!(s.windows.iter().any(|w| !w.exact), "{sched} {k}: no window, so no warming");
            assert_eq!(s.warp_instructions, f.warp_instructions, "{sched} {k}");
        }
    }
}
