//! `warpscope plot` as a user runs it: reports saved by `warpscope run`, charts written as files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-cli-plot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Saves a tiny bfs report as `dir/stem.json`.
fn report(dir: &Path, stem: &str, sets: &[&str]) -> PathBuf {
    let mut args = vec!["run", "--kernel", "bfs", "--size", "tiny", "--format", "json"];
    for s in sets {
        args.extend(["--set", s]);
    }
    let o = warpscope(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let path = dir.join(format!("{stem}.json"));
    std::fs::write(&path, &o.stdout).unwrap();
    path
}

#[test]
fn plot_all_writes_one_svg_per_chart_comparing_the_reports() {
    let dir = scratch("all");
    let gto = report(&dir, "gto", &[]);
    let lrr = report(&dir, "lrr", &["core.warp_scheduler=lrr"]);
    let out = dir.join("charts");
    let o = warpscope(&[
        "plot",
        "--chart",
        "all",
        "--out",
        out.to_str().unwrap(),
        gto.to_str().unwrap(),
        lrr.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in [
        "divergence",
        "hit_ratio",
        "warp_types",
        "reads_by_type",
        "queue_latency",
        "read_trip",
        "partitions",
        "timeline",
    ] {
        let svg = std::fs::read_to_string(out.join(format!("{name}.svg"))).unwrap();
        let svg = svg.trim_start();
        assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{name}");
        assert!(svg.trim_end().ends_with("</svg>"), "{name}");
        assert!(svg.contains("\ngto\n") || svg.contains("\ngto: "), "{name}: legend names the runs by file stem");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_csv_writes_the_chart_numbers() {
    let dir = scratch("csv");
    let gto = report(&dir, "gto", &[]);
    let out = dir.join("partitions.csv");
    let o =
        warpscope(&["plot", "--chart", "partitions", "--csv", "--out", out.to_str().unwrap(), gto.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "memory partition (index),gto: requests (% of all)");
    assert_eq!(lines.len(), 1 + 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_errors_name_the_argument_and_exit_non_zero() {
    let dir = scratch("errors");
    let gto = report(&dir, "gto", &[]);
    let out = dir.join("x.svg");
    let cases: [(&[&str], &str); 4] = [
        (&["--chart", "pie", gto.to_str().unwrap()], "--chart: unknown chart `pie`"),
        (&["--chart", "timeline", "missing.json"], "REPORT: cannot read missing.json"),
        (&["--chart", "timeline", "--width", "10", gto.to_str().unwrap()], "--width/--height"),
        (&["--chart", "timeline", dir.to_str().unwrap()], "REPORT"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["plot", "--out", out.to_str().unwrap()];
        all.extend(args);
        let o = warpscope(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    std::fs::write(&gto, "{\"cycles\": \"many\"}").unwrap();
    let o = warpscope(&["plot", "--chart", "timeline", "--out", out.to_str().unwrap(), gto.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a warpscope report"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_refuses_misnamed_outputs_and_files_that_are_not_reports() {
    let dir = scratch("refuse");
    let gto = report(&dir, "gto", &[]);
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "{}").unwrap();
    let config = dir.join("config.json");
    std::fs::write(&config, Command::new(env!("CARGO_BIN_EXE_warpscope")).arg("config").output().unwrap().stdout)
        .unwrap();
    let sampled = dir.join("sampled.json");
    let run = ["run", "--kernel", "bfs", "--size", "tiny", "--sample", "5", "--format", "json", "--quiet"];
    std::fs::write(&sampled, Command::new(env!("CARGO_BIN_EXE_warpscope")).args(run).output().unwrap().stdout).unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let cases: [(Vec<String>, &str); 5] = [
        (vec!["--out".into(), path(&dir.join("p.png")), path(&gto)], "--out: "),
        (vec!["--csv".into(), "--out".into(), path(&dir.join("p.svg")), path(&gto)], "must end in .csv"),
        (vec!["--out".into(), path(&dir.join("e.svg")), path(&empty)], "REPORT: not a warpscope report ("),
        (vec!["--out".into(), path(&dir.join("c.svg")), path(&config)], "REPORT: not a warpscope report ("),
        (vec!["--out".into(), path(&dir.join("s.svg")), path(&sampled)], "is a sampled run's report: charts draw"),
    ];
    for (args, expected) in &cases {
        let mut all = vec!["plot", "--chart", "timeline"];
        all.extend(args.iter().map(String::as_str));
        let o = warpscope(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| e.unwrap().path().extension().is_some_and(|x| x == "json")));
    let o = warpscope(&["plot", "--chart", "partitions", "--out", dir.to_str().unwrap(), gto.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.join("partitions.svg").exists(), "an existing directory takes one file per chart");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn plot_help_lists_every_chart() {
    let help = String::from_utf8_lossy(&warpscope(&["plot", "--help"]).stdout).into_owned();
    for chart in warpscope::plot::Chart::ALL {
        assert!(help.contains(chart.name()), "{}: {help}", chart.name());
    }
}
