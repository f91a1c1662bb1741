//! `warpscope compare` and `--policy` bundles as a user runs them.

use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn compare_prints_speedups_with_their_harmonic_mean_and_writes_csv() {
    let csv = std::env::temp_dir().join(format!("warpscope-compare-{}.csv", std::process::id()));
    let o = warpscope(&[
        "compare",
        "--kernels",
        "bfs,spmv",
        "--policies",
        "wbyp,medic",
        "--size",
        "tiny",
        "--jobs",
        "2",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].split_whitespace().eq(["kernel", "baseline", "wbyp", "medic"]), "{}", lines[1]);
    let speedup = |row: &str, col: usize| row.split_whitespace().nth(col).unwrap().parse::<f64>().unwrap();
    let (b, s) = (lines[2], lines[3]);
    assert!(b.starts_with("bfs") && s.starts_with("spmv") && lines[4].starts_with("hmean"));
    let hmean = 2.0 / (1.0 / speedup(b, 3) + 1.0 / speedup(s, 3));
    assert!((speedup(lines[4], 3) - hmean).abs() < 2e-3, "{out}");
    assert_eq!(speedup(lines[4], 1), 1.0);
    assert!(out.contains("L2 miss rate") && out.contains("L2 queuing latency"));
    let rows = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = rows.lines().collect();
    assert!(rows[0].starts_with("kernel,policy,ipc,speedup,"));
    assert_eq!(rows.len(), 1 + 2 * 3);
    assert!(rows.iter().any(|r| r.starts_with("spmv,medic,")));
    std::fs::remove_file(&csv).unwrap();
}

#[test]
fn unknown_bundle_names_the_valid_ones() {
    for args in [
        &["compare", "--kernels", "bfs", "--policies", "medik", "--size", "tiny"][..],
        &["run", "--kernel", "bfs", "--size", "tiny", "--policy", "medik"][..],
    ] {
        let o = warpscope(args);
        assert_eq!(o.status.code(), Some(1));
        let e = text(&o.stderr);
        assert!(e.contains("--policy") && e.contains("medic_reuse"), "{e}");
    }
}

#[test]
fn policy_bundle_sets_its_fields_before_set() {
    let o = warpscope(&["config", "--policy", "medic", "--set", "medic.rand_share=0.5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let cfg: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(cfg["l2"]["bypass"], "medic");
    assert_eq!(cfg["l2"]["insertion"], "medic");
    assert_eq!(cfg["l2"]["write_policy"], "write_through");
    assert_eq!(cfg["dram"]["scheduler"], "medic_wms");
    assert_eq!(cfg["medic"]["rand_share"], 0.5);
    let o = warpscope(&["config", "--policy", "medic", "--set", "l2.write_policy=write_back"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("l2.bypass"), "{}", text(&o.stderr));
    let o = warpscope(&["list", "bundles"]);
    assert!(text(&o.stdout).lines().any(|l| l.starts_with("medic_reuse")));
}
