//! Sweeps as independent jobs: `--plan DIR`, `warpscope job`, `warpscope collect`, run by GNU
//! Parallel with a job killed part-way, and the Slurm array script (docs/sweeps-on-clusters.md).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_warpscope");

/// 3 kernels x 4 L1 sizes x 2 schedulers: 24 tiny runs, about a second on two cores.
const SWEEP: &[&str] = &[
    "sweep",
    "--kernel",
    "atax,mvt,bicg",
    "--size",
    "tiny",
    "--set",
    "l1d.size_kb=16,32,64,128",
    "--set",
    "core.warp_scheduler=gto,lrr",
    "--quiet",
];

fn warpscope(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// An empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warpscope-clusters-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `args` with `--out OUT` and, when given, `--plan DIR` added.
fn with(args: &[&str], out: &Path, plan: Option<&Path>) -> Vec<String> {
    let mut v: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    v.extend(["--out".to_string(), s(out).to_string()]);
    if let Some(p) = plan {
        v.extend(["--plan".to_string(), s(p).to_string()]);
    }
    v
}

fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    warpscope(&args)
}

/// A scratch directory with SWEEP planned into its `plan`.
fn planned_sweep(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let plan = dir.join("plan");
    let o = run(&with(SWEEP, &dir.join("t.csv"), Some(&plan)));
    assert!(o.status.success(), "{}", text(&o.stderr));
    (dir, plan)
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

/// Runs every job of `jobs.txt` one after another, as any launcher would.
fn run_jobs(plan: &Path) {
    for id in lines(&plan.join("jobs.txt")) {
        let o = warpscope(&["job", s(plan), &id, "--quiet"]);
        assert!(o.status.success(), "job {id}: {}", text(&o.stderr));
    }
}

/// PATH with the built warpscope first, as a node with the binary installed has it.
fn path_with_warpscope() -> OsString {
    let bin_dir = Path::new(BIN).parent().unwrap().to_path_buf();
    let mut dirs = vec![bin_dir];
    dirs.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    std::env::join_paths(dirs).unwrap()
}

/// GNU Parallel, if it is installed (Debian's moreutils has another `parallel`).
fn gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| text(&o.stdout).contains("GNU parallel"))
}

fn parallel(plan: &Path) -> std::process::Child {
    Command::new("parallel")
        .args(["--jobs", "2", "-a", s(&plan.join("commands.txt"))])
        .env("PATH", path_with_warpscope())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("GNU Parallel starts")
}

/// Waits for a job of the plan to be under way, kills it with SIGKILL, and returns its id and
/// pid; None if every job finished before one could be caught.
fn kill_a_running_job(plan: &Path, parallel: &mut std::process::Child) -> Option<(String, u32)> {
    let out = plan.join("out");
    let deadline = Instant::now() + Duration::from_secs(120);
    while parallel.try_wait().unwrap().is_none() && Instant::now() < deadline {
        for entry in std::fs::read_dir(&out).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = name.strip_suffix(".started") else { continue };
            let Ok(started) = std::fs::read_to_string(entry.path()) else { continue };
            let Some(pid) = started.trim().rsplit("pid ").next().and_then(|p| p.parse::<u32>().ok()) else {
                continue;
            };
            // Only a `warpscope job` of this id that is still running, never another process.
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if out.join(format!("{id}.json")).exists() || !text(&cmdline).contains(id) {
                continue;
            }
            let killed = Command::new("kill").args(["-KILL", &pid.to_string()]).status().unwrap();
            std::thread::sleep(Duration::from_millis(50));
            if killed.success() && !out.join(format!("{id}.json")).exists() {
                return Some((id.to_string(), pid));
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    None
}

#[test]
fn gnu_parallel_runs_a_planned_sweep_with_a_job_killed_and_collect_matches_the_in_process_sweep() {
    if !gnu_parallel() {
        // Straight to stderr, past the test harness's capture, so the skip is seen.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED gnu_parallel_runs_a_planned_sweep...: GNU Parallel (`parallel`) is not installed; \
             `bash scripts/setup.sh --browser` installs it"
        );
        return;
    }
    let dir = scratch("parallel");
    let plan = dir.join("plan");
    let in_process = run(&with(SWEEP, &dir.join("in-process.csv"), None));
    assert!(in_process.status.success(), "{}", text(&in_process.stderr));

    let planned = run(&with(SWEEP, &dir.join("collected.csv"), Some(&plan)));
    assert!(planned.status.success(), "{}", text(&planned.stderr));
    assert!(text(&planned.stdout).starts_with("planned 24 runs as 24 jobs in "), "{}", text(&planned.stdout));
    assert_eq!(lines(&plan.join("commands.txt")).len(), 24);
    assert!(!dir.join("collected.csv").exists(), "planning runs nothing and writes no table");

    // First submission: one job is killed part-way; the others finish.
    let mut first = parallel(&plan);
    let killed = kill_a_running_job(&plan, &mut first);
    let first = first.wait_with_output().unwrap();
    let (id, pid) = killed.expect("a job was caught running and killed");
    assert_eq!(first.status.code(), Some(1), "GNU Parallel counts one failed job: {}", text(&first.stderr));
    let out = plan.join("out");
    assert!(!out.join(format!("{id}.json")).exists(), "a killed job leaves no report");
    let reports = std::fs::read_dir(&out).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned());
    let reports: Vec<String> = reports.collect();
    assert_eq!(reports.iter().filter(|n| n.ends_with(".json")).count(), 23, "{reports:?}");
    assert!(!reports.iter().any(|n| n.ends_with(".tmp")), "no half-written file is left: {reports:?}");

    // Collect names the killed job by id, with its host and pid, and exits 4.
    let partial = warpscope(&["collect", s(&plan)]);
    let err = text(&partial.stderr);
    assert_eq!(partial.status.code(), Some(4), "{err}");
    assert!(err.contains("collect: 1 of 24 runs have no report yet, from 1 jobs:"), "{err}");
    assert!(err.contains(&format!("  {id} (")), "{err}");
    assert!(err.contains(&format!("pid {pid}) and left no report: killed, crashed or still running")), "{err}");
    assert_eq!(text(&partial.stdout).lines().count(), 1 + 23, "the table has the 23 finished points");

    // Resume: the job list holds only the killed job; the second submission runs just that.
    let resumed = warpscope(&["collect", s(&plan), "--resume"]);
    assert_eq!(resumed.status.code(), Some(4));
    assert_eq!(lines(&plan.join("jobs.txt")), std::slice::from_ref(&id));
    assert_eq!(lines(&plan.join("commands.txt")).len(), 1);
    let second = parallel(&plan).wait_with_output().unwrap();
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(text(&second.stdout).lines().filter(|l| l.starts_with("wrote ")).count(), 1);

    // Complete: the same bytes as the sweep run in one process, on stdout and in the CSV.
    let done = warpscope(&["collect", s(&plan)]);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert_eq!(text(&done.stdout), text(&in_process.stdout));
    assert_eq!(std::fs::read(dir.join("collected.csv")).unwrap(), std::fs::read(dir.join("in-process.csv")).unwrap());
    assert!(text(&done.stderr).contains("collect: all 24 runs of "), "{}", text(&done.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn planned_compare_and_figure_collect_to_what_they_print_in_process() {
    let dir = scratch("compare-figure");
    let compare: &[&str] = &[
        "compare",
        "--policies",
        "rand,wbyp",
        "--kernels",
        "bfs,spmv",
        "--size",
        "tiny",
        "--tune",
        "rand:l2.rand.share=0,1",
        "--jobs",
        "2",
        "--quiet",
    ];
    let figure: &[&str] = &["figure", "sc14-fig11", "--size", "tiny", "--quiet"];
    for (name, args, ext) in [("compare", compare, "csv"), ("figure", figure, "svg")] {
        let plan = dir.join(name);
        let here = dir.join(format!("{name}-in-process.{ext}"));
        let collected = dir.join(format!("{name}-collected.{ext}"));
        let in_process = run(&with(args, &here, None));
        assert!(in_process.status.success(), "{name}: {}", text(&in_process.stderr));
        let planned = run(&with(args, &collected, Some(&plan)));
        assert!(planned.status.success(), "{name}: {}", text(&planned.stderr));
        run_jobs(&plan);
        let done = warpscope(&["collect", s(&plan)]);
        assert_eq!(done.status.code(), Some(0), "{name}: {}", text(&done.stderr));
        assert_eq!(text(&done.stdout), text(&in_process.stdout), "{name}");
        assert_eq!(std::fs::read(&collected).unwrap(), std::fs::read(&here).unwrap(), "{name}");
        // `collect --out` writes the file elsewhere, the same again.
        let elsewhere = dir.join(format!("{name}-elsewhere.{ext}"));
        assert!(warpscope(&["collect", s(&plan), "--out", s(&elsewhere)]).status.success());
        assert_eq!(std::fs::read(&elsewhere).unwrap(), std::fs::read(&here).unwrap(), "{name}");
    }
    // A job's report is a report: `warpscope plot` draws it.
    let report = std::fs::read_dir(dir.join("figure/out")).unwrap().flatten().next().unwrap().path();
    let o = warpscope(&["plot", "--chart", "divergence", "--csv", "--out", s(&dir.join("d.csv")), s(&report)]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_slurm_script_is_valid_bash_and_its_array_covers_every_job() {
    let (dir, plan) = planned_sweep("slurm");
    let script = plan.join("slurm.sh");
    let n = bash(&["-n", s(&script)], &[]);
    assert!(n.status.success(), "bash -n: {}", text(&n.stderr));

    // A stand-in for warpscope that only notes what each array task asks of it.
    let calls = dir.join("calls.txt");
    let fake = dir.join("fake-warpscope");
    std::fs::write(&fake, format!("#!/bin/sh\necho \"$@\" >> {}\n", s(&calls))).unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let ran = |tasks: u64, chunk: &str| -> Vec<String> {
        let _ = std::fs::remove_file(&calls);
        for task in 0..tasks {
            let env = [
                ("WARPSCOPE", s(&fake).to_string()),
                ("SLURM_ARRAY_TASK_ID", task.to_string()),
                ("WARPSCOPE_CHUNK", chunk.to_string()),
            ];
            let o = bash(&[s(&script)], &env);
            assert!(o.status.success(), "task {task}: {}", text(&o.stderr));
        }
        let plan_dir = plan.canonicalize().unwrap();
        lines(&calls)
            .iter()
            .map(|l| {
                let rest = l.strip_prefix(&format!("job {} ", s(&plan_dir))).unwrap_or_else(|| panic!("{l}"));
                rest.to_string()
            })
            .collect()
    };
    let jobs = lines(&plan.join("jobs.txt"));
    assert_eq!(jobs.len(), 24);
    let text = std::fs::read_to_string(&script).unwrap();
    // One task per job: the `#SBATCH --array` range is the plan's jobs, each run once, in order.
    assert_eq!(array_range(&text, "#SBATCH --array="), (0, 23));
    assert_eq!(ran(24, "1"), jobs);
    // Ten jobs per task: the range the script's header gives covers them all, once.
    assert_eq!(array_range(&text, "WARPSCOPE_CHUNK=10 "), (0, 2));
    assert_eq!(ran(3, "10"), jobs);

    // After two jobs ran and `collect --resume`, the array covers the 22 left.
    run_two_jobs(&plan, &jobs);
    assert_eq!(warpscope(&["collect", s(&plan), "--resume"]).status.code(), Some(4));
    let text = std::fs::read_to_string(&script).unwrap();
    assert_eq!(array_range(&text, "#SBATCH --array="), (0, 21));
    assert_eq!(ran(22, "1"), jobs[2..]);
    std::fs::remove_dir_all(&dir).ok();
}

fn run_two_jobs(plan: &Path, jobs: &[String]) {
    for id in &jobs[..2] {
        assert!(warpscope(&["job", s(plan), id, "--quiet"]).status.success());
    }
}

fn bash(args: &[&str], env: &[(&str, String)]) -> Output {
    let mut c = Command::new("bash");
    c.args(args).env_remove("WARPSCOPE_CHUNK").env_remove("SLURM_ARRAY_TASK_ID");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("bash runs")
}

/// The `--array=A-B` range on the script's first line that holds `marker`.
fn array_range(script: &str, marker: &str) -> (u64, u64) {
    let line = script.lines().find(|l| l.contains(marker)).unwrap_or_else(|| panic!("no `{marker}` in\n{script}"));
    let range = line.split("--array=").nth(1).and_then(|r| r.split_whitespace().next()).unwrap();
    let (a, b) = range.split_once('-').unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

#[test]
fn ids_depend_on_the_runs_content_only_and_a_new_plan_keeps_the_reports_it_shares() {
    let dir = scratch("ids");
    let ids = |plan: &Path| -> Vec<String> {
        let manifest = std::fs::read_to_string(plan.join("manifest.jsonl")).unwrap();
        manifest
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["id"].as_str().unwrap().to_string())
            .collect()
    };
    let plan_in = |plan: &Path, cwd: &Path, args: &[&str]| {
        let mut v: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        v.extend(["--plan".into(), s(plan).into()]);
        let o = Command::new(BIN).args(&v).current_dir(cwd).output().unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    let a = dir.join("a");
    plan_in(&a, &dir, SWEEP);
    // Elsewhere, through a relative path from another directory: the same ids in the same order.
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    plan_in(Path::new("../b"), &dir.join("elsewhere"), SWEEP);
    assert_eq!(ids(&a), ids(&dir.join("b")));
    let unique: std::collections::BTreeSet<String> = ids(&a).into_iter().collect();
    assert_eq!(unique.len(), 24, "every run has its own id");
    // The kernels in another order: the same set of ids.
    let reordered: Vec<&str> = SWEEP.iter().map(|a| if *a == "atax,mvt,bicg" { "bicg,atax,mvt" } else { a }).collect();
    plan_in(&dir.join("c"), &dir, &reordered);
    let (mut x, mut y) = (ids(&a), ids(&dir.join("c")));
    x.sort();
    y.sort();
    assert_eq!(x, y);
    // Another seed is another run.
    let mut seeded: Vec<&str> = SWEEP.to_vec();
    seeded.extend(["--seed", "2"]);
    plan_in(&dir.join("d"), &dir, &seeded);
    assert!(ids(&dir.join("d")).iter().all(|id| !ids(&a).contains(id)));

    // A plan made again with one more L1 size keeps the two reports it shares.
    let first = ids(&a);
    for id in &first[..2] {
        assert!(warpscope(&["job", s(&a), id, "--quiet"]).status.success());
    }
    let wider: Vec<&str> =
        SWEEP.iter().map(|x| if x.starts_with("l1d.size_kb=") { "l1d.size_kb=16,32,64,128,256" } else { x }).collect();
    let said = plan_in(&a, &dir, &wider);
    assert!(said.starts_with("planned 30 runs as 30 jobs in "), "{said}");
    assert!(said.contains("2 already have reports, 28 to run"), "{said}");
    let jobs = lines(&a.join("jobs.txt"));
    assert_eq!(jobs.len(), 28);
    assert!(!jobs.contains(&first[0]) && !jobs.contains(&first[1]));
    // The same run twice in one plan is one job.
    let twice: Vec<&str> =
        SWEEP.iter().map(|x| if x.starts_with("l1d.size_kb=") { "l1d.size_kb=16,16" } else { x }).collect();
    let said = plan_in(&dir.join("e"), &dir, &twice);
    assert!(said.starts_with("planned 12 runs as 6 jobs in "), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_plans_ids_and_reports_are_named_and_failed_jobs_listed_with_their_error() {
    let (dir, plan) = planned_sweep("errors");
    let jobs = lines(&plan.join("jobs.txt"));
    let refused = |args: &[&str], needle: &str| {
        let o = warpscope(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    };
    // Not a plan, no directory, an unknown id.
    refused(&["job", s(&dir), &jobs[0]], "is not a warpscope plan: it has no plan.json");
    refused(&["collect", s(&dir.join("nowhere"))], "is not a directory");
    refused(&["job", s(&plan), "nope"], "unknown run `nope`: the plan in ");
    refused(&["job", s(&plan), "nope"], &format!("has 24 runs as 24 jobs, such as `{}`", jobs[0]));
    // A non-empty directory that is no plan is not planned into.
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let mut into_dir: Vec<&str> = SWEEP.to_vec();
    into_dir.extend(["--plan", s(&dir)]);
    refused(&into_dir, "is not empty and holds no plan");

    // Reports cut short, empty, of another run or of another version are failed jobs, by reason.
    for id in &jobs[..5] {
        assert!(warpscope(&["job", s(&plan), id, "--quiet"]).status.success());
    }
    let report = |id: &str| plan.join("out").join(format!("{id}.json"));
    let whole = std::fs::read_to_string(report(&jobs[0])).unwrap();
    std::fs::write(report(&jobs[0]), &whole[..whole.len() / 2]).unwrap();
    std::fs::write(report(&jobs[1]), "").unwrap();
    std::fs::write(report(&jobs[2]), std::fs::read(report(&jobs[3])).unwrap()).unwrap();
    let own = std::fs::read_to_string(report(&jobs[4])).unwrap();
    let other_version = own.replacen("\"version\": \"", "\"version\": \"9", 1);
    std::fs::write(report(&jobs[4]), other_version).unwrap();
    let o = warpscope(&["collect", s(&plan)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    let listed = |id: &str, why: &str| {
        let line = err.lines().find(|l| l.starts_with(&format!("  {id} ("))).unwrap_or_else(|| panic!("{id}: {err}"));
        assert!(line.contains(why), "{id}: {line}");
    };
    listed(&jobs[0], &format!("failed: out/{}.json is not a whole report (cut short or damaged: ", jobs[0]));
    listed(&jobs[1], "is not a whole report (cut short or damaged: EOF");
    listed(&jobs[2], &format!("is the report of run `{}`", jobs[3]));
    listed(&jobs[4], "was written by warpscope 90.1.0, not 0.1.0");
    listed(&jobs[5], "not run yet");
    assert!(err.contains("collect: 23 of 24 runs have no report yet, from 23 jobs:"), "{err}");
    // Running such a job again replaces its report.
    assert!(warpscope(&["job", s(&plan), &jobs[0], "--quiet"]).status.success());
    assert_eq!(std::fs::read_to_string(report(&jobs[0])).unwrap(), whole);

    // Two workers on one job: both succeed and leave one whole report, no temporary file.
    let spawned: Vec<std::process::Child> = (0..2)
        .map(|_| Command::new(BIN).args(["job", s(&plan), &jobs[7], "--quiet"]).stdout(Stdio::null()).spawn().unwrap())
        .collect();
    for mut c in spawned {
        assert!(c.wait().unwrap().success());
    }
    let o = warpscope(&["collect", s(&plan)]);
    let err = text(&o.stderr);
    assert!(!err.contains(&format!("  {} (", jobs[7])), "{err}");
    let leftovers: Vec<String> = std::fs::read_dir(plan.join("out"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".json"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A plan of another version is refused by name, by job and by collect.
    let header = plan.join("plan.json");
    let h = std::fs::read_to_string(&header).unwrap().replace("\"warpscope\": \"0.1.0\"", "\"warpscope\": \"0.0.9\"");
    std::fs::write(&header, h).unwrap();
    let why = "was planned by warpscope 0.0.9 (plan format 2); this is warpscope 0.1.0";
    refused(&["job", s(&plan), &jobs[8]], why);
    refused(&["collect", s(&plan)], why);
    std::fs::write(&header, "{\"warpscope_plan\":").unwrap();
    refused(&["collect", s(&plan)], "plan.json is not a warpscope plan header");

    // A job whose simulation stops exits 3 and leaves its error for collect, and no report.
    let stopped = dir.join("stopped");
    let o = warpscope(&[
        "sweep",
        "--kernel",
        "bfs",
        "--size",
        "tiny",
        "--set",
        "stats.watchdog_cycles=1",
        "--set",
        "l2.ports=1,2",
        "--plan",
        s(&stopped),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let id = lines(&stopped.join("jobs.txt"))[0].clone();
    let o = warpscope(&["job", s(&stopped), &id, "--quiet"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o.stderr));
    assert!(!stopped.join("out").join(format!("{id}.json")).exists());
    let o = warpscope(&["collect", s(&stopped)]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    let line = err.lines().find(|l| l.starts_with(&format!("  {id} ("))).unwrap();
    assert!(
        line.contains("failed: bfs at stats.watchdog_cycles=1,l2.ports=1 stopped: watchdog: no progress for "),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
