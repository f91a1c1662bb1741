//! `warpscope trace export` and `warpscope run --trace` as a user runs them, and every kind
//! of bad trace ending in a non-zero exit with a message that says where and what.

use flate2::write::GzEncoder;
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("trace_cli").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn warpscope(args: &[&str], trace: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_warpscope"));
    c.args(args);
    if let Some(t) = trace {
        c.arg("--trace").arg(t);
    }
    c.output().expect("the binary runs")
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("the report is JSON")
}

/// A one-kernel trace folder with `body` after a valid header of tracer `version`.
fn folder(name: &str, version: u32, body: &str) -> PathBuf {
    let d = dir(name);
    let header = format!(
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = {version}\n\n"
    );
    std::fs::write(d.join("kernel-1.traceg"), header + body).unwrap();
    std::fs::write(d.join("kernelslist.g"), "MemcpyHtoD,0x00007f0000000000,4096\nkernel-1.traceg\n").unwrap();
    d
}

const GOOD: &str = "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n\
0010 ffffffff 1 R1 LDG.E 0 4 1 0x1000 4\n0020 ffffffff 0 FADD 1 R1 0\n0030 ffffffff 0 EXIT 0 0\n#END_TB\n";

/// The run fails with exit status 1 and its message contains every one of `want`.
fn fails(trace: &Path, extra: &[&str], want: &[&str]) {
    let mut args = vec!["run", "--quiet", "--format", "json"];
    args.extend(extra);
    let o = warpscope(&args, Some(trace));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(o.stdout.is_empty(), "no report for a bad trace");
    for w in want {
        assert!(err.contains(w), "expected `{w}` in: {err}");
    }
}

#[test]
fn export_then_run_replays_the_builtin_kernel() {
    let d = dir("export");
    let o = warpscope(&["trace", "export", "--kernel", "spmv", "--size", "tiny", "--out", d.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = json(&warpscope(&["run", "--kernel", "spmv", "--size", "tiny", "--format", "json", "--quiet"], None));
    let got = json(&warpscope(&["run", "--format", "json", "--quiet"], Some(&d.join("kernelslist.g"))));
    assert_eq!(got["size"], "trace");
    for key in ["cycles", "warp_instructions", "l1d", "l2", "dram", "launches"] {
        assert_eq!(got[key], want[key], "{key}");
    }
    assert_eq!(got["trace"]["kernels"][0]["file"], "kernel-1.traceg");
    assert_eq!(got["trace"]["kernels"][0]["memcpy_bytes_before"], 0);
    assert_eq!(got["trace"]["error"], Value::Null);
    let sampled = json(&warpscope(&["run", "--sample", "2", "--format", "json", "--quiet"], Some(&d)));
    assert_eq!((&sampled["size"], &sampled["warp_instructions"]), (&Value::from("trace"), &want["warp_instructions"]));
    let text = warpscope(&["run", "--quiet"], Some(&d));
    assert!(String::from_utf8_lossy(&text.stdout).contains("LDG.E"), "the text report lists the opcodes");
}

#[test]
fn a_hand_written_trace_runs_with_presets_policies_and_selection() {
    let d = folder("good", 3, GOOD);
    let r = json(&warpscope(
        &["run", "--quiet", "--format", "json", "--preset", "medic-gtx480", "--kernels", "1"],
        Some(&d),
    ));
    assert_eq!(r["warp_instructions"], 2);
    assert_eq!(r["core"]["loads"], 1);
    assert_eq!(r["completed"], true);
    assert_eq!(r["trace"]["kernels"][0]["memcpy_bytes_before"], 4096);
    let r = json(&warpscope(&["run", "--quiet", "--format", "json", "--policy", "medic"], Some(&d)));
    assert_eq!(r["warp_instructions"], 2);
    fails(&d, &["--kernels", "2-3"], &["--kernels names kernel 3 but the list has 1"]);
    fails(&d, &["--kernels", "x"], &["`x` is not a kernel number or range"]);
}

/// Coordinated bypassing on a trace profiles `--profile-trace` (here the built-in run's
/// profiling input, exported: spmv at tiny with the next seed), which gives the built-in
/// run's decisions and cycles; without it, the replayed trace itself (an oracle).
#[test]
fn coordinated_bypassing_profiles_a_second_trace_or_the_replayed_one() {
    let (run, profile) = (dir("coordinated-run"), dir("coordinated-profile"));
    for (d, seed) in [(&run, "1"), (&profile, "2")] {
        let args =
            ["trace", "export", "--kernel", "spmv", "--size", "tiny", "--seed", seed, "--out", d.to_str().unwrap()];
        assert!(warpscope(&args, None).status.success());
    }
    let base = ["run", "--quiet", "--format", "json", "--preset", "xie-fermi", "--set", "l1d.bypass=coordinated"];
    let with = |extra: &[&str], trace: Option<&Path>| json(&warpscope(&[&base[..], extra].concat(), trace));
    let want = with(&["--kernel", "spmv", "--size", "tiny"], None);
    let got = with(&["--profile-trace", profile.to_str().unwrap()], Some(&run));
    assert_eq!((&got["bypass"], &got["cycles"]), (&want["bypass"], &want["cycles"]));
    let oracle = with(&[], Some(&run));
    assert!(oracle["bypass"]["load_tags"].as_object().is_some_and(|t| !t.is_empty()), "{}", oracle["bypass"]);
    let missing = run.join("missing");
    let extra = ["--set", "l1d.bypass=coordinated", "--profile-trace", missing.to_str().unwrap()];
    fails(&run, &extra, &["--profile-trace", "missing"]);
    // sweep (and compare) take one --profile-trace per --trace: the trace's rows are spmv's.
    let (r, p) = (run.to_str().unwrap(), profile.to_str().unwrap());
    let sweep = ["sweep", "--preset", "xie-fermi", "--size", "tiny", "--kernel", "spmv", "--quiet"];
    let points = ["--set", "l1d.bypass=none,coordinated", "--trace", r, "--profile-trace", p];
    let o = warpscope(&[&sweep[..], &points].concat(), None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(rows_of(&text, "coordinated-run (trace)"), rows_of(&text, "spmv"), "{text}");
    assert_eq!(rows_of(&text, "spmv").len(), 2, "{text}");
    let o = warpscope(&[&sweep[..], &points, &["--profile-trace", p]].concat(), None);
    assert!(String::from_utf8_lossy(&o.stderr).contains("--profile-trace: give one per --trace"));
}

#[test]
fn bad_traces_say_where_and_what() {
    let bad_mask = GOOD.replace("0020 ffffffff", "0020 fffzffff");
    fails(&folder("malformed", 3, &bad_mask), &[], &["kernel-1.traceg:11:", "active mask", "fffzffff"]);
    fails(&folder("version", 7, GOOD), &[], &["kernel-1.traceg", "unknown accelsim tracer version 7"]);
    let extra = GOOD.replace("0x1000 4", "0x1000 4 8");
    fails(&folder("addresses", 3, &extra), &[], &["kernel-1.traceg:10:", "more addresses than the 32 active lanes"]);
    let truncated = GOOD.split("0030").next().unwrap().to_string();
    fails(&folder("truncated", 3, &truncated), &[], &["kernel-1.traceg", "ends after 2 of the warp's 3 instructions"]);
    let d = folder("short", 3, GOOD);
    let two_blocks = std::fs::read_to_string(d.join("kernel-1.traceg")).unwrap().replace("(1,1,1)", "(2,1,1)");
    std::fs::write(d.join("kernel-1.traceg"), two_blocks).unwrap();
    fails(&d, &[], &["kernel-1.traceg", "ends before thread block 1 of the grid's 2"]);
    let junk = format!("{GOOD}garbage\n");
    fails(&folder("junk", 3, &junk), &[], &["kernel-1.traceg:", "expected #BEGIN_TB, found `garbage`"]);
    let twice = format!("{GOOD}{}", &GOOD[GOOD.find("#BEGIN_TB").unwrap()..]);
    fails(&folder("twice", 3, &twice), &[], &["kernel-1.traceg", "follows the last of the grid's 1 blocks"]);
    let no_end = GOOD.replace("#END_TB\n", "");
    fails(&folder("no_end", 3, &no_end), &[], &["ends inside a thread block"]);
    let d = folder("missing", 3, GOOD);
    std::fs::write(d.join("kernelslist.g"), "kernel-1.traceg\nkernel-2.traceg\n").unwrap();
    fails(&d, &[], &["kernel-2.traceg: cannot open"]);
    let d = folder("list", 3, GOOD);
    std::fs::write(d.join("kernelslist.g"), "kernel-1.traceg\nlaunch k\n").unwrap();
    fails(&d, &[], &["kernelslist.g:2:", "expected a kernel trace file name"]);
    fails(&dir("empty"), &[], &["kernelslist.g: cannot open"]);
}

#[test]
fn gzip_traces_run_and_truncated_ones_fail() {
    let d = folder("gzip", 3, GOOD);
    let text = std::fs::read(d.join("kernel-1.traceg")).unwrap();
    let mut z = GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&text).unwrap();
    let gz = z.finish().unwrap();
    std::fs::remove_file(d.join("kernel-1.traceg")).unwrap();
    std::fs::write(d.join("kernel-1.traceg.gz"), &gz).unwrap();
    assert_eq!(json(&warpscope(&["run", "--quiet", "--format", "json"], Some(&d)))["warp_instructions"], 2);
    std::fs::write(d.join("kernel-1.traceg.gz"), &gz[..gz.len() / 2]).unwrap();
    fails(&d, &[], &["kernel-1.traceg"]);
}

/// The lines of a table whose first cell is `name`, with that cell dropped.
fn rows_of<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    table.lines().filter_map(|l| l.strip_prefix(name)).filter(|rest| rest.starts_with(' ')).map(str::trim).collect()
}

#[test]
fn compare_and_sweep_take_traces_beside_kernels_and_plan_them_as_jobs() {
    let d = dir("compare").join("bfs-trace");
    let o = warpscope(&["trace", "export", "--kernel", "bfs", "--size", "tiny", "--out", d.to_str().unwrap()], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tr = d.to_str().unwrap();
    let compare = ["compare", "--size", "tiny", "--kernels", "bfs", "--trace", tr, "--policies", "pcal", "--quiet"];
    let o = warpscope(&compare, None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // The trace of bfs replays to bfs's reports, so every table has the same row twice.
    let (builtin, traced) = (rows_of(&text, "bfs"), rows_of(&text, "bfs-trace (trace)"));
    assert_eq!(builtin.len(), 5, "{text}");
    assert_eq!(builtin, traced, "{text}");

    let sweep = ["sweep", "--size", "tiny", "--kernel", "bfs", "--trace", tr, "--set", "l1d.size_kb=16,32", "--quiet"];
    let o = warpscope(&sweep, None);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows_of(&text, "bfs").len(), 2, "{text}");
    assert_eq!(rows_of(&text, "bfs"), rows_of(&text, "bfs-trace (trace)"), "{text}");

    // Planned: the jobs find the trace by its absolute path from any directory.
    let plan = dir("compare-plan");
    let mut planned = compare.to_vec();
    planned.extend(["--plan", plan.to_str().unwrap()]);
    assert!(warpscope(&planned, None).status.success());
    let commands = std::fs::read_to_string(plan.join("commands.txt")).unwrap();
    for line in commands.lines() {
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let o = Command::new(env!("CARGO_BIN_EXE_warpscope")).args(&args).current_dir("/").output().unwrap();
        assert!(o.status.success(), "{line}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let collected = warpscope(&["collect", plan.to_str().unwrap()], None);
    assert_eq!(String::from_utf8_lossy(&collected.stdout), String::from_utf8_lossy(&warpscope(&compare, None).stdout));

    let missing = warpscope(&["compare", "--size", "tiny", "--trace", "/no/such/trace", "--policies", "pcal"], None);
    let err = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(1), "{err}");
    assert!(err.contains("--trace") && err.contains("/no/such/trace"), "{err}");
}
