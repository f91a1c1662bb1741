//! Seeded random traffic through the whole machine: every request is answered
//! exactly once and nothing is left behind.

mod traffic;

use proptest::prelude::*;
use traffic::RandomTraffic;
use warpscope::config::{preset, WritePolicy};
use warpscope::stats::build_report;
use warpscope::Simulator;

fn check_run(preset_name: &str, traffic: RandomTraffic, tweak: impl FnOnce(&mut warpscope::Config)) {
    let mut cfg = preset(preset_name).unwrap();
    tweak(&mut cfg);
    let seed = traffic.seed;
    let expected_warps = traffic.ctas as u64 * traffic.threads.div_ceil(32) as u64;
    let mut sim = Simulator::with_benchmark(cfg, traffic.benchmark(), seed);
    sim.run_until(u64::MAX);
    assert!(sim.error().is_none(), "{:?}", sim.error());
    assert!(sim.is_finished());
    // L2 MSHRs may still hold line fetches for stores (`write_back_fetch`) until drained.
    let (warp_loads, l1_mshrs, reserved, _) = sim.outstanding();
    assert_eq!((warp_loads, l1_mshrs, reserved), (0, 0, 0), "leaks at kernel end");
    let r = build_report(&sim);
    assert_eq!(r.core.ctas, expected_warps / r.launches[0].threads_per_cta.div_ceil(32) as u64);
    // Every load's requests came back: the load count equals the warp-loads closed.
    assert_eq!(r.latency.warp_loads, r.core.loads);
    // Every request that left an SM reached the L2 exactly once.
    assert_eq!(r.l2.accesses, r.l1d.misses - r.l1d.pending_hits + r.l1d.bypassed + r.l1d.stores);
    assert_eq!(r.partitions.requests.iter().sum::<u64>(), r.l2.accesses);
    // Each request crossed the request network once and got one packet back, and no link
    // carried more than a flit a cycle.
    assert_eq!(r.icnt.request.packets, r.l2.accesses);
    assert_eq!(r.icnt.reply.packets, r.icnt.request.packets);
    assert!(r.icnt.reply.flits >= r.icnt.reply.packets);
    assert!([&r.icnt.request, &r.icnt.reply].iter().all(|n| n.link_utilization > 0.0 && n.link_utilization <= 1.0));
    check_trips(&r);
    assert!(sim.drain(1_000_000), "the memory system drains");
    assert_eq!(sim.outstanding(), (0, 0, 0, 0), "leaks after draining");
    let r = build_report(&sim);
    // After draining, DRAM saw every L2 read miss, every line fetched for a store and
    // every write-back, and the stores the write policy passes on: all of them
    // (write-through) or those that missed (write-back with fetch).
    assert_eq!(r.dram.reads, r.l2.reads - r.l2.read_hits - r.l2.pending_hits + r.l2.write_fetches);
    let through = match r.config.l2.write_policy {
        WritePolicy::WriteThrough => r.l2.writes,
        WritePolicy::WriteBackFetch => r.l2.writes - r.l2.write_hits,
        WritePolicy::WriteBack => 0,
    };
    assert_eq!(r.dram.writes, r.l2.writebacks + through);
}

/// Every read that left an SM was timed stage by stage, once, under who served it, and
/// its stages add up to its latency.
fn check_trips(r: &warpscope::stats::Report) {
    let (hit, dram) = (&r.latency.trip_l2_hit, &r.latency.trip_dram);
    let latency = &r.latency.memory_latency_histogram;
    assert_eq!(hit.reads + dram.reads, latency.samples);
    assert_eq!(hit.reads, r.l2.read_hits);
    assert_eq!(dram.reads, r.l2.reads - r.l2.read_hits + r.l2.bypassed);
    let staged: f64 = [hit, dram].iter().map(|t| t.stages().iter().map(|s| s.1).sum::<f64>() * t.reads as f64).sum();
    assert!((staged - latency.sum as f64).abs() <= 1e-6 * latency.sum as f64, "{staged} vs {}", latency.sum);
    assert!([hit, dram].iter().flat_map(|t| t.stages()).all(|(_, c)| c >= 0.0));
}

#[test]
fn random_traffic_is_conserved_on_the_medic_machine() {
    let t = RandomTraffic {
        ctas: 60,
        threads: 256,
        steps: 40,
        footprint: 4 << 20,
        lines_per_load: 8,
        store_every: 5,
        seed: 7,
    };
    check_run("medic-gtx480", t, |_| {});
}

#[test]
fn random_traffic_is_conserved_under_tiny_queues() {
    let t = RandomTraffic {
        ctas: 30,
        threads: 100,
        steps: 30,
        footprint: 1 << 20,
        lines_per_load: 16,
        store_every: 3,
        seed: 11,
    };
    check_run("sc14-gtx480", t, |c| {
        c.l1d.mshrs = 2;
        c.l1d.mshr_merge = 2;
        c.l1d.miss_queue = 1;
        c.l2.bank_queue = 1;
        c.l2.mshrs = 2;
        c.l2.mshr_merge = 1;
        // A store miss sends its store and a line fetch at once (write_back_fetch).
        c.l2.dram_queue = 2;
        c.l2.return_queue = 1;
        c.icnt.input_buffer_flits = 5;
        c.icnt.output_buffer_flits = 5;
        c.dram.read_queue = 2;
        c.dram.write_queue = 2;
        c.dram.write_high_watermark = 2;
        c.dram.write_low_watermark = 1;
    });
}

#[test]
fn random_traffic_is_conserved_with_bypassing_and_allocation_on_fill() {
    use warpscope::config::{AllocationKind, BypassSlots, L1BypassKind as K};
    // Every registered L1 bypass policy that needs no profile (tests/coordinated_bypass.rs
    // covers the profiled ones), with bypass slots from tight to unlimited.
    let kinds = K::NAMES.iter().map(|n| K::parse(n).expect("a registered name")).filter(|k| k.profile().is_none());
    for (i, bypass) in kinds.enumerate() {
        let slots = [Some(2), None, Some(1)][i % 3];
        let t = RandomTraffic {
            ctas: 30,
            threads: 256,
            steps: 30,
            footprint: 2 << 20,
            lines_per_load: 6,
            store_every: 4,
            seed: 3,
        };
        check_run("medic-gtx480", t, |c| {
            c.l1d.bypass = bypass;
            c.l1d.bypass_slots = BypassSlots(slots);
            c.l1d.allocation = AllocationKind::OnFill;
            c.l1d.mdb_interval = 32;
        });
    }
}

#[test]
fn random_traffic_is_conserved_under_xor_mapping_on_six_partitions() {
    // Six is not a power of two: the xor mapping's local addresses come from its rank table.
    let t = RandomTraffic {
        ctas: 30,
        threads: 256,
        steps: 30,
        footprint: 4 << 20,
        lines_per_load: 8,
        store_every: 4,
        seed: 13,
    };
    check_run("medic-gtx480", t, |c| c.mem.partition_mapping = warpscope::config::PartitionMapping::Xor);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]
    #[test]
    fn any_seeded_traffic_is_conserved(seed in 0u64..1000, lines in 1u32..32, footprint_kb in 16u64..8192, stores in 0u32..4) {
        let t = RandomTraffic { ctas: 20, threads: 192, steps: 12, footprint: footprint_kb * 1024, lines_per_load: lines, store_every: stores, seed };
        check_run("medic-gtx480", t, |_| {});
    }
}

#[test]
fn every_builtin_kernel_completes_without_leaks_on_every_preset() {
    for (p, _) in warpscope::config::PRESETS {
        for (k, _) in warpscope::kernels::KERNELS {
            let mut sim = Simulator::new(preset(p).unwrap(), k, warpscope::Size::Tiny, 9).unwrap();
            sim.run_until(u64::MAX);
            assert!(sim.error().is_none(), "{p}/{k}: {}", sim.error().unwrap());
            let (warp_loads, l1_mshrs, reserved, _) = sim.outstanding();
            assert_eq!((warp_loads, l1_mshrs, reserved), (0, 0, 0), "{p}/{k} leaked");
            let r = build_report(&sim);
            assert_eq!(r.latency.warp_loads, r.core.loads, "{p}/{k}");
            check_trips(&r);
            assert_eq!(r.launches.len(), sim.benchmark().launches.len(), "{p}/{k}");
            assert!(sim.drain(1_000_000), "{p}/{k} drains");
            assert_eq!(sim.outstanding(), (0, 0, 0, 0), "{p}/{k} leaked");
        }
    }
}
