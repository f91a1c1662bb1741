//! The `warpscope` binary as a user runs it.

use serde_json::Value;
use std::process::{Command, Output};

fn warpscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpscope")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn lookup<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, k| v.get(k))
}

/// The dotted keys the report promises (docs/report-keys.md).
const REPORT_KEYS: &[&str] = &[
    "completed",
    "cycles",
    "warp_instructions",
    "ipc",
    "l1d.accesses",
    "l1d.hits",
    "l1d.misses",
    "l1d.miss_rate",
    "l1d.reservation_fails",
    "l2.accesses",
    "l2.hits",
    "l2.miss_rate",
    "l2.miss_rate_with_bypass",
    "l2.avg_queue_latency",
    "l2.bypassed",
    "l2.no_allocate",
    "l2.write_fetches",
    "warps.hit_ratio_series.window_cycles",
    "warps.type_stability",
    "warps.mostly_miss_boundary",
    "dram.reads",
    "dram.writes",
    "dram.row_buffer_hit_rate",
    "dram.bandwidth_utilization",
    "partitions.requests",
    "latency.avg_warp_load_latency",
    "latency.avg_dram_warp_load_latency",
    "latency.avg_divergence",
    "latency.avg_dram_divergence",
    "latency.divergence_histogram",
    "warps.l2_hit_ratio_histogram",
    "warps.types.all_hit",
    "warps.types.mostly_hit",
    "warps.types.balanced",
    "warps.types.mostly_miss",
    "warps.types.all_miss",
    "warps.l2_reads_by_type.profiling",
    "warps.l2_reads_by_type.mostly_miss",
    "warps.l2_reads_by_type.all_miss",
    "latency.trip_l2_hit.reads",
    "latency.trip_l2_hit.port_wait",
    "latency.trip_l2_hit.l2_queue",
    "latency.trip_dram.l2_or_dram",
    "latency.trip_dram.reply_net",
    "seed",
    "version",
    "config.l1d.size_kb",
];

#[test]
fn json_report_has_every_documented_key() {
    let o = warpscope(&["run", "--preset", "medic-gtx480", "--kernel", "bfs", "--size", "tiny", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("the report is JSON");
    for key in REPORT_KEYS {
        assert!(lookup(&v, key).is_some(), "missing {key}");
    }
    assert_eq!(v["completed"], Value::Bool(true));
    assert_eq!(v["partitions"]["requests"].as_array().unwrap().len(), 6);
    let types = &v["warps"]["types"];
    let sum: f64 = ["all_hit", "mostly_hit", "balanced", "mostly_miss", "all_miss"]
        .iter()
        .map(|k| types[k].as_f64().unwrap())
        .sum();
    assert!((sum - 1.0).abs() < 1e-9, "warp-type fractions sum to 1, got {sum}");
}

#[test]
fn max_cycles_cuts_the_run_and_says_so() {
    let o = warpscope(&["run", "--kernel", "atax", "--size", "tiny", "--max-cycles", "500", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["completed"], Value::Bool(false));
    assert!(v["cycles"].as_u64().unwrap() <= 501);
}

#[test]
fn bad_set_is_a_one_line_error_naming_the_field() {
    for (arg, field) in [
        ("l1d.size_kb=15", "l1d.size_kb"),
        ("core.warp_scheduler=fifo", "core.warp_scheduler"),
        ("l1d.nope=1", "l1d.nope"),
        ("l1d.size_kb", "--set"),
    ] {
        let o = warpscope(&["run", "--kernel", "bfs", "--size", "tiny", "--set", arg]);
        assert!(!o.status.success(), "{arg} should fail");
        let err = stderr(&o);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.starts_with("error: ") && err.contains(field), "{arg}: {err}");
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let o = warpscope(&["run", "--kernel", "nosuch", "--size", "tiny"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("atax"), "{}", stderr(&o));
    let o = warpscope(&["run", "--preset", "gtx9000", "--kernel", "bfs"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("sc14-gtx480"));
    let o = warpscope(&["run", "--size", "huge"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("tiny"));
    let o = warpscope(&["run", "--config", "/nonexistent/config.json"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--config"));
}

#[test]
fn listings_name_presets_kernels_and_policies() {
    let p = stdout(&warpscope(&["list", "presets"]));
    assert!(p.contains("medic-gtx480") && p.contains("sc14-gtx480"));
    let k = stdout(&warpscope(&["list", "kernels"]));
    for name in [
        "atax",
        "bicg",
        "mvt",
        "gesummv",
        "syrk",
        "bfs",
        "sssp",
        "spmv",
        "kmeans",
        "hotspot",
        "conv_separable",
        "streamcluster",
        "pvc",
    ] {
        assert!(k.contains(name), "missing kernel {name}");
    }
    let pol = stdout(&warpscope(&["list", "policies"]));
    assert!(
        pol.contains("core.warp_scheduler")
            && pol.contains("gto")
            && pol.contains("dram.scheduler")
            && pol.contains("fr_fcfs")
    );
}

#[test]
fn a_saved_config_runs_like_its_preset() {
    let cfg =
        stdout(&warpscope(&["config", "--preset", "sc14-gtx480", "--set", "l1d.size_kb=16", "--set", "l1d.ways=4"]));
    let path = std::env::temp_dir().join(format!("warpscope-cli-{}.json", std::process::id()));
    std::fs::write(&path, &cfg).unwrap();
    let from_file = warpscope(&[
        "run",
        "--config",
        path.to_str().unwrap(),
        "--kernel",
        "spmv",
        "--size",
        "tiny",
        "--format",
        "json",
    ]);
    let from_preset = warpscope(&[
        "run",
        "--preset",
        "sc14-gtx480",
        "--set",
        "l1d.size_kb=16",
        "--set",
        "l1d.ways=4",
        "--kernel",
        "spmv",
        "--size",
        "tiny",
        "--format",
        "json",
    ]);
    std::fs::remove_file(&path).ok();
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    assert_eq!(stdout(&from_file), stdout(&from_preset));
}

#[test]
fn inspect_lists_launches_and_static_loads() {
    let o = warpscope(&["inspect", "--kernel", "atax", "--size", "tiny", "--format", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let launches = v.as_array().unwrap();
    assert_eq!(launches.len(), 2, "atax has two kernels");
    for l in launches {
        assert!(l["warp_instructions"].as_u64().unwrap() > 0);
        assert!(!l["static_loads"].as_array().unwrap().is_empty());
    }
}

#[test]
fn malformed_set_paths_show_the_expected_form() {
    for arg in ["=1", ".l1d.size_kb=16", "l1d..size_kb=16"] {
        let o = warpscope(&["run", "--kernel", "bfs", "--size", "tiny", "--set", arg]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{arg}: {err}");
        assert!(err.starts_with(&format!("error: --set: `{arg}` is not PATH=VALUE")), "{arg}: {err}");
    }
}

#[test]
fn preset_and_config_conflict_but_the_default_preset_does_not() {
    let path = std::env::temp_dir().join(format!("warpscope-cli-conflict-{}.json", std::process::id()));
    std::fs::write(&path, stdout(&warpscope(&["config"]))).unwrap();
    let config = path.to_str().unwrap();
    for cmd in [&["config"][..], &["run", "--kernel", "bfs", "--size", "tiny"], &["sweep", "--kernel", "bfs"]] {
        let args = [cmd, &["--preset", "nope", "--config", config]].concat();
        let o = warpscope(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("cannot be used with"), "{args:?}: {}", stderr(&o));
    }
    let o = warpscope(&["run", "--kernel", "bfs", "--size", "tiny", "--max-cycles", "100", "--config", config]);
    std::fs::remove_file(&path).ok();
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn an_mrpb_queue_smaller_than_a_warp_load_is_refused() {
    let o = warpscope(&[
        "run",
        "--kernel",
        "bfs",
        "--size",
        "tiny",
        "--set",
        "l1d.bypass=mrpb",
        "--set",
        "l1d.mrpb_queue=8",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: l1d.mrpb_queue: 8 is below 32"), "{err}");
}

#[test]
fn a_zero_bench_repeat_is_a_parse_error() {
    let o = warpscope(&["bench", "--repeat", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--repeat"), "{}", stderr(&o));
}

/// Writes `text` to a per-test temp file and returns its path.
fn temp_config(tag: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("warpscope-cli-{tag}-{}.json", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_config_file_that_gives_a_key_twice_is_refused_with_its_section_and_line() {
    let full = stdout(&warpscope(&["config"]));
    let twice = full.replacen("\"size_kb\": 16,", "\"size_kb\": 16, \"size_kb\": 32,", 1);
    assert_ne!(twice, full, "the L1 size appears in the preset");
    let path = temp_config("twice", &twice);
    let o = warpscope(&["run", "--kernel", "bfs", "--size", "tiny", "--config", path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with("error: l1d: duplicate field `size_kb` at line"), "{err}");
}

#[test]
fn fields_a_config_file_leaves_out_are_named_and_reachable_by_set() {
    let mut doc: Value = serde_json::from_str(&stdout(&warpscope(&["config"]))).unwrap();
    doc["l2"].as_object_mut().unwrap().remove("reply_ports");
    doc.as_object_mut().unwrap().remove("medic");
    let path = temp_config("left-out", &doc.to_string());
    let config = path.to_str().unwrap();
    let o = warpscope(&["config", "--config", config, "--set", "l2.reply_ports=3"]);
    let compared =
        warpscope(&["compare", "--config", config, "--policies", "wbyp", "--kernels", "bfs", "--size", "tiny"]);
    std::fs::remove_file(&path).ok();
    assert!(o.status.success(), "{}", stderr(&o));
    let resolved: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(resolved["l2"]["reply_ports"], 3);
    assert!(resolved["medic"]["reset_interval"].as_u64().is_some(), "a left-out section takes its defaults");
    let note = stderr(&o);
    assert!(note.starts_with("note: ") && note.contains("leaves out l2.reply_ports, medic;"), "{note}");
    assert!(compared.status.success(), "{}", stderr(&compared));
    assert_eq!(stderr(&compared).matches("leaves out").count(), 1, "one note for all of compare's machines");
}

#[test]
fn malformed_config_files_name_the_flag_and_the_file() {
    for (tag, text, want) in [
        ("eof", "{\"name\": 3", "malformed JSON: EOF while parsing"),
        ("trailing", "{\"name\": \"x\"} x", "malformed JSON: trailing characters"),
    ] {
        let path = temp_config(tag, text);
        let o = warpscope(&["run", "--kernel", "bfs", "--size", "tiny", "--config", path.to_str().unwrap()]);
        std::fs::remove_file(&path).ok();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{tag}: {err}");
        assert!(err.starts_with("error: --config: ") && err.contains(want), "{tag}: {err}");
    }
}

#[test]
fn an_unknown_kernel_names_the_flag() {
    for cmd in ["run", "inspect"] {
        let o = warpscope(&[cmd, "--kernel", "nope", "--size", "tiny"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
        assert!(err.starts_with("error: --kernel: unknown kernel `nope`; valid kernels are: atax,"), "{cmd}: {err}");
    }
}

#[test]
fn a_run_stopped_by_the_watchdog_exits_3_in_every_command() {
    let stop = "stats.watchdog_cycles=1";
    let runs: [&[&str]; 3] = [
        &["run", "--kernel", "bfs", "--size", "tiny", "--set", stop],
        &["compare", "--policies", "medic", "--kernels", "bfs", "--size", "tiny", "--set", stop],
        &["sweep", "--kernel", "bfs", "--size", "tiny", "--set", stop, "--set", "l2.ports=1,2"],
    ];
    for args in runs {
        let o = warpscope(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert!(err.contains("watchdog: no progress for "), "{args:?}: {err}");
    }
}

#[test]
fn a_sampled_run_checks_against_a_plan_jobs_whole_report_gzipped_or_not() {
    let dir = std::env::temp_dir().join(format!("ws-check-against-job-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("plan");
    let (plan_s, csv) = (plan.to_str().unwrap(), dir.join("c.csv"));
    let planned = warpscope(&[
        "compare",
        "--policies",
        "rand",
        "--kernels",
        "spmv",
        "--size",
        "tiny",
        "--quiet",
        "--plan",
        plan_s,
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(planned.status.success(), "{}", stderr(&planned));
    let jobs = std::fs::read_to_string(plan.join("jobs.txt")).unwrap();
    let id = jobs.lines().next().unwrap();
    assert!(warpscope(&["job", plan_s, id, "--quiet"]).status.success());
    let report_path = plan.join("out").join(format!("{id}.json"));
    let report: Value = serde_json::from_slice(&std::fs::read(&report_path).unwrap()).unwrap();
    let config = dir.join("config.json");
    std::fs::write(&config, report["config"].to_string()).unwrap();
    let base = ["run", "--config", config.to_str().unwrap(), "--kernel", "spmv", "--size", "tiny", "--sample", "4"];

    // Against the job's report, the check is the one a full run in process gives.
    let checked = warpscope(&[&base[..], &["--check", "--format", "json", "--quiet"]].concat());
    assert!(checked.status.success(), "{}", stderr(&checked));
    let gz = dir.join("report.json.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, &std::fs::read(&report_path).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    for against in [&report_path, &gz] {
        let o = warpscope(
            &[&base[..], &["--check-against", against.to_str().unwrap(), "--format", "json", "--quiet"]].concat(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let (a, b): (Value, Value) =
            (serde_json::from_slice(&checked.stdout).unwrap(), serde_json::from_slice(&o.stdout).unwrap());
        assert!(!a["check"].as_array().unwrap().is_empty());
        assert_eq!(a["check"], b["check"], "{}", against.display());
        assert_eq!(b["seconds"]["full"], Value::Null, "a job's report records no wall time");
        assert_eq!(b["parts"], Value::Null, "nor the curve the parts of the error need");
    }
    let text = warpscope(&[&base[..], &["--check-against", report_path.to_str().unwrap(), "--quiet"]].concat());
    assert!(String::from_utf8_lossy(&text.stdout).contains("the full run's is not recorded"));

    // Another preset's machine, or a sampled job's report, is refused.
    let other = warpscope(&[
        "run",
        "--preset",
        "sc14-gtx480",
        "--kernel",
        "spmv",
        "--size",
        "tiny",
        "--sample",
        "4",
        "--check-against",
        report_path.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(other.status.code(), Some(1));
    assert!(stderr(&other).contains("another config"), "{}", stderr(&other));
    let mut sampled = report.clone();
    sampled["config"]["sample"]["windows"] = 4.into();
    let sampled_path = dir.join("sampled.json");
    std::fs::write(&sampled_path, sampled.to_string()).unwrap();
    let o = warpscope(&[&base[..], &["--check-against", sampled_path.to_str().unwrap(), "--quiet"]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a sampled run's report"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_sampled_run_checks_against_a_recorded_full_run_and_refuses_one_of_another_config() {
    let dir = std::env::temp_dir().join(format!("ws-check-against-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = ["run", "--preset", "medic-gtx480", "--kernel", "spmv", "--size", "tiny", "--sample", "4"];
    let checked = warpscope(&[&base[..], &["--check", "--format", "json", "--quiet"]].concat());
    assert!(checked.status.success(), "{}", stderr(&checked));
    let recorded = dir.join("checked.json");
    std::fs::write(&recorded, &checked.stdout).unwrap();
    let path = recorded.to_str().unwrap();

    let again = warpscope(&[&base[..], &["--check-against", path, "--format", "json", "--quiet"]].concat());
    assert!(again.status.success(), "{}", stderr(&again));
    let (a, b): (Value, Value) =
        (serde_json::from_slice(&checked.stdout).unwrap(), serde_json::from_slice(&again.stdout).unwrap());
    assert_eq!(a["check"], b["check"], "the same sampled run against the same full run");
    assert_eq!(a["seconds"]["full"], b["seconds"]["full"], "the full run's time comes from the file");
    assert_eq!(a["parts"], b["parts"], "and so does its curve, which splits the error");
    // The parts add up to the estimate's cycles less the full run's, which the curve ends at.
    let part = |k: &str| a["parts"][k].as_f64().unwrap();
    let full_cycles = a["full"]["cycles"].as_f64().unwrap();
    assert_eq!(part("full_cycles"), full_cycles);
    assert_eq!(a["full_curve"]["end"][0].as_f64().unwrap(), full_cycles);
    let error = a["sampled"]["estimate"]["cycles"].as_f64().unwrap() - full_cycles;
    let sum = part("windows_state") + part("placement") + part("heads_and_tails");
    // (The report rounds the estimated cycles to whole ones.)
    assert!((sum - error).abs() <= 0.5 + 1e-9 * full_cycles, "parts {sum} against the error {error}");
    let text = warpscope(&[&base[..], &["--check-against", path, "--quiet"]].concat());
    assert!(String::from_utf8_lossy(&text.stdout).contains("where the estimated cycles differ"));

    // A file recorded before `medic.rand_share` became `l2.rand.share` still checks.
    let mut doc = a.clone();
    let config = &mut doc["sampled"]["config"];
    let share = config["l2"]["rand"]["share"].clone();
    config["l2"].as_object_mut().unwrap().remove("rand");
    config["medic"]["rand_share"] = share;
    let old = dir.join("old-paths.json");
    std::fs::write(&old, serde_json::to_string(&doc).unwrap()).unwrap();
    let renamed = warpscope(&[&base[..], &["--check-against", old.to_str().unwrap(), "--quiet"]].concat());
    assert!(renamed.status.success(), "{}", stderr(&renamed));

    // A file from before the curve was recorded has none, and checked against again it is
    // written with `"full_curve": null`: both still check, with no parts.
    let mut doc = a.clone();
    doc["full_curve"] = Value::Null;
    let no_curve = dir.join("no-curve.json");
    std::fs::write(&no_curve, serde_json::to_string(&doc).unwrap()).unwrap();
    let again = warpscope(
        &[&base[..], &["--check-against", no_curve.to_str().unwrap(), "--format", "json", "--quiet"]].concat(),
    );
    assert!(again.status.success(), "{}", stderr(&again));
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["check"], a["check"]);
    assert!(again["parts"].is_null() && again["full_curve"].is_null());

    let seed = warpscope(&[&base[..], &["--seed", "2", "--check-against", path, "--quiet"]].concat());
    assert_eq!(seed.status.code(), Some(1));
    assert!(stderr(&seed).contains("--check-against") && stderr(&seed).contains("with seed 1"), "{}", stderr(&seed));
    let other = warpscope(&[&base[..], &["--set", "l1d.mshrs=16", "--check-against", path, "--quiet"]].concat());
    assert_eq!(other.status.code(), Some(1));
    assert!(stderr(&other).contains("another config"), "{}", stderr(&other));

    let plain = dir.join("plain.json");
    let run = warpscope(&["run", "--kernel", "spmv", "--size", "tiny", "--format", "json", "--quiet"]);
    std::fs::write(&plain, &run.stdout).unwrap();
    let wrong = warpscope(&[&base[..], &["--check-against", plain.to_str().unwrap(), "--quiet"]].concat());
    assert_eq!(wrong.status.code(), Some(1));
    assert!(stderr(&wrong).contains("has no full run"), "{}", stderr(&wrong));
    std::fs::remove_dir_all(&dir).ok();
}

/// `args` planned into a fresh scratch directory named for `name`: the directory, what planning
/// printed and the ids of `jobs.txt`.
fn planned(name: &str, args: &[&str]) -> (std::path::PathBuf, String, Vec<String>) {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = warpscope(&[args, &["--plan", dir.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let jobs = std::fs::read_to_string(dir.join("jobs.txt")).unwrap().lines().map(String::from).collect();
    (dir, stdout(&o), jobs)
}

#[test]
fn runs_sharing_a_warming_are_planned_as_one_job_that_writes_each_report() {
    // sc14-fig9's five DRAM schedulers per kernel share the warming of GMC's run.
    let args = ["figure", "sc14-fig9", "--size", "tiny", "--sample", "4", "--quiet"];
    let (dir, said, jobs) = planned("ws-shared-plan", &args);
    let plan = dir.to_str().unwrap();
    assert!(said.starts_with("planned 25 runs as 5 jobs in "), "{said}");
    assert_eq!(jobs.len(), 5);
    let manifest: Vec<Value> = std::fs::read_to_string(dir.join("manifest.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for job in &jobs {
        let runs: Vec<&Value> = manifest.iter().filter(|e| e["job"] == job.as_str()).collect();
        assert_eq!(runs.len(), 5, "{job}");
        assert!(runs.iter().all(|e| e["kernel"] == runs[0]["kernel"]), "{job}");
        let o = warpscope(&["job", plan, job, "--quiet"]);
        assert!(o.status.success(), "{job}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().filter(|l| l.starts_with("wrote ")).count(), 5, "{}", stdout(&o));
    }
    let collected = warpscope(&["collect", plan]);
    assert!(collected.status.success(), "{}", stderr(&collected));
    assert_eq!(stdout(&collected), stdout(&warpscope(&args)), "collected as run in one process");
    // A follower's report lost: its job runs it alone, to the same report; naming the run
    // runs its job.
    let follower = manifest.iter().find(|e| e["job"] != e["id"]).unwrap();
    let (id, job) = (follower["id"].as_str().unwrap(), follower["job"].as_str().unwrap());
    let report = dir.join("out").join(format!("{id}.json"));
    let kept = std::fs::read_to_string(&report).unwrap();
    std::fs::remove_file(&report).unwrap();
    let o = warpscope(&["collect", plan]);
    assert_eq!(o.status.code(), Some(4));
    assert!(stderr(&o).contains(&format!("  {job} (")), "{}", stderr(&o));
    let o = warpscope(&["job", plan, id, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1, "only the missing report: {}", stdout(&o));
    assert_eq!(std::fs::read_to_string(&report).unwrap(), kept);
    let o = warpscope(&["job", plan, job, "--quiet"]);
    assert!(stderr(&o).contains("already done (its 5 runs' reports are in"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn medic_fig11_plans_the_runs_warming_never_tells_apart_as_one_job() {
    // Per kernel, WMS and the ROP skip alone take Baseline's warming and MeDiC as run
    // MeDiC's: 11 runs as 8 jobs.
    let args = ["figure", "medic-fig11", "--size", "tiny", "--sample", "4", "--quiet"];
    let (dir, said, jobs) = planned("ws-rop-shared-plan", &args);
    assert!(said.starts_with("planned 44 runs as 32 jobs in "), "{said}");
    let manifest: Vec<Value> = std::fs::read_to_string(dir.join("manifest.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let series = |job: &str| -> Vec<String> {
        let of = |e: &&Value| e["job"] == job;
        manifest.iter().filter(of).map(|e| e["label"].as_str().unwrap().to_string()).collect()
    };
    let shared: Vec<Vec<String>> = jobs.iter().map(|j| series(j)).filter(|s| s.len() > 1).collect();
    assert_eq!(shared.len(), 8, "{shared:?}");
    assert!(shared.contains(&vec!["bfs (Baseline)".into(), "bfs (WMS)".into(), "bfs (ROP skip alone)".into()]));
    assert!(shared.contains(&vec!["pvc (MeDiC)".into(), "pvc (MeDiC as run)".into()]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sampled_figure_planned_as_jobs_collects_to_the_verdict_it_gives_in_process() {
    let args = ["figure", "medic-fig3", "--size", "tiny", "--sample", "4", "--quiet"];
    let (dir, _, jobs) = planned("ws-sampled-plan", &args);
    let plan = dir.to_str().unwrap();
    for id in &jobs {
        let job = warpscope(&["job", plan, id, "--quiet"]);
        assert!(job.status.success(), "{id}: {}", stderr(&job));
    }
    // A sampled job's report holds estimates, not a whole run's counts: collect takes it.
    let collected = warpscope(&["collect", plan]);
    assert!(collected.status.success(), "{}", stderr(&collected));
    let verdict = |o: &Output| stdout(o).lines().find(|l| l.starts_with("ours:")).map(str::to_string);
    let in_process = warpscope(&args);
    assert!(in_process.status.success(), "{}", stderr(&in_process));
    let v = verdict(&collected).expect("a verdict");
    assert!(v.contains("Judged with the sampled runs' 95 % intervals"), "{v}");
    assert_eq!(Some(v), verdict(&in_process));
    let _ = std::fs::remove_dir_all(&dir);
}
