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
