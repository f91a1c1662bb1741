//! `warpscope sweep`: the cross product of config axes, one row per point.

use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

#[test]
fn sweep_runs_the_cross_product_and_writes_csv() {
    let dir = std::env::temp_dir().join(format!("warpscope-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("sweep.csv");
    let o = warpscope(&[
        "sweep",
        "--kernel",
        "atax,mvt",
        "--size",
        "tiny",
        "--set",
        "l1d.size_kb=16,64",
        "--set",
        "core.warp_scheduler=gto,lrr",
        "--metrics",
        "cycles,l1d.hit_rate",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["kernel", "l1d.size_kb", "core.warp_scheduler", "cycles", "l1d.hit_rate"]);
    assert_eq!(rows.len(), 1 + 2 * 2 * 2, "two kernels x two sizes x two schedulers");
    assert_eq!(rows[1][..3], ["atax", "16", "gto"]);
    assert_eq!(rows[2][..3], ["atax", "16", "lrr"]);
    assert_eq!(rows[8][..3], ["mvt", "64", "lrr"]);
    // The axes really change the machine: a 64 KB L1 hits more than a 16 KB one on atax.
    let hit = |r: &Vec<&str>| r[4].parse::<f64>().unwrap();
    assert!(hit(&rows[3]) > hit(&rows[1]) + 0.2, "{text}");
    // The same point run alone gives the same numbers (runs on threads stay deterministic).
    let single = warpscope(&[
        "sweep",
        "--kernel",
        "atax",
        "--size",
        "tiny",
        "--set",
        "l1d.size_kb=64",
        "--set",
        "core.warp_scheduler=gto",
        "--metrics",
        "cycles,l1d.hit_rate",
        "--jobs",
        "1",
    ]);
    let table = String::from_utf8_lossy(&single.stdout);
    let cycles = table.lines().nth(1).unwrap().split_whitespace().nth(3).unwrap();
    assert_eq!(cycles, rows[3][3]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sweep_errors_name_the_field() {
    let cases: &[(&[&str], &str)] = &[
        (&["--set", "core.warp_scheduler=gto,nope"], "core.warp_scheduler"),
        (&["--set", "l1d.size_kb"], "--set"),
        (&["--set", "l1d.size_kb=16,,32"], "empty value"),
        (&["--metrics", "no.such.key"], "--metrics"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["sweep", "--kernel", "atax", "--size", "tiny"];
        args.extend_from_slice(extra);
        let o = warpscope(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn repeats_and_zero_jobs_are_refused() {
    let cases: [(&[&str], &str); 4] = [
        (&["--kernel", "bfs", "--set", "l1d.size_kb=16,32", "--set", "l1d.size_kb=64"], "`l1d.size_kb` is given twice"),
        (&["--kernel", "bfs,bfs"], "--kernel: `bfs` is given twice"),
        (&["--kernel", "bfs", "--set", "=16"], "the path is empty"),
        (&["--kernel", "bfs", "--set", ".l1d.size_kb=16"], "empty field name"),
    ];
    for (extra, needle) in cases {
        let mut args = vec!["sweep", "--size", "tiny"];
        args.extend_from_slice(extra);
        let o = warpscope(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    let o = warpscope(&["sweep", "--kernel", "bfs", "--size", "tiny", "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2), "--jobs 0 is a parse error");
}

#[test]
fn a_sampled_sweep_gives_each_estimate_with_its_interval_as_run_does() {
    let dir = std::env::temp_dir().join(format!("warpscope-sampled-sweep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("sweep.csv");
    let args = ["sweep", "--kernel", "spmv", "--size", "small", "--set", "l1d.size_kb=16,32", "--quiet"];
    let metrics = ["--metrics", "ipc,l2.miss_rate,warps.types.all_hit", "--out", csv.to_str().unwrap()];
    let o = warpscope(&[&args[..], &["--sample", "4"], &metrics[..]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.starts_with("ESTIMATED: 2 of 2 points were sampled"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    let header =
        "kernel,l1d.size_kb,ipc,ipc_low,ipc_high,l2.miss_rate,l2.miss_rate_low,l2.miss_rate_high,warps.types.all_hit";
    assert_eq!(rows[0].join(","), header, "warp types carry no interval");
    let num = |s: &str| s.parse::<f64>().unwrap();
    for r in &rows[1..] {
        for at in [2, 5] {
            assert!(num(r[at + 1]) < num(r[at]) && num(r[at]) < num(r[at + 2]), "{text}");
        }
    }
    // The point run alone: the same estimate and interval.
    let run = warpscope(&[
        "run",
        "--kernel",
        "spmv",
        "--size",
        "small",
        "--sample",
        "4",
        "--set",
        "l1d.size_kb=32",
        "--format",
        "json",
        "--quiet",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let alone = [&doc["estimate"]["ipc"], &doc["intervals"]["ipc"]["low"], &doc["intervals"]["ipc"]["high"]];
    assert_eq!(alone.map(|v| v.as_f64().unwrap()), [num(rows[2][2]), num(rows[2][3]), num(rows[2][4])]);
    // Sweeping whole and sampled runs side by side: a whole point has no interval.
    let o = warpscope(&[&args[..], &["--set", "sample.windows=0,4"], &metrics[..]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("ESTIMATED: 2 of 4 points"));
    let text = std::fs::read_to_string(&csv).unwrap();
    let whole: Vec<&str> = text.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((whole[2], whole[4..6].to_vec()), ("0", vec!["", ""]), "{text}");
    // A key a sampled run does not estimate is named with those it does; --sample and a
    // swept sample.windows together are refused.
    let o = warpscope(&[&args[..], &["--sample", "4", "--metrics", "l2.accesses"]].concat());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("`l2.accesses` is not estimated by a sampled run; a sampled point has completed, cycles, ipc"),
        "{err}"
    );
    let o = warpscope(&[&args[..], &["--sample", "4", "--set", "sample.windows=2,3"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("error: --sample:"));
    // A point sampled inside a launch that fits on the machine at once is named.
    let o =
        warpscope(&["sweep", "--kernel", "atax", "--size", "small", "--sample", "4", "--metrics", "ipc", "--quiet"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.lines().nth(1).unwrap().starts_with("CAUTION: atax was sampled inside launches that fit"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_sampled_point_left_with_one_window_says_it_has_no_interval() {
    // bfs at small with two windows: one falls in a launch head simulated whole.
    let csv = std::env::temp_dir().join(format!("warpscope-sweep-lone-{}.csv", std::process::id()));
    let o = warpscope(&[
        "sweep",
        "--kernel",
        "bfs",
        "--set",
        "dram.scheduler=gmc,fr_fcfs",
        "--sample",
        "2",
        "--metrics",
        "ipc",
        "--quiet",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(
            "CAUTION: bfs at dram.scheduler=gmc; bfs at dram.scheduler=fr_fcfs were left with one sampled window"
        ),
        "{text}"
    );
    assert_eq!(text.matches("(no interval)").count(), 2, "{text}");
    // The CSV has the interval's columns, empty: unbounded, not exact.
    let rows = std::fs::read_to_string(&csv).unwrap();
    std::fs::remove_file(&csv).unwrap();
    let lines: Vec<&str> = rows.lines().collect();
    assert_eq!(lines[0], "kernel,dram.scheduler,ipc,ipc_low,ipc_high");
    assert!(lines[1].ends_with(",,"), "{rows}");
}
