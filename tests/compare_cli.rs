//! `warpscope compare` and `--policy` bundles as a user runs them.

use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `warpscope compare --kernels bfs,spmv ARGS` at tiny size: its table and its CSV.
fn compare_bfs_spmv(name: &str, args: &[&str]) -> (String, String) {
    compare_bfs_spmv_at(name, "tiny", args)
}

/// `warpscope compare --kernels bfs,spmv ARGS` at `size`: its table and its CSV.
fn compare_bfs_spmv_at(name: &str, size: &str, args: &[&str]) -> (String, String) {
    let csv = std::env::temp_dir().join(format!("warpscope-{name}-{}.csv", std::process::id()));
    let mut all =
        vec!["compare", "--kernels", "bfs,spmv", "--size", size, "--jobs", "2", "--out", csv.to_str().unwrap()];
    all.extend_from_slice(args);
    let o = warpscope(&all);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = std::fs::read_to_string(&csv).unwrap();
    std::fs::remove_file(&csv).unwrap();
    (text(&o.stdout), rows)
}

#[test]
fn compare_prints_speedups_with_their_harmonic_mean_and_writes_csv() {
    let (out, rows) = compare_bfs_spmv("compare", &["--policies", "wbyp,medic"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].split_whitespace().eq(["kernel", "baseline", "wbyp", "medic"]), "{}", lines[1]);
    let speedup = |row: &str, col: usize| row.split_whitespace().nth(col).unwrap().parse::<f64>().unwrap();
    let (b, s) = (lines[2], lines[3]);
    assert!(b.starts_with("bfs") && s.starts_with("spmv") && lines[4].starts_with("hmean"));
    let hmean = 2.0 / (1.0 / speedup(b, 3) + 1.0 / speedup(s, 3));
    assert!((speedup(lines[4], 3) - hmean).abs() < 2e-3, "{out}");
    assert_eq!(speedup(lines[4], 1), 1.0);
    assert!(out.contains("L2 miss rate") && out.contains("L2 queuing latency"));
    let rows: Vec<&str> = rows.lines().collect();
    assert!(rows[0].starts_with("kernel,policy,ipc,speedup,"));
    assert_eq!(rows.len(), 1 + 2 * 3);
    assert!(rows.iter().any(|r| r.starts_with("spmv,medic,")));
}

#[test]
fn unknown_bundle_names_the_valid_ones() {
    for (args, flag) in [
        (&["compare", "--kernels", "bfs", "--policies", "medik", "--size", "tiny"][..], "--policies"),
        (&["run", "--kernel", "bfs", "--size", "tiny", "--policy", "medik"][..], "--policy"),
    ] {
        let o = warpscope(args);
        assert_eq!(o.status.code(), Some(1));
        let e = text(&o.stderr);
        assert!(e.starts_with(&format!("error: {flag}: ")) && e.contains("medic_reuse"), "{e}");
    }
}

#[test]
fn policy_bundle_sets_its_fields_before_set() {
    let o = warpscope(&["config", "--policy", "medic", "--set", "l2.rand.share=0.5"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let cfg: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(cfg["l2"]["bypass"], "medic");
    assert_eq!(cfg["l2"]["insertion"], "medic");
    assert_eq!(cfg["l2"]["write_policy"], "write_back_fetch", "a bundle keeps the preset's write policy");
    assert_eq!(cfg["dram"]["scheduler"], "medic_wms");
    assert_eq!(cfg["l2"]["rand"]["share"], 0.5);
    let o = warpscope(&["config", "--policy", "medic", "--set", "l2.write_policy=write_back"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("l2.bypass"), "{}", text(&o.stderr));
    let o = warpscope(&["list", "bundles"]);
    assert!(text(&o.stdout).lines().any(|l| l.starts_with("medic_reuse")));
}

#[test]
fn a_tuned_bundle_keeps_its_fastest_value_per_kernel() {
    let (out, rows) = compare_bfs_spmv("tune", &["--policies", "rand,wbyp", "--tune", "rand:l2.rand.share=0,1"]);
    let rows: Vec<Vec<&str>> = rows.lines().skip(1).map(|l| l.split(',').collect()).collect();
    // Two kernels, each under the baseline, rand at both shares, and wbyp.
    assert_eq!(rows.len(), 2 * 4);
    let table: Vec<&str> = out.lines().collect();
    let tuned_at = table.iter().position(|l| l.starts_with("Tuned bundles")).expect(&out);
    assert!(table[tuned_at + 1].split_whitespace().eq(["kernel", "rand:l2.rand.share"]), "{out}");
    for (i, k) in ["bfs", "spmv"].iter().enumerate() {
        let rand: Vec<&Vec<&str>> = rows.iter().filter(|r| r[0] == *k && r[1] == "rand").collect();
        assert_eq!(rand.len(), 2);
        let ipc = |r: &Vec<&str>| r[2].parse::<f64>().unwrap();
        let best = if ipc(rand[1]) > ipc(rand[0]) { rand[1] } else { rand[0] };
        assert!(rand.iter().all(|r| (r[12] == "true") == std::ptr::eq(*r, best)), "{rand:?}");
        // The speedup table shows the kept run; the tuned table names its value.
        let line = table[2 + i];
        assert!(line.starts_with(k));
        let shown: f64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        let speedup: f64 = best[3].parse().unwrap();
        assert!((shown - speedup).abs() < 6e-4, "{line} vs {best:?}");
        let value = best[11].strip_prefix("l2.rand.share=").unwrap();
        assert!(table[tuned_at + 2 + i].split_whitespace().eq([*k, value]), "{out}");
    }
    assert!(rows.iter().filter(|r| r[1] != "rand").all(|r| r[11].is_empty() && r[12] == "true"));
}

#[test]
fn bad_tunes_name_the_flag_or_the_field() {
    let run = |tune: &str| {
        let o = warpscope(&["compare", "--kernels", "bfs", "--policies", "rand", "--size", "tiny", "--tune", tune]);
        assert_eq!(o.status.code(), Some(1), "{tune}");
        text(&o.stderr)
    };
    let e = run("pcal:l2.pcal.tokens=8,64");
    assert!(e.contains("--tune") && e.contains("`pcal` is not one of the compared bundles: rand"), "{e}");
    let e = run("rand");
    assert!(e.contains("--tune") && e.contains("BUNDLE:PATH=V1,V2"), "{e}");
    let e = run("rand:l2.rand.shar=0.1");
    assert!(e.contains("l2.rand.shar") && e.contains("share"), "{e}");
    let e = run("rand:l2.rand.share=0.1,2");
    assert!(e.contains("l2.rand.share"), "{e}");
    // An old path still tunes (for one release), with a warning naming the new one.
    let e = run("rand:medic.rand_share=0.1,2");
    assert!(
        e.contains("warning: --tune medic.rand_share: renamed l2.rand.share")
            && e.contains("l2.rand.share: 2 is not a fraction"),
        "{e}"
    );
}

#[test]
fn repeated_or_unknown_names_are_refused_under_their_flag() {
    let cases: [(&[&str], &str); 5] = [
        (&["--kernels", "bfs,bfs", "--policies", "medic"], "--kernels: `bfs` is given twice"),
        (&["--kernels", "bfs", "--policies", "medic,medic"], "--policies: `medic` is given twice"),
        (&["--kernels", "nope", "--policies", "medic"], "--kernels: unknown kernel `nope`"),
        (&["--kernels", "bfs", "--policies", "nope"], "--policies: unknown bundle `nope`"),
        (&["--kernels", "bfs", "--policies", "medic", "--baseline", "nope"], "--baseline: unknown bundle `nope`"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["compare", "--size", "tiny"];
        all.extend(args);
        let o = warpscope(&all);
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(e.starts_with(&format!("error: {expected}")), "{args:?}: {e}");
    }
    let o = warpscope(&["compare", "--kernels", "bfs", "--policies", "medic", "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2), "--jobs 0 is a parse error");
}

#[test]
fn a_sampled_comparison_gives_each_speedup_the_range_its_runs_intervals_allow() {
    let (out, rows) = compare_bfs_spmv_at("compare-sampled", "small", &["--policies", "medic", "--sample", "4"]);
    assert!(out.starts_with("ESTIMATED: 4 of 4 runs were sampled"), "{out}");
    let spmv = out.lines().find(|l| l.starts_with("spmv")).unwrap();
    assert!(spmv.split_whitespace().nth(1).unwrap().starts_with('≈'), "the baseline's IPC is estimated: {spmv}");
    let hmean = out.lines().find(|l| l.starts_with("hmean")).unwrap();
    assert_eq!(hmean.split_whitespace().nth(1), Some("1.000"), "the baseline over itself is exactly 1: {hmean}");
    let csv: Vec<Vec<&str>> = rows.lines().map(|l| l.split(',').collect()).collect();
    let at = |name: &str| csv[0].iter().position(|c| *c == name).unwrap();
    assert_eq!(csv[0][13..], ["ipc_low", "ipc_high", "speedup_low", "speedup_high"]);
    let row = |k: &str, p: &str| csv.iter().find(|r| r[0] == k && r[1] == p).unwrap();
    let num = |r: &Vec<&str>, c: &str| r[at(c)].parse::<f64>().unwrap();
    let (base, medic) = (row("spmv", "baseline"), row("spmv", "medic"));
    assert_eq!((base[at("speedup_low")], base[at("speedup_high")]), ("", ""), "no range over itself");
    // The range: the policy's IPC interval over the baseline's, their errors taken as independent.
    let low = num(medic, "ipc_low") / num(base, "ipc_high");
    let high = num(medic, "ipc_high") / num(base, "ipc_low");
    assert!((num(medic, "speedup_low") - low).abs() < 1e-12 && (num(medic, "speedup_high") - high).abs() < 1e-12);
    assert!(low < num(medic, "speedup") && num(medic, "speedup") < high);
    assert_eq!(medic[at("l2_miss_rate_with_bypass")], "", "not estimated");
    // --sample and --set sample.windows together are refused.
    let o = warpscope(&[
        "compare",
        "--kernels",
        "spmv",
        "--policies",
        "medic",
        "--sample",
        "4",
        "--set",
        "sample.windows=3",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).starts_with("error: --sample:"), "{}", text(&o.stderr));
}

#[test]
fn a_sampled_run_with_one_window_sampled_says_it_has_no_interval() {
    // bfs at small with two windows: one falls in a launch head simulated whole, so each run's
    // spread is unknown and so is the range of the speedup between them.
    let (out, rows) = compare_bfs_spmv_at("compare-lone", "small", &["--policies", "medic", "--sample", "2"]);
    let bfs = out.lines().find(|l| l.starts_with("bfs")).unwrap();
    assert_eq!(bfs.matches("(no interval)").count(), 2, "{out}");
    assert!(out.contains("CAUTION: bfs under baseline; bfs under medic were left with one sampled window"), "{out}");
    let csv: Vec<Vec<&str>> = rows.lines().map(|l| l.split(',').collect()).collect();
    let medic = csv.iter().find(|r| r[0] == "bfs" && r[1] == "medic").unwrap();
    assert_eq!(medic[13..], ["0.0", "", "0.0", ""], "unbounded above: {medic:?}");
}
