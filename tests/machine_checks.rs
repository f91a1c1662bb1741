//! Microbenchmarks of the paper presets' machines, each against a value derived by
//! arithmetic from the config before it was run (docs/machine-checks.md gives each
//! derivation). They check the fabric, not a policy: idle latencies are the sum of the
//! pipeline's fixed latencies, and streams reach the bandwidth of their narrowest stage.

use warpscope::config::{preset, CgGranularity, Config};
use warpscope::kernels::{Benchmark, Grid, Instr, Kernel, MemInstr, Size, StaticLoad, WARP_SIZE};
use warpscope::mem::{AccessKind, CacheOp};
use warpscope::stats::{build_report, Report};
use warpscope::Simulator;

/// Every warp loads `loads` whole 128 B lines, uncached in the L1 (`.cg` at line size),
/// each load followed by an instruction that waits for it. Warp `w` of the grid loads the
/// lines `line(w, i)` for i in 0..loads.
struct LineLoads {
    ctas: u32,
    threads: u32,
    loads: u32,
    line: fn(u32, u32) -> u64,
}

impl Kernel for LineLoads {
    fn name(&self) -> String {
        "line_loads".into()
    }
    fn grid(&self) -> Grid {
        Grid { ctas: self.ctas, threads_per_cta: self.threads }
    }
    fn static_loads(&self) -> Vec<StaticLoad> {
        vec![StaticLoad {
            pc: 1,
            array: "data",
            kind: AccessKind::Read,
            op: CacheOp::Cg,
            in_loop: true,
            after_barrier: false,
        }]
    }
    fn emit(&self, cta: u32, warp: u32, step: u32, out: &mut Vec<Instr>) -> bool {
        if step >= self.loads {
            return false;
        }
        let w = cta * self.threads.div_ceil(32) + warp;
        let base = 0x1000_0000 + (self.line)(w, step) * 128;
        let mut addrs = [0u64; WARP_SIZE];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = base + 4 * l as u64;
        }
        let load = MemInstr {
            pc: 1,
            kind: AccessKind::Read,
            op: CacheOp::Cg,
            width: 4,
            mask: u32::MAX,
            addrs,
            dst: 1,
            srcs: 0,
        };
        out.push(Instr::Mem(Box::new(load)));
        out.push(Instr::Alu { srcs: 1 });
        true
    }
}

fn machine(name: &str) -> Config {
    let mut cfg = preset(name).unwrap();
    cfg.l1d.cg_granularity = CgGranularity::Line;
    cfg
}

fn run(cfg: Config, k: LineLoads) -> Report {
    let bench = Benchmark { name: "line_loads".into(), size: Some(Size::Tiny), launches: vec![Box::new(k)] };
    let mut sim = Simulator::with_benchmark(cfg, bench, 1);
    sim.run_until(u64::MAX);
    assert!(sim.is_finished(), "{:?}", sim.error());
    build_report(&sim)
}

/// One warp reads one line `n` times: the first read misses to DRAM (a closed row), the
/// rest hit in the L2 with nothing else in the machine.
fn lone_reads(name: &str, n: u32) -> Report {
    run(machine(name), LineLoads { ctas: 1, threads: 32, loads: n, line: |_, _| 0 })
}

/// Mean core cycles of a read in `trip`, summed over its stages.
fn trip_total(t: &warpscope::stats::TripReport) -> f64 {
    t.stages().iter().map(|s| s.1).sum()
}

#[test]
fn an_idle_l2_hit_takes_the_rop_pipeline_plus_the_flits() {
    // GPGPU-Sim 3.2.1 (and the MeDiC patch) answer an L2 hit as it leaves the 120-cycle ROP
    // pipeline: 120 + a 1-flit request (0.5 core cycles at 1400 MHz) + a 5-flit reply
    // (2.5) = 123, which GPGPU-Sim's own network code delivers in 125 with its clock edges.
    // Ours: the request's flit 1, the ROP 120 (the arbiter hands a request from the ROP's
    // exit to its bank and the bank looks it up in the same L2 cycle), the hit 1, the
    // reply queue 1, the reply's flits 2 (at the 1400 MHz edges): 125.
    for name in ["medic-gtx480", "xie-fermi", "iwarp-fermi", "sc14-gtx480"] {
        let r = lone_reads(name, 20);
        let hit = &r.latency.trip_l2_hit;
        assert_eq!(hit.reads, 19, "{name}");
        let total = trip_total(hit);
        assert_eq!(total, 125.0, "{name}: an idle L2 hit took {total} core cycles: {hit:?}");
        assert_eq!(hit.port_wait, 120.0, "{name}: {hit:?}");
    }
}

#[test]
fn an_idle_dram_read_adds_the_miss_path_the_dram_path_and_the_column_commands() {
    // A miss takes the idle hit's path less the hit's cycle (124), then the lookup before
    // the DRAM request queue, the 100-cycle DRAM path, the DRAM's ACT, tRCD, two bursts
    // tCCDL apart, tCL and the last burst, and a cycle for the fill.
    // medic-gtx480: 10-cycle lookup; at 924 MHz 12 + 3 + 12 + 2 = 29 DRAM cycles = 22 core
    // cycles: 124 + 10 + 100 + 22 + 1 = 257. xie-fermi: 1-cycle lookup: 248. sc14-gtx480:
    // 1-cycle lookup, its own GDDR5 at 1500 MHz: 18 + 3 + 18 + 2 = 41 cycles = 19 core
    // cycles: 245. Up to 2 more for the DRAM clock's edges.
    for (name, expected) in [("medic-gtx480", 257.0), ("xie-fermi", 248.0), ("sc14-gtx480", 245.0)] {
        let r = lone_reads(name, 1);
        let dram = &r.latency.trip_dram;
        assert_eq!(dram.reads, 1, "{name}");
        let total = trip_total(dram);
        assert!((expected..=expected + 2.0).contains(&total), "{name}: an idle DRAM read took {total}: {dram:?}");
    }
}

#[test]
fn l2_hits_stream_at_the_reply_network_s_bandwidth() {
    // 15 SMs x 48 warps read 1024 lines each of a 256 KB set that fits the L2. Each
    // partition's one reply node injects a flit per 1400 MHz cycle: 6 x 1400 / 5 / 700 =
    // 2.4 five-flit replies per core cycle. With one virtual channel, a reply whose SM is
    // busy blocks the ones behind it: GPGPU-Sim 3.2.1's own network saturates at 0.836 of
    // its links for replies to random SMs, so 2.0 per core cycle. medic-gtx480's banks
    // allow 12 x 2 ports / 10 cycles = 2.4; xie-fermi's 6. Hits should stream at 90 % of
    // 2.0 at least, and never above the links' 2.4.
    for name in ["xie-fermi", "medic-gtx480"] {
        let k =
            LineLoads { ctas: 90, threads: 256, loads: 1024, line: |w, i| ((w as u64 * 1024 + i as u64) * 7) % 2048 };
        let r = run(machine(name), k);
        let per_cycle = r.l2.read_hits as f64 / r.cycles as f64;
        eprintln!(
            "{name}: {per_cycle:.3} L2 hits per core cycle, reply links {:.3} busy",
            r.icnt.reply.link_utilization
        );
        assert!(r.l2.read_hits > 20 * r.l2.misses.max(1), "{name}: {} hits, {} misses", r.l2.read_hits, r.l2.misses);
        assert!((0.9 * 2.0..=2.4).contains(&per_cycle), "{name}: {per_cycle:.3} L2 hits per core cycle; {:?}", r.icnt);
    }
}

#[test]
fn a_stream_of_misses_is_bound_by_the_l2_mshrs() {
    // Every warp reads its own 64 consecutive lines of a 24 MB array once: all misses. A
    // channel moves a line per 4 DRAM cycles: 924 / 4 / 700 = 0.33 lines per core cycle.
    // The L2 holds each miss in one of its 64 MSHRs per partition from the lookup until the
    // data is back, so at most 64 / hold lines per core cycle leave a partition (Little's
    // law). With the 100-cycle DRAM path the hold is long: the MSHRs, not DRAM, bound the
    // stream, and the DRAM's busy share sits at or under 64 / hold / 0.33.
    let k = LineLoads { ctas: 90, threads: 256, loads: 64, line: |w, i| w as u64 * 64 + i as u64 };
    let r = run(machine("medic-gtx480"), k);
    let hold = r.latency.trip_dram.l2_or_dram;
    let bound = (64.0 / hold / (924.0 / 4.0 / 700.0)).min(1.0);
    let busy = r.dram.bandwidth_utilization;
    eprintln!("DRAM busy {busy:.3}; MSHR hold {hold:.1} core cycles, bound {bound:.3}");
    assert!(bound < 0.9, "the MSHRs bind: {bound:.3} at a hold of {hold:.0}");
    assert!((0.75 * bound..=bound + 0.02).contains(&busy), "DRAM busy {busy:.3}, MSHR bound {bound:.3}");
}

#[test]
fn bfs_queues_for_tens_of_cycles_at_the_l2_even_with_a_one_cycle_lookup() {
    // MeDiC fig. 8: with the tag lookup set to one cycle, bfs's L2 requests still queue
    // 34.8 cycles on average. On medic-gtx480 that is between 10 and 100 L2 cycles.
    let mut cfg = preset("medic-gtx480").unwrap();
    cfg.l2.tag_latency = 1;
    let r = warpscope::run(cfg, "bfs", Size::Small, 1, None).unwrap();
    assert!((10.0..100.0).contains(&r.l2.avg_queue_latency), "{}", r.l2.avg_queue_latency);
}
