//! `warpscope dram`, the DRAM-only trace mode, and what it shows about row bursts.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use warpscope::config::{preset, Config, PartitionMapping};
use warpscope::dram::trace::{run_trace, TraceReq};
use warpscope::dram::AddressMap;
use warpscope::mem::AccessKind;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn dram(args: &[&str], trace: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope"))
        .args(["dram", "--preset", "sc14-gtx480", "--trace"])
        .arg(trace)
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn example_trace_report() {
    for sched in ["gmc", "wg_bw", "sbwas", "wafcfs"] {
        let o = dram(&["--scheduler", sched], &data("dram_small.trace"));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let r: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(r["scheduler"], sched);
        assert_eq!((r["requests"].as_u64(), r["reads"].as_u64(), r["writes"].as_u64()), (Some(8), Some(6), Some(2)));
        let cycles = r["avg_latency"]["dram_cycles"].as_f64().unwrap();
        assert!(cycles >= 40.0, "at least ACT + tRCD + tCL + burst: {cycles}");
        let ns = r["avg_latency"]["ns"].as_f64().unwrap();
        assert!((ns - cycles / 1.5).abs() < 1e-9, "tCK = 0.667 ns");
        let (bw, rbh) = (r["bandwidth_utilization"].as_f64().unwrap(), r["row_buffer_hit_rate"].as_f64().unwrap());
        assert!(bw > 0.0 && bw < 1.0 && rbh > 0.0 && rbh < 1.0, "{bw} {rbh}");
    }
}

#[test]
fn bad_input_is_named() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dram_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.trace");
    std::fs::write(&bad, "0 R 0x0\n# fine\n5 READ 0x40\n").unwrap();
    let o = dram(&[], &bad);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--trace") && err.contains("line 3"), "{err}");
    let o = dram(&["--scheduler", "fastest"], &data("dram_small.trace"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--scheduler") && err.contains("wg_bw"), "{err}");
}

/// Utilization of one bank serving `bursts` data bursts (of 64 B; a 128 B request is
/// two) per activate, over 60 rows queued at once, on one channel of `cfg`. The paper's
/// formula has a bank's bursts back to back, tBURST apart: one command per 128 B request
/// (the preset's command per burst puts them tCCDL, 3 cycles, apart).
fn single_bank(mut cfg: Config, bursts: u32) -> f64 {
    cfg.dram.column_command = warpscope::config::ColumnCommand::Line;
    cfg.mem.partitions = 1;
    cfg.mem.partition_mapping = PartitionMapping::Modulo;
    cfg.dram.scheduler = warpscope::config::DramSchedulerKind::Gmc;
    let map = AddressMap::new(&cfg.mem, &cfg.dram, cfg.l2.line_bytes);
    let per_row = bursts.div_ceil(2);
    let trace: Vec<TraceReq> = (0..60)
        .flat_map(|row| (0..per_row).map(move |c| (row, c)))
        .map(|(row, c)| TraceReq { cycle: 0, kind: AccessKind::Read, addr: map.encode(3, row, c * 128) })
        .collect();
    run_trace(&cfg.mem, &cfg.dram, cfg.l2.line_bytes, cfg.clocks.dram_mhz, &trace).bandwidth_utilization
}

/// SC'14 §IV-D: 1.33n / (1.33n + 25.33) in ns, i.e. tBURST n / (tRCD + tBURST n + tRTP -
/// tBURST + tCK + tRP).
fn paper(n: u32) -> f64 {
    1.3333 * n as f64 / (1.3333 * n as f64 + 25.333)
}

/// The paper applies its formula from n = 2 on, which takes tRAS out of the cycle: it
/// holds "if tRCD + tBURST n + (tRTP - tBURST + tCK) >= tRAS". Here tRAS is set to that
/// bound for n = 2 (and tRC to tRAS + tRP), so every other term is the preset's and the
/// measured cycle is ACT, tRCD, the bursts, tRTP from the last one, PRE and tRP.
#[test]
fn single_bank_row_burst_utilization_matches_the_paper() {
    let mut cfg = preset("sc14-gtx480").unwrap();
    let t = &mut cfg.dram.timing;
    t.t_ras = t.t_rcd + t.t_rtp + 1;
    t.t_rc = t.t_ras + t.t_rp;
    for n in [2u32, 4, 8, 16] {
        let got = single_bank(cfg.clone(), n);
        eprintln!("n = {n}: measured {got:.4}, paper {:.4}", paper(n));
        assert!((got / paper(n) - 1.0).abs() < 0.05, "n = {n}: {got} vs {:.4}", paper(n));
    }
}

/// With the preset's own tRAS (28 ns) the premise needs n >= 11 bursts; below that the
/// bank cycles at tRC (40 ns), so the utilization is n tBURST / tRC.
#[test]
fn single_bank_short_bursts_are_bound_by_trc() {
    let cfg = preset("sc14-gtx480").unwrap();
    let t = cfg.dram.timing.clone();
    for n in [2u32, 4, 8, 16, 32] {
        let got = single_bank(cfg.clone(), n);
        let premise = t.t_rcd + t.t_burst * n + t.t_rtp - t.t_burst + 1 >= t.t_ras;
        let want = if premise { paper(n) } else { (t.t_burst * n) as f64 / t.t_rc as f64 };
        eprintln!("n = {n}: measured {got:.4}, expected {want:.4}");
        assert!((got / want - 1.0).abs() < 0.05, "n = {n}: {got} vs {want}");
    }
}

#[test]
fn new_dram_fields_are_validated() {
    let o = dram(&["--set", "dram.sbwas.alpha=1.5"], &data("dram_small.trace"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("dram.sbwas.alpha: 1.5 is outside 0..=1"), "{err}");
    let o = dram(&["--set", "dram.ideal=perfect"], &data("dram_small.trace"));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("zero_latency_divergence"), "{err}");
}

#[test]
fn a_cycle_that_would_overflow_is_refused_with_its_line() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("dram_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.trace");
    std::fs::write(&huge, "0 R 0x0\n18446744073709551615 R 0x40\n").unwrap();
    let o = dram(&[], &huge);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--trace: line 2: cycle 18446744073709551615 exceeds"), "{err}");
}

#[test]
fn one_partition_works_in_dram_mode_though_the_l2_would_not_divide() {
    let o = dram(&["--set", "mem.partitions=1"], &data("dram_small.trace"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("\"channels\": 1"));
    // One channel of 16 banks of 2 KB rows holds 2^47 bytes: 0x800000000000 would wrap onto
    // row 0 and read as a row hit after 0x0.
    let dir = std::env::temp_dir().join(format!("warpscope-dram-one-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wrap.trace");
    std::fs::write(&path, "0 R 0x0\n100 R 0x800000000000\n").unwrap();
    let o = dram(&["--set", "mem.partitions=1"], &path);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2: address 0x800000000000 is beyond the modelled memory"));
}

#[test]
fn traces_that_would_be_misread_are_refused_by_line() {
    let dir = std::env::temp_dir().join(format!("warpscope-dram-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text, says) in [
        (
            "wrap.trace",
            "0 R 0x0\n1 R 0xfff0000000000000\n",
            "--trace: line 2: address 0xfff0000000000000 is beyond the modelled memory",
        ),
        ("order.trace", "10 R 0x0\n5 R 0x80\n", "--trace: line 2: cycle 5 comes before line 1's cycle 10"),
        ("empty.trace", "# nothing here\n\n", "--trace: the trace has no requests"),
        ("bare-hex.trace", "0 R 1f\n", "--trace: line 1: `1f` is not an address (hex with 0x"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let o = dram(&[], &path);
        assert!(!o.status.success(), "{name} was accepted");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{name}: {err}");
    }
}
