//! The sound-baseline paper's partition-camping finding (WDDD 2017, figure 10) on the
//! `sound-maxwell` machine: `xor` spreads requests over the 16 partitions where
//! `modulo` crowds them into one or two.
//!
//! Over a whole run a row-major walk visits every 256 B chunk of each row, so both
//! mappings end with even totals; the camping is in time, because the warps in flight
//! walk their rows at about the same column. The paper's own runs stop after 1M cycles
//! (`-gpgpu_limit_cycles` in its public config), so its figure 10(b) is such a window;
//! these tests look at one too. Over a full paper-size syrk run both mappings end with
//! exactly even totals and about the same IPC (0.173 vs 0.176).

use warpscope::config::{preset, PartitionMapping};
use warpscope::{run, Report, Size};

fn window(kernel: &str, size: Size, mapping: PartitionMapping, cycles: u64) -> Report {
    let mut cfg = preset("sound-maxwell").unwrap();
    cfg.mem.partition_mapping = mapping;
    let r = run(cfg, kernel, size, 1, Some(cycles)).unwrap();
    assert!(r.error.is_none(), "{kernel} {mapping:?}: {:?}", r.error);
    assert_eq!(r.cycles, cycles, "{kernel} {mapping:?} ends inside the window");
    r
}

/// Share of all requests that went to the `n` busiest partitions.
fn busiest_share(r: &Report, n: usize) -> f64 {
    let mut q = r.partitions.requests.clone();
    q.sort_unstable_by(|a, b| b.cmp(a));
    q[..n].iter().sum::<u64>() as f64 / q.iter().sum::<u64>() as f64
}

#[test]
fn xor_ends_syrks_partition_camping() {
    // syrk's A is 512 x 512 floats, rows 2 KB apart. A warp reads A[j*M + k] for 32 rows
    // j: under modulo those are chunks 8j + k/64 of 256 B, so every warp at column k
    // uses the same two partitions of 16. XOR adds bits 16.. (j / 32, the CTA's column
    // block), so CTAs in flight use different partitions.
    let modulo = window("syrk", Size::Paper, PartitionMapping::Modulo, 50_000);
    let xor = window("syrk", Size::Paper, PartitionMapping::Xor, 50_000);
    let (m, x) = (modulo.partitions.max_over_mean, xor.partitions.max_over_mean);
    assert!(busiest_share(&modulo, 2) > 0.85, "{:?}", modulo.partitions.requests);
    assert!(m > 5.0 && x < 1.6, "max/mean: modulo {m}, xor {x}");
    // Figure 10(a, c, d): higher IPC, a lower L2 miss rate and fewer L1 reservation
    // failures, because the L2 and DRAM of 16 partitions serve the misses, not 2.
    assert!(xor.ipc > 1.5 * modulo.ipc, "IPC: modulo {}, xor {}", modulo.ipc, xor.ipc);
    assert!(xor.l2.miss_rate < modulo.l2.miss_rate, "{} vs {}", xor.l2.miss_rate, modulo.l2.miss_rate);
    let (rm, rx) = (modulo.l1d.rsfail_per_access, xor.l1d.rsfail_per_access);
    assert!(rx < 0.5 * rm, "rsfail per access: modulo {rm}, xor {rx}");
}

#[test]
fn xor_spreads_ataxs_row_walk() {
    // atax kernel 1 at small: thread i reads A[i*N + j] with N = 1024, rows 4 KB apart
    // (16 partitions x 256 B), so under modulo a whole warp-load lands in one partition.
    let modulo = window("atax", Size::Small, PartitionMapping::Modulo, 20_000);
    let xor = window("atax", Size::Small, PartitionMapping::Xor, 20_000);
    let (m, x) = (modulo.partitions.max_over_mean, xor.partitions.max_over_mean);
    assert!(busiest_share(&modulo, 1) > 0.9, "{:?}", modulo.partitions.requests);
    assert!(m > 12.0 && x < 0.5 * m, "max/mean: modulo {m}, xor {x}");
    assert!(xor.ipc > 1.2 * modulo.ipc, "IPC: modulo {}, xor {}", modulo.ipc, xor.ipc);
}
